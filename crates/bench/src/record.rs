//! The machine record that `aurum bench` writes and `aurum bench compare` reads: schema
//! `aurum-bench/1`.
//!
//! A record is one JSON object:
//!
//! | field | type | what |
//! |---|---|---|
//! | `schema` | string | `"aurum-bench/1"`; any change to the fields below changes the number |
//! | `label` | string | the machine's name in comparisons (`--label`, default the host name): 1 to 64 characters of `A-Z a-z 0-9 . _ + -` |
//! | `kind` | string | `"measured"` (wall time, `aurum bench`) or `"instruction-count"` (executed instructions under qemu, `aurum bench import-insn`) |
//! | `mode` | string | `"default"`, `"quick"`, `"full"`, `"smoke"` (the suite's size) or `"imported"` |
//! | `date` | string | when the run was made (or the counts were taken), UTC, `YYYY-MM-DDTHH:MM:SSZ` |
//! | `machine` | object | [`Machine`]: CPU, cores, clock, SIMD features, backend, memory, OS, emulation, and the GPU where one was measured (`gpu`, [`GpuDevice`]: absent without one, so a record without a GPU reads as before, and older readers refuse one with a GPU as an unknown field) |
//! | `build` | object or null | [`Build`]: the binary that measured (null for imported counts, whose provenance is `source`) |
//! | `run` | object or null | [`Run`]: threads, duration and noise of a measured run (null for imported counts) |
//! | `source` | string or null | where imported counts come from |
//! | `figures` | array | [`Figure`]s, each with a unique `id` |
//!
//! Every figure carries its unit and, per thread count, the median, minimum, maximum and
//! median absolute deviation over its repetitions ([`Stats`]). A GPU's figures (ids starting
//! `gpu/`) have only the all-threads value: the whole device's. Values are in base units
//! (seconds, bytes, operations per second); readers scale them for display.
//!
//! Readers reject a record of another schema version, with unknown or missing fields, or with
//! values out of range (a negative or non-finite figure, a median outside its minimum and
//! maximum, duplicate figure ids) with an error naming the field: see [`parse`].

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::SCHEMA;
pub use crate::error::{RecordError, ValueError};

/// The longest label.
pub const MAX_LABEL_CHARS: usize = 64;

/// One machine's record (see the [module docs](self) for the schema).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// [`SCHEMA`].
    pub schema: String,
    /// The machine's name in comparisons.
    pub label: String,
    /// Wall time or instruction counts.
    pub kind: RecordKind,
    /// The suite's size, or `imported`.
    pub mode: Mode,
    /// UTC date and time, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// What ran the suite.
    pub machine: Machine,
    /// How the measuring binary was built (`None` for imported counts).
    pub build: Option<Build>,
    /// The run's threads, duration and noise (`None` for imported counts).
    pub run: Option<Run>,
    /// Where imported counts come from (`None` for measured runs).
    pub source: Option<String>,
    /// The measurements.
    pub figures: Vec<Figure>,
}

/// What a record measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordKind {
    /// Wall time on the machine (`aurum bench`).
    Measured,
    /// Executed instructions counted under emulation (`aurum bench import-insn`).
    InstructionCount,
}

/// The size of the suite a record ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// About two minutes: the standard sizes.
    #[default]
    Default,
    /// About twenty seconds: fewer repetitions and matrices a quarter of the standard size.
    Quick,
    /// More and longer repetitions at the standard sizes.
    Full,
    /// Tiny sizes, for tests of the suite itself: its figures mean nothing.
    Smoke,
    /// Counts imported from elsewhere.
    Imported,
}

impl Mode {
    /// The name used in records and tables.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::Quick => "quick",
            Mode::Full => "full",
            Mode::Smoke => "smoke",
            Mode::Imported => "imported",
        }
    }
}

/// The machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// The host name (as the OS reports it; for imported counts, the emulator's name).
    pub host: String,
    /// Instruction set architecture the binary ran as (`x86_64`, `aarch64`).
    pub arch: String,
    /// Operating system and release (`Debian GNU/Linux 12 (bookworm), Linux 6.1.0`).
    pub os: Option<String>,
    /// CPU vendor (`AuthenticAMD`, `GenuineIntel`, or the Arm implementer's name).
    pub cpu_vendor: Option<String>,
    /// CPU model name (`AMD EPYC 9R14`, `Neoverse-V1`).
    pub cpu_model: Option<String>,
    /// The CPU's identification numbers (`family 25 model 17 stepping 1`,
    /// `implementer 0x41 part 0xd40`).
    pub cpu_id: Option<String>,
    /// Logical CPUs this process may run on.
    pub logical_cpus: usize,
    /// Physical cores (`None` where the OS does not say).
    pub physical_cores: Option<usize>,
    /// Clock in GHz, where known.
    pub clock_ghz: Option<f64>,
    /// Where the clock comes from (the model name, the cpufreq maximum, the kernel's
    /// current value, or `--clock-ghz`).
    pub clock_source: Option<String>,
    /// SIMD features the CPU reports at run time (`avx2`, `avx512f`, `neon`, `sve2`, …).
    pub simd_features: Vec<String>,
    /// The backend Aurum selected (`scalar`, `avx2`, `avx512`, `neon`, `sve`).
    pub backend: String,
    /// SVE vector length in bits (aarch64 with SVE).
    pub sve_vector_bits: Option<usize>,
    /// Total memory in bytes.
    pub memory_bytes: Option<u64>,
    /// Set when the run was emulated (qemu): its wall times then say nothing about any CPU.
    pub emulated: Option<Emulation>,
    /// The GPU whose figures (`gpu/…`) the record holds; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<GpuDevice>,
}

