//! Goldilocks field arithmetic: Aurum per backend vs Plonky3 (`p3-goldilocks` 0.8), side by side.
//!
//! Groups (criterion ids `group/function`):
//! * `throughput/{mul,add,square}`: 8 independent packed accumulators; `aurum-<backend>` for
//!   every backend this CPU has (entered through runtime dispatch), `p3-<packing>` for
//!   Plonky3's `<Goldilocks as Field>::Packing` under the same build flags.
//! * `latency/{mul,add,square}`: one dependent chain.
//! * `bulk/{mul_slices,add_slices,dot_product,batch_inverse}`: 2^14-element slices on one
//!   thread; `aurum-dispatch` is the runtime-selected backend, `p3` the same loop over
//!   Plonky3's packing (which is scalar unless the build enables AVX2/AVX-512).
//!
//! Reproduce the table (three builds: no flags, native, native without AVX-512):
//! `scripts/bench.sh field` then `cargo run -p aurum-benches --example bench-table`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use aurum_bench::microbench::{FieldOp, LatencyProbe, ThroughputProbe, throughput_loop};
use aurum_goldilocks::kernels::{BatchInverse, BinaryOp, DotProduct, Elementwise};
use aurum_goldilocks::{Backend, Goldilocks, dispatch, dispatch_on};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use p3_field::{Field, PackedValue, PrimeCharacteristicRing};
use p3_goldilocks::Goldilocks as P3Goldilocks;

type P3Packing = <P3Goldilocks as Field>::Packing;

/// Plonky3's packing under this build's flags, named like our backends.
fn p3_name() -> &'static str {
    match <P3Packing as PackedValue>::WIDTH {
        8 => "p3-avx512",
        4 => "p3-avx2",
        2 => "p3-neon",
        _ => "p3-scalar",
    }
}

fn seed(i: usize) -> u64 {
    0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1) ^ 0xFFFF_FFFF_0000_0000
}

fn p3_packed(offset: usize) -> P3Packing {
    let lanes: Vec<P3Goldilocks> = (0..<P3Packing as PackedValue>::WIDTH)
        .map(|lane| P3Goldilocks::new(seed(offset + lane)))
        .collect();
    *P3Packing::from_slice(&lanes)
}

/// The loop of `aurum_bench::microbench::ThroughputProbe`, on Plonky3's packing.
fn p3_throughput(op: FieldOp, iters: u64) -> Duration {
    let mut acc: [P3Packing; 8] = core::array::from_fn(|j| p3_packed(j * 8));
    let c: [P3Packing; 8] = black_box(core::array::from_fn(|j| p3_packed(100 + j * 8)));
    let start = Instant::now();
    throughput_loop!(op, acc, c, iters, P3Packing);
    let _ = black_box(acc);
    start.elapsed()
}

fn p3_latency(op: FieldOp, iters: u64) -> Duration {
    let mut acc = p3_packed(0);
    let c = black_box(p3_packed(100));
    let start = Instant::now();
    match op {
        FieldOp::Mul => (0..iters).for_each(|_| acc *= c),
        FieldOp::Add => (0..iters).for_each(|_| acc += c),
        FieldOp::Square => (0..iters).for_each(|_| acc = acc.square()),
    }
    let _ = black_box(acc);
    start.elapsed()
}

/// Probe rounds per criterion iteration (amortises the timer).
const ROUNDS: u64 = 1 << 10;

fn throughput(c: &mut Criterion) {
    for op in FieldOp::ALL {
        let mut group = c.benchmark_group(format!("throughput/{}", op.name()));
        for backend in Backend::supported() {
            group.throughput(Throughput::Elements(ROUNDS * 8 * backend.lanes() as u64));
            group.bench_function(
                BenchmarkId::from_parameter(format!("aurum-{backend}")),
                |b| {
                    b.iter_custom(|iters| {
                        dispatch_on(
                            backend,
                            ThroughputProbe {
                                op,
                                iters: iters * ROUNDS,
                            },
                        )
                        .expect("supported backend")
                        .elapsed
                    });
                },
            );
        }
        group.throughput(Throughput::Elements(
            ROUNDS * 8 * <P3Packing as PackedValue>::WIDTH as u64,
        ));
        group.bench_function(BenchmarkId::from_parameter(p3_name()), |b| {
            b.iter_custom(|iters| p3_throughput(op, iters * ROUNDS));
        });
        group.finish();
    }
}

