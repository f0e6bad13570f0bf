//! Plonky3's Keccak AIR over Goldilocks with the configuration of Plonky3's own
//! `prove_goldilocks_poseidon2` example, proven by Plonky3's unmodified `p3-uni-stark` three
//! times: with stock Plonky3 components, with Aurum's hash, compression and DFT through
//! `aurum-p3` ("Aurum", Plonky3's `TwoAdicFriPcs` and `MerkleTreeMmcs` on Aurum's hooks), and
//! with Aurum's whole commitment scheme `aurum_p3::FriPcs` ("aurum-fri") — same Poseidon2
//! constants (`new_from_rng_128` from `SmallRng::seed_from_u64(1)`), same Keccak inputs.
//!
//! ```text
//! cargo run --release -p aurum-p3 --example keccak_prove                  # 2^15 rows, 1 timed run
//! cargo run --release -p aurum-p3 --example keccak_prove -- --runs 3      # medians of 3
//! cargo run --release -p aurum-p3 --example keccak_prove -- --log-rows 12 --trace
//! RUSTFLAGS="-C target-cpu=native" cargo run --release -p aurum-p3 --example keccak_prove
//! AURUM_DEVICE=cuda cargo run --release -p aurum-p3 --example keccak_prove
//! ```
//!
//! 1. **Identity**: all three prove on a one-thread rayon pool (where Plonky3's proof-of-work
//!    search is sequential, so proofs are reproducible; see `on_one_thread`), the proofs are
//!    serialised and must be byte-identical.
//! 2. **Timing**: `--runs` rounds of the three provers on the global rayon pool (all cores),
//!    rotating which goes first; every proof is checked by the stock verifier (Aurum's read
//!    back as a proof of the stock configuration). Prints each round, with each Aurum
//!    prover's speed-up over stock, and the medians.
//! 3. The aurum-fri prover's LDEs and input trees run where `AURUM_DEVICE` says (`auto`: an
//!    NVIDIA GPU when one opens and the trace has at least 2^22 elements; `cuda`: the GPU or an
//!    error; `cpu`), with the same proofs: the GPU's kernels are compiled with the prover's
//!    Poseidon2 constants (`aurum_cuda::Poseidon2Constants`). `--fixed-constants`: all three
//!    over Plonky3's fixed Poseidon2 constants (`default_goldilocks_poseidon2_8`, the presets')
//!    instead of drawn ones.
//! 4. `--trace`: the span tree of each proof (`RUST_LOG` filter, `debug` by default so that
//!    Merkle trees and LDEs show; Plonky3's span names on all three, see the crate docs'
//!    "Tracing") and, per prover, the total time in each span name.

#[path = "../tests/it/common.rs"]
mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use common::{
    AurumPerm, StockConfig, Val, ValPacking, aurum_fri_config_of, config_triple, fixed_triple,
    on_one_thread,
};
use p3_field::PackedValue;
use p3_keccak_air::{KeccakAir, generate_trace_rows};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_uni_stark::{Proof, prove, verify};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use tracing::span::{Attributes, Id};
use tracing::subscriber::Subscriber;
use tracing_forest::ForestLayer;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, Registry};

/// Keccak-f rounds per hash: one trace row each.
const ROWS_PER_HASH: usize = 24;
/// The FRI blow-up of `FriParameters::new_benchmark` (log2); the trace reserves room for it.
const LOG_BLOWUP: usize = 1;

#[derive(Parser, Debug)]
#[command(about = "Plonky3's Keccak STARK, stock vs Aurum through aurum-p3 (hooks, and FriPcs)")]
struct Args {
    /// Trace height 2^LOG_ROWS (2633 columns): ⌊2^LOG_ROWS / 24⌋ Keccak-f hashes.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(5..=22))]
    log_rows: u8,
    /// Timed rounds (each proves with all three configurations).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    runs: u16,
    /// Skip the one-thread byte-identity check.
    #[arg(long)]
    no_identity: bool,
    /// Print span trees and per-span totals of the timed proofs.
    #[arg(long)]
    trace: bool,
    /// Plonky3's fixed Poseidon2 constants instead of drawn ones.
    #[arg(long)]
    fixed_constants: bool,
}

