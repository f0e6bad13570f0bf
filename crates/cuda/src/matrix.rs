//! A matrix whose values are on the device: what the GPU's LDE returns and its Merkle trees
//! can commit without a copy back ([`crate::commit_matrices`]).

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Dimensions, Matrix};

use crate::backend::Buffer;
use crate::error::CudaError;
use crate::gpu::Gpu;

/// A row-major matrix of canonical values in device memory.
pub struct GpuMatrix<'g> {
    pub(crate) gpu: &'g Gpu,
    pub(crate) buffer: Buffer,
    pub(crate) width: usize,
    pub(crate) height: usize,
}

impl core::fmt::Debug for GpuMatrix<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuMatrix")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

impl<'g> GpuMatrix<'g> {
    /// A copy of `matrix` on `gpu`.
    pub fn upload(gpu: &'g Gpu, matrix: Matrix<'_>) -> Result<Self, CudaError> {
        let words = aurum_goldilocks::raw::words(matrix.values());
        check_free(gpu, words.len() * 8)?;
        Ok(GpuMatrix {
            gpu,
            buffer: gpu.device.upload(words)?,
            width: matrix.width(),
            height: matrix.height(),
        })
    }

    /// Elements per row.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Width and height, as the Merkle tree's shape takes them.
    #[must_use]
    pub fn dimensions(&self) -> Dimensions {
        Dimensions {
            width: self.width,
            height: self.height,
        }
    }

    /// The values, copied back (through the page-locked read-back buffer).
    pub fn to_host(&self) -> Result<Vec<Goldilocks>, CudaError> {
        let len = self.width * self.height;
        let mut out: Vec<Goldilocks> =
            aurum_goldilocks::raw::try_zeroed_vec(len).map_err(|e| CudaError::Driver {
                what: "allocating the host copy of a matrix",
                message: e.to_string(),
            })?;
        let mut staging = self.gpu.staging()?;
        let staging = staging.as_mut().map_err(Clone::clone)?;
        let words = aurum_goldilocks::raw::words_mut(&mut out);
        self.gpu.device.read_back(staging, &self.buffer, words)?;
        Ok(out)
    }
}

/// A typed error, not a failed allocation half-way through, when `bytes` more do not fit.
pub(crate) fn check_free(gpu: &Gpu, bytes: usize) -> Result<(), CudaError> {
    let free = gpu.device.free_memory()?;
    if bytes > free {
        return Err(CudaError::OutOfMemory { bytes, free });
    }
    Ok(())
}
