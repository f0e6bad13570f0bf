//! The stripe pass kernels: `r` layers over `2^r` strided stripes of a few rows
//! ([`StripePass`]), and the fused coset LDE's middle pass ([`FusedTopPass`]).

use aurum_goldilocks::{Goldilocks, Kernel, PackedField};

use crate::butterflies::flow::{Flow, static_flow};
use crate::butterflies::radix2::butterfly_row_runs;
use crate::butterflies::radix4::{Shape, with_shape};
use crate::scaling::Powers;
use crate::source::Source;
use crate::stack_frame::{in_own_frame, step};
use crate::twiddles::Twiddles;

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
            let negated = self.twiddles.quarter_negated();
            with_shape!(P, self.width, |S| static_flow!(
                self.flow,
                negated,
                StripeRadix4::<P, S>(self, &mut *stripes, inner)
            ));
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
    fn radix4<P: PackedField, const DIF: bool, const NEG: bool, S: Shape>(
        &self,
        stripes: &mut [&mut [Goldilocks]],
        log_d: usize,
    ) {
        let d = 1usize << log_d;
        let unit = 1usize << self.log_unit;
        let (width, rows, t0) = (self.width, self.rows, self.t0);
        let level = self.log_unit + log_d + 2;
        let tw = [
            self.twiddles.level(level),
            self.twiddles.cubes(level),
            self.twiddles.level(level - 1),
        ];
        for group in (0..stripes.len()).step_by(4 * d) {
            for k in 0..d {
                let i = group + k;
                let x = four_mut(stripes, [i, i + d, i + 2 * d, i + 3 * d]);
                let ta = k * unit + t0;
                let tw = tw.map(|w| &w[ta..ta + rows]);
                S::runs::<P, DIF, NEG>(x, width, tw, ta);
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
    /// [`StripeLayers::radix4`], as a step run in a frame of its own, with the flow, the
    /// sign of `ω₄` and the row shape fixed.
    StripeRadix4<const DIF: bool, const NEG: bool; S: Shape>: for<'a, 'b, 'c> StripeLayers::radix4(
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
                powers.scaled_copy_rows::<P>(dst, src, width, self.row0 + i * unit);
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
