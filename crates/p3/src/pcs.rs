//! [`FriPcs`]: Plonky3's polynomial commitment scheme traits (`p3_commit::Pcs`,
//! `p3_commit::UnivariateStarkPcs`) on `aurum-fri`, the drop-in for `p3_fri::TwoAdicFriPcs`
//! over Goldilocks with a Poseidon2 `MerkleTreeMmcs`.
//!
//! Everything the scheme commits to and opens — the coset LDEs, the Merkle trees, the
//! reduced openings, folding, grinding, the query openings — is `aurum-fri`'s; what crosses
//! into Plonky3 are its own types, so a `p3-uni-stark` proof made with [`FriPcs`] is the same
//! Rust value (and serialises to the same bytes) as one made with `TwoAdicFriPcs`:
//!
//! * the commitment is Plonky3's `MerkleCap<Goldilocks, [Goldilocks; 4]>` ([`Cap`]);
//! * the opening proof is Plonky3's `FriProof` over `ExtensionMmcs` and `MerkleTreeMmcs`
//!   with this crate's [`PaddingFreeSponge`] and [`TruncatedPermutation`] ([`PcsProof`], the
//!   very type a `TwoAdicFriPcs` over those hashes produces);
//! * the matrices the prover hands in and gets back are reinterpreted without copying
//!   ([`crate::convert`]); only the proof, the points and the opened values (cold, small)
//!   are converted element by element.
//!
//! # The challenger
//!
//! [`FriPcs`] takes any challenger Plonky3's `TwoAdicFriPcs` takes over Goldilocks
//! (`FieldChallenger<Goldilocks> + GrindingChallenger<Witness = Goldilocks>`) and lends it to
//! `aurum-fri` through an adapter implementing [`aurum_symmetric::Challenger`] on
//! `&mut Challenger`: every observation, sample, bit sample and proof of work goes to the
//! caller's own challenger, in the order Plonky3's scheme makes them. Why an adapter rather
//! than a conversion of `p3_challenger::DuplexChallenger` into Aurum's: the transcript stays
//! the caller's (whatever challenger the STARK configuration names, with no state copied in
//! and back), and the `FriPcs` is a drop-in wherever `TwoAdicFriPcs` fits. The price is that
//! proof-of-work searches run on the caller's challenger (Plonky3's packed search) rather
//! than on Aurum's batched one. `aurum-fri` absorbs a commitment as its digests' elements in
//! order, which is how Plonky3's `DuplexChallenger` observes a `MerkleCap` (the configuration
//! tested for byte identity).
//!
//! # Differences from `TwoAdicFriPcs`
//!
//! * Not hiding: [`UnivariateStarkPcs::ZK`] is `false`; zero-knowledge configurations are not
//!   supported.
//! * Typed errors where Plonky3 panics: a domain whose size is not its matrix's height, an
//!   LDE shorter than the blow-up, or an opening request `aurum-fri` cannot serve (a matrix
//!   without points, a point in the LDE domain) is a [`ProverError`]; a rejected proof is a
//!   [`VerifyError`].
//! * One cap height for every tree, the committed matrices' and the FRI rounds': a
//!   configuration whose commit-phase MMCS has another cap height than its input MMCS is
//!   refused ([`FriPcs::from_p3_parameters`], [`ConfigError::MmcsMismatch`]).
//! * [`UnivariateStarkPcs::log_max_trace_height`] is `32 − log_blowup` (the LDE must fit the
//!   two-adic subgroup), where Plonky3 reports 32.
//! * Parameters `aurum-fri` does not run (blow-ups above 16, arities above 16) are refused
//!   when the scheme is built ([`ParamsError`]).
//!
//! # Building one
//!
//! [`FriPcs::from_p3_parameters`] builds the scheme a Plonky3 configuration describes (the
//! crate docs show it in a whole proof); [`FriPcs::new`] builds it from Aurum's
//! [`FriParameters`] and an explicit cap height:
//!
//! ```
//! use aurum_p3::{FriParameters, FriPcs, PaddingFreeSponge, Poseidon2Goldilocks, TruncatedPermutation};
//! use rand::SeedableRng;
//!
//! type Perm = Poseidon2Goldilocks<8>;
//! let perm = Perm::new_from_rng_128(&mut rand::rngs::SmallRng::seed_from_u64(1));
//! // Plonky3's `FriParameters::new_benchmark`, without its MMCS.
//! let params = FriParameters::benchmark();
//! let pcs = FriPcs::<Perm, 8, 4>::new(
//!     PaddingFreeSponge::new(perm.clone()),
//!     TruncatedPermutation::new(perm),
//!     0,
//!     params,
//! )?;
//! assert_eq!(pcs.aurum().params(), &params);
//! # Ok::<(), aurum_p3::ParamsError>(())
//! ```

