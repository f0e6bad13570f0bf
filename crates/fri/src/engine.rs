//! Another place to compute [`FriPcs::commit`](crate::FriPcs::commit)'s work: the LDEs of the
//! input matrices and the Merkle tree over them, most of a prover's time. A GPU is one
//! (`aurum_cuda::GpuCommitEngine`); this crate does not depend on any. The scheme checks the
//! requests before and the shapes of what comes back after, and takes the tree's commitment
//! from the returned layers, so a proof made with an engine is the proof made without one
//! exactly when the engine computes the same LDEs and digests.

use core::fmt;
use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Answers, Preset, TreeDigests};

/// One input matrix: each column holds a polynomial's evaluations on a coset of the subgroup
/// of order `height` (natural order, rows of `width`).
#[derive(Clone, Copy, Debug)]
pub struct EngineMatrix<'a> {
    /// The evaluations, row-major.
    pub values: &'a [Goldilocks],
    /// Columns.
    pub width: usize,
    /// The shift of the LDE that extends them onto the committed coset (the CPU's
    /// `Ntt::coset_lde(values, width, log_blowup, lde_shift, Order::BitReversed)` on Plonky3's
    /// domain).
    pub lde_shift: Goldilocks,
}

/// What an engine computed for a commitment.
#[derive(Clone, Debug)]
pub struct EngineCommit {
    /// Each matrix's LDE: `height · 2^log_blowup` rows in bit-reversed order, row-major.
    pub ldes: Vec<Vec<Goldilocks>>,
    /// The digest layers of the preset's tree over the LDEs (in input order), layers below
    /// the requested `dropped` left out.
    pub digests: TreeDigests,
    /// Time spent on the LDEs.
    pub lde_time: Duration,
    /// Time spent on the tree.
    pub merkle_time: Duration,
}

/// Computes a [`FriPcs`](crate::FriPcs)'s input LDEs and their tree elsewhere; set with
/// [`FriPcs::with_engine`](crate::FriPcs::with_engine).
pub trait CommitEngine: Send + Sync + fmt::Debug {
    /// What the engine's tree for `preset` computes ([`Answers`]): the preset's own answers
    /// unless the engine hashes with other constants (a GPU compiled with a prover's own
    /// Poseidon2 round constants, say). [`FriPcs::with_engine`](crate::FriPcs::with_engine)
    /// hands the engine a configuration's commitments as the preset whose answers these equal.
    fn tree_answers(&self, preset: Preset) -> Answers {
        preset.answers()
    }

    /// The LDE of each of `matrices` by `2^log_blowup` and the `preset` tree over them
    /// (layers from `dropped` up), or `Ok(None)` to leave this commitment to the CPU (too
    /// small to pay for itself, say). An error is the commitment's error
    /// ([`CommitError::Engine`](crate::CommitError::Engine)): the CPU is not tried instead.
    fn commit(
        &self,
        preset: Preset,
        matrices: &[EngineMatrix<'_>],
        log_blowup: usize,
        dropped: usize,
    ) -> Result<Option<EngineCommit>, String>;
}
