//! Large buffers allocated fallibly: not enough memory is an error naming the buffer, never an
//! abort.

use aurum_goldilocks::Goldilocks;

use crate::error::Error;

/// The one-line reason of an allocation that failed: `not enough memory for WHAT: needs N
/// MiB` (N rounded up), as the libraries' `OutOfMemory` errors say it.
#[must_use]
pub fn out_of_memory(what: &str, bytes: usize) -> Error {
    Error::OutOfMemory(format!(
        "not enough memory for {what}: needs {} MiB",
        bytes.div_ceil(1 << 20)
    ))
}

/// `len` zero bytes, or [`out_of_memory`] naming `what`.
pub(crate) fn zeroed_bytes(len: usize, what: &str) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len))?;
    bytes.resize(len, 0);
    Ok(bytes)
}

/// An empty vector with room for `len` elements, or [`out_of_memory`] naming `what`.
pub(crate) fn elements_with_capacity(len: usize, what: &str) -> Result<Vec<Goldilocks>, Error> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len.saturating_mul(8)))?;
    Ok(values)
}
