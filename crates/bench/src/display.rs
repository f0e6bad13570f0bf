//! Numbers for people: three significant digits and a unit.

use crate::record::{Record, Unit};

/// `v` with three significant digits (`4.54`, `45.4`, `454`, `4540`).
#[must_use]
pub(crate) fn significant(v: f64) -> String {
    // Decide on the value rounded to three significant digits: 0.99996 is 1.00, not 1.000.
    let a: f64 = format!("{:.2e}", v.abs()).parse().unwrap_or(v.abs());
    if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        // Three significant digits below 1, e.g. 0.0123.
        let decimals = (2.0 - a.log10().floor()).clamp(3.0, 12.0) as usize;
        format!("{v:.decimals$}")
    }
}

/// `v` with a decimal prefix (`4.54 G`, `12.3 M`, `950 k`, `12.5`).
#[must_use]
pub(crate) fn prefixed(v: f64) -> String {
    for (scale, prefix) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if v.abs() >= scale {
            return format!("{} {prefix}", significant(v / scale));
        }
    }
    format!("{} ", significant(v))
}

/// A time: `1.23 s`, `45.6 ms`, `789 µs`.
#[must_use]
pub(crate) fn seconds(v: f64) -> String {
    if v >= 1.0 {
        format!("{} s", significant(v))
    } else if v >= 1e-3 {
        format!("{} ms", significant(v * 1e3))
    } else {
        format!("{} µs", significant(v * 1e6))
    }
}

/// A value of `unit` for tables: `4.54 Gmul/s`, `12.3 Mperm/s`, `1.23 GB/s`, `0.584 s`,
/// `123 MiB`, `7165 insn/state`.
#[must_use]
pub(crate) fn value(unit: Unit, v: f64) -> String {
    match unit {
        Unit::MultiplicationsPerSecond => format!("{}mul/s", prefixed(v)),
        Unit::PermutationsPerSecond => format!("{}perm/s", prefixed(v)),
        Unit::BytesPerSecond => format!("{}B/s", prefixed(v)),
        Unit::Seconds => seconds(v),
        Unit::Bytes => {
            if v >= f64::from(1u32 << 30) {
                format!("{} GiB", significant(v / f64::from(1u32 << 30)))
            } else {
                format!("{} MiB", significant(v / f64::from(1u32 << 20)))
            }
        }
        Unit::InstructionsPerState => format!("{} insn/state", instructions(v)),
        Unit::InstructionsPerLeaf => format!("{} insn/leaf", instructions(v)),
        Unit::InstructionsPerButterfly => format!("{} insn/butterfly", instructions(v)),
    }
}

/// An instruction count as `scripts/arm-instructions.sh` prints its table: whole numbers from
/// 100, two decimals below.
fn instructions(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// A ratio: `1.98×`.
#[must_use]
pub(crate) fn ratio(v: f64) -> String {
    format!("{}×", significant(v))
}

/// A share as a percentage with one decimal: `12.3 %`, `0.4 %`.
#[must_use]
pub(crate) fn percent(share: f64) -> String {
    format!("{:.1} %", share * 100.0)
}

/// The CPU in a few words: the model and the vendor's identification, or the emulator.
pub fn cpu_description(record: &Record) -> String {
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
pub fn backend_description(record: &Record) -> String {
    match (
        record.machine.backend.as_str(),
        record.machine.sve_vector_bits,
    ) {
        ("sve", Some(bits)) => format!("sve, {bits}-bit"),
        (b, _) => b.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(significant(4.5449), "4.54");
        assert_eq!(significant(45.449), "45.4");
        assert_eq!(significant(454.9), "455");
        assert_eq!(significant(0.01234), "0.0123");
        assert_eq!(significant(0.5), "0.500");
        assert_eq!(
            value(Unit::PermutationsPerSecond, 12_345_678.0),
            "12.3 Mperm/s"
        );
        assert_eq!(value(Unit::Seconds, 0.5844), "584 ms");
        assert_eq!(value(Unit::Bytes, 3.0 * 1048576.0), "3.00 MiB");
        assert_eq!(
            value(Unit::InstructionsPerState, 7165.08),
            "7165 insn/state"
        );
        assert_eq!(
            value(Unit::InstructionsPerButterfly, 18.3149),
            "18.31 insn/butterfly"
        );
        assert_eq!(ratio(1.98), "1.98×");
        assert_eq!(ratio(0.99996), "1.00×");
        assert_eq!(significant(0.9994), "0.999");
        assert_eq!(significant(0.000_012_34), "0.0000123");
        assert_eq!(significant(99.96), "100");
    }
}
