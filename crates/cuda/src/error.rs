//! The crate's errors: why there is no GPU, or what failed on it.

use core::fmt;

use aurum_merkle::{BuildError, OpenError, ShapeError};

use crate::parts::GpuKernel;

/// Why the GPU cannot be used, or what failed on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CudaError {
    /// No CUDA driver library (`libcuda.so`) could be loaded.
    NoDriver,
    /// The driver loaded but reports no CUDA device (or could not initialise).
    NoDevice(String),
    /// No NVRTC library (`libnvrtc.so`) could be loaded, so the kernels cannot be compiled.
    NoNvrtc,
    /// NVRTC rejected the kernels (a bug: CI compiles them for every supported architecture).
    Compile(String),
    /// A driver call failed: what was being done and the driver's message.
    Driver {
        /// The operation.
        what: &'static str,
        /// The driver's error.
        message: String,
    },
    /// States to permute that are not a whole number of states of the permutation's width.
    NotWholeStates {
        /// Elements given.
        len: usize,
        /// The permutation's width.
        width: usize,
    },
    /// A FRI fold of a codeword of `len` elements by `2^log_arity` that is not one: the
    /// codeword must be a power of two of at least one group and at most `2^32` elements, the
    /// arity `2^1 … 2^4`.
    FoldShape {
        /// Elements given.
        len: usize,
        /// The arity asked for, as a base-2 logarithm.
        log_arity: usize,
    },
    /// A reduced opening that is not one (`aurum_fri::HeightOpening::is_well_formed`): a
    /// height above `2^32`, an LDE that is not `2^log_height` rows of its width, coefficients
    /// that are not one per column, a point on the domain.
    OpeningShape {
        /// The height's base-2 logarithm.
        log_height: usize,
    },
    /// A group of the GPU's kernels failed the known-answer check [`crate::Gpu::open`] runs
    /// (other values than the CPU's, or a failed launch: a kernel, compiler or driver fault),
    /// so the GPU does not run it: every call that needs it is this error.
    KnownAnswer {
        /// The refused group.
        kernel: GpuKernel,
        /// What the check saw: the first value that differed, or the failure.
        reason: String,
    },
    /// The job needs more device memory than is free.
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
        /// Bytes free on the device.
        free: usize,
    },
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::NoDriver => f.write_str(
                "no CUDA driver: libcuda.so could not be loaded (install the NVIDIA driver, or \
                 put its folder on LD_LIBRARY_PATH)",
            ),
            CudaError::NoDevice(why) => write!(f, "no CUDA device: {why}"),
            CudaError::NoNvrtc => f.write_str(
                "no NVRTC: libnvrtc.so could not be loaded to compile the kernels (install the \
                 CUDA toolkit or the nvidia-cuda-nvrtc wheel, and put its lib folder on \
                 LD_LIBRARY_PATH)",
            ),
            CudaError::Compile(log) => write!(f, "the CUDA kernels did not compile: {log}"),
            CudaError::Driver { what, message } => write!(f, "CUDA {what} failed: {message}"),
            CudaError::NotWholeStates { len, width } => {
                write!(f, "{len} elements are not whole states of {width}")
            }
            CudaError::FoldShape { len, log_arity } => write!(
                f,
                "a codeword of {len} elements cannot be folded by 2^{log_arity} (a power of two \
                 of at least one group and at most 2^32 elements, arity 2^1 to 2^4)"
            ),
            CudaError::OpeningShape { log_height } => write!(
                f,
                "the reduced opening of height 2^{log_height} is not one (a height of at most \
                 2^32, LDEs of 2^{log_height} rows of their width, one coefficient per column, \
                 no point on the domain)"
            ),
            CudaError::KnownAnswer { kernel, reason } => write!(
                f,
                "the GPU's {kernel} failed its known-answer check against the CPU ({reason}): a \
                 kernel, compiler or driver fault, so the GPU does not run it"
            ),
            CudaError::OutOfMemory { bytes, free } => write!(
                f,
                "the job needs {bytes} bytes of GPU memory and {free} are free"
            ),
        }
    }
}

impl std::error::Error for CudaError {}

/// Why a GPU commitment failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitError {
    /// The matrices do not form a tree (the same check as the CPU's).
    Shape(ShapeError),
    /// The GPU failed.
    Cuda(CudaError),
    /// A cap the tree cannot give (the same checks as the CPU tree's).
    Open(OpenError),
    /// Layers the tree cannot leave out (the same check as the CPU tree's).
    Build(BuildError),
    /// A piece of a streamed matrix that is not whole rows.
    PartialRow {
        /// Elements in the piece.
        len: usize,
        /// Elements per row.
        width: usize,
    },
    /// A streamed matrix with more rows than announced, or fewer at the end.
    RowCount {
        /// Rows announced.
        announced: usize,
        /// Rows received (so far, where there were too many).
        received: usize,
    },
}

impl fmt::Display for CommitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommitError::Shape(e) => e.fmt(f),
            CommitError::Cuda(e) => e.fmt(f),
            CommitError::Open(e) => e.fmt(f),
            CommitError::Build(e) => e.fmt(f),
            CommitError::PartialRow { len, width } => {
                write!(f, "{len} elements are not whole rows of {width}")
            }
            CommitError::RowCount {
                announced,
                received,
            } => write!(f, "{received} rows of a matrix announced with {announced}"),
        }
    }
}

impl std::error::Error for CommitError {}

impl From<ShapeError> for CommitError {
    fn from(e: ShapeError) -> Self {
        CommitError::Shape(e)
    }
}

impl From<CudaError> for CommitError {
    fn from(e: CudaError) -> Self {
        CommitError::Cuda(e)
    }
}
