//! Single-threaded butterfly kernels, entered through runtime dispatch (see
//! `aurum_goldilocks::dispatch`): everything here is `#[inline(always)]` so that it is
//! compiled for the dispatched backend.
//!
//! Two vectorisations:
//! * **across columns** (`width ≥ 2`): a butterfly combines two rows; lanes run along the
//!   row, so a row pair is `width / WIDTH` packed butterflies with one broadcast twiddle
//!   (plus a scalar tail for the last `width % WIDTH` columns);
//! * **along the column** (`width = 1`): lanes hold consecutive elements, so layers with a
//!   span of at least `WIDTH` load their twiddles as vectors, and the `log2(WIDTH)` layers
//!   with smaller spans are done on pairs of vectors with `PackedField::interleave`
//!   (a 2×2 block transpose that brings the butterfly partners into matching lanes).
//!
//! Flows: DIF (decimation in frequency) takes natural order to bit-reversed order, running
//! its layers from the largest span down; DIT takes bit-reversed to natural, smallest span
//! first. An optional `scale` is folded into the first layer executed (for `1/n` and
//! similar), costing one multiplication per butterfly instead of a pass over memory.

use aurum_goldilocks::{Goldilocks, Kernel, PackedField};

use crate::stack_frame::{in_own_frame, step};
use crate::twiddles::Twiddles;

/// Which butterfly network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Decimation in frequency: natural in, bit-reversed out; `(a, b) → (a + b, (a − b)·w)`.
    Dif,
    /// Decimation in time: bit-reversed in, natural out; `(a, b) → (a + b·w, a − b·w)`.
    Dit,
}

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

    /// `c·s^k`.
    #[inline(always)]
    fn factor(&self, k: usize) -> Goldilocks {
        self.lo[k & ((1 << self.log_lo) - 1)] * self.hi[k >> self.log_lo]
    }

    /// Multiplies row `j` of `dst` (whole rows, the first being row `row0` of the matrix) by
    /// `c·s^j`.
    #[inline(always)]
    fn scale_rows<Q: PackedField>(&self, dst: &mut [Goldilocks], width: usize, row0: usize) {
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

/// One butterfly with twiddle `tw` (and, in a scaled layer, the extra factor `scale` already
/// multiplied into `tw` for the DIT flow and applied to the sum in the DIF flow).
#[inline(always)]
fn butterfly<Q: PackedField>(flow: Flow, x: &mut Q, y: &mut Q, tw: Q) {
    let (a, b) = (*x, *y);
    match flow {
        Flow::Dif => {
            *x = a + b;
            *y = (a - b) * tw;
        }
        Flow::Dit => {
            let t = b * tw;
            *x = a + t;
            *y = a - t;
        }
    }
}

/// A butterfly whose twiddle is one.
#[inline(always)]
fn butterfly_one<Q: PackedField>(x: &mut Q, y: &mut Q) {
    let (a, b) = (*x, *y);
    *x = a + b;
    *y = a - b;
}

/// A butterfly in the scaled (first) layer: the result is `scale ×` the plain butterfly's;
/// `tw_scaled = tw · scale`.
#[inline(always)]
fn butterfly_scaled<Q: PackedField>(flow: Flow, x: &mut Q, y: &mut Q, tw_scaled: Q, scale: Q) {
    let (a, b) = (*x, *y);
    match flow {
        Flow::Dif => {
            *x = (a + b) * scale;
            *y = (a - b) * tw_scaled;
        }
        Flow::Dit => {
            let t = b * tw_scaled;
            let a = a * scale;
            *x = a + t;
            *y = a - t;
        }
    }
}

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
fn butterfly_row_runs<Q: PackedField>(
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

/// The layers of a `2^r`-point network in execution order, as spans `h` (butterfly partner
/// distance) relative to a unit.
#[inline(always)]
fn layer_order(flow: Flow, r: usize, i: usize) -> usize {
    match flow {
        Flow::Dif => r - 1 - i,
        Flow::Dit => i,
    }
}

/// A full transform of every contiguous block of `2^log_block` rows in `values`.
#[derive(Debug)]
pub(crate) struct BlockPass<'a> {
    pub values: &'a mut [Goldilocks],
    pub width: usize,
    pub log_block: usize,
    pub twiddles: &'a Twiddles,
    pub flow: Flow,
    pub scale: Option<Goldilocks>,
    /// Load the blocks from here first; `values` starts at row `row0` of the matrix.
    pub source: Option<Source<'a>>,
    pub row0: usize,
}

impl Kernel for BlockPass<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let block_len = self.width << self.log_block;
        for (k, block) in self.values.chunks_exact_mut(block_len).enumerate() {
            if let Some(source) = &self.source {
                source.load_rows::<P>(block, self.width, self.row0 + (k << self.log_block), 0);
            }
            if self.width == 1 && block.len() < 2 * P::WIDTH {
                transform_block::<Goldilocks>(
                    block,
                    1,
                    self.log_block,
                    self.twiddles,
                    self.flow,
                    self.scale,
                );
            } else {
                transform_block::<P>(
                    block,
                    self.width,
                    self.log_block,
                    self.twiddles,
                    self.flow,
                    self.scale,
                );
            }
        }
    }
}

