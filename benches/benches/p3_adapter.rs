//! Plonky3's own `MerkleTreeMmcs::commit` on the shape of a Keccak STARK trace's LDE
//! (2^16 rows × 2633 columns: Plonky3's Keccak AIR at 2^15 rows, blow-up 2), with stock
//! Plonky3 hashing (`p3`) and with Aurum's through `aurum-p3`'s batched hooks (`aurum-p3`);
//! and the same commitment built by `aurum-merkle` directly (`aurum-merkle`, which reads the
//! rows where they are instead of staging them for the hooks). Poseidon2 width 8, Plonky3's
//! example constants. The three roots are asserted equal before timing.
//!
//! Throughput is in permutations (all three perform the same number). Group:
//! `p3-adapter/commit/2^16x2633`. Run with `scripts/bench.sh p3_adapter`.

use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::{MerkleConfig, Poseidon2W8};
use aurum_merkle::{Matrix, MerkleTree};
use aurum_symmetric::{Hasher, PaddingFreeSponge, TruncatedPermutation};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use p3_commit::Mmcs;
use p3_field::{Field, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type P3Packing = <P3 as Field>::Packing;

const LOG_ROWS: usize = 16;
/// Columns of Plonky3's Keccak AIR.
const COLS: usize = 2633;

fn commit(c: &mut Criterion) {
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
    let values: Vec<P3> = (0..COLS << LOG_ROWS)
        .map(|_| P3::new(rng.next_u64()))
        .collect();
    let ours: &[Goldilocks] = aurum_p3::convert::cast_slice(&values);
    let direct_tree =
        |ours| MerkleTree::new(&direct, vec![Matrix::new(ours, COLS).unwrap()]).unwrap();

    let (stock_root, _) = stock.commit(vec![RowMajorMatrix::new(values.clone(), COLS)]);
    let (adapter_root, _) = adapter.commit(vec![RowMajorMatrix::new(values.clone(), COLS)]);
    let as_u64 = |d: &[P3; 4]| d.map(|x| x.as_canonical_u64());
    assert_eq!(
        as_u64(&adapter_root.roots()[0]),
        as_u64(&stock_root.roots()[0])
    );
    assert_eq!(
        direct_tree(ours).root().map(|x| x.as_canonical_u64()),
        as_u64(&stock_root.roots()[0])
    );

    let mut group = c.benchmark_group(format!("p3-adapter/commit/2^{LOG_ROWS}x{COLS}"));
    let leaf_permutations = direct.leaf().permutations(COLS) << LOG_ROWS;
    group.throughput(Throughput::Elements(
        (leaf_permutations + (1 << LOG_ROWS) - 1) as u64,
    ));
    // Plonky3's commit takes its matrices by value: the copy is made before the timed part,
    // and each routine returns its tree so that freeing it (and the matrix) is not timed.
    group.bench_function(BenchmarkId::from_parameter("p3"), |b| {
        b.iter_batched(
            || vec![RowMajorMatrix::new(values.clone(), COLS)],
            |matrices| stock.commit(matrices),
            criterion::BatchSize::LargeInput,
        );
    });
    group.bench_function(BenchmarkId::from_parameter("aurum-p3"), |b| {
        b.iter_batched(
            || vec![RowMajorMatrix::new(values.clone(), COLS)],
            |matrices| adapter.commit(matrices),
            criterion::BatchSize::LargeInput,
        );
    });
    group.bench_function(BenchmarkId::from_parameter("aurum-merkle"), |b| {
        b.iter_with_large_drop(|| direct_tree(ours));
    });
    group.finish();
}

fn config_criterion() -> Criterion {
    // A stock commit of this shape takes seconds: the fewest samples criterion allows.
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(10))
}

criterion_group! {
    name = benches;
    config = config_criterion();
    targets = commit
}
criterion_main!(benches);
