//! The standard suite: what `aurum bench` measures, at which sizes, how often.
//!
//! Every measurement is repeated ([`Plan::repetitions`]) and summarised by its median and
//! spread ([`Stats`]). Small kernels (field multiplication, permutations) run for a
//! calibrated number of iterations of about [`Plan::budget`] each; whole jobs (Merkle
//! commitments, LDEs, FRI) run once per repetition on a matrix generated beforehand. The
//! headline figures run on one thread and on all threads; the per-backend and per-batch-size
//! details on one thread.

use std::time::{Duration, Instant};

use aurum_fri::FriParameters;
use aurum_goldilocks::{Backend, Goldilocks, dispatch_on};
use aurum_merkle::{Dimensions, MerkleConfig, Preset, TreeShape};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon::Poseidon;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{BATCH_SIZES, Hasher, Permutation, PermuteMany, StateKernel, permute_many};
use rayon::ThreadPool;

use crate::BenchError;
use crate::host::{Host, Steps};
use crate::machine::peak_memory_bytes;
use crate::measure::{calibrate, field_op_rates, rates};
use crate::microbench::{FieldOp, ThroughputProbe};
use crate::record::{Figure, Mode, Stats, Unit};

/// Seed of every generated matrix.
const SEED: u64 = 0;

/// What a mode measures.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// Time of one repetition of a small kernel.
    pub(crate) budget: Duration,
    /// Repetitions of every measurement.
    pub(crate) repetitions: usize,
    /// States permuted per call in the permutation measurements (per thread with all
    /// threads): enough to fill the vectors and batches, few enough to stay in L2.
    pub(crate) states: usize,
    /// Merkle commitments: preset, log2 rows, columns.
    pub(crate) merkle: Vec<(Preset, u32, usize)>,
    /// Coset LDEs (blow-up 2): log2 rows, columns.
    pub(crate) lde: Vec<(u32, usize)>,
    /// FRI commit + open: preset, log2 rows, columns, parameters.
    pub(crate) fri: (Preset, u32, usize, FriParameters),
}

impl Plan {
    /// The plan of `mode` (for [`Mode::Imported`], the default's).
    pub(crate) fn of(mode: Mode) -> Plan {
        // Standard sizes; --quick commits matrices a quarter as large.
        let shrink = match mode {
            Mode::Quick => 2,
            Mode::Smoke => 12,
            _ => 0,
        };
        let (budget_ms, repetitions) = match mode {
            Mode::Quick => (50, 3),
            Mode::Full => (400, 11),
            Mode::Smoke => (1, 2),
            Mode::Default | Mode::Imported => (200, 5),
        };
        let fri_params = match mode {
            // Plonky3's testing parameters: few queries and proof-of-work bits, so that the
            // smoke run takes milliseconds.
            Mode::Smoke => FriParameters::testing(0),
            _ => FriParameters::benchmark(),
        };
        Plan {
            budget: Duration::from_millis(budget_ms),
            repetitions,
            states: if mode == Mode::Smoke { 64 } else { 1024 },
            merkle: vec![
                (Preset::Poseidon2W8, 20 - shrink, 8),
                (Preset::Plonky2, 20 - shrink, 8),
                (Preset::Poseidon2W12, 16 - shrink.min(10), 256),
            ],
            lde: vec![(20 - shrink, 8), (16 - shrink.min(10), 256)],
            fri: (Preset::Poseidon2W8, 20 - shrink, 8, fri_params),
        }
    }

    /// How many progress steps [`run`] takes on a machine with these backends.
    fn steps(&self, backends: &[Backend]) -> usize {
        let per_permutation = backends
            .iter()
            .map(|b| {
                if *b == Backend::Sve {
                    1
                } else {
                    BATCH_SIZES.len()
                }
            })
            .sum::<usize>()
            + 1;
        let field = backends.iter().filter(|b| **b != Backend::Sve).count() + 1;
        field + PERMUTATIONS * per_permutation + self.merkle.len() + self.lde.len() + 1
    }
}

/// The permutations measured.
const PERMUTATIONS: usize = 4;

