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
    /// A natural-order coset LDE as one forward transform of the whole domain: row `r` is,
    /// where `r` is a multiple of `2^added_bits`, row `r >> added_bits` of `coefficients`
    /// (rows of `width`, in bit-reversed order) times `powers` at that row (a
    /// [`Powers::bit_reversed`] table), and zero elsewhere — the zero-padded coefficients in
    /// the bit-reversed order of the larger domain.
    Spread {
        coefficients: &'a [Goldilocks],
        width: usize,
        added_bits: usize,
        powers: &'a Powers,
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
            Rows::Spread {
                coefficients,
                width: w,
                added_bits,
                powers,
            } => {
                dst.fill(Goldilocks::ZERO);
                let rows = dst.len() / width;
                let (first, end) = (
                    row0.div_ceil(1 << added_bits),
                    (row0 + rows).div_ceil(1 << added_bits),
                );
                if width == 1 && w == 1 {
                    // Scaled a vector at a time through a small buffer, then spread.
                    let mut buffer = [Goldilocks::ZERO; 64];
                    let mut q = first;
                    while q < end {
                        let take = (end - q).min(buffer.len());
                        let scaled = &mut buffer[..take];
                        scaled.copy_from_slice(&coefficients[q..q + take]);
                        powers.scale_rows::<Q>(scaled, 1, q);
                        for (i, x) in scaled.iter().enumerate() {
                            dst[((q + i) << added_bits) - row0] = *x;
                        }
                        q += take;
                    }
                } else {
                    for q in first..end {
                        let r = (q << added_bits) - row0;
                        let src = &coefficients[q * w + col0..q * w + col0 + width];
                        scaled_copy::<Q>(
                            &mut dst[r * width..(r + 1) * width],
                            src,
                            powers.factor(q),
                        );
                    }
                }
            }
        }
        if let Some(powers) = self.powers {
            powers.scale_rows::<Q>(dst, width, row0);
        }
    }
}
