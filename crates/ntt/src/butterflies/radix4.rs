//! Radix-4 steps: two layers at a time, with the fourth root of unity's product as a shift.
//!
//! The flow and the sign of `ω₄` are const parameters (`DIF`, `NEG`) of every loop here, so
//! that no loop branches on them; the callers choose the variant once per layer (pair) with
//! [`static_flow!`](crate::butterflies::flow::static_flow).

use aurum_goldilocks::{Goldilocks, PackedField};

use crate::butterflies::flow::{Flow, flow_of};
use crate::twiddles::Twiddles;

/// How many independent radix-4 steps the loops here issue together ([`radix4_n`]). One step
/// is a chain of about 45 dependent vector operations per element quadruple; two chains side
/// by side let the core overlap them. Four spill AVX2's 16 vector registers and gain little
/// with AVX-512's 32, so two, for every backend (the measurements: `docs/benchmarks.md`,
/// "Interleaved butterflies").
pub(crate) const INTERLEAVE: usize = 2;

/// The two layers with spans `2h` and `h = 2^log_h` as one radix-4 step over groups of
/// `4h` rows: rows `t, t+h, t+2h, t+3h` are combined by the span-`2h` butterflies
/// `(t, t+2h)`, `(t+h, t+3h)` and the span-`h` butterflies `(t, t+h)`, `(t+2h, t+3h)`, on
/// rows of shape `S` ([`Shape::of`] the width). `NEG` must be [`Twiddles::quarter_negated`].
#[inline(always)]
pub(crate) fn radix4_layer<Q: PackedField, const DIF: bool, const NEG: bool, S: Shape>(
    block: &mut [Goldilocks],
    width: usize,
    log_h: usize,
    twiddles: &Twiddles,
) {
    debug_assert_eq!(NEG, twiddles.quarter_negated());
    let h = 1usize << log_h;
    let tw = [
        &twiddles.level(log_h + 2)[..h],
        &twiddles.cubes(log_h + 2)[..h],
        &twiddles.level(log_h + 1)[..h],
    ];
    S::block_layer::<Q, DIF, NEG>(block, width, h, tw);
}

/// The shape of the rows a radix-4 loop runs on, chosen once per layer pair
/// ([`with_shape!`]): one column, rows of exactly 1, 2 or 4 vectors, or any other width. Each
/// shape's loops are a function of their own, so that an unoptimised build (a dependent's
/// `dev` or `test` build, where every inlined copy keeps its own stack slots) holds one
/// shape's slots at a time: all five inlined into one layer took 1.7 MiB of a rayon thread's
/// 2 MiB of stack on AVX-512, and a single-column LDE overflowed it.
pub(crate) trait Shape {
    /// Radix-4 steps on four runs of consecutive rows of this shape (row `b` of each run has
    /// twiddle index `first_t + b`), with the twiddle slices `[wa, wac, wc]` starting at
    /// `first_t`.
    fn runs<Q: PackedField, const DIF: bool, const NEG: bool>(
        x: [&mut [Goldilocks]; 4],
        width: usize,
        tw: [&[Goldilocks]; 3],
        first_t: usize,
    );

    /// [`radix4_layer`] over a whole block: each group of `4h` rows as four runs.
    #[inline(always)]
    fn block_layer<Q: PackedField, const DIF: bool, const NEG: bool>(
        block: &mut [Goldilocks],
        width: usize,
        h: usize,
        tw: [&[Goldilocks]; 3],
    ) {
        quads::<Q, DIF, NEG, Self>(block, width, h, tw);
    }
}

/// Each group of `4h` rows of `block` as four runs of shape `S`.
#[inline(always)]
fn quads<Q: PackedField, const DIF: bool, const NEG: bool, S: Shape + ?Sized>(
    block: &mut [Goldilocks],
    width: usize,
    h: usize,
    tw: [&[Goldilocks]; 3],
) {
    for quad in block.chunks_exact_mut(4 * h * width) {
        let (x0, rest) = quad.split_at_mut(h * width);
        let (x1, rest) = rest.split_at_mut(h * width);
        let (x2, x3) = rest.split_at_mut(h * width);
        S::runs::<Q, DIF, NEG>([x0, x1, x2, x3], width, tw, 0);
    }
}

