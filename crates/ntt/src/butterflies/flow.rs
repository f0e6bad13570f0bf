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

/// The layers of a `2^r`-point network in execution order, as spans `h` (butterfly partner
/// distance) relative to a unit.
#[inline(always)]
pub(crate) fn layer_order(flow: Flow, r: usize, i: usize) -> usize {
    match flow {
        Flow::Dif => r - 1 - i,
        Flow::Dit => i,
    }
}
