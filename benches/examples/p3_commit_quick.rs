//! A quick, noise-tolerant companion of `benches/p3_adapter.rs` for a shared machine:
//! Plonky3's `MerkleTreeMmcs::commit` with stock hashing (`p3`), with Aurum's through
//! `aurum-p3`'s batched hooks (`aurum-p3`), and the same tree built by `aurum-merkle` directly
//! (`aurum-merkle`), run alternately for several rounds; it reports each one's minimum wall
//! time and mean process CPU time per commit. The `aurum-p3` / `aurum-merkle` pair measures
//! what Plonky3's row staging costs the hooks route.
//!
//! `cargo run --release -p aurum-benches --example p3_commit_quick [LOG_ROWS [ROUNDS]]`
//! (default 2^16 rows × 2633 columns, the Keccak trace's LDE; 3 rounds; add
//! `RUSTFLAGS="-C target-cpu=native"` to give Plonky3 its AVX-512 packing).

use std::time::Instant;

use aurum_benches::process_cpu_ms as cpu_ms;
use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::Poseidon2W8;
use aurum_merkle::{Matrix, MerkleTree};
use aurum_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use p3_commit::Mmcs;
use p3_field::{Field, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type P3Packing = <P3 as Field>::Packing;

/// Columns of Plonky3's Keccak AIR.
const COLS: usize = 2633;

fn main() {
    let mut args = std::env::args().skip(1);
    let log_rows: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(16);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    // Constants as Plonky3's example draws them.
    let stock_perm =
        p3_goldilocks::Poseidon2Goldilocks::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(1));
    let aurum_perm =
        aurum_p3::Poseidon2Goldilocks::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(1));
    let stock = MerkleTreeMmcs::<P3Packing, P3Packing, _, _, 2, 4>::new(
        p3_symmetric::PaddingFreeSponge::<_, 8, 4, 4>::new(stock_perm.clone()),
        p3_symmetric::TruncatedPermutation::<_, 2, 4, 8>::new(stock_perm),
        0,
    );
    let adapter = MerkleTreeMmcs::<P3Packing, P3Packing, _, _, 2, 4>::new(
        aurum_p3::PaddingFreeSponge::<_, 8, 4, 4>::new(aurum_perm.clone()),
        aurum_p3::TruncatedPermutation::<_, 2, 4, 8>::new(aurum_perm.clone()),
        0,
    );
    let direct = Poseidon2W8::new(
        "poseidon2-w8",
        PaddingFreeSponge::new(aurum_perm.aurum().clone()),
        TruncatedPermutation::new(aurum_perm.aurum().clone()),
    );
    let mut rng = SmallRng::seed_from_u64(2);
    let values: Vec<P3> = (0..COLS << log_rows)
        .map(|_| P3::new(rng.next_u64()))
        .collect();
    let ours: &[Goldilocks] = aurum_p3::convert::cast_slice(&values);
    println!(
        "2^{log_rows} x {COLS}, {} rayon threads, Aurum backend {}, {rounds} rounds",
        rayon::current_num_threads(),
        aurum_goldilocks::backend()
    );

    let names = ["p3", "aurum-p3", "aurum-merkle"];
    let mut best = [f64::MAX; 3];
    let mut cpu = [0.0f64; 3];
    let mut roots = [[0u64; 4]; 3];
    for _ in 0..rounds {
        for (k, name) in names.iter().enumerate() {
            // Plonky3's commit takes its matrix by value: copied before the clock starts.
            let matrix = vec![RowMajorMatrix::new(values.clone(), COLS)];
            let (start, cpu_start) = (Instant::now(), cpu_ms());
            // Each tree (and the matrix it owns) is freed after the clock stops.
            let (elapsed, cpu_time, root) = match k {
                0 => {
                    let (cap, tree) = stock.commit(matrix);
                    let times = (start.elapsed(), cpu_ms() - cpu_start);
                    drop(tree);
                    (times.0, times.1, cap.roots()[0])
                }
                1 => {
                    let (cap, tree) = adapter.commit(matrix);
                    let times = (start.elapsed(), cpu_ms() - cpu_start);
                    drop(tree);
                    (times.0, times.1, cap.roots()[0])
                }
                _ => {
                    let tree =
                        MerkleTree::new(&direct, vec![Matrix::new(ours, COLS).unwrap()]).unwrap();
                    let times = (start.elapsed(), cpu_ms() - cpu_start);
                    (times.0, times.1, aurum_p3::convert::cast(tree.root()))
                }
            };
            roots[k] = root.map(|x| x.as_canonical_u64());
            best[k] = best[k].min(elapsed.as_secs_f64());
            cpu[k] += cpu_time / 1e3 / rounds as f64;
            println!("  {name:>12}: {:.3} s", elapsed.as_secs_f64());
        }
    }
    assert!(roots.iter().all(|r| *r == roots[0]), "the roots differ");
    for (k, name) in names.iter().enumerate() {
        println!(
            "{name:>12}: min wall {:.3} s ({:.2}x p3), mean CPU {:.3} s ({:.2}x p3)",
            best[k],
            best[0] / best[k],
            cpu[k],
            cpu[0] / cpu[k]
        );
    }
}
