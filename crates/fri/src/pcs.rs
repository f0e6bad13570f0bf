//! The polynomial commitment scheme: commit to matrices of evaluations, open them at points,
//! verify openings — Plonky3's `TwoAdicFriPcs` with `MerkleTreeMmcs` for the inputs and
//! `ExtensionMmcs` over the same tree for the folded codewords.

use std::sync::Arc;
use std::time::Instant;

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{
    Answers, BuildError, Commitment, Dimensions, Matrix, MerkleConfig, MerkleTree, Preset,
    TreeDigests, TreeShape,
};
use aurum_ntt::{Ntt, NttError, Order};
use aurum_symmetric::Challenger;
use tracing::{debug_span, info_span};

use crate::domain::SHIFT;
use crate::engine::{
    CommitEngine, EngineData, EngineMatrix, engine_reduced_openings, engine_tree, layers_match,
};
use crate::error::{CommitError, OpenError, ParamsError, VerifyError, open_multi_error};
use crate::instrument::{Shapes, Timings, timed};
use crate::limits::MAX_LOG_DOMAIN;
use crate::params::{FriParameters, effective_cap_height};
use crate::proof::{CommitmentClaim, FriProof, OpenedValues};
use crate::prover;
use crate::quotient::{self, Quotient};
use crate::transcript::pcs_seed;
use crate::verifier;

/// A FRI polynomial commitment scheme over the Merkle configuration `C`.
#[derive(Clone, Debug)]
pub struct FriPcs<C> {
    config: C,
    params: FriParameters,
    cap_height: usize,
    /// Where the input LDEs and tree are computed when not here, and the preset it builds.
    engine: Option<(Arc<dyn CommitEngine>, Preset)>,
}

/// Digest layers an input tree does not store: the leaf digests, as much memory as all the
/// layers above them. Opening a query rebuilds its pair of leaves (two row hashes and a
/// compression), and the tree keeps 32 of its 64 bytes per LDE row.
const INPUT_DROPPED_LAYERS: usize = 1;

/// One matrix to commit to: each column holds a polynomial's evaluations on a coset
/// `shift · H` of the subgroup `H` of order `height` (a power of two), rows in natural order.
#[derive(Clone, Debug)]
pub struct Evaluations {
    values: Vec<Goldilocks>,
    width: usize,
    shift: Goldilocks,
}

impl Evaluations {
    /// Evaluations on the subgroup itself (a trace domain), row-major, `width` columns.
    #[must_use]
    pub fn new(values: Vec<Goldilocks>, width: usize) -> Self {
        Self::on_coset(values, width, Goldilocks::ONE)
    }

    /// Evaluations on the coset `shift · H`.
    #[must_use]
    pub fn on_coset(values: Vec<Goldilocks>, width: usize, shift: Goldilocks) -> Self {
        Self {
            values,
            width,
            shift,
        }
    }
}

/// A low-degree extension, as [`FriPcs::commit`] computes and commits it: each column holds a
/// polynomial's evaluations on the coset `7 · K` (`|K| = height`, a power of two at least the
/// blow-up), rows in bit-reversed order, row-major. [`FriPcs::low_degree_extend`] computes
/// them and [`FriPcs::commit_ldes`] commits to them (for callers that combine several
/// matrices' LDEs before committing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lde {
    /// The values, `height · width` of them.
    pub values: Vec<Goldilocks>,
    /// Columns.
    pub width: usize,
}

/// One committed matrix, as opening needs it.
#[derive(Clone, Debug)]
struct Committed {
    /// Evaluations on `7 · K`, `|K| = 2^log_height`, bit-reversed rows.
    lde: Vec<Goldilocks>,
    width: usize,
    log_height: usize,
}

/// What the prover keeps of a commitment: the LDEs and the tree's digest layers (and what a
/// commit engine that computed them kept for the openings).
#[derive(Clone, Debug)]
pub struct ProverData {
    matrices: Vec<Committed>,
    digests: TreeDigests,
    commitment: Commitment,
    log_blowup: usize,
    cap_height: usize,
    kept: Option<Arc<dyn EngineData>>,
}

