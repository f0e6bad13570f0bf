//! The crate's allocations (twiddle tables, outputs, scratch buffers), tried rather than
//! aborted on: a failure is [`NttError::OutOfMemory`], naming what and how many bytes.

use aurum_goldilocks::Goldilocks;

use crate::error::NttError;
use crate::twiddles::{self, twiddles};

/// The twiddles of a transform, or [`NttError::OutOfMemory`].
pub(crate) fn checked_twiddles(
    generator: Goldilocks,
    inverse: bool,
    log_size: usize,
) -> Result<twiddles::Twiddles, NttError> {
    twiddles(generator, inverse, log_size).map_err(|bytes| NttError::OutOfMemory {
        what: "the NTT's twiddles",
        bytes,
    })
}

/// `len` zero values, allocated zeroed, or [`NttError::OutOfMemory`] naming `what`.
pub(crate) fn try_zeroed<T: aurum_goldilocks::raw::ZeroedWords>(
    len: usize,
    what: &'static str,
) -> Result<Vec<T>, NttError> {
    aurum_goldilocks::raw::try_zeroed_vec(len).map_err(|e| NttError::OutOfMemory {
        what,
        bytes: e.bytes,
    })
}
