//! Radix-2 butterflies over rows, runs of rows and single columns, one layer at a time, and the
//! layers with spans below the vector width on vector pairs.

use aurum_goldilocks::{Goldilocks, PackedField};

use crate::butterflies::flow::{
    Flow, butterfly, butterfly_n, butterfly_one, butterfly_scaled, butterfly_scaled_n, flow_of,
    layer_order,
};
use crate::butterflies::radix4::{INTERLEAVE, radix4_trivial};
use crate::stack_frame::{in_own_frame, step};
use crate::twiddles::Twiddles;

/// The butterfly between two rows `lo` and `hi` (equal lengths) with one twiddle.
#[inline(always)]
fn butterfly_rows<P: PackedField>(
    flow: Flow,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: Goldilocks,
    is_one: bool,
    scale: Option<Goldilocks>,
) {
    let (lo_p, lo_s) = P::pack_slice_with_suffix_mut(lo);
    let (hi_p, hi_s) = P::pack_slice_with_suffix_mut(hi);
    match scale {
        Some(s) => {
            let tws = tw * s;
            let (tws_p, s_p) = (P::broadcast(tws), P::broadcast(s));
            let (lo_c, lo_r) = lo_p.as_chunks_mut::<INTERLEAVE>();
            let (hi_c, hi_r) = hi_p.as_chunks_mut::<INTERLEAVE>();
            for (x, y) in lo_c.iter_mut().zip(hi_c) {
                butterfly_scaled_n(flow, x, y, tws_p, s_p);
            }
            for (x, y) in lo_r.iter_mut().zip(hi_r) {
                butterfly_scaled(flow, x, y, tws_p, s_p);
            }
            for (x, y) in lo_s.iter_mut().zip(hi_s) {
                butterfly_scaled(flow, x, y, tws, s);
            }
        }
        None if is_one => {
            for (x, y) in lo_p.iter_mut().zip(hi_p) {
                butterfly_one(x, y);
            }
            for (x, y) in lo_s.iter_mut().zip(hi_s) {
                butterfly_one(x, y);
            }
        }
        None => {
            let tw_p = P::broadcast(tw);
            let (lo_c, lo_r) = lo_p.as_chunks_mut::<INTERLEAVE>();
            let (hi_c, hi_r) = hi_p.as_chunks_mut::<INTERLEAVE>();
            for (x, y) in lo_c.iter_mut().zip(hi_c) {
                butterfly_n(flow, x, y, tw_p);
            }
            for (x, y) in lo_r.iter_mut().zip(hi_r) {
                butterfly(flow, x, y, tw_p);
            }
            for (x, y) in lo_s.iter_mut().zip(hi_s) {
                butterfly(flow, x, y, tw);
            }
        }
    }
}

/// Radix-2 butterflies between two runs of consecutive rows (row `b` pairs with row `b`, with
/// twiddle `tws[b]`, index `first_t + b`): the same three cases as [`radix4_row_runs`].
#[inline(always)]
pub(crate) fn butterfly_row_runs<Q: PackedField>(
    flow: Flow,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    width: usize,
    tws: &[Goldilocks],
    first_t: usize,
    scale: Option<Goldilocks>,
) {
    if width == 1 {
        butterfly_runs::<Q>(flow, lo, hi, tws, scale);
    } else if width == Q::WIDTH {
        butterfly_fixed_rows::<Q, 1>(flow, lo, hi, tws, first_t, scale);
    } else if width == 2 * Q::WIDTH {
        butterfly_fixed_rows::<Q, 2>(flow, lo, hi, tws, first_t, scale);
    } else if width == 4 * Q::WIDTH {
        butterfly_fixed_rows::<Q, 4>(flow, lo, hi, tws, first_t, scale);
    } else {
        for (b, (lo_row, hi_row)) in lo
            .chunks_exact_mut(width)
            .zip(hi.chunks_exact_mut(width))
            .enumerate()
        {
            let t = first_t + b;
            butterfly_rows::<Q>(flow, lo_row, hi_row, tws[b], t == 0, scale);
        }
    }
}

