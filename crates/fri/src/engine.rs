//! Another place to compute a [`FriPcs`](crate::FriPcs)'s Merkle trees: the input
//! commitments of [`FriPcs::commit`](crate::FriPcs::commit) — the LDEs of the input matrices
//! and the tree over them, most of a prover's time — and the other trees it builds: over LDEs
//! computed elsewhere ([`FriPcs::commit_ldes`](crate::FriPcs::commit_ldes)) and over each
//! codeword the FRI commit phase folds; and those folds; and the openings' reduced codewords,
//! from LDEs it may have kept from their commitment ([`EngineData`]). A GPU is one
//! (`aurum_cuda::GpuCommitEngine`); this crate does not depend on any. The scheme checks the
//! requests before and the shapes of what comes back after, and takes each tree's commitment
//! from the returned layers, so a proof made with an engine is the proof made without one
//! exactly when the engine computes the same LDEs, digests, folds and reduced openings.

use core::any::Any;
use core::fmt;
use std::sync::Arc;
use std::time::Duration;

use aurum_goldilocks::{Goldilocks, Goldilocks2};
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
    /// What the engine keeps of this commitment for its openings (the LDEs in its own memory,
    /// say): the scheme holds it with the commitment's `ProverData` (dropping it with them) and
    /// hands it back to [`CommitEngine::reduced_openings`] with each of these matrices.
    pub kept: Option<Arc<dyn EngineData>>,
}

/// What an engine keeps of a commitment ([`EngineCommit::kept`]); the engine that made it
/// recognises it by its type (`&dyn EngineData` upcasts to `&dyn Any`).
pub trait EngineData: Any + Send + Sync + fmt::Debug {}

/// One term of a reduced opening: a point `z` a matrix is opened at, with `c = α^off · Σ_j
/// α^j · p_j(z)` (its claimed values combined, `off` the columns of the (matrix, point) pairs
/// of this height before this one) and `w = α^(off − off₀)` (`off₀` that of the matrix's first
/// point): the term adds `(c − w · r(x)) / (z − x)` at each point `x` of the domain, `r(x)` the
/// matrix's row combined with its [`MatrixOpening::coefficients`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningTerm {
    /// The point.
    pub z: Goldilocks2,
    /// The claimed values, combined.
    pub c: Goldilocks2,
    /// The weight of the row combination.
    pub w: Goldilocks2,
}

/// One committed matrix's part in a reduced opening.
#[derive(Clone, Debug)]
pub struct MatrixOpening<'a> {
    /// Its LDE: `2^log_height` rows of `width` values on `7 · K` in bit-reversed order.
    pub lde: &'a [Goldilocks],
    /// Columns.
    pub width: usize,
    /// What the engine kept of the commitment this matrix is in, and the matrix's index there
    /// (`None` where the CPU or another engine committed it).
    pub kept: Option<(&'a dyn EngineData, usize)>,
    /// `α^(off₀ + j)` for each column `j`: `r(x) = Σ_j coefficients[j] · row(x)[j]`.
    pub coefficients: Vec<Goldilocks2>,
    /// Its terms, one per point it is opened at.
    pub terms: Vec<OpeningTerm>,
}

/// The reduced opening of one height: the codeword
/// `ro(x_i) = Σ_{matrix, term} (c − w · r(x_i)) / (z − x_i)` for `i < 2^log_height`, where
/// `x_i = 7 · ω^rev(i)` (`ω` of order `2^log_height`, `rev` over `log_height` bits) is row
/// `i`'s point, in bit-reversed order as FRI takes it; no `z` lies on that coset.
#[derive(Clone, Debug)]
pub struct HeightOpening<'a> {
    /// Base-2 log of the codeword's length and of each matrix's LDE height.
    pub log_height: usize,
    /// The matrices of that height, in commitment and matrix order.
    pub matrices: Vec<MatrixOpening<'a>>,
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

    /// The FRI fold of `codeword` (`2^k` extension elements in bit-reversed order, as the
    /// commit phase holds it) by `2^log_arity` with `beta`: for each group of `2^log_arity`
    /// adjacent values, the polynomial through them on their coset of the `2^log_arity`-th
    /// roots of unity evaluated at `beta` (`log_arity` binary folds with `β, β², β⁴, …`: the
    /// pair `(f(x), f(−x))` at pair index `t` becomes `(f(x) + f(−x))/2 +
    /// β·(f(x) − f(−x))/(2x)`, `x = ω^rev(t)` for the root `ω` of the codeword's order and
    /// `rev` over `k − 1` bits) — Plonky3's `fold_matrix` — or `Ok(None)` to leave it to the
    /// CPU (the default). `log_arity` is 1 to [`MAX_LOG_ARITY`](crate::MAX_LOG_ARITY) and the
    /// codeword holds at least one group. An error is the opening's error
    /// ([`OpenError::Engine`](crate::OpenError::Engine)), as is a result of another length
    /// than `codeword.len() >> log_arity`.
    fn fold(
        &self,
        codeword: &[Goldilocks2],
        log_arity: usize,
        beta: Goldilocks2,
    ) -> Result<Option<Vec<Goldilocks2>>, String> {
        let _ = (codeword, log_arity, beta);
        Ok(None)
    }

    /// The reduced opening of each of `heights` (tallest first), a codeword of
    /// `2^log_height` extension elements each, as [`HeightOpening`] defines it
    /// ([`reduced_opening`](crate::reduced_opening) computes it on the CPU), or `Ok(None)` to
    /// leave them to the CPU (the default). A matrix this engine committed comes with what it
    /// kept of that commitment ([`MatrixOpening::kept`]). An error is the opening's error
    /// ([`OpenError::Engine`](crate::OpenError::Engine)), as is a result of another count or
    /// length.
    fn reduced_openings(
        &self,
        heights: &[HeightOpening<'_>],
    ) -> Result<Option<Vec<Vec<Goldilocks2>>>, String> {
        let _ = heights;
        Ok(None)
    }
}

