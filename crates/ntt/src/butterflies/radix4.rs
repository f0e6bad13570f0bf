//! Radix-4 steps: two layers at a time, with the fourth root of unity's product as a shift.
//!
//! The flow and the sign of `ω₄` are const parameters (`DIF`, `NEG`) of every loop here, so
//! that no loop branches on them; the callers choose the variant once per layer (pair) with
//! [`static_flow!`](crate::butterflies::flow::static_flow).

use aurum_goldilocks::{Goldilocks, PackedField};

use crate::butterflies::flow::{Flow, flow_of};
use crate::twiddles::Twiddles;

/// The two layers with spans `2h` and `h = 2^log_h` as one radix-4 step over groups of
/// `4h` rows: rows `t, t+h, t+2h, t+3h` are combined by the span-`2h` butterflies
/// `(t, t+2h)`, `(t+h, t+3h)` and the span-`h` butterflies `(t, t+h)`, `(t+2h, t+3h)`.
/// `NEG` must be [`Twiddles::quarter_negated`].
#[inline(always)]
pub(crate) fn radix4_layer<Q: PackedField, const DIF: bool, const NEG: bool>(
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
    if width == 1 && h.is_multiple_of(Q::WIDTH) {
        // One column: the whole block at once, so a short span (a vector or two per run)
        // does not pay a call's slicing per group.
        radix4_column::<Q, DIF, NEG>(block, tw);
        return;
    }
    for quad in block.chunks_exact_mut(4 * h * width) {
        let (x0, rest) = quad.split_at_mut(h * width);
        let (x1, rest) = rest.split_at_mut(h * width);
        let (x2, x3) = rest.split_at_mut(h * width);
        radix4_row_runs::<Q, DIF, NEG>([x0, x1, x2, x3], width, tw, 0);
    }
}

/// [`radix4_layer`] on a single column whose span `h` is a whole number of vectors: every
/// group of `4h` elements is four runs of `h / WIDTH` vectors, with the twiddles `tw` (`h`
/// each).
#[inline(always)]
fn radix4_column<Q: PackedField, const DIF: bool, const NEG: bool>(
    block: &mut [Goldilocks],
    [wa, wac, wc]: [&[Goldilocks]; 3],
) {
    let (wa, wac, wc) = (Q::pack_slice(wa), Q::pack_slice(wac), Q::pack_slice(wc));
    let hv = wa.len();
    for quad in Q::pack_slice_mut(block).chunks_exact_mut(4 * hv) {
        let (x0, rest) = quad.split_at_mut(hv);
        let (x1, rest) = rest.split_at_mut(hv);
        let (x2, x3) = rest.split_at_mut(hv);
        for i in 0..hv {
            let x = [&mut x0[i], &mut x1[i], &mut x2[i], &mut x3[i]];
            radix4(flow_of::<DIF>(), x, wa[i], wac[i], wc[i], NEG, false);
        }
    }
}

/// One radix-4 step whose twiddles are all one (`t = 0`: the spans 2 and 1 of a group of
/// four), on four vectors holding the group's elements 0, 1, 2, 3 in matching lanes.
#[inline(always)]
pub(crate) fn radix4_trivial<Q: PackedField>(flow: Flow, x: [&mut Q; 4], negated: bool) {
    radix4(flow, x, Q::ZERO, Q::ZERO, Q::ZERO, negated, true);
}

