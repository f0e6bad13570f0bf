//! A quick, noise-tolerant NTT/LDE comparison with Plonky3 for a shared machine: the
//! implementations run alternately, many rounds, and the minimum time of each is reported
//! (criterion's medians, `benches/ntt.rs`, are the reference numbers on a quiet machine).
//!
//! Also reported: the process CPU time per call (user + system, from `/proc/self/stat`), which
//! other processes on the machine disturb much less than wall time.
//!
//! `cargo run --release -p aurum-benches --example ntt_quick [ROUNDS]`
//! (add `RUSTFLAGS="-C target-cpu=native"` to give Plonky3 its AVX-512 packing).

use std::time::Instant;

use aurum_benches::process_cpu_ms as cpu_ms;
use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Ntt, Order};
use p3_dft::{Radix2Bowers, Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::PrimeCharacteristicRing;
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let ntt = Ntt::plonky3();
    println!(
        "backend {}, {rounds} rounds, 2 threads, min times in ms",
        ntt.backend().unwrap()
    );
    for lde in [false, true] {
        for (log_h, width) in [(20usize, 8usize), (16, 256), (22, 1)] {
            let raw: Vec<u64> = (0..(width << log_h) as u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 0xFFFF_FFFF_0000_0001)
                .collect();
            let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
            let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
            let dit = Radix2DitParallel::<P3>::default();
            let small = Radix2DFTSmallBatch::<P3>::new(1 << (log_h + 1));
            let names = [
                "aurum",
                "p3-radix2-dit-parallel",
                "p3-bowers",
                "p3-small-batch",
            ];
            let mut best = [f64::MAX; 4];
            let mut cpu = [0.0f64; 4];
            for _ in 0..rounds {
                for (k, b) in best.iter_mut().enumerate() {
                    let mut mine = ours.clone();
                    let mat = RowMajorMatrix::new(theirs.clone(), width);
                    let (t, c) = (Instant::now(), cpu_ms());
                    pool.install(|| match (k, lde) {
                        (0, false) => ntt.forward(&mut mine, width, Order::BitReversed).unwrap(),
                        (0, true) => drop(
                            ntt.coset_lde_vec(
                                mine,
                                width,
                                1,
                                Goldilocks::from_u64(7),
                                Order::BitReversed,
                            )
                            .unwrap(),
                        ),
                        (1, false) => drop(dit.dft_batch(mat)),
                        (1, true) => drop(dit.coset_lde_batch(mat, 1, P3::from_u64(7))),
                        (2, false) => drop(Radix2Bowers.dft_batch(mat)),
                        (2, true) => drop(Radix2Bowers.coset_lde_batch(mat, 1, P3::from_u64(7))),
                        (_, false) => drop(small.dft_batch(mat)),
                        (_, true) => drop(small.coset_lde_batch(mat, 1, P3::from_u64(7))),
                    });
                    *b = b.min(t.elapsed().as_secs_f64() * 1e3);
                    cpu[k] += (cpu_ms() - c) / rounds as f64;
                }
            }
            let p3_best = best[1..].iter().copied().fold(f64::MAX, f64::min);
            let line: Vec<String> = names
                .iter()
                .zip(best)
                .map(|(n, t)| format!("{n} {t:.1}"))
                .collect();
            let p3_best_cpu = cpu[1..].iter().copied().fold(f64::MAX, f64::min);
            let cpu_line: Vec<String> = cpu.iter().map(|t| format!("{t:.0}")).collect();
            println!(
                "{} 2^{log_h}x{width}: wall {} | aurum vs best p3: {:.2}x | cpu ms {} | {:.2}x",
                if lde { "coset_lde_batch" } else { "dft_batch" },
                line.join(", "),
                p3_best / best[0],
                cpu_line.join(" "),
                p3_best_cpu / cpu[0]
            );
        }
    }
}
