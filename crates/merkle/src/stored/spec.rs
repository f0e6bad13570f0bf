//! What a stored tree is: the spec a writer is given and the facts its header keeps.

use crate::digest::Digest;
use crate::error::StoredTreeError;
use crate::shape::{Dimensions, TreeShape};

use super::format::{Layout, NAME_BYTES};

/// What to store: the matrix's shape, the commitment's cap height, the levels to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// Elements per row.
    pub width: usize,
    /// Rows (declared up front: a tree file places every level by it).
    pub height: usize,
    /// The cap height of the commitment ([`StoredTree::commitment`](crate::StoredTree::commitment)); the cap layer must be
    /// stored, so `cap_height + dropped ≤ depth`.
    pub cap_height: usize,
    /// Digest levels not stored (`k`): openings rebuild blocks of `2^k` rows.
    pub dropped: usize,
    /// What the caller records about the input, kept in the header and returned by
    /// [`StoredTreeInfo::source_len`] (the CLI stores the input file's length in bytes and
    /// compares it when opening); 0 when it means nothing.
    pub source_len: u64,
}

/// A stored tree's facts, from its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTreeInfo {
    /// The configuration's name ([`MerkleConfig::name`](crate::MerkleConfig::name)) the tree was built with.
    pub config_name: String,
    /// Elements per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The commitment's cap height.
    pub cap_height: usize,
    /// Digest levels not stored.
    pub dropped: usize,
    /// The caller's record of the input ([`TreeSpec::source_len`]).
    pub source_len: u64,
    /// The root.
    pub root: Digest,
}

impl StoredTreeInfo {
    /// The facts of a tree of `spec` built with the configuration `config_name`, whose root
    /// is `root`.
    pub(crate) fn new(config_name: String, spec: &TreeSpec, root: Digest) -> Self {
        StoredTreeInfo {
            config_name,
            width: spec.width,
            height: spec.height,
            cap_height: spec.cap_height,
            dropped: spec.dropped,
            source_len: spec.source_len,
            root,
        }
    }
}

/// The checked spec: its shape and layout.
pub(crate) fn check_spec(
    config_name: &str,
    spec: &TreeSpec,
) -> Result<(TreeShape, Layout), StoredTreeError> {
    if config_name.is_empty() || config_name.len() > NAME_BYTES || config_name.contains('\0') {
        return Err(StoredTreeError::BadConfigName {
            name: config_name.to_string(),
        });
    }
    let shape = TreeShape::new(&[Dimensions {
        width: spec.width,
        height: spec.height,
    }])?;
    let depth = shape.depth();
    if spec
        .cap_height
        .checked_add(spec.dropped)
        .is_none_or(|sum| sum > depth)
    {
        return Err(StoredTreeError::CapNotStored {
            cap_height: spec.cap_height,
            dropped: spec.dropped,
            depth,
        });
    }
    let layout = Layout::new(&shape, spec.dropped);
    Ok((shape, layout))
}
