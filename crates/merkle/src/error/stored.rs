//! Errors of stored trees: writing, reading and opening them.

use core::fmt;
use core::ops::Range;
use std::io;

use crate::stored::format::{NAME_BYTES, TREE_FILE_VERSION};

use super::streaming::StreamError;
use super::tree::ShapeError;

/// Why a tree could not be stored, read or opened.
#[derive(Debug)]
pub enum StoredTreeError {
    /// Reading or writing the tree file failed.
    Io {
        /// What was being done.
        action: &'static str,
        /// The error.
        source: io::Error,
    },
    /// The streamed rows were refused (wrong count, ragged rows).
    Stream(StreamError),
    /// The width or height cannot form a tree (from a spec, or from a tree file's header).
    Shape(ShapeError),
    /// The cap layer would not be stored: `cap_height + dropped` exceeds the depth.
    CapNotStored {
        /// The cap height.
        cap_height: usize,
        /// The dropped levels.
        dropped: usize,
        /// The tree's depth.
        depth: usize,
    },
    /// A configuration name that a tree file cannot hold (empty, longer than 32 bytes, or
    /// containing a zero byte).
    BadConfigName {
        /// The name.
        name: String,
    },
    /// Not a tree file: the magic bytes differ.
    NotATreeFile,
    /// A tree file of another format version.
    UnsupportedVersion {
        /// The file's version.
        found: u32,
    },
    /// The file is shorter than its header says.
    Truncated {
        /// The file's length.
        len: u64,
        /// The length it should have.
        expected: u64,
    },
    /// The file is longer than its header says.
    TrailingBytes {
        /// The file's length.
        len: u64,
        /// The length it should have.
        expected: u64,
    },
    /// The header is damaged or inconsistent.
    CorruptHeader {
        /// What is wrong.
        reason: String,
    },
    /// A stored level's digests do not match its checksum, or hold a non-canonical value.
    CorruptLevel {
        /// The level (0 = leaf digests).
        level: usize,
    },
    /// The tree was built with another configuration than the one given to open it.
    ConfigMismatch {
        /// The tree's configuration.
        stored: String,
        /// The configuration given.
        given: String,
    },
    /// The leaf index is not below the height.
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The height.
        height: usize,
    },
    /// A cap height the stored tree cannot give: above the depth, or (for a cap) inside the
    /// dropped levels.
    CapTooHigh {
        /// The cap height asked for.
        cap_height: usize,
        /// The largest it may be.
        max: usize,
    },
    /// The rows given for a block are not the block's (see [`StoredTree::block_rows`](crate::StoredTree::block_rows)).
    WrongBlockLength {
        /// Elements the block has.
        expected: usize,
        /// Elements given.
        found: usize,
    },
    /// The rows given for the block of a leaf do not hash to the tree's node for that block:
    /// the input is not the committed one (the stored path itself leads to the root).
    InputMismatch {
        /// The rows of the block.
        rows: Range<usize>,
    },
    /// The stored digests on a leaf's path do not lead to the root: the tree file is damaged
    /// (or neither it nor the input is the committed one).
    CorruptPath {
        /// The leaf.
        index: usize,
    },
    /// Memory for the digests asked for (a cap, a level) could not be allocated.
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
    },
}

impl fmt::Display for StoredTreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredTreeError::Io { action, source } => write!(f, "{action}: {source}"),
            StoredTreeError::Stream(e) => e.fmt(f),
            StoredTreeError::Shape(e) => e.fmt(f),
            StoredTreeError::CapNotStored {
                cap_height,
                dropped,
                depth,
            } => write!(
                f,
                "a cap of height {cap_height} with {dropped} dropped levels would not be stored: \
                 the tree has depth {depth}, so cap height + dropped levels must be at most {depth}"
            ),
            StoredTreeError::BadConfigName { name } => write!(
                f,
                "the configuration name {name:?} cannot be stored (1 to {NAME_BYTES} bytes, \
                 no zero byte)"
            ),
            StoredTreeError::NotATreeFile => write!(f, "not an aurum tree file (wrong magic)"),
            StoredTreeError::UnsupportedVersion { found } => write!(
                f,
                "tree file version {found} is not supported (this build reads version \
                 {TREE_FILE_VERSION})"
            ),
            StoredTreeError::Truncated { len, expected } => write!(
                f,
                "the tree file is truncated: {len} bytes, its header needs {expected}"
            ),
            StoredTreeError::TrailingBytes { len, expected } => write!(
                f,
                "the tree file has {len} bytes, {} more than its header's {expected}",
                len - expected
            ),
            StoredTreeError::CorruptHeader { reason } => {
                write!(f, "the tree file's header is damaged: {reason}")
            }
            StoredTreeError::CorruptLevel { level } => write!(
                f,
                "the tree file is damaged: digest level {level} does not match its checksum"
            ),
            StoredTreeError::ConfigMismatch { stored, given } => write!(
                f,
                "the tree was built with the {stored} configuration, not {given}"
            ),
            StoredTreeError::IndexOutOfRange { index, height } => write!(
                f,
                "leaf index {index} is out of range: the tree has {height} leaves"
            ),
            StoredTreeError::CapTooHigh { cap_height, max } => write!(
                f,
                "cap height {cap_height} is not available from this stored tree (at most {max})"
            ),
            StoredTreeError::WrongBlockLength { expected, found } => write!(
                f,
                "the block's rows are {expected} elements, {found} were given"
            ),
            StoredTreeError::InputMismatch { rows } => write!(
                f,
                "the input does not match the tree: rows {}..{} do not hash to the committed node",
                rows.start, rows.end
            ),
            StoredTreeError::CorruptPath { index } => write!(
                f,
                "the tree's digests on the path of leaf {index} do not lead to its root: the tree \
                 file is damaged"
            ),
            StoredTreeError::OutOfMemory { bytes } => {
                write!(f, "cannot allocate {} MiB of digests", bytes >> 20)
            }
        }
    }
}

impl std::error::Error for StoredTreeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoredTreeError::Io { source, .. } => Some(source),
            StoredTreeError::Stream(e) => Some(e),
            StoredTreeError::Shape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StreamError> for StoredTreeError {
    fn from(e: StreamError) -> Self {
        StoredTreeError::Stream(e)
    }
}

impl From<ShapeError> for StoredTreeError {
    fn from(e: ShapeError) -> Self {
        StoredTreeError::Shape(e)
    }
}

pub(crate) fn io_error(action: &'static str) -> impl FnOnce(io::Error) -> StoredTreeError {
    move |source| StoredTreeError::Io { action, source }
}

pub(crate) fn corrupt(reason: impl Into<String>) -> StoredTreeError {
    StoredTreeError::CorruptHeader {
        reason: reason.into(),
    }
}
