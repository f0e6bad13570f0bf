//! What a prover publishes: the cap of the tree.

use serde::{Deserialize, Serialize};

use crate::digest::Digest;

/// What a prover publishes: the cap (one digest, the root, for cap height 0).
///
/// A verifier must check openings against a commitment it already trusts (received before
/// the openings, or fixed by the protocol), never against one shipped with the proof it is
/// checking: whoever picks the cap picks which trees "verify". Its length is trusted with it:
/// [`verify`](crate::verify) reads the cap height from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commitment {
    /// The digests of the layer `log₂(cap.len())` below the root.
    pub cap: Vec<Digest>,
}
