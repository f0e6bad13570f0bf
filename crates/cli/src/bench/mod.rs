//! `aurum bench`: the standard measurement of a machine, its JSON record ([`record`]), the
//! comparison of records (`aurum bench compare`, [`compare`] and [`chart`]) and the import of
//! instruction counts made under emulation (`aurum bench import-insn`, [`insn`]).
//!
//! The suite measures, each repeated and summarised by median and spread: Goldilocks
//! multiplication throughput per backend; Poseidon2 W8/W12/W16 and Poseidon W12 permutations
//! per second per backend and batch size, and through `permute_many` (the selected backend);
//! Merkle commitments of 2^20 × 8 (poseidon2-w8 and plonky2) and 2^16 × 256 (poseidon2-w12):
//! time, permutations per second, input bytes per second and peak memory; coset LDEs (blow-up
//! 2) of 2^20 × 8 and 2^16 × 256; and FRI commit + open of 2^20 × 8 with Plonky3's benchmark
//! parameters. The headline figures run on one thread and on all threads (their ratio is the
//! scaling), the per-backend and per-batch-size details on one thread. `--quick` uses fewer,
//! shorter repetitions and matrices a quarter of the size (the sizes are part of the figures'
//! ids, so quick figures compare only with quick ones); `--full` more and longer repetitions.
//! A run also records how much CPU time other processes took meanwhile, and flags itself
//! noisy past [`NOISY_OTHER_CPU_SHARE`], [`NOISY_STEAL_SHARE`] or [`NOISY_RELATIVE_MAD`].

pub mod chart;
pub mod compare;
mod display;
pub mod insn;
mod machine;
pub mod record;
mod suite;

use std::process::ExitCode;
use std::time::Instant;

use aurum_goldilocks::Backend;

use crate::args::{BenchArgs, BenchCommand, BenchRunArgs};
use crate::files;
use crate::progress;
use record::{Figure, Mode, Noise, Record, RecordKind, Run, SCHEMA};

pub use machine::EMULATED_ENV;

/// Other processes' share of the CPU above which a run is noisy.
pub const NOISY_OTHER_CPU_SHARE: f64 = 0.05;
/// The hypervisor's steal above which a run is noisy.
pub const NOISY_STEAL_SHARE: f64 = 0.02;
/// The median relative spread (MAD ÷ median) of the figures above which a run is noisy.
pub const NOISY_RELATIVE_MAD: f64 = 0.03;

/// `aurum bench` and its subcommands. Only the run computes: it alone refuses an invalid
/// `AURUM_BACKEND`; `compare` and `import-insn` read files and ignore it.
pub(crate) fn command(args: BenchArgs) -> Result<ExitCode, String> {
    match args.command {
        Some(BenchCommand::Compare(args)) => compare::command(&args),
        Some(BenchCommand::ImportInsn(args)) => insn::command(&args),
        None => run(&args.run, crate::commands::checked_backend()?),
    }
}

/// The noise of a run: from the CPU counters around it and the figures' spread.
fn noise(ticks: Option<(machine::CpuTicks, machine::CpuTicks)>, figures: &[Figure]) -> Noise {
    let others = ticks.and_then(|(before, after)| before.others_until(&after));
    let mut spreads: Vec<f64> = figures
        .iter()
        .flat_map(|f| [f.one_thread, f.all_threads])
        .flatten()
        .map(|s| s.relative_mad())
        .collect();
    spreads.sort_by(f64::total_cmp);
    let median_relative_mad = spreads.get(spreads.len() / 2).copied().unwrap_or(0.0);
    let mut reasons = Vec::new();
    if let Some((_, share, steal)) = others {
        if share > NOISY_OTHER_CPU_SHARE {
            reasons.push(format!(
                "other processes used {} of the CPU time (above {})",
                display::percent(share),
                display::percent(NOISY_OTHER_CPU_SHARE)
            ));
        }
        if steal > NOISY_STEAL_SHARE {
            reasons.push(format!(
                "the hypervisor took {} of the CPU time (above {})",
                display::percent(steal),
                display::percent(NOISY_STEAL_SHARE)
            ));
        }
    }
    if median_relative_mad > NOISY_RELATIVE_MAD {
        reasons.push(format!(
            "repetitions spread by {} (median MAD ÷ median, above {})",
            display::percent(median_relative_mad),
            display::percent(NOISY_RELATIVE_MAD)
        ));
    }
    Noise {
        other_cpu_seconds: others.map(|o| o.0),
        other_cpu_share: others.map(|o| o.1),
        steal_share: others.map(|o| o.2),
        median_relative_mad,
        noisy: !reasons.is_empty(),
        reasons,
    }
}