/// A GPU that ran a record's `gpu/…` figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuDevice {
    /// The device's name (`NVIDIA H200`).
    pub name: String,
    /// Its memory in bytes.
    pub memory_bytes: u64,
    /// Streaming multiprocessors.
    pub multiprocessors: u32,
    /// Compute capability (`9.0`).
    pub compute_capability: String,
    /// The groups of kernels its known-answer check refused, each with what differed
    /// (`aurum_cuda::Gpu::refused`): their figures are not in the record. Absent when none
    /// was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
}

/// An emulated run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Emulation {
    /// The emulated machine (`qemu-aarch64 -cpu max,sve-default-vector-length=32`).
    pub name: String,
    /// How it was known: `--emulated`, the `AURUM_EMULATED` variable, a `/proc/cpuinfo`
    /// that describes another architecture than the binary's, or the import.
    pub detected_by: String,
}

/// How the measuring binary was built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    /// Aurum's version.
    pub aurum_version: String,
    /// The git commit built (`None` when built outside a git checkout).
    pub git_commit: Option<String>,
    /// `rustc --version` of the compiler.
    pub rustc: Option<String>,
    /// Target triple.
    pub target: String,
    /// Cargo profile (`release`).
    pub profile: String,
    /// Compiler flags from RUSTFLAGS or cargo configuration (empty: none).
    pub rustflags: String,
    /// SIMD target features enabled at compile time (`-C target-cpu=native` shows here).
    pub target_features: Vec<String>,
}

/// A measured run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Threads of the all-threads measurements.
    pub threads: usize,
    /// Wall time of the whole suite, in seconds.
    pub seconds: f64,
    /// How disturbed the run was.
    pub noise: Noise,
}

/// How disturbed a run was: by other processes, by the hypervisor, and in the spread of its
/// own repetitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noise {
    /// CPU time other processes used during the run, in seconds (Linux: busy time of all
    /// CPUs from `/proc/stat` minus this process's own from `/proc/self/stat`).
    pub other_cpu_seconds: Option<f64>,
    /// That time as a share of all CPUs' time during the run (0 to 1).
    pub other_cpu_share: Option<f64>,
    /// Time the hypervisor gave to other guests, as a share of all CPUs' time (`steal`).
    pub steal_share: Option<f64>,
    /// Median over the figures of (median absolute deviation ÷ median).
    pub median_relative_mad: f64,
    /// Whether the run is too disturbed to be taken at face value (see `reasons`).
    pub noisy: bool,
    /// Why it is noisy: each threshold crossed.
    pub reasons: Vec<String>,
}

/// One measurement, on one thread and/or on all threads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// Stable identifier, the same on every machine (`perm/poseidon2-w8/dispatch`,
    /// `merkle/plonky2/2^20x8/permutations`); sizes are part of it, so figures of different
    /// sizes never compare.
    pub id: String,
    /// What it is, for people.
    pub name: String,
    /// Unit of the statistics.
    pub unit: Unit,
    /// A detail (one backend or batch size) that comparisons show only when asked to.
    pub detail: bool,
    /// On one thread.
    pub one_thread: Option<Stats>,
    /// On all threads ([`Run::threads`]).
    pub all_threads: Option<Stats>,
    /// All threads' speed ÷ one thread's (from the medians; for times, one ÷ all).
    pub scaling: Option<f64>,
}

/// The repetitions of a measurement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Median.
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Median absolute deviation from the median.
    pub mad: f64,
    /// How many repetitions (1 for an exact count).
    pub repetitions: u32,
}

impl Stats {
    /// The statistics of `samples` (`None` for no samples or a non-finite one).
    #[must_use]
    pub fn of(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = median_of_sorted(&sorted);
        let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        Some(Stats {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            mad: median_of_sorted(&deviations),
            repetitions: u32::try_from(samples.len()).unwrap_or(u32::MAX),
        })
    }

