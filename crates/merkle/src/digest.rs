//! Digests: the 4-element hash values of the tree, and the leaf hash of a leaf's rows.

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Hasher;

/// A 4-element digest.
pub type Digest = [Goldilocks; 4];

/// The digest of padding positions.
pub const ZERO_DIGEST: Digest = [Goldilocks::ZERO; 4];

/// The leaf hash of rows given in order, concatenated.
pub(crate) fn hash_leaf_rows<H: Hasher<4>>(hasher: &H, rows: &[&[Goldilocks]]) -> Digest {
    if let [row] = rows {
        return hasher.hash(row);
    }
    let concatenated: Vec<Goldilocks> = rows.concat();
    hasher.hash(&concatenated)
}
