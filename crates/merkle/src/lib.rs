#![doc = include_str!("../README.md")]

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
