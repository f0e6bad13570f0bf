//! Poseidon2 (Plonky3 parameters): Aurum per backend and batch size vs Plonky3's
//! `Poseidon2Goldilocks<W>` (`p3-goldilocks` 0.8) under the same build flags, single thread.
//!
//! Groups, for W ∈ {8, 12, 16}:
//! * `poseidon2/wW/latency`: one state permuted repeatedly (each output is the next input).
//! * `poseidon2/wW/packed`: throughput in states, states kept packed in lanes (no
//!   transposition): `aurum-<backend>-b<B>` for every backend this CPU has and B ∈ {1, 2, 4};
//!   `p3-<packing>` for Plonky3's packing under this build's flags.
//! * `poseidon2/wW/permute_many`: the bulk API (`[[Goldilocks; W]]` in, runtime backend, lanes
//!   packed and unpacked), on one thread: `aurum-dispatch-<backend>` with the batch size
//!   measured at run time, `aurum-<backend>-b<B>` with each fixed one.
//!
//! `scripts/bench.sh poseidon2` runs it with no RUSTFLAGS, `-C target-cpu=native`, and native
//! without AVX-512, then prints the table.

use std::hint::black_box;
use std::time::{Duration, Instant};

use aurum_goldilocks::{Backend, Goldilocks, Kernel, PackedField, dispatch, dispatch_on};
use aurum_poseidon2::{LinearLayers, Plonky3Layers, Poseidon2Goldilocks};
use aurum_symmetric::{Permutation, PermuteMany};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use p3_field::{Field, PackedValue};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_symmetric::Permutation as P3Permutation;

type P3Packing = <P3Goldilocks as Field>::Packing;

fn p3_name() -> &'static str {
    match <P3Packing as PackedValue>::WIDTH {
        8 => "p3-avx512",
        4 => "p3-avx2",
        2 => "p3-neon",
        _ => "p3-scalar",
    }
}

fn seed(i: usize) -> u64 {
    0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1) % aurum_goldilocks::P
}

/// States processed per timed round of the packed benchmarks (fits in L1 for every width).
const STATES: usize = 64;

/// Permutes `STATES` packed states `iters` times with batch size `batch`; returns the time.
struct PackedThroughput<'a, const W: usize> {
    perm: &'a Poseidon2Goldilocks<W>,
    batch: usize,
    iters: u64,
}

impl<const W: usize> Kernel for PackedThroughput<'_, W>
where
    Plonky3Layers: LinearLayers<W>,
{
    type Output = Duration;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Duration {
        match self.batch {
            4 => packed_rounds::<P, W, 4>(self.perm, self.iters),
            2 => packed_rounds::<P, W, 2>(self.perm, self.iters),
            _ => packed_rounds::<P, W, 1>(self.perm, self.iters),
        }
    }
}

#[inline(always)]
fn packed_rounds<P: PackedField, const W: usize, const B: usize>(
    perm: &Poseidon2Goldilocks<W>,
    iters: u64,
) -> Duration
where
    Plonky3Layers: LinearLayers<W>,
{
    let groups = (STATES / (P::WIDTH * B)).max(1);
    let mut states: Vec<[[P; W]; B]> = (0..groups)
        .map(|g| {
            core::array::from_fn(|b| {
                core::array::from_fn(|i| {
                    P::from_fn(|lane| Goldilocks::from_u64(seed(((g * B + b) * W + i) * 8 + lane)))
                })
            })
        })
        .collect();
    let start = Instant::now();
    for _ in 0..iters {
        for s in states.iter_mut() {
            perm.permute_batch::<P, B>(s);
        }
    }
    black_box(&states);
    start.elapsed()
}

fn states_per_round(lanes: usize, batch: usize) -> u64 {
    ((STATES / (lanes * batch)).max(1) * lanes * batch) as u64
}

