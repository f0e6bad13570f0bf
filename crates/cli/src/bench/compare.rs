//! `aurum bench compare`: records of several machines side by side.
//!
//! The markdown report has up to four tables:
//!
//! * **Machines**: each record's CPU, cores, clock, backend, build and run.
//! * **Measured**: every figure of the records with wall times (not emulated), one column
//!   per record. Per figure, the rows are the medians on one thread and on all threads; for
//!   rates of work (multiplications or permutations per second) also the all-threads rate
//!   per thread and the one-thread rate per GHz of clock; and the scaling (all ÷ one). After
//!   the first record that has a row's value, each value is followed by its ratio to that
//!   first value (`×`, value ÷ first).
//! * **Cost**, with `--price LABEL=USD_PER_HOUR`: the cost of a million permutations of each
//!   kind at the all-threads rate, and of a reference commitment — a zkEVM trace of 2^24 rows
//!   × 136 columns committed with the plonky2 preset — extrapolated from the plonky2 Merkle
//!   figure (its all-threads rate, which is the one-thread rate times the measured scaling).
//! * **Executed instructions**: the records of instruction counts (emulated), with the same
//!   ratios.
//!
//! `--json` gives the same numbers as one JSON object; `--svg FILE` draws the chart
//! ([`crate::bench::chart`]). The output depends only on the records and the flags, so the same
//! records always give the same bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use aurum_merkle::{Dimensions, MerkleConfig, TreeShape};
use aurum_symmetric::Hasher;
use serde::Serialize;

use super::display;
use super::record::{self, Figure, Record, RecordKind, Unit};
use crate::args::CompareArgs;
use crate::commands::read_limited;

/// The largest record file read (real ones are tens of KiB).
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The highest price accepted, in USD per hour.
const MAX_PRICE: f64 = 1e6;

/// The permutations the cost table prices: figure id and name.
pub(crate) const PRICED_PERMUTATIONS: [(&str, &str); 4] = [
    ("perm/poseidon2-w8/dispatch", "Poseidon2 W8"),
    ("perm/poseidon2-w12/dispatch", "Poseidon2 W12"),
    ("perm/poseidon2-w16/dispatch", "Poseidon2 W16"),
    ("perm/poseidon-w12/dispatch", "Poseidon (plonky2) W12"),
];

/// The reference commitment: rows (log2) and columns of a zkEVM trace, plonky2 preset.
pub const REFERENCE_LOG_ROWS: u32 = 24;
/// Columns of the reference commitment.
pub const REFERENCE_COLS: usize = 136;