/// [`butterfly_rows`] on runs of rows exactly `V` vectors wide.
#[inline(always)]
fn butterfly_fixed_rows<Q: PackedField, const V: usize>(
    flow: Flow,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tws: &[Goldilocks],
    first_t: usize,
    scale: Option<Goldilocks>,
) {
    let lo = Q::pack_slice_mut(lo).as_chunks_mut::<V>().0;
    let hi = Q::pack_slice_mut(hi).as_chunks_mut::<V>().0;
    let scale_p = scale.map(Q::broadcast);
    for (t, ((x, y), &tw)) in lo.iter_mut().zip(hi.iter_mut()).zip(tws).enumerate() {
        match (scale, scale_p) {
            (Some(s), Some(s_p)) => {
                let tws_p = Q::broadcast(tw * s);
                for v in 0..V {
                    butterfly_scaled(flow, &mut x[v], &mut y[v], tws_p, s_p);
                }
            }
            _ if first_t + t == 0 => {
                for v in 0..V {
                    butterfly_one(&mut x[v], &mut y[v]);
                }
            }
            _ => {
                let tw_p = Q::broadcast(tw);
                for v in 0..V {
                    butterfly(flow, &mut x[v], &mut y[v], tw_p);
                }
            }
        }
    }
}

/// The butterflies between two runs of consecutive elements of one column, with the
/// consecutive twiddles `tws` (same length).
#[inline(always)]
fn butterfly_runs<Q: PackedField>(
    flow: Flow,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tws: &[Goldilocks],
    scale: Option<Goldilocks>,
) {
    let (lo_p, lo_s) = Q::pack_slice_with_suffix_mut(lo);
    let (hi_p, hi_s) = Q::pack_slice_with_suffix_mut(hi);
    let (tw_p, tw_s) = Q::pack_slice_with_suffix(tws);
    match scale {
        Some(s) => {
            let s_p = Q::broadcast(s);
            for ((x, y), t) in lo_p.iter_mut().zip(hi_p).zip(tw_p) {
                butterfly_scaled(flow, x, y, *t * s_p, s_p);
            }
            for ((x, y), t) in lo_s.iter_mut().zip(hi_s).zip(tw_s) {
                butterfly_scaled(flow, x, y, *t * s, s);
            }
        }
        None => {
            for ((x, y), t) in lo_p.iter_mut().zip(hi_p).zip(tw_p) {
                butterfly(flow, x, y, *t);
            }
            for ((x, y), t) in lo_s.iter_mut().zip(hi_s).zip(tw_s) {
                butterfly(flow, x, y, *t);
            }
        }
    }
}

/// One radix-2 layer with span `2^log_span` over a block of whole butterfly groups.
#[inline(always)]
pub(crate) fn layer<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    log_span: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    let span = 1usize << log_span;
    let table = &twiddles.level(log_span + 1)[..span];
    if width == 1 && scale.is_none() && span.is_multiple_of(Q::WIDTH) {
        // One column: the whole block at once, without a call's slicing per group.
        match flow {
            Flow::Dif => column_layer::<Q, true>(block, table),
            Flow::Dit => column_layer::<Q, false>(block, table),
        }
        return;
    }
    for pair in block.chunks_exact_mut(2 * span * width) {
        let (lo, hi) = pair.split_at_mut(span * width);
        butterfly_row_runs::<Q>(flow, lo, hi, width, table, 0, scale);
    }
}

/// [`layer`] on a single column whose span is a whole number of vectors, the flow fixed.
#[inline(always)]
fn column_layer<Q: PackedField, const DIF: bool>(block: &mut [Goldilocks], table: &[Goldilocks]) {
    let flow = flow_of::<DIF>();
    let tw = Q::pack_slice(table);
    for pair in Q::pack_slice_mut(block).chunks_exact_mut(2 * tw.len()) {
        let (lo, hi) = pair.split_at_mut(tw.len());
        for ((x, y), t) in lo.iter_mut().zip(hi).zip(tw) {
            butterfly(flow, x, y, *t);
        }
    }
}