/// The pools: one thread, and all threads.
pub(crate) struct Pools {
    pub(crate) one: ThreadPool,
    pub(crate) all: ThreadPool,
}

impl Pools {
    pub(crate) fn new(threads: usize) -> Result<Pools, BenchError> {
        let pool = |n: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| {
                    BenchError::Measurement(format!("cannot start {n} worker threads: {e}"))
                })
        };
        Ok(Pools {
            one: pool(1)?,
            all: pool(threads)?,
        })
    }

    pub(crate) fn threads(&self) -> usize {
        self.all.current_num_threads()
    }
}

/// A figure from its one-thread and all-threads samples.
fn figure(
    id: String,
    name: String,
    unit: Unit,
    detail: bool,
    one: &[f64],
    all: &[f64],
) -> Result<Figure, BenchError> {
    let stats = |samples: &[f64]| -> Result<Option<Stats>, BenchError> {
        if samples.is_empty() {
            return Ok(None);
        }
        Stats::of(samples).map(Some).ok_or_else(|| {
            BenchError::Measurement(format!("{name}: a measurement is not a number"))
        })
    };
    let (one_thread, all_threads) = (stats(one)?, stats(all)?);
    Ok(Figure {
        scaling: Figure::scaling_of(unit, one_thread.as_ref(), all_threads.as_ref()),
        id,
        name,
        unit,
        detail,
        one_thread,
        all_threads,
    })
}

/// Runs the suite: field multiplication, permutations, Merkle commitments, LDEs and FRI;
/// `host` runs the whole jobs and shows the steps.
pub(crate) fn run<H: Host>(
    host: &H,
    plan: &Plan,
    selected: Backend,
    pools: &Pools,
) -> Result<Vec<Figure>, BenchError> {
    let backends = Backend::supported();
    let mut steps = host.steps(plan.steps(&backends));
    let mut figures = Vec::new();
    field_multiplication(plan, selected, &backends, pools, &mut steps, &mut figures)?;
    permutations(plan, &backends, pools, &mut steps, &mut figures)?;
    for &(preset, log_rows, cols) in &plan.merkle {
        steps.next(&format!("Merkle commit 2^{log_rows} × {cols}, {preset}"));
        figures.extend(merkle(host, plan, preset, log_rows, cols, pools)?);
    }
    for &(log_rows, cols) in &plan.lde {
        steps.next(&format!("coset LDE 2^{log_rows} × {cols}"));
        figures.extend(lde(host, plan, log_rows, cols, pools)?);
    }
    let (preset, log_rows, cols, params) = plan.fri;
    steps.next(&format!("FRI commit + open 2^{log_rows} × {cols}"));
    figures.push(fri(host, plan, preset, log_rows, cols, params, pools)?);
    steps.finish();
    Ok(figures)
}

/// Goldilocks multiplication throughput: every backend on one thread, and the selected one
/// on every thread at once (the same loop on each).
fn field_multiplication(
    plan: &Plan,
    selected: Backend,
    backends: &[Backend],
    pools: &Pools,
    steps: &mut impl Steps,
    figures: &mut Vec<Figure>,
) -> Result<(), BenchError> {
    let op = FieldOp::Mul;
    let mut selected_one = (0, Vec::new());
    // SVE runs generic kernels such as this one with NEON's packed type: no figure of its own.
    for &backend in backends.iter().filter(|b| **b != Backend::Sve) {
        steps.next(&format!("Goldilocks multiplication, {backend}"));
        let (iters, one) = pools
            .one
            .install(|| field_op_rates(backend, op, plan.budget, plan.repetitions))?;
        figures.push(figure(
            format!("field/mul/{backend}"),
            format!("Goldilocks multiplication, {backend}"),
            Unit::MultiplicationsPerSecond,
            true,
            &one,
            &[],
        )?);
        if backend == selected.packed() {
            selected_one = (iters, one);
        }
    }
    steps.next(&format!(
        "Goldilocks multiplication, {selected}, all threads"
    ));
    let (iters, one) = selected_one;
    let iters = iters.max(1);
    let all = rates(plan.repetitions, iters, |iters| {
        let runs = pools
            .all
            .broadcast(|_| dispatch_on(selected.packed(), ThroughputProbe { op, iters }));
        let mut elapsed = Duration::ZERO;
        let mut elements = 0.0;
        for run in runs {
            let timing = run.map_err(|e| BenchError::Measurement(e.to_string()))?;
            elapsed = elapsed.max(timing.elapsed);
            elements += timing.elements as f64;
        }
        Ok::<_, BenchError>((elapsed, elements))
    })?;
    figures.push(figure(
        "field/mul/selected".to_string(),
        format!("Goldilocks multiplication ({} backend)", selected.packed()),
        Unit::MultiplicationsPerSecond,
        false,
        &one,
        &all,
    )?);
    Ok(())
}