/// Reads and checks one record file.
pub fn read_record(path: &std::path::Path) -> Result<Record, String> {
    let bytes = read_limited(path, MAX_RECORD_BYTES)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: not a record (not UTF-8)", path.display()))?;
    record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses `--price LABEL=USD_PER_HOUR` values against the records: one price per record at
/// most, each for a record with wall times, positive and finite.
pub fn parse_prices(prices: &[String], records: &[Record]) -> Result<Vec<Option<f64>>, String> {
    let mut out = vec![None; records.len()];
    for price in prices {
        let (label, usd) = price
            .split_once('=')
            .ok_or_else(|| format!("--price {price:?}: expected LABEL=USD_PER_HOUR"))?;
        let usd: f64 = usd
            .trim()
            .parse()
            .ok()
            .filter(|u: &f64| u.is_finite() && *u > 0.0 && *u <= MAX_PRICE)
            .ok_or_else(|| {
                format!("--price {price:?}: {usd:?} is not a price in USD per hour (above 0, at most {MAX_PRICE})")
            })?;
        let i = records
            .iter()
            .position(|r| r.label == label)
            .ok_or_else(|| {
                let labels: Vec<&str> = records.iter().map(|r| r.label.as_str()).collect();
                format!(
                    "--price {price:?}: no record is labelled {label:?} (labels: {})",
                    labels.join(", ")
                )
            })?;
        if !records[i].has_wall_times() {
            return Err(format!(
                "--price {price:?}: {label} has no wall times ({}), so nothing to price",
                if records[i].kind == RecordKind::InstructionCount {
                    "instruction counts"
                } else {
                    "an emulated run"
                }
            ));
        }
        if out[i].replace(usd).is_some() {
            return Err(format!("--price: {label} is priced twice"));
        }
    }
    Ok(out)
}

/// `aurum bench compare`.
pub(crate) fn command(args: &CompareArgs) -> Result<ExitCode, String> {
    // The chart, checked and its temporary created before anything is read or printed.
    let inputs: Vec<(&str, &Path)> = args
        .records
        .iter()
        .map(|p| ("record", p.as_path()))
        .collect();
    let svg = args
        .svg
        .as_deref()
        .map(|path| crate::files::prepare_one("--svg", path, &inputs))
        .transpose()?;
    let records = args
        .records
        .iter()
        .map(|p| read_record(p))
        .collect::<Result<Vec<_>, _>>()?;
    let prices = parse_prices(&args.prices, &records)?;
    let comparison = Comparison::new(&records, prices, args.all)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&comparison.to_json()).expect("plain data serialises")
        );
    } else {
        print!("{}", comparison.markdown());
    }
    if let Some(svg) = svg {
        svg.write_and_commit(super::chart::svg(&comparison)?.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The CPU in a few words: the model and the vendor's identification, or the emulator.
pub(crate) fn cpu_description(record: &Record) -> String {
    let m = &record.machine;
    if let Some(e) = &m.emulated {
        return format!("{} (emulated)", e.name);
    }
    let model = m.cpu_model.as_deref().unwrap_or("unknown CPU");
    match (&m.cpu_vendor, &m.cpu_id) {
        (Some(v), Some(id)) => format!("{model} ({v}, {id})"),
        (Some(v), None) => format!("{model} ({v})"),
        (None, Some(id)) => format!("{model} ({id})"),
        (None, None) => model.to_string(),
    }
}

/// The backend, with the SVE vector length when SVE is selected.
pub(crate) fn backend_description(record: &Record) -> String {
    match (
        record.machine.backend.as_str(),
        record.machine.sve_vector_bits,
    ) {
        ("sve", Some(bits)) => format!("sve, {bits}-bit"),
        (b, _) => b.to_string(),
    }
}

/// A record's values for one figure, derived as the tables show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Cells {
    /// Median on one thread.
    pub one_thread: Option<f64>,
    /// Median on all threads.
    pub all_threads: Option<f64>,
    /// All threads ÷ threads (rates of work only).
    pub per_thread: Option<f64>,
    /// One thread ÷ GHz (rates of work, clock known).
    pub per_ghz: Option<f64>,
    /// All ÷ one (speed).
    pub scaling: Option<f64>,
}

/// A row of a figure: its name and how to get its value.
type RowKind = (&'static str, fn(&Cells) -> Option<f64>);

/// The rows a figure has in the measured table.
const ROWS: [RowKind; 5] = [
    ("1 thread", |c| c.one_thread),
    ("all threads", |c| c.all_threads),
    ("per thread", |c| c.per_thread),
    ("per GHz, 1 thread", |c| c.per_ghz),
    ("scaling", |c| c.scaling),
];

/// A derived value, where it is a number (a valid record's extreme values can overflow).
fn finite(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite())
}

fn cells(record: &Record, figure: &Figure) -> Cells {
    let work_rate = matches!(
        figure.unit,
        Unit::MultiplicationsPerSecond | Unit::PermutationsPerSecond
    );
    let one = figure.one_thread.map(|s| s.median);
    let all = figure.all_threads.map(|s| s.median);
    let threads = record.run.as_ref().map(|r| r.threads as f64);
    Cells {
        one_thread: one,
        all_threads: all,
        per_thread: finite(all.zip(threads).filter(|_| work_rate).map(|(a, t)| a / t)),
        per_ghz: finite(
            one.zip(record.machine.clock_ghz)
                .filter(|_| work_rate)
                .map(|(o, ghz)| o / ghz),
        ),
        scaling: figure.scaling,
    }
}

/// One figure across the compared records.
#[derive(Clone, Debug)]
pub struct FigureRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its unit.
    pub unit: Unit,
    /// Per record of the table (`None`: the record lacks it).
    pub cells: Vec<Option<Cells>>,
}