/// The layers with spans `1, 2, …, 2^(count−1)` (all `< WIDTH`) on each pair of vectors:
/// `interleave(…, span)` moves the partners of each butterfly into the same lane of two
/// vectors, the butterfly runs on whole vectors, and the same interleave moves them back.
#[inline(always)]
pub(crate) fn small_span_layers<Q: PackedField>(
    block: &mut [Goldilocks],
    count: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    debug_assert!(Q::WIDTH > 1 && block.len() >= 2 * Q::WIDTH);
    // `count` is `log2(WIDTH)` (blocks narrower than two vectors take the scalar path), 1 to 3
    // for every backend; a wider backend must add its count below.
    const {
        assert!(
            Q::WIDTH <= 8,
            "small_span_layers: no variant for vectors over 8 lanes"
        )
    };
    // The count, the flow and whether a layer is scaled as constants, so that the layers
    // unroll into straight-line code.
    // Each variant in a stack frame of its own (see `crate::stack_frame`): unoptimised, their
    // inlined copies would otherwise share the caller's frame.
    macro_rules! fixed {
        ($count:literal, $neg:literal) => {
            match (flow, scale) {
                (Flow::Dif, None) => in_own_frame::<Q, SmallSpans<$count, true, false, $neg>, _>((
                    block, twiddles, None,
                )),
                (Flow::Dif, Some(s)) => in_own_frame::<Q, SmallSpans<$count, true, true, $neg>, _>(
                    (block, twiddles, Some(s)),
                ),
                (Flow::Dit, None) => in_own_frame::<Q, SmallSpans<$count, false, false, $neg>, _>(
                    (block, twiddles, None),
                ),
                (Flow::Dit, Some(s)) => {
                    in_own_frame::<Q, SmallSpans<$count, false, true, $neg>, _>((
                        block,
                        twiddles,
                        Some(s),
                    ))
                }
            }
        };
    }
    match (count, twiddles.quarter_negated()) {
        // With one layer there is no fourth root of unity to multiply by.
        (1, _) => fixed!(1, false),
        (2, false) => fixed!(2, false),
        (2, true) => fixed!(2, true),
        (3, false) => fixed!(3, false),
        (3, true) => fixed!(3, true),
        _ => unreachable!("small_span_layers: {count} layers for {} lanes", Q::WIDTH),
    }
}

/// The twiddle vector of the layer with span `2^log_span < WIDTH` on interleaved vectors:
/// lane `l` of the first interleaved vector holds the element at offset `l mod span` within
/// its butterfly group, so its twiddle is `table[l mod span]`.
#[inline(always)]
fn small_span_twiddles<Q: PackedField>(twiddles: &Twiddles, log_span: usize) -> Q {
    let table = twiddles.level(log_span + 1);
    Q::from_fn(|lane| table[lane % (1 << log_span)])
}

step!(
    /// [`small_span_layers_fixed`] with its constants.
    SmallSpans<const COUNT: usize, const DIF: bool, const SCALED: bool, const NEG: bool>:
        for<'a> small_span_layers_fixed(
            block: &'a mut [Goldilocks],
            twiddles: &'a Twiddles,
            scale: Option<Goldilocks>,
        )
);

/// The span-4 layer's twiddle in [`small_span_layers_fixed`], with its scale when it is a
/// scaled first layer.
#[derive(Clone, Copy)]
enum Span4<Q> {
    Plain(Q),
    /// `(tw · scale, scale)`.
    Scaled(Q, Q),
}

/// The span-4 layer on a vector pair. A function, not a closure: closures do not always inline
/// into the dispatched kernel, and one compiled apart (a build without `-C target-cpu`) calls
/// every vector operation.
#[inline(always)]
fn span4<Q: PackedField>(flow: Flow, pair: &mut [Q], tw: Span4<Q>) {
    let (mut x, mut y) = pair[0].interleave(pair[1], 4);
    match tw {
        Span4::Scaled(tw_scaled, s) => butterfly_scaled(flow, &mut x, &mut y, tw_scaled, s),
        Span4::Plain(tw) => butterfly(flow, &mut x, &mut y, tw),
    }
    (pair[0], pair[1]) = x.interleave(y, 4);
}

