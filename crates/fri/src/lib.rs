//! FRI polynomial commitments over Goldilocks, interchangeable with Plonky3's
//! `TwoAdicFriPcs` (`p3-fri` 0.8): the same proofs, value for value, for the same inputs and
//! parameters, and each side verifies the other's.
//!
//! * [`FriPcs::commit`]: matrices of evaluations → coset LDE (`aurum-ntt`, shift 7, blow-up
//!   `2^log_blowup`, bit-reversed rows) → one Merkle commitment over all of them
//!   (`aurum-merkle`, Plonky3's mixed-height layout).
//! * [`FriPcs::open`]: the values at out-of-domain points, the batching challenge α (after
//!   its proof of work), the reduced-opening codewords per height, then FRI: fold by up to
//!   `2^max_log_arity` per round, committing each folded codeword, down to the final
//!   polynomial; query proof of work, query indices, and the openings of every input tree and
//!   commit-phase tree (pruned multi-openings).
//! * [`FriPcs::verify`]: the verifier, with a typed [`VerifyError`] for every way a proof can
//!   be wrong; its statement (commitments, heights, points, values) is its own.
//! * Fiat–Shamir: any [`aurum_symmetric::Challenger`], e.g. Plonky3's duplex sponge
//!   [`aurum_symmetric::DuplexChallenger`] over Poseidon2, seeded as Plonky3 seeds its typed
//!   transcripts ([`transcript`]). Proof-of-work witnesses are the smallest ones (reproducible;
//!   Plonky3's verifier accepts any).
//! * [`FriParameters`] with Plonky3's presets and the conjectured soundness; proofs serialize
//!   with serde and in a compact binary form ([`codec`]).
//!
//! ```
//! use aurum_fri::{Evaluations, FriParameters, FriPcs, OpeningRequest, claims};
//! use aurum_goldilocks::Goldilocks;
//! use aurum_symmetric::{Challenger, DuplexChallenger};
//! use aurum_poseidon2::Poseidon2Goldilocks;
//!
//! let pcs = FriPcs::new(aurum_merkle::config::poseidon2_w8(), FriParameters::testing(0))?;
//! let trace: Vec<Goldilocks> = (0..64u32 * 3).map(Goldilocks::from).collect();
//! let (commitment, data) = pcs.commit(vec![Evaluations::new(trace, 3)])?;
//!
//! // Prover and verifier run the same transcript: absorb the commitment, draw the point.
//! let challenger = || DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
//! let mut prover = challenger();
//! prover.observe_slice(&commitment.cap.concat());
//! let zeta = prover.sample_ext();
//! let points = vec![vec![zeta]];
//! let (values, proof) = pcs.open(&[OpeningRequest { data: &data, points: &points }], &mut prover)?;
//!
//! let mut verifier = challenger();
//! verifier.observe_slice(&commitment.cap.concat());
//! let zeta = verifier.sample_ext();
//! let claims = claims(&[commitment], &[vec![6]], &[vec![vec![zeta]]], &values);
//! pcs.verify(&claims, &proof, &mut verifier)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod codec;
mod domain;
mod fold;
mod params;
mod pcs;
mod proof;
mod prover;
mod quotient;
mod schedule;
pub mod transcript;
mod verifier;

pub use codec::DecodeError;
pub use params::{FriParameters, MAX_LOG_ARITY, MAX_LOG_BLOWUP, MAX_LOG_DOMAIN, ParamsError};
pub use pcs::{
    CommitError, Evaluations, FriPcs, Lde, OpenError, OpeningRequest, ProverData, Timings,
};
pub use proof::{
    CommitPhaseOpening, CommitmentClaim, FriProof, MatrixClaim, OpenedValues, PointClaim,
};
pub use schedule::fold_schedule;
pub use verifier::{PowPhase, VerifyError};

use aurum_goldilocks::Goldilocks2;
use aurum_merkle::Commitment;

/// The verifier's claims from its own data: per commitment, the log-heights of its matrices'
/// traces, the points of each matrix, and the values claimed there (`values[c][m][k]`, as
/// [`FriPcs::open`] returns them). Entries missing from `values` become empty claims (which
/// the verifier rejects).
#[must_use]
pub fn claims(
    commitments: &[Commitment],
    log_heights: &[Vec<usize>],
    points: &[Vec<Vec<Goldilocks2>>],
    values: &OpenedValues,
) -> Vec<CommitmentClaim> {
    commitments
        .iter()
        .enumerate()
        .map(|(c, commitment)| CommitmentClaim {
            commitment: commitment.clone(),
            matrices: log_heights
                .get(c)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(|(m, &log_height)| MatrixClaim {
                    log_height,
                    points: points
                        .get(c)
                        .and_then(|p| p.get(m))
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                        .iter()
                        .enumerate()
                        .map(|(k, &point)| PointClaim {
                            point,
                            values: values
                                .get(c)
                                .and_then(|v| v.get(m))
                                .and_then(|v| v.get(k))
                                .cloned()
                                .unwrap_or_default(),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}
