//! Errors of the streaming builders: the streaming committer, its overlapped producer, and
//! commitments computed in parts.

use core::fmt;

use crate::limits::MAX_HEIGHT;

use super::tree::{MatrixError, ShapeError};

/// Why a streamed commitment cannot be made: every error of [`StreamingCommitter`](crate::StreamingCommitter), from
/// construction to [`StreamingCommitter::finish`](crate::StreamingCommitter::finish).
///
/// The shape and buffer facts are the same as for in-memory trees and reuse their types
/// (the streamed matrix is matrix 0); only what is particular to streaming — a cap height
/// checked against a height still unknown, a row count promised up front — has its own
/// variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// The width or the height is out of range: zero width, above
    /// [`MAX_WIDTH`](crate::shape::MAX_WIDTH), no rows at all, or more than
    /// [`MAX_HEIGHT`] rows.
    Shape(ShapeError),
    /// Pushed values that are not whole rows.
    Rows(MatrixError),
    /// The cap height exceeds the depth of the tree over `height` rows: the final height
    /// (or the declared one), or [`MAX_HEIGHT`] when it is not known yet.
    CapTooHigh {
        /// Requested cap height.
        cap_height: usize,
        /// Depth of the tree.
        depth: usize,
        /// The number of rows that tree has (or may have, at most).
        height: usize,
    },
    /// The rows pushed differ from the height given to [`StreamingCommitter::with_height`](crate::StreamingCommitter::with_height):
    /// more (refused by the push that would exceed it) or fewer (at `finish`).
    WrongRowCount {
        /// The declared height.
        declared: usize,
        /// The rows pushed, counting the refused push.
        rows: usize,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Shape(e) => e.fmt(f),
            StreamError::Rows(e) => e.fmt(f),
            StreamError::CapTooHigh {
                cap_height,
                depth,
                height,
            } => {
                write!(
                    f,
                    "cap height {cap_height} exceeds the depth {depth} of a tree over {height} rows"
                )?;
                if *height == MAX_HEIGHT {
                    write!(f, " (the largest supported height)")?;
                }
                Ok(())
            }
            StreamError::WrongRowCount { declared, rows } => write!(
                f,
                "{rows} rows pushed, but the matrix was declared with height {declared}"
            ),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Shape(e) => Some(e),
            StreamError::Rows(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for StreamError {
    fn from(e: ShapeError) -> Self {
        StreamError::Shape(e)
    }
}

impl From<MatrixError> for StreamError {
    fn from(e: MatrixError) -> Self {
        StreamError::Rows(e)
    }
}

/// Why [`StreamingCommitter::push_overlapped`](crate::StreamingCommitter::push_overlapped) stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OverlapError<E> {
    /// The rows were refused (see [`StreamError`]); the producer was stopped.
    Stream(StreamError),
    /// The producer failed with its own error.
    Producer(E),
}

impl<E: fmt::Display> fmt::Display for OverlapError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverlapError::Stream(e) => e.fmt(f),
            OverlapError::Producer(e) => e.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for OverlapError<E> {}

/// The hashing side has stopped (it refused rows): the producer should return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the committer stopped taking rows")
    }
}

impl std::error::Error for Stopped {}

/// Why a split commitment cannot be planned or completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// No parts to split into.
    NoParts,
    /// The height is 0 or above [`MAX_HEIGHT`].
    Height {
        /// The height asked for.
        height: usize,
    },
    /// The cap height exceeds the depth of the tree.
    CapTooHigh {
        /// Requested cap height.
        cap_height: usize,
        /// Depth of the tree (`⌈log₂ height⌉`).
        depth: usize,
    },
    /// A part index not below the number of parts.
    NoSuchPart {
        /// The index asked for.
        part: usize,
        /// The number of parts.
        parts: usize,
    },
    /// The buffer of gathered slots has the wrong length.
    WrongSlotsLength {
        /// `parts × slot_len` digests.
        expected: usize,
        /// Digests given.
        found: usize,
    },
    /// A part's slot holds nonzero digests past its real nodes: the parts did not follow
    /// the same plan (a different height, cap height or part count).
    SlotMismatch {
        /// The part whose slot is inconsistent.
        part: usize,
    },
    /// Committing a part's rows failed (wrong row count, ragged rows).
    Stream(StreamError),
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::NoParts => write!(f, "cannot split a commitment into 0 parts"),
            SplitError::Height { height } => write!(
                f,
                "cannot split a matrix of height {height}: the height must be in 1..={MAX_HEIGHT}"
            ),
            SplitError::CapTooHigh { cap_height, depth } => write!(
                f,
                "cap height {cap_height} exceeds the depth {depth} of the tree"
            ),
            SplitError::NoSuchPart { part, parts } => {
                write!(f, "part {part} does not exist: there are {parts} parts")
            }
            SplitError::WrongSlotsLength { expected, found } => write!(
                f,
                "{found} digests were gathered, but the plan expects {expected}"
            ),
            SplitError::SlotMismatch { part } => write!(
                f,
                "part {part} sent more nodes than the plan gives it: the parts disagree on the plan"
            ),
            SplitError::Stream(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SplitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SplitError::Stream(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StreamError> for SplitError {
    fn from(e: StreamError) -> Self {
        SplitError::Stream(e)
    }
}
