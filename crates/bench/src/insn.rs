//! `aurum bench import-insn`: records of executed instructions from the counts of
//! `scripts/arm-instructions.sh`, one record per emulated CPU model.
//!
//! Under qemu, wall time describes the emulator, not the CPU emulated; the executed
//! instructions do describe the code that CPU would run. The script counts them with a TCG
//! plugin for each kernel (Poseidon2 W8/W12/W16 and Poseidon W12 per state, two Merkle commits
//! per leaf, a forward NTT per butterfly) on each qemu CPU model (NEON, SVE2 at several vector
//! lengths, SVE on A64FX, x86-64 scalar and AVX2), and writes them to `counts.csv`. This
//! command turns each column of that file into an `instruction-count` record that
//! `aurum bench compare` shows next to the others: importing keeps the counting where its
//! checks are (the script verifies the plugin, the backend each run used and that every
//! column computed the same checksum), and the records stay comparable across machines and
//! vector lengths.
//!
//! `counts.csv` has the header
//! `kernel,unit_per,column,qemu_cpu,aurum_backend,k,count_k,count_2k,per_unit,checksum`;
//! `per_unit` is the instruction count per unit. The heading paragraph of the `table.md`
//! written next to it (qemu version, commit, compilers) becomes each record's `source`.

use crate::BenchError;
use crate::record::{
    Emulation, Figure, Machine, Mode, Record, RecordKind, SCHEMA, Stats, Unit, check_label,
};

/// The header `counts.csv` must have.
pub const HEADER: &str =
    "kernel,unit_per,column,qemu_cpu,aurum_backend,k,count_k,count_2k,per_unit,checksum";

/// The kernels of the script: name, unit, figure id, figure name.
const KERNELS: [(&str, Unit, &str, &str); 7] = [
    (
        "p2w8",
        Unit::InstructionsPerState,
        "insn/poseidon2-w8",
        "Poseidon2 W8 permutation",
    ),
    (
        "p2w12",
        Unit::InstructionsPerState,
        "insn/poseidon2-w12",
        "Poseidon2 W12 permutation",
    ),
    (
        "p2w16",
        Unit::InstructionsPerState,
        "insn/poseidon2-w16",
        "Poseidon2 W16 permutation",
    ),
    (
        "poseidon12",
        Unit::InstructionsPerState,
        "insn/poseidon-w12",
        "Poseidon (plonky2) W12 permutation",
    ),
    (
        "merkle-p2w8",
        Unit::InstructionsPerLeaf,
        "insn/merkle/poseidon2-w8/2^16x8",
        "Merkle commit 2^16 × 8, poseidon2-w8",
    ),
    (
        "merkle-plonky2",
        Unit::InstructionsPerLeaf,
        "insn/merkle/plonky2/2^16x8",
        "Merkle commit 2^16 × 8, plonky2",
    ),
    (
        "ntt",
        Unit::InstructionsPerButterfly,
        "insn/ntt/2^16x8",
        "Forward NTT 2^16 × 8, bit-reversed output",
    ),
];

/// One line of `counts.csv`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Count {
    kernel: String,
    pub(crate) column: String,
    qemu_cpu: String,
    backend: String,
    per_unit: f64,
}