/// Elements of a sub-block that stays in L1 (16 KiB, leaving room for twiddles).
const L1_ELEMS: usize = 1 << 11;

/// All `log_block` layers of one contiguous block (`2^log_block` rows). Layers with spans of
/// at least an L1-sized sub-block sweep the whole block; the rest run sub-block by sub-block
/// so that they never leave L1. For a single column, the `log2(WIDTH)` smallest spans are
/// fused into one pass over vector pairs.
#[inline(always)]
fn transform_block<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    log_block: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    if log_block == 0 {
        if let Some(s) = scale {
            scale_in_place::<Q>(block, s);
        }
        return;
    }
    let log_small = if width == 1 {
        (Q::WIDTH.trailing_zeros() as usize).min(log_block)
    } else {
        0
    };
    let log_sub = ((L1_ELEMS / width).max(1).ilog2() as usize).clamp(log_small.max(1), log_block);
    let mut scale = scale;
    match flow {
        Flow::Dif => {
            if log_sub < log_block {
                layers_in_own_frame::<Q>(
                    block,
                    width,
                    log_sub,
                    log_block,
                    twiddles,
                    flow,
                    scale.take(),
                );
            }
            for sub in block.chunks_exact_mut(width << log_sub) {
                let mut s = scale;
                if log_small < log_sub {
                    layers_in_own_frame::<Q>(
                        sub,
                        width,
                        log_small,
                        log_sub,
                        twiddles,
                        flow,
                        s.take(),
                    );
                }
                if log_small > 0 {
                    small_span_layers::<Q>(sub, log_small, twiddles, flow, s.take());
                }
            }
        }
        Flow::Dit => {
            for sub in block.chunks_exact_mut(width << log_sub) {
                let mut s = scale;
                if log_small > 0 {
                    small_span_layers::<Q>(sub, log_small, twiddles, flow, s.take());
                }
                if log_small < log_sub {
                    layers_in_own_frame::<Q>(
                        sub,
                        width,
                        log_small,
                        log_sub,
                        twiddles,
                        flow,
                        s.take(),
                    );
                }
            }
            if log_sub < log_block {
                layers_in_own_frame::<Q>(block, width, log_sub, log_block, twiddles, flow, None);
            }
        }
    }
}

/// [`layers`] entered through `Q`'s backend entry point, so in a stack frame of its own.
///
/// Optimised, this costs one call per sub-block. Unoptimised (a dependent's `dev` or `test`
/// build), every inlined copy of a butterfly keeps its own stack slots, and the radix-4 and
/// radix-2 layers that `transform_block` would otherwise inline four times for each flow add
/// up to megabytes of frame on AVX-512 — more than a rayon thread's 2 MiB stack. Here only
/// one copy's frame is on the stack at a time.
#[inline(always)]
fn layers_in_own_frame<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    lo: usize,
    hi: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    in_own_frame::<Q, Layers, _>((block, width, lo, hi, twiddles, flow, scale));
}

