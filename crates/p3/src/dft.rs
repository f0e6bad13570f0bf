//! Plonky3's `TwoAdicSubgroupDft` over Goldilocks, computed by `aurum-ntt`.

use aurum_goldilocks::{Backend, Goldilocks as AurumGoldilocks};
use aurum_ntt::{ADDED_BITS, MAX_LOG_SIZE, Ntt, NttError, Order};
use p3_dft::TwoAdicSubgroupDft;
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_matrix::Matrix;
use p3_matrix::bitrev::{BitReversedMatrixView, BitReversibleMatrix};
use p3_matrix::dense::RowMajorMatrix;
use tracing::instrument;

use crate::convert::{cast_slice_mut, cast_vec, to_aurum};

/// What [`NttDft`]'s forward transforms and LDEs return: a row-major matrix stored in
/// bit-reversed row order, viewed in natural order — the type `Radix2DitParallel` returns, so
/// that the PCS's `bit_reverse_rows().to_row_major_matrix()` only unwraps it.
pub type Evaluations = BitReversedMatrixView<RowMajorMatrix<P3Goldilocks>>;

/// The drop-in for `p3_dft::Radix2DitParallel<Goldilocks>`: the same results, element for
/// element, from Aurum's batched NTT (packed butterflies on the SIMD backend detected at run
/// time, cache-sized passes, rayon).
///
/// Forward transforms (`dft_batch`, `coset_dft_batch`) and LDEs (`coset_lde_batch`,
/// `lde_batch`) leave their output in bit-reversed row order — what a radix-2 DIF produces
/// without a permutation — and return it behind a bit-reversal view, as `Radix2DitParallel`
/// does: a PCS that commits bit-reversed LDEs (`TwoAdicFriPcs`) takes the storage as it is.
/// Inverse transforms return natural order. LDEs reuse the input's allocation (Plonky3's
/// trace generators reserve the room for the blow-up).
///
/// The `try_*` methods report bad shapes as [`NttError`]s. The trait methods, which have no
/// error channel, panic on them with that error's message — where `Radix2DitParallel` panics
/// too: a height that is not a power of two (or is above `2^32`, the field's two-adicity), an
/// empty row, a zero coset shift.
#[derive(Clone, Copy, Debug, Default)]
pub struct NttDft {
    ntt: Ntt,
}

/// Reinterprets the matrix's storage for Aurum, runs `transform` on it, and hands the matrix
/// back (no copy either way).
fn in_place(
    mut mat: RowMajorMatrix<P3Goldilocks>,
    transform: impl FnOnce(&mut [AurumGoldilocks], usize) -> Result<(), NttError>,
) -> Result<RowMajorMatrix<P3Goldilocks>, NttError> {
    transform(cast_slice_mut(&mut mat.values), mat.width)?;
    Ok(mat)
}

/// The panic of the trait methods (see [`NttDft`]).
fn expect_shape<T>(result: Result<T, NttError>, method: &str) -> T {
    result.unwrap_or_else(|err| panic!("NttDft::{method}: {err}"))
}