/// Total wall time and count per span name, collected while tracing.
static SPAN_TOTALS: Mutex<BTreeMap<&'static str, (Duration, usize)>> = Mutex::new(BTreeMap::new());

/// A layer that adds the lifetime of each closed span under a `prove` span to [`SPAN_TOTALS`].
struct SpanTotals;

/// When a span was created (kept in the span's extensions).
struct Created(Instant);

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for SpanTotals {
    fn on_new_span(&self, _: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Created(Instant::now()));
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        // Only the prover's spans (a verification's may close while the next proof runs).
        if span.scope().last().map(|root| root.name()) != Some("prove") {
            return;
        }
        let Some(created) = span.extensions().get::<Created>().map(|c| c.0) else {
            return;
        };
        let mut totals = SPAN_TOTALS.lock().unwrap_or_else(|e| e.into_inner());
        let entry = totals.entry(span.name()).or_default();
        entry.0 += created.elapsed();
        entry.1 += 1;
    }
}

/// Takes the span totals collected so far, leaving none.
fn take_span_totals() -> BTreeMap<&'static str, (Duration, usize)> {
    std::mem::take(&mut *SPAN_TOTALS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Prints and clears the span totals of one proof, largest first, as shares of `prove_time`.
fn print_span_totals(label: &str, prove_time: Duration) {
    let totals = take_span_totals();
    let mut rows: Vec<_> = totals.into_iter().collect();
    rows.sort_by_key(|(_, (time, _))| std::cmp::Reverse(*time));
    println!("  span totals, {label} (wall time summed over all spans of the name):");
    for (name, (time, count)) in rows {
        println!(
            "    {:>9.3} s {:>6.1} %  ×{count:<4} {name}",
            time.as_secs_f64(),
            100.0 * time.as_secs_f64() / prove_time.as_secs_f64()
        );
    }
}

/// The kernel's memory counters that tell how a proof's fresh memory was had: this process's
/// page faults (`/proc/self/stat`), and the system's transparent-huge-page faults, their
/// fallbacks to small pages, and direct compaction (`/proc/vmstat`). Zero where not Linux.
#[derive(Clone, Copy, Default)]
struct MemoryCounters {
    minor_faults: u64,
    thp_faults: u64,
    thp_fallbacks: u64,
    compact_stalls: u64,
}

impl MemoryCounters {
    fn now() -> Self {
        let mut c = Self::default();
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
            // After the command name's closing parenthesis: state is field 3, minflt field 10.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            c.minor_faults = after
                .split_whitespace()
                .nth(7)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        }
        if let Ok(vmstat) = std::fs::read_to_string("/proc/vmstat") {
            for line in vmstat.lines() {
                let mut parts = line.split_whitespace();
                let (Some(name), Some(value)) = (parts.next(), parts.next()) else {
                    continue;
                };
                let value = value.parse().unwrap_or(0);
                match name {
                    "thp_fault_alloc" => c.thp_faults = value,
                    "thp_fault_fallback" => c.thp_fallbacks = value,
                    "compact_stall" => c.compact_stalls = value,
                    _ => {}
                }
            }
        }
        c
    }

    /// What changed since `before`, as one line.
    fn since(self, before: Self) -> String {
        format!(
            "page faults {}, THP faults {}, THP fallbacks {}, compaction stalls {}",
            self.minor_faults.wrapping_sub(before.minor_faults),
            self.thp_faults.wrapping_sub(before.thp_faults),
            self.thp_fallbacks.wrapping_sub(before.thp_fallbacks),
            self.compact_stalls.wrapping_sub(before.compact_stalls),
        )
    }
}

/// A copy of the trace with room for the LDE in its allocation, as `generate_trace_rows`
/// leaves it (Plonky3's DFTs extend the trace in place).
fn trace_with_room(trace: &RowMajorMatrix<Val>) -> RowMajorMatrix<Val> {
    let mut values = Vec::with_capacity(trace.values.len() << LOG_BLOWUP);
    values.extend_from_slice(&trace.values);
    RowMajorMatrix::new(values, trace.width)
}

