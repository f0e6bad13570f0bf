//! The passes of a batched transform: how its layers are grouped into cache-sized passes
//! ([`plan`]), the pass kernels ([`block`], [`stripe`]) and how each pass is cut into
//! parallel tasks ([`tasks`]).
//!
//! A size-`2^k` radix-2 network has `k` layers. Running them one at a time would stream the
//! whole matrix through memory `k` times; instead [`Plan`] groups the layers into passes whose
//! working sets fit in the L2 cache, and each pass is cut into independent rayon tasks.
//! All of it is safe Rust: tasks own disjoint `&mut` sub-slices built with `chunks_exact_mut`.

pub(crate) mod block;
pub(crate) mod plan;
pub(crate) mod stripe;
pub(crate) mod tasks;