    /// An exact value (a count): no spread.
    #[must_use]
    pub fn exact(value: f64) -> Stats {
        Stats {
            median: value,
            min: value,
            max: value,
            mad: 0.0,
            repetitions: 1,
        }
    }

    /// Median absolute deviation ÷ median (0 for a zero median).
    #[must_use]
    pub fn relative_mad(&self) -> f64 {
        if self.median > 0.0 {
            self.mad / self.median
        } else {
            0.0
        }
    }
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The unit of a figure's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Unit {
    /// Goldilocks multiplications per second.
    #[serde(rename = "multiplications/s")]
    MultiplicationsPerSecond,
    /// Permutations per second.
    #[serde(rename = "permutations/s")]
    PermutationsPerSecond,
    /// Bytes of input per second.
    #[serde(rename = "bytes/s")]
    BytesPerSecond,
    /// Seconds.
    #[serde(rename = "seconds")]
    Seconds,
    /// Bytes (peak resident memory).
    #[serde(rename = "bytes")]
    Bytes,
    /// Executed instructions per permuted state.
    #[serde(rename = "instructions/state")]
    InstructionsPerState,
    /// Executed instructions per Merkle leaf.
    #[serde(rename = "instructions/leaf")]
    InstructionsPerLeaf,
    /// Executed instructions per NTT butterfly.
    #[serde(rename = "instructions/butterfly")]
    InstructionsPerButterfly,
}

impl Unit {
    /// The name records use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Unit::MultiplicationsPerSecond => "multiplications/s",
            Unit::PermutationsPerSecond => "permutations/s",
            Unit::BytesPerSecond => "bytes/s",
            Unit::Seconds => "seconds",
            Unit::Bytes => "bytes",
            Unit::InstructionsPerState => "instructions/state",
            Unit::InstructionsPerLeaf => "instructions/leaf",
            Unit::InstructionsPerButterfly => "instructions/butterfly",
        }
    }

    /// Whether the unit is work per second (larger is faster).
    #[must_use]
    pub const fn is_rate(self) -> bool {
        matches!(
            self,
            Unit::MultiplicationsPerSecond | Unit::PermutationsPerSecond | Unit::BytesPerSecond
        )
    }

    /// Whether the unit counts executed instructions (emulated runs).
    #[must_use]
    pub const fn is_instruction_count(self) -> bool {
        matches!(
            self,
            Unit::InstructionsPerState | Unit::InstructionsPerLeaf | Unit::InstructionsPerButterfly
        )
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Figure {
    /// The speed-up from one thread to all threads, from the medians: all ÷ one for rates,
    /// one ÷ all for times, none for other units.
    #[must_use]
    pub fn scaling_of(unit: Unit, one: Option<&Stats>, all: Option<&Stats>) -> Option<f64> {
        let (one, all) = (one?.median, all?.median);
        let ratio = match unit {
            u if u.is_rate() => all / one,
            Unit::Seconds => one / all,
            _ => return None,
        };
        ratio.is_finite().then_some(ratio)
    }
}

/// Whether `label` is a valid record label (also used for `--label`).
///
/// # Errors
/// Why it is not.
pub fn check_label(label: &str) -> Result<(), ValueError> {
    if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
        return Err(ValueError(format!(
            "must have 1 to {MAX_LABEL_CHARS} characters"
        )));
    }
    match label
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-')))
    {
        Some(c) => Err(ValueError(format!(
            "{label:?} has {c:?}: use letters, digits and . _ + -"
        ))),
        None => Ok(()),
    }
}

/// Checks that `date` is a real UTC date and time written `YYYY-MM-DDTHH:MM:SSZ` (what
/// records hold and `--date` takes): a month of 1 to 12, a day that month has (29 February
/// in leap years only), an hour below 24, minutes and seconds below 60.
///
/// # Errors
/// Why it is not.
pub fn check_utc_date(date: &str) -> Result<(), ValueError> {
    let refuse = |reason: String| Err(ValueError(reason));
    let b = date.as_bytes();
    let shaped = b.len() == 20
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shaped {
        return refuse("expected YYYY-MM-DDTHH:MM:SSZ".to_string());
    }
    // Digits only, checked above.
    let number = |range: core::ops::Range<usize>| -> u32 { date[range].parse().unwrap_or(0) };
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    let (hour, minute, second) = (number(11..13), number(14..16), number(17..19));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return refuse(format!("there is no month {month}")),
    };
    if day == 0 || day > days {
        return refuse(format!("month {month} of {year} has no day {day}"));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return refuse(format!(
            "{hour:02}:{minute:02}:{second:02} is not a time of day"
        ));
    }
    Ok(())
}