impl NttDft {
    /// Plonky3's domains (root of unity `7^((p−1)/2^32)` and its powers), on the backend the
    /// process selects (`AURUM_BACKEND`, or the best this CPU has).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            ntt: Ntt::plonky3(),
        }
    }

    /// The same transforms pinned to one SIMD backend (tests and benchmarks compare them).
    ///
    /// # Errors
    /// [`NttError::Backend`] if this machine cannot run `backend`.
    pub fn with_backend(self, backend: Backend) -> Result<Self, NttError> {
        Ok(Self {
            ntt: self.ntt.with_backend(backend)?,
        })
    }

    /// [`TwoAdicSubgroupDft::dft_batch`]: coefficients (rows in natural order) to evaluations
    /// on the subgroup of order `height`.
    ///
    /// # Errors
    /// [`NttError`] for a height that is not a power of two up to `2^32`, or width 0.
    pub fn try_dft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
    ) -> Result<Evaluations, NttError> {
        let mat = in_place(mat, |v, w| self.ntt.forward(v, w, Order::BitReversed))?;
        Ok(mat.bit_reverse_rows())
    }

    /// [`TwoAdicSubgroupDft::coset_dft_batch`]: coefficients to evaluations on `shift · H`.
    ///
    /// # Errors
    /// As [`Self::try_dft_batch`], and [`NttError::ZeroShift`].
    pub fn try_coset_dft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        shift: P3Goldilocks,
    ) -> Result<Evaluations, NttError> {
        let shift = to_aurum(shift);
        let mat = in_place(mat, |v, w| {
            self.ntt.coset_forward(v, w, shift, Order::BitReversed)
        })?;
        Ok(mat.bit_reverse_rows())
    }

    /// [`TwoAdicSubgroupDft::idft_batch`]: evaluations on `H` (natural order) to coefficients.
    ///
    /// # Errors
    /// As [`Self::try_dft_batch`].
    pub fn try_idft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
    ) -> Result<RowMajorMatrix<P3Goldilocks>, NttError> {
        in_place(mat, |v, w| self.ntt.inverse(v, w, Order::Natural))
    }

    /// [`TwoAdicSubgroupDft::coset_idft_batch`]: evaluations on `shift · H` to coefficients.
    ///
    /// # Errors
    /// As [`Self::try_coset_dft_batch`].
    pub fn try_coset_idft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        shift: P3Goldilocks,
    ) -> Result<RowMajorMatrix<P3Goldilocks>, NttError> {
        let shift = to_aurum(shift);
        in_place(mat, |v, w| {
            self.ntt.coset_inverse(v, w, shift, Order::Natural)
        })
    }

    /// [`TwoAdicSubgroupDft::coset_lde_batch`]: evaluations on `H` to evaluations on
    /// `shift · H'`, `|H'| = 2^added_bits · |H|`, in the input's allocation.
    ///
    /// Blow-ups of `2^1 … 2^4` run Aurum's LDE (one interpolation, then each coset of `H`
    /// straight into its block of the output); others interpolate, zero-extend and evaluate.
    ///
    /// # Errors
    /// As [`Self::try_coset_dft_batch`], and [`NttError::TooLarge`] /
    /// [`NttError::OutputTooLarge`] when the extended domain or buffer cannot exist.
    pub fn try_coset_lde_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        added_bits: usize,
        shift: P3Goldilocks,
    ) -> Result<Evaluations, NttError> {
        let width = mat.width;
        let shift = to_aurum(shift);
        let values: Vec<AurumGoldilocks> = if ADDED_BITS.contains(&added_bits) {
            let values = cast_vec(mat.values);
            self.ntt
                .coset_lde_vec(values, width, added_bits, shift, Order::BitReversed)?
        } else {
            let mut values: Vec<AurumGoldilocks> = cast_vec(mat.values);
            self.ntt.inverse(&mut values, width, Order::Natural)?;
            // The inverse has checked the shape: the height is a power of two.
            let log_size = (values.len() / width).trailing_zeros() as usize + added_bits;
            if log_size > MAX_LOG_SIZE {
                return Err(NttError::TooLarge {
                    log_size,
                    max_log_size: MAX_LOG_SIZE,
                });
            }
            // `added_bits ≤ 32` now, so the shift is in range.
            let extended = values
                .len()
                .checked_mul(1 << added_bits)
                .filter(|&len| len <= isize::MAX as usize / size_of::<AurumGoldilocks>())
                .ok_or(NttError::OutputTooLarge {
                    len: values.len(),
                    added_bits,
                })?;
            values.resize(extended, AurumGoldilocks::ZERO);
            self.ntt
                .coset_forward(&mut values, width, shift, Order::BitReversed)?;
            values
        };
        Ok(RowMajorMatrix::new(cast_vec(values), width).bit_reverse_rows())
    }
}

impl TwoAdicSubgroupDft<P3Goldilocks> for NttDft {
    type Evaluations = Evaluations;

    fn dft_batch(&self, mat: RowMajorMatrix<P3Goldilocks>) -> Evaluations {
        expect_shape(self.try_dft_batch(mat), "dft_batch")
    }

    fn coset_dft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        shift: P3Goldilocks,
    ) -> Evaluations {
        expect_shape(self.try_coset_dft_batch(mat, shift), "coset_dft_batch")
    }

    fn idft_batch(&self, mat: RowMajorMatrix<P3Goldilocks>) -> RowMajorMatrix<P3Goldilocks> {
        expect_shape(self.try_idft_batch(mat), "idft_batch")
    }

    fn coset_idft_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        shift: P3Goldilocks,
    ) -> RowMajorMatrix<P3Goldilocks> {
        expect_shape(self.try_coset_idft_batch(mat, shift), "coset_idft_batch")
    }

    // The span a stock proof has for this call: `Radix2DitParallel`'s `coset_lde_batch` is the
    // trait's default, which runs its instrumented `coset_lde_batch_with_transform`.
    #[instrument(
        name = "coset_lde_batch_with_transform",
        skip_all,
        level = "debug",
        fields(dims = %mat.dimensions(), added_bits)
    )]
    fn coset_lde_batch(
        &self,
        mat: RowMajorMatrix<P3Goldilocks>,
        added_bits: usize,
        shift: P3Goldilocks,
    ) -> Evaluations {
        expect_shape(
            self.try_coset_lde_batch(mat, added_bits, shift),
            "coset_lde_batch",
        )
    }
}