impl ProverData {
    /// The commitment.
    #[must_use]
    pub fn commitment(&self) -> &Commitment {
        &self.commitment
    }

    /// `(width, log2 LDE height)` of each committed matrix.
    #[must_use]
    pub fn shapes(&self) -> Vec<(usize, usize)> {
        self.matrices
            .iter()
            .map(|m| (m.width, m.log_height))
            .collect()
    }

    /// The committed LDE of matrix `matrix` (in commit order) and its width: evaluations on
    /// `7 · K`, rows in bit-reversed order, row-major; `None` past the last matrix.
    #[must_use]
    pub fn lde(&self, matrix: usize) -> Option<(&[Goldilocks], usize)> {
        self.matrices
            .get(matrix)
            .map(|m| (m.lde.as_slice(), m.width))
    }

    /// Bytes held: the LDEs and the digest layers.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        let ldes: usize = self.matrices.iter().map(|m| m.lde.len() * 8).sum();
        ldes + self.digests.digest_bytes()
    }

    fn tree<'a, C: MerkleConfig>(&'a self, config: &'a C) -> MerkleTree<'a, C> {
        let matrices = self
            .matrices
            .iter()
            .map(|m| Matrix::new(&m.lde, m.width).expect("committed as such"))
            .collect();
        MerkleTree::from_digests(config, matrices, &self.digests)
            .expect("the digests of these matrices")
    }
}

/// A commitment to open and the points to open each of its matrices at.
#[derive(Clone, Copy, Debug)]
pub struct OpeningRequest<'a> {
    /// What [`FriPcs::commit`] returned.
    pub data: &'a ProverData,
    /// `points[m]`: the points of matrix `m` (at least one each).
    pub points: &'a [Vec<Goldilocks2>],
}

impl<C: MerkleConfig> FriPcs<C> {
    /// A scheme with Merkle configuration `config` (for the inputs and the folded codewords
    /// alike) and FRI parameters `params`, committing with single roots (cap height 0).
    pub fn new(config: C, params: FriParameters) -> Result<Self, ParamsError> {
        params.validate()?;
        Ok(Self {
            config,
            params,
            cap_height: 0,
            engine: None,
        })
    }

    /// Computes [`FriPcs::commit`]'s LDEs and tree with `engine` (a GPU's) where it takes the
    /// job. Only where one of the engine's trees computes this configuration — its
    /// [`CommitEngine::tree_answers`] for a preset equal to the configuration's
    /// [`Answers`]: the presets' own configurations, under any name, and for an engine built
    /// with a prover's own Poseidon2 constants, that prover's configuration. For any other the
    /// scheme keeps committing on the CPU, and `engine_preset` says so. The proofs are the
    /// same either way (the engine computes the same values; the scheme checks their shapes).
    #[must_use]
    pub fn with_engine(mut self, engine: Arc<dyn CommitEngine>) -> Self {
        let answers = Answers::of(&self.config);
        self.engine = Preset::ALL
            .into_iter()
            .find(|&preset| engine.tree_answers(preset) == answers)
            .map(|preset| (engine, preset));
        self
    }

    /// The preset whose tree the commit engine builds, or `None` where commitments stay on the
    /// CPU (no engine, or a configuration none of its trees computes).
    #[must_use]
    pub fn engine_preset(&self) -> Option<Preset> {
        self.engine().map(|(_, preset)| preset)
    }