/// The cost of one priced record.
#[derive(Clone, Debug, Serialize)]
pub struct Cost {
    /// The record.
    pub label: String,
    /// Its price.
    pub usd_per_hour: f64,
    /// USD per million permutations at the all-threads rate, per priced permutation.
    pub usd_per_million_permutations: BTreeMap<String, Option<f64>>,
    /// The reference commitment, where the record has the plonky2 Merkle figure.
    pub reference: Option<Reference>,
}

/// The extrapolated reference commitment on one machine.
#[derive(Clone, Debug, Serialize)]
pub struct Reference {
    /// The figure extrapolated from.
    pub from_figure: String,
    /// Its all-threads permutations per second.
    pub permutations_per_second: f64,
    /// The one-thread → all-threads scaling in that rate.
    pub scaling: Option<f64>,
    /// Seconds for the reference commitment.
    pub seconds: f64,
    /// Its cost.
    pub usd: f64,
}

/// Permutations of the reference commitment (2^24 × 136, plonky2 preset: 17 sponge
/// permutations per leaf and one per tree node).
#[must_use]
pub fn reference_permutations() -> usize {
    let config = aurum_merkle::config::plonky2();
    TreeShape::new(&[Dimensions {
        width: REFERENCE_COLS,
        height: 1 << REFERENCE_LOG_ROWS,
    }])
    .expect("a valid shape")
    .permutations(|len| config.leaf().permutations(len))
}

/// The records compared and everything derived from them.
#[derive(Debug)]
pub struct Comparison<'a> {
    /// All records, in the order given.
    pub records: &'a [Record],
    /// Records with wall times (indices into `records`).
    pub measured: Vec<usize>,
    /// Records with instruction counts.
    pub counted: Vec<usize>,
    /// Figures of the measured records.
    pub measured_rows: Vec<FigureRow>,
    /// Figures of the counted records.
    pub counted_rows: Vec<FigureRow>,
    /// Costs of the priced records.
    pub costs: Vec<Cost>,
}

/// Figures of `table` (indices into `records`) in order of first appearance, with `keep`.
fn figure_rows(
    records: &[Record],
    table: &[usize],
    keep: impl Fn(&Figure) -> bool,
) -> Result<Vec<FigureRow>, String> {
    let mut rows: Vec<FigureRow> = Vec::new();
    for (column, &r) in table.iter().enumerate() {
        for figure in records[r].figures.iter().filter(|f| keep(f)) {
            let row = match rows.iter_mut().position(|row| row.id == figure.id) {
                Some(i) => &mut rows[i],
                None => {
                    rows.push(FigureRow {
                        id: figure.id.clone(),
                        name: figure.name.clone(),
                        unit: figure.unit,
                        cells: vec![None; table.len()],
                    });
                    rows.last_mut().expect("just pushed")
                }
            };
            if row.unit != figure.unit {
                return Err(format!(
                    "figure {} is in {} in one record and in {} in {}: the records do not \
                     measure the same thing",
                    figure.id, row.unit, figure.unit, records[r].label
                ));
            }
            row.cells[column] = Some(cells(&records[r], figure));
        }
    }
    Ok(rows)
}

