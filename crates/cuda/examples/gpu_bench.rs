//! The GPU's figures beside the host CPU's, same run: `cargo run --release -p aurum-cuda
//! --example gpu_bench [quick]` (scripts/gpu-check.sh runs it on a machine with a GPU; `quick`
//! leaves out 2^24 × 8 and the Polygon preset at 2^24 × 136).
//!
//! Prints the device and its start-up cost, permutation rates (device-resident states), the
//! same and resident leaf hashing for each register bound of the kernels (`KernelTuning`), coset
//! LDEs (the kernels alone, host → device, host → host, the same LDE on every CPU core of the
//! host, values compared) and Merkle commitments: time on the GPU (hashing only), host → root
//! (copies included), and the same tree on every CPU core of the host, with the roots compared.

use std::time::{Duration, Instant};

use aurum_cuda::kernels::lde::LdePlan;
use aurum_cuda::{
    Gpu, GpuKernel, GpuPermutation, KernelTuning, Poseidon2Constants, commit_on_device,
    commit_timed, coset_lde_timed, hash_resident,
};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Matrix, MerkleTree, Preset, with_preset};
use aurum_ntt::{Domain, Ntt, Order};
use rayon::prelude::*;

fn data(len: usize, seed: u64) -> Vec<Goldilocks> {
    let mut v = vec![Goldilocks::ZERO; len];
    v.par_chunks_mut(1 << 16)
        .enumerate()
        .for_each(|(c, chunk)| {
            for (i, x) in chunk.iter_mut().enumerate() {
                let k = ((c << 16) + i) as u64 + 1;
                *x = Goldilocks::from_u64(k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed);
            }
        });
    v
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut() -> Duration) -> (Duration, Duration, Duration) {
    let mut t: Vec<Duration> = (0..runs).map(|_| f()).collect();
    t.sort();
    (t[t.len() / 2], t[0], t[t.len() - 1])
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let start = Instant::now();
    let gpu = match Gpu::open() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("gpu_bench: {e}");
            std::process::exit(1);
        }
    };
    println!("device: {}", gpu.info());
    // Groups of kernels that failed the known-answer check are not run: their rows say so.
    for refused in gpu.refused() {
        println!("refused: {refused}");
    }
    println!(
        "open (driver, NVRTC compile, module load): {:.0} ms",
        ms(start.elapsed())
    );
    println!("host: {} threads", rayon::current_num_threads());
    println!("\n| kernel | registers | local bytes |\n|---|---:|---:|");
    for (name, registers, local) in gpu.kernel_resources().expect("kernel attributes") {
        println!("| {name} | {registers} | {local} |");
    }

    println!("\n| permutation | G perm/s (median) | range |");
    println!("|---|---:|---|");
    for perm in GpuPermutation::ALL {
        if gpu.kernel_usable(GpuKernel::Permutation(perm)).is_err() {
            println!("| {} | refused | |", perm.name());
            continue;
        }
        let rate = gpu
            .permutation_rate(perm, 1 << 22, 16, 5)
            .expect("permutation rate");
        println!(
            "| {} | {:.3} | {:.3}–{:.3} |",
            perm.name(),
            rate.per_second / 1e9,
            rate.range.0 / 1e9,
            rate.range.1 / 1e9
        );
    }

    register_bounds();
    ldes(&gpu);

    println!(
        "\n| preset | rows × width | GPU hash ms | host → root ms | host → all layers ms | CPU ms ({} threads) | CPU ÷ GPU hash | CPU ÷ host → root | roots |",
        rayon::current_num_threads()
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---|");
    let mut jobs: Vec<(Preset, usize, usize, bool)> = vec![
        (Preset::Poseidon2W8, 12, 8, true),
        (Preset::Poseidon2W8, 14, 8, true),
        (Preset::Poseidon2W8, 16, 8, true),
        (Preset::Poseidon2W8, 18, 8, true),
        (Preset::Poseidon2W8, 20, 8, true),
        (Preset::Poseidon2W12, 20, 8, true),
        (Preset::Poseidon2W16, 20, 8, true),
        (Preset::Plonky2, 20, 8, true),
        (Preset::Polygon, 20, 8, true),
        (Preset::Poseidon2W8, 22, 136, true),
        (Preset::Plonky2, 22, 136, true),
        (Preset::Poseidon2W8, 24, 136, false),
        (Preset::Plonky2, 24, 136, false),
    ];
    if !quick {
        jobs.extend([
            (Preset::Poseidon2W8, 24, 8, true),
            (Preset::Polygon, 24, 136, false),
        ]);
    }
    for (preset, log_rows, width, with_cpu) in jobs {
        if gpu.kernel_usable(GpuKernel::Tree(preset)).is_err() {
            println!("| {preset} | 2^{log_rows} × {width} | refused | | | | | | |");
            continue;
        }
        let rows = 1usize << log_rows;
        let values = data(rows * width, log_rows as u64 * 1000 + width as u64);
        let matrix = Matrix::new(&values, width).expect("whole rows");
        let runs = if log_rows >= 22 { 3 } else { 5 };
        // The kernels alone (input copied to the device beforehand).
        let mut resident_root = None;
        let (hash, _, _) = median(runs, || {
            let (root, t) = hash_resident(&gpu, preset, &[matrix]).expect("GPU hash");
            resident_root = Some(root);
            t
        });
        // Host matrices to the root: streamed, copies overlapped, only the root copied back.
        let mut streamed_root = None;
        let (to_root, _, _) = median(runs, || {
            let s = Instant::now();
            let tree = commit_on_device(&gpu, preset, &[matrix]).expect("GPU commit");
            streamed_root = Some(tree.root().expect("root"));
            s.elapsed()
        });
        // Host matrices to every layer back on the host.
        let mut layers_root = None;
        let (to_layers, _, _) = median(runs, || {
            let s = Instant::now();
            let (digests, _) = commit_timed(&gpu, preset, &[matrix]).expect("GPU commit");
            layers_root = Some(digests.root());
            s.elapsed()
        });
        let gpu_agree = resident_root == streamed_root && streamed_root == layers_root;
        let (cpu, roots) = if with_cpu {
            with_preset!(preset, |config| {
                let mut root = None;
                let (t, _, _) = median(runs, || {
                    let s = Instant::now();
                    let tree = MerkleTree::new(&config, vec![matrix]).expect("CPU tree");
                    let t = s.elapsed();
                    root = Some(tree.root());
                    t
                });
                let equal = gpu_agree && root == streamed_root;
                (Some(t), if equal { "equal" } else { "DIFFER" })
            })
        } else {
            (
                None,
                if gpu_agree {
                    "GPU paths equal"
                } else {
                    "DIFFER"
                },
            )
        };
        let ratio = |gpu: Duration| {
            cpu.map_or("—".to_string(), |t| {
                format!("{:.1}×", t.as_secs_f64() / gpu.as_secs_f64())
            })
        };
        println!(
            "| {preset} | 2^{log_rows} × {width} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {roots} |",
            ms(hash),
            ms(to_root),
            ms(to_layers),
            cpu.map_or("—".to_string(), |t| format!("{:.1}", ms(t))),
            ratio(hash),
            ratio(to_root),
        );
        if roots == "DIFFER" {
            std::process::exit(1);
        }
    }
}

