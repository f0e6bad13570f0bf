//! NTT / LDE: Aurum vs Plonky3 (`p3-dft` 0.8), side by side in one binary, on 2 rayon threads.
//!
//! Groups (criterion ids `group/function`):
//! * `dft_batch/<shape>`: forward NTT of every column of a random `height × width` matrix;
//! * `coset_lde_batch/<shape>`: LDE with `added_bits = 1` onto the coset `7·H'`.
//!
//! Functions: `aurum` (runtime-dispatched backend, `Ntt::forward` / `Ntt::coset_lde_vec`, which
//! consumes its input like `coset_lde_batch`; output rows bit-reversed, the layout
//! Merkle commitments use and the storage order `Radix2DitParallel` returns), `aurum-natural`
//! (natural order output), and Plonky3's `p3-radix2-dit-parallel`, `p3-bowers` and
//! `p3-small-batch` (`Radix2DitParallel`, `Radix2Bowers`, `Radix2DFTSmallBatch`, each
//! returning its own `Evaluations` type, unmaterialised). Every implementation gets an owned
//! copy of the input per iteration (the copy is not timed) and allocates its own LDE output.
//!
//! Reproduce: `scripts/bench.sh ntt` (no flags, native, native without AVX-512), then
//! `cargo run -p aurum-benches --bin bench-table -- target/criterion`.

use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Ntt, Order};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use p3_dft::{Radix2Bowers, Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::PrimeCharacteristicRing;
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_matrix::dense::RowMajorMatrix;

/// `(log2 height, width)` of the benchmarked shapes.
const SHAPES: [(usize, usize); 4] = [(20, 1), (20, 8), (16, 256), (16, 2633)];
const THREADS: usize = 2;

fn random_u64s(len: usize) -> Vec<u64> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % 0xFFFF_FFFF_0000_0001
        })
        .collect()
}

fn shape_name(log_h: usize, width: usize) -> String {
    format!("2^{log_h}x{width}")
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .expect("a 2-thread rayon pool")
}

fn bench_p3<D: TwoAdicSubgroupDft<P3Goldilocks> + Sync>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pool: &rayon::ThreadPool,
    name: &str,
    dft: &D,
    input: &[P3Goldilocks],
    width: usize,
    lde: bool,
) {
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter_batched(
            || RowMajorMatrix::new(input.to_vec(), width),
            |mat| {
                pool.install(|| {
                    if lde {
                        drop(dft.coset_lde_batch(mat, 1, P3Goldilocks::from_u64(7)));
                    } else {
                        drop(dft.dft_batch(mat));
                    }
                })
            },
            BatchSize::LargeInput,
        );
    });
}

fn ntt_benches(c: &mut Criterion) {
    let pool = pool();
    let ntt = Ntt::plonky3();
    for lde in [false, true] {
        for (log_h, width) in SHAPES {
            let len = width << log_h;
            let raw = random_u64s(len);
            let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
            let theirs: Vec<P3Goldilocks> = raw.iter().map(|&x| P3Goldilocks::new(x)).collect();
            let kind = if lde { "coset_lde_batch" } else { "dft_batch" };
            let mut group = c.benchmark_group(format!("{kind}/{}", shape_name(log_h, width)));
            group.throughput(Throughput::Elements(len as u64));
            // Warm every twiddle cache before timing.
            for order in [Order::BitReversed, Order::Natural] {
                let name = match order {
                    Order::BitReversed => "aurum",
                    Order::Natural => "aurum-natural",
                };
                group.bench_function(BenchmarkId::from_parameter(name), |b| {
                    b.iter_batched(
                        || ours.clone(),
                        |mut values: Vec<Goldilocks>| {
                            pool.install(|| {
                                if lde {
                                    drop(
                                        ntt.coset_lde_vec(
                                            values,
                                            width,
                                            1,
                                            ntt.domain().shift(),
                                            order,
                                        )
                                        .expect("valid shape"),
                                    );
                                } else {
                                    ntt.forward(&mut values, width, order).expect("valid shape");
                                    drop(values);
                                }
                            });
                        },
                        BatchSize::LargeInput,
                    );
                });
            }
            bench_p3(
                &mut group,
                &pool,
                "p3-radix2-dit-parallel",
                &Radix2DitParallel::default(),
                &theirs,
                width,
                lde,
            );
            bench_p3(
                &mut group,
                &pool,
                "p3-bowers",
                &Radix2Bowers,
                &theirs,
                width,
                lde,
            );
            let small_batch = Radix2DFTSmallBatch::new(1 << (log_h + usize::from(lde)));
            bench_p3(
                &mut group,
                &pool,
                "p3-small-batch",
                &small_batch,
                &theirs,
                width,
                lde,
            );
            group.finish();
        }
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = ntt_benches
}
criterion_main!(benches);
