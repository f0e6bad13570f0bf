//! The low-degree test's prover: fold the reduced openings down to the final polynomial,
//! committing to every codeword it folds, then answer the queries.

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{
    BuildError, Commitment, Matrix, MerkleConfig, MerkleTree, MultiOpening, Preset, TreeDigests,
};
use aurum_ntt::{Ntt, Order};
use aurum_symmetric::Challenger;
use rayon::prelude::*;
use tracing::{debug_span, info_span};

use crate::engine::{CommitEngine, engine_fold, engine_tree};
use crate::error::{OpenError, open_multi_error};
use crate::fold::fold_codeword;
use crate::instrument::{Shapes, Timings, timed};
use crate::params::{FriParameters, effective_cap_height};
use crate::proof::CommitPhaseOpening;
use crate::transcript::{FriShape, fri_seed};

/// Digest layers a commit-phase tree does not store: opening a query rebuilds its block of
/// `2^4` leaves (at most 31 permutations at arity 2), while the tree keeps `1/16` of its
/// digests — the codewords' trees would otherwise hold as much memory as the input tree.
const COMMIT_PHASE_DROPPED_LAYERS: usize = 4;

/// One committed codeword and its tree (its digests; the codeword is the matrix).
pub(crate) struct Round {
    codeword: Vec<Goldilocks2>,
    digests: TreeDigests,
    log_arity: usize,
}

/// What the commit phase and the query indices produce, before any tree is opened
/// ([`answer_queries`] opens the committed codewords).
pub(crate) struct LowDegreeProof {
    pub(crate) commits: Vec<Commitment>,
    pub(crate) commit_pow_witnesses: Vec<Goldilocks>,
    pub(crate) final_poly: Vec<Goldilocks2>,
    pub(crate) query_pow_witness: Goldilocks,
    /// Query indices into the tallest codeword.
    pub(crate) indices: Vec<usize>,
    /// The committed codewords, for [`answer_queries`].
    pub(crate) rounds: Vec<Round>,
}

/// The matrix a codeword is committed as: rows of `arity` extension elements, i.e.
/// `2 · arity` base elements (Plonky3's `ExtensionMmcs` flattening).
fn codeword_matrix(codeword: &[Goldilocks2], log_arity: usize) -> Matrix<'_> {
    Matrix::new(Goldilocks2::as_base_slice(codeword), 2 << log_arity)
        .expect("a codeword is a whole number of groups")
}

/// Runs the low-degree test on `inputs` (`(log_height, codeword)`, strictly decreasing
/// heights, every height above the final one unless `log_final_poly_len = 0`), after `α`, up
/// to the query indices. The tree over each folded codeword and each fold are `engine`'s where
/// there is one and it takes them ([`CommitEngine::tree`], [`CommitEngine::fold`]), else
/// computed here.
///
/// Spans, named as Plonky3's `prove_fri` names the same work: `commit phase` (the folding
/// rounds and the final polynomial), in it `build merkle tree` and `fold_matrix` per round
/// and `idft final poly`.
pub(crate) fn prove<C: MerkleConfig, Ch: Challenger>(
    config: &C,
    engine: Option<(&dyn CommitEngine, Preset)>,
    params: &FriParameters,
    cap_height: usize,
    inputs: Vec<(usize, Vec<Goldilocks2>)>,
    challenger: &mut Ch,
    timings: &mut Timings,
) -> Result<LowDegreeProof, OpenError> {
    let commit_phase_start = std::time::Instant::now();
    let grinding_before = timings.grinding;
    let heights: Vec<usize> = inputs.iter().map(|(h, _)| *h).collect();
    let log_max_height = heights[0];
    let shape = FriShape::new(params, &heights);
    challenger.observe_slice(&fri_seed(&shape));

    let commit_phase = info_span!("commit phase").entered();
    let mut inputs = inputs.into_iter().map(|(_, c)| c).peekable();
    let mut folded = inputs.next().expect("at least one input");
    let mut rounds = Vec::with_capacity(shape.log_arities.len());
    let mut commits = Vec::with_capacity(shape.log_arities.len());
    let mut commit_pow_witnesses = Vec::with_capacity(shape.log_arities.len());
    for &log_arity in &shape.log_arities {
        // A tree over 2^depth rows; the cap layer stays stored.
        let depth = folded.len().trailing_zeros() as usize - log_arity;
        let cap_height = effective_cap_height(cap_height, depth);
        let dropped = COMMIT_PHASE_DROPPED_LAYERS.min(depth - cap_height);
        let matrix = codeword_matrix(&folded, log_arity);
        let digests =
            debug_span!("build merkle tree", dimensions = %Shapes(&[matrix.dimensions()]))
                .in_scope(|| codeword_tree(config, engine, matrix, dropped))?;
        let commitment = MerkleTree::from_digests(config, vec![matrix], &digests)
            .expect("the digests of this codeword")
            .commitment(cap_height)
            .expect("one matrix: every cap height up to the depth commits to it");
        for digest in &commitment.cap {
            challenger.observe_slice(digest);
        }
        commit_pow_witnesses.push(timed(&mut timings.grinding, || {
            challenger.grind(params.commit_proof_of_work_bits)
        })?);
        let beta = challenger.sample_ext();
        let mut next =
            debug_span!("fold_matrix").in_scope(|| fold(engine, &folded, log_arity, beta))?;
        // An input of the folded height joins it, weighted by β^arity.
        if let Some(input) = inputs.next_if(|v| v.len() == next.len()) {
            let weight = beta.exp_u64(1 << log_arity);
            for (n, &x) in next.iter_mut().zip(&input) {
                *n += weight * x;
            }
        }
        commits.push(commitment);
        rounds.push(Round {
            codeword: core::mem::replace(&mut folded, next),
            digests,
            log_arity,
        });
    }

    // The commit phase's time, without the proof-of-work searches it ran.
    timings.commit_phase += commit_phase_start
        .elapsed()
        .saturating_sub(timings.grinding - grinding_before);

    let queries_start = std::time::Instant::now();
    // The final codeword has 2^log_blowup · final_poly_len points; its first final_poly_len
    // (bit-reversed order) are the subgroup of that order, enough to interpolate.
    folded.truncate(params.final_poly_len());
    debug_span!("idft final poly").in_scope(|| {
        Ntt::default()
            .inverse(&mut folded, 1, Order::BitReversed)
            .expect("a power-of-two vector of at most 2^32 elements");
    });
    drop(commit_phase);
    let final_poly = folded;
    for &c in &final_poly {
        challenger.observe_ext(c);
    }
    timings.queries += queries_start.elapsed();
    let query_pow_witness = timed(&mut timings.grinding, || {
        challenger.grind(params.query_proof_of_work_bits)
    })?;
    let queries_start = std::time::Instant::now();
    let indices: Vec<usize> = (0..params.num_queries)
        .map(|_| {
            // index_bits ≤ 32 (validated heights): always a valid width and a usize.
            challenger
                .sample_bits(log_max_height)
                .expect("at most 32 bits") as usize
        })
        .collect();
    timings.queries += queries_start.elapsed();
    Ok(LowDegreeProof {
        commits,
        commit_pow_witnesses,
        final_poly,
        query_pow_witness,
        indices,
        rounds,
    })
}

