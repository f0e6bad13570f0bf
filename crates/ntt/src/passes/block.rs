//! The block pass kernel ([`BlockPass`]): whole transforms of contiguous blocks of rows, the
//! layers with the smallest spans, run in L1-sized sub-blocks.

use aurum_goldilocks::{Goldilocks, Kernel, PackedField};

use crate::butterflies::flow::{Flow, static_flow};
use crate::butterflies::radix2::{layer, small_span_layers};
use crate::butterflies::radix4::{Shape, radix4_layer, with_shape};
use crate::scaling::scale_in_place;
use crate::source::Source;
use crate::stack_frame::{in_own_frame, step};
use crate::twiddles::Twiddles;

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
    let mut log_sub =
        ((L1_ELEMS / width).max(1).ilog2() as usize).clamp(log_small.max(1), log_block);
    // Both sweeps take their layers two at a time (radix-4): when the layers above the small
    // spans are even in number, an odd split would leave a radix-2 layer in each.
    if log_sub < log_block
        && (log_block - log_small).is_multiple_of(2)
        && !(log_sub - log_small).is_multiple_of(2)
        && log_sub > log_small.max(1)
    {
        log_sub -= 1;
    }
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
        let negated = twiddles.quarter_negated();
        with_shape!(Q, width, |S| static_flow!(
            flow,
            negated,
            Radix4Layer::<Q, S>(&mut *block, width, inner, twiddles)
        ));
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
    /// [`radix4_layer`], as a step run in a frame of its own (as [`Radix2Layer`]), with the
    /// flow, the sign of `ω₄` and the row shape fixed.
    Radix4Layer<const DIF: bool, const NEG: bool; S: Shape>: for<'a> radix4_layer(
        block: &'a mut [Goldilocks],
        width: usize,
        log_h: usize,
        twiddles: &'a Twiddles,
    )
);
