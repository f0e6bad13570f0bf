//! Bulk kernels over slices: runtime-dispatched to the best backend, rayon-parallel for large
//! inputs. They are the reference use of the pattern described in the
//! [`dispatch` module](mod@crate::dispatch): each is a [`Kernel`] (single-threaded, `#[inline(always)]`), and the public function splits
//! the input with rayon and dispatches once per chunk.

use rayon::prelude::*;

use crate::batch_inverse::batch_inverse_generic;
use crate::dispatch::dispatch;
pub use crate::error::{LengthMismatch, ZeroElement};
use crate::field::Goldilocks;
use crate::packed::{Kernel, PackedField};

/// Below this many elements a kernel runs on the calling thread.
pub const PARALLEL_THRESHOLD: usize = 1 << 15;
/// Elements per rayon task (a multiple of every backend's width).
const CHUNK: usize = 1 << 13;

fn check_len(what: &'static str, left: usize, right: usize) -> Result<(), LengthMismatch> {
    if left == right {
        Ok(())
    } else {
        Err(LengthMismatch { what, left, right })
    }
}

/// An elementwise binary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `a + b`
    Add,
    /// `a − b`
    Sub,
    /// `a · b`
    Mul,
}

/// `out[i] = a[i] op b[i]` on one thread (see [`elementwise`] for the parallel entry point).
#[derive(Debug)]
pub struct Elementwise<'a> {
    op: BinaryOp,
    out: &'a mut [Goldilocks],
    a: &'a [Goldilocks],
    b: &'a [Goldilocks],
}

impl<'a> Elementwise<'a> {
    /// Checks that the three slices have one length.
    pub fn new(
        op: BinaryOp,
        out: &'a mut [Goldilocks],
        a: &'a [Goldilocks],
        b: &'a [Goldilocks],
    ) -> Result<Self, LengthMismatch> {
        check_len("elementwise (out, a)", out.len(), a.len())?;
        check_len("elementwise (out, b)", out.len(), b.len())?;
        Ok(Self { op, out, a, b })
    }
}

/// Applies `$op` to packed and scalar parts alike; a macro rather than a closure so that the
/// loop body is inlined into the backend's `#[target_feature]` entry point for certain.
macro_rules! zip_apply {
    ($out:expr, $a:expr, $b:expr, $op:tt) => {
        for ((o, x), y) in $out.iter_mut().zip($a).zip($b) {
            *o = *x $op *y;
        }
    };
}

impl Kernel for Elementwise<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let (out_p, out_s) = P::pack_slice_with_suffix_mut(self.out);
        let (a_p, a_s) = P::pack_slice_with_suffix(self.a);
        let (b_p, b_s) = P::pack_slice_with_suffix(self.b);
        match self.op {
            BinaryOp::Add => {
                zip_apply!(out_p, a_p, b_p, +);
                zip_apply!(out_s, a_s, b_s, +);
            }
            BinaryOp::Sub => {
                zip_apply!(out_p, a_p, b_p, -);
                zip_apply!(out_s, a_s, b_s, -);
            }
            BinaryOp::Mul => {
                zip_apply!(out_p, a_p, b_p, *);
                zip_apply!(out_s, a_s, b_s, *);
            }
        }
    }
}

/// `out[i] = a[i] op b[i]`, parallel above [`PARALLEL_THRESHOLD`].
pub fn elementwise(
    op: BinaryOp,
    out: &mut [Goldilocks],
    a: &[Goldilocks],
    b: &[Goldilocks],
) -> Result<(), LengthMismatch> {
    let kernel = Elementwise::new(op, out, a, b)?;
    let run = |kernel: Elementwise<'_>| {
        // SVE has its own element-wise loops (see `Backend::Sve`).
        let ran_on_sve = crate::backend() == crate::Backend::Sve && {
            let sve_op = match op {
                BinaryOp::Add => aurum_sve::Op::Add,
                BinaryOp::Sub => aurum_sve::Op::Sub,
                BinaryOp::Mul => aurum_sve::Op::Mul,
            };
            aurum_sve::elementwise(
                sve_op,
                crate::raw::words(kernel.a),
                crate::raw::words(kernel.b),
                crate::raw::words_mut(kernel.out),
            )
        };
        if !ran_on_sve {
            dispatch(kernel);
        }
    };
    if kernel.out.len() < PARALLEL_THRESHOLD {
        run(kernel);
        return Ok(());
    }
    kernel
        .out
        .par_chunks_mut(CHUNK)
        .zip(kernel.a.par_chunks(CHUNK))
        .zip(kernel.b.par_chunks(CHUNK))
        .for_each(|((out, a), b)| run(Elementwise { op, out, a, b }));
    Ok(())
}

