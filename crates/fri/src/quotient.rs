//! The opening side of the PCS: evaluating committed polynomials at out-of-domain points, and
//! the reduced openings — one codeword per height that FRI proves low-degree:
//!
//! ```text
//! ro_h(x) = Σ_{matrix of height h, point z}  α^off · Σ_j α^j · (p_j(z) − p_j(x)) / (z − x)
//! ```
//!
//! `off` counts the columns of every (matrix, point) pair of that height before this one, in
//! commitment, matrix and point order (Plonky3's order, so the codewords are Plonky3's).
//!
//! Both passes walk the rows in chunks: each chunk computes its coset points and inverts its
//! denominators `z − x` in one batch, so nothing of the LDE's size is stored besides the
//! codewords themselves.

use aurum_goldilocks::kernels::{self, BatchInverse};
use aurum_goldilocks::{Goldilocks, Goldilocks2, Kernel, PackedField, dispatch};
use rayon::prelude::*;

use crate::domain::{BitReversedPowers, SHIFT, coset_point};
use crate::engine::{EngineData, HeightOpening, MatrixOpening, OpeningTerm};

/// Rows per chunk (a power of two).
const LOG_CHUNK: usize = 12;

/// `[x^0, …, x^(n−1)]`.
fn powers(x: Goldilocks2, n: usize) -> Vec<Goldilocks2> {
    let mut out = Vec::with_capacity(n);
    let mut p = Goldilocks2::ONE;
    for _ in 0..n {
        out.push(p);
        p *= x;
    }
    out
}

/// `1 / (z − x)` for every `x` in `xs`, or `None` if `z` is one of them.
///
/// With `x` in the base field, `z − x = d0 + d1·X` has the base-field norm
/// `d0² − 7·d1²`, so `1/(z − x) = (d0 − d1·X) / norm`: one batch inversion of base elements
/// (the packed kernel) instead of one in the extension.
fn inverse_differences(
    z: Goldilocks2,
    xs: &[Goldilocks],
    out: &mut Vec<Goldilocks2>,
) -> Option<()> {
    let [z0, z1] = z.coeffs;
    let seven_z1_squared = Goldilocks2::W * z1.square();
    let mut norms: Vec<Goldilocks> = xs
        .iter()
        .map(|&x| (z0 - x).square() - seven_z1_squared)
        .collect();
    kernels::batch_inverse(&mut norms).ok()?;
    out.clear();
    out.extend(
        xs.iter()
            .zip(&norms)
            .map(|(&x, &n)| Goldilocks2::new((z0 - x) * n, -(z1 * n))),
    );
    Some(())
}

/// Adds `Σ_i weights[k][i] · rows[i][j]` to `sums[k][j]` for every point `k` and column `j`:
/// lanes across columns, each row loaded once for all points.
struct WeightedColumnSums<'a> {
    /// Row-major, `width` columns, one row per weight.
    rows: &'a [Goldilocks],
    width: usize,
    weights: &'a [Vec<Goldilocks2>],
    sums: &'a mut [Vec<Goldilocks2>],
}

impl Kernel for WeightedColumnSums<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let Self {
            rows,
            width,
            weights,
            sums,
        } = self;
        let blocks = width / P::WIDTH;
        let tail = width % P::WIDTH;
        // Per point: the c0 sums of every block, then the c1 sums.
        let mut packed_sums = vec![P::ZERO; 2 * blocks * weights.len()];
        let mut tail_sums = vec![Goldilocks2::ZERO; tail * weights.len()];
        for (i, row) in rows.chunks_exact(width).enumerate() {
            let (packed, rest) = P::pack_slice_with_suffix(row);
            for (k, point_weights) in weights.iter().enumerate() {
                let w = point_weights[i];
                let (w0, w1) = (P::broadcast(w.coeffs[0]), P::broadcast(w.coeffs[1]));
                let (s0, s1) =
                    packed_sums[2 * k * blocks..2 * (k + 1) * blocks].split_at_mut(blocks);
                for ((s0, s1), &y) in s0.iter_mut().zip(s1.iter_mut()).zip(packed) {
                    *s0 += y * w0;
                    *s1 += y * w1;
                }
                for (s, &y) in tail_sums[k * tail..(k + 1) * tail].iter_mut().zip(rest) {
                    *s += w * y;
                }
            }
        }
        for (k, point_sums) in sums.iter_mut().enumerate() {
            let (s0, s1) = packed_sums[2 * k * blocks..2 * (k + 1) * blocks].split_at(blocks);
            let (head, rest) = point_sums.split_at_mut(blocks * P::WIDTH);
            for ((out, c0), c1) in head.chunks_exact_mut(P::WIDTH).zip(s0).zip(s1) {
                for ((o, &a), &b) in out.iter_mut().zip(c0.as_slice()).zip(c1.as_slice()) {
                    *o += Goldilocks2::new(a, b);
                }
            }
            for (o, &t) in rest.iter_mut().zip(&tail_sums[k * tail..(k + 1) * tail]) {
                *o += t;
            }
        }
    }
}