/// Parses `counts.csv`; errors name the line.
pub(crate) fn parse_counts(text: &str) -> Result<Vec<Count>, BenchError> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, header)) if header.trim() == HEADER => {}
        _ => {
            return Err(BenchError::Counts(format!(
                "line 1: expected the header {HEADER}"
            )));
        }
    }
    let mut counts = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let at = |what: String| BenchError::Counts(format!("line {}: {what}", i + 1));
        let fields: Vec<&str> = line.split(',').collect();
        let [
            kernel,
            unit,
            column,
            qemu_cpu,
            backend,
            k,
            count_k,
            count_2k,
            per_unit,
            _sum,
        ] = fields.as_slice()
        else {
            return Err(at(format!("expected 10 fields, found {}", fields.len())));
        };
        // The counts behind `per_unit`: iterations (at least one) and instruction counts,
        // whole and not negative.
        for (what, value, least) in [
            ("k", k, 1),
            ("count_k", count_k, 0),
            ("count_2k", count_2k, 0),
        ] {
            if !value.parse::<u64>().is_ok_and(|v| v >= least) {
                return Err(at(format!(
                    "{what} {value:?} is not a whole number of at least {least}"
                )));
            }
        }
        let per_unit: f64 = per_unit
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v > 0.0)
            .ok_or_else(|| at(format!("per_unit {per_unit:?} is not a positive count")))?;
        if let Some((_, expected, _, _)) = KERNELS.iter().find(|k| k.0 == *kernel) {
            let stated = format!("instructions/{unit}");
            if stated != expected.name() {
                return Err(at(format!(
                    "kernel {kernel} is counted per {unit}, expected {}",
                    expected.name()
                )));
            }
        }
        let name_ok = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | ' '))
        };
        for (what, value) in [
            ("column", column),
            ("qemu_cpu", qemu_cpu),
            ("aurum_backend", backend),
        ] {
            if !name_ok(value) {
                return Err(at(format!("{what} {value:?} is not a name")));
            }
        }
        if counts
            .iter()
            .any(|c: &Count| c.kernel == *kernel && c.column == *column)
        {
            return Err(at(format!("{kernel} on {column} is counted twice")));
        }
        counts.push(Count {
            kernel: kernel.to_string(),
            column: column.to_string(),
            qemu_cpu: qemu_cpu.to_string(),
            backend: backend.to_string(),
            per_unit,
        });
    }
    if counts.is_empty() {
        return Err(BenchError::Counts("no counts after the header".to_string()));
    }
    Ok(counts)
}

/// The script's x86-64 columns are named `x86-…`; the others are aarch64.
pub(crate) fn arch_of(column: &str) -> (&'static str, &str) {
    match column.strip_prefix("x86-") {
        Some(rest) => ("x86_64", rest),
        None => ("aarch64", column),
    }
}

/// The SVE vector length a qemu `-cpu` option selects: `sve-default-vector-length=BYTES`, or
/// A64FX's 512 bits (256 with `sve256=on`).
fn sve_bits(qemu_cpu: &str) -> Option<usize> {
    let options: Vec<&str> = qemu_cpu.split(',').collect();
    if let Some(bytes) = options
        .iter()
        .find_map(|o| o.strip_prefix("sve-default-vector-length="))
    {
        return bytes.parse::<usize>().ok()?.checked_mul(8);
    }
    if options.first() == Some(&"a64fx") {
        return Some(if options.contains(&"sve256=on") {
            256
        } else {
            512
        });
    }
    None
}

