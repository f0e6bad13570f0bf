//! Another place to compute a [`FriPcs`](crate::FriPcs)'s Merkle trees: the input
//! commitments of [`FriPcs::commit`](crate::FriPcs::commit) — the LDEs of the input matrices
//! and the tree over them, most of a prover's time — and the other trees it builds: over LDEs
//! computed elsewhere ([`FriPcs::commit_ldes`](crate::FriPcs::commit_ldes)) and over each
//! codeword the FRI commit phase folds. A GPU is one (`aurum_cuda::GpuCommitEngine`); this
//! crate does not depend on any. The scheme checks the requests before and the shapes of what
//! comes back after, and takes each tree's commitment from the returned layers, so a proof made
//! with an engine is the proof made without one exactly when the engine computes the same LDEs
//! and digests.

use core::fmt;
use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Answers, Dimensions, Matrix, Preset, TreeDigests};

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

    /// The `preset` tree over `matrices` (in this order; heights powers of two, as the CPU's
    /// `MerkleTree` takes them), layers from `dropped` up — what
    /// `MerkleTree::with_dropped_layers(config, matrices, dropped)` stores — or `Ok(None)` to
    /// leave it to the CPU (the default: an engine that only computes input commitments). The
    /// scheme asks for the trees over LDEs handed to
    /// [`FriPcs::commit_ldes`](crate::FriPcs::commit_ldes) and for the FRI commit phase's tree
    /// over each folded codeword. An error is that operation's error
    /// ([`CommitError::Engine`](crate::CommitError::Engine),
    /// [`OpenError::Engine`](crate::OpenError::Engine)): the CPU is not tried instead.
    fn tree(
        &self,
        preset: Preset,
        matrices: &[Matrix<'_>],
        dropped: usize,
    ) -> Result<Option<TreeDigests>, String> {
        let _ = (preset, matrices, dropped);
        Ok(None)
    }
}

/// Whether `digests` are the layers from `dropped` up of a tree over matrices of `dims`.
pub(crate) fn layers_match(digests: &TreeDigests, dims: &[Dimensions], dropped: usize) -> bool {
    digests.shape().dims() == dims
        && digests.layer(dropped).is_some()
        && (dropped == 0 || digests.layer(dropped - 1).is_none())
}

/// `engine`'s [`CommitEngine::tree`] over `matrices` for its `preset`, its shape checked:
/// `Ok(None)` where there is no engine or it leaves the tree to the CPU, the engine's message
/// where it failed or returned layers of another shape.
pub(crate) fn engine_tree(
    engine: Option<(&dyn CommitEngine, Preset)>,
    matrices: &[Matrix<'_>],
    dropped: usize,
) -> Result<Option<TreeDigests>, String> {
    let Some((engine, preset)) = engine else {
        return Ok(None);
    };
    let Some(digests) = engine.tree(preset, matrices, dropped)? else {
        return Ok(None);
    };
    let dims: Vec<Dimensions> = matrices.iter().map(Matrix::dimensions).collect();
    if layers_match(&digests, &dims, dropped) {
        Ok(Some(digests))
    } else {
        Err("the engine returned digest layers of other shapes than asked for".into())
    }
}