    /// Commits with caps of height `cap_height` (lowered to a tree's depth for small trees).
    #[must_use]
    pub fn with_cap_height(mut self, cap_height: usize) -> Self {
        self.cap_height = cap_height;
        self
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &FriParameters {
        &self.params
    }

    /// The Merkle configuration.
    #[must_use]
    pub fn config(&self) -> &C {
        &self.config
    }

    /// The configured cap height.
    #[must_use]
    pub fn cap_height(&self) -> usize {
        self.cap_height
    }

    /// Low-degree-extends every matrix onto `7 · K` (`|K| = blowup · height`, bit-reversed
    /// rows) and commits to all of them in one Merkle tree.
    pub fn commit(
        &self,
        matrices: Vec<Evaluations>,
    ) -> Result<(Commitment, ProverData), CommitError> {
        self.commit_timed(matrices, &mut Timings::default())
    }

    /// [`FriPcs::commit`], adding the time of each phase to `timings`.
    pub fn commit_timed(
        &self,
        matrices: Vec<Evaluations>,
        timings: &mut Timings,
    ) -> Result<(Commitment, ProverData), CommitError> {
        self.check_inputs(&matrices)?;
        if let Some((engine, preset)) = self.engine()
            && let Some(done) = self.commit_on_engine(engine, preset, &matrices, timings)?
        {
            return Ok(done);
        }
        let committed = timed(&mut timings.lde, || self.extend_checked(matrices))?;
        timed(&mut timings.merkle, || self.commit_ldes_checked(committed))
    }

    /// The commitment computed by `engine`, or `None` where it leaves the job to the CPU.
    fn commit_on_engine(
        &self,
        engine: &dyn CommitEngine,
        preset: Preset,
        matrices: &[Evaluations],
        timings: &mut Timings,
    ) -> Result<Option<(Commitment, ProverData)>, CommitError> {
        let log_blowup = self.params.log_blowup;
        let dims: Vec<Dimensions> = matrices
            .iter()
            .map(|m| Dimensions {
                width: m.width,
                height: (m.values.len() / m.width) << log_blowup,
            })
            .collect();
        let (_, dropped) = self.tree_plan(&dims)?;
        let inputs: Vec<EngineMatrix<'_>> = matrices
            .iter()
            .map(|m| EngineMatrix {
                values: &m.values,
                width: m.width,
                lde_shift: SHIFT * m.shift.inverse(),
            })
            .collect();
        let Some(done) = engine
            .commit(preset, &inputs, log_blowup, dropped)
            .map_err(CommitError::Engine)?
        else {
            return Ok(None);
        };
        timings.lde += done.lde_time;
        timings.merkle += done.merkle_time;
        let shapes_match = done.ldes.len() == dims.len()
            && done
                .ldes
                .iter()
                .zip(&dims)
                .all(|(lde, d)| lde.len() == d.width * d.height)
            && layers_match(&done.digests, &dims, dropped);
        if !shapes_match {
            return Err(CommitError::Engine(
                "the engine returned LDEs or digest layers of other shapes than asked for".into(),
            ));
        }
        let committed = done
            .ldes
            .into_iter()
            .zip(&dims)
            .map(|(lde, d)| Committed {
                lde,
                width: d.width,
                log_height: d.height.trailing_zeros() as usize,
            })
            .collect();
        let (commitment, mut data) = self.prover_data(committed, done.digests);
        data.kept = done.kept;
        Ok(Some((commitment, data)))
    }

    /// The LDE of each matrix as [`FriPcs::commit`] computes it, without committing.
    pub fn low_degree_extend(&self, matrices: Vec<Evaluations>) -> Result<Vec<Lde>, CommitError> {
        Ok(self
            .extend(matrices)?
            .into_iter()
            .map(|m| Lde {
                values: m.lde,
                width: m.width,
            })
            .collect())
    }

    /// Commits to LDEs computed elsewhere ([`FriPcs::low_degree_extend`], or any evaluations
    /// on `7 · K` in bit-reversed order): one Merkle commitment over all of them, as
    /// [`FriPcs::commit`] makes. Each height must be a power of two, at least the blow-up and
    /// at most `2^32`.
    pub fn commit_ldes(&self, ldes: Vec<Lde>) -> Result<(Commitment, ProverData), CommitError> {
        if ldes.is_empty() {
            return Err(CommitError::NoMatrices);
        }
        let mut committed = Vec::with_capacity(ldes.len());
        for (matrix, lde) in ldes.into_iter().enumerate() {
            let height = Matrix::new(&lde.values, lde.width)
                .map_err(|error| CommitError::NotAMatrix { matrix, error })?
                .height();
            if !height.is_power_of_two() {
                return Err(CommitError::HeightNotPowerOfTwo { matrix, height });
            }
            if height < self.params.blowup() {
                return Err(CommitError::LdeBelowBlowup { matrix, height });
            }
            let log_height = height.trailing_zeros() as usize;
            if log_height > MAX_LOG_DOMAIN {
                return Err(CommitError::TooTall { matrix, height });
            }
            committed.push(Committed {
                lde: lde.values,
                width: lde.width,
                log_height,
            });
        }
        self.commit_ldes_checked(committed)
    }

    /// The checks of every input matrix, before any work.
    fn check_inputs(&self, matrices: &[Evaluations]) -> Result<(), CommitError> {
        if matrices.is_empty() {
            return Err(CommitError::NoMatrices);
        }
        for (matrix, m) in matrices.iter().enumerate() {
            let shape = Matrix::new(&m.values, m.width)
                .map_err(|error| CommitError::NotAMatrix { matrix, error })?;
            let height = shape.height();
            if !height.is_power_of_two() {
                return Err(CommitError::HeightNotPowerOfTwo { matrix, height });
            }
            if height.trailing_zeros() as usize + self.params.log_blowup > MAX_LOG_DOMAIN {
                return Err(CommitError::TooTall { matrix, height });
            }
            if m.shift.is_zero() {
                return Err(CommitError::ZeroShift { matrix });
            }
        }
        Ok(())
    }

    /// The LDE of each matrix (checked first, all of them, before any work).
    fn extend(&self, matrices: Vec<Evaluations>) -> Result<Vec<Committed>, CommitError> {
        self.check_inputs(&matrices)?;
        self.extend_checked(matrices)
    }

    /// [`FriPcs::extend`] of matrices [`FriPcs::check_inputs`] accepted.
    fn extend_checked(&self, matrices: Vec<Evaluations>) -> Result<Vec<Committed>, CommitError> {
        let ntt = Ntt::default();
        matrices
            .into_iter()
            .map(|m| {
                let height = m.values.len() / m.width;
                let log_height = height.trailing_zeros() as usize + self.params.log_blowup;
                // Plonky3's span for the same work (`Radix2DitParallel` under
                // `TwoAdicSubgroupDft::coset_lde_batch`).
                let _span = debug_span!(
                    "coset_lde_batch_with_transform",
                    dims = %format_args!("{}x{height}", m.width),
                    added_bits = self.params.log_blowup,
                )
                .entered();
                // Evaluations on shift·H, extended onto (7/shift)·shift·K = 7·K.
                let lde = ntt
                    .coset_lde_vec(
                        m.values,
                        m.width,
                        self.params.log_blowup,
                        SHIFT * m.shift.inverse(),
                        Order::BitReversed,
                    )
                    .map_err(|e| match e {
                        NttError::OutOfMemory { what, bytes } => {
                            CommitError::OutOfMemory { what, bytes }
                        }
                        e => unreachable!("shapes checked above: {e}"),
                    })?;
                Ok(Committed {
                    lde,
                    width: m.width,
                    log_height,
                })
            })
            .collect()
    }

    fn commit_ldes_checked(
        &self,
        matrices: Vec<Committed>,
    ) -> Result<(Commitment, ProverData), CommitError> {
        let views: Vec<Matrix<'_>> = matrices
            .iter()
            .map(|m| Matrix::new(&m.lde, m.width).expect("checked when extended"))
            .collect();
        let dims: Vec<Dimensions> = views.iter().map(Matrix::dimensions).collect();
        let (_, dropped) = self.tree_plan(&dims)?;
        let digests = debug_span!("build merkle tree", dimensions = %Shapes(&dims)).in_scope(
            || -> Result<TreeDigests, CommitError> {
                if let Some(digests) =
                    engine_tree(self.engine(), &views, dropped).map_err(CommitError::Engine)?
                {
                    return Ok(digests);
                }
                Ok(MerkleTree::with_dropped_layers(&self.config, views, dropped)?.into_digests())
            },
        )?;
        Ok(self.prover_data(matrices, digests))
    }

    /// The commit engine and the preset whose trees it builds, if there is one.
    fn engine(&self) -> Option<(&dyn CommitEngine, Preset)> {
        self.engine
            .as_ref()
            .map(|(engine, preset)| (engine.as_ref(), *preset))
    }

    /// The cap height of the tree over LDEs of `dims` and the digest layers it drops, or why
    /// no tree commits to them.
    fn tree_plan(&self, dims: &[Dimensions]) -> Result<(usize, usize), CommitError> {
        let shape = TreeShape::new(dims).map_err(|e| CommitError::Tree(BuildError::Shape(e)))?;
        let cap_height = effective_cap_height(self.cap_height, shape.depth());
        let max_cap_height = shape.max_cap_height();
        if cap_height > max_cap_height {
            return Err(CommitError::CapBelowMatrices {
                cap_height,
                max_cap_height,
            });
        }
        Ok((
            cap_height,
            INPUT_DROPPED_LAYERS.min(shape.depth() - cap_height),
        ))
    }

    /// The commitment and prover data of `matrices` and their tree's `digests` (whose
    /// shape `tree_plan` accepted).
    fn prover_data(
        &self,
        matrices: Vec<Committed>,
        digests: TreeDigests,
    ) -> (Commitment, ProverData) {
        let (cap_height, _) = self
            .tree_plan(digests.shape().dims())
            .expect("planned before the tree was built");
        let views: Vec<Matrix<'_>> = matrices
            .iter()
            .map(|m| Matrix::new(&m.lde, m.width).expect("checked when extended"))
            .collect();
        let commitment = MerkleTree::from_digests(&self.config, views, &digests)
            .expect("the digests of these matrices")
            .commitment(cap_height)
            .expect("cap height checked against the tree");
        (
            commitment.clone(),
            ProverData {
                matrices,
                digests,
                commitment,
                log_blowup: self.params.log_blowup,
                cap_height: self.cap_height,
                kept: None,
            },
        )
    }

    /// Opens each request's matrices at their points: returns the values (which the caller
    /// sends with the proof) and the proof. The challenger must be in the state the verifier's
    /// will be in (the commitments and whatever else the protocol absorbed before).
    pub fn open<Ch: Challenger>(
        &self,
        requests: &[OpeningRequest<'_>],
        challenger: &mut Ch,
    ) -> Result<(OpenedValues, FriProof), OpenError> {
        self.open_timed(requests, challenger, &mut Timings::default())
    }

    /// [`FriPcs::open`], adding the time of each phase to `timings`.
    pub fn open_timed<Ch: Challenger>(
        &self,
        requests: &[OpeningRequest<'_>],
        challenger: &mut Ch,
        timings: &mut Timings,
    ) -> Result<(OpenedValues, FriProof), OpenError> {
        self.check_requests(requests)?;
        let log_blowup = self.params.log_blowup;
        let evaluation_start = Instant::now();
        let opened: OpenedValues = requests
            .iter()
            .map(|r| {
                r.data
                    .matrices
                    .iter()
                    .zip(r.points)
                    .map(|(m, points)| {
                        // Plonky3's span for the same work (one per point there).
                        let _span = debug_span!(
                            "evaluate matrix",
                            dims = %format_args!("{}x{}", m.width, 1usize << m.log_height),
                        )
                        .entered();
                        quotient::evaluate(&m.lde, m.width, m.log_height, log_blowup, points)
                    })
                    .collect()
            })
            .collect();
        timings.evaluation += evaluation_start.elapsed();

        let widths: Vec<Vec<Vec<usize>>> = opened
            .iter()
            .map(|batch| {
                batch
                    .iter()
                    .map(|m| m.iter().map(Vec::len).collect())
                    .collect()
            })
            .collect();
        challenger.observe_slice(&pcs_seed(&widths, self.params.batch_proof_of_work_bits));
        for &value in opened.iter().flatten().flatten().flatten() {
            challenger.observe_ext(value);
        }
        let batch_pow_witness = timed(&mut timings.grinding, || {
            challenger.grind(self.params.batch_proof_of_work_bits)
        })?;
        let alpha = challenger.sample_ext();

        let quotients: Vec<Quotient<'_>> = requests
            .iter()
            .zip(&opened)
            .flat_map(|(r, values)| {
                r.data
                    .matrices
                    .iter()
                    .zip(r.points)
                    .zip(values)
                    .enumerate()
                    .map(|(index, ((m, points), values))| Quotient {
                        lde: &m.lde,
                        width: m.width,
                        log_height: m.log_height,
                        points,
                        values,
                        kept: r.data.kept.as_deref().map(|kept| (kept, index)),
                    })
            })
            .collect();
        let inputs = timed(&mut timings.quotients, || {
            // Aurum's own span: Plonky3 spreads this work over `compute_inverse_denominators`,
            // `reduce matrix quotient` and `compress mat`.
            debug_span!("reduced openings", matrices = quotients.len()).in_scope(
                || -> Result<Vec<(usize, Vec<Goldilocks2>)>, OpenError> {
                    let heights = quotient::opening_heights(&quotients, alpha);
                    let codewords = match engine_reduced_openings(self.engine(), &heights)
                        .map_err(OpenError::Engine)?
                    {
                        Some(codewords) => codewords,
                        None => heights
                            .iter()
                            .map(quotient::reduce_height)
                            .collect::<Result<_, _>>()?,
                    };
                    Ok(heights
                        .iter()
                        .map(|h| h.log_height)
                        .zip(codewords)
                        .collect())
                },
            )
        })?;
        let log_max_height = inputs[0].0;
        // Plonky3's `prove_fri`: the commit phase, the query proof of work, the query phase.
        let fri_prover = info_span!("FRI prover").entered();
        let low_degree = prover::prove(
            &self.config,
            self.engine(),
            &self.params,
            self.cap_height,
            inputs,
            challenger,
            timings,
        )?;

        let openings_start = Instant::now();
        let query_phase = info_span!("query phase").entered();
        let input_openings = requests
            .iter()
            .map(|r| {
                let tree = r.data.tree(&self.config);
                let log_batch_height = r
                    .data
                    .matrices
                    .iter()
                    .map(|m| m.log_height)
                    .max()
                    .unwrap_or(0);
                let shift = log_max_height - log_batch_height;
                let indices: Vec<usize> = low_degree.indices.iter().map(|i| i >> shift).collect();
                let depth = tree.shape().depth();
                tree.open_multi(&indices, effective_cap_height(self.cap_height, depth))
                    .map_err(open_multi_error)
            })
            .collect::<Result<_, _>>()?;
        let commit_phase_openings = prover::answer_queries(
            &self.config,
            self.cap_height,
            low_degree.rounds,
            &low_degree.indices,
        )?;
        drop(query_phase);
        drop(fri_prover);
        timings.queries += openings_start.elapsed();
        let proof = FriProof {
            batch_pow_witness,
            commit_phase_commits: low_degree.commits,
            commit_pow_witnesses: low_degree.commit_pow_witnesses,
            input_openings,
            commit_phase_openings,
            final_poly: low_degree.final_poly,
            query_pow_witness: low_degree.query_pow_witness,
        };
        Ok((opened, proof))
    }

    fn check_requests(&self, requests: &[OpeningRequest<'_>]) -> Result<(), OpenError> {
        if requests.is_empty() {
            return Err(OpenError::NoRequests);
        }
        let log_final_height = self.params.log_final_height();
        for (batch, r) in requests.iter().enumerate() {
            if r.data.log_blowup != self.params.log_blowup {
                return Err(OpenError::BlowupMismatch {
                    batch,
                    log_blowup: r.data.log_blowup,
                });
            }
            if r.data.cap_height != self.cap_height {
                return Err(OpenError::CapHeightMismatch {
                    batch,
                    cap_height: r.data.cap_height,
                });
            }
            if r.points.len() != r.data.matrices.len() {
                return Err(OpenError::PointListCount {
                    batch,
                    expected: r.data.matrices.len(),
                    found: r.points.len(),
                });
            }
            for (matrix, (m, points)) in r.data.matrices.iter().zip(r.points).enumerate() {
                if points.is_empty() {
                    return Err(OpenError::NoPoints { batch, matrix });
                }
                // Plonky3 requires every input to fold at least once unless the final
                // polynomial is a constant.
                if self.params.log_final_poly_len > 0 && m.log_height <= log_final_height {
                    return Err(OpenError::TooShort {
                        batch,
                        matrix,
                        log_height: m.log_height,
                        log_final_height,
                    });
                }
                // z lies in 7·K (|K| = n) exactly when z^n = 7^n.
                let n = 1u64 << m.log_height;
                let shift_n = Goldilocks2::from(SHIFT.exp_u64(n));
                if let Some(point) = points.iter().position(|z| z.exp_u64(n) == shift_n) {
                    return Err(OpenError::PointInDomain {
                        batch,
                        matrix,
                        point,
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks `proof` against the verifier's own `claims` (commitments it trusts, the heights
    /// of their matrices, the points and the claimed values). The challenger must be in the
    /// state the prover's was in when it opened.
    pub fn verify<Ch: Challenger>(
        &self,
        claims: &[CommitmentClaim],
        proof: &FriProof,
        challenger: &mut Ch,
    ) -> Result<(), VerifyError> {
        verifier::verify(
            &self.config,
            &self.params,
            self.cap_height,
            claims,
            proof,
            challenger,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pcs() -> FriPcs<aurum_merkle::config::Poseidon2W8> {
        FriPcs::new(
            aurum_merkle::config::poseidon2_w8(),
            FriParameters::testing(0),
        )
        .unwrap()
    }

    fn values(n: u64) -> Vec<Goldilocks> {
        (0..n).map(|i| Goldilocks::from_u64(i * i + 3)).collect()
    }

    #[test]
    fn precomputed_ldes_commit_as_commit_does() {
        let pcs = pcs();
        let inputs = || {
            vec![
                Evaluations::new(values(32 * 3), 3),
                Evaluations::on_coset(values(8), 1, Goldilocks::from_u64(5)),
            ]
        };
        let (commitment, data) = pcs.commit(inputs()).unwrap();
        let ldes = pcs.low_degree_extend(inputs()).unwrap();
        assert_eq!(
            ldes.iter()
                .map(|l| (l.values.len(), l.width))
                .collect::<Vec<_>>(),
            [(128 * 3, 3), (32, 1)]
        );
        for (m, lde) in ldes.iter().enumerate() {
            assert_eq!(data.lde(m), Some((lde.values.as_slice(), lde.width)));
        }
        assert_eq!(data.lde(2), None);
        let (again, again_data) = pcs.commit_ldes(ldes).unwrap();
        assert_eq!(again, commitment);
        assert_eq!(again_data.shapes(), data.shapes());
    }

    #[test]
    fn bad_precomputed_ldes_are_typed_errors() {
        let pcs = pcs();
        let lde = |n: u64, width| Lde {
            values: values(n),
            width,
        };
        assert_eq!(
            pcs.commit_ldes(vec![]).unwrap_err(),
            CommitError::NoMatrices
        );
        assert!(matches!(
            pcs.commit_ldes(vec![lde(10, 3)]).unwrap_err(),
            CommitError::NotAMatrix { matrix: 0, .. }
        ));
        assert_eq!(
            pcs.commit_ldes(vec![lde(16, 1), lde(12, 1)]).unwrap_err(),
            CommitError::HeightNotPowerOfTwo {
                matrix: 1,
                height: 12
            }
        );
        // Blow-up 4: two rows extend no trace row.
        assert_eq!(
            pcs.commit_ldes(vec![lde(2, 1)]).unwrap_err(),
            CommitError::LdeBelowBlowup {
                matrix: 0,
                height: 2
            }
        );
    }
}