/// The values at `points` of the polynomials whose LDE (height `2^log_height`, blow-up
/// `2^log_blowup`, bit-reversed rows of `width` columns) is `lde`: `values[k][j]` is column
/// `j` at `points[k]`.
///
/// By barycentric interpolation on the LDE's first `h = 2^(log_height − log_blowup)` rows, the
/// coset `g·K` of order `h`: `p(z) = (z^h − g^h)/(h·g^h) · Σ_i y_i · x_i/(z − x_i)`. A point of
/// that coset gets its row.
pub(crate) fn evaluate(
    lde: &[Goldilocks],
    width: usize,
    log_height: usize,
    log_blowup: usize,
    points: &[Goldilocks2],
) -> Vec<Vec<Goldilocks2>> {
    let log_h = log_height - log_blowup;
    let h = 1usize << log_h;
    let low = &lde[..h * width];
    let shift_h = SHIFT.exp_power_of_2(log_h);
    let row_as_ext = |i: usize| {
        low[i * width..(i + 1) * width]
            .iter()
            .map(|&y| y.into())
            .collect()
    };
    let mut values: Vec<Option<Vec<Goldilocks2>>> = points
        .iter()
        .map(|&z| {
            let vanishing = z.exp_u64(h as u64) - shift_h;
            // z^h = g^h exactly on the coset, where interpolation divides by zero.
            vanishing.is_zero().then(|| {
                let i = (0..h)
                    .find(|&i| Goldilocks2::from(coset_point(log_h, i)) == z)
                    .expect("the h-th roots of g^h are the coset");
                row_as_ext(i)
            })
        })
        .collect();
    let outside: Vec<(usize, Goldilocks2)> = points
        .iter()
        .enumerate()
        .filter(|(k, _)| values[*k].is_none())
        .map(|(k, &z)| (k, z))
        .collect();
    if !outside.is_empty() {
        let coset = BitReversedPowers::coset(log_h, LOG_CHUNK);
        let chunk = coset.chunk_len();
        let sums = low
            .par_chunks(chunk * width)
            .enumerate()
            .map(|(q, rows)| {
                let mut xs = Vec::with_capacity(chunk);
                coset.chunk(q, &mut xs);
                // The barycentric weight x_i/(z − x_i) of each row, per point.
                let weights: Vec<Vec<Goldilocks2>> = outside
                    .iter()
                    .map(|&(_, z)| {
                        let mut w = Vec::with_capacity(chunk);
                        inverse_differences(z, &xs, &mut w).expect("z is off the coset");
                        for (w, &x) in w.iter_mut().zip(&xs) {
                            *w *= x;
                        }
                        w
                    })
                    .collect();
                let mut sums = vec![vec![Goldilocks2::ZERO; width]; outside.len()];
                dispatch(WeightedColumnSums {
                    rows,
                    width,
                    weights: &weights,
                    sums: &mut sums,
                });
                sums
            })
            .reduce(
                || vec![vec![Goldilocks2::ZERO; width]; outside.len()],
                |mut a, b| {
                    for (x, y) in a.iter_mut().flatten().zip(b.iter().flatten()) {
                        *x += *y;
                    }
                    a
                },
            );
        let h_shift_h = Goldilocks::from_u64(h as u64) * shift_h;
        for ((k, z), sum) in outside.into_iter().zip(sums) {
            let scale = (z.exp_u64(h as u64) - shift_h) * h_shift_h.inverse();
            values[k] = Some(sum.into_iter().map(|s| s * scale).collect());
        }
    }
    values
        .into_iter()
        .map(|v| v.expect("every point evaluated"))
        .collect()
}

/// One committed matrix's part in the reduced openings.
pub(crate) struct Quotient<'a> {
    /// Its LDE, bit-reversed rows.
    pub(crate) lde: &'a [Goldilocks],
    /// Columns.
    pub(crate) width: usize,
    /// Base-2 log of the LDE height.
    pub(crate) log_height: usize,
    /// The points it is opened at.
    pub(crate) points: &'a [Goldilocks2],
    /// `values[k][j]`: column `j` at `points[k]`.
    pub(crate) values: &'a [Vec<Goldilocks2>],
    /// What a commit engine kept of its commitment, and its index there.
    pub(crate) kept: Option<(&'a dyn EngineData, usize)>,
}

