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
}

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
