//! The tree kept for later: a single matrix's digest layers, written while the rows stream in
//! ([`StoredTreeWriter`]), kept in memory or in a tree file, and opened later from the tree
//! and one block of rows ([`StoredTree`]) — so that a prover can commit, drop the trace, and
//! answer queries afterwards, reading only what a query needs.
//!
//! # What is stored
//!
//! Layers `k..=depth` of the tree (`k` = [`TreeSpec::dropped`], as
//! [`MerkleTree::with_dropped_layers`](crate::MerkleTree::with_dropped_layers) keeps them),
//! each exactly as [`MerkleTree::layer`](crate::MerkleTree::layer) has it, zero padding
//! digest included. Opening leaf `i` reads the siblings of its path at levels `≥ k` (one
//! digest per level) and rebuilds the levels below from the `2^k` rows of its block, which
//! the caller supplies ([`StoredTree::block_rows`] says which): the tree costs `2^-k` of
//! `64` bytes per row, an opening `2^k` leaf hashes.
//!
//! # The tree file (version 1)
//!
//! All integers little-endian; a digest is its four canonical `u64` values (32 bytes).
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `AURMTREE` |
//! | 8 | 4 | version, 1 |
//! | 12 | 4 | header length `H` = `144 + 16 · n` |
//! | 16 | 32 | the configuration's name ([`MerkleConfig::name`]), zero-padded UTF-8 |
//! | 48 | 8 | width |
//! | 56 | 8 | height |
//! | 64 | 8 | cap height of the commitment |
//! | 72 | 8 | dropped levels `k` |
//! | 80 | 8 | source length: what the writer's caller said the input was (the CLI: the input file's length in bytes) |
//! | 88 | 32 | the root |
//! | 120 | 8 | the file's length |
//! | 128 | 4 | stored levels `n = depth + 1 − k` |
//! | 132 | 4 | zero |
//! | 136 | 16 · n | per stored level, from `k` up: its length in digests, its checksum |
//! | `H − 8` | 8 | checksum of the header's bytes before it |
//! | `H` | | level `k`, then level `k + 1`, …, up to the root |
//!
//! Every level's offset follows from the shape, which the writer knows before the first row
//! (the height is declared), so each level is written at its place through its own small
//! buffer with positioned writes, as the [`StreamingCommitter`]
//! produces it: memory stays at one buffer per level (at most 64 KiB each), whatever the size
//! of the tree. The header comes last; the file is written under a temporary name in the
//! same directory and renamed only when complete and synced, so no reader ever sees a
//! partial tree file at the path.
//!
//! The checksums are a fast non-cryptographic hash of 64-bit words (a multiply-rotate chain in
//! which every word is a bijective step, so any single changed word changes the checksum).
//! They detect accidental damage, not forgery: the root is what binds the tree to its rows.
//! Reading a tree file checks the header completely — magic, version, the header checksum,
//! the shape, every level's length against it, the file's length against the sum — without
//! reading the layers; [`StoredTree::check_layers`] reads them all and checks their
//! checksums. Every opening is verified against the root before it is returned, so a damaged
//! sibling or an input that is not the committed one is an error
//! ([`StoredTreeError::CorruptPath`], [`StoredTreeError::InputMismatch`]), never a wrong
//! proof.
//!
//! Only single-matrix trees are stored (what a [`StreamingCommitter`]
//! commits); mixed-height trees would need their injected rows at opening time and are not
//! supported by this format version.

use core::fmt;
use core::ops::Range;
use std::fs::{File, Permissions};
use std::io;
use std::os::unix::fs::{FileExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::{Compressor, compress_layer, hash_rows};

use crate::config::MerkleConfig;
use crate::layers::LayerSink;
use crate::overlap::{OverlapError, RowSink};
use crate::shape::{Dimensions, MAX_LOG_HEIGHT, ShapeError, TreeShape};
use crate::stream::{StreamError, StreamingCommitter};
use crate::tree::{Digest, ZERO_DIGEST};
use crate::verify::{Commitment, Opening, verify};

/// The first eight bytes of a tree file.
pub const TREE_FILE_MAGIC: [u8; 8] = *b"AURMTREE";

/// The tree file format version this crate writes and reads.
pub const TREE_FILE_VERSION: u32 = 1;

/// Bytes of the header before the level table.
const FIXED_HEADER: usize = 136;
/// Bytes per level in the level table (length, checksum).
const LEVEL_ENTRY: usize = 16;
/// The longest configuration name a tree file holds.
const NAME_BYTES: usize = 32;
/// Bytes of one stored digest.
const DIGEST_BYTES: usize = 32;
/// Digests buffered per level before a positioned write (64 KiB).
const BUFFER_DIGESTS: usize = 2048;
/// Bytes per read when checking a level's checksum (1 MiB).
const CHECK_READ_BYTES: usize = 1 << 20;

/// What to store: the matrix's shape, the commitment's cap height, the levels to drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// Elements per row.
    pub width: usize,
    /// Rows (declared up front: a tree file places every level by it).
    pub height: usize,
    /// The cap height of the commitment ([`StoredTree::commitment`]); the cap layer must be
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
    /// The configuration's name ([`MerkleConfig::name`]) the tree was built with.
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
    /// The rows given for a block are not the block's (see [`StoredTree::block_rows`]).
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

fn io_error(action: &'static str) -> impl FnOnce(io::Error) -> StoredTreeError {
    move |source| StoredTreeError::Io { action, source }
}

fn corrupt(reason: impl Into<String>) -> StoredTreeError {
    StoredTreeError::CorruptHeader {
        reason: reason.into(),
    }
}

/// A running checksum of 64-bit words: each step `s ← (rotl(s, 23) ⊕ w) · M` with `M` odd is
/// a bijection of the word for a fixed state and of the state for a fixed word, so two word
/// sequences of the same length that differ in one word end in different states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Checksum(u64);

impl Checksum {
    fn new() -> Self {
        Checksum(0x243F_6A88_85A3_08D3)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    /// Whole 8-byte words of `bytes` (its length is a multiple of 8 everywhere it is used).
    fn bytes(&mut self, bytes: &[u8]) {
        for word in bytes.chunks_exact(8) {
            self.word(le_u64(word));
        }
    }
}

fn le_u64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

fn le_u32(bytes: &[u8]) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[..4]);
    u32::from_le_bytes(word)
}

