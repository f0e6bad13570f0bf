//! From a cap back to the root, for verifiers that trust only a root.

use aurum_symmetric::Compressor;

use crate::config::MerkleConfig;
use crate::digest::{Digest, ZERO_DIGEST};
use crate::error::VerifyError;
use crate::shape::TreeShape;

/// The root of the tree of shape `shape` whose cap of height `cap_height` is `cap`.
///
/// A verifier that trusts only a root checks a prover's cap with this before checking
/// openings against the cap. The layers above the cap are recomputed exactly as the tree
/// builds them (odd layers padded with zero digests). A cap height above
/// [`TreeShape::max_cap_height`] is refused ([`VerifyError::MatricesAboveCap`]): such a cap
/// does not commit to the matrices that join above it.
pub fn root_from_cap<C: MerkleConfig>(
    config: &C,
    shape: &TreeShape,
    cap_height: usize,
    cap: &[Digest],
) -> Result<Digest, VerifyError> {
    let depth = shape.depth();
    let expected = shape
        .cap_len(cap_height)
        .ok_or(VerifyError::CapHeightTooLarge { cap_height, depth })?;
    if cap.len() != expected {
        return Err(VerifyError::WrongCapLength {
            cap_height,
            expected,
            found: cap.len(),
        });
    }
    if cap_height > shape.max_cap_height() {
        return Err(VerifyError::MatricesAboveCap { cap_height });
    }
    // The cap is the whole digest layer `depth − cap_height` (a layer `h` below the root
    // never has more than 2^h digests); `shape.layers[k]` describes layer `k + 1`, and none
    // of the layers above the cap has matrices joining.
    let above = &shape.layers[depth - cap_height..];
    let mut current = cap.to_vec();
    for layer in above {
        let mut parents: Vec<Digest> = current
            .chunks_exact(2)
            .map(|pair| config.node().compress([pair[0], pair[1]]))
            .collect();
        parents.resize(layer.len, ZERO_DIGEST);
        current = parents;
    }
    Ok(current[0])
}
