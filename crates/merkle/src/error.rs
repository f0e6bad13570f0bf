//! Every error type of the crate, in one module (re-exported at the crate root), in one file
//! per part of the crate that returns them:
//!
//! * `tree`: [`ShapeError`] (matrices that cannot form a tree), [`MatrixError`],
//!   [`BuildError`], [`OpenError`] and [`DimensionsMismatch`] of the in-memory tree;
//! * `verification`: [`VerifyError`], why an opening, a multi-opening or a cap was rejected;
//! * `streaming`: [`StreamError`], [`OverlapError`] (and the producer's [`Stopped`]) and
//!   [`SplitError`] of the streaming builders;
//! * `stored`: [`StoredTreeError`] of trees kept in memory or in a tree file.

mod stored;
mod streaming;
mod tree;
mod verification;

pub use stored::StoredTreeError;
pub(crate) use stored::{corrupt, io_error};
pub use streaming::{OverlapError, SplitError, Stopped, StreamError};
pub(crate) use tree::NoMemory;
pub use tree::{BuildError, DimensionsMismatch, MatrixError, OpenError, ShapeError};
pub use verification::VerifyError;