/// A term as the kernel adds it: `w` is `None` for a matrix's first point (`w = 1`).
#[derive(Clone, Copy, Debug)]
struct PointTerm {
    z: Goldilocks2,
    c: Goldilocks2,
    w: Option<Goldilocks2>,
}

impl From<OpeningTerm> for PointTerm {
    fn from(OpeningTerm { z, c, w }: OpeningTerm) -> Self {
        Self {
            z,
            c,
            w: (w != Goldilocks2::ONE).then_some(w),
        }
    }
}

/// A matrix's terms at one height, as the kernels take them.
struct MatrixTerms<'a> {
    lde: &'a [Goldilocks],
    width: usize,
    /// `α^(off₀ + j)`, split into components.
    a0: Vec<Goldilocks>,
    a1: Vec<Goldilocks>,
    points: Vec<PointTerm>,
}

/// `r_i = Σ_j a_j · rows[i][j]` as components `r0`, `r1`: lanes across columns for rows of at
/// least one vector, deferred-reduction dot products for narrower ones.
struct RowCombination<'a> {
    rows: &'a [Goldilocks],
    width: usize,
    a0: &'a [Goldilocks],
    a1: &'a [Goldilocks],
    r0: &'a mut [Goldilocks],
    r1: &'a mut [Goldilocks],
}

impl Kernel for RowCombination<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let Self {
            rows,
            width,
            a0,
            a1,
            r0,
            r1,
        } = self;
        let rows = rows
            .chunks_exact(width)
            .zip(r0.iter_mut().zip(r1.iter_mut()));
        if width < P::WIDTH {
            for (row, (r0, r1)) in rows {
                *r0 = Goldilocks::dot_product(row, a0);
                *r1 = Goldilocks::dot_product(row, a1);
            }
            return;
        }
        let (a0_packed, a0_rest) = P::pack_slice_with_suffix(a0);
        let (a1_packed, a1_rest) = P::pack_slice_with_suffix(a1);
        for (row, (r0, r1)) in rows {
            let (packed, rest) = P::pack_slice_with_suffix(row);
            let mut s0 = P::ZERO;
            let mut s1 = P::ZERO;
            for ((&y, &c0), &c1) in packed.iter().zip(a0_packed).zip(a1_packed) {
                s0 += y * c0;
                s1 += y * c1;
            }
            *r0 = s0.sum_lanes() + Goldilocks::dot_product(rest, a0_rest);
            *r1 = s1.sum_lanes() + Goldilocks::dot_product(rest, a1_rest);
        }
    }
}

/// Adds one point's term to a chunk of a reduced opening, lanes across rows. With
/// `e = z0 − x` and the base-field norm `n = e² − 7·z1²` of `z − x`,
/// `(s0 + s1·X)/(z − x) = ((s0·e − 7·s1·z1) + (s1·e − s0·z1)·X) / n`, `s = c − w·r`.
struct AddQuotient<'a> {
    term: PointTerm,
    xs: &'a [Goldilocks],
    r0: &'a [Goldilocks],
    r1: &'a [Goldilocks],
    /// Scratch, `xs.len()` long.
    norms: &'a mut [Goldilocks],
    o0: &'a mut [Goldilocks],
    o1: &'a mut [Goldilocks],
}

/// The term at lanes of `T` (packed, or `Goldilocks` for a remainder); `inverse_norm` is
/// `1/n`.
#[inline(always)]
fn quotient_lanes<T: PackedField>(
    term: &PointTerm,
    x: T,
    r0: T,
    r1: T,
    inverse_norm: T,
    o0: &mut T,
    o1: &mut T,
) {
    let [z0, z1] = term.z.coeffs;
    let [c0, c1] = term.c.coeffs;
    let (s0, s1) = match term.w {
        None => (T::broadcast(c0) - r0, T::broadcast(c1) - r1),
        Some(w) => {
            let [w0, w1] = w.coeffs;
            let wr0 = r0 * w0 + r1 * (Goldilocks2::W * w1);
            let wr1 = r1 * w0 + r0 * w1;
            (T::broadcast(c0) - wr0, T::broadcast(c1) - wr1)
        }
    };
    let e = T::broadcast(z0) - x;
    let t0 = s0 * e - s1 * (Goldilocks2::W * z1);
    let t1 = s1 * e - s0 * z1;
    *o0 += t0 * inverse_norm;
    *o1 += t1 * inverse_norm;
}