/// The digest layers from `dropped` up of the tree over a codeword's `matrix`: `engine`'s where
/// it takes the tree, else built here.
fn codeword_tree<C: MerkleConfig>(
    config: &C,
    engine: Option<(&dyn CommitEngine, Preset)>,
    matrix: Matrix<'_>,
    dropped: usize,
) -> Result<TreeDigests, OpenError> {
    if let Some(digests) = engine_tree(engine, &[matrix], dropped).map_err(OpenError::Engine)? {
        return Ok(digests);
    }
    let tree =
        MerkleTree::with_dropped_layers(config, vec![matrix], dropped).map_err(|e| match e {
            BuildError::OutOfMemory { what, bytes } => OpenError::OutOfMemory { what, bytes },
            e => unreachable!("a codeword of 2^k ≤ 2^32 groups is a valid tree: {e}"),
        })?;
    Ok(tree.into_digests())
}

/// `codeword` folded by `2^log_arity` with `beta`: by `engine` where it takes the fold, else
/// here.
fn fold(
    engine: Option<(&dyn CommitEngine, Preset)>,
    codeword: &[Goldilocks2],
    log_arity: usize,
    beta: Goldilocks2,
) -> Result<Vec<Goldilocks2>, OpenError> {
    if let Some(folded) =
        engine_fold(engine, codeword, log_arity, beta).map_err(OpenError::Engine)?
    {
        return Ok(folded);
    }
    Ok(fold_codeword(codeword, log_arity, beta)?)
}

/// Each round's openings: the queried groups (minus the queried value) and their digests.
/// The rounds are independent once each round's indices are known, so they run in parallel.
pub(crate) fn answer_queries<C: MerkleConfig>(
    config: &C,
    cap_height: usize,
    rounds: Vec<Round>,
    indices: &[usize],
) -> Result<Vec<CommitPhaseOpening>, OpenError> {
    // The queried positions in each round's codeword.
    let mut positions = Vec::with_capacity(rounds.len());
    let mut current = indices.to_vec();
    for round in &rounds {
        let next = current.iter().map(|i| i >> round.log_arity).collect();
        positions.push(core::mem::replace(&mut current, next));
    }
    rounds
        .into_par_iter()
        .zip(positions)
        .map(|(round, positions)| {
            let arity = 1usize << round.log_arity;
            let groups: Vec<usize> = positions.iter().map(|i| i >> round.log_arity).collect();
            let matrix = codeword_matrix(&round.codeword, round.log_arity);
            let tree = MerkleTree::from_digests(config, vec![matrix], &round.digests)
                .expect("the digests of this codeword");
            let depth = tree.shape().depth();
            let MultiOpening { rows, siblings } = tree
                .open_multi(&groups, effective_cap_height(cap_height, depth))
                .map_err(open_multi_error)?;
            let sibling_values = rows
                .iter()
                .zip(&positions)
                .map(|(row, &index)| {
                    let values = row[0].chunks_exact(2).map(|c| Goldilocks2::new(c[0], c[1]));
                    values
                        .enumerate()
                        .filter(|&(j, _)| j != index % arity)
                        .map(|(_, v)| v)
                        .collect()
                })
                .collect();
            Ok(CommitPhaseOpening {
                sibling_values,
                siblings,
            })
        })
        .collect()
}
