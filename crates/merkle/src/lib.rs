//! Merkle commitments over Goldilocks for STARK provers.
//!
//! * [`MerkleTree`]: one or more row-major matrices (borrowed, never copied), leaves hashed
//!   with packed, batched permutations on the backend selected at run time, layers compressed
//!   the same way, both rayon-parallel; mixed heights join the tree exactly as in Plonky3's
//!   `MerkleTreeMmcs` (see [`shape`]); caps of any height; openings and batch openings; an
//!   option to drop the lowest digest layers and rebuild them when opening.
//! * [`verify`]: checks an opening against a commitment, with errors that say what is wrong.
//!   The commitment, the dimensions and the index must be the verifier's own; only the
//!   opening comes from the prover (see [`verify`]).
//! * [`MerkleTree::open_multi`] / [`verify_multi`]: many leaves at once, each sibling digest
//!   sent once (Plonky3 0.8's pruned multi-proofs), as FRI's query phase opens trees.
//! * [`StreamingCommitter`]: the same commitment for a single matrix whose rows arrive in
//!   order, in `O(log n)` digests of memory; [`StreamingCommitter::push_overlapped`] produces
//!   them (reads a file, say) on a second thread while the hashing goes on, and a
//!   [`LayerSink`] may receive the digest layers as they are produced.
//! * [`stored`]: a single matrix's tree kept for later — [`StoredTreeWriter`] streams the rows
//!   and keeps the digest layers (all, or all but the lowest `k`) in memory or in a tree file,
//!   [`StoredTree`] opens a leaf from them and the `2^k` rows of its block, so that a prover
//!   can commit, drop the matrix, and answer queries later.
//! * [`split`]: the same commitment computed in power-of-two-aligned row ranges by separate
//!   processes ([`PartCommitter`]) and completed from one cap's worth of digests per part
//!   ([`SplitPlan::complete`]); the CLI's MPI mode is built on it.
//! * Presets ([`config`]): `Poseidon2W8` (Plonky3's standard setup), `Poseidon2W12`,
//!   `Poseidon2W16`, `Plonky2` (Poseidon `hash_or_noop` leaves, `two_to_one` nodes, caps) and
//!   `Polygon` (Poseidon `linear_hash` leaves, the same nodes; Polygon zkProver's tree).
//!
//! Sizes are limited ([`MAX_HEIGHT`] rows; widths summing to at most [`MAX_WIDTH`]) and
//! checked before any arithmetic is done with them: every size that may come from a file, a
//! flag or a proof gives a typed error when out of range, never a panic or an overflow.
//!
//! ```
//! use aurum_goldilocks::Goldilocks;
//! use aurum_merkle::{Matrix, MerkleTree, config, verify};
//!
//! let values: Vec<Goldilocks> = (0..64u32).map(Goldilocks::from).collect();
//! let config = config::poseidon2_w8();
//! let tree = MerkleTree::new(&config, vec![Matrix::new(&values, 8).unwrap()]).unwrap();
//! let commitment = tree.commitment(1).unwrap();
//! let opening = tree.open(5, 1).unwrap();
//! assert_eq!(opening.rows[0], values[40..48].to_vec());
//! verify(&config, &commitment, &tree.shape().dims(), 5, &opening).unwrap();
//! ```

mod cap;
pub mod config;
mod layers;
mod multi;
mod overlap;
pub mod shape;
pub mod split;
pub mod stored;
mod stream;
mod tree;
mod verify;

pub use cap::root_from_cap;
pub use config::{MerkleConfig, Preset};
pub use layers::{LayerSink, NoSink};
pub use multi::{MultiOpening, verify_multi};
pub use overlap::{OverlapError, RowSink, Stopped};
pub use shape::{Dimensions, MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH, ShapeError, TreeShape};
pub use split::{PartCommitter, SplitError, SplitPlan};
pub use stored::{
    StoredTree, StoredTreeError, StoredTreeInfo, StoredTreeWriter, TREE_FILE_MAGIC,
    TREE_FILE_VERSION, TreeSpec,
};
pub use stream::{StreamError, StreamingCommitter};
pub use tree::{
    BuildError, Digest, DimensionsMismatch, Matrix, MatrixError, MerkleTree, OpenError,
    TreeDigests, ZERO_DIGEST,
};
pub use verify::{Commitment, Opening, VerifyError, verify};
