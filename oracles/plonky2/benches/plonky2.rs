//! plonky2 1.1's Poseidon next to aurum's, in one nightly build and one run:
//! `scripts/oracle-plonky2.sh bench` (or `cargo bench` in `oracles/plonky2`).
//!
//! * `poseidon/latency`: one state permuted repeatedly (each output is the next input),
//!   ns per permutation; Aurum once per single-state form this CPU runs (`aurum-scalar`,
//!   `aurum-avx2`, `aurum-avx512`: `Poseidon::with_single_state_backend`).
//! * `poseidon/throughput`: 1024 independent states, ns per state (plonky2 one by one, as its
//!   x86 path is scalar; aurum through `permute_many`'s single-thread kernel on the selected
//!   backend, via `dispatch`).
//! * `poseidon/hash_no_pad`: one 100-element row, and `poseidon/hash_rows` 1024 rows of 100.
//! * `merkle/plonky2-2^16x135`: plonky2's own Merkle benchmark shape (2^16 leaves of 135
//!   elements, cap height 0), and `merkle/plonky2-2^20x8` (the speed goals' shape): plonky2's `MerkleTree::new` against aurum's tree with the
//!   `Plonky2` preset (same root), both on one 2-thread rayon pool. plonky2 takes its leaves
//!   by value, so their copy is made outside the timed routine (`iter_batched`).

use std::hint::black_box;

use aurum_goldilocks::{Backend, Goldilocks, dispatch};
use aurum_merkle::{Matrix, MerkleTree, config as merkle_config};
use aurum_oracle_plonky2::{to_aurum, to_plonky2, zero};
use aurum_poseidon::{HashNoPad, Poseidon};
use aurum_symmetric::Hasher as _;
use aurum_symmetric::{Permutation, PermuteMany};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use plonky2::field::goldilocks_field::GoldilocksField as F;
use plonky2::hash::merkle_tree::MerkleTree as PlonkyMerkleTree;
use plonky2::hash::poseidon::{Poseidon as PlonkyPoseidon, PoseidonHash};
use plonky2::plonk::config::Hasher;

const STATES: usize = 1024;
const ROW: usize = 100;

fn inputs(n: usize) -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % aurum_goldilocks::P
        })
        .collect()
}

fn latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/latency");
    let raw = inputs(12);
    let theirs: [F; 12] = core::array::from_fn(|i| to_plonky2(raw[i]));
    group.bench_function("plonky2", |b| {
        let mut state = theirs;
        b.iter(|| {
            state = <F as PlonkyPoseidon>::poseidon(black_box(state));
        });
    });
    let ours: [Goldilocks; 12] = core::array::from_fn(|i| to_aurum(raw[i]));
    // Each single-state form this CPU runs (`Poseidon::new` picks the selected backend's).
    for backend in [Backend::Scalar, Backend::Avx2, Backend::Avx512] {
        let perm = Poseidon::new().with_single_state_backend(backend);
        if perm.single_state_backend() != backend {
            continue;
        }
        group.bench_function(format!("aurum-{backend}"), |b| {
            let mut state = ours;
            b.iter(|| {
                perm.permute(black_box(&mut state));
            });
        });
    }
    group.finish();
}

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/throughput");
    group.throughput(Throughput::Elements(STATES as u64));
    let raw = inputs(12 * STATES);
    let theirs: Vec<[F; 12]> = raw
        .chunks_exact(12)
        .map(|s| core::array::from_fn(|i| to_plonky2(s[i])))
        .collect();
    group.bench_function("plonky2", |b| {
        let mut states = theirs.clone();
        b.iter(|| {
            for s in states.iter_mut() {
                *s = <F as PlonkyPoseidon>::poseidon(*s);
            }
            black_box(&states);
        });
    });
    let perm = Poseidon::new();
    let ours: Vec<[Goldilocks; 12]> = raw
        .chunks_exact(12)
        .map(|s| core::array::from_fn(|i| to_aurum(s[i])))
        .collect();
    group.bench_function("aurum-dispatched", |b| {
        let mut states = ours.clone();
        b.iter(|| {
            dispatch(PermuteMany {
                perm: &perm,
                states: &mut states,
                batch: None,
            });
            black_box(&states);
        });
    });
    group.finish();
}

fn hashing(c: &mut Criterion) {
    let raw = inputs(ROW * STATES);
    let theirs: Vec<F> = raw.iter().map(|&x| to_plonky2(x)).collect();
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| to_aurum(x)).collect();
    let sponge = HashNoPad::new(Poseidon::new());

    let mut group = c.benchmark_group("poseidon/hash_no_pad");
    group.bench_function("plonky2", |b| {
        b.iter(|| PoseidonHash::hash_no_pad(black_box(&theirs[..ROW])));
    });
    group.bench_function("aurum-scalar", |b| {
        b.iter(|| sponge.hash(black_box(&ours[..ROW])));
    });
    group.finish();

    let mut group = c.benchmark_group("poseidon/hash_rows");
    group.throughput(Throughput::Elements(STATES as u64));
    group.bench_function("plonky2", |b| {
        b.iter(|| {
            let digests: Vec<_> = theirs
                .chunks_exact(ROW)
                .map(PoseidonHash::hash_no_pad)
                .collect();
            black_box(digests)
        });
    });
    group.bench_function("aurum-dispatched", |b| {
        let mut digests = vec![[Goldilocks::ZERO; 4]; STATES];
        // Below the parallel threshold per call: one thread, like plonky2's loop.
        b.iter(|| {
            for (d, rows) in digests.chunks_mut(256).zip(ours.chunks(256 * ROW)) {
                sponge.hash_rows(rows, ROW, d).unwrap();
            }
            black_box(&digests);
        });
    });
    let _ = zero();
    group.finish();
}

fn merkle(c: &mut Criterion) {
    // plonky2's own benchmark shape, and the speed goals' 2^20 rows of 8.
    merkle_shape(c, 16, 135);
    merkle_shape(c, 20, 8);
}

fn merkle_shape(c: &mut Criterion, log_leaves: usize, leaf_len: usize) {
    let leaves = 1usize << log_leaves;
    let raw = inputs(leaves * leaf_len);
    let theirs: Vec<Vec<F>> = raw
        .chunks(leaf_len)
        .map(|r| r.iter().map(|&x| to_plonky2(x)).collect())
        .collect();
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| to_aurum(x)).collect();
    let config = merkle_config::plonky2();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a 2-thread rayon pool");

    let mut group = c.benchmark_group(format!("merkle/plonky2-2^{log_leaves}x{leaf_len}"));
    group.sample_size(10);
    // Leaf hashes plus node compressions: one permutation per 8 absorbed elements and one per
    // node, the same count for both libraries.
    let perms = leaves * leaf_len.div_ceil(8) + (leaves - 1);
    group.throughput(Throughput::Elements(perms as u64));
    group.bench_function("plonky2", |b| {
        b.iter_batched(
            || theirs.clone(),
            |l| pool.install(|| PlonkyMerkleTree::<F, PoseidonHash>::new(l, 0)),
            BatchSize::PerIteration,
        );
    });
    group.bench_function("aurum", |b| {
        b.iter(|| {
            pool.install(|| {
                let tree =
                    MerkleTree::new(&config, vec![Matrix::new(&ours, leaf_len).unwrap()]).unwrap();
                black_box(tree.root())
            })
        });
    });
    group.finish();
}

criterion_group!(benches, latency, throughput, hashing, merkle);
criterion_main!(benches);
