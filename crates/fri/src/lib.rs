#![doc = include_str!("../README.md")]

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

/// Memory the prover could not allocate: what and how many bytes (the public errors carry it
/// as `OutOfMemory`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NoMemory {
    pub(crate) what: &'static str,
    pub(crate) bytes: usize,
}

/// `len` zero extension elements, allocated zeroed, or [`NoMemory`] naming `what`.
pub(crate) fn try_zeroed_ext(
    len: usize,
    what: &'static str,
) -> Result<Vec<aurum_goldilocks::Goldilocks2>, NoMemory> {
    aurum_goldilocks::raw::try_zeroed_vec(len).map_err(|e| NoMemory {
        what,
        bytes: e.bytes,
    })
}

/// `not enough memory for WHAT: needs N MiB` (N rounded up).
fn fmt_no_memory(f: &mut core::fmt::Formatter<'_>, what: &str, bytes: usize) -> core::fmt::Result {
    write!(
        f,
        "not enough memory for {what}: needs {} MiB",
        bytes.div_ceil(1 << 20)
    )
}

use aurum_goldilocks::Goldilocks2;
use aurum_merkle::Commitment;

/// The verifier's claims from its own data: per commitment, the log-heights of its matrices'
/// traces, the points of each matrix, and the values claimed there (`values[c][m][k]`, as
/// [`FriPcs::open`] returns them). Entries missing from `values` become empty claims (which
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