use core::fmt;
use std::borrow::Cow;

use aurum_fri::{
    CommitmentClaim, Evaluations, FriParameters, Lde, MatrixClaim, OpeningRequest as AurumRequest,
    ParamsError, PointClaim, ProverData, VerifyError,
};
use aurum_goldilocks::Goldilocks2;
use p3_challenger::{FieldChallenger, GrindingChallenger};
use p3_commit::{CommitmentOpening, Mmcs, OpenedValues, OpeningRequest, Pcs, UnivariateStarkPcs};
use p3_dft::TwoAdicSubgroupDft;
use p3_field::coset::TwoAdicMultiplicativeCoset;
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, TwoAdicField};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_matrix::Matrix;
use p3_matrix::bitrev::{BitReversedMatrixView, BitReversibleMatrix};
use p3_matrix::dense::{RowMajorMatrix, RowMajorMatrixCow};
use p3_merkle_tree::PrunedMerklePaths;

use crate::challenger::Transcript;
use crate::convert::{cast, cast_slice, cast_vec};
use crate::params::fri_parameters;
use crate::proof::{cap_to_aurum, cap_to_p3, ext_to_aurum, ext_to_p3, proof_to_aurum, proof_to_p3};
use crate::{NttDft, PaddingFreeSponge, TruncatedPermutation};

pub use crate::error::{ConfigError, MmcsRole, ProverError};
pub use crate::params::MAX_CAP_HEIGHT;
pub use crate::types::{Cap, Challenge, ChallengeMmcs, MerkleConfig, PcsProof, ValMmcs};
/// Plonky3's `p3_commit` polynomial commitment scheme on `aurum-fri` (see the
/// [module](self) docs): the drop-in for
/// `TwoAdicFriPcs<Goldilocks, Dft, ValMmcs, ChallengeMmcs>` with a Poseidon2 Merkle tree of
/// width `W`, sponge rate `RATE` and 4-element digests.
#[derive(Clone)]
pub struct FriPcs<Perm, const W: usize, const RATE: usize> {
    inner: aurum_fri::FriPcs<MerkleConfig<Perm, W, RATE>>,
    /// For evaluations on domains the committed LDE does not contain.
    dft: NttDft,
}

impl<Perm, const W: usize, const RATE: usize> fmt::Debug for FriPcs<Perm, W, RATE>
where
    Perm: aurum_symmetric::Permutation<W>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FriPcs")
            .field("width", &W)
            .field("rate", &RATE)
            .field("params", self.inner.params())
            .field("cap_height", &self.inner.cap_height())
            .finish_non_exhaustive()
    }
}