/// The smallest and largest value.
fn range(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let mid = times.len() / 2;
    if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2.0
    }
}

type Stock = StockConfig<8, 4>;

/// Proves (timed) and serialises the proof (not timed): `(prove time, proof bytes)`. A macro
/// because the three configurations are different types.
macro_rules! timed_prove {
    ($config:expr, $air:expr, $trace:expr) => {{
        let start = Instant::now();
        let proof = prove($config, $air, $trace, &[]).expect("the prover succeeds");
        let elapsed = start.elapsed();
        (elapsed, serde_json::to_vec(&proof).expect("serialisable"))
    }};
}

fn main() {
    let args = Args::parse();
    if args.trace {
        let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("debug"));
        Registry::default()
            .with(filter)
            .with(ForestLayer::default())
            .with(SpanTotals)
            .init();
    }

    // Plonky3's example: constants from `SmallRng::seed_from_u64(1)`, then the Keccak inputs
    // from the same generator.
    let (stock, aurum, _, mut rng) = config_triple::<8, 4>(1);
    let num_hashes = ((1usize << args.log_rows) / ROWS_PER_HASH).max(1);
    let inputs: Vec<[u64; 25]> = (0..num_hashes).map(|_| rng.random()).collect();
    let trace = generate_trace_rows::<Val>(inputs, LOG_BLOWUP);
    let device = aurum_cuda::selected_device().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    // The drawn permutation config_triple's aurum-fri prover uses (the same generator state).
    let drawn = AurumPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(1));
    let constants = if args.fixed_constants {
        aurum_cuda::Poseidon2Constants::default()
    } else {
        aurum_cuda::Poseidon2Constants {
            w8: Some(drawn.aurum().constants().clone()),
            ..aurum_cuda::Poseidon2Constants::default()
        }
    };
    let engine = aurum_cuda::GpuCommitEngine::for_job_with(
        device,
        trace.height() * trace.width(),
        &constants,
    )
    .unwrap_or_else(|e| {
        eprintln!("error: {}={device}: {e}", aurum_cuda::DEVICE_ENV);
        std::process::exit(2)
    })
    .map(Arc::new);
    let shared = engine.clone().map(|e| e as Arc<dyn aurum_p3::CommitEngine>);
    let (stock, aurum, aurum_fri) = if args.fixed_constants {
        fixed_triple(shared)
    } else {
        (stock, aurum, aurum_fri_config_of(drawn, shared))
    };
    println!(
        "constants: {}; aurum-fri commits on {}",
        if args.fixed_constants {
            "Plonky3's fixed (default_goldilocks_poseidon2_8)"
        } else {
            "drawn (new_from_rng_128, seed 1)"
        },
        engine.as_ref().map_or("the CPU".to_string(), |e| format!(
            "{} (CUDA) where the job is large enough",
            e.gpu().info().name
        ))
    );
    println!(
        "Keccak AIR: {num_hashes} hashes, trace {} × {}; rayon threads: {}; Aurum backend: {}; \
         Plonky3 packing: {} lanes",
        trace.height(),
        trace.width(),
        rayon::current_num_threads(),
        aurum_p3::backend().describe(),
        ValPacking::WIDTH,
    );
    let air = KeccakAir {};

    if !args.no_identity {
        let start = Instant::now();
        let (_, stock_bytes) =
            on_one_thread(|| timed_prove!(&stock, &air, trace_with_room(&trace)));
        let (_, aurum_bytes) =
            on_one_thread(|| timed_prove!(&aurum, &air, trace_with_room(&trace)));
        let (_, aurum_fri_bytes) =
            on_one_thread(|| timed_prove!(&aurum_fri, &air, trace_with_room(&trace)));
        for (label, bytes) in [("Aurum", &aurum_bytes), ("aurum-fri", &aurum_fri_bytes)] {
            assert!(
                &stock_bytes == bytes,
                "the stock and {label} proofs differ ({} and {} bytes)",
                stock_bytes.len(),
                bytes.len()
            );
        }
        println!(
            "identity (one thread each, {:.1} s): the proofs are byte-identical, {} bytes of JSON",
            start.elapsed().as_secs_f64(),
            aurum_bytes.len()
        );
    }

    const LABELS: [&str; 3] = ["stock", "Aurum", "aurum-fri"];
    // Per prover (stock, Aurum, aurum-fri), the time of each round.
    let mut times: [Vec<f64>; 3] = Default::default();
    for run in 0..args.runs {
        // Rotate which prover goes first, so slow drift of a shared machine hits all three.
        let first = usize::from(run) % 3;
        let mut round = [0.0; 3];
        for prover in (0..3).map(|i| (first + i) % 3) {
            let label = LABELS[prover];
            if args.trace {
                println!("── run {}: {label}", run + 1);
            }
            let trace = trace_with_room(&trace);
            take_span_totals();
            let counters = MemoryCounters::now();
            let (elapsed, proof_bytes) = match prover {
                0 => timed_prove!(&stock, &air, trace),
                1 => timed_prove!(&aurum, &air, trace),
                _ => timed_prove!(&aurum_fri, &air, trace),
            };
            round[prover] = elapsed.as_secs_f64();
            if args.trace {
                println!("  memory: {}", MemoryCounters::now().since(counters));
                print_span_totals(label, elapsed);
            }
            // All are checked by the stock verifier.
            let proof: Proof<Stock> = serde_json::from_slice(&proof_bytes).expect("a stock proof");
            verify(&stock, &air, &proof, &[])
                .unwrap_or_else(|e| panic!("the stock verifier rejects the {label} proof: {e:?}"));
        }
        let [stock_time, aurum_time, fri_time] = round;
        println!(
            "run {}: prove stock {stock_time:.3} s, Aurum {aurum_time:.3} s ({:.2}×), aurum-fri \
             {fri_time:.3} s ({:.2}×); all verified by the stock verifier",
            run + 1,
            stock_time / aurum_time,
            stock_time / fri_time
        );
        for (t, time) in times.iter_mut().zip(round) {
            t.push(time);
        }
    }
    if let Some(engine) = &engine {
        println!(
            "aurum-fri: {} commitments (LDE and Merkle tree), {} other trees (over LDEs \
             computed elsewhere, over folded codewords), {} folds and {} openings' reduced \
             codewords computed on the GPU",
            engine.jobs(),
            engine.trees(),
            engine.folds(),
            engine.openings()
        );
    }
    // Each round's proofs ran back to back, so their ratios are the figures a load change
    // between rounds disturbs least.
    let [stock_times, aurum_times, fri_times] = &mut times;
    let speedups =
        |times: &[f64]| -> Vec<f64> { stock_times.iter().zip(times).map(|(s, t)| s / t).collect() };
    let (mut aurum_speedups, mut fri_speedups) = (speedups(aurum_times), speedups(fri_times));
    let [
        (stock_min, stock_max),
        (aurum_min, aurum_max),
        (fri_min, fri_max),
        (aurum_speedup_min, aurum_speedup_max),
        (fri_speedup_min, fri_speedup_max),
    ] = [
        &*stock_times,
        &*aurum_times,
        &*fri_times,
        &aurum_speedups,
        &fri_speedups,
    ]
    .map(|v| range(v));
    let [stock_median, aurum_median, fri_median] =
        [stock_times, aurum_times, fri_times].map(|t| median(t));
    println!(
        "median of {} runs: stock {stock_median:.3} s ({stock_min:.3}–{stock_max:.3}), \
         Aurum {aurum_median:.3} s ({aurum_min:.3}–{aurum_max:.3}), speed-up {:.2}×, \
         aurum-fri {fri_median:.3} s ({fri_min:.3}–{fri_max:.3}), speed-up {:.2}×; \
         the runs' own speed-ups: Aurum median {:.2}× ({aurum_speedup_min:.2}–{aurum_speedup_max:.2}), \
         aurum-fri median {:.2}× ({fri_speedup_min:.2}–{fri_speedup_max:.2})",
        args.runs,
        stock_median / aurum_median,
        stock_median / fri_median,
        median(&mut aurum_speedups),
        median(&mut fri_speedups)
    );
}