/// Deterministic, distinct states.
fn states<const W: usize>(n: usize) -> Vec<[Goldilocks; W]> {
    (0..n)
        .map(|i| {
            core::array::from_fn(|j| {
                Goldilocks::from_u64(
                    0x9E37_79B9_7F4A_7C15u64.wrapping_mul((i * W + j) as u64 + 1)
                        % aurum_goldilocks::P,
                )
            })
        })
        .collect()
}

/// Permutations per second of `permute(states)` repeated, after calibration.
fn permutation_rates<const W: usize>(
    plan: &Plan,
    count: usize,
    mut permute: impl FnMut(&mut [[Goldilocks; W]]) -> Result<(), BenchError>,
) -> Result<Vec<f64>, BenchError> {
    let mut buffer = states::<W>(count);
    let mut timed = |iters: u64| -> Result<Duration, BenchError> {
        let start = Instant::now();
        for _ in 0..iters {
            permute(&mut buffer)?;
        }
        Ok(start.elapsed())
    };
    let iters = calibrate(plan.budget, 1, &mut timed)?;
    rates(plan.repetitions, iters, |iters| {
        Ok((timed(iters)?, iters as f64 * count as f64))
    })
}

fn permutations(
    plan: &Plan,
    backends: &[Backend],
    pools: &Pools,
    steps: &mut impl Steps,
    figures: &mut Vec<Figure>,
) -> Result<(), BenchError> {
    let p = (plan, backends, pools);
    permutation(
        p,
        "poseidon2-w8",
        "Poseidon2 W8",
        &Poseidon2Goldilocks::<8>::new(),
        steps,
        figures,
    )?;
    permutation(
        p,
        "poseidon2-w12",
        "Poseidon2 W12",
        &Poseidon2Goldilocks::<12>::new(),
        steps,
        figures,
    )?;
    permutation(
        p,
        "poseidon2-w16",
        "Poseidon2 W16",
        &Poseidon2Goldilocks::<16>::new(),
        steps,
        figures,
    )?;
    permutation(
        p,
        "poseidon-w12",
        "Poseidon (plonky2) W12",
        &Poseidon::new(),
        steps,
        figures,
    )
}

