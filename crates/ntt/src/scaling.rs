//! Row scalings by `c·s^j` (the coset scalings of the transforms): the [`Powers`] tables, the
//! [`ScaleRows`] kernel and the element-wise products they use.

use aurum_goldilocks::{Goldilocks, Kernel, PackedField};

/// `c·s^j` for row indices `j < 2^log_n`, as two small tables: `lo[i] = c·s^i` for
/// `i < 2^log_lo` and `hi[k] = s^(k·2^log_lo)`, so a factor costs one multiplication and the
/// tables stay in cache (the LDE's per-coset scaling).
#[derive(Clone, Debug)]
pub(crate) struct Powers {
    log_lo: usize,
    lo: Vec<Goldilocks>,
    hi: Vec<Goldilocks>,
}

impl Powers {
    /// Low table size: at least a stripe chunk (64 rows), so chunks never straddle two.
    pub(crate) fn new(c: Goldilocks, s: Goldilocks, log_n: usize) -> Powers {
        let log_lo = log_n.div_ceil(2).max(6);
        let lo = core::iter::successors(Some(c), |x| Some(*x * s))
            .take(1 << log_lo)
            .collect();
        let step = s.exp_power_of_2(log_lo);
        let hi = core::iter::successors(Some(Goldilocks::ONE), |x| Some(*x * step))
            .take((1usize << log_n.saturating_sub(log_lo)).max(1))
            .collect();
        Powers { log_lo, lo, hi }
    }

    /// `c·s^rev(k)` for `k < 2^log_n` (`rev` reverses `log_n` bits): the same two tables in
    /// bit-reversed order. With `k = h·2^L + l` (`l < 2^L`),
    /// `rev(k) = rev_L(l)·2^(log_n − L) + rev_(log_n − L)(h)`, so `lo[l] = c·t^rev_L(l)` with
    /// `t = s^(2^(log_n − L))` and `hi[h] = s^rev_(log_n − L)(h)`, and [`factor`](Self::factor)
    /// and [`scale_rows`](Self::scale_rows) work unchanged.
    pub(crate) fn bit_reversed(c: Goldilocks, s: Goldilocks, log_n: usize) -> Powers {
        let log_lo = log_n.div_ceil(2).max(6).min(log_n);
        let log_hi = log_n - log_lo;
        let powers = |base: Goldilocks, bits: usize| -> Vec<Goldilocks> {
            let natural: Vec<Goldilocks> =
                core::iter::successors(Some(Goldilocks::ONE), |x| Some(*x * base))
                    .take(1 << bits)
                    .collect();
            (0..1usize << bits)
                .map(|k| natural[crate::bitrev::reverse_bits(k, bits)])
                .collect()
        };
        let lo = powers(s.exp_power_of_2(log_hi), log_lo)
            .into_iter()
            .map(|x| c * x)
            .collect();
        let hi = powers(s, log_hi);
        Powers { log_lo, lo, hi }
    }

    /// `c·s^k`.
    #[inline(always)]
    pub(crate) fn factor(&self, k: usize) -> Goldilocks {
        self.lo[k & ((1 << self.log_lo) - 1)] * self.hi[k >> self.log_lo]
    }

    /// Multiplies row `j` of `dst` (whole rows, the first being row `row0` of the matrix) by
    /// `c·s^j`.
    #[inline(always)]
    pub(crate) fn scale_rows<Q: PackedField>(
        &self,
        dst: &mut [Goldilocks],
        width: usize,
        row0: usize,
    ) {
        let rows = dst.len() / width;
        let lo_len = 1usize << self.log_lo;
        let mut done = 0;
        while done < rows {
            let j = row0 + done;
            let offset = j & (lo_len - 1);
            let seg = (lo_len - offset).min(rows - done);
            let hi = self.hi[j >> self.log_lo];
            let lo = &self.lo[offset..offset + seg];
            let d = &mut dst[done * width..(done + seg) * width];
            if width == 1 {
                let (d_p, d_s) = Q::pack_slice_with_suffix_mut(d);
                let (lo_p, lo_s) = Q::pack_slice_with_suffix(lo);
                let hi_p = Q::broadcast(hi);
                for (x, f) in d_p.iter_mut().zip(lo_p) {
                    *x *= *f * hi_p;
                }
                for (x, f) in d_s.iter_mut().zip(lo_s) {
                    *x *= *f * hi;
                }
            } else {
                for (row, f) in d.chunks_exact_mut(width).zip(lo) {
                    scale_in_place::<Q>(row, *f * hi);
                }
            }
            done += seg;
        }
    }