/// [`small_span_layers`] with `COUNT` layers, the flow (`DIF`), a scaled first layer
/// (`SCALED`, with `scale`) and the sign of the fourth root of unity (`NEG`, see
/// [`Twiddles::quarter_negated`]) fixed.
///
/// With two or more layers and at least four vectors, the spans 2 and 1 run as one radix-4
/// step with trivial twiddles on four vectors at a time: two rounds of interleaves (a 4 × 4
/// transpose within each 256-bit lane group) put elements 0, 1, 2, 3 of every group of four
/// into matching lanes of four vectors, and the step multiplies by the fourth root of unity
/// with a shift instead of the span-2 layer's general multiplication. A span-4 layer
/// (`COUNT = 3`) runs on vector pairs before (DIF) or after (DIT) it; a scale on a first
/// layer inside the step multiplies the four inputs instead (the same number of products).
#[inline(always)]
fn small_span_layers_fixed<
    Q: PackedField,
    const COUNT: usize,
    const DIF: bool,
    const SCALED: bool,
    const NEG: bool,
>(
    block: &mut [Goldilocks],
    twiddles: &Twiddles,
    scale: Option<Goldilocks>,
) {
    let flow = flow_of::<DIF>();
    let tw: [Q; COUNT] =
        core::array::from_fn(|log_span| small_span_twiddles::<Q>(twiddles, log_span));
    let s = Q::broadcast(scale.unwrap_or(Goldilocks::ONE));
    let first_layer = if DIF { COUNT - 1 } else { 0 };
    let tw_first = tw[first_layer] * s;
    let vectors = Q::pack_slice_mut(block);
    if COUNT >= 2 && vectors.len() >= 4 {
        // The span-4 layer (COUNT = 3) on a vector pair; scaled when it runs first (DIF).
        let span4_tw = if SCALED && DIF {
            Span4::Scaled(tw_first, s)
        } else {
            Span4::Plain(tw[COUNT - 1])
        };
        // Scaled inside the radix-4 step: the first layer is span 2 (DIF, COUNT = 2) or
        // span 1 (DIT).
        let scale_inputs = SCALED && (!DIF || COUNT == 2);
        for quad in vectors.chunks_exact_mut(4) {
            if COUNT == 3 && DIF {
                span4(flow, &mut quad[..2], span4_tw);
                span4(flow, &mut quad[2..], span4_tw);
            }
            let v = if scale_inputs {
                [quad[0] * s, quad[1] * s, quad[2] * s, quad[3] * s]
            } else {
                [quad[0], quad[1], quad[2], quad[3]]
            };
            let (a, b) = v[0].interleave(v[1], 1);
            let (c, d) = v[2].interleave(v[3], 1);
            let (mut x0, mut x2) = a.interleave(c, 2);
            let (mut x1, mut x3) = b.interleave(d, 2);
            radix4_trivial(flow, [&mut x0, &mut x1, &mut x2, &mut x3], NEG);
            let (a, c) = x0.interleave(x2, 2);
            let (b, d) = x1.interleave(x3, 2);
            (quad[0], quad[1]) = a.interleave(b, 1);
            (quad[2], quad[3]) = c.interleave(d, 1);
            if COUNT == 3 && !DIF {
                span4(flow, &mut quad[..2], span4_tw);
                span4(flow, &mut quad[2..], span4_tw);
            }
        }
        return;
    }
    for pair in vectors.chunks_exact_mut(2) {
        let (mut a, mut b) = (pair[0], pair[1]);
        for i in 0..COUNT {
            let log_span = layer_order(flow, COUNT, i);
            let (mut x, mut y) = a.interleave(b, 1 << log_span);
            if SCALED && log_span == first_layer {
                butterfly_scaled(flow, &mut x, &mut y, tw_first, s);
            } else if log_span == 0 {
                butterfly_one(&mut x, &mut y);
            } else {
                butterfly(flow, &mut x, &mut y, tw[log_span]);
            }
            (a, b) = x.interleave(y, 1 << log_span);
        }
        pair[0] = a;
        pair[1] = b;
    }
}