/// One column: lanes along the column.
pub(crate) struct OneColumn;

/// Rows of exactly `V` vectors (1, 2 or 4), where a general row loop's slicing would cost as
/// much as the arithmetic.
pub(crate) struct Vectors<const V: usize>;

/// Rows of any other width, row by row.
pub(crate) struct AnyRows;

impl Shape for OneColumn {
    #[inline(always)]
    fn runs<Q: PackedField, const DIF: bool, const NEG: bool>(
        x: [&mut [Goldilocks]; 4],
        _: usize,
        tw: [&[Goldilocks]; 3],
        _: usize,
    ) {
        radix4_runs::<Q, DIF, NEG>(x, tw);
    }

    #[inline(always)]
    fn block_layer<Q: PackedField, const DIF: bool, const NEG: bool>(
        block: &mut [Goldilocks],
        width: usize,
        h: usize,
        tw: [&[Goldilocks]; 3],
    ) {
        if h.is_multiple_of(Q::WIDTH) {
            // The whole block at once, so a short span (a vector or two per run) does not pay
            // a call's slicing per group.
            radix4_column::<Q, DIF, NEG>(block, tw);
        } else {
            quads::<Q, DIF, NEG, Self>(block, width, h, tw);
        }
    }
}

impl<const V: usize> Shape for Vectors<V> {
    #[inline(always)]
    fn runs<Q: PackedField, const DIF: bool, const NEG: bool>(
        x: [&mut [Goldilocks]; 4],
        _: usize,
        tw: [&[Goldilocks]; 3],
        first_t: usize,
    ) {
        radix4_fixed_rows::<Q, V>(flow_of::<DIF>(), x, tw, NEG, first_t);
    }
}

impl Shape for AnyRows {
    #[inline(always)]
    fn runs<Q: PackedField, const DIF: bool, const NEG: bool>(
        x: [&mut [Goldilocks]; 4],
        width: usize,
        tw: [&[Goldilocks]; 3],
        first_t: usize,
    ) {
        let [x0, x1, x2, x3] = x;
        for (b, (((r0, r1), r2), r3)) in x0
            .chunks_exact_mut(width)
            .zip(x1.chunks_exact_mut(width))
            .zip(x2.chunks_exact_mut(width))
            .zip(x3.chunks_exact_mut(width))
            .enumerate()
        {
            let rows = [r0, r1, r2, r3];
            let t = first_t + b;
            radix4_rows::<Q, DIF, NEG>(rows, tw.map(|w| w[b]), t == 0);
        }
    }
}

/// Runs `$body` with the type `$s` bound to the [`Shape`] of rows `$width` elements wide for
/// the packed type `$q`.
macro_rules! with_shape {
    ($q:ty, $width:expr, |$s:ident| $body:expr) => {{
        use $crate::butterflies::radix4::{AnyRows, OneColumn, Vectors};
        let width: usize = $width;
        let vector = <$q as aurum_goldilocks::PackedField>::WIDTH;
        if width == 1 {
            type $s = OneColumn;
            $body
        } else if width == vector {
            type $s = Vectors<1>;
            $body
        } else if width == 2 * vector {
            type $s = Vectors<2>;
            $body
        } else if width == 4 * vector {
            type $s = Vectors<4>;
            $body
        } else {
            type $s = AnyRows;
            $body
        }
    }};
}

pub(crate) use with_shape;

/// [`radix4_layer`] on a single column whose span `h` is a whole number of vectors: every
/// group of `4h` elements is four runs of `h / WIDTH` vectors, with the twiddles `tw` (`h`
/// each).
#[inline(always)]
fn radix4_column<Q: PackedField, const DIF: bool, const NEG: bool>(
    block: &mut [Goldilocks],
    [wa, wac, wc]: [&[Goldilocks]; 3],
) {
    let tw = [wa, wac, wc].map(Q::pack_slice);
    let hv = tw[0].len();
    for quad in Q::pack_slice_mut(block).chunks_exact_mut(4 * hv) {
        let (x0, rest) = quad.split_at_mut(hv);
        let (x1, rest) = rest.split_at_mut(hv);
        let (x2, x3) = rest.split_at_mut(hv);
        radix4_vector_runs::<Q, DIF, NEG>([x0, x1, x2, x3], tw);
    }
}

