//! A matrix whose values are on the device: what the GPU's LDE returns and its Merkle trees
//! can commit without a copy back ([`crate::commit_matrices`]).

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Dimensions, Matrix};

use crate::backend::Buffer;
use crate::error::CudaError;
use crate::gpu::Gpu;
use crate::kernels::lde::PowerTables;

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

/// `factor · base^t` for `t < count`, computed on the device (the `powers` kernel).
pub(crate) fn power_table(
    gpu: &Gpu,
    base: Goldilocks,
    factor: Goldilocks,
    count: usize,
) -> Result<Buffer, CudaError> {
    let PowerTables { lo_bits, hi, lo } = PowerTables::new(base, factor, count as u64);
    let mut table = gpu.device.unset(count)?;
    gpu.device
        .powers(&mut table, count as u64, lo_bits, &hi, &lo)?;
    Ok(table)
}

/// The first `elements` extension elements (word pairs) of `buffer`, copied back.
pub(crate) fn download_ext(
    gpu: &Gpu,
    buffer: &Buffer,
    elements: usize,
) -> Result<Vec<Goldilocks2>, CudaError> {
    let words = gpu.device.download(buffer, 2 * elements)?;
    Ok(words
        .chunks_exact(2)
        .map(|w| Goldilocks2::new(Goldilocks::from_u64(w[0]), Goldilocks::from_u64(w[1])))
        .collect())
}

/// A typed error, not a failed allocation half-way through, when `bytes` more do not fit.
pub(crate) fn check_free(gpu: &Gpu, bytes: usize) -> Result<(), CudaError> {
    let free = gpu.device.free_memory()?;
    if bytes > free {
        return Err(CudaError::OutOfMemory { bytes, free });
    }
    Ok(())
}
