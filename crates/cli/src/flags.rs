//! What the flags mean: integers that must fit this machine, the worker pool, the selected
//! backend, and the matrix, tree and inputs of [`MatrixArgs`].

use std::path::Path;

use aurum_goldilocks::{Backend, selected_backend};
use aurum_merkle::{Dimensions, Preset, TreeShape};

use crate::args::MatrixArgs;
use crate::error::Error;
use crate::input::MatrixSource;
use crate::merkle::statement;

/// The columns without --cols.
const DEFAULT_COLS: u64 = 8;

/// The selected backend, or a clear error if `AURUM_BACKEND`, `AURUM_BATCH` or
/// `AURUM_HUGE_PAGES` is invalid
/// (every command that computes with the kernels checks both before it starts).
pub(crate) fn checked_backend() -> Result<Backend, Error> {
    let backend = selected_backend()
        .map_err(|e| Error::Backend(format!("{}: {e}", aurum_goldilocks::BACKEND_ENV)))?;
    aurum_symmetric::requested_batch().map_err(|e| Error::Backend(e.to_string()))?;
    aurum_goldilocks::raw::selected_huge_pages()
        .map_err(|e| Error::Backend(format!("{}: {e}", aurum_goldilocks::raw::HUGE_PAGES_ENV)))?;
    Ok(backend)
}

/// The device `AURUM_DEVICE` selects, or a clear error if it names none.
pub(crate) fn checked_device() -> Result<aurum_cuda::DeviceChoice, Error> {
    aurum_cuda::selected_device().map_err(|e| Error::Backend(e.to_string()))
}

/// The GPU a job of `elements` input elements runs on under `choice` (`None`: the CPU), or
/// the error of `AURUM_DEVICE=cuda` on a machine without a usable GPU.
pub(crate) fn gpu_for(
    choice: aurum_cuda::DeviceChoice,
    elements: usize,
) -> Result<Option<&'static aurum_cuda::Gpu>, Error> {
    aurum_cuda::gpu_for(choice, elements)
        .map_err(|e| Error::Backend(format!("{}={choice}: {e}", aurum_cuda::DEVICE_ENV)))
}

/// A flag's value as `usize`.
pub(crate) fn to_usize(flag: &str, value: u64) -> Result<usize, Error> {
    usize::try_from(value)
        .map_err(|_| Error::Usage(format!("{flag} {value} does not fit this machine")))
}

/// The worker pool of a `--threads` flag (all cores without it).
pub(crate) fn thread_pool(threads: Option<u64>) -> Result<rayon::ThreadPool, Error> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(to_usize("--threads", t)?);
    }
    builder
        .build()
        .map_err(|e| Error::Failed(format!("cannot start the worker threads: {e}")))
}

impl MatrixArgs {
    pub(crate) fn threads(&self) -> Result<rayon::ThreadPool, Error> {
        thread_pool(self.threads)
    }

    pub(crate) fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::Poseidon2W8)
    }

    pub(crate) fn source(&self) -> Result<MatrixSource, Error> {
        self.source_with_cols(to_usize("--cols", self.cols.unwrap_or(DEFAULT_COLS))?)
    }

    pub(crate) fn source_with_cols(&self, cols: usize) -> Result<MatrixSource, Error> {
        Ok(match (&self.input, &self.bytes) {
            (Some(path), _) => MatrixSource::U64File {
                path: path.clone(),
                cols,
            },
            (_, Some(path)) => MatrixSource::BytesFile {
                path: path.clone(),
                cols,
            },
            _ => MatrixSource::Random {
                rows: to_usize("--rows", self.rows)?,
                cols,
                seed: self.seed,
            },
        })
    }

    /// The files read, by flag: what no output may be.
    pub(crate) fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let input = self.input.as_deref().map(|p| ("--input", p));
        let bytes = self.bytes.as_deref().map(|p| ("--bytes", p));
        input.into_iter().chain(bytes).collect()
    }

    pub(crate) fn cap_height(&self) -> Result<usize, Error> {
        to_usize("--cap-height", self.cap_height.unwrap_or(0))
    }

    /// The source, its dimensions and the tree's shape, all checked before any work: a
    /// cap height the tree cannot have fails here, not after reading a whole file.
    pub(crate) fn plan(&self) -> Result<(MatrixSource, TreeShape), Error> {
        let source = self.source()?;
        let dims = [Dimensions {
            width: source.cols(),
            height: source.rows()?,
        }];
        let shape = statement::checked_shape(&dims, self.cap_height()?)?;
        Ok((source, shape))
    }
}