step!(
    /// [`layers`], as a step run in a frame of its own.
    Layers: for<'a> layers(
        block: &'a mut [Goldilocks],
        width: usize,
        lo: usize,
        hi: usize,
        twiddles: &'a Twiddles,
        flow: Flow,
        scale: Option<Goldilocks>,
    )
);

/// The layers with spans `2^lo … 2^(hi−1)` over a block of whole butterfly groups, in flow
/// order, fused two at a time into radix-4 steps (half the loads and stores of radix-2). A
/// scaled first layer runs alone.
#[inline(always)]
fn layers<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    lo: usize,
    hi: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    let (mut lo, mut hi) = (lo, hi);
    if scale.is_some() && lo < hi {
        let first = match flow {
            Flow::Dif => {
                hi -= 1;
                hi
            }
            Flow::Dit => {
                lo += 1;
                lo - 1
            }
        };
        layer_in_own_frame::<Q>(block, width, first, twiddles, flow, scale);
    }
    while hi - lo >= 2 {
        let inner = match flow {
            Flow::Dif => {
                hi -= 2;
                hi
            }
            Flow::Dit => {
                lo += 2;
                lo - 2
            }
        };
        in_own_frame::<Q, Radix4Layer, _>((&mut *block, width, inner, twiddles, flow));
    }
    if hi > lo {
        layer_in_own_frame::<Q>(block, width, lo, twiddles, flow, None);
    }
}

/// [`layer`] in a stack frame of its own (see [`layers_in_own_frame`]): unoptimised, the
/// radix-2 and radix-4 layers with their row-width variants would otherwise all share the
/// frame of [`layers`].
#[inline(always)]
fn layer_in_own_frame<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    log_span: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
) {
    in_own_frame::<Q, Radix2Layer, _>((block, width, log_span, twiddles, flow, scale));
}

step!(
    /// [`layer`], as a step run in a frame of its own.
    Radix2Layer: for<'a> layer(
        block: &'a mut [Goldilocks],
        width: usize,
        log_span: usize,
        twiddles: &'a Twiddles,
        flow: Flow,
        scale: Option<Goldilocks>,
    )
);

step!(
    /// [`radix4_layer`], as a step run in a frame of its own (as [`Radix2Layer`]).
    Radix4Layer: for<'a> radix4_layer(
        block: &'a mut [Goldilocks],
        width: usize,
        log_h: usize,
        twiddles: &'a Twiddles,
        flow: Flow,
    )
);

/// The two layers with spans `2h` and `h = 2^log_h` as one radix-4 step over groups of
/// `4h` rows: rows `t, t+h, t+2h, t+3h` are combined by the span-`2h` butterflies
/// `(t, t+2h)`, `(t+h, t+3h)` and the span-`h` butterflies `(t, t+h)`, `(t+2h, t+3h)`.
#[inline(always)]
fn radix4_layer<Q: PackedField>(
    block: &mut [Goldilocks],
    width: usize,
    log_h: usize,
    twiddles: &Twiddles,
    flow: Flow,
) {
    let h = 1usize << log_h;
    let tw = [
        &twiddles.level(log_h + 2)[..h],
        &twiddles.cubes(log_h + 2)[..h],
        &twiddles.level(log_h + 1)[..h],
    ];
    let negated = twiddles.quarter_negated();
    for quad in block.chunks_exact_mut(4 * h * width) {
        let (x0, rest) = quad.split_at_mut(h * width);
        let (x1, rest) = rest.split_at_mut(h * width);
        let (x2, x3) = rest.split_at_mut(h * width);
        radix4_row_runs::<Q>(flow, [x0, x1, x2, x3], width, tw, negated, 0);
    }
}