impl<'a> Comparison<'a> {
    /// Compares `records` (labels must differ); `prices` per record from [`parse_prices`];
    /// `all` includes the per-backend and per-batch-size details.
    pub fn new(
        records: &'a [Record],
        prices: Vec<Option<f64>>,
        all: bool,
    ) -> Result<Comparison<'a>, String> {
        for (i, r) in records.iter().enumerate() {
            if records[..i].iter().any(|earlier| earlier.label == r.label) {
                return Err(format!(
                    "two records are labelled {}: give each machine its own label \
                     (`aurum bench --label`)",
                    r.label
                ));
            }
        }
        let measured: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].has_wall_times())
            .collect();
        let counted: Vec<usize> = (0..records.len())
            .filter(|&i| {
                records[i]
                    .figures
                    .iter()
                    .any(|f| f.unit.is_instruction_count())
            })
            .collect();
        let measured_rows = figure_rows(records, &measured, |f| {
            (all || !f.detail) && !f.unit.is_instruction_count()
        })?;
        let counted_rows = figure_rows(records, &counted, |f| {
            (all || !f.detail) && f.unit.is_instruction_count()
        })?;
        let costs = records
            .iter()
            .zip(&prices)
            .filter_map(|(r, p)| p.map(|usd| cost(r, usd)))
            .collect();
        Ok(Comparison {
            records,
            measured,
            counted,
            measured_rows,
            counted_rows,
            costs,
        })
    }

    /// The markdown report.
    #[must_use]
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        self.machines_table(&mut out);
        if !self.measured_rows.is_empty() {
            let _ = writeln!(
                out,
                "\n**Measured** (median of the repetitions; `(n×)`: value ÷ the first \
                 record's)\n"
            );
            self.figure_table(&mut out, &self.measured, &self.measured_rows, true);
        }
        if !self.costs.is_empty() {
            self.cost_table(&mut out);
        }
        if !self.counted_rows.is_empty() {
            let _ = writeln!(
                out,
                "\n**Executed instructions** under emulation, one thread (an instruction \
                 count, not time: an SVE instruction counts 1 at any vector length; `(n×)`: \
                 value ÷ the first record's)\n"
            );
            self.figure_table(&mut out, &self.counted, &self.counted_rows, false);
        }
        out
    }

    fn machines_table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "**Machines**\n\n| record | CPU | cores | clock | backend | build | run |\n\
             |---|---|---:|---:|---|---|---|"
        );
        for r in self.records {
            let m = &r.machine;
            let cores = match m.physical_cores {
                Some(p) => format!("{} ({p} physical)", m.logical_cpus),
                None => m.logical_cpus.to_string(),
            };
            let clock = m
                .clock_ghz
                .map_or_else(|| "—".to_string(), |g| format!("{g:.2} GHz"));
            let build = match &r.build {
                Some(b) if b.rustflags.is_empty() => "no RUSTFLAGS".to_string(),
                Some(b) => format!("`{}`", b.rustflags),
                None => "—".to_string(),
            };
            let run = match (&r.run, r.kind) {
                (Some(run), _) => {
                    let mut text = format!(
                        "{}, {} threads, {}",
                        r.mode.name(),
                        run.threads,
                        display::seconds(run.seconds)
                    );
                    if run.noise.noisy {
                        text.push_str(", **noisy**");
                        if let Some(share) = run.noise.other_cpu_share {
                            let _ = write!(
                                text,
                                " (others used {} of the CPU)",
                                display::percent(share)
                            );
                        }
                    }
                    if m.emulated.is_some() {
                        text.push_str(", emulated: times not compared");
                    }
                    text
                }
                (None, RecordKind::InstructionCount) => "instruction counts".to_string(),
                (None, RecordKind::Measured) => "—".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {cores} | {clock} | {} | {} | {} |",
                cell_text(&r.label),
                cell_text(&cpu_description(r)),
                cell_text(&backend_description(r)),
                cell_text(&build),
                cell_text(&run)
            );
        }
    }

    fn figure_table(&self, out: &mut String, table: &[usize], rows: &[FigureRow], derived: bool) {
        let _ = write!(out, "| figure |{}", if derived { " |" } else { "" });
        for &r in table {
            let _ = write!(out, " {} |", cell_text(&self.records[r].label));
        }
        let _ = write!(out, "\n|---|{}", if derived { "---|" } else { "" });
        for _ in table {
            out.push_str("---:|");
        }
        out.push('\n');
        for row in rows {
            let mut first_line = true;
            let kinds: &[RowKind] = if derived { &ROWS } else { &ROWS[..1] };
            for (what, get) in kinds {
                let values: Vec<Option<f64>> =
                    row.cells.iter().map(|c| c.as_ref().and_then(get)).collect();
                if values.iter().all(Option::is_none) {
                    continue;
                }
                let name = if first_line {
                    cell_text(&row.name)
                } else {
                    String::new()
                };
                first_line = false;
                let _ = write!(out, "| {name} |");
                if derived {
                    let _ = write!(out, " {what} |");
                }
                let first = values.iter().flatten().next().copied();
                let mut seen_first = false;
                for v in &values {
                    let text = match v {
                        None => "—".to_string(),
                        Some(v) => {
                            let shown = if *what == "scaling" {
                                display::ratio(*v)
                            } else {
                                display::value(row.unit, *v)
                            };
                            match first {
                                // A scaling is a ratio already.
                                Some(f) if seen_first && f > 0.0 && *what != "scaling" => {
                                    format!("{shown} ({})", display::ratio(v / f))
                                }
                                _ => {
                                    seen_first = true;
                                    shown
                                }
                            }
                        }
                    };
                    let _ = write!(out, " {text} |");
                }
                out.push('\n');
            }
        }
    }

    fn cost_table(&self, out: &mut String) {
        let _ = write!(
            out,
            "\n**Cost** (USD at the given hourly price, all threads)\n\n| record | USD/hour |"
        );
        for (_, name) in PRICED_PERMUTATIONS {
            let _ = write!(out, " per 10^6 {name} |");
        }
        let _ = writeln!(
            out,
            " 2^{REFERENCE_LOG_ROWS} × {REFERENCE_COLS} plonky2 commitment, extrapolated |"
        );
        out.push_str("|---|---:|");
        for _ in PRICED_PERMUTATIONS {
            out.push_str("---:|");
        }
        out.push_str("---:|\n");
        let mut from = Vec::new();
        for cost in &self.costs {
            let _ = write!(
                out,
                "| {} | {} |",
                cell_text(&cost.label),
                display::significant(cost.usd_per_hour)
            );
            for (id, _) in PRICED_PERMUTATIONS {
                let text = cost
                    .usd_per_million_permutations
                    .get(id)
                    .copied()
                    .flatten()
                    .map_or_else(|| "—".to_string(), usd);
                let _ = write!(out, " {text} |");
            }
            match &cost.reference {
                Some(reference) => {
                    let _ = writeln!(
                        out,
                        " {} in {} |",
                        usd(reference.usd),
                        display::seconds(reference.seconds)
                    );
                    if !from.contains(&reference.from_figure) {
                        from.push(reference.from_figure.clone());
                    }
                }
                None => out.push_str(" — |\n"),
            }
        }
        if from.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "\nThe commitment is an extrapolation, not a measurement: a {REFERENCE_COLS}-column, \
             2^{REFERENCE_LOG_ROWS}-row trace (a zkEVM's) takes {} permutations with the plonky2 \
             preset, priced at the all-threads permutation rate (the one-thread rate times the \
             measured scaling) of `{}`; the memory and cache behaviour of its {} GiB of input \
             are not modelled.",
            reference_permutations(),
            from.join("`, `"),
            ((REFERENCE_COLS << REFERENCE_LOG_ROWS) * 8) >> 30
        );
    }

    /// The report as JSON (`--json`).
    #[must_use]
    pub fn to_json<'s>(&'s self) -> serde_json::Value {
        #[derive(Serialize)]
        struct JsonRecord<'r> {
            label: &'r str,
            kind: RecordKind,
            mode: &'r str,
            cpu: String,
            logical_cpus: usize,
            physical_cores: Option<usize>,
            clock_ghz: Option<f64>,
            backend: String,
            rustflags: Option<&'r str>,
            threads: Option<usize>,
            emulated: Option<&'r str>,
            noisy: Option<bool>,
        }
        #[derive(Serialize)]
        struct JsonFigure<'r> {
            id: &'r str,
            name: &'r str,
            unit: Unit,
            values: BTreeMap<&'r str, Cells>,
        }
        let figures = |table: &[usize], rows: &'s [FigureRow]| -> Vec<JsonFigure<'s>> {
            rows.iter()
                .map(|row| JsonFigure {
                    id: &row.id,
                    name: &row.name,
                    unit: row.unit,
                    values: table
                        .iter()
                        .zip(&row.cells)
                        .filter_map(|(&r, c)| Some((self.records[r].label.as_str(), (*c)?)))
                        .collect(),
                })
                .collect()
        };
        let records: Vec<JsonRecord<'_>> = self
            .records
            .iter()
            .map(|r| JsonRecord {
                label: &r.label,
                kind: r.kind,
                mode: r.mode.name(),
                cpu: cpu_description(r),
                logical_cpus: r.machine.logical_cpus,
                physical_cores: r.machine.physical_cores,
                clock_ghz: r.machine.clock_ghz,
                backend: backend_description(r),
                rustflags: r.build.as_ref().map(|b| b.rustflags.as_str()),
                threads: r.run.as_ref().map(|run| run.threads),
                emulated: r.machine.emulated.as_ref().map(|e| e.name.as_str()),
                noisy: r.run.as_ref().map(|run| run.noise.noisy),
            })
            .collect();
        serde_json::json!({
            "schema": "aurum-bench-compare/1",
            "records": records,
            "measured": figures(&self.measured, &self.measured_rows),
            "instructions": figures(&self.counted, &self.counted_rows),
            "costs": self.costs,
            "reference_commitment": {
                "rows": 1u64 << REFERENCE_LOG_ROWS,
                "cols": REFERENCE_COLS,
                "preset": "plonky2",
                "permutations": reference_permutations(),
                "extrapolated": true,
            },
        })
    }
}

