//! The bit-reversal permutation of matrix rows, in place.
//!
//! Swapping row `i` with row `rev(i)` directly touches memory all over the matrix for each
//! pair. For short rows the index is split as `i = (a, m, b)` with `q`-bit `a` and `b`: then
//! `rev(i) = (rev b, rev m, rev a)`, so all swaps between the "tile" of rows with middle bits
//! `m` and the tile with middle bits `rev m` happen together. Each tile is `2^q` runs of `2^q`
//! contiguous rows: both tiles are copied out whole (sequential reads of whole runs), and
//! written back permuted from the copies, so the scattered accesses hit a cache-resident copy
//! rather than rows all over the matrix (2^20 × 1 on two threads, Zen 4 with a busy memory
//! system: 3.1–5.8 → 1.2–1.9 ms, against swapping pair by pair in place). Tile pairs are
//! independent, so they run in parallel (2^20 × 8 in natural order: 56 → 36 ms on two
//! threads, against one thread).

use aurum_goldilocks::Goldilocks;

/// `x` with its low `bits` bits reversed.
#[inline(always)]
pub(crate) fn reverse_bits(x: usize, bits: usize) -> usize {
    if bits == 0 {
        0
    } else {
        x.reverse_bits() >> (usize::BITS as usize - bits)
    }
}

/// Elements in one tile (16 KiB): a tile pair's copies fit in L1 together.
const TILE_ELEMS: usize = 1 << 11;
/// Rows at least this long (elements) are swapped directly: each is already several lines.
const LONG_ROW: usize = 32;
/// Matrices up to this many elements are permuted on the calling thread.
const SEQUENTIAL_ELEMS: usize = 1 << 12;
/// At most this many runs (`2^q`-row pieces) are listed for the parallel permutation: a
/// larger matrix gets larger tiles instead, so the list stays under 64 MiB.
const MAX_LOG_RUNS: usize = 22;
/// Elements a parallel task should move at least (amortises rayon's per-task cost).
const TASK_ELEMS: usize = 1 << 13;

/// Swaps rows `i < j` of one slice.
#[inline(always)]
fn swap_rows(values: &mut [Goldilocks], width: usize, i: usize, j: usize) {
    debug_assert!(i < j);
    if width == 1 {
        values.swap(i, j);
    } else {
        let (head, tail) = values.split_at_mut(j * width);
        head[i * width..(i + 1) * width].swap_with_slice(&mut tail[..width]);
    }
}

/// Permutes the `2^log_n` rows of a row-major matrix into bit-reversed order, in place, in
/// parallel.
///
/// Write a row index as `i = (a, m, b)` with `q`-bit `a` and `b`: `rev(i) = (rev b, rev m,
/// rev a)`. Cut the matrix into runs of `2^q` contiguous rows; run `(a, m)` holds the rows
/// `(a, m, ·)`. Every swap pairs a row of the tile `{(·, m, ·)}` with one of the tile
/// `{(·, rev m, ·)}`, so the pairs of tiles `(m, rev m)` are independent tasks, each owning
/// its `2 · 2^q` runs (`&mut` sub-slices, no `unsafe`). A tile is `2^(2q)` rows, sized so
/// that a pair's copies stay in L1; rows of at least [`LONG_ROW`] elements use `q = 0`
/// (one row per run, swapped directly: each swap is whole cache lines already).
///
/// `values.len() = width · 2^log_n` with `log_n ≤ 32`: every public entry derives `width` and
/// `log_n` from the buffer's length and checks them (`shape`), so no caller size reaches
/// here unchecked; the assertion guards this module's own callers.
pub(crate) fn bit_reverse_rows(values: &mut [Goldilocks], width: usize, log_n: usize) {
    bit_reverse_rows_with(values, width, log_n, MAX_LOG_RUNS);
}

