//! Poseidon (plonky2 / Polygon instance, width 12), per backend and batch size.
//!
//! Groups (criterion ids `group/function`; throughput in states, or rows, per iteration):
//! * `poseidon/latency`: one state permuted over and over (each output is the next input):
//!   `aurum-scalar`, the sequential-sponge case where lane parallelism does not apply.
//! * `poseidon/packed`: `aurum-<backend>-b<B>`: `B` packed states (`B · lanes` states) kept in
//!   registers/arrays and permuted repeatedly with `permute_batch::<P, B>` — no packing or
//!   transposition, the permutation's own throughput.
//! * `poseidon/permute_many`: 4096 states in memory, one thread (`dispatch` of the
//!   `PermuteMany` kernel, `aurum-dispatch-b<B>` and the measured default `aurum-dispatch`),
//!   and `aurum-parallel` (`permute_many`, rayon).
//! * `poseidon/hash`: 1024 rows of 100 elements hashed with `hash_no_pad` and `linear_hash`
//!   (`hash_many`: parallel at this size), and a 1024-parent Merkle layer (`two_to_one`).
//!
//! plonky2 1.1 needs nightly, so its numbers come from the sibling bench
//! `scripts/oracle-plonky2.sh bench` (same machine, same kind of groups).
//!
//! `scripts/bench.sh poseidon noflags` then `cargo run -p aurum-benches --example bench-table`.

use std::hint::black_box;
use std::time::Duration;

use aurum_benches::seed;
use aurum_goldilocks::{Backend, Goldilocks, dispatch};
use aurum_poseidon::{HashMode, Poseidon, TwoToOne, hash_many};
use aurum_symmetric::{BATCH_SIZES, Permutation, PermuteMany};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn probe(backend: Backend, batch: usize, perm: Poseidon, iters: u64) -> Duration {
    aurum_benches::time_packed(&perm, backend, batch, iters).expect("supported backend")
}

fn latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/latency");
    let perm = Poseidon::new();
    group.throughput(Throughput::Elements(1));
    group.bench_function(BenchmarkId::from_parameter("aurum-scalar"), |b| {
        let mut state: [Goldilocks; 12] = core::array::from_fn(seed);
        b.iter(|| perm.permute(black_box(&mut state)));
    });
    group.finish();
}

fn packed(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/packed");
    let perm = Poseidon::new();
    const ITERS: u64 = 64;
    for backend in Backend::supported() {
        for batch in BATCH_SIZES {
            group.throughput(Throughput::Elements(
                ITERS * (batch * backend.lanes()) as u64,
            ));
            group.bench_function(
                BenchmarkId::from_parameter(format!("aurum-{backend}-b{batch}")),
                |b| b.iter_custom(|iters| probe(backend, batch, perm, iters * ITERS)),
            );
        }
    }
    group.finish();
}

const STATES: usize = 4096;

fn many(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/permute_many");
    group.throughput(Throughput::Elements(STATES as u64));
    let perm = Poseidon::new();
    let input: Vec<[Goldilocks; 12]> = (0..STATES)
        .map(|s| core::array::from_fn(|i| seed(s * 12 + i)))
        .collect();
    let mut states = input.clone();
    for batch in [None, Some(1), Some(2), Some(4)] {
        let name = batch.map_or("aurum-dispatch".to_string(), |b| {
            format!("aurum-dispatch-b{b}")
        });
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                dispatch(PermuteMany {
                    perm: &perm,
                    states: &mut states,
                    batch,
                })
            });
        });
    }
    group.bench_function(BenchmarkId::from_parameter("aurum-parallel"), |b| {
        b.iter(|| aurum_symmetric::permute_many(&perm, &mut states));
    });
    group.finish();
}

const ROWS: usize = 1024;
const ROW_LEN: usize = 100;

fn hashing(c: &mut Criterion) {
    let mut group = c.benchmark_group("poseidon/hash");
    group.throughput(Throughput::Elements(ROWS as u64));
    let data: Vec<Goldilocks> = (0..ROWS * ROW_LEN).map(seed).collect();
    let mut digests = vec![[Goldilocks::ZERO; 4]; ROWS];
    for (name, mode) in [
        ("aurum-no-pad", HashMode::NoPad),
        ("aurum-linear", HashMode::Linear),
    ] {
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| hash_many(mode, black_box(&data), ROW_LEN, &mut digests).unwrap());
        });
    }
    let compression = TwoToOne::new(Poseidon::new());
    let children: Vec<[Goldilocks; 4]> = (0..2 * ROWS)
        .map(|s| core::array::from_fn(|i| seed(s * 4 + i)))
        .collect();
    group.bench_function(BenchmarkId::from_parameter("aurum-two-to-one-layer"), |b| {
        b.iter(|| {
            compression
                .compress_layer(black_box(&children), &mut digests)
                .unwrap()
        });
    });
    group.finish();
}

criterion_group!(benches, latency, packed, many, hashing);
criterion_main!(benches);
