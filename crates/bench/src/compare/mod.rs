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
//! ([`crate::chart`]). The output depends only on the records and the flags, so the same
//! records always give the same bytes.

mod json;
mod markdown;

use std::collections::BTreeMap;

use aurum_merkle::{Dimensions, MerkleConfig, TreeShape};
use aurum_symmetric::Hasher;
use serde::Serialize;

use crate::BenchError;
use crate::record::{Figure, Record, RecordKind, Unit};

/// The highest price accepted, in USD per hour.
const MAX_PRICE: f64 = 1e6;

/// The permutations the cost table prices: figure id and name.
pub const PRICED_PERMUTATIONS: [(&str, &str); 4] = [
    ("perm/poseidon2-w8/dispatch", "Poseidon2 W8"),
    ("perm/poseidon2-w12/dispatch", "Poseidon2 W12"),
    ("perm/poseidon2-w16/dispatch", "Poseidon2 W16"),
    ("perm/poseidon-w12/dispatch", "Poseidon (plonky2) W12"),
];

/// The id of the GPU figure of a priced permutation (`perm/poseidon2-w8/dispatch` →
/// `gpu/perm/poseidon2-w8`).
#[must_use]
pub fn gpu_permutation_id(id: &str) -> String {
    let name = id
        .strip_prefix("perm/")
        .and_then(|rest| rest.strip_suffix("/dispatch"))
        .unwrap_or(id);
    format!("gpu/perm/{name}")
}

/// The reference commitment: rows (log2) and columns of a zkEVM trace, plonky2 preset.
pub const REFERENCE_LOG_ROWS: u32 = 24;
/// Columns of the reference commitment.
pub const REFERENCE_COLS: usize = 136;

/// Parses `--price LABEL=USD_PER_HOUR` values against the records: one price per record at
/// most, each for a record with wall times, positive and finite.
///
/// # Errors
/// A price that is not `LABEL=USD_PER_HOUR`, not in range, for no record, for a record
/// without wall times, or given twice.
pub fn parse_prices(prices: &[String], records: &[Record]) -> Result<Vec<Option<f64>>, BenchError> {
    let refuse = |message: String| BenchError::Argument(message);
    let mut out = vec![None; records.len()];
    for price in prices {
        let (label, usd) = price
            .split_once('=')
            .ok_or_else(|| refuse(format!("--price {price:?}: expected LABEL=USD_PER_HOUR")))?;
        let usd: f64 = usd
            .trim()
            .parse()
            .ok()
            .filter(|u: &f64| u.is_finite() && *u > 0.0 && *u <= MAX_PRICE)
            .ok_or_else(|| {
                refuse(format!("--price {price:?}: {usd:?} is not a price in USD per hour (above 0, at most {MAX_PRICE})"))
            })?;
        let i = records
            .iter()
            .position(|r| r.label == label)
            .ok_or_else(|| {
                let labels: Vec<&str> = records.iter().map(|r| r.label.as_str()).collect();
                refuse(format!(
                    "--price {price:?}: no record is labelled {label:?} (labels: {})",
                    labels.join(", ")
                ))
            })?;
        if !records[i].has_wall_times() {
            return Err(refuse(format!(
                "--price {price:?}: {label} has no wall times ({}), so nothing to price",
                if records[i].kind == RecordKind::InstructionCount {
                    "instruction counts"
                } else {
                    "an emulated run"
                }
            )));
        }
        if out[i].replace(usd).is_some() {
            return Err(refuse(format!("--price: {label} is priced twice")));
        }
    }
    Ok(out)
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
pub(crate) type RowKind = (&'static str, fn(&Cells) -> Option<f64>);

/// The rows a figure has in the measured table.
pub(crate) const ROWS: [RowKind; 5] = [
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
    /// The same on the record's GPU ([`gpu_permutation_id`]), for the priced permutations it
    /// measured (empty without a GPU).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub gpu_usd_per_million_permutations: BTreeMap<String, Option<f64>>,
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
) -> Result<Vec<FigureRow>, BenchError> {
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
                return Err(BenchError::Incomparable(format!(
                    "figure {} is in {} in one record and in {} in {}: the records do not \
                     measure the same thing",
                    figure.id, row.unit, figure.unit, records[r].label
                )));
            }
            row.cells[column] = Some(cells(&records[r], figure));
        }
    }
    Ok(rows)
}