fn bench_width<const W: usize>(
    c: &mut Criterion,
    p3: &impl P3Permutation<[P3Packing; W]>,
    p3_scalar: &impl P3Permutation<[P3Goldilocks; W]>,
) where
    Plonky3Layers: LinearLayers<W>,
{
    let perm = Poseidon2Goldilocks::<W>::new();

    let mut group = c.benchmark_group(format!("poseidon2/w{W}/latency"));
    group.throughput(Throughput::Elements(1));
    let mut state: [Goldilocks; W] = core::array::from_fn(|i| Goldilocks::from_u64(seed(i)));
    group.bench_function(BenchmarkId::from_parameter("aurum-scalar"), |b| {
        b.iter(|| perm.permute(black_box(&mut state)));
    });
    let mut state3: [P3Goldilocks; W] = core::array::from_fn(|i| P3Goldilocks::new(seed(i)));
    group.bench_function(BenchmarkId::from_parameter("p3-scalar"), |b| {
        b.iter(|| p3_scalar.permute_mut(black_box(&mut state3)));
    });
    group.finish();

    let mut group = c.benchmark_group(format!("poseidon2/w{W}/packed"));
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            group.throughput(Throughput::Elements(states_per_round(
                backend.lanes(),
                batch,
            )));
            group.bench_function(
                BenchmarkId::from_parameter(format!("aurum-{backend}-b{batch}")),
                |b| {
                    b.iter_custom(|iters| {
                        dispatch_on(
                            backend,
                            PackedThroughput {
                                perm: &perm,
                                batch,
                                iters,
                            },
                        )
                        .expect("supported")
                    });
                },
            );
        }
    }
    let lanes = <P3Packing as PackedValue>::WIDTH;
    let mut states3: Vec<[P3Packing; W]> = (0..(STATES / lanes).max(1))
        .map(|g| {
            core::array::from_fn(|i| {
                let v: Vec<P3Goldilocks> = (0..lanes)
                    .map(|l| P3Goldilocks::new(seed((g * W + i) * 8 + l)))
                    .collect();
                *P3Packing::from_slice(&v)
            })
        })
        .collect();
    group.throughput(Throughput::Elements(states_per_round(lanes, 1)));
    group.bench_function(BenchmarkId::from_parameter(p3_name()), |b| {
        b.iter(|| {
            for s in states3.iter_mut() {
                p3.permute_mut(s);
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group(format!("poseidon2/w{W}/permute_many"));
    const MANY: usize = 1024;
    group.throughput(Throughput::Elements(MANY as u64));
    let mut states: Vec<[Goldilocks; W]> = (0..MANY)
        .map(|s| core::array::from_fn(|i| Goldilocks::from_u64(seed(s * W + i))))
        .collect();
    // The measured batch size (`batch: None`) against each fixed one, on the selected backend.
    let backend = aurum_goldilocks::backend();
    for batch in [None, Some(1), Some(2), Some(4)] {
        let name = batch.map_or_else(
            || format!("aurum-dispatch-{backend}"),
            |b| format!("aurum-{backend}-b{b}"),
        );
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
    let mut states3: Vec<[P3Goldilocks; W]> = (0..MANY)
        .map(|s| core::array::from_fn(|i| P3Goldilocks::new(seed(s * W + i))))
        .collect();
    group.bench_function(BenchmarkId::from_parameter("p3-loop"), |b| {
        b.iter(|| states3.iter_mut().for_each(|s| p3_scalar.permute_mut(s)));
    });
    group.finish();
}

fn poseidon2(c: &mut Criterion) {
    let p8 = p3_goldilocks::default_goldilocks_poseidon2_8();
    bench_width::<8>(c, &p8, &p8);
    let p12 = p3_goldilocks::default_goldilocks_poseidon2_12();
    bench_width::<12>(c, &p12, &p12);
    let p16 = p3_goldilocks::default_goldilocks_poseidon2_16();
    bench_width::<16>(c, &p16, &p16);
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = poseidon2
}
criterion_main!(benches);