/// [`bit_reverse_rows`] listing at most `2^max_log_runs` runs (tests lower it).
fn bit_reverse_rows_with(
    values: &mut [Goldilocks],
    width: usize,
    log_n: usize,
    max_log_runs: usize,
) {
    use rayon::prelude::*;
    debug_assert_eq!(values.len(), width << log_n);
    if values.len() <= SEQUENTIAL_ELEMS {
        for i in 0..1usize << log_n {
            let j = reverse_bits(i, log_n);
            if i < j {
                swap_rows(values, width, i, j);
            }
        }
        return;
    }
    // Tile bits: 2^(2q) rows per tile, within TILE_ELEMS, and 2q ≤ log_n.
    let mut q = if width >= LONG_ROW {
        0
    } else {
        let max_q = (TILE_ELEMS / width).trailing_zeros() as usize / 2;
        max_q.min(log_n / 2)
    };
    while log_n - q > max_log_runs && q < log_n / 2 {
        q += 1;
    }
    let mid = log_n - 2 * q;
    let tile_runs = 1usize << q;
    // Run (a, m) is at index a·2^mid + m.
    let mut runs: Vec<Option<&mut [Goldilocks]>> =
        values.chunks_exact_mut(width << q).map(Some).collect();
    let mut take = |a: usize, m: usize| runs[(a << mid) | m].take().expect("each run once");
    // Tile pairs, laid out as 2^q runs of tile m then 2^q of tile rev m; tiles that are their
    // own partner (m = rev m) separately.
    let mut pairs: Vec<&mut [Goldilocks]> = Vec::with_capacity(1 << (log_n - q));
    let mut selves: Vec<&mut [Goldilocks]> = Vec::new();
    for m in 0..1usize << mid {
        let m_rev = reverse_bits(m, mid);
        if m < m_rev {
            pairs.extend((0..tile_runs).map(|a| take(a, m)));
            pairs.extend((0..tile_runs).map(|a| take(a, m_rev)));
        } else if m == m_rev {
            selves.extend((0..tile_runs).map(|a| take(a, m)));
        }
    }
    let min_tasks = (TASK_ELEMS / (width << (2 * q))).max(1);
    let rev_q: Vec<usize> = (0..tile_runs).map(|x| reverse_bits(x, q)).collect();
    let rev_q = &rev_q;
    let run_len = width << q;
    if q == 0 {
        // One row per run: swap whole rows (each is several cache lines already).
        pairs
            .par_chunks_mut(2)
            .with_min_len(min_tasks)
            .for_each(|rows| {
                let (lower, upper) = rows.split_at_mut(1);
                lower[0].swap_with_slice(upper[0]);
            });
        return;
    }
    // Scratch for the copies, one per rayon job (not per task: zeroing it is not free).
    let tile_len = run_len << q;
    rayon::join(
        || {
            pairs
                .par_chunks_mut(2 * tile_runs)
                .with_min_len(min_tasks)
                .for_each_init(
                    || vec![Goldilocks::ZERO; 2 * tile_len],
                    |copy, tiles| {
                        // Both tiles copied out whole (contiguous runs, streamed), then written
                        // back permuted from the copies: the scattered reads stay in cache.
                        let (lower_copy, upper_copy) = copy.split_at_mut(tile_len);
                        let (lower, upper) = tiles.split_at_mut(tile_runs);
                        for (runs, copy) in
                            [(&*lower, &mut *lower_copy), (&*upper, &mut *upper_copy)]
                        {
                            for (run, dst) in runs.iter().zip(copy.chunks_exact_mut(run_len)) {
                                dst.copy_from_slice(run);
                            }
                        }
                        // Row (a, m, b) takes the old row (rev b, rev m, rev a): from the
                        // other tile's run rev b, position rev a.
                        permute_from(lower, upper_copy, rev_q, width);
                        permute_from(upper, lower_copy, rev_q, width);
                    },
                );
        },
        || {
            selves
                .par_chunks_mut(tile_runs)
                .with_min_len(min_tasks)
                .for_each_init(
                    || vec![Goldilocks::ZERO; tile_len],
                    |copy, tile| {
                        // Row (a, b) takes the old row (rev b, rev a) of the same tile.
                        for (run, dst) in tile.iter().zip(copy.chunks_exact_mut(run_len)) {
                            dst.copy_from_slice(run);
                        }
                        permute_from(tile, copy, rev_q, width);
                    },
                );
        },
    );
}

/// `runs[a]`'s row `b` ← row `rev_q[a]` of run `rev_q[b]` of `copy` (runs of
/// `rev_q.len()` rows of `width` elements, laid out one after another).
#[inline(always)]
fn permute_from(
    runs: &mut [&mut [Goldilocks]],
    copy: &[Goldilocks],
    rev_q: &[usize],
    width: usize,
) {
    let run_len = width * rev_q.len();
    for (run, &a_rev) in runs.iter_mut().zip(rev_q) {
        if width == 1 {
            for (x, &b_rev) in run.iter_mut().zip(rev_q) {
                *x = copy[b_rev * run_len + a_rev];
            }
        } else {
            for (row, &b_rev) in run.chunks_exact_mut(width).zip(rev_q) {
                let src = b_rev * run_len + a_rev * width;
                row.copy_from_slice(&copy[src..src + width]);
            }
        }
    }
}