fn encode_digest(digest: &Digest, out: &mut Vec<u8>) {
    for x in digest {
        out.extend_from_slice(&x.as_canonical_u64().to_le_bytes());
    }
}

/// A digest from its 32 stored bytes, `None` if a value is not canonical.
fn decode_digest(bytes: &[u8]) -> Option<Digest> {
    let mut digest = ZERO_DIGEST;
    for (x, word) in digest.iter_mut().zip(bytes.chunks_exact(8)) {
        *x = Goldilocks::from_canonical(le_u64(word)).ok()?;
    }
    Some(digest)
}

/// Where every stored level lies, from the shape: level `dropped + i` has `lens[i]` digests
/// at byte `offsets[i]`; the file has `file_len` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    header_len: usize,
    lens: Vec<u64>,
    offsets: Vec<u64>,
    file_len: u64,
}

impl Layout {
    /// The layout of levels `dropped..=depth` of `shape` (`dropped ≤ depth` ≤ 48: every sum
    /// below is at most about `2^54` bytes).
    fn new(shape: &TreeShape, dropped: usize) -> Self {
        let levels = shape.depth() + 1 - dropped;
        let header_len = FIXED_HEADER + LEVEL_ENTRY * levels + 8;
        let mut lens = Vec::with_capacity(levels);
        let mut offsets = Vec::with_capacity(levels);
        let mut offset = header_len as u64;
        for j in dropped..=shape.depth() {
            let len = shape.layer_len(j) as u64;
            lens.push(len);
            offsets.push(offset);
            offset += len * DIGEST_BYTES as u64;
        }
        Layout {
            header_len,
            lens,
            offsets,
            file_len: offset,
        }
    }
}

