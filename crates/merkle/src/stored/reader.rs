//! Reading a stored tree back and opening it leaf by leaf.

use core::ops::Range;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::{Digest, ZERO_DIGEST};
use crate::error::{StoredTreeError, corrupt, io_error};
use crate::opening::{Opening, verify};
use crate::shape::{MAX_LOG_HEIGHT, TreeShape};

use super::checksum::Checksum;
use super::format::{
    CHECK_READ_BYTES, DIGEST_BYTES, FIXED_HEADER, LEVEL_ENTRY, Layout, NAME_BYTES, TREE_FILE_MAGIC,
    TREE_FILE_VERSION, decode_digest, le_u32, le_u64,
};
use super::spec::{StoredTreeInfo, TreeSpec, check_spec};

/// Where a stored tree's layers are.
#[derive(Debug)]
pub(crate) enum Storage {
    /// Levels `dropped..=depth`.
    Memory(Vec<Vec<Digest>>),
    /// The tree file.
    File(File),
}

/// A single matrix's tree whose digest levels `k..=depth` live in memory or in a tree file
/// (see the [module docs](crate::stored) for the format), opened leaf by leaf from the `2^k` rows of
/// the leaf's block. Made by a [`StoredTreeWriter`](crate::StoredTreeWriter) or read with
/// [`StoredTree::from_file`].
#[derive(Debug)]
pub struct StoredTree {
    pub(crate) info: StoredTreeInfo,
    pub(crate) shape: TreeShape,
    pub(crate) layout: Layout,
    /// Per stored level (file-backed trees only).
    pub(crate) checksums: Vec<u64>,
    pub(crate) storage: Storage,
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
            info: StoredTreeInfo::new(config_name, &spec, root),
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
        config
            .hash_leaves(block, width, &mut leaves)
            .expect("whole rows");
        let mut levels = vec![leaves];
        for _ in 1..=k {
            let children = levels.last().expect("non-empty");
            // Level j's computed positions in the block: ⌈children / 2⌉ (module docs).
            let mut parents = vec![ZERO_DIGEST; children.len().div_ceil(2)];
            let pairs = children.len() / 2;
            config
                .compress_nodes(&children[..2 * pairs], &mut parents[..pairs])
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
