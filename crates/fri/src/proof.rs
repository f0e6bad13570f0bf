//! What a FRI opening proof holds, field for field Plonky3's `FriProof` for `TwoAdicFriPcs`
//! over `MerkleTreeMmcs` (with pruned multi-openings), and what the verifier is asked.

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Commitment, Digest, MultiOpening};
use serde::{Deserialize, Serialize};

/// An opening proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FriProof {
    /// Proof of work before α (zero when `batch_proof_of_work_bits = 0`).
    pub batch_pow_witness: Goldilocks,
    /// The commitment to each folded codeword, one per commit round.
    pub commit_phase_commits: Vec<Commitment>,
    /// Proof of work before each β (zeros when `commit_proof_of_work_bits = 0`).
    pub commit_pow_witnesses: Vec<Goldilocks>,
    /// Per input commitment, its rows at every query (one multi-opening per commitment).
    pub input_openings: Vec<MultiOpening>,
    /// Per commit round, every query's sibling values and one shared sibling-digest set.
    pub commit_phase_openings: Vec<CommitPhaseOpening>,
    /// The coefficients of the final polynomial, constant term first.
    pub final_poly: Vec<Goldilocks2>,
    /// Proof of work before the query indices (zero when `query_proof_of_work_bits = 0`).
    pub query_pow_witness: Goldilocks,
}

/// One commit round's openings: each query's group of `arity` values in the folded codeword
/// without the one the verifier computes itself, and the digests authenticating all groups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommitPhaseOpening {
    /// `sibling_values[q]`: the `arity − 1` other values of query `q`'s group, in order.
    pub sibling_values: Vec<Vec<Goldilocks2>>,
    /// The pruned sibling digests of the groups' Merkle paths.
    pub siblings: Vec<Digest>,
}

/// The claimed evaluations: `opened[c][m][k][j]` is column `j` of matrix `m` of commitment
/// `c` at that matrix's `k`-th point.
pub type OpenedValues = Vec<Vec<Vec<Vec<Goldilocks2>>>>;

/// What the verifier checks about one commitment: its matrices, in commit order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommitmentClaim {
    /// The commitment, trusted by the verifier (received before the points were drawn).
    pub commitment: Commitment,
    /// One entry per committed matrix.
    pub matrices: Vec<MatrixClaim>,
}

/// What the verifier checks about one matrix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixClaim {
    /// Base-2 log of the trace height (the LDE has `log_blowup` more bits).
    pub log_height: usize,
    /// The points and the values claimed there (one per column). At least one point: the
    /// claimed values' count is what fixes the matrix's width.
    pub points: Vec<PointClaim>,
}

/// Claimed values of every column of a matrix at one point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointClaim {
    /// The point (outside the evaluation domain).
    pub point: Goldilocks2,
    /// One value per column.
    pub values: Vec<Goldilocks2>,
}

/// The verifier's claims from its own data: per commitment, the log-heights of its matrices'
/// traces, the points of each matrix, and the values claimed there (`values[c][m][k]`, as
/// [`FriPcs::open`](crate::FriPcs::open) returns them). Entries missing from `values` become empty claims (which
/// the verifier rejects); entries beyond the commitments, matrices and points given are left
/// out, unchecked.
///
/// The verifier takes every shape from the claims: the matrices and points from here, each
/// matrix's width from the number of values claimed at its points. Values that come from an
/// untrusted source (a proof file) must therefore have the statement's shape — one value
/// per column at each point — before they are made claims: this function does not know
/// the widths, and a claim of fewer columns than were committed is a claim about another
/// matrix (`aurum fri verify` compares them first).
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