impl<'a> Comparison<'a> {
    /// Compares `records` (labels must differ); `prices` per record from [`parse_prices`];
    /// `all` includes the per-backend and per-batch-size details.
    ///
    /// # Errors
    /// Two records with one label, or one figure in two units.
    pub fn new(
        records: &'a [Record],
        prices: Vec<Option<f64>>,
        all: bool,
    ) -> Result<Comparison<'a>, BenchError> {
        for (i, r) in records.iter().enumerate() {
            if records[..i].iter().any(|earlier| earlier.label == r.label) {
                return Err(BenchError::Incomparable(format!(
                    "two records are labelled {}: give each machine its own label \
                     (`aurum bench --label`)",
                    r.label
                )));
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
    let gpu_usd_per_million_permutations = PRICED_PERMUTATIONS
        .iter()
        .filter_map(|(id, _)| {
            let gpu_id = gpu_permutation_id(id);
            let rate = all_rate(&gpu_id)?;
            Some((gpu_id, finite(Some(usd_per_second * 1e6 / rate))))
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
        gpu_usd_per_million_permutations,
        reference,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GpuDevice, Stats, Unit, parse};

    const CPU: &str = include_str!("../../records/zen5-native.json");

    /// A record of the same machine with a GPU and one GPU permutation figure.
    fn with_gpu() -> Record {
        let mut record = parse(CPU).unwrap();
        record.label = "gpu-box".to_string();
        record.machine.gpu = Some(GpuDevice {
            name: "NVIDIA H200".to_string(),
            memory_bytes: 150_000_000_000,
            multiprocessors: 132,
            compute_capability: "9.0".to_string(),
            refused: Vec::new(),
        });
        record.figures.push(Figure {
            id: "gpu/perm/poseidon2-w8".to_string(),
            name: "GPU permutations, poseidon2-w8".to_string(),
            unit: Unit::PermutationsPerSecond,
            detail: false,
            one_thread: None,
            all_threads: Some(Stats::exact(1e9)),
            scaling: None,
        });
        record
    }

    /// A record without a GPU is written back as it was read; one with a GPU round-trips.
    #[test]
    fn gpu_sections_round_trip_and_leave_cpu_records_alone() {
        let cpu = parse(CPU).unwrap();
        assert!(cpu.machine.gpu.is_none());
        assert_eq!(cpu.to_json(), CPU);
        let gpu = with_gpu();
        gpu.validate().unwrap();
        assert_eq!(parse(&gpu.to_json()).unwrap(), gpu);
    }

    /// The cost table gains GPU columns only where a priced record measured a GPU.
    #[test]
    fn gpu_permutations_are_priced_beside_the_cpu_s() {
        assert_eq!(
            gpu_permutation_id("perm/poseidon-w12/dispatch"),
            "gpu/perm/poseidon-w12"
        );
        let records = [parse(CPU).unwrap(), with_gpu()];
        let cpu_only = Comparison::new(&records[..1], vec![Some(1.0)], false)
            .unwrap()
            .markdown();
        assert!(!cpu_only.contains("(GPU)"), "{cpu_only}");
        let both = Comparison::new(&records, vec![Some(1.0), Some(3.6)], false)
            .unwrap()
            .markdown();
        assert!(both.contains("per 10^6 Poseidon2 W8 (GPU)"), "{both}");
        // 3.6 USD/hour at 10^9 permutations/s: 10^-6 USD per million.
        let row = both
            .lines()
            .find(|l| l.starts_with("| gpu-box |") && l.contains('$'))
            .unwrap_or_else(|| panic!("{both}"));
        assert!(row.contains("$1.00e-6"), "{row}");
        assert!(both.contains("GPU permutations, poseidon2-w8"), "{both}");
    }
}