impl<Perm, const W: usize, const RATE: usize> FriPcs<Perm, W, RATE>
where
    Perm: aurum_symmetric::Permutation<W> + Clone,
{
    /// The scheme over the Merkle hash and compression a Plonky3 configuration would hand
    /// its `MerkleTreeMmcs` (so their permutation, with its round constants), with Merkle
    /// caps of height `cap_height` and FRI parameters `params`.
    ///
    /// `cap_height` is the cap height of every tree: the committed matrices' and the FRI
    /// commit phase's, as in a Plonky3 configuration whose commit-phase MMCS is
    /// `ExtensionMmcs` over its input MMCS. Nothing here is read from a Plonky3 MMCS;
    /// [`Self::from_p3_parameters`] takes the cap height from one and checks both.
    ///
    /// # Errors
    /// [`ParamsError`] for parameters `aurum-fri` does not run.
    pub fn new(
        hash: PaddingFreeSponge<Perm, W, RATE, 4>,
        compress: TruncatedPermutation<Perm, 2, 4, W>,
        cap_height: usize,
        params: FriParameters,
    ) -> Result<Self, ParamsError> {
        let config = aurum_merkle::config::Config::new(
            "aurum-p3-poseidon2",
            hash.aurum().clone(),
            compress.aurum().clone(),
        );
        Ok(Self::from_aurum(
            aurum_fri::FriPcs::new(config, params)?.with_cap_height(cap_height),
        ))
    }

    /// Computes the commitments' LDEs and input trees with `engine` (a GPU's,
    /// `aurum_cuda::GpuCommitEngine`) where it takes the job: where one of the engine's trees
    /// computes this scheme's — Plonky3's fixed constants
    /// ([`Poseidon2Goldilocks::new`](crate::Poseidon2Goldilocks::new), which the presets use)
    /// for an engine with the presets' trees, drawn constants for an engine built with them
    /// (`aurum_cuda::GpuCommitEngine::for_job_with` and `Poseidon2Constants`); otherwise the
    /// scheme keeps committing on the CPU (`self.aurum().engine_preset()` says which). The
    /// proofs are the same either way.
    #[must_use]
    pub fn with_engine(mut self, engine: std::sync::Arc<dyn aurum_fri::CommitEngine>) -> Self {
        self.inner = self.inner.with_engine(engine);
        self
    }

    /// The scheme a Plonky3 configuration describes: where it would build
    /// `TwoAdicFriPcs::new(dft, input_mmcs, fri_params)`, this is
    /// `FriPcs::from_p3_parameters(perm, &input_mmcs, &fri_params)`, with `perm` the
    /// permutation both MMCSs hash with.
    ///
    /// The numbers come from `params`, the cap height from `input_mmcs`
    /// ([`MerkleTreeMmcs::cap_height`](p3_merkle_tree::MerkleTreeMmcs::cap_height)). `aurum-fri` builds every tree itself, with `perm`
    /// and that one cap height, so the two MMCSs are checked rather than trusted: each
    /// commits to a small probe matrix (`2^(cap_height + 1)` rows), and must produce the cap
    /// `FriPcs` produces for it. That catches an MMCS over other round constants, and a
    /// commit-phase MMCS (`params.mmcs`) with another cap height than the input MMCS's, which
    /// `aurum-fri` cannot follow; either would change the proofs.
    ///
    /// # Errors
    /// [`ConfigError::Params`] for parameters `aurum-fri` does not run,
    /// [`ConfigError::CapHeight`] for a cap height above [`MAX_CAP_HEIGHT`], and
    /// [`ConfigError::MmcsMismatch`] for an MMCS that commits differently.
    pub fn from_p3_parameters(
        perm: Perm,
        input_mmcs: &ValMmcs<Perm, W, RATE>,
        params: &p3_fri::FriParameters<ChallengeMmcs<Perm, W, RATE>>,
    ) -> Result<Self, ConfigError>
    where
        ValMmcs<Perm, W, RATE>: Mmcs<P3Goldilocks, Commitment = Cap>,
        ChallengeMmcs<Perm, W, RATE>: Mmcs<Challenge, Commitment = Cap>,
    {
        let cap_height = input_mmcs.cap_height();
        if cap_height > MAX_CAP_HEIGHT {
            return Err(ConfigError::CapHeight { cap_height });
        }
        let pcs = Self::new(
            PaddingFreeSponge::new(perm.clone()),
            TruncatedPermutation::new(perm),
            cap_height,
            fri_parameters(params),
        )
        .map_err(ConfigError::Params)?;
        // Probes one level deeper than the cap, so that a commit-phase cap height other than
        // `cap_height` (higher or lower) changes the cap's length.
        let rows = 2usize << cap_height;
        let probe_width = RATE + 1; // absorbs two sponge blocks
        let base: Vec<P3Goldilocks> = (0..rows * probe_width)
            .map(|i| P3Goldilocks::new((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        let (theirs, _) = input_mmcs.commit_matrix(RowMajorMatrix::new(base.clone(), probe_width));
        if theirs != pcs.probe_cap(&base, probe_width) {
            return Err(ConfigError::MmcsMismatch {
                mmcs: MmcsRole::Input,
            });
        }
        // A commit-phase codeword at arity 2: rows of two extension elements.
        let ext: Vec<Challenge> = base[..rows * 4]
            .chunks_exact(2)
            .map(|c| Challenge::from_basis_coefficients_fn(|i| c[i]))
            .collect();
        let (theirs, _) = params.mmcs.commit_matrix(RowMajorMatrix::new(ext, 2));
        if theirs != pcs.probe_cap(&base[..rows * 4], 4) {
            return Err(ConfigError::MmcsMismatch {
                mmcs: MmcsRole::CommitPhase,
            });
        }
        Ok(pcs)
    }

    /// The cap of one tree over `values` (`width` columns) as this scheme commits it.
    fn probe_cap(&self, values: &[P3Goldilocks], width: usize) -> Cap {
        let inner = &self.inner;
        let matrix =
            aurum_merkle::Matrix::new(cast_slice(values), width).expect("a whole number of rows");
        let tree = aurum_merkle::MerkleTree::new(inner.config(), vec![matrix])
            .expect("a power-of-two height");
        cap_to_p3(
            tree.commitment(inner.cap_height())
                .expect("the probe is deeper than the cap"),
        )
    }
}

impl<Perm, const W: usize, const RATE: usize> FriPcs<Perm, W, RATE> {
    /// Wraps an `aurum-fri` scheme.
    #[must_use]
    pub fn from_aurum(inner: aurum_fri::FriPcs<MerkleConfig<Perm, W, RATE>>) -> Self {
        Self {
            inner,
            dft: NttDft::default(),
        }
    }

    /// The `aurum-fri` scheme underneath.
    #[must_use]
    pub fn aurum(&self) -> &aurum_fri::FriPcs<MerkleConfig<Perm, W, RATE>> {
        &self.inner
    }
}

/// The matrices as `aurum-fri` inputs (reinterpreted, not copied), each on its domain.
fn evaluations(
    inputs: impl IntoIterator<
        Item = (
            TwoAdicMultiplicativeCoset<P3Goldilocks>,
            RowMajorMatrix<P3Goldilocks>,
        ),
    >,
) -> Result<Vec<Evaluations>, ProverError> {
    inputs
        .into_iter()
        .enumerate()
        .map(|(matrix, (domain, values))| {
            let height = values.height();
            if domain.size() != height {
                return Err(ProverError::DomainHeight {
                    matrix,
                    domain_size: domain.size(),
                    height,
                });
            }
            let width = values.width();
            Ok(Evaluations::on_coset(
                cast_vec(values.values),
                width,
                cast(domain.shift()),
            ))
        })
        .collect()
}

impl<Perm, const W: usize, const RATE: usize, Challenger> Pcs<Challenge, Challenger>
    for FriPcs<Perm, W, RATE>
where
    Perm: aurum_symmetric::Permutation<W> + Clone,
    ValMmcs<Perm, W, RATE>:
        Mmcs<P3Goldilocks, Commitment = Cap, MultiProof = PrunedMerklePaths<P3Goldilocks, 4>>,
    Challenger: FieldChallenger<P3Goldilocks> + GrindingChallenger<Witness = P3Goldilocks>,
{
    type Domain = TwoAdicMultiplicativeCoset<P3Goldilocks>;
    type Commitment = Cap;
    type ProverData = ProverData;
    type Proof = PcsProof<Perm, W, RATE>;
    type Error = VerifyError;
    type ProverError = ProverError;

    /// The subgroup of order `degree`.
    ///
    /// # Panics
    /// If `degree` is not a power of two of at most `2^32` (as Plonky3's does).
    fn natural_domain_for_degree(&self, degree: usize) -> Self::Domain {
        assert!(
            degree.is_power_of_two(),
            "a trace domain has a power-of-two size, not {degree}"
        );
        TwoAdicMultiplicativeCoset::new(P3Goldilocks::ONE, degree.trailing_zeros() as usize)
            .expect("at most 2^32 points")
    }

    fn commit(
        &self,
        evaluations_on_domains: impl IntoIterator<Item = (Self::Domain, RowMajorMatrix<P3Goldilocks>)>,
    ) -> Result<(Cap, ProverData), ProverError> {
        let (commitment, data) = self.inner.commit(evaluations(evaluations_on_domains)?)?;
        Ok((cap_to_p3(commitment), data))
    }

    fn open(
        &self,
        requests: Vec<OpeningRequest<'_, ProverData, Challenge>>,
        challenger: &mut Challenger,
    ) -> Result<(OpenedValues<Challenge>, Self::Proof), ProverError> {
        let points: Vec<Vec<Vec<Goldilocks2>>> = requests
            .iter()
            .map(|r| {
                r.points
                    .iter()
                    .map(|points| points.iter().map(ext_to_aurum).collect())
                    .collect()
            })
            .collect();
        let aurum_requests: Vec<AurumRequest<'_>> = requests
            .iter()
            .zip(&points)
            .map(|(r, points)| AurumRequest {
                data: r.prover_data,
                points,
            })
            .collect();
        let (values, proof) = self
            .inner
            .open(&aurum_requests, &mut Transcript(challenger))?;
        let values = values
            .iter()
            .map(|batch| {
                batch
                    .iter()
                    .map(|matrix| {
                        matrix
                            .iter()
                            .map(|point| point.iter().map(ext_to_p3).collect())
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok((values, proof_to_p3(proof)))
    }

    fn verify(
        &self,
        commitments: Vec<CommitmentOpening<Challenge, Cap, Self::Domain>>,
        proof: &Self::Proof,
        challenger: &mut Challenger,
    ) -> Result<(), VerifyError> {
        let claims: Vec<CommitmentClaim> = commitments
            .iter()
            .map(|c| CommitmentClaim {
                commitment: cap_to_aurum(&c.commitment),
                matrices: c
                    .matrices
                    .iter()
                    .map(|m| MatrixClaim {
                        log_height: m.domain.log_size(),
                        points: m
                            .points
                            .iter()
                            .map(|p| PointClaim {
                                point: ext_to_aurum(&p.point),
                                values: p.values.iter().map(ext_to_aurum).collect(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        self.inner
            .verify(&claims, &proof_to_aurum(proof), &mut Transcript(challenger))
    }
}

impl<Perm, const W: usize, const RATE: usize, Challenger> UnivariateStarkPcs<Challenge, Challenger>
    for FriPcs<Perm, W, RATE>
where
    Perm: aurum_symmetric::Permutation<W> + Clone,
    ValMmcs<Perm, W, RATE>:
        Mmcs<P3Goldilocks, Commitment = Cap, MultiProof = PrunedMerklePaths<P3Goldilocks, 4>>,
    Challenger: FieldChallenger<P3Goldilocks> + GrindingChallenger<Witness = P3Goldilocks>,
{
    type EvaluationsOnDomain<'a> = BitReversedMatrixView<RowMajorMatrixCow<'a, P3Goldilocks>>;

    const ZK: bool = false;

    fn log_max_trace_height(&self) -> usize {
        P3Goldilocks::TWO_ADICITY - self.inner.params().log_blowup
    }

    fn log_min_trace_height(&self) -> usize {
        0
    }

    fn get_quotient_ldes(
        &self,
        evaluations_on_domains: impl IntoIterator<Item = (Self::Domain, RowMajorMatrix<P3Goldilocks>)>,
        _num_chunks: usize,
    ) -> Result<Vec<RowMajorMatrix<P3Goldilocks>>, ProverError> {
        Ok(self
            .inner
            .low_degree_extend(evaluations(evaluations_on_domains)?)?
            .into_iter()
            .map(|lde| RowMajorMatrix::new(cast_vec(lde.values), lde.width))
            .collect())
    }

    fn commit_ldes(
        &self,
        ldes: Vec<RowMajorMatrix<P3Goldilocks>>,
    ) -> Result<(Cap, ProverData), ProverError> {
        let ldes = ldes
            .into_iter()
            .map(|m| Lde {
                width: m.width(),
                values: cast_vec(m.values),
            })
            .collect();
        let (commitment, data) = self.inner.commit_ldes(ldes)?;
        Ok((cap_to_p3(commitment), data))
    }

    /// The committed polynomials of matrix `idx` on `domain`: a view of the committed LDE
    /// when `domain` is a coset `7 · K` it contains (the quotient domains of `p3-uni-stark`),
    /// otherwise computed from the polynomials' coefficients.
    ///
    /// # Panics
    /// If `idx` is not a committed matrix.
    fn get_evaluations_on_domain<'a>(
        &self,
        prover_data: &'a ProverData,
        idx: usize,
        domain: Self::Domain,
    ) -> Self::EvaluationsOnDomain<'a> {
        let (lde, width) = prover_data
            .lde(idx)
            .unwrap_or_else(|| panic!("no committed matrix {idx}"));
        let lde: &'a [P3Goldilocks] = cast_slice(lde);
        let height = lde.len() / width;
        let n = domain.size();
        if domain.shift() == P3Goldilocks::GENERATOR && n <= height {
            // The first `n` rows of a bit-reversed LDE on 7·K are the bit-reversed
            // evaluations on 7·K' with |K'| = n.
            return RowMajorMatrixCow::new(Cow::Borrowed(&lde[..n * width]), width)
                .bit_reverse_rows();
        }
        // The trace's polynomials: the first `height / blowup` rows (bit-reversed) are the
        // evaluations on 7·H with |H| the trace height.
        let degree = height >> self.inner.params().log_blowup;
        let on_h = RowMajorMatrix::new(lde[..degree * width].to_vec(), width)
            .bit_reverse_rows()
            .to_row_major_matrix();
        let coeffs = self.dft.coset_idft_batch(on_h, P3Goldilocks::GENERATOR);
        // On shift·K' with |K'| = n, x^n = shift^n: fold coefficients of degree ≥ n down.
        let mut folded = vec![P3Goldilocks::ZERO; n * width];
        let shift_n = domain.shift().exp_u64(n as u64);
        let mut factor = P3Goldilocks::ONE;
        for block in coeffs.values.chunks(n * width) {
            for (f, &c) in folded.iter_mut().zip(block) {
                *f += c * factor;
            }
            factor *= shift_n;
        }
        let evals = self
            .dft
            .coset_dft_batch(RowMajorMatrix::new(folded, width), domain.shift())
            .to_row_major_matrix()
            .bit_reverse_rows()
            .to_row_major_matrix();
        RowMajorMatrixCow::new(Cow::Owned(evals.values), width).bit_reverse_rows()
    }
}