/// `out[i] = a[i] + b[i]`.
pub fn add_slices(
    out: &mut [Goldilocks],
    a: &[Goldilocks],
    b: &[Goldilocks],
) -> Result<(), LengthMismatch> {
    elementwise(BinaryOp::Add, out, a, b)
}

/// `out[i] = a[i] − b[i]`.
pub fn sub_slices(
    out: &mut [Goldilocks],
    a: &[Goldilocks],
    b: &[Goldilocks],
) -> Result<(), LengthMismatch> {
    elementwise(BinaryOp::Sub, out, a, b)
}

/// `out[i] = a[i] · b[i]`.
pub fn mul_slices(
    out: &mut [Goldilocks],
    a: &[Goldilocks],
    b: &[Goldilocks],
) -> Result<(), LengthMismatch> {
    elementwise(BinaryOp::Mul, out, a, b)
}

/// `values[i] *= c` on one thread.
#[derive(Debug)]
pub struct Scale<'a> {
    /// The values to scale in place.
    pub values: &'a mut [Goldilocks],
    /// The factor.
    pub factor: Goldilocks,
}

impl Kernel for Scale<'_> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let (packed, suffix) = P::pack_slice_with_suffix_mut(self.values);
        let c = P::broadcast(self.factor);
        for x in packed {
            *x *= c;
        }
        for x in suffix {
            *x *= self.factor;
        }
    }
}

/// `values[i] *= factor`, parallel above [`PARALLEL_THRESHOLD`].
pub fn scale_slice(values: &mut [Goldilocks], factor: Goldilocks) {
    if values.len() < PARALLEL_THRESHOLD {
        dispatch(Scale { values, factor });
    } else {
        values
            .par_chunks_mut(CHUNK)
            .for_each(|values| dispatch(Scale { values, factor }));
    }
}

/// `Σ a[i]·b[i]` on one thread.
#[derive(Debug)]
pub struct DotProduct<'a> {
    a: &'a [Goldilocks],
    b: &'a [Goldilocks],
}

impl<'a> DotProduct<'a> {
    /// Checks that both slices have one length.
    pub fn new(a: &'a [Goldilocks], b: &'a [Goldilocks]) -> Result<Self, LengthMismatch> {
        check_len("dot_product", a.len(), b.len())?;
        Ok(Self { a, b })
    }
}

impl Kernel for DotProduct<'_> {
    type Output = Goldilocks;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Goldilocks {
        if P::WIDTH == 1 {
            // Scalar: accumulate unreduced 128-bit products, reduce once.
            return Goldilocks::dot_product(self.a, self.b);
        }
        let (a_p, a_s) = P::pack_slice_with_suffix(self.a);
        let (b_p, b_s) = P::pack_slice_with_suffix(self.b);
        // Four independent accumulators hide the latency of the packed add.
        let mut acc = [P::ZERO; 4];
        let mut a_chunks = a_p.chunks_exact(4);
        let mut b_chunks = b_p.chunks_exact(4);
        for (x, y) in (&mut a_chunks).zip(&mut b_chunks) {
            for j in 0..4 {
                acc[j] += x[j] * y[j];
            }
        }
        for (x, y) in a_chunks.remainder().iter().zip(b_chunks.remainder()) {
            acc[0] += *x * *y;
        }
        let total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        total.sum_lanes() + Goldilocks::dot_product(a_s, b_s)
    }
}

/// `Σ a[i]·b[i]`, parallel above [`PARALLEL_THRESHOLD`].
pub fn dot_product(a: &[Goldilocks], b: &[Goldilocks]) -> Result<Goldilocks, LengthMismatch> {
    let kernel = DotProduct::new(a, b)?;
    if a.len() < PARALLEL_THRESHOLD {
        return Ok(dispatch(kernel));
    }
    Ok(a.par_chunks(CHUNK)
        .zip(b.par_chunks(CHUNK))
        .map(|(a, b)| dispatch(DotProduct { a, b }))
        .sum())
}

/// `Σ values[i]` on one thread.
#[derive(Debug)]
pub struct SumKernel<'a> {
    /// The values to add up.
    pub values: &'a [Goldilocks],
}

