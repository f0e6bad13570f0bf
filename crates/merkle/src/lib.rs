#![doc = include_str!("../README.md")]

mod cap;
mod commitment;
pub mod config;
mod digest;
mod dimensions;
mod error;
mod layers;
mod limits;
mod matrix;
mod multi_opening;
mod opening;
mod overlap;
pub mod shape;
pub mod split;
pub mod stored;
mod stream;
mod tree;

pub use cap::root_from_cap;
pub use commitment::Commitment;
pub use config::{Answers, MerkleConfig, Preset};
pub use digest::{Digest, ZERO_DIGEST};
pub use error::{
    BuildError, DimensionsMismatch, MatrixError, OpenError, OverlapError, ShapeError, SplitError,
    Stopped, StoredTreeError, StreamError, VerifyError,
};
pub use layers::{LayerSink, NoSink};
pub use matrix::Matrix;
pub use multi_opening::{MultiOpening, verify_multi};
pub use opening::{Opening, verify};
pub use overlap::RowSink;
pub use shape::{Dimensions, LayerPlan, MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH, TreeShape};
pub use split::{PartCommitter, SplitPlan};
pub use stored::{
    StoredTree, StoredTreeInfo, StoredTreeWriter, TREE_FILE_MAGIC, TREE_FILE_VERSION, TreeSpec,
};
pub use stream::StreamingCommitter;
pub use tree::{MerkleTree, TreeDigests};
