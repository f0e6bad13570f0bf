//! Openings of many leaves at once that send every sibling digest only once: Plonky3 0.8's
//! pruned multi-proofs (`MerkleTreeMmcs::open_multi_batch` / `verify_multi_batch`), value
//! for value.
//!
//! The verifier knows which leaves were queried (they come from its own transcript), so of
//! all the authentication paths only the digests of subtrees that contain no queried leaf
//! need to be sent. Walking up from the sorted, distinct queried leaves, layer by layer, the
//! nodes that pair with each other are recomputed; each node whose sibling is not on the
//! frontier needs that sibling sent. The proof is those digests in walk order: layer by layer
//! from the leaves, within a layer by increasing position. Indices, depth and widths are not
//! in the proof; the verifier derives them.

use core::convert::Infallible;
use core::ops::Range;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;
use serde::{Deserialize, Serialize};

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::{Digest, hash_leaf_rows};
use crate::dimensions::Dimensions;
use crate::error::{OpenError, VerifyError};
use crate::opening::{cap_height_of, check_rows};
use crate::shape::TreeShape;
use crate::tree::MerkleTree;

/// Many leaves' openings with one shared, deduplicated set of sibling digests (Plonky3 0.8's
/// pruned multi-proofs).
///
/// The verifier knows which leaves were queried, so only the digests of subtrees without a
/// queried leaf are sent: walking up from the sorted, distinct queried leaves layer by layer,
/// nodes that pair with each other are recomputed, and each node whose sibling is not on the
/// frontier needs that sibling — layer by layer from the leaves, by position within a layer.
///
/// As with [`crate::Opening`], only this is the prover's: the commitment, the dimensions and
/// the queried indices must be the verifier's own (see [`verify_multi`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiOpening {
    /// `rows[q][m]`: the row of matrix `m` (input order) that query `q` opens, one entry per
    /// query in query order (a leaf queried twice appears twice).
    pub rows: Vec<Vec<Vec<Goldilocks>>>,
    /// The digests the verifier cannot recompute, in walk order.
    pub siblings: Vec<Digest>,
}

/// Distinct indices in increasing order.
fn sorted_unique(indices: &[usize]) -> Vec<usize> {
    let mut unique = indices.to_vec();
    unique.sort_unstable();
    unique.dedup();
    unique
}

/// A node of the walk: its position in the current layer, the range of sorted-unique query
/// slots below it, and what the walk carries for it.
struct Node<T> {
    position: usize,
    slots: Range<usize>,
    value: T,
}

/// Walks `levels` layers up from `leaves` (positions strictly increasing, one slot each),
/// merging each pair of siblings: `merge(level, parent position, [left, right], slots)`
/// receives the children present on the frontier (at least one) and the query slots below
/// the parent, and returns the parent's value.
fn walk<T, E>(
    leaves: Vec<(usize, T)>,
    levels: usize,
    mut merge: impl FnMut(usize, usize, [Option<T>; 2], Range<usize>) -> Result<T, E>,
) -> Result<Vec<(usize, T)>, E> {
    let mut nodes: Vec<Node<T>> = leaves
        .into_iter()
        .enumerate()
        .map(|(slot, (position, value))| Node {
            position,
            slots: slot..slot + 1,
            value,
        })
        .collect();
    for level in 0..levels {
        let mut parents = Vec::with_capacity(nodes.len());
        let mut rest = nodes.into_iter().peekable();
        while let Some(first) = rest.next() {
            let parent = first.position >> 1;
            let second = rest.next_if(|n| n.position >> 1 == parent);
            let slots = first.slots.start..second.as_ref().map_or(first.slots.end, |s| s.slots.end);
            let children = if first.position & 1 == 0 {
                [Some(first.value), second.map(|s| s.value)]
            } else {
                [None, Some(first.value)]
            };
            let value = merge(level, parent, children, slots.clone())?;
            parents.push(Node {
                position: parent,
                slots,
                value,
            });
        }
        nodes = parents;
    }
    Ok(nodes.into_iter().map(|n| (n.position, n.value)).collect())
}

/// How many digests a multi-opening of the sorted distinct leaves `unique` sends over
/// `levels` layers: one per frontier node whose sibling is not on the frontier.
fn sibling_count(unique: &[usize], levels: usize) -> usize {
    let mut count = 0;
    let leaves = unique.iter().map(|&i| (i, ())).collect();
    let Ok(_) = walk::<_, Infallible>(leaves, levels, |_, _, children, _| {
        count += children.iter().filter(|c| c.is_none()).count();
        Ok(())
    });
    count
}

