//! Committing to data larger than memory: rows arrive in order, leaf digests are compressed as
//! soon as their siblings exist, and only `O(log n)` digests (plus one chunk of rows and the
//! few digests a cap needs) are held at any time. The result equals the in-memory tree's.

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::Compressor;

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::{Digest, ZERO_DIGEST};
use crate::error::{MatrixError, StreamError};
use crate::layers::{LayerSink, NoSink};
use crate::shape::{Dimensions, MAX_HEIGHT, MAX_LOG_HEIGHT, ShapeError, TreeShape, check_width};

/// Elements buffered before a chunk of rows is hashed (8 MiB).
const CHUNK_ELEMENTS: usize = 1 << 20;

/// Builds the commitment of a single matrix from its rows, in order.
///
/// Every argument is checked as early as it can be: the width and the cap height at
/// construction, the row count at each push (against [`MAX_HEIGHT`], or against the declared
/// height of [`StreamingCommitter::with_height`]). Without a declared height, whether the cap
/// height fits the tree is known only at [`StreamingCommitter::finish`]; callers who know
/// the row count up front (from a file's size, say) should declare it, so that an
/// unsatisfiable cap height is refused before any row is read.
///
/// The digest layers themselves are not kept; a [`LayerSink`] given to
/// [`StreamingCommitter::with_sink`] receives every one of them as it is produced (the
/// default, [`NoSink`], discards them), which is how a tree file is written while streaming
/// (see [`StoredTreeWriter`](crate::StoredTreeWriter)).
#[derive(Debug)]
pub struct StreamingCommitter<'c, C: MerkleConfig, S: LayerSink = NoSink> {
    config: &'c C,
    width: usize,
    cap_height: usize,
    /// The height promised by `with_height`.
    declared: Option<usize>,
    /// Rows per full chunk (a power of two), hashed and compressed to one node in bulk.
    chunk_rows: usize,
    /// Whole rows not yet hashed (fewer than a chunk; allocated at the first push).
    buffer: Vec<Goldilocks>,
    /// Rows hashed so far.
    rows: usize,
    /// Per level: a completed left child waiting for its sibling.
    pending: Vec<Option<Digest>>,
    /// Per level: nodes completed so far.
    counts: Vec<usize>,
    /// Completed nodes of the levels that can still become the cap layer.
    recorded: Vec<Vec<Digest>>,
    record_from: usize,
    /// Receives every completed node, level by level in order of position.
    sink: S,
}

impl<'c, C: MerkleConfig> StreamingCommitter<'c, C> {
    /// A committer for rows of `width` elements, producing a cap of height `cap_height`,
    /// for any number of rows up to [`MAX_HEIGHT`].
    ///
    /// # Errors
    /// [`StreamError::Shape`] for a width of 0 or above
    /// [`MAX_WIDTH`](crate::shape::MAX_WIDTH); [`StreamError::CapTooHigh`] for a cap height
    /// above [`MAX_LOG_HEIGHT`], which no tree within the height limit is deep enough for.
    pub fn new(config: &'c C, width: usize, cap_height: usize) -> Result<Self, StreamError> {
        check_width(0, width)?;
        if cap_height > MAX_LOG_HEIGHT {
            return Err(StreamError::CapTooHigh {
                cap_height,
                depth: MAX_LOG_HEIGHT,
                height: MAX_HEIGHT,
            });
        }
        Ok(Self::from_checked(config, width, cap_height, None, NoSink))
    }

    /// A committer for exactly `height` rows of `width` elements, producing a cap of height
    /// `cap_height`. The whole shape is checked here, before any row is read.
    ///
    /// # Errors
    /// [`StreamError::Shape`] for a width of 0 or above
    /// [`MAX_WIDTH`](crate::shape::MAX_WIDTH), a height of 0 or above [`MAX_HEIGHT`];
    /// [`StreamError::CapTooHigh`] for a cap height above the depth of a tree over `height`
    /// rows (`⌈log₂ height⌉`). Later, [`StreamingCommitter::push_rows`] refuses rows beyond
    /// `height` and [`StreamingCommitter::finish`] fewer than `height`, both with
    /// [`StreamError::WrongRowCount`].
    pub fn with_height(
        config: &'c C,
        width: usize,
        height: usize,
        cap_height: usize,
    ) -> Result<Self, StreamError> {
        StreamingCommitter::with_sink(config, width, height, cap_height, NoSink)
    }
}

