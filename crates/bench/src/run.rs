//! `aurum bench`: runs the standard suite, prints its table and writes the record
//! ([`crate::record`]).
//!
//! A run also records how much CPU time other processes took meanwhile, and flags itself
//! noisy past [`NOISY_OTHER_CPU_SHARE`], [`NOISY_STEAL_SHARE`] or [`NOISY_RELATIVE_MAD`].

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use aurum_goldilocks::Backend;

use crate::record::{self, Figure, Mode, Noise, Record, RecordKind, Run, SCHEMA};
use crate::{BenchError, Host, display, machine, suite};

/// Other processes' share of the CPU above which a run is noisy.
pub const NOISY_OTHER_CPU_SHARE: f64 = 0.05;
/// The hypervisor's steal above which a run is noisy.
pub const NOISY_STEAL_SHARE: f64 = 0.02;
/// The median relative spread (MAD ÷ median) of the figures above which a run is noisy.
pub const NOISY_RELATIVE_MAD: f64 = 0.03;

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

/// What `aurum bench` runs: its flags.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The suite's size (`--quick`, `--full`, `--smoke`; [`Mode::Default`] without).
    pub mode: Mode,
    /// `--out`: where to write the record (default `bench-LABEL.json`).
    pub out: Option<PathBuf>,
    /// `--label`: the machine's name in comparisons (default the host name).
    pub label: Option<String>,
    /// `--threads`: threads of the all-threads measurements (default all logical CPUs).
    pub threads: Option<u64>,
    /// `--emulated`: the emulated machine's name.
    pub emulated: Option<String>,
    /// `--clock-ghz`: the CPU clock, where the OS does not report it.
    pub clock_ghz: Option<f64>,
    /// The GPU to measure beside the CPU (`AURUM_DEVICE`): its `gpu/…` figures and its
    /// description join the record.
    pub gpu: Option<&'static aurum_cuda::Gpu>,
}

/// `aurum bench`: runs the suite on `backend` (the selected one), prints the table, writes
/// the record.
///
/// # Errors
/// A flag's value refused, the record's file refused, or a measurement that failed.
pub fn run<H: Host>(host: &H, args: &RunOptions, backend: Backend) -> Result<ExitCode, BenchError> {
    let mode = args.mode;
    let label = match &args.label {
        Some(label) => {
            record::check_label(label)
                .map_err(|e| BenchError::Argument(format!("--label: {e}")))?;
            label.clone()
        }
        None => machine::label_from(&machine::host_name()),
    };
    if let Some(ghz) = args.clock_ghz
        && !(ghz.is_finite() && ghz > 0.0 && ghz < 100.0)
    {
        return Err(BenchError::Argument(format!(
            "--clock-ghz {ghz}: expected a clock in GHz, above 0 and below 100"
        )));
    }
    if let Some(name) = &args.emulated
        && name.trim().is_empty()
    {
        return Err(BenchError::Argument(
            "--emulated needs the emulated machine's name".to_string(),
        ));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| format!("bench-{label}.json").into());
    let threads = match args.threads {
        Some(t) => usize::try_from(t).map_err(|_| {
            BenchError::Argument(format!("--threads {t} does not fit this machine"))
        })?,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    // The record's file, checked and its temporary created before the suite runs.
    let out_file = host
        .prepare(&[("--out", &out)], &[])?
        .pop()
        .expect("one output prepared");
    let mut machine = machine::this_machine(backend, args.emulated.as_deref(), args.clock_ghz);
    machine.gpu = args.gpu.map(crate::gpu::device);
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
    let mut figures = suite::run(host, &plan, backend, &pools)?;
    if let Some(gpu) = args.gpu {
        figures.extend(crate::gpu::figures(host, &plan, gpu)?);
    }
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
    record.validate().map_err(|error| BenchError::Made {
        what: "the record just measured is invalid".to_string(),
        error,
    })?;
    print!("{}", summary(&record));
    host.write(out_file, record.to_json().as_bytes())?;
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
        display::cpu_description(record)
    );
    if let Some(build) = &record.build {
        let _ = writeln!(
            out,
            "backend {}; {} build, {}, RUSTFLAGS {}",
            display::backend_description(record),
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
    if let Some(gpu) = &m.gpu {
        let _ = writeln!(
            out,
            "GPU {} ({:.0} GiB, {} multiprocessors, compute {}): its figures (GPU …) are the \
             whole device's, in the all-threads column",
            gpu.name,
            gpu.memory_bytes as f64 / f64::from(1u32 << 30),
            gpu.multiprocessors,
            gpu.compute_capability
        );
        for refusal in &gpu.refused {
            let _ = writeln!(out, "GPU refused (its figures left out): {refusal}");
        }
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
    out.push_str(&batch_check(record));
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

/// `permute_many` (the batch size measured at run time) against every fixed batch size on the
/// selected backend, one thread: the check that the run-time choice loses nothing. Empty if
/// the record has no per-batch-size figures (SVE runs its own kernel).
fn batch_check(record: &Record) -> String {
    use std::fmt::Write as _;
    let backend = record.machine.backend.as_str();
    let median = |id: &str| {
        record
            .figures
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.one_thread)
            .map(|s| s.median)
    };
    let mut rows = String::new();
    for f in &record.figures {
        let Some(perm) =
            f.id.strip_prefix("perm/")
                .and_then(|id| id.strip_suffix("/dispatch"))
        else {
            continue;
        };
        let Some(many) = f.one_thread.map(|s| s.median) else {
            continue;
        };
        let best = aurum_symmetric::BATCH_SIZES
            .iter()
            .filter_map(|b| median(&format!("perm/{perm}/{backend}/b{b}")).map(|m| (*b, m)))
            .max_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((b, rate)) = best {
            let _ = writeln!(
                rows,
                "| {} | {} | B = {b}: {} | {} |",
                f.name.trim_end_matches(", permute_many"),
                display::value(f.unit, many),
                display::value(f.unit, rate),
                display::ratio(many / rate)
            );
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "\npermute_many (batch size measured at run time) against the best fixed batch size, \
         {backend}, 1 thread:\n\n| permutation | permute_many | best fixed | ratio |\n\
         |---|---:|---:|---:|\n{rows}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GpuDevice, parse};

    /// A GPU whose known-answer check refused a group of kernels: the summary says which, and
    /// that its figures are left out; the record keeps the refusal through a round trip.
    #[test]
    fn the_summary_names_the_gpu_s_refused_kernels() {
        let mut record = parse(include_str!("../records/zen5-native.json")).unwrap();
        let refusal = "the GPU's coset LDE failed its known-answer check against the CPU (…)";
        record.machine.gpu = Some(GpuDevice {
            name: "NVIDIA H200".to_string(),
            memory_bytes: 150_000_000_000,
            multiprocessors: 132,
            compute_capability: "9.0".to_string(),
            refused: vec![refusal.to_string()],
        });
        let text = summary(&record);
        assert!(
            text.contains(&format!("GPU refused (its figures left out): {refusal}")),
            "{text}"
        );
        assert_eq!(parse(&record.to_json()).unwrap(), record);
    }
}
