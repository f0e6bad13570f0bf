//! The Plonky3 types [`FriPcs`](crate::FriPcs) speaks: its challenge field, its commitment,
//! the MMCSs a Plonky3 configuration over this crate's hashes names, and its opening proof.

use p3_commit::ExtensionMmcs;
use p3_field::Field;
use p3_field::extension::BinomialExtensionField;
use p3_fri::BatchMultiOpening;
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_merkle_tree::{MerkleCap, MerkleTreeMmcs};

use crate::hash::{PaddingFreeSponge, TruncatedPermutation};

/// The challenge field: Plonky3's quadratic extension of Goldilocks (`X² − 7`), which is
/// Aurum's [`Goldilocks2`](aurum_goldilocks::Goldilocks2).
pub type Challenge = BinomialExtensionField<P3Goldilocks, 2>;

/// The commitment: Plonky3's Merkle cap of 4-element digests.
pub type Cap = MerkleCap<P3Goldilocks, [P3Goldilocks; 4]>;

/// `aurum-fri`'s Merkle configuration for [`FriPcs`](crate::FriPcs): Plonky3's Poseidon2 tree (padding-free
/// sponge of rate `RATE` for the leaves, the width-`W` permutation truncated to 4 elements for
/// the nodes) over the caller's permutation — with the caller's round constants.
pub type MerkleConfig<Perm, const W: usize, const RATE: usize> = aurum_merkle::config::Config<
    aurum_symmetric::PaddingFreeSponge<Perm, W, RATE, 4>,
    aurum_symmetric::TruncatedPermutation<Perm, W, 4>,
>;

/// The `MerkleTreeMmcs` whose types [`FriPcs`](crate::FriPcs)'s proofs have: the one a Plonky3 configuration
/// over this crate's hashes names. [`FriPcs`](crate::FriPcs) builds its trees itself;
/// [`FriPcs::from_p3_parameters`](crate::FriPcs::from_p3_parameters) reads this MMCS's cap height and checks what it commits to.
pub type ValMmcs<Perm, const W: usize, const RATE: usize> = MerkleTreeMmcs<
    <P3Goldilocks as Field>::Packing,
    <P3Goldilocks as Field>::Packing,
    PaddingFreeSponge<Perm, W, RATE, 4>,
    TruncatedPermutation<Perm, 2, 4, W>,
    2,
    4,
>;

/// The `ExtensionMmcs` over [`ValMmcs`] that commits to the folded codewords.
pub type ChallengeMmcs<Perm, const W: usize, const RATE: usize> =
    ExtensionMmcs<P3Goldilocks, Challenge, ValMmcs<Perm, W, RATE>>;

/// [`FriPcs`](crate::FriPcs)'s opening proof: Plonky3's `FriProof`, the type `TwoAdicFriPcs` over
/// [`ValMmcs`] and [`ChallengeMmcs`] produces.
pub type PcsProof<Perm, const W: usize, const RATE: usize> = p3_fri::FriProof<
    Challenge,
    ChallengeMmcs<Perm, W, RATE>,
    P3Goldilocks,
    Vec<BatchMultiOpening<P3Goldilocks, ValMmcs<Perm, W, RATE>>>,
>;
