//! What Aurum's FRI supports: the largest blow-up, folding arity and evaluation domain.

/// The largest `log_blowup` and `max_log_arity`: blow-ups `2^1 … 2^4` (what `aurum-ntt`'s
/// LDE computes) and folding arities `2^1 … 2^4`.
pub const MAX_LOG_BLOWUP: usize = 4;
/// The largest folding arity, as a base-2 logarithm.
pub const MAX_LOG_ARITY: usize = 4;
/// The largest evaluation domain: `2^32` points (the two-adicity of Goldilocks).
pub const MAX_LOG_DOMAIN: usize = 32;
