//! Radix-2 butterflies over rows, runs of rows and single columns, one layer at a time, and the
//! layers with spans below the vector width on vector pairs.

use aurum_goldilocks::{Goldilocks, PackedField};

use crate::butterflies::flow::{Flow, butterfly, butterfly_one, butterfly_scaled, layer_order};
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
            for (x, y) in lo_p.iter_mut().zip(hi_p) {
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
            for (x, y) in lo_p.iter_mut().zip(hi_p) {
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
    for pair in block.chunks_exact_mut(2 * span * width) {
        let (lo, hi) = pair.split_at_mut(span * width);
        butterfly_row_runs::<Q>(flow, lo, hi, width, table, 0, scale);
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
    // Lane l of the first interleaved vector holds the element at offset l mod span within
    // its butterfly group, so its twiddle is table[l mod span].
    let twiddle_vectors: Vec<Q> = (0..count)
        .map(|log_span| {
            let table = twiddles.level(log_span + 1);
            Q::from_fn(|lane| table[lane % (1 << log_span)])
        })
        .collect();
    let scale_p = scale.map(Q::broadcast);
    let first_layer = match flow {
        Flow::Dif => count - 1,
        Flow::Dit => 0,
    };
    for pair in Q::pack_slice_mut(block).chunks_exact_mut(2) {
        let (mut a, mut b) = (pair[0], pair[1]);
        for i in 0..count {
            let log_span = layer_order(flow, count, i);
            let (mut x, mut y) = a.interleave(b, 1 << log_span);
            match scale_p {
                Some(s) if log_span == first_layer => {
                    butterfly_scaled(flow, &mut x, &mut y, twiddle_vectors[log_span] * s, s);
                }
                _ if log_span == 0 => butterfly_one(&mut x, &mut y),
                _ => butterfly(flow, &mut x, &mut y, twiddle_vectors[log_span]),
            }
            (a, b) = x.interleave(y, 1 << log_span);
        }
        pair[0] = a;
        pair[1] = b;
    }
}