/// The checked spec: its shape and layout.
fn check_spec(config_name: &str, spec: &TreeSpec) -> Result<(TreeShape, Layout), StoredTreeError> {
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

/// The header's bytes.
fn encode_header(info: &StoredTreeInfo, layout: &Layout, checksums: &[u64]) -> Vec<u8> {
    let mut h = Vec::with_capacity(layout.header_len);
    h.extend_from_slice(&TREE_FILE_MAGIC);
    h.extend_from_slice(&TREE_FILE_VERSION.to_le_bytes());
    h.extend_from_slice(&(layout.header_len as u32).to_le_bytes());
    let mut name = [0u8; NAME_BYTES];
    name[..info.config_name.len()].copy_from_slice(info.config_name.as_bytes());
    h.extend_from_slice(&name);
    for value in [
        info.width as u64,
        info.height as u64,
        info.cap_height as u64,
        info.dropped as u64,
        info.source_len,
    ] {
        h.extend_from_slice(&value.to_le_bytes());
    }
    encode_digest(&info.root, &mut h);
    h.extend_from_slice(&layout.file_len.to_le_bytes());
    h.extend_from_slice(&(layout.lens.len() as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    for (len, checksum) in layout.lens.iter().zip(checksums) {
        h.extend_from_slice(&len.to_le_bytes());
        h.extend_from_slice(&checksum.to_le_bytes());
    }
    let mut sum = Checksum::new();
    sum.bytes(&h);
    h.extend_from_slice(&sum.0.to_le_bytes());
    debug_assert_eq!(h.len(), layout.header_len);
    h
}

/// One level being written: its place, a buffer, its checksum so far.
#[derive(Debug)]
struct LevelWriter {
    offset: u64,
    len: u64,
    /// Digests written to the file so far (the buffer holds the next ones).
    flushed: u64,
    buffer: Vec<u8>,
    checksum: Checksum,
}

/// The layers being written to a file.
#[derive(Debug)]
struct FileLayers {
    /// The temporary file written (removed when dropped unless renamed into place).
    temp: NamedTempFile,
    /// Where it goes when complete.
    path: PathBuf,
    levels: Vec<LevelWriter>,
    dropped: usize,
    /// The first write error; everything after it is ignored.
    error: Option<io::Error>,
}

impl FileLayers {
    fn flush(file: &File, level: &mut LevelWriter) -> io::Result<()> {
        if level.buffer.is_empty() {
            return Ok(());
        }
        let at = level.offset + level.flushed * DIGEST_BYTES as u64;
        file.write_all_at(&level.buffer, at)?;
        level.flushed += (level.buffer.len() / DIGEST_BYTES) as u64;
        level.buffer.clear();
        Ok(())
    }

    fn push(&mut self, level: usize, nodes: &[Digest]) -> io::Result<()> {
        let Some(i) = level.checked_sub(self.dropped) else {
            return Ok(());
        };
        let Some(writer) = self.levels.get_mut(i) else {
            return Err(io::Error::other(format!(
                "digest level {level} is above the tree's root"
            )));
        };
        let buffered = (writer.buffer.len() / DIGEST_BYTES) as u64;
        if writer.flushed + buffered + nodes.len() as u64 > writer.len {
            return Err(io::Error::other(format!(
                "more digests for level {level} than its {}",
                writer.len
            )));
        }
        if writer.buffer.capacity() == 0 {
            // At most 64 KiB, and no more than the level needs.
            let digests = writer.len.min(BUFFER_DIGESTS as u64) as usize;
            writer.buffer.reserve_exact(digests * DIGEST_BYTES);
        }
        for node in nodes {
            let start = writer.buffer.len();
            encode_digest(node, &mut writer.buffer);
            writer.checksum.bytes(&writer.buffer[start..]);
            if writer.buffer.len() == writer.buffer.capacity() {
                Self::flush(self.temp.as_file(), writer)?;
            }
        }
        Ok(())
    }
}

/// Where the layers go while streaming.
#[derive(Debug)]
enum LayerStore {
    /// Levels `dropped..`, in memory.
    Memory {
        levels: Vec<Vec<Digest>>,
        dropped: usize,
    },
    /// Levels `dropped..`, in a file.
    File(Box<FileLayers>),
}

impl LayerSink for LayerStore {
    fn push(&mut self, level: usize, nodes: &[Digest]) {
        match self {
            LayerStore::Memory { levels, dropped } => {
                if let Some(stored) = level.checked_sub(*dropped).and_then(|i| levels.get_mut(i)) {
                    stored.extend_from_slice(nodes);
                }
            }
            LayerStore::File(file) => {
                if file.error.is_none()
                    && let Err(e) = file.push(level, nodes)
                {
                    file.error = Some(e);
                }
            }
        }
    }
}

/// Commits to a single matrix whose rows arrive in order (a [`StreamingCommitter`] inside)
/// and stores its digest layers `dropped..` — in memory, or in a tree file written as they
/// are produced — for a [`StoredTree`] to open later.
#[derive(Debug)]
pub struct StoredTreeWriter<'c, C: MerkleConfig> {
    committer: StreamingCommitter<'c, C, LayerStore>,
    config_name: &'static str,
    spec: TreeSpec,
    layout: Layout,
    shape: TreeShape,
}

impl<'c, C: MerkleConfig> StoredTreeWriter<'c, C> {
    /// A writer that keeps the stored layers in memory (`2^-k · 64` bytes per row).
    ///
    /// # Errors
    /// [`StoredTreeError::Shape`] for a width or height out of range;
    /// [`StoredTreeError::CapNotStored`] when `cap_height + dropped` exceeds the depth;
    /// [`StoredTreeError::BadConfigName`] for a configuration name a tree file cannot hold
    /// (so that any stored tree can be written to a file).
    pub fn in_memory(config: &'c C, spec: TreeSpec) -> Result<Self, StoredTreeError> {
        let (shape, layout) = check_spec(config.name(), &spec)?;
        let store = LayerStore::Memory {
            levels: vec![Vec::new(); layout.lens.len()],
            dropped: spec.dropped,
        };
        Self::with_store(config, spec, shape, layout, store)
    }

    /// A writer of the tree file `path`. The file is written to a temporary file in the same
    /// directory, created exclusively (never through an existing file or link) under an
    /// unpredictable name, `.aurum-tmp-PID-RANDOM`, and then as [`StoredTreeWriter::create_in`]
    /// says.
    ///
    /// # Errors
    /// As [`StoredTreeWriter::in_memory`], and [`StoredTreeError::Io`] when the file cannot
    /// be created.
    pub fn create_file(
        config: &'c C,
        spec: TreeSpec,
        path: &Path,
    ) -> Result<Self, StoredTreeError> {
        check_spec(config.name(), &spec)?;
        let creating = io_error("creating the tree file");
        if path.file_name().is_none() {
            return Err(creating(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path has no file name",
            )));
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(&format!(".aurum-tmp-{}-", std::process::id()))
            .rand_bytes(12)
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(creating)?;
        Self::create_in(config, spec, temp, path)
    }

    /// A writer of the tree file `path` that writes into `temp`, an empty temporary file the
    /// caller created in `path`'s directory (the CLI creates it before any work, to check
    /// the directory). `temp` is set to the file's full length now; levels are written into
    /// it as they are produced, through one buffer of at most 64 KiB per level, and
    /// [`StoredTreeWriter::finish`] syncs it and renames it to `path` once complete (a link
    /// at `path` is replaced, never followed). If the writer is dropped before, or `finish`
    /// fails, `temp` is removed; a process killed meanwhile leaves only `temp`, never a
    /// partial file at `path`.
    ///
    /// # Errors
    /// As [`StoredTreeWriter::in_memory`], and [`StoredTreeError::Io`] when `temp` cannot be
    /// extended.
    pub fn create_in(
        config: &'c C,
        spec: TreeSpec,
        temp: NamedTempFile,
        path: &Path,
    ) -> Result<Self, StoredTreeError> {
        let (shape, layout) = check_spec(config.name(), &spec)?;
        temp.as_file()
            .set_len(layout.file_len)
            .map_err(io_error("creating the tree file"))?;
        let levels = layout
            .lens
            .iter()
            .zip(&layout.offsets)
            .map(|(&len, &offset)| LevelWriter {
                offset,
                len,
                flushed: 0,
                buffer: Vec::new(),
                checksum: Checksum::new(),
            })
            .collect();
        let store = LayerStore::File(Box::new(FileLayers {
            temp,
            path: path.to_path_buf(),
            levels,
            dropped: spec.dropped,
            error: None,
        }));
        Self::with_store(config, spec, shape, layout, store)
    }

    fn with_store(
        config: &'c C,
        spec: TreeSpec,
        shape: TreeShape,
        layout: Layout,
        store: LayerStore,
    ) -> Result<Self, StoredTreeError> {
        let committer =
            StreamingCommitter::with_sink(config, spec.width, spec.height, spec.cap_height, store)?;
        Ok(Self {
            committer,
            config_name: config.name(),
            spec,
            layout,
            shape,
        })
    }

    /// The spec being written.
    #[must_use]
    pub fn spec(&self) -> &TreeSpec {
        &self.spec
    }

    /// Rows consumed so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.committer.rows()
    }

    /// Appends whole rows (see [`StreamingCommitter::push_rows`]).
    ///
    /// # Errors
    /// [`StoredTreeError::Stream`] for rows the committer refuses (nothing is consumed);
    /// [`StoredTreeError::Io`] once writing the tree file has failed.
    pub fn push_rows(&mut self, values: &[Goldilocks]) -> Result<(), StoredTreeError> {
        self.committer.push_rows(values)?;
        if let LayerStore::File(file) = self.committer.sink()
            && let Some(e) = &file.error
        {
            return Err(StoredTreeError::Io {
                action: "writing the tree file",
                source: io::Error::new(e.kind(), e.to_string()),
            });
        }
        Ok(())
    }

    /// Pushes the rows `produce` writes to its sink, read on a second thread while this one
    /// hashes (see [`StreamingCommitter::push_overlapped`]). An error writing the tree file
    /// meanwhile is reported by [`StoredTreeWriter::finish`].
    ///
    /// # Errors
    /// As [`StreamingCommitter::push_overlapped`].
    pub fn push_overlapped<E: Send>(
        &mut self,
        produce: impl FnOnce(&mut RowSink) -> Result<(), E> + Send,
    ) -> Result<(), OverlapError<E>> {
        self.committer.push_overlapped(produce)
    }

    /// The temporary file being written (renamed to its path by
    /// [`StoredTreeWriter::finish`]), for callers that remove it when interrupted; `None` for
    /// a tree kept in memory.
    #[must_use]
    pub fn temp_path(&self) -> Option<&Path> {
        match self.committer.sink() {
            LayerStore::File(file) => Some(file.temp.path()),
            LayerStore::Memory { .. } => None,
        }
    }

    /// Finishes the tree: the commitment and the stored tree (for a file: the header written,
    /// the file synced and renamed to its path, then read back as [`StoredTree::from_file`]
    /// does).
    ///
    /// # Errors
    /// [`StoredTreeError::Stream`] for fewer rows than declared; [`StoredTreeError::Io`] when
    /// writing failed; any error of [`StoredTree::from_file`].
    pub fn finish(self) -> Result<(Commitment, StoredTree), StoredTreeError> {
        let StoredTreeWriter {
            committer,
            config_name,
            spec,
            layout,
            shape,
        } = self;
        let info = |root| StoredTreeInfo {
            config_name: config_name.to_string(),
            width: spec.width,
            height: spec.height,
            cap_height: spec.cap_height,
            dropped: spec.dropped,
            source_len: spec.source_len,
            root,
        };
        let (commitment, store) = committer.finish_with_sink()?;
        let root = match &store {
            LayerStore::Memory { levels, .. } => levels.last().and_then(|l| l.first()).copied(),
            LayerStore::File(_) => None,
        };
        match store {
            LayerStore::Memory { levels, dropped } => {
                let lens_match = levels
                    .iter()
                    .zip(&layout.lens)
                    .all(|(l, &len)| l.len() as u64 == len);
                let root = root
                    .filter(|_| lens_match)
                    .ok_or_else(|| StoredTreeError::Io {
                        action: "storing the tree",
                        source: io::Error::other("the committer did not deliver every layer"),
                    })?;
                let info = info(root);
                debug_assert_eq!(dropped, info.dropped);
                let tree = StoredTree {
                    info,
                    shape,
                    layout,
                    checksums: Vec::new(),
                    storage: Storage::Memory(levels),
                };
                Ok((commitment, tree))
            }
            LayerStore::File(mut file) => {
                if let Some(source) = file.error.take() {
                    return Err(StoredTreeError::Io {
                        action: "writing the tree file",
                        source,
                    });
                }
                let write = io_error("writing the tree file");
                let mut checksums = Vec::with_capacity(file.levels.len());
                for level in &mut file.levels {
                    FileLayers::flush(file.temp.as_file(), level)
                        .map_err(io_error("writing the tree file"))?;
                    if level.flushed != level.len {
                        return Err(write(io::Error::other(
                            "the committer did not deliver every layer",
                        )));
                    }
                    checksums.push(level.checksum.0);
                }
                let top = layout.offsets.last().copied().unwrap_or_default();
                let mut bytes = [0u8; DIGEST_BYTES];
                let FileLayers { temp, path, .. } = *file;
                temp.as_file()
                    .read_exact_at(&mut bytes, top)
                    .map_err(io_error("reading back the tree file"))?;
                let root = decode_digest(&bytes).ok_or_else(|| StoredTreeError::CorruptLevel {
                    level: shape.depth(),
                })?;
                let info = info(root);
                let header = encode_header(&info, &layout, &checksums);
                temp.as_file()
                    .write_all_at(&header, 0)
                    .map_err(io_error("writing the tree file"))?;
                temp.as_file()
                    .sync_all()
                    .map_err(io_error("writing the tree file"))?;
                // A rename: a link at `path` is replaced, not followed. On failure `temp` is
                // dropped, and removed, with the error.
                temp.persist(&path).map_err(|e| StoredTreeError::Io {
                    action: "renaming the tree file into place",
                    source: e.error,
                })?;
                Ok((commitment, StoredTree::from_file(&path)?))
            }
        }
    }
}

/// Where a stored tree's layers are.
#[derive(Debug)]
enum Storage {
    /// Levels `dropped..=depth`.
    Memory(Vec<Vec<Digest>>),
    /// The tree file.
    File(File),
}

/// A single matrix's tree whose digest levels `k..=depth` live in memory or in a tree file
/// (see the [module docs](crate::stored) for the format), opened leaf by leaf from the `2^k` rows of
/// the leaf's block. Made by a [`StoredTreeWriter`] or read with
/// [`StoredTree::from_file`].
#[derive(Debug)]
pub struct StoredTree {
    info: StoredTreeInfo,
    shape: TreeShape,
    layout: Layout,
    /// Per stored level (file-backed trees only).
    checksums: Vec<u64>,
    storage: Storage,
}

impl StoredTree {
    /// Reads a tree file's header and checks it completely — magic, version, header checksum,
    /// shape, cap height and dropped levels, every level's length, the file's length — without
    /// reading the layers (the file stays open for openings).
    ///
    /// # Errors
    /// [`StoredTreeError::Io`] if the file cannot be read; [`StoredTreeError::NotATreeFile`],
    /// [`StoredTreeError::UnsupportedVersion`], [`StoredTreeError::Truncated`],
    /// [`StoredTreeError::TrailingBytes`], [`StoredTreeError::CorruptHeader`],
    /// [`StoredTreeError::Shape`], [`StoredTreeError::CapNotStored`],
    /// [`StoredTreeError::BadConfigName`], [`StoredTreeError::CorruptLevel`] (a root that is
    /// not canonical or not the stored one) for a file that is not a whole, consistent tree
    /// file.
    pub fn from_file(path: &Path) -> Result<Self, StoredTreeError> {
        let file = File::open(path).map_err(io_error("reading the tree file"))?;
        Self::from_open_file(file)
    }

    /// [`StoredTree::from_file`] for a file the caller opened: one that opened it without
    /// blocking and checked that it is a regular file (a FIFO would block `open` itself), as
    /// the `aurum` CLI does.
    ///
    /// # Errors
    /// As [`StoredTree::from_file`].
    pub fn from_open_file(file: File) -> Result<Self, StoredTreeError> {
        let read = "reading the tree file";
        let len = file.metadata().map_err(io_error(read))?.len();
        let mut fixed = [0u8; FIXED_HEADER];
        if len < FIXED_HEADER as u64 {
            // Too short even for the fixed header: tell a foreign file from a cut one.
            let mut start = vec![0u8; len as usize];
            file.read_exact_at(&mut start, 0).map_err(io_error(read))?;
            let magic = &TREE_FILE_MAGIC[..start.len().min(8)];
            if &start[..magic.len()] != magic {
                return Err(StoredTreeError::NotATreeFile);
            }
            return Err(StoredTreeError::Truncated {
                len,
                expected: FIXED_HEADER as u64,
            });
        }
        file.read_exact_at(&mut fixed, 0).map_err(io_error(read))?;
        if fixed[..8] != TREE_FILE_MAGIC {
            return Err(StoredTreeError::NotATreeFile);
        }
        let version = le_u32(&fixed[8..]);
        if version != TREE_FILE_VERSION {
            return Err(StoredTreeError::UnsupportedVersion { found: version });
        }
        let levels = le_u32(&fixed[128..]) as usize;
        if levels == 0 || levels > MAX_LOG_HEIGHT + 1 {
            return Err(corrupt(format!("{levels} stored levels")));
        }
        // levels ≤ 49: the header is at most 928 bytes.
        let header_len = FIXED_HEADER + LEVEL_ENTRY * levels + 8;
        let stated = le_u32(&fixed[12..]) as usize;
        if stated != header_len {
            return Err(corrupt(format!(
                "header length {stated} for {levels} levels (expected {header_len})"
            )));
        }
        if len < header_len as u64 {
            return Err(StoredTreeError::Truncated {
                len,
                expected: header_len as u64,
            });
        }
        let mut header = vec![0u8; header_len];
        file.read_exact_at(&mut header, 0).map_err(io_error(read))?;
        let mut sum = Checksum::new();
        sum.bytes(&header[..header_len - 8]);
        if sum.0 != le_u64(&header[header_len - 8..]) {
            return Err(corrupt("its checksum does not match"));
        }
        let name_bytes = &header[16..16 + NAME_BYTES];
        let name_len = name_bytes
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(NAME_BYTES);
        if name_bytes[name_len..].iter().any(|&b| b != 0) {
            return Err(corrupt("the configuration name is not zero-padded"));
        }
        let config_name = std::str::from_utf8(&name_bytes[..name_len])
            .map_err(|_| corrupt("the configuration name is not UTF-8"))?
            .to_string();
        let field = |at: usize, what: &str| {
            usize::try_from(le_u64(&header[at..]))
                .map_err(|_| corrupt(format!("the {what} does not fit this machine")))
        };
        let spec = TreeSpec {
            width: field(48, "width")?,
            height: field(56, "height")?,
            cap_height: field(64, "cap height")?,
            dropped: field(72, "number of dropped levels")?,
            source_len: le_u64(&header[80..]),
        };
        let (shape, layout) = check_spec(&config_name, &spec)?;
        if layout.lens.len() != levels {
            return Err(corrupt(format!(
                "{levels} stored levels, but a tree of depth {} with {} dropped has {}",
                shape.depth(),
                spec.dropped,
                layout.lens.len()
            )));
        }
        let mut checksums = Vec::with_capacity(levels);
        for (i, &expected) in layout.lens.iter().enumerate() {
            let entry = &header[FIXED_HEADER + LEVEL_ENTRY * i..];
            let stored = le_u64(entry);
            if stored != expected {
                return Err(corrupt(format!(
                    "level {} has {stored} digests, the shape gives it {expected}",
                    spec.dropped + i
                )));
            }
            checksums.push(le_u64(&entry[8..]));
        }
        let stated_len = le_u64(&header[120..]);
        if stated_len != layout.file_len {
            return Err(corrupt(format!(
                "a file length of {stated_len} bytes, the shape gives {}",
                layout.file_len
            )));
        }
        if len < layout.file_len {
            return Err(StoredTreeError::Truncated {
                len,
                expected: layout.file_len,
            });
        }
        if len > layout.file_len {
            return Err(StoredTreeError::TrailingBytes {
                len,
                expected: layout.file_len,
            });
        }
        let top = shape.depth();
        let root =
            decode_digest(&header[88..120]).ok_or(StoredTreeError::CorruptLevel { level: top })?;
        let tree = StoredTree {
            info: StoredTreeInfo {
                config_name,
                width: spec.width,
                height: spec.height,
                cap_height: spec.cap_height,
                dropped: spec.dropped,
                source_len: spec.source_len,
                root,
            },
            shape,
            layout,
            checksums,
            storage: Storage::File(file),
        };
        if tree.digest(top, 0)? != root {
            return Err(StoredTreeError::CorruptLevel { level: top });
        }
        Ok(tree)
    }

    /// The tree's facts (configuration, shape, cap height, dropped levels, root).
    #[must_use]
    pub fn info(&self) -> &StoredTreeInfo {
        &self.info
    }

    /// The tree's geometry.
    #[must_use]
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The root.
    #[must_use]
    pub fn root(&self) -> Digest {
        self.info.root
    }

    /// Bytes of the stored digest levels (a tree file has its header on top).
    #[must_use]
    pub fn digest_bytes(&self) -> u64 {
        self.layout.lens.iter().sum::<u64>() * DIGEST_BYTES as u64
    }

    /// Whether the levels are in memory (else in a tree file).
    #[must_use]
    pub fn is_in_memory(&self) -> bool {
        matches!(self.storage, Storage::Memory(_))
    }

    /// Digest `pos` of stored level `level` (`dropped ≤ level ≤ depth`, `pos` below its
    /// length: the callers' indices, checked against the shape).
    fn digest(&self, level: usize, pos: usize) -> Result<Digest, StoredTreeError> {
        let i = level - self.info.dropped;
        match &self.storage {
            Storage::Memory(levels) => Ok(levels[i][pos]),
            Storage::File(file) => {
                let mut bytes = [0u8; DIGEST_BYTES];
                let at = self.layout.offsets[i] + (pos * DIGEST_BYTES) as u64;
                file.read_exact_at(&mut bytes, at)
                    .map_err(io_error("reading the tree file"))?;
                decode_digest(&bytes).ok_or(StoredTreeError::CorruptLevel { level })
            }
        }
    }

    /// The `min(2^cap_height, layer length)` digests of the layer `cap_height` below the
    /// root.
    ///
    /// # Errors
    /// [`StoredTreeError::CapTooHigh`] when that layer was dropped (or lies above the root);
    /// [`StoredTreeError::Io`], [`StoredTreeError::CorruptLevel`] on a damaged file;
    /// [`StoredTreeError::OutOfMemory`].
    pub fn cap(&self, cap_height: usize) -> Result<Vec<Digest>, StoredTreeError> {
        let depth = self.shape.depth();
        let max = depth - self.info.dropped;
        if cap_height > max {
            return Err(StoredTreeError::CapTooHigh { cap_height, max });
        }
        let len = self.shape.cap_len(cap_height).expect("cap_height ≤ depth");
        self.read_level(depth - cap_height, len)
    }

    /// Stored digest level `level` whole (0 = leaf digests): what
    /// [`MerkleTree::layer`](crate::MerkleTree::layer)`(level)` is for the in-memory tree.
    ///
    /// # Errors
    /// [`StoredTreeError::CapTooHigh`] (with the cap height of that level, 0 above the root)
    /// when the level was dropped or lies above the root; as [`StoredTree::cap`] otherwise.
    pub fn level(&self, level: usize) -> Result<Vec<Digest>, StoredTreeError> {
        let depth = self.shape.depth();
        match depth.checked_sub(level) {
            Some(_) if level >= self.info.dropped => {
                // The whole layer: its length, not the cap's 2^cap_height.
                self.read_level(level, self.layout.lens[level - self.info.dropped] as usize)
            }
            _ => Err(StoredTreeError::CapTooHigh {
                cap_height: depth.saturating_sub(level),
                max: depth - self.info.dropped,
            }),
        }
    }

    /// The first `len` digests of stored level `level` (`dropped ≤ level ≤ depth`, `len` at
    /// most its length).
    fn read_level(&self, level: usize, len: usize) -> Result<Vec<Digest>, StoredTreeError> {
        let i = level - self.info.dropped;
        match &self.storage {
            Storage::Memory(levels) => Ok(levels[i][..len].to_vec()),
            Storage::File(file) => {
                // len ≤ the level's length, whose bytes the file was checked to hold.
                let bytes_len = len * DIGEST_BYTES;
                let mut bytes = Vec::new();
                bytes
                    .try_reserve_exact(bytes_len)
                    .map_err(|_| StoredTreeError::OutOfMemory { bytes: bytes_len })?;
                bytes.resize(bytes_len, 0);
                file.read_exact_at(&mut bytes, self.layout.offsets[i])
                    .map_err(io_error("reading the tree file"))?;
                bytes
                    .chunks_exact(DIGEST_BYTES)
                    .map(|d| decode_digest(d).ok_or(StoredTreeError::CorruptLevel { level }))
                    .collect()
            }
        }
    }

    /// The commitment: the cap of the height the tree was committed with
    /// ([`StoredTreeInfo::cap_height`]).
    ///
    /// # Errors
    /// As [`StoredTree::cap`].
    pub fn commitment(&self) -> Result<Commitment, StoredTreeError> {
        Ok(Commitment {
            cap: self.cap(self.info.cap_height)?,
        })
    }

    /// The rows whose values [`StoredTree::open`] needs to open leaf `index`: the block of
    /// `2^k` rows containing it, cut at the height.
    ///
    /// # Errors
    /// [`StoredTreeError::IndexOutOfRange`] for an index not below the height.
    pub fn block_rows(&self, index: usize) -> Result<Range<usize>, StoredTreeError> {
        let height = self.info.height;
        if index >= height {
            return Err(StoredTreeError::IndexOutOfRange { index, height });
        }
        // dropped ≤ depth ≤ 48 and index < height ≤ 2^48: no shift overflows.
        let start = (index >> self.info.dropped) << self.info.dropped;
        let end = (start + (1usize << self.info.dropped)).min(height);
        Ok(start..end)
    }

    /// Opens leaf `index` against the cap of height `cap_height`: the same [`Opening`] as
    /// [`MerkleTree::open`](crate::MerkleTree::open) on the in-memory tree. `block` holds the
    /// rows [`StoredTree::block_rows`]`(index)`, row-major; the levels below `k` are rebuilt
    /// from them, the siblings at levels `≥ k` are read (one digest per level). The opening
    /// is verified against the root before it is returned.
    ///
    /// # Errors
    /// [`StoredTreeError::ConfigMismatch`] for another configuration than the tree's;
    /// [`StoredTreeError::IndexOutOfRange`]; [`StoredTreeError::CapTooHigh`] for a cap height
    /// above the depth; [`StoredTreeError::WrongBlockLength`] for a block of the wrong size;
    /// [`StoredTreeError::InputMismatch`] when the block's rows are not the committed ones;
    /// [`StoredTreeError::CorruptPath`], [`StoredTreeError::CorruptLevel`] and
    /// [`StoredTreeError::Io`] for a damaged or unreadable tree file.
    pub fn open<C: MerkleConfig>(
        &self,
        config: &C,
        index: usize,
        cap_height: usize,
        block: &[Goldilocks],
    ) -> Result<Opening, StoredTreeError> {
        if config.name() != self.info.config_name {
            return Err(StoredTreeError::ConfigMismatch {
                stored: self.info.config_name.clone(),
                given: config.name().to_string(),
            });
        }
        let rows = self.block_rows(index)?;
        let depth = self.shape.depth();
        if cap_height > depth {
            return Err(StoredTreeError::CapTooHigh {
                cap_height,
                max: depth,
            });
        }
        let width = self.info.width;
        // Both sizes may come from a file: saturate (no block of usize::MAX elements exists).
        let expected = (rows.end - rows.start).saturating_mul(width);
        if block.len() != expected {
            return Err(StoredTreeError::WrongBlockLength {
                expected,
                found: block.len(),
            });
        }
        let k = self.info.dropped;
        let levels = self.rebuild_block(config, block);
        // The path up to the root: rebuilt below k, stored from k.
        let mut siblings = Vec::with_capacity(depth);
        for (j, level) in levels.iter().enumerate().take(k) {
            let sibling = ((index >> j) ^ 1) - (rows.start >> j);
            siblings.push(level.get(sibling).copied().unwrap_or(ZERO_DIGEST));
        }
        for j in k..depth {
            siblings.push(self.digest(j, (index >> j) ^ 1)?);
        }
        let local = index - rows.start;
        let mut opening = Opening {
            rows: vec![block[local * width..(local + 1) * width].to_vec()],
            siblings,
        };
        let root = Commitment {
            cap: vec![self.info.root],
        };
        if verify(config, &root, self.shape.dims(), index, &opening).is_err() {
            // Which side is wrong: the stored node of the block, climbed with the stored
            // siblings, reaches the root iff the tree file's path is intact.
            let mut node = self.digest(k, index >> k)?;
            for (j, sibling) in opening.siblings.iter().enumerate().skip(k) {
                node = if (index >> j) & 1 == 0 {
                    config.node().compress([node, *sibling])
                } else {
                    config.node().compress([*sibling, node])
                };
            }
            return Err(
                if node == self.info.root && levels[k][0] != self.digest(k, index >> k)? {
                    StoredTreeError::InputMismatch { rows }
                } else {
                    StoredTreeError::CorruptPath { index }
                },
            );
        }
        opening.siblings.truncate(depth - cap_height);
        Ok(opening)
    }

    /// Levels `0..=k` of the block whose rows are `block`: at level `j`, the positions of
    /// the block (`2^(k−j)` of them) that lie below the level's computed length; those past
    /// it are zero padding, as in the in-memory tree, and are not stored here, so memory is
    /// proportional to the rows given, whatever `k` is.
    fn rebuild_block<C: MerkleConfig>(&self, config: &C, block: &[Goldilocks]) -> Vec<Vec<Digest>> {
        let k = self.info.dropped;
        let width = self.info.width;
        let mut leaves = vec![ZERO_DIGEST; block.len() / width];
        hash_rows(config.leaf(), block, width, &mut leaves).expect("whole rows");
        let mut levels = vec![leaves];
        for _ in 1..=k {
            let children = levels.last().expect("non-empty");
            // Level j's computed positions in the block: ⌈children / 2⌉ (module docs).
            let mut parents = vec![ZERO_DIGEST; children.len().div_ceil(2)];
            let pairs = children.len() / 2;
            compress_layer(config.node(), &children[..2 * pairs], &mut parents[..pairs])
                .expect("2 children per parent");
            if let Some(&last) = children[2 * pairs..].first() {
                parents[pairs] = config.node().compress([last, ZERO_DIGEST]);
            }
            levels.push(parents);
        }
        levels
    }

    /// Reads every stored level and checks it against its checksum in the header (a
    /// tree file; a tree in memory has nothing to check). `O(size of the file)`.
    ///
    /// # Errors
    /// [`StoredTreeError::CorruptLevel`] for the first level that does not match;
    /// [`StoredTreeError::Io`].
    pub fn check_layers(&self) -> Result<(), StoredTreeError> {
        let Storage::File(file) = &self.storage else {
            return Ok(());
        };
        let mut buffer = vec![0u8; CHECK_READ_BYTES];
        for (i, ((&len, &offset), &expected)) in self
            .layout
            .lens
            .iter()
            .zip(&self.layout.offsets)
            .zip(&self.checksums)
            .enumerate()
        {
            let level = self.info.dropped + i;
            let mut sum = Checksum::new();
            let mut at = offset;
            let end = offset + len * DIGEST_BYTES as u64;
            while at < end {
                let n = (end - at).min(CHECK_READ_BYTES as u64) as usize;
                file.read_exact_at(&mut buffer[..n], at)
                    .map_err(io_error("reading the tree file"))?;
                if buffer[..n]
                    .chunks_exact(DIGEST_BYTES)
                    .any(|d| decode_digest(d).is_none())
                {
                    return Err(StoredTreeError::CorruptLevel { level });
                }
                sum.bytes(&buffer[..n]);
                at += n as u64;
            }
            if sum.0 != expected {
                return Err(StoredTreeError::CorruptLevel { level });
            }
        }
        Ok(())
    }
}
