//! Where the first pass of a transform takes its rows from ([`Rows`], [`Source`]): loaded,
//! permuted and scaled while they are in cache anyway.

use aurum_goldilocks::{Goldilocks, PackedField};

use crate::scaling::{Powers, scaled_copy};

/// Where the first pass of a transform takes its rows from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rows<'a> {
    /// The rows already in place.
    InPlace,
    /// Row `j` is row `j` of `src`, a matrix with rows of `stride` elements (a task reads its
    /// own columns of it).
    Copy {
        src: &'a [Goldilocks],
        stride: usize,
    },
    /// Row `j` is row `rev(j)` (`log_n` bits reversed) of `src`, rows of `stride` elements:
    /// the bit-reversal permutation a DIT needs, done while its first pass loads the rows.
    BitReversed {
        src: &'a [Goldilocks],
        stride: usize,
        log_n: usize,
    },
    /// The forward transforms of a natural-order LDE as one matrix: row `j` is, for each
    /// coset `c` in turn, row `j` of `coefficients` (rows of `width`, in bit-reversed order:
    /// row `j` holds coefficient `rev(j)`, `log_n` bits) times `powers[c]` at `rev(j)`.
    Cosets {
        coefficients: &'a [Goldilocks],
        width: usize,
        powers: &'a [Powers],
        log_n: usize,
    },
}

/// What the first pass of a transform does to its rows before the butterflies: load them
/// ([`Rows`]), then multiply row `j` by `c·s^j` if there are `powers` (the coset scaling) —
/// done while the rows are in cache anyway instead of in a pass of its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source<'a> {
    pub rows: Rows<'a>,
    pub powers: Option<&'a Powers>,
}

impl Source<'_> {
    /// Applies the source to `dst`: whole rows of `width` elements, the first being row `row0`
    /// of the matrix, holding its columns `col0..col0 + width`.
    #[inline(always)]
    pub(crate) fn load_rows<Q: PackedField>(
        &self,
        dst: &mut [Goldilocks],
        width: usize,
        row0: usize,
        col0: usize,
    ) {
        match self.rows {
            Rows::InPlace => {}
            Rows::Copy { src, stride } if stride == width => {
                dst.copy_from_slice(&src[row0 * width..row0 * width + dst.len()]);
            }
            Rows::Copy { src, stride } => {
                for (r, row) in dst.chunks_exact_mut(width).enumerate() {
                    let start = (row0 + r) * stride + col0;
                    row.copy_from_slice(&src[start..start + width]);
                }
            }
            Rows::BitReversed { src, stride, log_n } => {
                for (r, row) in dst.chunks_exact_mut(width).enumerate() {
                    let start = crate::bitrev::reverse_bits(row0 + r, log_n) * stride + col0;
                    row.copy_from_slice(&src[start..start + width]);
                }
            }
            Rows::Cosets {
                coefficients,
                width: w,
                powers,
                log_n,
            } => {
                for (r, row) in dst.chunks_exact_mut(width).enumerate() {
                    let j = row0 + r;
                    let k = crate::bitrev::reverse_bits(j, log_n);
                    let src = &coefficients[j * w..(j + 1) * w];
                    // The task's columns may start inside one coset's block and end in another.
                    let (mut col, mut out) = (col0, row);
                    while !out.is_empty() {
                        let (c, offset) = (col / w, col % w);
                        let take = (w - offset).min(out.len());
                        let (piece, rest) = out.split_at_mut(take);
                        scaled_copy::<Q>(piece, &src[offset..offset + take], powers[c].factor(k));
                        (col, out) = (col + take, rest);
                    }
                }
            }
        }
        if let Some(powers) = self.powers {
            powers.scale_rows::<Q>(dst, width, row0);
        }
    }
}
