//! `aurum-fri`'s proof as Plonky3's and back, with the commitments and extension elements in
//! it: base-field vectors are reinterpreted ([`crate::convert`]), extension elements
//! converted one by one.

use aurum_fri::CommitPhaseOpening;
use aurum_goldilocks::Goldilocks2;
use aurum_merkle::{Commitment, MultiOpening};
use p3_commit::Mmcs;
use p3_field::BasedVectorSpace;
use p3_fri::{BatchMultiOpening, CommitPhaseMultiStep};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_merkle_tree::{MerkleCap, PrunedMerklePaths};

use crate::convert::{cast, cast_slice, cast_vec};
use crate::types::{Cap, Challenge, PcsProof, ValMmcs};

pub(crate) fn ext_to_aurum(x: &Challenge) -> Goldilocks2 {
    let c = BasedVectorSpace::<P3Goldilocks>::as_basis_coefficients_slice(x);
    Goldilocks2::new(cast(c[0]), cast(c[1]))
}

pub(crate) fn ext_to_p3(x: &Goldilocks2) -> Challenge {
    <Challenge as BasedVectorSpace<P3Goldilocks>>::from_basis_coefficients_fn(|i| cast(x.coeffs[i]))
}

pub(crate) fn cap_to_p3(c: Commitment) -> Cap {
    MerkleCap::new(cast_vec(c.cap))
}

pub(crate) fn cap_to_aurum(c: &Cap) -> Commitment {
    Commitment {
        cap: cast_slice(c.roots()).to_vec(),
    }
}

/// `aurum-fri`'s proof as Plonky3's (moved; base-field vectors are reinterpreted in place).
pub(crate) fn proof_to_p3<Perm, const W: usize, const RATE: usize>(
    p: aurum_fri::FriProof,
) -> PcsProof<Perm, W, RATE>
where
    ValMmcs<Perm, W, RATE>:
        Mmcs<P3Goldilocks, Commitment = Cap, MultiProof = PrunedMerklePaths<P3Goldilocks, 4>>,
{
    p3_fri::FriProof {
        batch_pow_witness: cast(p.batch_pow_witness),
        commit_phase_commits: p.commit_phase_commits.into_iter().map(cap_to_p3).collect(),
        commit_pow_witnesses: cast_vec(p.commit_pow_witnesses),
        input_openings: p
            .input_openings
            .into_iter()
            .map(|o| BatchMultiOpening {
                opened_values: o
                    .rows
                    .into_iter()
                    .map(|query| query.into_iter().map(cast_vec).collect())
                    .collect(),
                opening_proof: PrunedMerklePaths {
                    sibling_hashes: cast_vec(o.siblings),
                },
            })
            .collect(),
        commit_phase_openings: p
            .commit_phase_openings
            .into_iter()
            .map(|o| CommitPhaseMultiStep {
                sibling_values: o
                    .sibling_values
                    .iter()
                    .map(|v| v.iter().map(ext_to_p3).collect())
                    .collect(),
                opening_proof: PrunedMerklePaths {
                    sibling_hashes: cast_vec(o.siblings),
                },
            })
            .collect(),
        final_poly: p.final_poly.iter().map(ext_to_p3).collect(),
        query_pow_witness: cast(p.query_pow_witness),
    }
}

/// Plonky3's proof as `aurum-fri`'s (copied: the verifier borrows it).
pub(crate) fn proof_to_aurum<Perm, const W: usize, const RATE: usize>(
    p: &PcsProof<Perm, W, RATE>,
) -> aurum_fri::FriProof
where
    ValMmcs<Perm, W, RATE>:
        Mmcs<P3Goldilocks, Commitment = Cap, MultiProof = PrunedMerklePaths<P3Goldilocks, 4>>,
{
    aurum_fri::FriProof {
        batch_pow_witness: cast(p.batch_pow_witness),
        commit_phase_commits: p.commit_phase_commits.iter().map(cap_to_aurum).collect(),
        commit_pow_witnesses: cast_slice(&p.commit_pow_witnesses).to_vec(),
        input_openings: p
            .input_openings
            .iter()
            .map(|o| MultiOpening {
                rows: o
                    .opened_values
                    .iter()
                    .map(|query| query.iter().map(|row| cast_slice(row).to_vec()).collect())
                    .collect(),
                siblings: cast_slice(&o.opening_proof.sibling_hashes).to_vec(),
            })
            .collect(),
        commit_phase_openings: p
            .commit_phase_openings
            .iter()
            .map(|o| CommitPhaseOpening {
                sibling_values: o
                    .sibling_values
                    .iter()
                    .map(|v| v.iter().map(ext_to_aurum).collect())
                    .collect(),
                siblings: cast_slice(&o.opening_proof.sibling_hashes).to_vec(),
            })
            .collect(),
        final_poly: p.final_poly.iter().map(ext_to_aurum).collect(),
        query_pow_witness: cast(p.query_pow_witness),
    }
}
