//! The chart of `aurum bench compare --svg`: per machine, the permutations per second per
//! thread, the cost of a million permutations (with `--price`) and, for emulated records,
//! the executed instructions per permutation; one bar per permutation kind.
//!
//! Drawn with `plotters`' SVG backend alone: no font library is linked, the text is written as
//! SVG `<text>` for the viewer to render, and plotters sizes its labels with its built-in
//! estimate of text width. So the binary needs no system library (fontconfig, FreeType) and
//! the same records always give the same bytes.

use plotters::prelude::*;

use crate::BenchError;
use crate::compare::{Comparison, FigureRow, PRICED_PERMUTATIONS};
use crate::display;

const WIDTH: u32 = 960;
const ROW_PIXELS: u32 = 64;
const PANEL_EXTRA_PIXELS: u32 = 90;
const FONT: &str = "sans-serif";

/// One bar per permutation kind (the legend's order).
const COLOURS: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
];

/// A panel: a title, the machines (top to bottom), their values per permutation kind, how to
/// write a value.
struct Panel {
    title: String,
    machines: Vec<String>,
    /// `values[machine][kind]`.
    values: Vec<[Option<f64>; 4]>,
    format: fn(f64) -> String,
}

/// The ids of the instruction counts of the permutations, in [`PRICED_PERMUTATIONS`]' order.
const INSTRUCTION_IDS: [&str; 4] = [
    "insn/poseidon2-w8",
    "insn/poseidon2-w12",
    "insn/poseidon2-w16",
    "insn/poseidon-w12",
];

fn row<'r>(rows: &'r [FigureRow], id: &str) -> Option<&'r FigureRow> {
    rows.iter().find(|r| r.id == id)
}

fn panels(comparison: &Comparison<'_>) -> Vec<Panel> {
    let records = comparison.records;
    let name = |r: usize| {
        format!(
            "{} ({})",
            records[r].label,
            display::backend_description(&records[r])
        )
    };
    let mut panels = Vec::new();
    if !comparison.measured.is_empty() {
        let values = (0..comparison.measured.len())
            .map(|column| {
                PRICED_PERMUTATIONS.map(|(id, _)| {
                    row(&comparison.measured_rows, id)
                        .and_then(|r| r.cells[column])
                        .and_then(|c| c.per_thread)
                })
            })
            .collect();
        panels.push(Panel {
            title: "Permutations per second per thread (permute_many, all threads)".to_string(),
            machines: comparison.measured.iter().map(|&r| name(r)).collect(),
            values,
            format: display::prefixed,
        });
    }
    if !comparison.costs.is_empty() {
        panels.push(Panel {
            title: "USD per million permutations (all threads, at the given hourly price)"
                .to_string(),
            machines: comparison
                .costs
                .iter()
                .map(|c| {
                    let r = records
                        .iter()
                        .position(|r| r.label == c.label)
                        .expect("costs are of compared records");
                    name(r)
                })
                .collect(),
            values: comparison
                .costs
                .iter()
                .map(|c| {
                    PRICED_PERMUTATIONS
                        .map(|(id, _)| c.usd_per_million_permutations.get(id).copied().flatten())
                })
                .collect(),
            format: |v| {
                if v == 0.0 {
                    "0".to_string()
                } else {
                    format!("${v:.2e}")
                }
            },
        });
    }
    if !comparison.counted.is_empty() {
        let values = (0..comparison.counted.len())
            .map(|column| {
                INSTRUCTION_IDS.map(|id| {
                    row(&comparison.counted_rows, id)
                        .and_then(|r| r.cells[column])
                        .and_then(|c| c.one_thread)
                })
            })
            .collect();
        panels.push(Panel {
            title: "Executed instructions per permutation under qemu (fewer is better)".to_string(),
            machines: comparison.counted.iter().map(|&r| name(r)).collect(),
            values,
            format: |v| format!("{v:.0}"),
        });
    }
    panels
}

fn panel_height(panel: &Panel) -> u32 {
    PANEL_EXTRA_PIXELS + ROW_PIXELS * panel.machines.len().max(1) as u32
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    panel: &Panel,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let n = panel.machines.len();
    let max = panel
        .values
        .iter()
        .flatten()
        .flatten()
        .fold(0.0f64, |a, b| a.max(*b));
    // Room right of the longest bar for its value and for the legend; an axis plotters can
    // divide (values near f64::MAX would overflow it).
    let x_max = if max > 0.0 {
        (max * 1.45).min(1e300)
    } else {
        1.0
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(250)
        .build_cartesian_2d(0f64..x_max, -0.5f64..(n as f64 - 0.5))?;
    // Machines top to bottom: machine i sits at y = n - 1 - i.
    let machines = panel.machines.clone();
    let label = move |y: &f64| {
        let i = (n as f64 - 1.0 - y).round();
        if (n as f64 - 1.0 - y - i).abs() < 1e-6 && i >= 0.0 {
            machines.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let format = panel.format;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n.max(1))
        .y_label_formatter(&label)
        .x_labels(6)
        .x_label_formatter(&|x| format(*x))
        .label_style((FONT, 15))
        .draw()?;
    for (kind, (_, name)) in PRICED_PERMUTATIONS.iter().enumerate() {
        let colour = COLOURS[kind];
        let bars: Vec<(f64, f64, f64)> = panel
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, values)| {
                let centre = n as f64 - 1.0 - i as f64;
                let top = centre + 0.4 - 0.2 * kind as f64;
                values[kind].map(|v| (v.min(x_max), top - 0.18, top))
            })
            .collect();
        chart
            .draw_series(
                bars.iter()
                    .map(|&(v, y0, y1)| Rectangle::new([(0.0, y0), (v, y1)], colour.filled())),
            )?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        chart.draw_series(bars.iter().map(|&(v, y0, y1)| {
            Text::new(
                format(v),
                (v + x_max * 0.005, (y0 + y1) / 2.0),
                (FONT, 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Left,
                        plotters::style::text_anchor::VPos::Center,
                    )),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

/// The chart as an SVG document.
///
/// # Errors
/// The drawing failed.
pub fn svg(comparison: &Comparison<'_>) -> Result<String, BenchError> {
    let panels = panels(comparison);
    let heights: Vec<u32> = panels.iter().map(panel_height).collect();
    let total: u32 = heights.iter().sum::<u32>().max(1);
    let mut out = String::new();
    {
        let failed = |e: &dyn std::fmt::Display| BenchError::Chart(e.to_string());
        let root = SVGBackend::with_string(&mut out, (WIDTH, total)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let mut breaks = Vec::new();
        let mut y = 0i32;
        for h in &heights[..heights.len().saturating_sub(1)] {
            y = y.saturating_add(i32::try_from(*h).unwrap_or(i32::MAX));
            breaks.push(y);
        }
        let areas = root.split_by_breakpoints::<i32, i32, _, _>([], breaks);
        for (area, panel) in areas.iter().zip(&panels) {
            draw_panel(area, panel).map_err(|e| failed(&e))?;
        }
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(out)
}