/// Radix-4 steps on four equally long runs of vectors with one twiddle vector each per
/// position (`tw`, as long as the runs), [`INTERLEAVE`] positions at a time.
#[inline(always)]
fn radix4_vector_runs<Q: PackedField, const DIF: bool, const NEG: bool>(
    x: [&mut [Q]; 4],
    tw: [&[Q]; 3],
) {
    debug_assert!(x.iter().all(|run| run.len() == tw[0].len()));
    debug_assert!(tw.iter().all(|w| w.len() == tw[0].len()));
    let flow = flow_of::<DIF>();
    let [(c0, r0), (c1, r1), (c2, r2), (c3, r3)] = x.map(|run| run.as_chunks_mut::<INTERLEAVE>());
    let [(wa, wa_r), (wac, wac_r), (wc, wc_r)] = tw.map(|w| w.as_chunks::<INTERLEAVE>());
    for (((((a, b), c), d), ta), (tac, tc)) in c0
        .iter_mut()
        .zip(c1)
        .zip(c2)
        .zip(c3)
        .zip(wa)
        .zip(wac.iter().zip(wc))
    {
        radix4_n(flow, [a, b, c, d], [*ta, *tac, *tc], NEG, false);
    }
    for (((((a, b), c), d), ta), (tac, tc)) in r0
        .iter_mut()
        .zip(r1)
        .zip(r2)
        .zip(r3)
        .zip(wa_r)
        .zip(wac_r.iter().zip(wc_r))
    {
        radix4(flow, [a, b, c, d], *ta, *tac, *tc, NEG, false);
    }
}

/// One radix-4 step whose twiddles are all one (`t = 0`: the spans 2 and 1 of a group of
/// four), on four vectors holding the group's elements 0, 1, 2, 3 in matching lanes.
#[inline(always)]
pub(crate) fn radix4_trivial<Q: PackedField>(flow: Flow, x: [&mut Q; 4], negated: bool) {
    radix4(flow, x, Q::ZERO, Q::ZERO, Q::ZERO, negated, true);
}

/// One radix-4 step on four vectors: [`radix4_n`] with one step.
#[inline(always)]
fn radix4<Q: PackedField>(
    flow: Flow,
    x: [&mut Q; 4],
    wa: Q,
    wac: Q,
    wc: Q,
    negated: bool,
    trivial: bool,
) {
    let x = x.map(core::array::from_mut);
    radix4_n(flow, x, [[wa], [wac], [wc]], negated, trivial);
}

/// `N` independent radix-4 steps, element `i` of each array being one step: the layers with
/// spans `2h` and `h` on rows `t`, `t+h`, `t+2h`, `t+3h`, with `wa = ω_{4h}^t`,
/// `wac = ω_{4h}^(3t)` and `wc = ω_{2h}^t`. Every operation is issued for all `N` steps
/// before the next one, so that their dependency chains interleave ([`INTERLEAVE`]).
///
/// As two radix-2 layers a step takes four twiddle multiplications; the span-`2h` pair
/// `(1, 3)` has twiddle `wa·ω₄`, and `ω₄`, a primitive 4th root of unity, is `±2^48`
/// (`negated`: `−2^48`), so its product is a shift and a reduction instead. Three general
/// multiplications remain. With `trivial` (`t = 0`) no twiddle multiplies at all.
#[inline(always)]
fn radix4_n<Q: PackedField, const N: usize>(
    flow: Flow,
    x: [&mut [Q; N]; 4],
    [wa, wac, wc]: [[Q; N]; 3],
    negated: bool,
    trivial: bool,
) {
    let [x0, x1, x2, x3] = x;
    match flow {
        Flow::Dif => {
            let s02 = each!(N, |i| x0[i] + x2[i]);
            let d02 = each!(N, |i| x0[i] - x2[i]);
            let s13 = each!(N, |i| x1[i] + x3[i]);
            let v = each!(N, |i| rotated(x1[i], x3[i], negated));
            *x0 = each!(N, |i| s02[i] + s13[i]);
            if trivial {
                *x1 = each!(N, |i| s02[i] - s13[i]);
                *x2 = each!(N, |i| d02[i] + v[i]);
                *x3 = each!(N, |i| d02[i] - v[i]);
            } else {
                *x1 = each!(N, |i| (s02[i] - s13[i]) * wc[i]);
                *x2 = each!(N, |i| (d02[i] + v[i]) * wa[i]);
                *x3 = each!(N, |i| (d02[i] - v[i]) * wac[i]);
            }
        }
        Flow::Dit => {
            let (r, p, q) = if trivial {
                (*x1, *x2, *x3)
            } else {
                (
                    each!(N, |i| x1[i] * wc[i]),
                    each!(N, |i| x2[i] * wa[i]),
                    each!(N, |i| x3[i] * wac[i]),
                )
            };
            let a0 = each!(N, |i| x0[i] + r[i]);
            let a1 = each!(N, |i| x0[i] - r[i]);
            let s = each!(N, |i| p[i] + q[i]);
            let v = each!(N, |i| rotated(p[i], q[i], negated));
            *x0 = each!(N, |i| a0[i] + s[i]);
            *x2 = each!(N, |i| a0[i] - s[i]);
            *x1 = each!(N, |i| a1[i] + v[i]);
            *x3 = each!(N, |i| a1[i] - v[i]);
        }
    }
}

