//! One commitment computed in parts: the rows of a single matrix split into `K` contiguous,
//! power-of-two-aligned ranges, each committed on its own (by another process or machine),
//! and the top of the tree completed from the few digests each part produced. The cap and
//! root equal those of the in-memory [`MerkleTree`](crate::MerkleTree) over the whole matrix.
//!
//! This module is the transport-free half of the CLI's MPI mode: it decides the ranges
//! ([`SplitPlan`]), commits one range ([`PartCommitter`]), and completes the top
//! ([`SplitPlan::complete`]); moving the digests between processes is the caller's business.
//!
//! # Why these ranges
//!
//! In the tree over `n` rows, digest layer `j` holds `⌈n / 2^j⌉` computed nodes (then one zero
//! digest of padding when that count is odd and above one), and node `i` of layer `j` depends
//! only on rows `i·2^j .. (i+1)·2^j`. So with blocks of `2^s` rows, the node of layer `s` over
//! block `a` is computed from that block's rows alone: by the same rule (odd layers padded
//! with one zero digest) applied inside the block. The plan takes the smallest `s` with
//! `⌈n / 2^s⌉ ≤ K`: every block fits one part, the blocks are as small as they can be (the
//! work is spread as evenly as power-of-two alignment allows), and parts beyond
//! `⌈n / 2^s⌉` get no rows (with `K > n`, or when `K` is not a power of two and some parts
//! would get only a sliver; the alternative — unaligned ranges — would put nodes that need
//! rows of two parts on neither).
//!
//! # What each part sends: one cap's worth, never more
//!
//! The top is completed from layer `t = min(s, depth − cap_height)`. When the cap layer lies
//! at or above the block layer, `t = s`: each part sends the one node over its block (its
//! subtree's root). When the cap lies below (`cap_height > depth − s`), the cap's digests
//! are inside the blocks and no single process holds them all; each part then sends its
//! nodes of the cap layer, at most `2^(cap_height − (depth − s))` of them — its share of the
//! cap. Either way a part sends at most `max(1, 2^cap_height / 2^(depth − s))` digests
//! ([`SplitPlan::slot_len`]), and the completing process receives at most
//! `max(K, 2^cap_height)` digests' worth of real data: 32 bytes per part for a root-only
//! commitment, at any `K` and any matrix size.
//!
//! # Padding at the borders
//!
//! A full block is a complete subtree. The last block may be partial (`n` not a multiple of
//! `2^s`): inside it the layers are padded exactly as in the whole tree (its first row is at
//! an even position in every layer below `s`, so odd counts fall at the same places), and
//! above its own root — between its depth and `t` — the whole tree pads its single node with
//! one zero digest per layer, which [`PartCommitter::finish`] reproduces. Empty parts
//! contribute nothing. [`SplitPlan::complete`] then pads the gathered layer and the layers
//! above it with the tree's rule.
//!
//! Only a single matrix is split. Matrices of mixed heights (the MMCS layout) would fit the
//! same ranges — a shorter matrix joins at a layer `k` and its rows split at `2^(s−k)` — but
//! the streaming committer that commits each part handles one matrix, as does the CLI.

use core::ops::Range;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;

use crate::config::MerkleConfig;
use crate::digest::{Digest, ZERO_DIGEST};
use crate::error::StreamError;
use crate::shape::{MAX_HEIGHT, log2_ceil};
use crate::stream::StreamingCommitter;

pub use crate::error::SplitError;

/// How the rows of one matrix are split into parts, and what each part sends back.
///
/// Every process computes the same plan from the same three numbers (height, cap height,
/// part count); nothing about it needs to be communicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitPlan {
    height: usize,
    depth: usize,
    cap_height: usize,
    parts: usize,
    /// `s`: each part's block is `2^s` rows.
    block_log: usize,
    /// `t = min(s, depth − cap_height)`: the layer whose nodes the parts send.
    node_level: usize,
}

impl SplitPlan {
    /// The plan for a matrix of `height` rows, a cap of height `cap_height`, and `parts`
    /// parts.
    ///
    /// # Errors
    /// [`SplitError::NoParts`] for 0 parts, [`SplitError::Height`] for a height of 0 or above
    /// [`MAX_HEIGHT`], [`SplitError::CapTooHigh`] for a cap height above `⌈log₂ height⌉`.
    pub fn new(height: usize, cap_height: usize, parts: usize) -> Result<Self, SplitError> {
        if parts == 0 {
            return Err(SplitError::NoParts);
        }
        if height == 0 || height > MAX_HEIGHT {
            return Err(SplitError::Height { height });
        }
        let depth = log2_ceil(height);
        if cap_height > depth {
            return Err(SplitError::CapTooHigh { cap_height, depth });
        }
        // ⌈height / 2^depth⌉ = 1 ≤ parts, so the search ends by s = depth (≤ 48: no overflow).
        let block_log = (0..=depth)
            .find(|&s| height.div_ceil(1 << s) <= parts)
            .unwrap_or(depth);
        let node_level = block_log.min(depth - cap_height);
        Ok(Self {
            height,
            depth,
            cap_height,
            parts,
            block_log,
            node_level,
        })
    }

