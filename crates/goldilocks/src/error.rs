//! The crate's error types, all re-exported at the crate root (and where they were before: in
//! `field`, `kernels`, `dispatch` and `raw`).

use core::fmt;

use crate::backend_id::Backend;
use crate::field::arith::P;

/// An input contains zero, which has no inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroElement {
    /// Index of the first zero.
    pub index: usize,
}

impl fmt::Display for ZeroElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "element {} is zero and has no inverse", self.index)
    }
}

impl std::error::Error for ZeroElement {}

/// Slices that must have equal lengths do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// The operation.
    pub what: &'static str,
    /// Length of the first slice.
    pub left: usize,
    /// Length of the slice that differs.
    pub right: usize,
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: slices must have equal lengths, got {} and {}",
            self.what, self.left, self.right
        )
    }
}

impl std::error::Error for LengthMismatch {}

/// A value that is not the canonical encoding of a field element (it is `≥ p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonCanonical {
    /// The rejected value.
    pub value: u64,
}

impl fmt::Display for NonCanonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (0x{:016x}) is not a canonical Goldilocks element: it is not below p = 0x{P:016x}",
            self.value, self.value
        )
    }
}

impl std::error::Error for NonCanonical {}

/// A slice whose length does not fit what the packed layout needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthError {
    /// What was being loaded or stored.
    pub what: &'static str,
    /// The length required (or, for `pack_slice`, the multiple required).
    pub expected: usize,
    /// The length given.
    pub found: usize,
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {} elements, got {}",
            self.what, self.expected, self.found
        )
    }
}

impl std::error::Error for LengthError {}

/// Coefficients offered as [`SmallCoefficients`](crate::SmallCoefficients) sum to `2^31` or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoefficientSumTooLarge {
    /// Their sum (saturated at `u64::MAX`).
    pub sum: u64,
}

impl fmt::Display for CoefficientSumTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "small coefficients must sum to less than 2^31, got {}",
            self.sum
        )
    }
}

impl std::error::Error for CoefficientSumTooLarge {}

/// Why a backend could not be selected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// A name that is not a backend.
    Unknown(String),
    /// A real backend this build or CPU cannot run.
    Unsupported(Backend),
    /// `AURUM_BACKEND` is not valid UTF-8.
    NotUnicode,
}

impl std::error::Error for BackendError {}

/// Why `AURUM_HUGE_PAGES` names no huge-page policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HugePagesError {
    /// A value other than `auto`, `on` or `off`.
    Unknown(String),
    /// The variable is not valid UTF-8.
    NotUnicode,
}

impl fmt::Display for HugePagesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HugePagesError::Unknown(name) => {
                write!(
                    f,
                    "unknown huge-page policy {name:?} (expected auto, on or off)"
                )
            }
            HugePagesError::NotUnicode => write!(f, "the value is not valid UTF-8"),
        }
    }
}

impl std::error::Error for HugePagesError {}

/// An allocation that failed: the global allocator had no `bytes` bytes to give (or the size
/// overflows the address space: `bytes` is then `usize::MAX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for.
    pub bytes: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bytes == usize::MAX {
            write!(f, "the allocation overflows the address space")
        } else {
            write!(f, "cannot allocate {} bytes", self.bytes)
        }
    }
}

impl std::error::Error for AllocError {}