/// One permutation: every backend and batch size on one thread (SVE: its own kernel), then
/// `permute_many` (the selected backend and batch size) on one thread and on all threads.
fn permutation<Perm: Permutation<W>, const W: usize>(
    (plan, backends, pools): (&Plan, &[Backend], &Pools),
    id: &str,
    name: &str,
    perm: &Perm,
    steps: &mut impl Steps,
    figures: &mut Vec<Figure>,
) -> Result<(), BenchError> {
    for &backend in backends {
        let batches: Vec<Option<usize>> = if backend == Backend::Sve {
            vec![None]
        } else {
            BATCH_SIZES.iter().map(|&b| Some(b)).collect()
        };
        for batch in batches {
            let what = match batch {
                Some(b) => format!("{backend}, batch {b}"),
                None => format!("{backend}, its own kernel"),
            };
            steps.next(&format!("{name}, {what}"));
            // An SVE machine whose permutation has no SVE kernel has no figure for it.
            let kernel = perm.state_kernel(backend);
            if batch.is_none() && kernel.is_none() {
                continue;
            }
            let one = pools.one.install(|| {
                permutation_rates::<W>(plan, plan.states, |states| match batch {
                    Some(b) => dispatch_on(
                        backend,
                        PermuteMany {
                            perm,
                            states,
                            batch: Some(b),
                        },
                    )
                    .map_err(|e| BenchError::Measurement(e.to_string())),
                    None => {
                        if let Some(kernel) = kernel {
                            kernel.permute_states(states);
                        }
                        Ok(())
                    }
                })
            })?;
            let suffix = batch.map_or_else(|| backend.to_string(), |b| format!("{backend}/b{b}"));
            figures.push(figure(
                format!("perm/{id}/{suffix}"),
                format!("{name}, {what}"),
                Unit::PermutationsPerSecond,
                true,
                &one,
                &[],
            )?);
        }
    }
    steps.next(&format!("{name}, permute_many"));
    let many = |states: &mut [[Goldilocks; W]]| {
        permute_many(perm, states);
        Ok(())
    };
    let one = pools
        .one
        .install(|| permutation_rates::<W>(plan, plan.states, many))?;
    let all_states = plan
        .states
        .checked_mul(pools.threads())
        .ok_or_else(|| BenchError::Measurement("too many threads".to_string()))?;
    let all = pools
        .all
        .install(|| permutation_rates::<W>(plan, all_states, many))?;
    figures.push(figure(
        format!("perm/{id}/dispatch"),
        format!("{name}, permute_many"),
        Unit::PermutationsPerSecond,
        false,
        &one,
        &all,
    )?);
    Ok(())
}

/// The rows of a `2^log_rows`-row matrix, checked.
fn rows_of(log_rows: u32) -> Result<usize, BenchError> {
    1usize.checked_shl(log_rows).ok_or_else(|| {
        BenchError::Measurement(format!("2^{log_rows} rows do not fit this machine"))
    })
}

/// A generated `2^log_rows × cols` matrix, its rows and its size in bytes.
fn matrix<H: Host>(
    host: &H,
    pools: &Pools,
    log_rows: u32,
    cols: usize,
) -> Result<(Vec<Goldilocks>, usize, f64), BenchError> {
    let rows = rows_of(log_rows)?;
    let values = pools.all.install(|| host.random_matrix(rows, cols, SEED))?;
    let bytes = (values.len() as f64) * 8.0;
    Ok((values, rows, bytes))
}

/// Resets the process's peak resident memory (Linux `clear_refs`), so that the next reading
/// of it is the peak of what follows; `false` where it cannot.
fn reset_peak_memory() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Seconds and peak resident memory of each run.
type Runs = (Vec<f64>, Vec<f64>);

/// Times `job` once per repetition on one thread and on all threads: its [`Runs`], and
/// whether the peaks are known (the peak can be reset and read).
fn repeat_on_pools(
    plan: &Plan,
    pools: &Pools,
    mut job: impl FnMut() -> Result<Duration, BenchError> + Send,
) -> Result<[(Runs, bool); 2], BenchError> {
    let mut out = Vec::with_capacity(2);
    for pool in [&pools.one, &pools.all] {
        let mut seconds = Vec::with_capacity(plan.repetitions);
        let mut peaks = Vec::with_capacity(plan.repetitions);
        let mut peaks_known = true;
        for _ in 0..plan.repetitions {
            peaks_known &= reset_peak_memory();
            seconds.push(pool.install(&mut job)?.as_secs_f64());
            match peak_memory_bytes() {
                Some(bytes) => peaks.push(bytes as f64),
                None => peaks_known = false,
            }
        }
        out.push(((seconds, peaks), peaks_known));
    }
    let [one, all]: [_; 2] = out.try_into().expect("two pools");
    Ok([one, all])
}

fn per_second(amount: f64, seconds: &[f64]) -> Vec<f64> {
    seconds.iter().map(|s| amount / s.max(1e-12)).collect()
}