/// A dollar amount with three significant digits (`$0.0123`, `$2.78e-6`).
fn usd(v: f64) -> String {
    if v >= 0.001 {
        format!("${}", display::significant(v))
    } else {
        format!("${v:.2e}")
    }
}

/// Text safe inside a markdown table cell.
fn cell_text(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// What `record` costs at `usd_per_hour`.
fn cost(record: &Record, usd_per_hour: f64) -> Cost {
    let usd_per_second = usd_per_hour / 3600.0;
    let all_rate = |id: &str| {
        record
            .figure(id)
            .and_then(|f| f.all_threads)
            .map(|s| s.median)
            .filter(|r| *r > 0.0)
    };
    let usd_per_million_permutations = PRICED_PERMUTATIONS
        .iter()
        .map(|(id, _)| {
            let usd = all_rate(id).map(|rate| usd_per_second * 1e6 / rate);
            (id.to_string(), finite(usd))
        })
        .collect();
    // The plonky2 Merkle permutation rate, whatever size the record measured it at.
    let reference = record
        .figures
        .iter()
        .find(|f| f.id.starts_with("merkle/plonky2/") && f.unit == Unit::PermutationsPerSecond)
        .and_then(|f| {
            let rate = all_rate(&f.id)?;
            let seconds = finite(Some(reference_permutations() as f64 / rate))?;
            finite(Some(seconds * usd_per_second))?;
            Some(Reference {
                from_figure: f.id.clone(),
                permutations_per_second: rate,
                scaling: f.scaling,
                seconds,
                usd: seconds * usd_per_second,
            })
        });
    Cost {
        label: record.label.clone(),
        usd_per_hour,
        usd_per_million_permutations,
        reference,
    }
}