impl<C: MerkleConfig> MerkleTree<'_, C> {
    /// Opens leaves `indices` (any order, repeats allowed) against the cap of height
    /// `cap_height`, sending each sibling digest once (see [`MultiOpening`]).
    pub fn open_multi(
        &self,
        indices: &[usize],
        cap_height: usize,
    ) -> Result<MultiOpening, OpenError> {
        let unique = sorted_unique(indices);
        let paths = self.open_batch(&unique, cap_height)?;
        let mut siblings = Vec::new();
        let leaves = unique.iter().map(|&i| (i, ())).collect();
        let levels = self.shape().depth() - cap_height;
        let Ok(_) = walk::<_, Infallible>(leaves, levels, |level, _, children, slots| {
            if children.iter().any(Option::is_none) {
                // Every path below this node has the same sibling here.
                siblings.push(paths[slots.start].siblings[level]);
            }
            Ok(())
        });
        let rows = indices
            .iter()
            .map(|i| {
                let slot = unique
                    .binary_search(i)
                    .expect("every index is in the unique set");
                paths[slot].rows.clone()
            })
            .collect();
        Ok(MultiOpening { rows, siblings })
    }
}

/// Checks that `opening` proves the rows of leaves `indices` (in that order) of a tree over
/// matrices of dimensions `dims` with commitment `commitment`.
///
/// # Trust
/// As for [`crate::verify`]: `config`, `commitment`, `dims` and `indices` are the
/// verifier's; only `opening` is the prover's.
///
/// # Errors
/// Everything [`crate::verify`] checks, for every query; besides: one row set per query
/// ([`VerifyError::WrongNumberOfQueries`]), equal rows for a leaf queried twice
/// ([`VerifyError::InconsistentDuplicate`]) and for queries that share a row of a shorter
/// matrix ([`VerifyError::InconsistentSharedRow`]), and exactly the digests the walk needs
/// ([`VerifyError::WrongSiblingCount`]). No index list or proof makes it panic; the work is
/// `O(queries · depth)` hashes.
pub fn verify_multi<C: MerkleConfig>(
    config: &C,
    commitment: &Commitment,
    dims: &[Dimensions],
    indices: &[usize],
    opening: &MultiOpening,
) -> Result<(), VerifyError> {
    let shape = TreeShape::new(dims).map_err(VerifyError::InvalidDimensions)?;
    if opening.rows.len() != indices.len() {
        return Err(VerifyError::WrongNumberOfQueries {
            expected: indices.len(),
            found: opening.rows.len(),
        });
    }
    let max_height = shape.max_height();
    if let Some(&index) = indices.iter().find(|&&i| i >= max_height) {
        return Err(VerifyError::IndexOutOfRange { index, max_height });
    }
    for rows in &opening.rows {
        check_rows(dims, rows)?;
    }
    let cap_height = cap_height_of(&shape, commitment)?;
    let unique = sorted_unique(indices);
    // One representative query per distinct leaf; the others must open the same rows.
    let mut representative: Vec<Option<usize>> = vec![None; unique.len()];
    for (query, index) in indices.iter().enumerate() {
        let slot = unique
            .binary_search(index)
            .expect("every index is in the unique set");
        match representative[slot] {
            None => representative[slot] = Some(query),
            Some(first) if opening.rows[first] != opening.rows[query] => {
                return Err(VerifyError::InconsistentDuplicate { query });
            }
            Some(_) => {}
        }
    }
    let representative: Vec<usize> = representative.into_iter().flatten().collect();
    let rows_of = |slot: usize, matrices: &[usize]| -> Vec<&[Goldilocks]> {
        let rows = &opening.rows[representative[slot]];
        matrices.iter().map(|&m| rows[m].as_slice()).collect()
    };
    let leaves = unique
        .iter()
        .enumerate()
        .map(|(slot, &index)| {
            (
                index,
                hash_leaf_rows(config.leaf(), &rows_of(slot, &shape.leaves)),
            )
        })
        .collect();
    let levels = shape.depth() - cap_height;
    let expected = sibling_count(&unique, levels);
    if opening.siblings.len() != expected {
        return Err(VerifyError::WrongSiblingCount {
            expected,
            found: opening.siblings.len(),
        });
    }
    let mut supplied = opening.siblings.iter().copied();
    let roots = walk(leaves, levels, |level, _, children, slots| {
        // The count was checked above: the walk takes exactly that many digests.
        let [left, right] =
            children.map(|c| c.unwrap_or_else(|| supplied.next().expect("counted siblings")));
        let mut parent = config.node().compress([left, right]);
        let layer = &shape.layers[level];
        if !layer.injected.is_empty() {
            // Queries under this parent open the same row of every matrix joining here.
            let lead = &opening.rows[representative[slots.start]];
            for slot in slots.clone().skip(1) {
                let query = representative[slot];
                if let Some(&matrix) = layer
                    .injected
                    .iter()
                    .find(|&&m| opening.rows[query][m] != lead[m])
                {
                    return Err(VerifyError::InconsistentSharedRow { query, matrix });
                }
            }
            let injected = hash_leaf_rows(config.leaf(), &rows_of(slots.start, &layer.injected));
            parent = config.node().compress([parent, injected]);
        }
        Ok(parent)
    })?;
    for (position, digest) in roots {
        if commitment.cap.get(position) != Some(&digest) {
            return Err(VerifyError::RootMismatch {
                cap_index: position,
            });
        }
    }
    Ok(())
}
