//! Committing to data larger than memory: rows arrive in order, leaf digests are compressed as
//! soon as their siblings exist, and only `O(log n)` digests (plus one chunk of rows and the
//! few digests a cap needs) are held at any time. The result equals the in-memory tree's.

use core::fmt;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::{Compressor, compress_layer, hash_rows};

use crate::config::MerkleConfig;
use crate::tree::{Digest, MatrixError, ZERO_DIGEST};
use crate::verify::Commitment;

/// Elements buffered before a chunk of rows is hashed (8 MiB).
const CHUNK_ELEMENTS: usize = 1 << 20;

/// Why a streamed commitment could not be finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// No rows were given.
    Empty,
    /// The cap height exceeds the depth of the tree the rows formed.
    CapTooHigh {
        /// Requested cap height.
        cap_height: usize,
        /// Depth of the tree.
        depth: usize,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Empty => write!(f, "no rows to commit to"),
            StreamError::CapTooHigh { cap_height, depth } => {
                write!(
                    f,
                    "cap height {cap_height} exceeds the depth {depth} of a tree over these rows"
                )
            }
        }
    }
}

impl std::error::Error for StreamError {}

/// Builds the commitment of a single matrix from its rows, in order.
#[derive(Debug)]
pub struct StreamingCommitter<'c, C: MerkleConfig> {
    config: &'c C,
    width: usize,
    cap_height: usize,
    /// Rows per full chunk (a power of two), hashed and compressed to one node in bulk.
    chunk_rows: usize,
    buffer: Vec<Goldilocks>,
    rows: usize,
    /// Per level: a completed left child waiting for its sibling.
    pending: Vec<Option<Digest>>,
    /// Per level: nodes completed so far.
    counts: Vec<usize>,
    /// Completed nodes of the levels that can still become the cap layer.
    recorded: Vec<Vec<Digest>>,
    record_from: usize,
}

impl<'c, C: MerkleConfig> StreamingCommitter<'c, C> {
    /// A committer for rows of `width` elements, producing a cap of height `cap_height`.
    pub fn new(config: &'c C, width: usize, cap_height: usize) -> Result<Self, MatrixError> {
        if width == 0 {
            return Err(MatrixError::ZeroWidth);
        }
        let chunk_rows = (CHUNK_ELEMENTS / width)
            .max(1)
            .next_power_of_two()
            .min(1 << 16);
        Ok(Self {
            config,
            width,
            cap_height,
            chunk_rows,
            buffer: Vec::with_capacity(chunk_rows * width),
            rows: 0,
            pending: Vec::new(),
            counts: Vec::new(),
            recorded: Vec::new(),
            record_from: 0,
        })
    }

    /// Rows consumed so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows + self.buffer.len() / self.width
    }

    /// Appends whole rows (`values.len()` must be a multiple of the width).
    pub fn push_rows(&mut self, mut values: &[Goldilocks]) -> Result<(), MatrixError> {
        if !values.len().is_multiple_of(self.width) {
            return Err(MatrixError::RaggedLength {
                len: values.len(),
                width: self.width,
            });
        }
        let chunk_len = self.chunk_rows * self.width;
        while !values.is_empty() {
            let take = (chunk_len - self.buffer.len()).min(values.len());
            self.buffer.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.buffer.len() == chunk_len {
                self.flush_full_chunk();
            }
        }
        Ok(())
    }

    /// Hashes a full, aligned chunk and compresses it to a single node in bulk.
    fn flush_full_chunk(&mut self) {
        let mut layer = vec![ZERO_DIGEST; self.chunk_rows];
        hash_rows(self.config.leaf(), &self.buffer, self.width, &mut layer).expect("whole rows");
        self.rows += self.chunk_rows;
        self.buffer.clear();
        let mut level = 0;
        while layer.len() > 1 {
            self.record_many(level, &layer);
            let mut parents = vec![ZERO_DIGEST; layer.len() / 2];
            compress_layer(self.config.node(), &layer, &mut parents).expect("even layer");
            layer = parents;
            level += 1;
        }
        self.push_node(level, layer[0]);
    }

    fn ensure_level(&mut self, level: usize) {
        if self.pending.len() <= level {
            self.pending.resize(level + 1, None);
            self.counts.resize(level + 1, 0);
            self.recorded.resize_with(level + 1, Vec::new);
        }
    }

    /// Notes completed nodes of `level` (all but the top of a bulk-compressed chunk).
    fn record_many(&mut self, level: usize, nodes: &[Digest]) {
        self.ensure_level(level);
        self.counts[level] += nodes.len();
        if level >= self.record_from {
            self.recorded[level].extend_from_slice(nodes);
        }
    }

    /// Adds a completed node and compresses upwards while siblings exist.
    fn push_node(&mut self, mut level: usize, mut node: Digest) {
        loop {
            self.ensure_level(level);
            self.counts[level] += 1;
            if level >= self.record_from {
                self.recorded[level].push(node);
            }
            // The cap layer lies at least `cap_height` below the highest completed level.
            let highest = self.counts.iter().rposition(|&c| c > 0).unwrap_or(0);
            let record_from = highest.saturating_sub(self.cap_height);
            if record_from > self.record_from {
                for r in &mut self.recorded[self.record_from..record_from] {
                    *r = Vec::new();
                }
                self.record_from = record_from;
            }
            match self.pending[level].take() {
                Some(left) => {
                    node = self.config.node().compress([left, node]);
                    level += 1;
                }
                None => {
                    self.pending[level] = Some(node);
                    return;
                }
            }
        }
    }

    /// Finishes the tree (padding odd layers with zero digests, as the in-memory tree does)
    /// and returns the cap.
    pub fn finish(mut self) -> Result<Commitment, StreamError> {
        // The last, partial chunk: hash in bulk, then feed leaf by leaf.
        if !self.buffer.is_empty() {
            let rows = self.buffer.len() / self.width;
            let mut leaves = vec![ZERO_DIGEST; rows];
            hash_rows(self.config.leaf(), &self.buffer, self.width, &mut leaves)
                .expect("whole rows");
            self.rows += rows;
            self.buffer = Vec::new();
            for leaf in leaves {
                self.push_node(0, leaf);
            }
        }
        if self.rows == 0 {
            return Err(StreamError::Empty);
        }
        // Level j holds counts[j] real nodes; an odd count above one gets a zero sibling.
        let mut level = 0;
        loop {
            self.ensure_level(level);
            let count = self.counts[level];
            if count <= 1 {
                break;
            }
            if let Some(left) = self.pending[level].take() {
                if level >= self.record_from {
                    self.recorded[level].push(ZERO_DIGEST);
                }
                let parent = self.config.node().compress([left, ZERO_DIGEST]);
                self.push_node(level + 1, parent);
            }
            level += 1;
        }
        let depth = level;
        if self.cap_height > depth {
            return Err(StreamError::CapTooHigh {
                cap_height: self.cap_height,
                depth,
            });
        }
        let cap_layer = &self.recorded[depth - self.cap_height];
        let cap_len = (1usize << self.cap_height).min(cap_layer.len());
        Ok(Commitment {
            cap: cap_layer[..cap_len].to_vec(),
        })
    }
}