impl Kernel for AddQuotient<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let Self {
            term,
            xs,
            r0,
            r1,
            norms,
            o0,
            o1,
        } = self;
        let [z0, z1] = term.z.coeffs;
        let seven_z1_squared = Goldilocks2::W * z1.square();
        for (n, &x) in norms.iter_mut().zip(xs) {
            *n = (z0 - x).square() - seven_z1_squared;
        }
        BatchInverse {
            values: &mut *norms,
        }
        .run::<P>()
        .expect("z is off the domain, so no norm is zero");
        let (xp, xr) = P::pack_slice_with_suffix(xs);
        let (r0p, r0r) = P::pack_slice_with_suffix(r0);
        let (r1p, r1r) = P::pack_slice_with_suffix(r1);
        let (np, nr) = P::pack_slice_with_suffix(norms);
        let (o0p, o0r) = P::pack_slice_with_suffix_mut(o0);
        let (o1p, o1r) = P::pack_slice_with_suffix_mut(o1);
        for i in 0..xp.len() {
            quotient_lanes(
                &term,
                xp[i],
                r0p[i],
                r1p[i],
                np[i],
                &mut o0p[i],
                &mut o1p[i],
            );
        }
        for i in 0..xr.len() {
            quotient_lanes(
                &term,
                xr[i],
                r0r[i],
                r1r[i],
                nr[i],
                &mut o0r[i],
                &mut o1r[i],
            );
        }
    }
}

/// The reduced openings of `matrices` (in commitment, matrix order) as one
/// [`HeightOpening`] per distinct height, tallest first: the terms' coefficients from `alpha`
/// and the opened values, Plonky3's order of the (matrix, point) pairs.
pub(crate) fn opening_heights<'a>(
    matrices: &[Quotient<'a>],
    alpha: Goldilocks2,
) -> Vec<HeightOpening<'a>> {
    let mut heights: Vec<usize> = matrices.iter().map(|m| m.log_height).collect();
    heights.sort_unstable_by(|a, b| b.cmp(a));
    heights.dedup();
    let max_width = matrices.iter().map(|m| m.width).max().unwrap_or(0);
    let alpha_powers = powers(alpha, max_width);
    heights
        .into_iter()
        .map(|log_height| {
            // Offsets run over the (matrix, point) pairs of this height in order.
            let mut offset = 0u64;
            let matrices = matrices
                .iter()
                .filter(|m| m.log_height == log_height)
                .map(|m| {
                    let first = alpha.exp_u64(offset);
                    let coefficients = alpha_powers[..m.width].iter().map(|&a| a * first).collect();
                    let terms = m
                        .points
                        .iter()
                        .zip(m.values)
                        .enumerate()
                        .map(|(k, (&z, values))| {
                            let at_z: Goldilocks2 =
                                values.iter().zip(&alpha_powers).map(|(&v, &a)| v * a).sum();
                            let term = OpeningTerm {
                                z,
                                c: alpha.exp_u64(offset) * at_z,
                                w: alpha.exp_u64((k * m.width) as u64),
                            };
                            offset += m.width as u64;
                            term
                        })
                        .collect();
                    MatrixOpening {
                        lde: m.lde,
                        width: m.width,
                        kept: m.kept,
                        coefficients,
                        terms,
                    }
                })
                .collect();
            HeightOpening {
                log_height,
                matrices,
            }
        })
        .collect()
}

/// The reduced opening of `height` on the CPU, as [`HeightOpening`] defines it: the codeword
/// of `2^log_height` extension elements, or `None` where `height` is not one
/// ([`HeightOpening::is_well_formed`]) or the codeword cannot be allocated. What the prover
/// computes where no engine takes the openings, and the reference an engine's are checked
/// against.
#[must_use]
pub fn reduced_opening(height: &HeightOpening<'_>) -> Option<Vec<Goldilocks2>> {
    if !height.is_well_formed() {
        return None;
    }
    reduce_height(height).ok()
}