fn latency(c: &mut Criterion) {
    for op in FieldOp::ALL {
        let mut group = c.benchmark_group(format!("latency/{}", op.name()));
        group.throughput(Throughput::Elements(ROUNDS));
        for backend in Backend::supported() {
            group.bench_function(
                BenchmarkId::from_parameter(format!("aurum-{backend}")),
                |b| {
                    b.iter_custom(|iters| {
                        dispatch_on(
                            backend,
                            LatencyProbe {
                                op,
                                iters: iters * ROUNDS,
                            },
                        )
                        .expect("supported backend")
                        .elapsed
                    });
                },
            );
        }
        group.bench_function(BenchmarkId::from_parameter(p3_name()), |b| {
            b.iter_custom(|iters| p3_latency(op, iters * ROUNDS));
        });
        group.finish();
    }
}

const BULK_LEN: usize = 1 << 14;

fn bulk(c: &mut Criterion) {
    let a: Vec<Goldilocks> = (0..BULK_LEN)
        .map(|i| Goldilocks::from_u64(seed(i) % aurum_goldilocks::P))
        .collect();
    let b: Vec<Goldilocks> = (0..BULK_LEN)
        .map(|i| Goldilocks::from_u64(seed(i + BULK_LEN) % aurum_goldilocks::P))
        .collect();
    let a3: Vec<P3Goldilocks> = a
        .iter()
        .map(|x| P3Goldilocks::new(x.as_canonical_u64()))
        .collect();
    let b3: Vec<P3Goldilocks> = b
        .iter()
        .map(|x| P3Goldilocks::new(x.as_canonical_u64()))
        .collect();
    let dispatched = format!("aurum-dispatch-{}", aurum_goldilocks::backend());

    for (name, op) in [("mul_slices", BinaryOp::Mul), ("add_slices", BinaryOp::Add)] {
        let mut group = c.benchmark_group(format!("bulk/{name}"));
        group.throughput(Throughput::Elements(BULK_LEN as u64));
        let mut out = vec![Goldilocks::ZERO; BULK_LEN];
        group.bench_function(BenchmarkId::from_parameter(&dispatched), |bench| {
            bench.iter(|| dispatch(Elementwise::new(op, &mut out, &a, &b).unwrap()));
        });
        let mut out3 = vec![P3Goldilocks::ZERO; BULK_LEN];
        group.bench_function(BenchmarkId::from_parameter("p3"), |bench| {
            bench.iter(|| {
                let out_p = P3Packing::pack_slice_mut(&mut out3);
                let (a_p, b_p) = (P3Packing::pack_slice(&a3), P3Packing::pack_slice(&b3));
                match op {
                    BinaryOp::Mul => out_p
                        .iter_mut()
                        .zip(a_p)
                        .zip(b_p)
                        .for_each(|((o, x), y)| *o = *x * *y),
                    _ => out_p
                        .iter_mut()
                        .zip(a_p)
                        .zip(b_p)
                        .for_each(|((o, x), y)| *o = *x + *y),
                }
            });
        });
        group.finish();
    }

    let mut group = c.benchmark_group("bulk/dot_product");
    group.throughput(Throughput::Elements(BULK_LEN as u64));
    group.bench_function(BenchmarkId::from_parameter(&dispatched), |bench| {
        bench.iter(|| dispatch(DotProduct::new(&a, &b).unwrap()));
    });
    group.bench_function(BenchmarkId::from_parameter("p3"), |bench| {
        bench.iter(|| {
            let (a_p, b_p) = (P3Packing::pack_slice(&a3), P3Packing::pack_slice(&b3));
            let mut acc = [P3Packing::ZERO; 4];
            for (x, y) in a_p.chunks_exact(4).zip(b_p.chunks_exact(4)) {
                for j in 0..4 {
                    acc[j] += x[j] * y[j];
                }
            }
            let total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
            total.as_slice().iter().copied().sum::<P3Goldilocks>()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("bulk/batch_inverse");
    group.throughput(Throughput::Elements(BULK_LEN as u64));
    let mut values = a.clone();
    group.bench_function(BenchmarkId::from_parameter(&dispatched), |bench| {
        bench.iter(|| {
            values.copy_from_slice(&a);
            dispatch(BatchInverse {
                values: &mut values,
            })
            .unwrap();
        });
    });
    group.bench_function(BenchmarkId::from_parameter("p3"), |bench| {
        bench.iter(|| p3_field::batch_multiplicative_inverse(&a3));
    });
    group.finish();

    let mut group = c.benchmark_group("inverse/single");
    let x = Goldilocks::from_u64(0x1234_5678_9abc_def0);
    group.bench_function("aurum-binary-gcd", |bench| {
        bench.iter(|| black_box(x).try_inverse())
    });
    group.bench_function("aurum-addition-chain", |bench| {
        bench.iter(|| black_box(x).try_inverse_constant_time())
    });
    let x3 = P3Goldilocks::new(0x1234_5678_9abc_def0);
    group.bench_function("p3", |bench| bench.iter(|| black_box(x3).try_inverse()));
    group.finish();
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
    targets = throughput, latency, bulk
}
criterion_main!(benches);