/// `(a − b)·ω₄` with `ω₄ = ±2^48` (`negated`: `−2^48`), the sign folded into the order of the
/// subtraction. A function, not a closure: closures do not always inline into the dispatched
/// kernel (see [`each!`](crate::butterflies)).
#[inline(always)]
fn rotated<Q: PackedField>(a: Q, b: Q, negated: bool) -> Q {
    let d = if negated { b - a } else { a - b };
    d.mul_2exp(48)
}

/// Radix-4 steps on four rows (lanes across columns) with broadcast twiddles.
#[inline(always)]
fn radix4_rows<Q: PackedField, const DIF: bool, const NEG: bool>(
    rows: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [Goldilocks; 3],
    trivial: bool,
) {
    let flow = flow_of::<DIF>();
    let [r0, r1, r2, r3] = rows;
    let (p0, s0) = Q::pack_slice_with_suffix_mut(r0);
    let (p1, s1) = Q::pack_slice_with_suffix_mut(r1);
    let (p2, s2) = Q::pack_slice_with_suffix_mut(r2);
    let (p3, s3) = Q::pack_slice_with_suffix_mut(r3);
    let tw = [Q::broadcast(wa), Q::broadcast(wac), Q::broadcast(wc)];
    radix4_broadcast_runs(flow, [p0, p1, p2, p3], tw, NEG, trivial);
    for (((a, b), c), d) in s0.iter_mut().zip(s1).zip(s2).zip(s3) {
        radix4(flow, [a, b, c, d], wa, wac, wc, NEG, trivial);
    }
}

/// Radix-4 steps on four runs of rows that are exactly `V` vectors wide (short rows, where the
/// general loop's per-row slicing costs as much as the arithmetic), with the consecutive
/// twiddles `wa`, `wac`, `wc` (one per row). Rows of one vector interleave consecutive rows
/// ([`radix4_vector_rows`]); wider rows interleave within the row.
#[inline(always)]
fn radix4_fixed_rows<Q: PackedField, const V: usize>(
    flow: Flow,
    runs: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
    negated: bool,
    first_t: usize,
) {
    let [r0, r1, r2, r3] = runs.map(|run| Q::pack_slice_mut(run).as_chunks_mut::<V>().0);
    if V == 1 {
        let [r0, r1, r2, r3] = [r0, r1, r2, r3].map(|r| r.as_flattened_mut());
        radix4_vector_rows(flow, [r0, r1, r2, r3], [wa, wac, wc], negated);
        return;
    }
    for (t, ((((a, b), c), d), ((&ta, &tac), &tc))) in r0
        .iter_mut()
        .zip(r1.iter_mut())
        .zip(r2.iter_mut())
        .zip(r3.iter_mut())
        .zip(wa.iter().zip(wac).zip(wc))
        .enumerate()
    {
        let tw = [Q::broadcast(ta), Q::broadcast(tac), Q::broadcast(tc)];
        radix4_broadcast_runs(flow, [a, b, c, d], tw, negated, first_t + t == 0);
    }
}