/// The reduced opening of a well-formed `height` (see [`reduced_opening`]).
pub(crate) fn reduce_height(
    height: &HeightOpening<'_>,
) -> Result<Vec<Goldilocks2>, crate::error::NoMemory> {
    let log_height = height.log_height;
    let terms: Vec<MatrixTerms<'_>> = height
        .matrices
        .iter()
        .map(|m| {
            let (a0, a1) = m
                .coefficients
                .iter()
                .map(|a| (a.coeffs[0], a.coeffs[1]))
                .unzip();
            MatrixTerms {
                lde: m.lde,
                width: m.width,
                a0,
                a1,
                points: m.terms.iter().map(|&t| t.into()).collect(),
            }
        })
        .collect();
    let coset = BitReversedPowers::coset(log_height, LOG_CHUNK);
    let chunk = coset.chunk_len();
    let mut codeword = crate::error::try_zeroed_ext(1 << log_height, "the reduced openings")?;
    codeword
        .par_chunks_mut(chunk)
        .enumerate()
        .for_each(|(q, out)| {
            let mut xs = Vec::with_capacity(chunk);
            coset.chunk(q, &mut xs);
            let mut r0 = vec![Goldilocks::ZERO; chunk];
            let mut r1 = vec![Goldilocks::ZERO; chunk];
            let mut norms = vec![Goldilocks::ZERO; chunk];
            let mut o0 = vec![Goldilocks::ZERO; chunk];
            let mut o1 = vec![Goldilocks::ZERO; chunk];
            for m in &terms {
                dispatch(RowCombination {
                    rows: &m.lde[q * chunk * m.width..(q + 1) * chunk * m.width],
                    width: m.width,
                    a0: &m.a0,
                    a1: &m.a1,
                    r0: &mut r0,
                    r1: &mut r1,
                });
                for &term in &m.points {
                    dispatch(AddQuotient {
                        term,
                        xs: &xs,
                        r0: &r0,
                        r1: &r1,
                        norms: &mut norms,
                        o0: &mut o0,
                        o1: &mut o1,
                    });
                }
            }
            for ((o, &c0), &c1) in out.iter_mut().zip(&o0).zip(&o1) {
                *o = Goldilocks2::new(c0, c1);
            }
        });
    Ok(codeword)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aurum_ntt::{Ntt, Order};

    fn ext(a: u64, b: u64) -> Goldilocks2 {
        Goldilocks2::new(Goldilocks::from_u64(a), Goldilocks::from_u64(b))
    }

    #[test]
    fn evaluation_equals_the_polynomial() {
        // Columns with known coefficients; their LDE; evaluate at extension and coset points.
        let (log_h, log_blowup, width) = (5, 2, 3);
        let h = 1usize << log_h;
        let coeffs: Vec<Goldilocks> = (0..h * width)
            .map(|i| Goldilocks::from_u64(i as u64 * 31 + 7))
            .collect();
        let mut trace = coeffs.clone();
        Ntt::default()
            .forward(&mut trace, width, Order::Natural)
            .unwrap();
        let lde = Ntt::default()
            .coset_lde(&trace, width, log_blowup, SHIFT, Order::BitReversed)
            .unwrap();
        let horner = |j: usize, z: Goldilocks2| {
            (0..h)
                .rev()
                .fold(Goldilocks2::ZERO, |acc, i| acc * z + coeffs[i * width + j])
        };
        let points = [
            ext(5, 9),
            Goldilocks2::from(coset_point(log_h, 3)),
            ext(1, 0),
        ];
        let values = evaluate(&lde, width, log_h + log_blowup, log_blowup, &points);
        for (k, &z) in points.iter().enumerate() {
            for j in 0..width {
                assert_eq!(values[k][j], horner(j, z), "point {k} column {j}");
            }
        }
    }

    #[test]
    fn reduced_opening_refuses_what_is_not_one() {
        let lde: Vec<Goldilocks> = (0..32).map(Goldilocks::from_u64).collect();
        let term = OpeningTerm {
            z: ext(3, 4),
            c: ext(5, 6),
            w: Goldilocks2::ONE,
        };
        let height = |log_height, lde, width, coefficients, z| HeightOpening {
            log_height,
            matrices: vec![MatrixOpening {
                lde,
                width,
                kept: None,
                coefficients: vec![ext(1, 2); coefficients],
                terms: vec![OpeningTerm { z, ..term }],
            }],
        };
        let good = height(3, &lde[..], 4, 4, term.z);
        assert!(good.is_well_formed());
        assert_eq!(reduced_opening(&good).map(|c| c.len()), Some(8));
        let on_domain = Goldilocks2::from(coset_point(3, 5));
        for bad in [
            height(4, &lde[..], 4, 4, term.z),
            height(3, &lde[..31], 4, 4, term.z),
            height(3, &lde[..], 0, 0, term.z),
            height(3, &lde[..], 4, 3, term.z),
            height(3, &lde[..], 4, 4, on_domain),
            height(40, &lde[..], 4, 4, term.z),
        ] {
            assert!(!bad.is_well_formed());
            assert_eq!(reduced_opening(&bad), None);
        }
    }
}
