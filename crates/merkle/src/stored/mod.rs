//! The tree kept for later: a single matrix's digest layers, written while the rows stream in
//! ([`StoredTreeWriter`]), kept in memory or in a tree file, and opened later from the tree
//! and one block of rows ([`StoredTree`]) — so that a prover can commit, drop the trace, and
//! answer queries afterwards, reading only what a query needs.
//!
//! # What is stored
//!
//! Layers `k..=depth` of the tree (`k` = [`TreeSpec::dropped`], as
//! [`MerkleTree::with_dropped_layers`](crate::MerkleTree::with_dropped_layers) keeps them),
//! each exactly as [`MerkleTree::layer`](crate::MerkleTree::layer) has it, zero padding
//! digest included. Opening leaf `i` reads the siblings of its path at levels `≥ k` (one
//! digest per level) and rebuilds the levels below from the `2^k` rows of its block, which
//! the caller supplies ([`StoredTree::block_rows`] says which): the tree costs `2^-k` of
//! `64` bytes per row, an opening `2^k` leaf hashes.
//!
//! # The tree file (version 1)
//!
//! All integers little-endian; a digest is its four canonical `u64` values (32 bytes).
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `AURMTREE` |
//! | 8 | 4 | version, 1 |
//! | 12 | 4 | header length `H` = `144 + 16 · n` |
//! | 16 | 32 | the configuration's name ([`MerkleConfig::name`](crate::MerkleConfig::name)), zero-padded UTF-8 |
//! | 48 | 8 | width |
//! | 56 | 8 | height |
//! | 64 | 8 | cap height of the commitment |
//! | 72 | 8 | dropped levels `k` |
//! | 80 | 8 | source length: what the writer's caller said the input was (the CLI: the input file's length in bytes) |
//! | 88 | 32 | the root |
//! | 120 | 8 | the file's length |
//! | 128 | 4 | stored levels `n = depth + 1 − k` |
//! | 132 | 4 | zero |
//! | 136 | 16 · n | per stored level, from `k` up: its length in digests, its checksum |
//! | `H − 8` | 8 | checksum of the header's bytes before it |
//! | `H` | | level `k`, then level `k + 1`, …, up to the root |
//!
//! Every level's offset follows from the shape, which the writer knows before the first row
//! (the height is declared), so each level is written at its place through its own small
//! buffer with positioned writes, as the [`StreamingCommitter`](crate::StreamingCommitter)
//! produces it: memory stays at one buffer per level (at most 64 KiB each), whatever the size
//! of the tree. The header comes last; the file is written under a temporary name in the
//! same directory and renamed only when complete and synced, so no reader ever sees a
//! partial tree file at the path.
//!
//! The checksums are a fast non-cryptographic hash of 64-bit words (a multiply-rotate chain in
//! which every word is a bijective step, so any single changed word changes the checksum).
//! They detect accidental damage, not forgery: the root is what binds the tree to its rows.
//! Reading a tree file checks the header completely — magic, version, the header checksum,
//! the shape, every level's length against it, the file's length against the sum — without
//! reading the layers; [`StoredTree::check_layers`] reads them all and checks their
//! checksums. Every opening is verified against the root before it is returned, so a damaged
//! sibling or an input that is not the committed one is an error
//! ([`StoredTreeError::CorruptPath`], [`StoredTreeError::InputMismatch`]), never a wrong
//! proof.
//!
//! Only single-matrix trees are stored (what a [`StreamingCommitter`](crate::StreamingCommitter)
//! commits); mixed-height trees would need their injected rows at opening time and are not
//! supported by this format version.

mod checksum;
pub(crate) mod format;
mod reader;
mod spec;
mod writer;

pub use crate::error::StoredTreeError;
pub use format::{TREE_FILE_MAGIC, TREE_FILE_VERSION};
pub use reader::StoredTree;
pub use spec::{StoredTreeInfo, TreeSpec};
pub use writer::StoredTreeWriter;