impl<'c, C: MerkleConfig, S: LayerSink> StreamingCommitter<'c, C, S> {
    /// As [`StreamingCommitter::with_height`], and every digest layer is handed to `sink` as
    /// it is produced: for each level `j` (0 = the leaf digests, up to the root), the calls
    /// [`LayerSink::push`]`(j, nodes)` together deliver exactly the digests of
    /// [`MerkleTree::layer`](crate::MerkleTree::layer)`(j)` of the in-memory tree over the
    /// same rows, in order of position, its zero padding digest included. Calls for different
    /// levels interleave.
    ///
    /// # Errors
    /// As [`StreamingCommitter::with_height`].
    pub fn with_sink(
        config: &'c C,
        width: usize,
        height: usize,
        cap_height: usize,
        sink: S,
    ) -> Result<Self, StreamError> {
        let shape = TreeShape::new(&[Dimensions { width, height }])?;
        if cap_height > shape.depth() {
            return Err(StreamError::CapTooHigh {
                cap_height,
                depth: shape.depth(),
                height,
            });
        }
        Ok(Self::from_checked(
            config,
            width,
            cap_height,
            Some(height),
            sink,
        ))
    }

    /// A committer whose width (1..=MAX_WIDTH) and cap height (≤ MAX_LOG_HEIGHT) are checked.
    fn from_checked(
        config: &'c C,
        width: usize,
        cap_height: usize,
        declared: Option<usize>,
        sink: S,
    ) -> Self {
        // 1 ≤ width: the division is defined, and the result is at most 2^16 rows.
        let chunk_rows = (CHUNK_ELEMENTS / width)
            .max(1)
            .next_power_of_two()
            .min(1 << 16);
        Self {
            config,
            width,
            cap_height,
            declared,
            chunk_rows,
            buffer: Vec::new(),
            rows: 0,
            pending: Vec::new(),
            counts: Vec::new(),
            recorded: Vec::new(),
            record_from: 0,
            sink,
        }
    }

    /// Elements of a full chunk (whole rows): pushes of whole chunks are hashed as they come.
    pub(crate) fn chunk_len(&self) -> usize {
        // chunk_rows · width ≤ max(2 · CHUNK_ELEMENTS, MAX_WIDTH): no overflow.
        self.chunk_rows * self.width
    }

