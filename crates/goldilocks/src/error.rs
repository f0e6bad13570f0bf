//! The crate's error types, re-exported at the crate root (and, for compatibility, in the
//! modules that return them).

use core::fmt;

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
