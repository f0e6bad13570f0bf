//! Where a streamed tree's digest layers go: the [`LayerSink`] a
//! [`StreamingCommitter`](crate::StreamingCommitter) feeds.

use crate::digest::Digest;

/// Receives the digest layers of a tree as a
/// [`StreamingCommitter`](crate::StreamingCommitter) produces them.
///
/// For each level `j` (0 = the leaf digests, the last level the root), the calls
/// `push(j, nodes)` deliver the digests of layer `j` in order of position, each exactly once,
/// the zero padding digest of an odd layer included: concatenated, they are
/// [`MerkleTree::layer`](crate::MerkleTree::layer)`(j)` of the in-memory tree over the same
/// rows. Calls for different levels interleave (a parent is produced as soon as its two
/// children are), so a sink that stores the layers keeps one write position per level.
///
/// Pushing is infallible: a sink that can fail (one writing to a file) records its first
/// error, ignores what follows, and reports the error when it is asked
/// ([`StreamingCommitter::sink`](crate::StreamingCommitter::sink) reaches it while
/// streaming), so that the committer's own API and errors stay those of pure hashing.
pub trait LayerSink {
    /// The next `nodes` of digest layer `level`.
    fn push(&mut self, level: usize, nodes: &[Digest]);
}

/// The sink that discards every layer: the default of
/// [`StreamingCommitter`](crate::StreamingCommitter), which then holds only `O(log n)`
/// digests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoSink;

impl LayerSink for NoSink {
    #[inline]
    fn push(&mut self, _level: usize, _nodes: &[Digest]) {}
}

impl<S: LayerSink + ?Sized> LayerSink for &mut S {
    #[inline]
    fn push(&mut self, level: usize, nodes: &[Digest]) {
        (**self).push(level, nodes);
    }
}
