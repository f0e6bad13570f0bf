//! Merkle commitment: Aurum vs Plonky3's `MerkleTreeMmcs` (`p3-merkle-tree` 0.8) with the same
//! Poseidon2 sponge and compression, both on the global rayon pool (2 threads here), plus
//! Aurum on 1 and 2 threads for the scaling figure. The `plonky2` preset (Poseidon) runs alone:
//! its peer, plonky2, needs nightly (`scripts/oracle-plonky2.sh bench`).
//!
//! Throughput is in permutations (`aurum-…` and `p3-…` perform the same number). Groups:
//! `merkle/<preset>/<rows>x<cols>`. Run with `scripts/bench.sh merkle`.

use std::hint::black_box;
use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{Matrix, MerkleTree};
use aurum_symmetric::Hasher;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use p3_commit::Mmcs;
use p3_field::Field;
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};

type P3Packing = <P3 as Field>::Packing;

fn data(rows: usize, cols: usize) -> Vec<u64> {
    (0..(rows * cols) as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % aurum_goldilocks::P)
        .collect()
}

fn bench_preset<C: MerkleConfig, M: Mmcs<P3>>(
    c: &mut Criterion,
    name: &str,
    config: &C,
    p3: Option<&M>,
    rows: usize,
    cols: usize,
) {
    let raw = data(rows, cols);
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
    let mut group = c.benchmark_group(format!("merkle/{name}/2^{}x{cols}", rows.trailing_zeros()));
    let tree = MerkleTree::new(config, vec![Matrix::new(&ours, cols).unwrap()]).unwrap();
    group.throughput(Throughput::Elements(
        tree.shape()
            .permutations(|len| config.leaf().permutations(len)) as u64,
    ));
    drop(tree);
    group.bench_function(BenchmarkId::from_parameter("aurum"), |b| {
        b.iter(|| {
            black_box(
                MerkleTree::new(config, vec![Matrix::new(&ours, cols).unwrap()])
                    .unwrap()
                    .root(),
            )
        });
    });
    if let Some(p3) = p3 {
        let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
        group.bench_function(BenchmarkId::from_parameter("p3"), |b| {
            // Plonky3's commit takes its matrices by value; the copy is outside the timed part.
            b.iter_batched(
                || vec![RowMajorMatrix::new(theirs.clone(), cols)],
                |matrices| black_box(p3.commit(matrices).0),
                criterion::BatchSize::LargeInput,
            );
        });
    }
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(
            BenchmarkId::from_parameter(format!("aurum-{threads}-thread")),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        black_box(
                            MerkleTree::new(config, vec![Matrix::new(&ours, cols).unwrap()])
                                .unwrap()
                                .root(),
                        )
                    })
                });
            },
        );
    }
    group.finish();
}

/// Plonky3's width-8 tree.
type P3Mmcs8 = MerkleTreeMmcs<
    P3Packing,
    P3Packing,
    PaddingFreeSponge<p3_goldilocks::Poseidon2Goldilocks<8>, 8, 4, 4>,
    TruncatedPermutation<p3_goldilocks::Poseidon2Goldilocks<8>, 2, 4, 8>,
    2,
    4,
>;

fn merkle(c: &mut Criterion) {
    let p8 = p3_goldilocks::default_goldilocks_poseidon2_8();
    let mmcs8 = P3Mmcs8::new(
        PaddingFreeSponge::<_, 8, 4, 4>::new(p8.clone()),
        TruncatedPermutation::<_, 2, 4, 8>::new(p8),
        0,
    );
    let p12 = p3_goldilocks::default_goldilocks_poseidon2_12();
    let mmcs12 = MerkleTreeMmcs::<P3Packing, P3Packing, _, _, 2, 4>::new(
        PaddingFreeSponge::<_, 12, 8, 4>::new(p12.clone()),
        TruncatedPermutation::<_, 2, 4, 12>::new(p12),
        0,
    );
    let w8 = config::poseidon2_w8();
    let w12 = config::poseidon2_w12();
    // The shapes of the speed goals: a narrow trace, a wide one, and the Keccak STARK's trace
    // (2^16 rows of 2633 columns).
    for (log_rows, cols) in [(20, 8), (18, 256), (16, 2633)] {
        bench_preset(c, "poseidon2-w8", &w8, Some(&mmcs8), 1 << log_rows, cols);
        bench_preset(c, "poseidon2-w12", &w12, Some(&mmcs12), 1 << log_rows, cols);
    }
    bench_preset(
        c,
        "plonky2",
        &config::plonky2(),
        None::<&P3Mmcs8>,
        1 << 20,
        8,
    );
}

fn config_criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4))
}

criterion_group! {
    name = benches;
    config = config_criterion();
    targets = merkle
}
criterion_main!(benches);
