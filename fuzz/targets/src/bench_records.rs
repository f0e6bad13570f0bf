//! `aurum bench compare` and `aurum bench import-insn` on arbitrary file contents: the record
//! reader and its checks, the comparison (markdown, JSON, chart) of what it accepts, and the
//! `counts.csv` reader — exactly the calls the commands make.
//!
//! Input: a record file, a 0xFF byte (never in UTF-8 text), and a `counts.csv` text.

use aurum_bench::compare::{Comparison, parse_prices};
use aurum_bench::{chart, insn, record};

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let mut parts = data.splitn(2, |&b| b == 0xFF);
    let record_text = parts.next().unwrap_or_default();
    let counts_text = parts.next().unwrap_or_default();
    let mut records = Vec::new();
    if let Ok(text) = std::str::from_utf8(record_text)
        && let Ok(record) = record::parse(text)
    {
        // What is accepted is written back as the same record.
        assert_eq!(record::parse(&record.to_json()).as_ref(), Ok(&record));
        records.push(record);
    }
    if let Ok(text) = std::str::from_utf8(counts_text)
        && let Ok(imported) = insn::records_from_counts(text, "2026-01-01T00:00:00Z", "fuzz")
    {
        for record in &imported {
            record.validate().expect("imported records are valid");
        }
        records.extend(imported);
    }
    // Labels may repeat (then the comparison refuses); price every record with wall times.
    let prices: Vec<String> = records
        .iter()
        .filter(|r| r.has_wall_times())
        .map(|r| format!("{}=0.5", r.label))
        .collect();
    let Ok(prices) = parse_prices(&prices, &records) else {
        return;
    };
    if let Ok(comparison) = Comparison::new(&records, prices, true) {
        let _ = comparison.markdown();
        let _ = comparison.to_json();
        let _ = chart::svg(&comparison);
    }
}
