//! The reduced openings on the GPU ([`reduced_openings`]): what
//! `aurum_fri::CommitEngine::reduced_openings` defines, the CPU's codewords element for element
//! (kernels/open.cu), over the LDEs the commit engine kept on the device from their commitment
//! ([`KeptLdes`]) or, for matrices committed elsewhere, copied there.

use core::any::Any;

use aurum_fri::{EngineData, HeightOpening, MatrixOpening};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::Matrix;

use crate::backend::{Buffer, OpeningLaunch};
use crate::error::CudaError;
use crate::gpu::Gpu;
use crate::matrix::{GpuMatrix, check_free, download_ext, power_table};
use crate::parts::GpuKernel;

/// What [`crate::GpuCommitEngine`] keeps of a commitment for its openings: the LDEs, in
/// commitment order, in the memory of the device that computed them (freed with the
/// commitment's `ProverData`).
pub(crate) struct KeptLdes {
    pub(crate) gpu: &'static Gpu,
    pub(crate) ldes: Vec<GpuMatrix<'static>>,
}

impl core::fmt::Debug for KeptLdes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeptLdes")
            .field("ldes", &self.ldes)
            .finish_non_exhaustive()
    }
}

impl EngineData for KeptLdes {}

/// The LDE of `m` (`2^log_height` rows) on `gpu`: the one kept there from its commitment when
/// `m` comes with one of this device of its shape, else none.
fn kept_on<'a>(
    gpu: &Gpu,
    m: &MatrixOpening<'a>,
    log_height: usize,
) -> Option<&'a GpuMatrix<'static>> {
    let (kept, index) = m.kept?;
    let kept: &dyn Any = kept;
    let kept = kept.downcast_ref::<KeptLdes>()?;
    let lde = kept.ldes.get(index)?;
    (core::ptr::eq(kept.gpu, gpu) && lde.width == m.width && lde.height == 1 << log_height)
        .then_some(lde)
}

/// The reduced opening of each of `heights` on `gpu`, as `aurum_fri::HeightOpening` defines it
/// (`aurum_fri::reduced_opening` on the CPU): a matrix that comes with the LDE
/// [`crate::GpuCommitEngine`] kept on this device from its commitment is read there (the kept
/// LDE stands for `lde`: the scheme pairs them), any other is copied to the device first. The
/// table of the domain's points is computed there (the `powers` kernel), one thread per row
/// adds each matrix's terms, and the codewords come back. A height that is not one
/// (`HeightOpening::is_well_formed`) is [`CudaError::OpeningShape`]; one that does not fit the
/// device's free memory, [`CudaError::OutOfMemory`].
pub fn reduced_openings(
    gpu: &Gpu,
    heights: &[HeightOpening<'_>],
) -> Result<Vec<Vec<Goldilocks2>>, CudaError> {
    if let Some(bad) = heights.iter().find(|h| !h.is_well_formed()) {
        return Err(CudaError::OpeningShape {
            log_height: bad.log_height,
        });
    }
    gpu.kernel_usable(GpuKernel::Opening)?;
    heights.iter().map(|h| reduce_height(gpu, h)).collect()
}

fn reduce_height(gpu: &Gpu, height: &HeightOpening<'_>) -> Result<Vec<Goldilocks2>, CudaError> {
    let log_n = height.log_height;
    let n = 1usize << log_n;
    let device = &gpu.device;
    let kept: Vec<Option<&GpuMatrix<'static>>> = height
        .matrices
        .iter()
        .map(|m| kept_on(gpu, m, log_n))
        .collect();
    // The copies of the matrices not kept here, the points and the codeword.
    let copied: usize = height
        .matrices
        .iter()
        .zip(&kept)
        .filter(|(_, k)| k.is_none())
        .map(|(m, _)| m.lde.len())
        .sum();
    check_free(gpu, (copied + 3 * n) * 8)?;
    let root = Goldilocks::two_adic_generator(log_n).expect("at most 2^32 points, checked");
    let points = power_table(gpu, root, Goldilocks::GENERATOR, n)?;
    let mut out = device.zeros(2 * n)?;
    for (m, kept) in height.matrices.iter().zip(kept) {
        let copy;
        let lde = match kept {
            Some(lde) => lde,
            None => {
                let matrix = Matrix::new(m.lde, m.width).expect("whole rows, checked");
                copy = GpuMatrix::upload(gpu, matrix)?;
                &copy
            }
        };
        let coefficients: Vec<u64> = m
            .coefficients
            .iter()
            .flat_map(|c| c.coeffs.map(|x| x.as_canonical_u64()))
            .collect();
        let terms: Vec<u64> = m
            .terms
            .iter()
            .flat_map(|t| [t.z, t.c, t.w])
            .flat_map(|e| e.coeffs.map(|x| x.as_canonical_u64()))
            .collect();
        let launch = OpeningLaunch {
            width: m.width as u64,
            log_n: log_n as u32,
            terms: u32::try_from(m.terms.len())
                .map_err(|_| CudaError::OpeningShape { log_height: log_n })?,
        };
        let (coefficients, terms): (Buffer, Buffer) =
            (device.upload(&coefficients)?, device.upload(&terms)?);
        device.reduced_opening(
            &lde.buffer,
            launch,
            &points,
            &coefficients,
            &terms,
            &mut out,
        )?;
    }
    download_ext(gpu, &out, n)
}
