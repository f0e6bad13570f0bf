//! FRI polynomial commitments: Aurum's `FriPcs` vs Plonky3's `TwoAdicFriPcs` (`p3-fri` 0.8,
//! `MerkleTreeMmcs` over Poseidon2 width 8, `ExtensionMmcs` for the codewords,
//! `Radix2DitParallel`, `DuplexChallenger` width 8 rate 4), both on one 2-thread rayon pool,
//! with Plonky3's benchmark parameters (blow-up 2, 100 queries, 16 query proof-of-work bits)
//! at `max_log_arity` 1 and 3, opened at 2 points drawn from the transcript.
//!
//! Groups:
//! * `fri/commit+open/<rows>x<cols>/arity-<k>`: LDE, Merkle tree, evaluations, quotients,
//!   commit phase, grinding and queries (the input matrix is copied outside the timed part).
//! * `fri/open/<rows>x<cols>/arity-<k>`: the opening alone, on a commitment made once.
//! * `fri/grind/16-bits`: one 16-bit proof-of-work search from a fresh transcript state
//!   (the same sequence of states on both sides; the work per search varies with the state).
//!
//! Run with `scripts/bench.sh fri noflags native`. On a busy machine,
//! `FRI_QUICK=ROUNDS cargo bench -p aurum-benches --bench fri` runs the same commits and
//! openings alternately, Aurum then Plonky3, `ROUNDS` times each, and prints the minimum wall
//! time and the mean process CPU time of each (other processes disturb a minimum much less
//! than a median). `FRI_MEMORY=aurum|p3` runs one commit + open of 2^20 × 8 by that side in this
//! process and prints its peak resident memory (`VmHWM`), for a side-by-side figure.

use std::hint::black_box;
use std::time::Duration;

use aurum_fri::{Evaluations, FriParameters, FriPcs, OpeningRequest};
use aurum_goldilocks::Goldilocks;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group};
use p3_challenger::{CanObserve, FieldChallenger, GrindingChallenger};
use p3_commit::{OpeningRequest as P3Request, Pcs};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;

#[path = "../../tests/common/p3_fri.rs"]
mod p3_fri;

use p3_fri::{Ext, P3Challenger, P3Pcs, p3_challenger, p3_pcs};

type AurumChallenger = DuplexChallenger<Poseidon2Goldilocks<8>, 8, 4>;

/// Points per opened matrix.
const POINTS: usize = 2;

fn data(rows: usize, cols: usize) -> Vec<u64> {
    (0..(rows * cols) as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % aurum_goldilocks::P)
        .collect()
}

fn params(max_log_arity: usize) -> FriParameters {
    FriParameters {
        max_log_arity,
        ..FriParameters::benchmark()
    }
}

fn aurum_challenger() -> AurumChallenger {
    DuplexChallenger::new(Poseidon2Goldilocks::<8>::new())
}

/// Aurum: absorb the commitment, draw the points, open.
fn aurum_open(pcs: &FriPcs<aurum_merkle::config::Poseidon2W8>, data: &aurum_fri::ProverData) {
    let mut ch = aurum_challenger();
    ch.observe_slice(&data.commitment().cap.concat());
    let points = vec![(0..POINTS).map(|_| ch.sample_ext()).collect::<Vec<_>>()];
    let opened = pcs
        .open(
            &[OpeningRequest {
                data,
                points: &points,
            }],
            &mut ch,
        )
        .unwrap();
    black_box(opened);
}

/// Plonky3: the same.
fn p3_open(
    pcs: &P3Pcs,
    commitment: &<P3Pcs as Pcs<Ext, P3Challenger>>::Commitment,
    data: &<P3Pcs as Pcs<Ext, P3Challenger>>::ProverData,
) {
    let mut ch = p3_challenger();
    ch.observe(commitment.clone());
    let points: Vec<Ext> = (0..POINTS).map(|_| ch.sample_algebra_element()).collect();
    let request = P3Request {
        prover_data: data,
        points: vec![points],
    };
    black_box(<P3Pcs as Pcs<Ext, P3Challenger>>::open(pcs, vec![request], &mut ch).unwrap());
}