/// Radix-4 steps on four runs of consecutive rows (row `b` of each run has twiddle index
/// `first_t + b`), with the twiddle slices `[wa, wac, wc]` starting at `first_t`: lanes along
/// the column for one column, fixed-size rows for rows of 1, 2 or 4 vectors (where a general
/// row loop's slicing would cost as much as the arithmetic), row by row otherwise.
#[inline(always)]
fn radix4_row_runs<Q: PackedField>(
    flow: Flow,
    x: [&mut [Goldilocks]; 4],
    width: usize,
    tw: [&[Goldilocks]; 3],
    negated: bool,
    first_t: usize,
) {
    if width == 1 {
        radix4_runs::<Q>(flow, x, tw, negated);
    } else if width == Q::WIDTH {
        radix4_fixed_rows::<Q, 1>(flow, x, tw, negated, first_t);
    } else if width == 2 * Q::WIDTH {
        radix4_fixed_rows::<Q, 2>(flow, x, tw, negated, first_t);
    } else if width == 4 * Q::WIDTH {
        radix4_fixed_rows::<Q, 4>(flow, x, tw, negated, first_t);
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
            radix4_rows::<Q>(flow, rows, tw.map(|w| w[b]), negated, t == 0);
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
fn radix4_rows<Q: PackedField>(
    flow: Flow,
    rows: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [Goldilocks; 3],
    negated: bool,
    trivial: bool,
) {
    let [r0, r1, r2, r3] = rows;
    let (p0, s0) = Q::pack_slice_with_suffix_mut(r0);
    let (p1, s1) = Q::pack_slice_with_suffix_mut(r1);
    let (p2, s2) = Q::pack_slice_with_suffix_mut(r2);
    let (p3, s3) = Q::pack_slice_with_suffix_mut(r3);
    let (wa_p, wac_p, wc_p) = (Q::broadcast(wa), Q::broadcast(wac), Q::broadcast(wc));
    for (((a, b), c), d) in p0.iter_mut().zip(p1).zip(p2).zip(p3) {
        radix4(flow, [a, b, c, d], wa_p, wac_p, wc_p, negated, trivial);
    }
    for (((a, b), c), d) in s0.iter_mut().zip(s1).zip(s2).zip(s3) {
        radix4(flow, [a, b, c, d], wa, wac, wc, negated, trivial);
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
fn radix4_runs<Q: PackedField>(
    flow: Flow,
    runs: [&mut [Goldilocks]; 4],
    [wa, wac, wc]: [&[Goldilocks]; 3],
    negated: bool,
) {
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
        radix4(flow, [a, b, c, d], *ta, *tac, *tc, negated, false);
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
        radix4(flow, [a, b, c, d], *ta, *tac, *tc, negated, false);
    }
}

/// One radix-2 layer with span `2^log_span` over a block of whole butterfly groups.
#[inline(always)]
fn layer<Q: PackedField>(
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

/// `dst = src · s`, element by element.
#[inline(always)]
fn scaled_copy<P: PackedField>(dst: &mut [Goldilocks], src: &[Goldilocks], s: Goldilocks) {
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

/// The layers with spans `1, 2, …, 2^(count−1)` (all `< WIDTH`) on each pair of vectors:
/// `interleave(…, span)` moves the partners of each butterfly into the same lane of two
/// vectors, the butterfly runs on whole vectors, and the same interleave moves them back.
#[inline(always)]
fn small_span_layers<Q: PackedField>(
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

/// `r` consecutive layers over `2^r` stripes: `stripes[i]` holds `rows` consecutive rows
/// starting at row `t0` of the i-th of `2^r` stripes of `unit` rows each (consecutive stripes
/// are `unit` rows apart in the matrix). The layers are those with spans
/// `unit, 2·unit, …, 2^(r−1)·unit`; a butterfly pairs the same row of stripes `i` and `i + d`.
/// A stripe row may be a column range of the matrix row (`width` is the range's length):
/// columns never interact.
#[derive(Debug)]
pub(crate) struct StripePass<'a> {
    pub stripes: Vec<&'a mut [Goldilocks]>,
    pub layers: StripeLayers<'a>,
    pub scale: Option<Goldilocks>,
    /// Load the stripes from here first; stripe 0's run starts at row `row0` of the matrix.
    pub source: Option<Source<'a>>,
    pub row0: usize,
    /// The first matrix column the stripe rows hold.
    pub col0: usize,
}

/// The geometry and twiddles of a stripe pass's layers (everything but the stripes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StripeLayers<'a> {
    pub width: usize,
    pub rows: usize,
    pub t0: usize,
    pub log_unit: usize,
    pub twiddles: &'a Twiddles,
    pub flow: Flow,
}

impl Kernel for StripePass<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(mut self) {
        if let Some(source) = self.source {
            let unit = 1usize << self.layers.log_unit;
            for (i, stripe) in self.stripes.iter_mut().enumerate() {
                source.load_rows::<P>(stripe, self.layers.width, self.row0 + i * unit, self.col0);
            }
        }
        self.layers.run::<P>(&mut self.stripes, self.scale);
    }
}

/// Four distinct stripes `i[0] < i[1] < i[2] < i[3]`, mutably.
#[inline(always)]
fn four_mut<'b>(stripes: &'b mut [&mut [Goldilocks]], i: [usize; 4]) -> [&'b mut [Goldilocks]; 4] {
    let (a, rest) = stripes.split_at_mut(i[1]);
    let (b, rest) = rest.split_at_mut(i[2] - i[1]);
    let (c, d) = rest.split_at_mut(i[3] - i[2]);
    [&mut *a[i[0]], &mut *b[0], &mut *c[0], &mut *d[0]]
}

impl StripeLayers<'_> {
    /// All `r = log2(stripes.len())` layers, in flow order, the first scaled by `scale`.
    #[inline(always)]
    pub(crate) fn run<P: PackedField>(
        &self,
        stripes: &mut [&mut [Goldilocks]],
        scale: Option<Goldilocks>,
    ) {
        let r = stripes.len().trailing_zeros() as usize;
        // Stripe distances 2^lo … 2^(hi−1) remain; same pairing as `layers`.
        let (mut lo, mut hi) = (0, r);
        if scale.is_some() && r > 0 {
            let first = match self.flow {
                Flow::Dif => {
                    hi -= 1;
                    hi
                }
                Flow::Dit => {
                    lo += 1;
                    lo - 1
                }
            };
            self.radix2_in_own_frame::<P>(stripes, first, scale);
        }
        while hi - lo >= 2 {
            let inner = match self.flow {
                Flow::Dif => {
                    hi -= 2;
                    hi
                }
                Flow::Dit => {
                    lo += 2;
                    lo - 2
                }
            };
            in_own_frame::<P, StripeRadix4, _>((self, &mut *stripes, inner));
        }
        if hi > lo {
            self.radix2_in_own_frame::<P>(stripes, lo, None);
        }
    }

    /// [`Self::radix2`] in a stack frame of its own. Unoptimised (a dependent's `dev` build),
    /// the stripe layers of both flows with their row-width variants, inlined into one
    /// pass (twice in a fused LDE's [`FusedTopPass`]), needed more than a rayon thread's
    /// 2 MiB of stack; each layer (pair) in its own frame keeps one copy on the stack at a time,
    /// for one call per layer and task when optimised.
    #[inline(always)]
    fn radix2_in_own_frame<P: PackedField>(
        &self,
        stripes: &mut [&mut [Goldilocks]],
        log_d: usize,
        scale: Option<Goldilocks>,
    ) {
        in_own_frame::<P, StripeRadix2, _>((self, stripes, log_d, scale));
    }

    /// The layer pairing stripes `2^log_d` apart (span `2^log_d · unit` rows).
    #[inline(always)]
    fn radix2<P: PackedField>(
        &self,
        stripes: &mut [&mut [Goldilocks]],
        log_d: usize,
        scale: Option<Goldilocks>,
    ) {
        let d = 1usize << log_d;
        let unit = 1usize << self.log_unit;
        let width = self.width;
        let table = self.twiddles.level(self.log_unit + log_d + 1);
        for group in (0..stripes.len()).step_by(2 * d) {
            for k in 0..d {
                let (left, right) = stripes.split_at_mut(group + k + d);
                let lo = &mut *left[group + k];
                let hi = &mut *right[0];
                // Row b of stripe (group + k) sits at offset k·unit + t0 + b of its
                // butterfly group.
                let t_base = k * unit + self.t0;
                let tws = &table[t_base..t_base + self.rows];
                butterfly_row_runs::<P>(self.flow, lo, hi, width, tws, t_base, scale);
            }
        }
    }

    /// The layers pairing stripes `2·2^log_d` and `2^log_d` apart, fused (see `radix4_layer`).
    #[inline(always)]
    fn radix4<P: PackedField>(&self, stripes: &mut [&mut [Goldilocks]], log_d: usize) {
        let d = 1usize << log_d;
        let unit = 1usize << self.log_unit;
        let (width, rows, t0) = (self.width, self.rows, self.t0);
        let level = self.log_unit + log_d + 2;
        let tw = [
            self.twiddles.level(level),
            self.twiddles.cubes(level),
            self.twiddles.level(level - 1),
        ];
        let negated = self.twiddles.quarter_negated();
        for group in (0..stripes.len()).step_by(4 * d) {
            for k in 0..d {
                let i = group + k;
                let x = four_mut(stripes, [i, i + d, i + 2 * d, i + 3 * d]);
                let ta = k * unit + t0;
                let tw = tw.map(|w| &w[ta..ta + rows]);
                radix4_row_runs::<P>(self.flow, x, width, tw, negated, ta);
            }
        }
    }
}

step!(
    /// [`StripeLayers::radix2`], as a step run in a frame of its own.
    StripeRadix2: for<'a, 'b, 'c> StripeLayers::radix2(
        layers: &'a StripeLayers<'b>,
        stripes: &'a mut [&'c mut [Goldilocks]],
        log_d: usize,
        scale: Option<Goldilocks>,
    )
);