/// `aurum bench`: runs the suite, prints the table, writes the record.
fn run(args: &BenchRunArgs, backend: Backend) -> Result<ExitCode, String> {
    let mode = if args.quick {
        Mode::Quick
    } else if args.full {
        Mode::Full
    } else if args.smoke {
        Mode::Smoke
    } else {
        Mode::Default
    };
    let label = match &args.label {
        Some(label) => {
            record::check_label(label).map_err(|e| format!("--label: {e}"))?;
            label.clone()
        }
        None => machine::label_from(&machine::host_name()),
    };
    if let Some(ghz) = args.clock_ghz
        && !(ghz.is_finite() && ghz > 0.0 && ghz < 100.0)
    {
        return Err(format!(
            "--clock-ghz {ghz}: expected a clock in GHz, above 0 and below 100"
        ));
    }
    if let Some(name) = &args.emulated
        && name.trim().is_empty()
    {
        return Err("--emulated needs the emulated machine's name".to_string());
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| format!("bench-{label}.json").into());
    let threads = match args.threads {
        Some(t) => {
            usize::try_from(t).map_err(|_| format!("--threads {t} does not fit this machine"))?
        }
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    // The record's file, checked and its temporary created before the suite runs.
    let out_file = files::prepare_one("--out", &out, &[])?;
    let machine = machine::this_machine(backend, args.emulated.as_deref(), args.clock_ghz);
    let pools = suite::Pools::new(threads)?;
    let plan = suite::Plan::of(mode);
    if let Some(emulation) = &machine.emulated {
        eprintln!(
            "note: emulated run ({}): wall times describe the emulator, not a CPU; the record \
             says so and comparisons leave its times out",
            emulation.name
        );
    }
    let date = machine::now_utc();
    let started = Instant::now();
    let before = machine::CpuTicks::now();
    let figures = suite::run(&plan, backend, &pools, progress::stderr_is_terminal())?;
    let after = machine::CpuTicks::now();
    let seconds = started.elapsed().as_secs_f64();
    let noise = noise(before.zip(after), &figures);
    let record = Record {
        schema: SCHEMA.to_string(),
        label,
        kind: RecordKind::Measured,
        mode,
        date,
        machine,
        build: Some(machine::this_build()),
        run: Some(Run {
            threads: pools.threads(),
            seconds,
            noise,
        }),
        source: None,
        figures,
    };
    record
        .validate()
        .map_err(|e| format!("the record just measured is invalid: {e}"))?;
    print!("{}", summary(&record));
    out_file.write_and_commit(record.to_json().as_bytes())?;
    println!("wrote {} ({SCHEMA})", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The table `aurum bench` prints: the machine, the headline figures, the details, the noise.
fn summary(record: &Record) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let m = &record.machine;
    let run = record.run.as_ref();
    let threads = run.map_or(1, |r| r.threads);
    let _ = writeln!(
        out,
        "aurum bench ({} mode), {}: {}",
        record.mode.name(),
        record.label,
        compare::cpu_description(record)
    );
    if let Some(build) = &record.build {
        let _ = writeln!(
            out,
            "backend {}; {} build, {}, RUSTFLAGS {}",
            compare::backend_description(record),
            build.profile,
            build.rustc.as_deref().unwrap_or("rustc unknown"),
            if build.rustflags.is_empty() {
                "none".to_string()
            } else {
                format!("`{}`", build.rustflags)
            }
        );
    }
    if let Some(e) = &m.emulated {
        let _ = writeln!(out, "EMULATED ({}): wall times mean nothing here", e.name);
    }
    let table = |out: &mut String, figures: &[&Figure], all_threads: bool| {
        if all_threads {
            let _ = writeln!(
                out,
                "\n| figure | 1 thread | {threads} threads | scaling | spread |\n|---|---:|---:|---:|---:|"
            );
        } else {
            let _ = writeln!(
                out,
                "\n| figure (1 thread) | median | spread |\n|---|---:|---:|"
            );
        }
        for f in figures {
            let cell = |s: &Option<record::Stats>| {
                s.map_or_else(|| "—".to_string(), |s| display::value(f.unit, s.median))
            };
            let spread = [f.one_thread, f.all_threads]
                .iter()
                .flatten()
                .map(|s| s.relative_mad())
                .fold(0.0, f64::max);
            let spread = format!("±{}", display::percent(spread));
            if all_threads {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {spread} |",
                    f.name,
                    cell(&f.one_thread),
                    cell(&f.all_threads),
                    f.scaling.map_or_else(|| "—".to_string(), display::ratio)
                );
            } else {
                let _ = writeln!(out, "| {} | {} | {spread} |", f.name, cell(&f.one_thread));
            }
        }
    };
    let headline: Vec<&Figure> = record.figures.iter().filter(|f| !f.detail).collect();
    let details: Vec<&Figure> = record.figures.iter().filter(|f| f.detail).collect();
    table(&mut out, &headline, true);
    if !details.is_empty() {
        table(&mut out, &details, false);
    }
    if let Some(run) = run {
        let n = &run.noise;
        let _ = writeln!(out);
        match (n.other_cpu_seconds, n.other_cpu_share, n.steal_share) {
            (Some(seconds), Some(share), Some(steal)) => {
                let _ = writeln!(
                    out,
                    "noise: other processes used {} CPU-seconds ({} of all CPU time) during the \
                     {} run; steal {}; repetitions spread ±{} (median)",
                    display::significant(seconds),
                    display::percent(share),
                    display::seconds(run.seconds),
                    display::percent(steal),
                    display::percent(n.median_relative_mad)
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "noise: CPU counters unavailable; repetitions spread ±{} (median)",
                    display::percent(n.median_relative_mad)
                );
            }
        }
        if n.noisy {
            let _ = writeln!(out, "NOISY: {}", n.reasons.join("; "));
        }
    }
    if record.mode == Mode::Quick {
        let _ = writeln!(
            out,
            "quick mode: matrices a quarter of the standard size and 3 repetitions; its Merkle, \
             LDE and FRI figures compare only with other quick runs"
        );
    }
    out
}