/// Whether `digests` are the layers from `dropped` up of a tree over matrices of `dims`.
pub(crate) fn layers_match(digests: &TreeDigests, dims: &[Dimensions], dropped: usize) -> bool {
    digests.shape().dims() == dims
        && digests.layer(dropped).is_some()
        && (dropped == 0 || digests.layer(dropped - 1).is_none())
}

impl HeightOpening<'_> {
    /// Whether this is a reduced opening [`reduced_opening`](crate::reduced_opening) computes:
    /// a height of at most [`MAX_LOG_DOMAIN`](crate::MAX_LOG_DOMAIN), every matrix's LDE
    /// `2^log_height` rows of its width (at least one column), one coefficient per column, and
    /// no point on the domain.
    #[must_use]
    pub fn is_well_formed(&self) -> bool {
        let log_height = self.log_height;
        if log_height > crate::limits::MAX_LOG_DOMAIN {
            return false;
        }
        let n = 1u64 << log_height;
        // z^n = 7^n exactly on the coset 7·K, |K| = n.
        let shift_n = Goldilocks2::from(crate::domain::SHIFT.exp_u64(n));
        self.matrices.iter().all(|m| {
            m.width > 0
                && m.lde.len() % m.width == 0
                && m.lde.len() / m.width == 1 << log_height
                && m.coefficients.len() == m.width
                && m.terms.iter().all(|t| t.z.exp_u64(n) != shift_n)
        })
    }
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

/// `engine`'s [`CommitEngine::fold`] of `codeword`, its length checked: `Ok(None)` where there
/// is no engine or it leaves the fold to the CPU, the engine's message where it failed or
/// returned another length.
pub(crate) fn engine_fold(
    engine: Option<(&dyn CommitEngine, Preset)>,
    codeword: &[Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
) -> Result<Option<Vec<Goldilocks2>>, String> {
    let Some((engine, _)) = engine else {
        return Ok(None);
    };
    let Some(folded) = engine.fold(codeword, log_arity, beta)? else {
        return Ok(None);
    };
    if folded.len() == codeword.len() >> log_arity {
        Ok(Some(folded))
    } else {
        Err(format!(
            "the engine folded {} values into {}, not {}",
            codeword.len(),
            folded.len(),
            codeword.len() >> log_arity
        ))
    }
}

/// `engine`'s [`CommitEngine::reduced_openings`] of `heights`, their count and lengths
/// checked: `Ok(None)` where there is no engine or it leaves them to the CPU, the engine's
/// message where it failed or returned other shapes.
pub(crate) fn engine_reduced_openings(
    engine: Option<(&dyn CommitEngine, Preset)>,
    heights: &[HeightOpening<'_>],
) -> Result<Option<Vec<Vec<Goldilocks2>>>, String> {
    let Some((engine, _)) = engine else {
        return Ok(None);
    };
    let Some(codewords) = engine.reduced_openings(heights)? else {
        return Ok(None);
    };
    let lengths_match = codewords.len() == heights.len()
        && codewords
            .iter()
            .zip(heights)
            .all(|(c, h)| c.len() == 1 << h.log_height);
    if lengths_match {
        Ok(Some(codewords))
    } else {
        Err("the engine returned reduced openings of other lengths than asked for".into())
    }
}
