//! Differential tests live in `tests/tests/`: Aurum against Plonky3 (and, in the sibling
//! nightly crate, plonky2), on random and edge-case inputs.
//!
//! The Rust snippets of the repository's `README.md` (and of `docs/*.md`, where they have any)
//! are compiled and run as this crate's doctests (`cargo test -p aurum-tests --doc`), so every
//! snippet a reader copies builds against the current API.

/// The `README.md` at the repository's root, whose Rust snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