    /// Rows of the matrix.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Depth of the tree: `⌈log₂ height⌉`.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The cap height.
    #[must_use]
    pub fn cap_height(&self) -> usize {
        self.cap_height
    }

    /// Number of parts.
    #[must_use]
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Rows per block: `2^s`, the smallest power of two with `⌈height / 2^s⌉ ≤ parts`.
    #[must_use]
    pub fn block_rows(&self) -> usize {
        1 << self.block_log
    }

    /// Parts that receive rows: `⌈height / block_rows⌉` (the rest are empty).
    #[must_use]
    pub fn used_parts(&self) -> usize {
        self.height.div_ceil(self.block_rows())
    }

    /// The digest layer (0 = leaves) whose nodes the parts send.
    #[must_use]
    pub fn node_level(&self) -> usize {
        self.node_level
    }

    /// Digests each part sends in a fixed-size exchange: `2^(s − t)`, enough for the nodes
    /// of any part (see the module documentation for why this stays one cap's worth).
    #[must_use]
    pub fn slot_len(&self) -> usize {
        1 << (self.block_log - self.node_level)
    }

    /// The rows of part `part`: `part · block_rows ..` up to the next block or the height,
    /// empty for parts past [`SplitPlan::used_parts`].
    ///
    /// # Errors
    /// [`SplitError::NoSuchPart`] for `part ≥ parts`.
    pub fn rows(&self, part: usize) -> Result<Range<usize>, SplitError> {
        if part >= self.parts {
            return Err(SplitError::NoSuchPart {
                part,
                parts: self.parts,
            });
        }
        if part >= self.used_parts() {
            return Ok(self.height..self.height);
        }
        // part < used_parts, so part · block_rows < height ≤ MAX_HEIGHT: no overflow.
        let start = part << self.block_log;
        Ok(start..(start + self.block_rows()).min(self.height))
    }

    /// The nodes part `part` sends: `⌈rows / 2^t⌉` (0 for an empty part).
    ///
    /// # Errors
    /// [`SplitError::NoSuchPart`] for `part ≥ parts`.
    pub fn nodes_of(&self, part: usize) -> Result<usize, SplitError> {
        Ok(self.rows(part)?.len().div_ceil(1 << self.node_level))
    }

    /// Completes the tree from the parts' nodes and returns `(root, cap)`: the same as the
    /// in-memory tree's root and `cap(cap_height)`.
    ///
    /// `slots` holds [`SplitPlan::slot_len`] digests per part, part after part (what a
    /// gather of fixed-size buffers produces): part `p`'s [`PartCommitter::finish`] output
    /// first, then zero digests up to the slot length.
    ///
    /// # Errors
    /// [`SplitError::WrongSlotsLength`] when `slots` is not `parts × slot_len` digests;
    /// [`SplitError::SlotMismatch`] when a slot has nonzero digests past its part's nodes.
    pub fn complete<C: MerkleConfig>(
        &self,
        config: &C,
        slots: &[Digest],
    ) -> Result<(Digest, Vec<Digest>), SplitError> {
        let slot = self.slot_len();
        if self.parts.checked_mul(slot) != Some(slots.len()) {
            return Err(SplitError::WrongSlotsLength {
                expected: self.parts.saturating_mul(slot),
                found: slots.len(),
            });
        }
        // Layer t: the computed nodes of every part, in order (⌈height / 2^t⌉ of them).
        let mut layer = Vec::with_capacity(self.height.div_ceil(1 << self.node_level));
        for (part, nodes) in slots.chunks_exact(slot).enumerate() {
            let real = self.nodes_of(part)?;
            if nodes[real..].iter().any(|d| *d != ZERO_DIGEST) {
                return Err(SplitError::SlotMismatch { part });
            }
            layer.extend_from_slice(&nodes[..real]);
        }
        let cap_level = self.depth - self.cap_height;
        let mut cap = Vec::new();
        let mut level = self.node_level;
        loop {
            if layer.len() > 1 && layer.len() % 2 == 1 {
                layer.push(ZERO_DIGEST);
            }
            if level == cap_level {
                // cap_height ≤ depth ≤ 48: the shift is in range.
                cap = layer[..layer.len().min(1 << self.cap_height)].to_vec();
            }
            if layer.len() == 1 {
                break;
            }
            layer = layer
                .chunks_exact(2)
                .map(|pair| config.node().compress([pair[0], pair[1]]))
                .collect();
            level += 1;
        }
        debug_assert_eq!(level, self.depth);
        Ok((layer[0], cap))
    }
}

