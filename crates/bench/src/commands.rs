//! The commands that read records and counts: `aurum bench compare` ([`compare`]: the
//! comparison of [`crate::compare`], printed, and its chart, [`crate::chart`]) and
//! `aurum bench import-insn` ([`import_insn`]: the records of [`crate::insn`], written).
//! Neither computes with the kernels.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::compare::{Comparison, parse_prices};
use crate::insn::{arch_of, parse_counts, records, table_heading};
use crate::record::{self, Record, check_utc_date};
use crate::{BenchError, Host, chart, machine};

/// The largest record file read (real ones are tens of KiB).
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The largest `counts.csv` or `table.md` read (real ones are a few KiB).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// What `aurum bench compare` compares: its arguments.
#[derive(Clone, Debug, Default)]
pub struct CompareOptions {
    /// The record files; ratios are to the first that has each figure.
    pub records: Vec<PathBuf>,
    /// `--price LABEL=USD_PER_HOUR` values.
    pub prices: Vec<String>,
    /// `--json`: the comparison as JSON instead of markdown.
    pub json: bool,
    /// `--svg`: where to draw the chart.
    pub svg: Option<PathBuf>,
    /// `--all`: the per-backend and per-batch-size details too.
    pub all: bool,
}

/// What `aurum bench import-insn` imports: its arguments.
#[derive(Clone, Debug, Default)]
pub struct ImportInsnOptions {
    /// The `counts.csv` of `scripts/arm-instructions.sh`.
    pub counts: PathBuf,
    /// `--table`: the `table.md` written with it (default: the one beside it, if there).
    pub table: Option<PathBuf>,
    /// `--out-dir`: where to write the records.
    pub out_dir: PathBuf,
    /// `--columns`: only these columns (all when empty).
    pub columns: Vec<String>,
    /// `--date`: the records' date (default: now).
    pub date: Option<String>,
}

/// Reads and checks one record file.
///
/// # Errors
/// The file cannot be read, or is not a valid record.
pub fn read_record<H: Host>(host: &H, path: &Path) -> Result<Record, BenchError> {
    let bytes = host.read(path, MAX_RECORD_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| BenchError::NotText {
        path: path.to_path_buf(),
        expected: "a record",
    })?;
    record::parse(&text).map_err(|error| BenchError::Record {
        path: path.to_path_buf(),
        error,
    })
}

/// `aurum bench compare`: prints the comparison and draws the chart.
///
/// # Errors
/// A file refused, a record invalid, prices refused, records that cannot be compared.
pub fn compare<H: Host>(host: &H, args: &CompareOptions) -> Result<ExitCode, BenchError> {
    // The chart, checked and its temporary created before anything is read or printed.
    let inputs: Vec<(&str, &Path)> = args
        .records
        .iter()
        .map(|p| ("record", p.as_path()))
        .collect();
    let svg = match args.svg.as_deref() {
        Some(path) => host.prepare(&[("--svg", path)], &inputs)?.pop(),
        None => None,
    };
    let records = args
        .records
        .iter()
        .map(|p| read_record(host, p))
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
        host.write(svg, chart::svg(&comparison)?.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn read_text<H: Host>(host: &H, path: &Path) -> Result<String, BenchError> {
    String::from_utf8(host.read(path, MAX_FILE_BYTES)?).map_err(|_| BenchError::NotText {
        path: path.to_path_buf(),
        expected: "",
    })
}

/// `aurum bench import-insn`: writes one record per column of `counts.csv`.
///
/// # Errors
/// A file refused, a line or column that cannot be imported, a flag's value refused.
pub fn import_insn<H: Host>(host: &H, args: &ImportInsnOptions) -> Result<ExitCode, BenchError> {
    let csv = read_text(host, &args.counts)?;
    let counts = parse_counts(&csv)
        .map_err(|e| BenchError::Counts(format!("{}: {e}", args.counts.display())))?;
    let table: Option<PathBuf> = match &args.table {
        Some(path) => Some(path.clone()),
        None => Some(args.counts.with_file_name("table.md")).filter(|p| p.is_file()),
    };
    let mut source = format!(
        "executed instructions per unit counted by scripts/arm-instructions.sh ({})",
        args.counts
            .file_name()
            .map_or_else(|| "counts.csv".into(), |n| n.to_string_lossy())
    );
    if let Some(path) = &table {
        let heading = table_heading(&read_text(host, path)?);
        if !heading.is_empty() {
            source = format!("{source}; its table says: {heading}");
        }
    }
    let date = match &args.date {
        Some(date) => {
            check_utc_date(date)
                .map_err(|e| BenchError::Argument(format!("--date {date:?}: {e}")))?;
            date.clone()
        }
        None => machine::now_utc(),
    };
    let mut records = records(&counts, &date, &source)?;
    if !args.columns.is_empty() {
        let available: BTreeMap<&str, ()> =
            counts.iter().map(|c| (c.column.as_str(), ())).collect();
        for column in &args.columns {
            if !available.contains_key(column.as_str()) {
                let names: Vec<&str> = available.keys().copied().collect();
                return Err(BenchError::Argument(format!(
                    "--columns: {column:?} is not a column of {} (it has {})",
                    args.counts.display(),
                    names.join(", ")
                )));
            }
        }
        records.retain(|r| {
            args.columns
                .iter()
                .any(|c| r.label == format!("{}-qemu-{}", arch_of(c).0, arch_of(c).1))
        });
    }
    for record in &records {
        record.validate().map_err(|error| BenchError::Made {
            what: format!("record {}", record.label),
            error,
        })?;
    }
    // Every record's file, checked and its temporary created before any is written.
    let paths: Vec<PathBuf> = records
        .iter()
        .map(|r| args.out_dir.join(format!("{}.json", r.label)))
        .collect();
    let outputs: Vec<(&str, &Path)> = paths.iter().map(|p| ("--out-dir", p.as_path())).collect();
    let mut inputs = vec![("COUNTS_CSV", args.counts.as_path())];
    inputs.extend(table.as_deref().map(|p| ("--table", p)));
    let files = host.prepare(&outputs, &inputs)?;
    for ((record, path), file) in records.iter().zip(&paths).zip(files) {
        host.write(file, record.to_json().as_bytes())?;
        println!(
            "wrote {} ({} figures, {})",
            path.display(),
            record.figures.len(),
            record
                .machine
                .emulated
                .as_ref()
                .map_or("", |e| e.name.as_str())
        );
    }
    Ok(ExitCode::SUCCESS)
}