/// The kernels compiled with each register bound (`KernelTuning::min_blocks`: blocks of 128
/// threads per SM, registers at most 65536 / (128 · blocks); 4 is the default): registers,
/// permutation rates and resident leaf hashing of 2^20 × 136, the rows of a zkEVM trace's
/// width (what the default was chosen without measuring).
fn register_bounds() {
    let rows = 1 << 20;
    let values = data(rows * 136, 7);
    let matrix = Matrix::new(&values, 136).expect("whole rows");
    println!(
        "\n| min blocks per SM | registers: poseidon2-w8, -w16, plonky2 leaves | w8 | w12 | w16 | \
         poseidon G perm/s | poseidon2-w8 2^20 × 136 ms | plonky2 2^20 × 136 ms |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for min_blocks in [2, 4, 6] {
        let gpu = match Gpu::open_tuned(Poseidon2Constants::default(), KernelTuning { min_blocks })
        {
            Ok(gpu) => gpu,
            Err(e) => {
                println!("| {min_blocks} | {e} |");
                continue;
            }
        };
        let resources = gpu.kernel_resources().expect("kernel attributes");
        let registers = |name: &str| {
            resources
                .iter()
                .find(|(n, _, _)| *n == name)
                .map_or(0, |(_, r, _)| *r)
        };
        let rates: Vec<String> = GpuPermutation::ALL
            .iter()
            .map(|&perm| {
                if gpu.kernel_usable(GpuKernel::Permutation(perm)).is_err() {
                    return "refused".to_string();
                }
                let rate = gpu
                    .permutation_rate(perm, 1 << 22, 16, 5)
                    .expect("permutation rate");
                format!("{:.3}", rate.per_second / 1e9)
            })
            .collect();
        let hash = |preset| {
            if gpu.kernel_usable(GpuKernel::Tree(preset)).is_err() {
                return "refused".to_string();
            }
            let (t, _, _) = median(3, || {
                hash_resident(&gpu, preset, &[matrix]).expect("GPU hash").1
            });
            format!("{:.1}", ms(t))
        };
        println!(
            "| {min_blocks} | {}, {}, {} | {} | {} | {} |",
            registers("poseidon2_w8_packed_leaves"),
            registers("poseidon2_w16_packed_leaves"),
            registers("plonky2_packed_leaves"),
            rates.join(" | "),
            hash(Preset::Poseidon2W8),
            hash(Preset::Plonky2),
        );
    }
}