/// The heading paragraph of `table.md`: its lines up to the first blank one.
pub(crate) fn table_heading(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The records of `counts` (one per column, in the file's order), labelled
/// `ARCH-qemu-COLUMN`, dated `date`, with `source`.
pub(crate) fn records(
    counts: &[Count],
    date: &str,
    source: &str,
) -> Result<Vec<Record>, BenchError> {
    let mut columns: Vec<&str> = Vec::new();
    for c in counts {
        if !columns.contains(&c.column.as_str()) {
            columns.push(&c.column);
        }
    }
    let mut out = Vec::new();
    for column in columns {
        let in_column: Vec<&Count> = counts.iter().filter(|c| c.column == column).collect();
        let first = in_column[0];
        if in_column
            .iter()
            .any(|c| c.backend != first.backend || c.qemu_cpu != first.qemu_cpu)
        {
            return Err(BenchError::Counts(format!(
                "column {column} names more than one CPU model or backend"
            )));
        }
        let (arch, short) = arch_of(column);
        let label = format!("{arch}-qemu-{short}");
        check_label(&label)
            .map_err(|e| BenchError::Counts(format!("column {column}: label {e}")))?;
        // The script writes the -cpu option's commas as spaces (it is a CSV field).
        let cpu = first.qemu_cpu.replace(' ', ",");
        let emulator = format!("qemu-{arch} -cpu {cpu}");
        let mut figures = Vec::new();
        let mut unknown = Vec::new();
        for count in &in_column {
            match KERNELS.iter().find(|k| k.0 == count.kernel) {
                Some(&(_, unit, id, name)) => figures.push(Figure {
                    id: id.to_string(),
                    name: name.to_string(),
                    unit,
                    detail: false,
                    one_thread: Some(Stats::exact(count.per_unit)),
                    all_threads: None,
                    scaling: None,
                }),
                None => unknown.push(count.kernel.as_str()),
            }
        }
        if !unknown.is_empty() {
            eprintln!(
                "note: column {column}: kernels this aurum does not know were left out: {}",
                unknown.join(", ")
            );
        }
        out.push(Record {
            schema: SCHEMA.to_string(),
            label,
            kind: RecordKind::InstructionCount,
            mode: Mode::Imported,
            date: date.to_string(),
            machine: Machine {
                host: "qemu".to_string(),
                arch: arch.to_string(),
                os: None,
                cpu_vendor: None,
                cpu_model: None,
                cpu_id: None,
                logical_cpus: 1,
                physical_cores: None,
                clock_ghz: None,
                clock_source: None,
                simd_features: Vec::new(),
                backend: first.backend.clone(),
                sve_vector_bits: if first.backend == "sve" {
                    sve_bits(&cpu)
                } else {
                    None
                },
                memory_bytes: None,
                emulated: Some(Emulation {
                    name: emulator,
                    detected_by: "imported from scripts/arm-instructions.sh".to_string(),
                }),
                gpu: None,
            },
            build: None,
            run: None,
            source: Some(source.to_string()),
            figures,
        });
    }
    Ok(out)
}

/// The records of a `counts.csv` text (what `import-insn` writes, before `--columns`).
///
/// # Errors
/// A line or column of `csv` that cannot be imported.
pub fn records_from_counts(csv: &str, date: &str, source: &str) -> Result<Vec<Record>, BenchError> {
    records(&parse_counts(csv)?, date, source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_lengths() {
        assert_eq!(sve_bits("max,sve-default-vector-length=32"), Some(256));
        assert_eq!(sve_bits("a64fx"), Some(512));
        assert_eq!(sve_bits("a64fx,sve256=on"), Some(256));
        assert_eq!(sve_bits("max,sve=off"), None);
    }

    #[test]
    fn counts_are_checked() {
        let line = "p2w8,state,neon,max sve=off,neon,16,100,200,7165.0781,0x1";
        let ok = parse_counts(&format!("{HEADER}\n{line}\n")).unwrap();
        assert_eq!(ok[0].per_unit, 7165.0781);
        for bad in [
            String::new(),
            format!("{HEADER}\n"),
            format!("{HEADER}\np2w8,state,neon"),
            format!("{HEADER}\n{}", line.replace("7165.0781", "-1")),
            format!("{HEADER}\n{}", line.replace(",state,", ",leaf,")),
            format!("{HEADER}\n{line}\n{line}"),
            format!("{HEADER}\n{}", line.replace("neon,16", "ne|on,16")),
        ] {
            assert!(parse_counts(&bad).is_err(), "accepted {bad:?}");
        }
        for bad in ["-16", "0", "1.5", ""] {
            let line = line.replace(",16,", &format!(",{bad},"));
            let error = parse_counts(&format!("{HEADER}\n{line}\n"))
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(&format!("line 2: k {bad:?}")), "{error}");
        }
        let line = line.replace(",100,", ",-100,");
        let error = parse_counts(&format!("{HEADER}\n{line}\n"))
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("line 2: count_k \"-100\""), "{error}");
    }
}
