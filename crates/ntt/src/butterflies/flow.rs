//! The two butterfly networks ([`Flow`]) and their two-point butterflies.

use aurum_goldilocks::PackedField;

/// Which butterfly network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Decimation in frequency: natural in, bit-reversed out; `(a, b) → (a + b, (a − b)·w)`.
    Dif,
    /// Decimation in time: bit-reversed in, natural out; `(a, b) → (a + b·w, a − b·w)`.
    Dit,
}

/// One butterfly with twiddle `tw` (and, in a scaled layer, the extra factor `scale` already
/// multiplied into `tw` for the DIT flow and applied to the sum in the DIF flow).
#[inline(always)]
pub(crate) fn butterfly<Q: PackedField>(flow: Flow, x: &mut Q, y: &mut Q, tw: Q) {
    butterfly_n(flow, core::array::from_mut(x), core::array::from_mut(y), tw);
}

/// `N` independent [`butterfly`]s (element `i` of `x` and `y` one butterfly), every operation
/// issued for all of them before the next, so that their dependency chains interleave (see
/// [`INTERLEAVE`](crate::butterflies::radix4::INTERLEAVE)).
#[inline(always)]
pub(crate) fn butterfly_n<Q: PackedField, const N: usize>(
    flow: Flow,
    x: &mut [Q; N],
    y: &mut [Q; N],
    tw: Q,
) {
    let (a, b) = (*x, *y);
    match flow {
        Flow::Dif => {
            *x = each!(N, |i| a[i] + b[i]);
            *y = each!(N, |i| (a[i] - b[i]) * tw);
        }
        Flow::Dit => {
            let t = each!(N, |i| b[i] * tw);
            *x = each!(N, |i| a[i] + t[i]);
            *y = each!(N, |i| a[i] - t[i]);
        }
    }
}

/// `N` independent [`butterfly_scaled`]s, interleaved as in [`butterfly_n`].
#[inline(always)]
pub(crate) fn butterfly_scaled_n<Q: PackedField, const N: usize>(
    flow: Flow,
    x: &mut [Q; N],
    y: &mut [Q; N],
    tw_scaled: Q,
    scale: Q,
) {
    let (a, b) = (*x, *y);
    match flow {
        Flow::Dif => {
            *x = each!(N, |i| (a[i] + b[i]) * scale);
            *y = each!(N, |i| (a[i] - b[i]) * tw_scaled);
        }
        Flow::Dit => {
            let t = each!(N, |i| b[i] * tw_scaled);
            let a = each!(N, |i| a[i] * scale);
            *x = each!(N, |i| a[i] + t[i]);
            *y = each!(N, |i| a[i] - t[i]);
        }
    }
}

/// A butterfly whose twiddle is one.
#[inline(always)]
pub(crate) fn butterfly_one<Q: PackedField>(x: &mut Q, y: &mut Q) {
    let (a, b) = (*x, *y);
    *x = a + b;
    *y = a - b;
}

/// A butterfly in the scaled (first) layer: the result is `scale ×` the plain butterfly's;
/// `tw_scaled = tw · scale`.
#[inline(always)]
pub(crate) fn butterfly_scaled<Q: PackedField>(
    flow: Flow,
    x: &mut Q,
    y: &mut Q,
    tw_scaled: Q,
    scale: Q,
) {
    let (x, y) = (core::array::from_mut(x), core::array::from_mut(y));
    butterfly_scaled_n(flow, x, y, tw_scaled, scale);
}

/// The layers of a `2^r`-point network in execution order, as spans `h` (butterfly partner
/// distance) relative to a unit.
#[inline(always)]
pub(crate) fn layer_order(flow: Flow, r: usize, i: usize) -> usize {
    match flow {
        Flow::Dif => r - 1 - i,
        Flow::Dit => i,
    }
}

/// The flow a `DIF` constant names.
#[inline(always)]
pub(crate) const fn flow_of<const DIF: bool>() -> Flow {
    if DIF { Flow::Dif } else { Flow::Dit }
}

/// Runs the step `$step<DIF, NEG>` (declared with [`step!`](crate::stack_frame::step)) in a
/// stack frame of its own, with the flow and the sign of `ω₄` (a domain's
/// [`quarter_negated`](crate::twiddles::Twiddles::quarter_negated)) as its const parameters,
/// so that its loops compile without a branch on either. The frame matters unoptimised (see
/// [`crate::stack_frame`]): the four variants' inlined copies would otherwise share one.
macro_rules! static_flow {
    // `$shape`: a row shape (`radix4::Shape`), the step's type parameter after the const ones.
    ($flow:expr, $negated:expr, $step:ident::<$q:ty $(, $shape:ty)?>($($arg:expr),* $(,)?)) => {
        match ($flow, $negated) {
            (Flow::Dif, false) => $crate::stack_frame::in_own_frame::<
                $q,
                $step<true, false $(, $shape)?>,
                _,
            >(($($arg,)*)),
            (Flow::Dif, true) => $crate::stack_frame::in_own_frame::<
                $q,
                $step<true, true $(, $shape)?>,
                _,
            >(($($arg,)*)),
            (Flow::Dit, false) => $crate::stack_frame::in_own_frame::<
                $q,
                $step<false, false $(, $shape)?>,
                _,
            >(($($arg,)*)),
            (Flow::Dit, true) => $crate::stack_frame::in_own_frame::<
                $q,
                $step<false, true $(, $shape)?>,
                _,
            >(($($arg,)*)),
        }
    };
}

pub(crate) use static_flow;
