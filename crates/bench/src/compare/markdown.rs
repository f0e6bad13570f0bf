//! The markdown report of a [`Comparison`]: the machines, the measured figures, the costs and
//! the executed instructions (see [`crate::compare`]).

use std::fmt::Write as _;

use super::{
    Comparison, FigureRow, PRICED_PERMUTATIONS, REFERENCE_COLS, REFERENCE_LOG_ROWS, ROWS, RowKind,
    gpu_permutation_id, reference_permutations,
};
use crate::display::{self, backend_description, cpu_description};
use crate::record::RecordKind;

impl Comparison<'_> {
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
        // GPU columns where a priced record measured a GPU.
        let gpu = self
            .costs
            .iter()
            .any(|c| !c.gpu_usd_per_million_permutations.is_empty());
        let columns: Vec<(String, &str, bool)> = PRICED_PERMUTATIONS
            .iter()
            .map(|&(id, name)| (id.to_string(), name, false))
            .chain(
                PRICED_PERMUTATIONS
                    .iter()
                    .filter(|_| gpu)
                    .map(|&(id, name)| (gpu_permutation_id(id), name, true)),
            )
            .collect();
        for (_, name, on_gpu) in &columns {
            let device = if *on_gpu { " (GPU)" } else { "" };
            let _ = write!(out, " per 10^6 {name}{device} |");
        }
        let _ = writeln!(
            out,
            " 2^{REFERENCE_LOG_ROWS} × {REFERENCE_COLS} plonky2 commitment, extrapolated |"
        );
        out.push_str("|---|---:|");
        for _ in &columns {
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
            for (id, _, on_gpu) in &columns {
                let costs = if *on_gpu {
                    &cost.gpu_usd_per_million_permutations
                } else {
                    &cost.usd_per_million_permutations
                };
                let text = costs
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
