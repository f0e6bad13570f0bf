//! The butterfly arithmetic of the transforms, single-threaded: everything here is
//! `#[inline(always)]` so that it is compiled for the backend the pass kernels
//! (`crate::passes`) were dispatched to.
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

/// `[expression(i) for i < n]`, an array of `n` vectors built by a loop, for running `n`
/// independent butterflies operation by operation (see [`radix4::INTERLEAVE`]). A loop, not
/// `array::from_fn`: a closure handed to a generic function does not always inline into the
/// dispatched kernel, and compiled outside it (a build without `-C target-cpu`) its vector
/// operations would be calls.
macro_rules! each {
    ($n:expr, |$i:ident| $e:expr) => {{
        let mut out = [PackedField::ZERO; $n];
        for $i in 0..$n {
            out[$i] = $e;
        }
        out
    }};
}

pub(crate) mod flow;
pub(crate) mod radix2;
pub(crate) mod radix4;
