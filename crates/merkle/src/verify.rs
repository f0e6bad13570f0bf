//! Commitments, openings and their verification.

use core::fmt;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;
use serde::{Deserialize, Serialize};

use crate::config::MerkleConfig;
use crate::shape::{Dimensions, ShapeError, TreeShape};
use crate::tree::{Digest, hash_leaf_rows};

/// What a prover publishes: the cap (one digest, the root, for cap height 0).
///
/// A verifier must check openings against a commitment it already trusts (received before
/// the openings, or fixed by the protocol), never against one shipped with the proof it is
/// checking: whoever picks the cap picks which trees "verify". Its length is trusted with it:
/// [`verify`] reads the cap height from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commitment {
    /// The digests of the layer `log₂(cap.len())` below the root.
    pub cap: Vec<Digest>,
}

/// One leaf's opening: the rows it covers in every matrix (input order) and the sibling
/// digests from the leaf layer up to the cap.
///
/// This is the only untrusted part of a proof. The dimensions and the leaf index it is
/// checked against must come from the verifier (see [`verify`]), not from the prover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    /// Row of each matrix at this leaf.
    pub rows: Vec<Vec<Goldilocks>>,
    /// Sibling digests, leaf layer first.
    pub siblings: Vec<Digest>,
}

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
    /// (see [`TreeShape::max_cap_height`]).
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

/// Checks that one leaf's opened rows are one row per matrix, each exactly its matrix's width.
pub(crate) fn check_rows(dims: &[Dimensions], rows: &[Vec<Goldilocks>]) -> Result<(), VerifyError> {
    if rows.len() != dims.len() {
        return Err(VerifyError::WrongNumberOfMatrices {
            expected: dims.len(),
            found: rows.len(),
        });
    }
    // Every opened row must have exactly its matrix's width: hashing a row of another length
    // would let a prover open values the commitment never bound.
    for (matrix, (row, d)) in rows.iter().zip(dims).enumerate() {
        if row.len() != d.width {
            return Err(VerifyError::WrongRowWidth {
                matrix,
                expected: d.width,
                found: row.len(),
            });
        }
    }
    Ok(())
}

/// The cap height a trusted commitment's length names, if it commits to every matrix.
pub(crate) fn cap_height_of(
    shape: &TreeShape,
    commitment: &Commitment,
) -> Result<usize, VerifyError> {
    // Cap lengths grow strictly with the cap height, so the length names the height (at most
    // MAX_LOG_HEIGHT + 1 candidates, whatever the cap's length).
    let cap_height = (0..=shape.depth())
        .find(|&h| shape.cap_len(h) == Some(commitment.cap.len()))
        .ok_or(VerifyError::InvalidCapLength {
            len: commitment.cap.len(),
        })?;
    if cap_height > shape.max_cap_height() {
        return Err(VerifyError::MatricesAboveCap { cap_height });
    }
    Ok(cap_height)
}

/// Checks that `opening` proves the rows of leaf `index` of a tree over matrices of
/// dimensions `dims` (input order) with commitment `commitment`.
///
/// # Trust
/// `config`, `commitment`, `dims` and `index` must come from the verifier (the protocol, a
/// trusted commitment received earlier, its own challenge), never from the prover or the
/// proof: only `opening` is the prover's. The leaf hash and the tree shape decide what a path
/// means, so a prover who chooses them can make almost anything verify: with plonky2's
/// `hash_or_noop` leaves, dimensions `[Dimensions { width: 4, height: 1 }]` describe a
/// one-leaf tree whose root *is* its row, so "opening" the row `root` with no siblings
/// verifies against any root whatsoever. Likewise a prover-chosen index opens a leaf nobody
/// challenged.
///
/// The cap height is not a separate argument: it is read from `commitment.cap.len()` (cap
/// lengths grow strictly with the cap height, so the length names it), which is sound
/// because the commitment is trusted. A cap whose length fits no height of this tree is
/// [`VerifyError::InvalidCapLength`]; a cap below the layer where shorter matrices join
/// (above [`TreeShape::max_cap_height`]) commits to nothing about them and is
/// [`VerifyError::MatricesAboveCap`].
///
/// # Errors
/// Every input gives a result, never a panic, hang or allocation beyond the size of the
/// inputs (the work is `O(n log n)` for `n` matrices plus one hash of the opened rows):
/// dimensions beyond the limits of [`TreeShape::new`] (heights above
/// [`MAX_HEIGHT`](crate::shape::MAX_HEIGHT), widths above
/// [`MAX_WIDTH`](crate::shape::MAX_WIDTH), …) are [`VerifyError::InvalidDimensions`]; an
/// index, a row count, a row width, a path length or a cap length that does not fit the
/// shape is rejected (with what was expected) before anything is hashed; otherwise the
/// recomputed digest must equal the cap entry the path leads to.
pub fn verify<C: MerkleConfig>(
    config: &C,
    commitment: &Commitment,
    dims: &[Dimensions],
    index: usize,
    opening: &Opening,
) -> Result<(), VerifyError> {
    let shape = TreeShape::new(dims).map_err(VerifyError::InvalidDimensions)?;
    let max_height = shape.max_height();
    if index >= max_height {
        return Err(VerifyError::IndexOutOfRange { index, max_height });
    }
    check_rows(dims, &opening.rows)?;
    let depth = shape.depth();
    let cap_height = cap_height_of(&shape, commitment)?;
    let path_len = depth - cap_height;
    if opening.siblings.len() != path_len {
        return Err(VerifyError::WrongPathLength {
            expected: path_len,
            found: opening.siblings.len(),
        });
    }
    let rows_of = |matrices: &[usize]| -> Vec<&[Goldilocks]> {
        matrices
            .iter()
            .map(|&m| opening.rows[m].as_slice())
            .collect()
    };
    let mut current = hash_leaf_rows(config.leaf(), &rows_of(&shape.leaves));
    let mut position = index;
    for (sibling, layer) in opening.siblings.iter().zip(&shape.layers) {
        let pair = if position & 1 == 0 {
            [current, *sibling]
        } else {
            [*sibling, current]
        };
        current = config.node().compress(pair);
        position >>= 1;
        if !layer.injected.is_empty() {
            // A valid index always lands below the injected matrices' height.
            let injected = hash_leaf_rows(config.leaf(), &rows_of(&layer.injected));
            current = config.node().compress([current, injected]);
        }
    }
    if commitment.cap.get(position) == Some(&current) {
        Ok(())
    } else {
        Err(VerifyError::RootMismatch {
            cap_index: position,
        })
    }
}
