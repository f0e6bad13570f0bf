//! One leaf's opening and its verification against a commitment.

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;
use serde::{Deserialize, Serialize};

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::{Digest, hash_leaf_rows};
use crate::error::VerifyError;
use crate::shape::{Dimensions, TreeShape};

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
