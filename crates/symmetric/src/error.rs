//! The crate's error types: [`LengthError`], inputs whose lengths do not fit together (the
//! field crate's, which this crate's bulk entry points return too), the challenger's
//! [`TooManyBits`] and [`GrindError`], and [`BatchEnvError`], a misconfigured `AURUM_BATCH`.

use core::fmt;

pub use aurum_goldilocks::LengthError;

/// `Ok` if `found == expected`, else the [`LengthError`] of `what`.
pub(crate) fn expect_len(
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), LengthError> {
    if expected == found {
        Ok(())
    } else {
        Err(LengthError {
            what,
            expected,
            found,
        })
    }
}

/// The largest proof-of-work difficulty and `sample_bits` width: `2^63 < p`, so 63 bits of a
/// canonical sample are always defined (Plonky3 asserts the same bound).
pub const MAX_BITS: usize = 63;

/// A bit count above [`MAX_BITS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyBits {
    /// The bits asked for.
    pub bits: usize,
}

impl fmt::Display for TooManyBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bits requested; at most {MAX_BITS} bits can be drawn from one Goldilocks sample",
            self.bits
        )
    }
}

impl std::error::Error for TooManyBits {}

/// Why no proof-of-work witness was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrindError {
    /// The difficulty is above [`MAX_BITS`].
    TooManyBits(TooManyBits),
    /// No field element passes (for a sound permutation, only conceivable near 63 bits).
    NoWitness {
        /// The difficulty.
        bits: usize,
    },
}

impl fmt::Display for GrindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrindError::TooManyBits(e) => e.fmt(f),
            GrindError::NoWitness { bits } => {
                write!(f, "no field element is a {bits}-bit proof-of-work witness")
            }
        }
    }
}

impl std::error::Error for GrindError {}

impl From<TooManyBits> for GrindError {
    fn from(e: TooManyBits) -> Self {
        GrindError::TooManyBits(e)
    }
}

/// A value of `AURUM_BATCH` that is not a batch size (see
/// [`requested_batch`](crate::requested_batch)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchEnvError {
    /// The value as written (lossily decoded if it is not UTF-8).
    pub value: String,
}

impl fmt::Display for BatchEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "AURUM_BATCH={:?} is not a batch size: use 1, 2, 4, or auto (measure)",
            self.value
        )
    }
}

impl std::error::Error for BatchEnvError {}