/// Radix-4 steps on four equally long runs of vectors that share one set of (broadcast)
/// twiddles — a row's vectors — [`INTERLEAVE`] positions at a time.
#[inline(always)]
fn radix4_broadcast_runs<Q: PackedField>(
    flow: Flow,
    x: [&mut [Q]; 4],
    [wa, wac, wc]: [Q; 3],
    negated: bool,
    trivial: bool,
) {
    let tw = [[wa; INTERLEAVE], [wac; INTERLEAVE], [wc; INTERLEAVE]];
    let [(c0, r0), (c1, r1), (c2, r2), (c3, r3)] = x.map(|run| run.as_chunks_mut::<INTERLEAVE>());
    // `trivial` (the first row of a group only) as a constant in each loop.
    if trivial {
        for (((a, b), c), d) in c0.iter_mut().zip(c1).zip(c2).zip(c3) {
            radix4_n(flow, [a, b, c, d], tw, negated, true);
        }
    } else {
        for (((a, b), c), d) in c0.iter_mut().zip(c1).zip(c2).zip(c3) {
            radix4_n(flow, [a, b, c, d], tw, negated, false);
        }
    }
    for (((a, b), c), d) in r0.iter_mut().zip(r1).zip(r2).zip(r3) {
        radix4(flow, [a, b, c, d], wa, wac, wc, negated, trivial);
    }
}

/// Radix-4 steps on four runs of rows one vector wide, with one twiddle per row (at least as
/// many as rows), [`INTERLEAVE`] rows at a time. Row 0 of a group (`t = 0`, whose twiddles
/// are one) runs with the others: its multiplications by one change no value.
#[inline(always)]
fn radix4_vector_rows<Q: PackedField>(
    flow: Flow,
    runs: [&mut [Q]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
    negated: bool,
) {
    let rows = runs[0].len();
    let [(c0, s0), (c1, s1), (c2, s2), (c3, s3)] =
        runs.map(|run| run.as_chunks_mut::<INTERLEAVE>());
    let [(pa, sa), (pac, sac), (pc, sc)] =
        [wa, wac, wc].map(|w| w[..rows].as_chunks::<INTERLEAVE>());
    for (((((a, b), c), d), ta), (tac, tc)) in c0
        .iter_mut()
        .zip(c1)
        .zip(c2)
        .zip(c3)
        .zip(pa)
        .zip(pac.iter().zip(pc))
    {
        let tw = [
            each!(INTERLEAVE, |i| Q::broadcast(ta[i])),
            each!(INTERLEAVE, |i| Q::broadcast(tac[i])),
            each!(INTERLEAVE, |i| Q::broadcast(tc[i])),
        ];
        radix4_n(flow, [a, b, c, d], tw, negated, false);
    }
    for (((((a, b), c), d), &ta), (&tac, &tc)) in s0
        .iter_mut()
        .zip(s1)
        .zip(s2)
        .zip(s3)
        .zip(sa)
        .zip(sac.iter().zip(sc))
    {
        let (ta, tac, tc) = (Q::broadcast(ta), Q::broadcast(tac), Q::broadcast(tc));
        radix4(flow, [a, b, c, d], ta, tac, tc, negated, false);
    }
}

/// Radix-4 steps on four runs of one column with consecutive twiddles.
#[inline(always)]
fn radix4_runs<Q: PackedField, const DIF: bool, const NEG: bool>(
    runs: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
) {
    let flow = flow_of::<DIF>();
    let [(p0, s0), (p1, s1), (p2, s2), (p3, s3)] = runs.map(Q::pack_slice_with_suffix_mut);
    let [(wa_p, wa_s), (wac_p, wac_s), (wc_p, wc_s)] = [wa, wac, wc].map(Q::pack_slice_with_suffix);
    radix4_vector_runs::<Q, DIF, NEG>([p0, p1, p2, p3], [wa_p, wac_p, wc_p]);
    for ((((((a, b), c), d), ta), tac), tc) in s0
        .iter_mut()
        .zip(s1)
        .zip(s2)
        .zip(s3)
        .zip(wa_s)
        .zip(wac_s)
        .zip(wc_s)
    {
        radix4(flow, [a, b, c, d], *ta, *tac, *tc, NEG, false);
    }
}