/// Radix-4 steps on four runs of consecutive rows (row `b` of each run has twiddle index
/// `first_t + b`), with the twiddle slices `[wa, wac, wc]` starting at `first_t`: lanes along
/// the column for one column, fixed-size rows for rows of 1, 2 or 4 vectors (where a general
/// row loop's slicing would cost as much as the arithmetic), row by row otherwise.
#[inline(always)]
pub(crate) fn radix4_row_runs<Q: PackedField, const DIF: bool, const NEG: bool>(
    x: [&mut [Goldilocks]; 4],
    width: usize,
    tw: [&[Goldilocks]; 3],
    first_t: usize,
) {
    let flow = flow_of::<DIF>();
    if width == 1 {
        radix4_runs::<Q, DIF, NEG>(x, tw);
    } else if width == Q::WIDTH {
        radix4_fixed_rows::<Q, 1>(flow, x, tw, NEG, first_t);
    } else if width == 2 * Q::WIDTH {
        radix4_fixed_rows::<Q, 2>(flow, x, tw, NEG, first_t);
    } else if width == 4 * Q::WIDTH {
        radix4_fixed_rows::<Q, 4>(flow, x, tw, NEG, first_t);
    } else {
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

/// One radix-4 step on four vectors: the layers with spans `2h` and `h` on rows `t`, `t+h`,
/// `t+2h`, `t+3h`, with `wa = ω_{4h}^t`, `wac = ω_{4h}^(3t)` and `wc = ω_{2h}^t`.
///
/// As two radix-2 layers this takes four twiddle multiplications; the span-`2h` pair
/// `(1, 3)` has twiddle `wa·ω₄`, and `ω₄`, a primitive 4th root of unity, is `±2^48`
/// (`negated`: `−2^48`), so its product is a shift and a reduction instead. Three general
/// multiplications remain. With `trivial` (`t = 0`) no twiddle multiplies at all.
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
    let [x0, x1, x2, x3] = x;
    // (a − b)·ω₄, with the sign of ω₄ folded into the order of the subtraction.
    let rotated = |a: Q, b: Q| {
        let d = if negated { b - a } else { a - b };
        d.mul_2exp(48)
    };
    match flow {
        Flow::Dif => {
            let (s02, d02) = (*x0 + *x2, *x0 - *x2);
            let s13 = *x1 + *x3;
            let v = rotated(*x1, *x3);
            *x0 = s02 + s13;
            if trivial {
                *x1 = s02 - s13;
                *x2 = d02 + v;
                *x3 = d02 - v;
            } else {
                *x1 = (s02 - s13) * wc;
                *x2 = (d02 + v) * wa;
                *x3 = (d02 - v) * wac;
            }
        }
        Flow::Dit => {
            let (r, p, q) = if trivial {
                (*x1, *x2, *x3)
            } else {
                (*x1 * wc, *x2 * wa, *x3 * wac)
            };
            let (a0, a1) = (*x0 + r, *x0 - r);
            let s = p + q;
            let v = rotated(p, q);
            *x0 = a0 + s;
            *x2 = a0 - s;
            *x1 = a1 + v;
            *x3 = a1 - v;
        }
    }
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
    let (wa_p, wac_p, wc_p) = (Q::broadcast(wa), Q::broadcast(wac), Q::broadcast(wc));
    // `trivial` (the first row of a group only) as a constant in each loop.
    if trivial {
        for (((a, b), c), d) in p0.iter_mut().zip(p1).zip(p2).zip(p3) {
            radix4(flow, [a, b, c, d], wa_p, wac_p, wc_p, NEG, true);
        }
    } else {
        for (((a, b), c), d) in p0.iter_mut().zip(p1).zip(p2).zip(p3) {
            radix4(flow, [a, b, c, d], wa_p, wac_p, wc_p, NEG, false);
        }
    }
    for (((a, b), c), d) in s0.iter_mut().zip(s1).zip(s2).zip(s3) {
        radix4(flow, [a, b, c, d], wa, wac, wc, NEG, trivial);
    }
}

/// Radix-4 steps on four runs of rows that are exactly `V` vectors wide (short rows, where the
/// general loop's per-row slicing costs as much as the arithmetic), with the consecutive
/// twiddles `wa`, `wac`, `wc` (one per row).
#[inline(always)]
fn radix4_fixed_rows<Q: PackedField, const V: usize>(
    flow: Flow,
    runs: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
    negated: bool,
    first_t: usize,
) {
    let [r0, r1, r2, r3] = runs.map(|run| Q::pack_slice_mut(run).as_chunks_mut::<V>().0);
    for (t, ((((a, b), c), d), ((&ta, &tac), &tc))) in r0
        .iter_mut()
        .zip(r1.iter_mut())
        .zip(r2.iter_mut())
        .zip(r3.iter_mut())
        .zip(wa.iter().zip(wac).zip(wc))
        .enumerate()
    {
        let (ta, tac, tc) = (Q::broadcast(ta), Q::broadcast(tac), Q::broadcast(tc));
        for v in 0..V {
            let x = [&mut a[v], &mut b[v], &mut c[v], &mut d[v]];
            radix4(flow, x, ta, tac, tc, negated, first_t + t == 0);
        }
    }
}

/// Radix-4 steps on four runs of one column with consecutive twiddles.
#[inline(always)]
fn radix4_runs<Q: PackedField, const DIF: bool, const NEG: bool>(
    runs: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
) {
    let flow = flow_of::<DIF>();
    let [r0, r1, r2, r3] = runs;
    let (p0, s0) = Q::pack_slice_with_suffix_mut(r0);
    let (p1, s1) = Q::pack_slice_with_suffix_mut(r1);
    let (p2, s2) = Q::pack_slice_with_suffix_mut(r2);
    let (p3, s3) = Q::pack_slice_with_suffix_mut(r3);
    let (wa_p, wa_s) = Q::pack_slice_with_suffix(wa);
    let (wac_p, wac_s) = Q::pack_slice_with_suffix(wac);
    let (wc_p, wc_s) = Q::pack_slice_with_suffix(wc);
    for ((((((a, b), c), d), ta), tac), tc) in p0
        .iter_mut()
        .zip(p1)
        .zip(p2)
        .zip(p3)
        .zip(wa_p)
        .zip(wac_p)
        .zip(wc_p)
    {
        radix4(flow, [a, b, c, d], *ta, *tac, *tc, NEG, false);
    }
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
