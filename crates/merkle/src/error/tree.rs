//! Errors of the in-memory tree: matrices that cannot form a tree, trees that cannot be
//! built, requests a tree cannot answer.

use core::fmt;

use crate::dimensions::Dimensions;
use crate::limits::{MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH};

/// Why a set of matrices cannot form a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// No matrices at all.
    NoMatrices,
    /// A matrix with no rows.
    EmptyMatrix {
        /// Its position in the input.
        matrix: usize,
    },
    /// A matrix with more rows than [`MAX_HEIGHT`].
    HeightTooLarge {
        /// Its position in the input.
        matrix: usize,
        /// Its height.
        height: usize,
    },
    /// A matrix with no columns.
    ZeroWidth {
        /// Its position in the input.
        matrix: usize,
    },
    /// A matrix wider than [`MAX_WIDTH`] on its own.
    WidthTooLarge {
        /// Its position in the input.
        matrix: usize,
        /// Its width.
        width: usize,
    },
    /// The widths of the matrices up to this one add up to more than [`MAX_WIDTH`].
    TotalWidthTooLarge {
        /// The position at which the running total first exceeds the limit.
        matrix: usize,
        /// The total width of matrices `0..=matrix`.
        total: usize,
    },
    /// A height off the `⌈max_height / 2^k⌉` ladder.
    IncompatibleHeight {
        /// Its position in the input.
        matrix: usize,
        /// Its height.
        height: usize,
        /// The height its power-of-two bucket requires.
        expected: usize,
        /// The tallest height.
        max_height: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NoMatrices => write!(f, "no matrices to commit to"),
            ShapeError::EmptyMatrix { matrix } => write!(f, "matrix {matrix} has no rows"),
            ShapeError::HeightTooLarge { matrix, height } => write!(
                f,
                "matrix {matrix} has height {height}, above the largest supported height \
                 2^{MAX_LOG_HEIGHT} = {MAX_HEIGHT}"
            ),
            ShapeError::ZeroWidth { matrix } => {
                write!(
                    f,
                    "matrix {matrix} has width 0 (a matrix needs at least one column)"
                )
            }
            ShapeError::WidthTooLarge { matrix, width } => write!(
                f,
                "matrix {matrix} has width {width}, above the largest supported width \
                 2^32 = {MAX_WIDTH}"
            ),
            ShapeError::TotalWidthTooLarge { matrix, total } => write!(
                f,
                "the widths of matrices 0..={matrix} add up to {total}, above the largest \
                 supported total width 2^32 = {MAX_WIDTH}"
            ),
            ShapeError::IncompatibleHeight {
                matrix,
                height,
                expected,
                max_height,
            } => write!(
                f,
                "matrix {matrix} has height {height}, but with a tallest height of {max_height} \
                 a matrix in its power-of-two bucket must have height {expected} (⌈{max_height} / 2^k⌉)"
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

/// A buffer that is not a row-major matrix of the given width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixError {
    /// Width 0.
    ZeroWidth,
    /// The length is not a multiple of the width.
    RaggedLength {
        /// Elements given.
        len: usize,
        /// The width.
        width: usize,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixError::ZeroWidth => write!(f, "a matrix needs at least one column"),
            MatrixError::RaggedLength { len, width } => write!(
                f,
                "{len} elements do not form rows of width {width} ({} left over)",
                // Never 0 as built here; the fields are public, so do not divide by it.
                len.checked_rem(*width).unwrap_or(*len)
            ),
        }
    }
}

impl std::error::Error for MatrixError {}

/// Why a tree could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The matrices do not fit together.
    Shape(ShapeError),
    /// More layers to drop than the tree has below its root.
    TooManyDroppedLayers {
        /// Layers asked to drop.
        requested: usize,
        /// Layers below the root.
        depth: usize,
    },
    /// The memory for the digest layers could not be allocated.
    OutOfMemory {
        /// What could not be allocated.
        what: &'static str,
        /// The bytes asked for.
        bytes: usize,
    },
}

/// What the tree's digest layers are called in the `OutOfMemory` errors.
const DIGESTS: &str = "the Merkle tree's digests";

/// Digests that could not be allocated: the bytes asked for (the public errors carry it as
/// `OutOfMemory`).
pub(crate) struct NoMemory(pub(crate) usize);

impl From<NoMemory> for BuildError {
    fn from(NoMemory(bytes): NoMemory) -> Self {
        BuildError::OutOfMemory {
            what: DIGESTS,
            bytes,
        }
    }
}

impl From<NoMemory> for OpenError {
    fn from(NoMemory(bytes): NoMemory) -> Self {
        OpenError::OutOfMemory {
            what: DIGESTS,
            bytes,
        }
    }
}

/// `bytes` in MiB, rounded up (what an out-of-memory message says).
fn mib(bytes: usize) -> usize {
    bytes.div_ceil(1 << 20)
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Shape(e) => e.fmt(f),
            BuildError::TooManyDroppedLayers { requested, depth } => write!(
                f,
                "cannot drop {requested} digest layers: the tree has only {depth} below its root"
            ),
            BuildError::OutOfMemory { what, bytes } => {
                write!(f, "not enough memory for {what}: needs {} MiB", mib(*bytes))
            }
        }
    }
}

impl std::error::Error for BuildError {}

impl From<ShapeError> for BuildError {
    fn from(e: ShapeError) -> Self {
        BuildError::Shape(e)
    }
}

/// A request the tree cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// The leaf index is not below the tallest height.
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The tallest height.
        max_height: usize,
    },
    /// The cap height is above the root.
    CapTooHigh {
        /// Requested cap height.
        cap_height: usize,
        /// Layers below the root.
        depth: usize,
    },
    /// The cap would lie below the layer where shorter matrices join, and so would not commit
    /// to them (see [`TreeShape::max_cap_height`](crate::TreeShape::max_cap_height)).
    CapBelowMatrices {
        /// Requested cap height.
        cap_height: usize,
        /// The largest cap height that commits to every matrix.
        max_cap_height: usize,
    },
    /// The memory for digests to rebuild (a cap below the stored layers, dropped layers
    /// on a path) could not be allocated.
    OutOfMemory {
        /// What could not be allocated.
        what: &'static str,
        /// The bytes asked for.
        bytes: usize,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::IndexOutOfRange { index, max_height } => {
                write!(
                    f,
                    "leaf index {index} is out of range: the tree has {max_height} leaves"
                )
            }
            OpenError::CapTooHigh { cap_height, depth } => {
                write!(f, "cap height {cap_height} exceeds the tree depth {depth}")
            }
            OpenError::CapBelowMatrices {
                cap_height,
                max_cap_height,
            } => write!(
                f,
                "a cap of height {cap_height} lies below the layer where shorter matrices join \
                 and would not commit to them; this tree's caps go up to height {max_cap_height}"
            ),
            OpenError::OutOfMemory { what, bytes } => {
                write!(f, "not enough memory for {what}: needs {} MiB", mib(*bytes))
            }
        }
    }
}

impl std::error::Error for OpenError {}

/// Matrices whose dimensions are not those a [`TreeDigests`](crate::TreeDigests) was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimensionsMismatch {
    /// The dimensions the digests were built from.
    pub expected: Vec<Dimensions>,
    /// The dimensions given.
    pub found: Vec<Dimensions>,
}

impl fmt::Display for DimensionsMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the digests were built from matrices {:?}, not {:?}",
            self.expected, self.found
        )
    }
}

impl std::error::Error for DimensionsMismatch {}