    /// `dst` = `src` with row `j` multiplied by `c·s^j` (whole rows, the first being row
    /// `row0` of the matrix): rows of at least [`SCALED_COPY_WIDTH`] elements are copied and
    /// scaled in one sweep, narrower ones copied, then scaled by
    /// [`scale_rows`](Self::scale_rows).
    #[inline(always)]
    pub(crate) fn scaled_copy_rows<Q: PackedField>(
        &self,
        dst: &mut [Goldilocks],
        src: &[Goldilocks],
        width: usize,
        row0: usize,
    ) {
        if width >= SCALED_COPY_WIDTH {
            let rows = dst.chunks_exact_mut(width).zip(src.chunks_exact(width));
            for (r, (d, s)) in rows.enumerate() {
                scaled_copy::<Q>(d, s, self.factor(row0 + r));
            }
        } else {
            dst.copy_from_slice(src);
            self.scale_rows::<Q>(dst, width, row0);
        }
    }
}

/// Rows at least this wide are copied and scaled in one sweep by [`Powers::scaled_copy_rows`]
/// (narrower ones are scaled a vector of rows at a time after the copy).
const SCALED_COPY_WIDTH: usize = 16;

/// `dst = src · s`, element by element.
#[inline(always)]
pub(crate) fn scaled_copy<P: PackedField>(
    dst: &mut [Goldilocks],
    src: &[Goldilocks],
    s: Goldilocks,
) {
    let (dst_p, dst_s) = P::pack_slice_with_suffix_mut(dst);
    let (src_p, src_s) = P::pack_slice_with_suffix(src);
    let s_p = P::broadcast(s);
    for (d, x) in dst_p.iter_mut().zip(src_p) {
        *d = *x * s_p;
    }
    for (d, x) in dst_s.iter_mut().zip(src_s) {
        *d = *x * s;
    }
}

/// Multiplies every element by `s`.
#[inline(always)]
pub(crate) fn scale_in_place<P: PackedField>(values: &mut [Goldilocks], s: Goldilocks) {
    let (packed, suffix) = P::pack_slice_with_suffix_mut(values);
    let s_p = P::broadcast(s);
    for x in packed {
        *x *= s_p;
    }
    for x in suffix {
        *x *= s;
    }
}

/// `dst[row j] = src[row j] · c·s^(j0 + j)` (or in place when `src` is `None`): the
/// coefficient scaling of coset transforms.
#[derive(Debug)]
pub(crate) struct ScaleRows<'a> {
    pub dst: &'a mut [Goldilocks],
    pub src: Option<&'a [Goldilocks]>,
    pub width: usize,
    /// `c · s^(j0)`, the factor of the first row.
    pub first: Goldilocks,
    /// `s`.
    pub ratio: Goldilocks,
}

impl Kernel for ScaleRows<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        if let Some(src) = self.src {
            self.dst.copy_from_slice(src);
        }
        if self.width == 1 && self.dst.len() >= P::WIDTH {
            // Lane l of the running factor holds c·s^(j0 + k·WIDTH + l).
            let mut lane_factor = Goldilocks::ONE;
            let factors_p = P::from_fn(|_| {
                let f = self.first * lane_factor;
                lane_factor *= self.ratio;
                f
            });
            let step = P::broadcast(lane_factor); // s^WIDTH
            let mut factor = factors_p;
            let (packed, suffix) = P::pack_slice_with_suffix_mut(self.dst);
            for x in packed.iter_mut() {
                *x *= factor;
                factor *= step;
            }
            let mut f = factor.as_slice()[0];
            for x in suffix {
                *x *= f;
                f *= self.ratio;
            }
        } else {
            let mut factor = self.first;
            for row in self.dst.chunks_exact_mut(self.width) {
                scale_in_place::<P>(row, factor);
                factor *= self.ratio;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaled copy equals a copy scaled by `scale_rows`, below, at and above the width
    /// where it switches to one sweep, from any first row (across the low table's end).
    #[test]
    fn scaled_copy_rows_equals_a_copy_then_scaled() {
        let powers = Powers::new(Goldilocks::from_u64(5), Goldilocks::from_u64(7), 10);
        for width in [1, 3, SCALED_COPY_WIDTH - 1, SCALED_COPY_WIDTH, 17, 64] {
            let src: Vec<Goldilocks> = (0..(width * 40) as u64)
                .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
                .collect();
            for row0 in [0, 1, 30, 60] {
                let mut expected = src.clone();
                powers.scale_rows::<Goldilocks>(&mut expected, width, row0);
                let mut dst = vec![Goldilocks::ZERO; src.len()];
                powers.scaled_copy_rows::<Goldilocks>(&mut dst, &src, width, row0);
                assert_eq!(dst, expected, "width {width}, row0 {row0}");
            }
        }
    }
}
