//! The comparison as JSON (`aurum bench compare --json`): the same numbers as the markdown
//! report, schema `aurum-bench-compare/1`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{
    Cells, Comparison, FigureRow, REFERENCE_COLS, REFERENCE_LOG_ROWS, reference_permutations,
};
use crate::display::{backend_description, cpu_description};
use crate::record::{RecordKind, Unit};

impl Comparison<'_> {
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