fn bench_shape(
    c: &mut Criterion,
    pool: &rayon::ThreadPool,
    rows: usize,
    cols: usize,
    arity: usize,
) {
    let params = params(arity);
    let raw = data(rows, cols);
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
    let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
    drop(raw);
    let pcs = FriPcs::new(aurum_merkle::config::poseidon2_w8(), params).unwrap();
    let p3 = p3_pcs(&params, 0);
    let shape = format!("2^{}x{cols}/arity-{arity}", rows.trailing_zeros());
    let domain = <P3Pcs as Pcs<Ext, P3Challenger>>::natural_domain_for_degree(&p3, rows);

    let mut group = c.benchmark_group(format!("fri/commit+open/{shape}"));
    group.bench_function(BenchmarkId::from_parameter("aurum"), |b| {
        b.iter_batched(
            || ours.clone(),
            |values| {
                pool.install(|| {
                    let (_, data) = pcs.commit(vec![Evaluations::new(values, cols)]).unwrap();
                    aurum_open(&pcs, &data);
                })
            },
            BatchSize::LargeInput,
        );
    });
    group.bench_function(BenchmarkId::from_parameter("p3"), |b| {
        b.iter_batched(
            || vec![(domain, RowMajorMatrix::new(theirs.clone(), cols))],
            |input| {
                pool.install(|| {
                    let (commitment, data) =
                        <P3Pcs as Pcs<Ext, P3Challenger>>::commit(&p3, input).unwrap();
                    p3_open(&p3, &commitment, &data);
                })
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();

    let mut group = c.benchmark_group(format!("fri/open/{shape}"));
    let (_, data) = pool.install(|| {
        pcs.commit(vec![Evaluations::new(ours.clone(), cols)])
            .unwrap()
    });
    group.bench_function(BenchmarkId::from_parameter("aurum"), |b| {
        b.iter(|| pool.install(|| aurum_open(&pcs, &data)));
    });
    drop(data);
    let input = vec![(domain, RowMajorMatrix::new(theirs.clone(), cols))];
    let (commitment, p3_data) =
        pool.install(|| <P3Pcs as Pcs<Ext, P3Challenger>>::commit(&p3, input).unwrap());
    group.bench_function(BenchmarkId::from_parameter("p3"), |b| {
        b.iter(|| pool.install(|| p3_open(&p3, &commitment, &p3_data)));
    });
    group.finish();
}

fn bench_grind(c: &mut Criterion, pool: &rayon::ThreadPool) {
    let mut group = c.benchmark_group("fri/grind/16-bits");
    let mut state = 0u64;
    group.bench_function(BenchmarkId::from_parameter("aurum"), |b| {
        b.iter(|| {
            state += 1;
            let mut ch = aurum_challenger();
            ch.observe(Goldilocks::from_u64(state));
            pool.install(|| black_box(ch.grind(16).unwrap()))
        });
    });
    let mut state = 0u64;
    group.bench_function(BenchmarkId::from_parameter("p3"), |b| {
        b.iter(|| {
            state += 1;
            let mut ch = p3_challenger();
            ch.observe(P3::new(state));
            pool.install(|| black_box(ch.grind(16)))
        });
    });
    group.finish();
}

fn fri(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    bench_grind(c, &pool);
    for arity in [1, 3] {
        bench_shape(c, &pool, 1 << 20, 8, arity);
        bench_shape(c, &pool, 1 << 16, 256, arity);
    }
}

fn config_criterion() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10))
}

criterion_group! {
    name = benches;
    config = config_criterion();
    targets = fri
}

/// Minimum wall time and mean CPU time (ms) of `f` over `rounds` calls.
#[derive(Clone, Copy, Debug)]
struct Quick {
    min_wall: f64,
    cpu: f64,
}

fn time(quick: &mut Quick, rounds: usize, f: impl FnOnce()) {
    let (start, cpu) = (std::time::Instant::now(), aurum_benches::process_cpu_ms());
    f();
    quick.min_wall = quick.min_wall.min(start.elapsed().as_secs_f64() * 1e3);
    quick.cpu += (aurum_benches::process_cpu_ms() - cpu) / rounds as f64;
}

/// The alternating comparison (see the module docs).
fn quick(rounds: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    println!(
        "backend {}, {rounds} rounds, 2 threads; min wall ms / mean cpu ms",
        aurum_goldilocks::backend()
    );
    let new = || Quick {
        min_wall: f64::MAX,
        cpu: 0.0,
    };
    for arity in [1, 3] {
        for (rows, cols) in [(1usize << 20, 8usize), (1 << 16, 256)] {
            let params = params(arity);
            let raw = data(rows, cols);
            let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
            let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
            let pcs = FriPcs::new(aurum_merkle::config::poseidon2_w8(), params).unwrap();
            let p3 = p3_pcs(&params, 0);
            let domain = <P3Pcs as Pcs<Ext, P3Challenger>>::natural_domain_for_degree(&p3, rows);
            // [aurum commit, aurum open, p3 commit, p3 open]
            let mut t = [new(); 4];
            for _ in 0..rounds {
                let values = ours.clone();
                let mut data = None;
                time(&mut t[0], rounds, || {
                    data =
                        Some(pool.install(|| {
                            pcs.commit(vec![Evaluations::new(values, cols)]).unwrap().1
                        }));
                });
                let data = data.unwrap();
                time(&mut t[1], rounds, || {
                    pool.install(|| aurum_open(&pcs, &data))
                });
                drop(data);
                let input = vec![(domain, RowMajorMatrix::new(theirs.clone(), cols))];
                let mut committed = None;
                time(&mut t[2], rounds, || {
                    committed = Some(pool.install(|| {
                        <P3Pcs as Pcs<Ext, P3Challenger>>::commit(&p3, input).unwrap()
                    }));
                });
                let (commitment, p3_data) = committed.unwrap();
                time(&mut t[3], rounds, || {
                    pool.install(|| p3_open(&p3, &commitment, &p3_data));
                });
            }
            let total = |a: Quick, b: Quick| a.min_wall + b.min_wall;
            println!(
                "2^{}x{cols} arity-{arity}: commit+open aurum {:.0} / p3 {:.0} ({:.2}x) | open \
                 aurum {:.1} / p3 {:.1} ({:.2}x) | cpu commit+open {:.0} / {:.0}, open {:.0} / {:.0}",
                rows.trailing_zeros(),
                total(t[0], t[1]),
                total(t[2], t[3]),
                total(t[2], t[3]) / total(t[0], t[1]),
                t[1].min_wall,
                t[3].min_wall,
                t[3].min_wall / t[1].min_wall,
                t[0].cpu + t[1].cpu,
                t[2].cpu + t[3].cpu,
                t[1].cpu,
                t[3].cpu,
            );
        }
    }
    // Grinding: 16 bits from 20 · rounds transcript states, the same on both sides.
    let mut grind = [new(); 2];
    for state in 0..20 * rounds as u64 {
        let mut ch = aurum_challenger();
        ch.observe(Goldilocks::from_u64(state));
        time(&mut grind[0], 20 * rounds, || {
            let _ = black_box(pool.install(|| ch.grind(16).unwrap()));
        });
        let mut ch = p3_challenger();
        ch.observe(P3::new(state));
        time(&mut grind[1], 20 * rounds, || {
            let _ = black_box(pool.install(|| ch.grind(16)));
        });
    }
    println!(
        "grind 16 bits, mean cpu ms per search: aurum {:.2} / p3 {:.2} ({:.2}x)",
        grind[0].cpu,
        grind[1].cpu,
        grind[1].cpu / grind[0].cpu
    );
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// One commit + open of 2^20 × 8 (arity 1) by `side`, then the process's peak memory.
fn memory(side: &str) {
    let (rows, cols) = (1usize << 20, 8usize);
    let params = params(1);
    let raw = data(rows, cols);
    match side {
        "aurum" => {
            let values = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
            drop(raw);
            let pcs = FriPcs::new(aurum_merkle::config::poseidon2_w8(), params).unwrap();
            let (_, data) = pcs.commit(vec![Evaluations::new(values, cols)]).unwrap();
            aurum_open(&pcs, &data);
        }
        _ => {
            let values = raw.iter().map(|&x| P3::new(x)).collect();
            drop(raw);
            let p3 = p3_pcs(&params, 0);
            let domain = <P3Pcs as Pcs<Ext, P3Challenger>>::natural_domain_for_degree(&p3, rows);
            let input = vec![(domain, RowMajorMatrix::new(values, cols))];
            let (commitment, data) = <P3Pcs as Pcs<Ext, P3Challenger>>::commit(&p3, input).unwrap();
            p3_open(&p3, &commitment, &data);
        }
    }
    println!(
        "{side}: 2^20 x 8 commit + open, peak memory {:.1} MiB",
        peak_mib().unwrap_or(0.0)
    );
}

fn main() {
    if let Ok(side) = std::env::var("FRI_MEMORY") {
        memory(&side);
        return;
    }
    if let Some(rounds) = std::env::var("FRI_QUICK").ok().and_then(|r| r.parse().ok()) {
        quick(rounds);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
