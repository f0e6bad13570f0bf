//! Narrow matrices (`1 < width < WIDTH` lanes, e.g. one `Goldilocks2` column): packing across
//! a row would leave most lanes empty, so the columns are copied out contiguously,
//! transformed with lanes along the column, and copied back. Two extra streaming passes cost
//! far less than running the butterflies at a fraction of the vector width.

use aurum_goldilocks::{Backend, Goldilocks};
use rayon::prelude::*;

use crate::butterflies::flow::Flow;
use crate::error::NttError;
use crate::passes::tasks;
use crate::source::Source;
use crate::twiddles::Twiddles;

/// Rows per parallel copy task.
const COPY_ROWS: usize = 1 << 12;

/// [`tasks::transform`], transposing narrow matrices to single columns first.
#[allow(clippy::too_many_arguments)]
pub(crate) fn transform(
    values: &mut [Goldilocks],
    width: usize,
    log_n: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    source: Option<Source<'_>>,
) -> Result<(), NttError> {
    let n = 1usize << log_n;
    let lanes = backend.lanes();
    if width == 1 || width >= lanes || n < 2 * lanes {
        tasks::transform(values, width, log_n, twiddles, flow, scale, backend, source);
        return Ok(());
    }
    // Allocated before the source is loaded: a failure leaves `values` as they were.
    let mut columns: Vec<Goldilocks> =
        crate::buffers::try_zeroed(values.len(), "the NTT's columns")?;
    if let Some(source) = source {
        tasks::load(values, width, source, backend);
    }
    // Column-major copy: task k writes rows [k·COPY_ROWS, …) of one column.
    let src: &[Goldilocks] = values;
    columns
        .par_chunks_mut(COPY_ROWS.min(n))
        .enumerate()
        .for_each(|(k, chunk)| {
            let first = k * COPY_ROWS.min(n);
            let (column, row0) = (first / n, first % n);
            for (dst, row) in chunk
                .iter_mut()
                .zip(src[row0 * width..].chunks_exact(width))
            {
                *dst = row[column];
            }
        });
    columns.par_chunks_mut(n).for_each(|column| {
        tasks::transform(column, 1, log_n, twiddles, flow, scale, backend, None);
    });
    values
        .par_chunks_mut(COPY_ROWS * width)
        .enumerate()
        .for_each(|(k, rows)| {
            let row0 = k * COPY_ROWS;
            for (r, row) in rows.chunks_exact_mut(width).enumerate() {
                for (c, x) in row.iter_mut().enumerate() {
                    *x = columns[c * n + row0 + r];
                }
            }
        });
    Ok(())
}