/// A job's time figure and its input rate (`bytes` per run).
fn time_and_input(
    id: &str,
    name: &str,
    bytes: f64,
    one: &[f64],
    all: &[f64],
) -> Result<Vec<Figure>, BenchError> {
    Ok(vec![
        figure(
            format!("{id}/seconds"),
            format!("{name}: time"),
            Unit::Seconds,
            false,
            one,
            all,
        )?,
        figure(
            format!("{id}/input"),
            format!("{name}: input"),
            Unit::BytesPerSecond,
            false,
            &per_second(bytes, one),
            &per_second(bytes, all),
        )?,
    ])
}

fn merkle<H: Host>(
    host: &H,
    plan: &Plan,
    preset: Preset,
    log_rows: u32,
    cols: usize,
    pools: &Pools,
) -> Result<Vec<Figure>, BenchError> {
    let (values, rows, bytes) = matrix(host, pools, log_rows, cols)?;
    let shape = TreeShape::new(&[Dimensions {
        width: cols,
        height: rows,
    }])
    .map_err(|e| BenchError::Measurement(e.to_string()))?;
    let (permutations, [((one, one_peak), one_known), ((all, all_peak), all_known)]) =
        aurum_merkle::with_preset!(preset, |config| {
            let permutations = shape.permutations(|len| config.leaf().permutations(len)) as f64;
            let runs = repeat_on_pools(plan, pools, || host.merkle_commit(&config, &values, cols))?;
            (permutations, runs)
        });
    let id = format!("merkle/{preset}/2^{log_rows}x{cols}");
    let name = format!("Merkle commit 2^{log_rows} × {cols}, {preset}");
    let mut figures = time_and_input(&id, &name, bytes, &one, &all)?;
    figures.insert(
        1,
        figure(
            format!("{id}/permutations"),
            format!("{name}: permutations"),
            Unit::PermutationsPerSecond,
            false,
            &per_second(permutations, &one),
            &per_second(permutations, &all),
        )?,
    );
    if one_known && all_known {
        figures.push(figure(
            format!("{id}/peak-memory"),
            format!("{name}: peak memory (input included)"),
            Unit::Bytes,
            false,
            &one_peak,
            &all_peak,
        )?);
    }
    Ok(figures)
}

fn lde<H: Host>(
    host: &H,
    plan: &Plan,
    log_rows: u32,
    cols: usize,
    pools: &Pools,
) -> Result<Vec<Figure>, BenchError> {
    let (values, _, bytes) = matrix(host, pools, log_rows, cols)?;
    let ntt = Ntt::plonky3();
    let [((one, _), _), ((all, _), _)] = repeat_on_pools(plan, pools, || {
        let start = Instant::now();
        let lde = ntt
            .coset_lde(&values, cols, 1, ntt.domain().shift(), Order::BitReversed)
            .map_err(|e| BenchError::Measurement(e.to_string()))?;
        let elapsed = start.elapsed();
        drop(lde);
        Ok(elapsed)
    })?;
    let id = format!("lde/2^{log_rows}x{cols}");
    let name = format!("Coset LDE (blow-up 2) 2^{log_rows} × {cols}");
    time_and_input(&id, &name, bytes, &one, &all)
}

fn fri<H: Host>(
    host: &H,
    plan: &Plan,
    preset: Preset,
    log_rows: u32,
    cols: usize,
    params: FriParameters,
    pools: &Pools,
) -> Result<Figure, BenchError> {
    let (values, _, _) = matrix(host, pools, log_rows, cols)?;
    let [((one, _), _), ((all, _), _)] = repeat_on_pools(plan, pools, || {
        let timings = host.fri_commit_and_open(preset, cols, params, values.clone())?;
        Ok(timings.total())
    })?;
    let parameters = if params == FriParameters::benchmark() {
        "Plonky3's benchmark parameters"
    } else {
        "Plonky3's testing parameters"
    };
    figure(
        format!("fri/{preset}/2^{log_rows}x{cols}/seconds"),
        format!("FRI commit + open 2^{log_rows} × {cols}, {preset}, {parameters}: time"),
        Unit::Seconds,
        false,
        &one,
        &all,
    )
}