/// Reads a record: the schema version first (so that a record of another version says so
/// rather than failing on a field), then the fields, then their ranges.
pub fn parse(text: &str) -> Result<Record, RecordError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| RecordError::Malformed(e.to_string()))?;
    match value.get("schema") {
        Some(serde_json::Value::String(s)) if s == SCHEMA => {}
        Some(serde_json::Value::String(s)) => return Err(RecordError::Schema(format!("{s:?}"))),
        Some(other) => return Err(RecordError::Schema(other.to_string())),
        None if value.is_object() => {
            return Err(RecordError::Malformed("missing field `schema`".to_string()));
        }
        None => {
            return Err(RecordError::Malformed(
                "the JSON value is not an object".to_string(),
            ));
        }
    }
    let record: Record =
        serde_json::from_value(value).map_err(|e| RecordError::Malformed(e.to_string()))?;
    record.validate()?;
    Ok(record)
}

impl Record {
    /// The record as written to a file: pretty-printed JSON and a final newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("plain data serialises");
        text.push('\n');
        text
    }

    /// The figure with this id.
    #[must_use]
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    /// Whether the record's wall times describe a real CPU (not emulated, not imported).
    #[must_use]
    pub fn has_wall_times(&self) -> bool {
        self.kind == RecordKind::Measured && self.machine.emulated.is_none()
    }

    /// Checks every range the schema states.
    pub fn validate(&self) -> Result<(), RecordError> {
        let invalid = |field: &str, reason: String| RecordError::Invalid {
            field: field.to_string(),
            reason,
        };
        check_label(&self.label).map_err(|e| invalid("label", e.0))?;
        check_utc_date(&self.date).map_err(|e| invalid("date", format!("{:?}: {e}", self.date)))?;
        if self.machine.logical_cpus == 0 {
            return Err(invalid("machine.logical_cpus", "must be at least 1".into()));
        }
        if let Some(ghz) = self.machine.clock_ghz
            && !(ghz.is_finite() && ghz > 0.0 && ghz < 100.0)
        {
            return Err(invalid(
                "machine.clock_ghz",
                format!("{ghz} is not a clock in GHz"),
            ));
        }
        match (self.kind, &self.run, &self.build) {
            (RecordKind::Measured, None, _) => {
                return Err(invalid("run", "a measured record needs its run".into()));
            }
            (RecordKind::Measured, _, None) => {
                return Err(invalid("build", "a measured record needs its build".into()));
            }
            (RecordKind::InstructionCount, _, _) if self.source.is_none() => {
                return Err(invalid(
                    "source",
                    "imported counts need their source".into(),
                ));
            }
            _ => {}
        }
        if let Some(run) = &self.run {
            if run.threads == 0 {
                return Err(invalid("run.threads", "must be at least 1".into()));
            }
            if !(run.seconds.is_finite() && run.seconds >= 0.0) {
                return Err(invalid(
                    "run.seconds",
                    format!("{} is not a duration", run.seconds),
                ));
            }
        }
        let mut ids = BTreeSet::new();
        for (i, figure) in self.figures.iter().enumerate() {
            let at = |what: &str| format!("figures[{i}].{what}");
            if figure.id.is_empty() || !ids.insert(figure.id.as_str()) {
                return Err(invalid(
                    &at("id"),
                    format!("{:?} is empty or not unique", figure.id),
                ));
            }
            if figure.one_thread.is_none() && figure.all_threads.is_none() {
                return Err(invalid(
                    &at("one_thread"),
                    "the figure has no values".into(),
                ));
            }
            if figure.all_threads.is_some() && self.run.is_none() {
                return Err(invalid(
                    &at("all_threads"),
                    "a record without a run has no all-threads values".into(),
                ));
            }
            for (name, stats) in [
                ("one_thread", &figure.one_thread),
                ("all_threads", &figure.all_threads),
            ] {
                if let Some(s) = stats {
                    s.validate()
                        .map_err(|reason| invalid(&at(name), reason.0))?;
                }
            }
            if let Some(scaling) = figure.scaling
                && !(scaling.is_finite() && scaling > 0.0)
            {
                return Err(invalid(&at("scaling"), format!("{scaling} is not a ratio")));
            }
        }
        Ok(())
    }
}

impl Stats {
    fn validate(&self) -> Result<(), ValueError> {
        let refuse = |reason: String| Err(ValueError(reason));
        let values = [self.median, self.min, self.max, self.mad];
        if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return refuse("values must be finite and not negative".into());
        }
        if !(self.min <= self.median && self.median <= self.max) {
            return refuse(format!(
                "median {} is not between min {} and max {}",
                self.median, self.min, self.max
            ));
        }
        if self.repetitions == 0 {
            return refuse("repetitions must be at least 1".into());
        }
        Ok(())
    }
}
