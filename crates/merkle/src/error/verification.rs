//! Why an opening (or a multi-opening, or a cap) was rejected.

use core::fmt;

use super::tree::ShapeError;

/// Why an opening was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The claimed dimensions cannot form a tree.
    InvalidDimensions(ShapeError),
    /// The leaf index is not below the tallest height.
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The tallest height.
        max_height: usize,
    },
    /// The opening has rows for a different number of matrices.
    WrongNumberOfMatrices {
        /// Matrices committed to.
        expected: usize,
        /// Rows opened.
        found: usize,
    },
    /// An opened row has the wrong number of elements.
    WrongRowWidth {
        /// The matrix (input position).
        matrix: usize,
        /// Its width.
        expected: usize,
        /// The opened row's length.
        found: usize,
    },
    /// The sibling path does not reach from the leaves to the cap.
    WrongPathLength {
        /// Siblings a cap of this size needs.
        expected: usize,
        /// Siblings given.
        found: usize,
    },
    /// The cap's size does not belong to this tree at any height.
    InvalidCapLength {
        /// Digests in the cap.
        len: usize,
    },
    /// A cap height above the root.
    CapHeightTooLarge {
        /// The cap height asked for.
        cap_height: usize,
        /// The tree's depth (the largest cap height).
        depth: usize,
    },
    /// A cap of the wrong length for its height.
    WrongCapLength {
        /// The cap height.
        cap_height: usize,
        /// Digests a cap of that height has in this tree.
        expected: usize,
        /// Digests given.
        found: usize,
    },
    /// Matrices join the tree above the cap layer: such a cap does not commit to their rows
    /// (see [`TreeShape::max_cap_height`](crate::TreeShape::max_cap_height)).
    MatricesAboveCap {
        /// The cap height.
        cap_height: usize,
    },
    /// A multi-opening with row sets for a different number of queries.
    WrongNumberOfQueries {
        /// Queries asked about.
        expected: usize,
        /// Row sets opened.
        found: usize,
    },
    /// A leaf queried more than once is opened with different rows.
    InconsistentDuplicate {
        /// The later query.
        query: usize,
    },
    /// Two queries that open the same row of a shorter matrix give it different values.
    InconsistentSharedRow {
        /// The query that differs from the first one sharing the row.
        query: usize,
        /// The matrix (input position).
        matrix: usize,
    },
    /// A multi-opening with more or fewer sibling digests than its queries need.
    WrongSiblingCount {
        /// Digests the queried leaves need.
        expected: usize,
        /// Digests given.
        found: usize,
    },
    /// The recomputed digest differs from the committed one.
    RootMismatch {
        /// The cap position the path leads to.
        cap_index: usize,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::InvalidDimensions(e) => write!(f, "invalid dimensions: {e}"),
            VerifyError::IndexOutOfRange { index, max_height } => {
                write!(
                    f,
                    "leaf index {index} is out of range: the tree has {max_height} leaves"
                )
            }
            VerifyError::WrongNumberOfMatrices { expected, found } => {
                write!(
                    f,
                    "opening has rows for {found} matrices, the commitment covers {expected}"
                )
            }
            VerifyError::WrongRowWidth {
                matrix,
                expected,
                found,
            } => {
                write!(
                    f,
                    "opened row of matrix {matrix} has {found} elements, the matrix has width {expected}"
                )
            }
            VerifyError::WrongPathLength { expected, found } => {
                write!(f, "sibling path has {found} digests, expected {expected}")
            }
            VerifyError::InvalidCapLength { len } => {
                write!(
                    f,
                    "a cap of {len} digests does not fit this tree at any cap height"
                )
            }
            VerifyError::CapHeightTooLarge { cap_height, depth } => write!(
                f,
                "cap height {cap_height} exceeds the depth {depth} of the tree"
            ),
            VerifyError::WrongCapLength {
                cap_height,
                expected,
                found,
            } => write!(
                f,
                "the cap has {found} digests, a cap of height {cap_height} of this tree has {expected}"
            ),
            VerifyError::MatricesAboveCap { cap_height } => write!(
                f,
                "a cap of height {cap_height} lies below the layer where shorter matrices join \
                 the tree, so it does not commit to their rows"
            ),
            VerifyError::WrongNumberOfQueries { expected, found } => write!(
                f,
                "multi-opening has rows for {found} queries, {expected} were asked"
            ),
            VerifyError::InconsistentDuplicate { query } => write!(
                f,
                "query {query} opens a leaf queried before with different rows"
            ),
            VerifyError::InconsistentSharedRow { query, matrix } => write!(
                f,
                "query {query} opens a different row of matrix {matrix} than another query \
                 reaching the same row"
            ),
            VerifyError::WrongSiblingCount { expected, found } => write!(
                f,
                "multi-opening has {found} sibling digests, its queries need {expected}"
            ),
            VerifyError::RootMismatch { cap_index } => {
                write!(
                    f,
                    "recomputed digest does not match the commitment (cap entry {cap_index})"
                )
            }
        }
    }
}

impl std::error::Error for VerifyError {}
