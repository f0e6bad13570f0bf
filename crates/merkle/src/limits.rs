//! The largest trees this crate builds: every size from a caller, a file or a proof is
//! checked against these before any arithmetic is done with it.

/// Base-2 logarithm of [`MAX_HEIGHT`]: no tree is deeper than this, so no cap height above it
/// can ever be satisfied.
pub const MAX_LOG_HEIGHT: usize = 48;

/// The largest supported height (rows of the tallest matrix): `2^48`.
///
/// A tree of `2^48` leaves already holds 8 PiB of leaf digests alone, far beyond any prover,
/// and the bound leaves 16 bits of headroom: every layer length, node count and index below
/// it, doubled or summed over all layers, stays far from overflowing a 64-bit `usize`, and
/// every cap holds at most `2^48` digests. Heights that come from files, flags or proofs are
/// checked against it before any arithmetic is done with them.
pub const MAX_HEIGHT: usize = 1 << MAX_LOG_HEIGHT;

/// The largest supported total width: the widths of all matrices of a tree, summed, are at
/// most `2^32`.
///
/// Widths are summed, not just bounded one by one: a leaf hashes the rows of all matrices of
/// one height concatenated (and the verifier forms that concatenation from the opened rows), so
/// the sum is the length of a hash input that must be formable in memory (`2^32` elements are
/// 32 GiB, far above the thousands of columns of real traces, and still allow single-row
/// "vector" commitments of billions of elements). Under this bound no sum of widths can
/// overflow, and `MAX_HEIGHT × MAX_WIDTH = 2^80` bounds the only product of a height and a
/// width any cost estimate forms (which [`TreeShape::permutations`](crate::TreeShape::permutations) does in saturating
/// arithmetic).
pub const MAX_WIDTH: usize = 1 << 32;

// The limits (and the arguments that no size arithmetic below them overflows) assume 64-bit
// sizes.
