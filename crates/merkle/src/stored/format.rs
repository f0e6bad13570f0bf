//! The tree file's layout: its constants, where each stored level lies, and how integers and
//! digests are written in it (the table is in the [module docs](crate::stored)).

use aurum_goldilocks::Goldilocks;

use crate::digest::{Digest, ZERO_DIGEST};
use crate::shape::TreeShape;

/// The first eight bytes of a tree file.
pub const TREE_FILE_MAGIC: [u8; 8] = *b"AURMTREE";

/// The tree file format version this crate writes and reads.
pub const TREE_FILE_VERSION: u32 = 1;

/// Bytes of the header before the level table.
pub(crate) const FIXED_HEADER: usize = 136;
/// Bytes per level in the level table (length, checksum).
pub(crate) const LEVEL_ENTRY: usize = 16;
/// The longest configuration name a tree file holds.
pub(crate) const NAME_BYTES: usize = 32;
/// Bytes of one stored digest.
pub(crate) const DIGEST_BYTES: usize = 32;
/// Digests buffered per level before a positioned write (64 KiB).
pub(crate) const BUFFER_DIGESTS: usize = 2048;
/// Bytes per read when checking a level's checksum (1 MiB).
pub(crate) const CHECK_READ_BYTES: usize = 1 << 20;

pub(crate) fn le_u64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

pub(crate) fn le_u32(bytes: &[u8]) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[..4]);
    u32::from_le_bytes(word)
}

pub(crate) fn encode_digest(digest: &Digest, out: &mut Vec<u8>) {
    for x in digest {
        out.extend_from_slice(&x.as_canonical_u64().to_le_bytes());
    }
}

/// A digest from its 32 stored bytes, `None` if a value is not canonical.
pub(crate) fn decode_digest(bytes: &[u8]) -> Option<Digest> {
    let mut digest = ZERO_DIGEST;
    for (x, word) in digest.iter_mut().zip(bytes.chunks_exact(8)) {
        *x = Goldilocks::from_canonical(le_u64(word)).ok()?;
    }
    Some(digest)
}

/// Where every stored level lies, from the shape: level `dropped + i` has `lens[i]` digests
/// at byte `offsets[i]`; the file has `file_len` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) header_len: usize,
    pub(crate) lens: Vec<u64>,
    pub(crate) offsets: Vec<u64>,
    pub(crate) file_len: u64,
}

impl Layout {
    /// The layout of levels `dropped..=depth` of `shape` (`dropped ≤ depth` ≤ 48: every sum
    /// below is at most about `2^54` bytes).
    pub(crate) fn new(shape: &TreeShape, dropped: usize) -> Self {
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