/// Commits the rows of one part, in order, to the nodes that part sends
/// ([`SplitPlan::nodes_of`] digests of layer [`SplitPlan::node_level`]).
///
/// A [`StreamingCommitter`] over the part's rows does the work (its memory is `O(log n)`
/// digests plus one chunk of rows, plus the nodes sent); the part's range is declared up
/// front, so a short or long supply of rows is an error.
#[derive(Debug)]
pub struct PartCommitter<'c, C: MerkleConfig> {
    config: &'c C,
    /// `None` for an empty part.
    stream: Option<StreamingCommitter<'c, C>>,
    width: usize,
    /// Rows of the part.
    rows: usize,
    /// The part's own depth `⌈log₂ rows⌉`.
    own_depth: usize,
    node_level: usize,
    nodes: usize,
}

impl<'c, C: MerkleConfig> PartCommitter<'c, C> {
    /// A committer for part `part` of `plan`, whose rows have `width` elements.
    ///
    /// # Errors
    /// [`SplitError::NoSuchPart`] for a part not in the plan; [`SplitError::Stream`] for a
    /// width of 0 or above [`MAX_WIDTH`](crate::MAX_WIDTH).
    pub fn new(
        config: &'c C,
        plan: &SplitPlan,
        part: usize,
        width: usize,
    ) -> Result<Self, SplitError> {
        let rows = plan.rows(part)?.len();
        let own_depth = log2_ceil(rows);
        let node_level = plan.node_level();
        let stream = if rows == 0 {
            crate::shape::check_width(0, width).map_err(StreamError::Shape)?;
            None
        } else {
            // The part's layer t is a cap of height own_depth − t of its own tree; above its
            // own root (t > own_depth) only its root is needed.
            let cap_height = own_depth.saturating_sub(node_level);
            Some(StreamingCommitter::with_height(
                config, width, rows, cap_height,
            )?)
        };
        Ok(Self {
            config,
            stream,
            width,
            rows,
            own_depth,
            node_level,
            nodes: plan.nodes_of(part)?,
        })
    }

    /// Rows of this part.
    #[must_use]
    pub fn part_rows(&self) -> usize {
        self.rows
    }

    /// Appends whole rows of this part, in order.
    ///
    /// # Errors
    /// [`SplitError::Stream`]: values that are not whole rows, or more rows than the part
    /// has ([`StreamError::WrongRowCount`]).
    pub fn push_rows(&mut self, values: &[Goldilocks]) -> Result<(), SplitError> {
        match &mut self.stream {
            Some(stream) => Ok(stream.push_rows(values)?),
            None if values.is_empty() => Ok(()),
            None => Err(SplitError::Stream(StreamError::WrongRowCount {
                declared: 0,
                rows: values.len() / self.width,
            })),
        }
    }

    /// The nodes this part sends ([`SplitPlan::nodes_of`] digests; none for an empty part).
    ///
    /// # Errors
    /// [`SplitError::Stream`] ([`StreamError::WrongRowCount`]) when fewer rows than the part
    /// has were pushed.
    pub fn finish(self) -> Result<Vec<Digest>, SplitError> {
        let Some(stream) = self.stream else {
            return Ok(Vec::new());
        };
        let mut nodes = stream.finish()?.cap;
        if self.node_level <= self.own_depth {
            // The cap includes the padding digest of an odd layer; the part sends only the
            // computed nodes.
            nodes.truncate(self.nodes);
        } else {
            // Only the last, partial block can be shallower than t, and it is never the
            // first block (a single block is the whole tree, of depth ≥ t): in the whole
            // tree its root is the last node of an odd layer at every level up to t, padded
            // with one zero digest each time.
            let mut node = nodes[0];
            for _ in self.own_depth..self.node_level {
                node = self.config.node().compress([node, ZERO_DIGEST]);
            }
            nodes = vec![node];
        }
        debug_assert_eq!(nodes.len(), self.nodes);
        Ok(nodes)
    }
}