/// Coset LDEs (Plonky3's domain and shift, bit-reversed rows as FRI commits them): the
/// kernels alone, host → device result, host → host, and the CPU's on the host's cores; the
/// effective bandwidth counts the input read and the output written once each (the least any
/// LDE moves), the achieved one what the launch plan moves (`LdePlan::traffic_words`).
fn ldes(gpu: &Gpu) {
    println!(
        "\n| LDE | blow-up | GPU kernels ms | range | GB/s (in + out once) | plan moves (× in + out) | GB/s moved | host → device ms | host → host ms | CPU ms ({} threads) | CPU ÷ GPU kernels | values |",
        rayon::current_num_threads()
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
    if let Err(e) = gpu.kernel_usable(GpuKernel::Lde) {
        println!("| refused: {e} |");
        return;
    }
    let shift = Domain::PLONKY3.shift();
    for (log_rows, width, added_bits) in [(20, 8, 1), (24, 8, 1), (20, 256, 1), (16, 2633, 1)] {
        let rows = 1usize << log_rows;
        let values = data(rows * width, log_rows as u64 * 7 + width as u64);
        let runs = 5;
        let run = || {
            coset_lde_timed(
                gpu,
                Domain::PLONKY3,
                &values,
                width,
                added_bits,
                shift,
                Order::BitReversed,
            )
            .expect("GPU LDE")
        };
        let mut kernel_times: Vec<Duration> = Vec::new();
        let (to_device, _, _) = median(runs, || {
            let s = Instant::now();
            let (matrix, timings) = run();
            let t = s.elapsed();
            kernel_times.push(timings.transform);
            drop(matrix);
            t
        });
        kernel_times.sort();
        let kernels = kernel_times[kernel_times.len() / 2];
        let mut on_gpu = Vec::new();
        let (to_host, _, _) = median(3, || {
            let s = Instant::now();
            on_gpu = run().0.to_host().expect("copy back");
            s.elapsed()
        });
        let ntt = Ntt::plonky3();
        let mut cpu = Vec::new();
        let (cpu_time, _, _) = median(3, || {
            let s = Instant::now();
            cpu = ntt
                .coset_lde(&values, width, added_bits, shift, Order::BitReversed)
                .expect("CPU LDE");
            s.elapsed()
        });
        let bytes = (values.len() + (values.len() << added_bits)) as f64 * 8.0;
        let plan = LdePlan::new(
            log_rows,
            added_bits as u32,
            width as u64,
            Domain::PLONKY3
                .root_of_unity(log_rows as usize + added_bits)
                .expect("a small domain"),
            shift,
            true,
        );
        let moved = plan.traffic_words() as f64 * 8.0;
        let equal = if cpu == on_gpu { "equal" } else { "DIFFER" };
        println!(
            "| 2^{log_rows} × {width} | {} | {:.2} | {:.2}–{:.2} | {:.0} | {:.1} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1}× | {equal} |",
            1 << added_bits,
            ms(kernels),
            ms(kernel_times[0]),
            ms(kernel_times[kernel_times.len() - 1]),
            bytes / kernels.as_secs_f64() / 1e9,
            moved / bytes,
            moved / kernels.as_secs_f64() / 1e9,
            ms(to_device),
            ms(to_host),
            ms(cpu_time),
            cpu_time.as_secs_f64() / kernels.as_secs_f64(),
        );
        if equal == "DIFFER" {
            std::process::exit(1);
        }
    }
}