step!(
    /// [`StripeLayers::radix4`], as a step run in a frame of its own.
    StripeRadix4: for<'a, 'b, 'c> StripeLayers::radix4(
        layers: &'a StripeLayers<'b>,
        stripes: &'a mut [&'c mut [Goldilocks]],
        log_d: usize,
    )
);

/// The middle of a fused coset LDE, for one stripe task: the top layers of the inverse (DIT)
/// on the coefficient block's stripes, then for every coset block its scaled copy of them and
/// the top layers of its forward transform (DIF). The coefficient rows are read from memory
/// once and stay in cache while every coset is computed from them; the coefficient block
/// itself is scaled and transformed in place last.
#[derive(Debug)]
pub(crate) struct FusedTopPass<'a> {
    /// The task's stripes of the coefficient block (which ends as the last coset's block).
    pub coefficients: Vec<&'a mut [Goldilocks]>,
    /// The same stripes of every other block, with that block's coset scaling.
    pub cosets: Vec<(Vec<&'a mut [Goldilocks]>, &'a Powers)>,
    /// The coefficient block's own coset scaling.
    pub last_powers: &'a Powers,
    /// The inverse's layers (flow DIT, inverse twiddles).
    pub inverse: StripeLayers<'a>,
    /// The forward layers (flow DIF, forward twiddles), same geometry.
    pub forward: StripeLayers<'a>,
    pub row0: usize,
}

impl Kernel for FusedTopPass<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(mut self) {
        let width = self.inverse.width;
        let unit = 1usize << self.inverse.log_unit;
        self.inverse.run::<P>(&mut self.coefficients, None);
        for (stripes, powers) in &mut self.cosets {
            for (i, (dst, src)) in stripes.iter_mut().zip(&self.coefficients).enumerate() {
                dst.copy_from_slice(src);
                powers.scale_rows::<P>(dst, width, self.row0 + i * unit);
            }
            self.forward.run::<P>(stripes, None);
        }
        for (i, stripe) in self.coefficients.iter_mut().enumerate() {
            self.last_powers
                .scale_rows::<P>(stripe, width, self.row0 + i * unit);
        }
        self.forward.run::<P>(&mut self.coefficients, None);
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
