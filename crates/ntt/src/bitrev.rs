//! The bit-reversal permutation of matrix rows, in place.
//!
//! Swapping row `i` with row `rev(i)` directly touches memory all over the matrix for each
//! pair. For short rows the index is split as `i = (a, m, b)` with `q`-bit `a` and `b`: then
//! `rev(i) = (rev b, rev m, rev a)`, so all swaps between the "tile" of rows with middle bits
//! `m` and the tile with middle bits `rev m` happen together, and each tile is `2^q` runs of
//! `2^q` contiguous rows, which stay in L1 while they are permuted.

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

/// Elements in one tile (16 KiB): two tiles fit in L1 together.
const TILE_ELEMS: usize = 1 << 11;
/// Rows at least this long (elements) are swapped directly: each is already several lines.
const LONG_ROW: usize = 32;

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

/// Permutes the `2^log_n` rows of a row-major matrix into bit-reversed order.
///
/// `values.len() = width · 2^log_n` with `log_n ≤ 32`: every public entry derives `width` and
/// `log_n` from the buffer's length and checks them (`shape`), so no caller size reaches
/// here unchecked; the assertion guards this module's own callers.
pub(crate) fn bit_reverse_rows(values: &mut [Goldilocks], width: usize, log_n: usize) {
    debug_assert_eq!(values.len(), width << log_n);
    let n = 1usize << log_n;
    // Tile bits: 2^(2q) rows per tile, within TILE_ELEMS, and 2q ≤ log_n.
    let q = if width >= LONG_ROW {
        0
    } else {
        let max_q = (TILE_ELEMS / width).trailing_zeros() as usize / 2;
        max_q.min(log_n / 2)
    };
    if q == 0 {
        for i in 0..n {
            let j = reverse_bits(i, log_n);
            if i < j {
                swap_rows(values, width, i, j);
            }
        }
        return;
    }
    let mid = log_n - 2 * q;
    let high = log_n - q;
    for m in 0..1usize << mid {
        let m_rev = reverse_bits(m, mid);
        if m_rev < m {
            continue; // handled with the tile of m_rev
        }
        for a in 0..1usize << q {
            let a_rev = reverse_bits(a, q);
            for b in 0..1usize << q {
                let i = (a << high) | (m << q) | b;
                let j = (reverse_bits(b, q) << high) | (m_rev << q) | a_rev;
                // Distinct tiles: every pair is met once, from the lower tile. One tile:
                // each pair is met twice, so swap once.
                if (m < m_rev && i != j) || i < j {
                    let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                    swap_rows(values, width, lo, hi);
                }
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