/// Rows per parallel gather task (per stripe).
const GATHER_ROWS: usize = 1 << 10;

/// `dst` = the rows of `src` in bit-reversed order (out of place, parallel).
///
/// A gathered row `rev(p)` is read from a random place, so each random read should fetch a
/// whole run of lines (and a page-table walk be shared by many rows): the destination is cut
/// into `2^q` stripes (its top `q` index bits), `2^q` rows making 512 bytes, and each task
/// fills the same rows of every stripe. Destination rows `t·(n/2^q) + p` for `t < 2^q` come
/// from the `2^q` consecutive source rows `rev(p) + rev_q(t)`: one 512-byte run, used whole.
pub(crate) fn gather_bit_reversed(
    src: &[Goldilocks],
    dst: &mut [Goldilocks],
    width: usize,
    log_n: usize,
) {
    use rayon::prelude::*;
    // Internal invariants (the LDE passes blocks of its own checked shape), as above.
    debug_assert_eq!(src.len(), width << log_n);
    debug_assert_eq!(dst.len(), src.len());
    let q = (64 / width).max(1).ilog2().min(log_n as u32) as usize;
    let stripe_rows = 1usize << (log_n - q);
    let chunk_rows = GATHER_ROWS.min(stripe_rows);
    let mut runs: Vec<_> = dst
        .chunks_exact_mut(stripe_rows * width)
        .map(|stripe| stripe.chunks_exact_mut(chunk_rows * width))
        .collect();
    let tasks: Vec<(usize, Vec<&mut [Goldilocks]>)> = (0..stripe_rows / chunk_rows)
        .map(|g| {
            let stripes = runs
                .iter_mut()
                .map(|run| {
                    run.next()
                        .expect("each stripe has the same number of chunks")
                })
                .collect();
            (g * chunk_rows, stripes)
        })
        .collect();
    // Source offset of each stripe within a line: rev_q(t).
    let line_offsets: Vec<usize> = (0..1usize << q).map(|t| reverse_bits(t, q)).collect();
    tasks.into_par_iter().for_each(|(p0, mut stripes)| {
        for r in 0..chunk_rows {
            // Destination row t·stripe_rows + p0 + r has reversed index
            // rev_{log_n−q}(p0 + r)·2^q + rev_q(t).
            let base = reverse_bits(p0 + r, log_n - q) << q;
            let line = &src[base * width..(base + (1 << q)) * width];
            if width == 1 {
                for (stripe, &offset) in stripes.iter_mut().zip(&line_offsets) {
                    stripe[r] = line[offset];
                }
            } else {
                for (stripe, &offset) in stripes.iter_mut().zip(&line_offsets) {
                    stripe[r * width..(r + 1) * width]
                        .copy_from_slice(&line[offset * width..(offset + 1) * width]);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(values: &[Goldilocks], width: usize, log_n: usize) -> Vec<Goldilocks> {
        (0..1usize << log_n)
            .flat_map(|i| {
                let j = reverse_bits(i, log_n);
                values[j * width..(j + 1) * width].iter().copied()
            })
            .collect()
    }

    /// Every tile size, self-paired tiles (even and odd middle bits), long rows, and tiles
    /// enlarged to keep the run list short, against the definition.
    #[test]
    fn parallel_tiles_equal_the_definition() {
        for (log_n, width, max_log_runs) in [
            (13, 1, MAX_LOG_RUNS),
            (14, 1, MAX_LOG_RUNS),
            (12, 3, MAX_LOG_RUNS),
            (11, 8, MAX_LOG_RUNS),
            (8, 40, MAX_LOG_RUNS),
            (9, 33, MAX_LOG_RUNS),
            (15, 1, 6),
            (14, 2, 7),
            (12, 40, 5),
            // One tile, its own partner (no middle bits).
            (16, 1, 8),
        ] {
            let values: Vec<Goldilocks> = (0..width << log_n)
                .map(|x| Goldilocks::from_u64(x as u64 * 0x9E37_79B9 + 1))
                .collect();
            let mut permuted = values.clone();
            bit_reverse_rows_with(&mut permuted, width, log_n, max_log_runs);
            assert_eq!(
                permuted,
                reference(&values, width, log_n),
                "2^{log_n}x{width}, runs ≤ 2^{max_log_runs}"
            );
        }
    }
}