impl Kernel for SumKernel<'_> {
    type Output = Goldilocks;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Goldilocks {
        let (packed, suffix) = P::pack_slice_with_suffix(self.values);
        let mut acc = [P::ZERO; 4];
        let mut chunks = packed.chunks_exact(4);
        for x in &mut chunks {
            for j in 0..4 {
                acc[j] += x[j];
            }
        }
        for x in chunks.remainder() {
            acc[0] += *x;
        }
        let total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        total.sum_lanes() + suffix.iter().copied().sum::<Goldilocks>()
    }
}

/// `Σ values[i]`, parallel above [`PARALLEL_THRESHOLD`].
pub fn sum(values: &[Goldilocks]) -> Goldilocks {
    if values.len() < PARALLEL_THRESHOLD {
        dispatch(SumKernel { values })
    } else {
        values
            .par_chunks(CHUNK)
            .map(|values| dispatch(SumKernel { values }))
            .sum()
    }
}

/// In-place batch inversion on one thread: Montgomery's trick, run as [`CHAINS`] independent
/// chains of packed vectors (vector `i` belongs to chain `i mod CHAINS`, element `j` of it to
/// lane `j`). Independent chains let the multiplications overlap instead of each waiting
/// for the previous one's latency; only the `CHAINS · WIDTH` chain products need inverting,
/// which a small scalar batch inversion does.
#[derive(Debug)]
pub struct BatchInverse<'a> {
    /// The values to invert in place.
    pub values: &'a mut [Goldilocks],
}

/// Independent Montgomery chains in [`BatchInverse`] (enough to cover a packed
/// multiplication's latency with its throughput on AVX-512).
pub const CHAINS: usize = 8;

impl Kernel for BatchInverse<'_> {
    type Output = Result<(), ZeroElement>;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Result<(), ZeroElement> {
        if let Some(index) = self.values.iter().position(|x| x.is_zero()) {
            return Err(ZeroElement { index });
        }
        let (packed, suffix) = P::pack_slice_with_suffix_mut(self.values);
        invert_in_chains(packed);
        batch_inverse_generic(suffix)
    }
}

/// Montgomery's trick over [`CHAINS`] interleaved chains of non-zero packed values.
#[inline(always)]
fn invert_in_chains<P: PackedField>(packed: &mut [P]) {
    let n = packed.len();
    if n == 0 {
        return;
    }
    // prefix[i] = product of the earlier vectors of i's chain.
    let mut prefix = vec![P::ONE; n];
    let mut acc = [P::ONE; CHAINS];
    for (block, pre) in packed.chunks(CHAINS).zip(prefix.chunks_mut(CHAINS)) {
        pre.copy_from_slice(&acc[..block.len()]);
        for (a, x) in acc.iter_mut().zip(block) {
            *a *= *x;
        }
    }
    // Invert the CHAINS · WIDTH lane products together (none is zero: inputs are non-zero).
    let mut lanes: Vec<Goldilocks> = acc.iter().flat_map(|a| a.as_slice().to_vec()).collect();
    batch_inverse_generic(&mut lanes).expect("products of non-zero elements are non-zero");
    let mut inv = [P::ZERO; CHAINS];
    for (c, v) in inv.iter_mut().enumerate() {
        *v = P::load(&lanes[c * P::WIDTH..(c + 1) * P::WIDTH]);
    }
    // Walk back: each chain's vectors in reverse order.
    for (block, pre) in packed.chunks_mut(CHAINS).zip(prefix.chunks(CHAINS)).rev() {
        for c in 0..block.len() {
            let original = block[c];
            block[c] = inv[c] * pre[c];
            inv[c] *= original;
        }
    }
}

/// Replaces every element by its inverse; parallel above [`PARALLEL_THRESHOLD`]. On a zero
/// the slice is left unchanged and the first zero's index is reported.
pub fn batch_inverse(values: &mut [Goldilocks]) -> Result<(), ZeroElement> {
    if values.len() < PARALLEL_THRESHOLD {
        return dispatch(BatchInverse { values });
    }
    // Check first, so that no chunk is inverted when another holds a zero.
    if let Some(index) = values.par_iter().position_first(|x| x.is_zero()) {
        return Err(ZeroElement { index });
    }
    values
        .par_chunks_mut(CHUNK)
        .try_for_each(|values| dispatch(BatchInverse { values }))
}
