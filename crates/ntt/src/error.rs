//! What can be wrong with a request, reported instead of panicking.

use core::fmt;

use aurum_goldilocks::BackendError;

/// Why an NTT, coset NTT, LDE or bit reversal was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NttError {
    /// A matrix must have at least one column.
    ZeroWidth,
    /// The buffer does not hold a whole number of rows.
    LengthNotMultipleOfWidth {
        /// Elements in the buffer.
        len: usize,
        /// Elements per row.
        width: usize,
    },
    /// The number of rows (the transform size) must be a power of two (and not zero).
    HeightNotPowerOfTwo {
        /// The number of rows given.
        height: usize,
    },
    /// The transform needs a root of unity of order `2^log_size`, but Goldilocks has
    /// them only up to `2^32` (for an LDE, `log_size` counts the added bits).
    TooLarge {
        /// Base-2 logarithm of the requested size.
        log_size: usize,
        /// The largest supported (32).
        max_log_size: usize,
    },
    /// An LDE blow-up must be `2^1 … 2^4`.
    AddedBits {
        /// The `added_bits` given.
        added_bits: usize,
    },
    /// An output buffer has the wrong length.
    OutputLength {
        /// Elements required (`rows << added_bits` times the width).
        expected: usize,
        /// Elements given.
        found: usize,
    },
    /// An LDE's output (`len · 2^added_bits` elements) would exceed the largest possible
    /// buffer (`isize::MAX` bytes).
    OutputTooLarge {
        /// Elements in the input.
        len: usize,
        /// The `added_bits` given.
        added_bits: usize,
    },
    /// A coset shift of zero does not define a coset.
    ZeroShift,
    /// A domain generator must have multiplicative order exactly `2^32`.
    NotATwoAdicGenerator {
        /// The rejected value (canonical).
        generator: u64,
    },
    /// The backend requested with [`Ntt::with_backend`](crate::Ntt::with_backend) cannot run
    /// here.
    Backend(BackendError),
    /// The memory for an output or a scratch buffer could not be allocated.
    OutOfMemory {
        /// What could not be allocated.
        what: &'static str,
        /// The bytes asked for.
        bytes: usize,
    },
}

impl fmt::Display for NttError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NttError::ZeroWidth => write!(f, "matrix width must be at least 1"),
            NttError::LengthNotMultipleOfWidth { len, width } => write!(
                f,
                "buffer length {len} is not a multiple of the width {width} (rows are incomplete)"
            ),
            NttError::HeightNotPowerOfTwo { height } => write!(
                f,
                "matrix height {height} is not a power of two (an NTT needs 2^k rows, k ≤ 32)"
            ),
            NttError::TooLarge {
                log_size,
                max_log_size,
            } => write!(
                f,
                "transform size 2^{log_size} exceeds 2^{max_log_size}, the largest power-of-two \
                 subgroup of the Goldilocks field"
            ),
            NttError::AddedBits { added_bits } => write!(
                f,
                "added_bits {added_bits} is outside 1..=4 (blow-up factors 2, 4, 8, 16)"
            ),
            NttError::OutputLength { expected, found } => {
                write!(f, "output buffer has {found} elements, expected {expected}")
            }
            NttError::OutputTooLarge { len, added_bits } => write!(
                f,
                "an LDE of {len} elements with {added_bits} added bits needs a buffer of \
                 {len} · 2^{added_bits} elements, more than can be allocated"
            ),
            NttError::ZeroShift => write!(f, "coset shift must be non-zero"),
            NttError::NotATwoAdicGenerator { generator } => write!(
                f,
                "{generator} does not have multiplicative order exactly 2^32"
            ),
            NttError::Backend(e) => write!(f, "backend: {e}"),
            NttError::OutOfMemory { what, bytes } => write!(
                f,
                "not enough memory for {what}: needs {} MiB",
                bytes.div_ceil(1 << 20)
            ),
        }
    }
}

impl std::error::Error for NttError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NttError::Backend(e) => Some(e),
            _ => None,
        }
    }
}

impl From<BackendError> for NttError {
    fn from(e: BackendError) -> Self {
        NttError::Backend(e)
    }
}