    /// The sink given to [`StreamingCommitter::with_sink`] (to look at its state while
    /// streaming, e.g. for an I/O error it recorded).
    #[must_use]
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Rows consumed so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows + self.buffer.len() / self.width
    }

    /// Appends whole rows (`values.len()` must be a multiple of the width). A refused push
    /// consumes nothing: the committer is as it was before.
    ///
    /// # Errors
    /// [`StreamError::Rows`] for values that are not whole rows;
    /// [`StreamError::WrongRowCount`] for rows beyond the height declared to
    /// [`StreamingCommitter::with_height`]; [`StreamError::Shape`]
    /// ([`ShapeError::HeightTooLarge`]) for rows beyond [`MAX_HEIGHT`].
    pub fn push_rows(&mut self, mut values: &[Goldilocks]) -> Result<(), StreamError> {
        if !values.len().is_multiple_of(self.width) {
            return Err(StreamError::Rows(MatrixError::RaggedLength {
                len: values.len(),
                width: self.width,
            }));
        }
        // rows() ≤ MAX_HEIGHT = 2^48 and the new rows ≤ values.len() < 2^61: no overflow.
        let rows = self.rows() + values.len() / self.width;
        match self.declared {
            Some(declared) if rows > declared => {
                return Err(StreamError::WrongRowCount { declared, rows });
            }
            None if rows > MAX_HEIGHT => {
                return Err(StreamError::Shape(ShapeError::HeightTooLarge {
                    matrix: 0,
                    height: rows,
                }));
            }
            _ => {}
        }
        // chunk_rows · width ≤ max(2 · CHUNK_ELEMENTS, MAX_WIDTH): no overflow.
        let chunk_len = self.chunk_rows * self.width;
        if !values.is_empty() && self.buffer.capacity() == 0 {
            // Allocated only now: a very wide committer that never receives a row costs
            // nothing, and one that does receives at least one row's worth of memory first.
            self.buffer.reserve_exact(chunk_len);
        }
        while !values.is_empty() {
            if self.buffer.is_empty() && values.len() >= chunk_len {
                // A whole chunk at a chunk boundary: hashed where it is, not copied first.
                let (chunk, rest) = values.split_at(chunk_len);
                self.hash_chunk(chunk);
                values = rest;
                continue;
            }
            // The buffer holds whole rows and fewer than a chunk, so `take` is whole rows.
            let take = (chunk_len - self.buffer.len()).min(values.len());
            self.buffer.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.buffer.len() == chunk_len {
                let full = core::mem::take(&mut self.buffer);
                self.hash_chunk(&full);
                self.buffer = full;
                self.buffer.clear();
            }
        }
        Ok(())
    }

    /// Hashes a full, aligned chunk (`chunk_rows` rows) and compresses it to a single node
    /// in bulk.
    fn hash_chunk(&mut self, chunk: &[Goldilocks]) {
        let mut layer = vec![ZERO_DIGEST; self.chunk_rows];
        // The chunk is exactly chunk_rows rows of `width` elements: the lengths match.
        self.config
            .hash_leaves(chunk, self.width, &mut layer)
            .expect("a full chunk is chunk_rows whole rows");
        self.rows += self.chunk_rows;
        let mut level = 0;
        while layer.len() > 1 {
            self.record_many(level, &layer);
            let mut parents = vec![ZERO_DIGEST; layer.len() / 2];
            // chunk_rows is a power of two, so every layer above 1 has even length.
            self.config
                .compress_nodes(&layer, &mut parents)
                .expect("a power-of-two layer pairs up");
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
        self.sink.push(level, nodes);
        self.counts[level] += nodes.len();
        if level >= self.record_from {
            self.recorded[level].extend_from_slice(nodes);
        }
    }

    /// Adds a completed node and compresses upwards while siblings exist.
    fn push_node(&mut self, mut level: usize, mut node: Digest) {
        loop {
            self.ensure_level(level);
            self.sink.push(level, core::slice::from_ref(&node));
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
    ///
    /// # Errors
    /// [`StreamError::WrongRowCount`] if fewer rows than a declared height were pushed;
    /// [`StreamError::Shape`] ([`ShapeError::EmptyMatrix`]) if no rows were pushed;
    /// [`StreamError::CapTooHigh`] if the cap height exceeds the depth of the tree the rows
    /// formed (only possible without a declared height).
    pub fn finish(self) -> Result<Commitment, StreamError> {
        self.finish_with_sink().map(|(commitment, _)| commitment)
    }

    /// As [`StreamingCommitter::finish`], and gives back the sink, which has then received
    /// every digest layer in full.
    ///
    /// # Errors
    /// As [`StreamingCommitter::finish`].
    pub fn finish_with_sink(mut self) -> Result<(Commitment, S), StreamError> {
        let rows = self.rows();
        if let Some(declared) = self.declared
            && rows != declared
        {
            return Err(StreamError::WrongRowCount { declared, rows });
        }
        if rows == 0 {
            return Err(StreamError::Shape(ShapeError::EmptyMatrix { matrix: 0 }));
        }
        // The last, partial chunk: hash in bulk, then feed leaf by leaf.
        if !self.buffer.is_empty() {
            let rows = self.buffer.len() / self.width;
            let mut leaves = vec![ZERO_DIGEST; rows];
            // push_rows only ever buffers whole rows.
            self.config
                .hash_leaves(&self.buffer, self.width, &mut leaves)
                .expect("the buffer holds whole rows");
            self.rows += rows;
            self.buffer = Vec::new();
            for leaf in leaves {
                self.push_node(0, leaf);
            }
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
                self.sink.push(level, &[ZERO_DIGEST]);
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
                height: self.rows,
            });
        }
        let cap_layer = &self.recorded[depth - self.cap_height];
        // cap_height ≤ depth ≤ MAX_LOG_HEIGHT: the shift is in range.
        let cap_len = (1usize << self.cap_height).min(cap_layer.len());
        let commitment = Commitment {
            cap: cap_layer[..cap_len].to_vec(),
        };
        Ok((commitment, self.sink))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config;

    /// Pushing past `MAX_HEIGHT` rows needs 2^48 rows; the counter is set instead (the check
    /// reads only the count, and a refused push touches nothing else).
    #[test]
    fn rows_beyond_the_height_limit_are_refused() {
        let config = config::poseidon2_w8();
        let row = [Goldilocks::ONE; 2];
        let mut stream = StreamingCommitter::new(&config, 2, 0).unwrap();
        stream.rows = MAX_HEIGHT - 1;
        stream.push_rows(&row).unwrap();
        assert_eq!(stream.rows(), MAX_HEIGHT);
        let err = stream.push_rows(&row).unwrap_err();
        assert_eq!(
            err,
            StreamError::Shape(ShapeError::HeightTooLarge {
                matrix: 0,
                height: MAX_HEIGHT + 1
            })
        );
        assert!(err.to_string().contains("height 281474976710657"), "{err}");
        assert_eq!(stream.rows(), MAX_HEIGHT, "a refused push consumes nothing");
        // An empty push never exceeds anything.
        stream.push_rows(&[]).unwrap();
    }
}
