//! The GPU's figures beside the host CPU's, same run: `cargo run --release -p aurum-cuda
//! --example gpu_bench [quick]` (scripts/gpu-check.sh runs it on a machine with a GPU; `quick`
//! leaves out 2^24 × 8 and the Polygon preset at 2^24 × 136).
//!
//! Prints the device and its start-up cost, permutation rates (device-resident states), and
//! Merkle commitments: time on the GPU (hashing only), host → root (copies included), and the
//! same tree on every CPU core of the host, with the roots compared.

use std::time::{Duration, Instant};

use aurum_cuda::{Gpu, GpuPermutation, commit_on_device, commit_timed, hash_resident};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Matrix, MerkleTree, Preset, with_preset};
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
