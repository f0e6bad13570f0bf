//! The FRI fold on the GPU ([`fri_fold`]): what `aurum_fri::CommitEngine::fold` defines, the
//! CPU's commit-phase fold, element for element (kernels/fold.cu).

use aurum_goldilocks::{Goldilocks, Goldilocks2};

use crate::error::CudaError;
use crate::gpu::Gpu;
use crate::matrix::{check_free, download_ext, power_table};
use crate::parts::GpuKernel;

/// `codeword` (`2^k` extension elements in bit-reversed order) folded by `2^log_arity` with
/// `beta`, as the FRI commit phase folds it (`aurum_fri::CommitEngine::fold`): the codeword is
/// copied to the device, the table of `ω^−k / 2` computed there, one thread folds each group
/// and the folded codeword comes back. A codeword not `aurum_fri::foldable` by `2^log_arity`
/// (a power of two of at least one group and at most `2^32` elements, arity `2^1 … 2^4`) is
/// [`CudaError::FoldShape`]; one that does not fit the device's free memory,
/// [`CudaError::OutOfMemory`].
pub fn fri_fold(
    gpu: &Gpu,
    codeword: &[Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
) -> Result<Vec<Goldilocks2>, CudaError> {
    let n = codeword.len();
    if !aurum_fri::foldable(n, log_arity) {
        return Err(CudaError::FoldShape { len: n, log_arity });
    }
    gpu.kernel_usable(GpuKernel::Fold)?;
    let rows = n >> log_arity;
    let log_n = n.trailing_zeros() as usize;
    // The codeword, the table (n/2 entries) and the folded codeword.
    check_free(gpu, (2 * n + n / 2 + 2 * rows) * 8)?;
    let device = &gpu.device;
    let words = aurum_goldilocks::raw::words(Goldilocks2::as_base_slice(codeword));
    let input = device.upload(words)?;
    let root = Goldilocks::two_adic_generator(log_n).expect("at most 2^32 points, checked");
    let half = power_table(gpu, root.inverse(), Goldilocks::ONE.halve(), n / 2)?;
    let mut out = device.unset(2 * rows)?;
    let [b0, b1] = beta.coeffs.map(|c| c.as_canonical_u64());
    device.fri_fold(&input, rows, log_arity as u32, [b0, b1], &half, &mut out)?;
    download_ext(gpu, &out, rows)
}
