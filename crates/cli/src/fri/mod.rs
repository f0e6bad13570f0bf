//! `aurum fri`: the FRI polynomial commitment end to end — commit (LDE and Merkle tree), open
//! at points drawn from the transcript, verify — with the time of every phase; and
//! `aurum fri verify`, which checks a saved proof against a statement the verifier gives
//! itself (shape, parameters, number of points, trusted root). Like `aurum verify`, a proof
//! file's own claims about the statement (root included) are only compared with the
//! verifier's, field by field; only the cap (checked against the trusted root), the opened
//! values (exactly one per column at each point the verifier draws) and the proof are taken
//! from it. The verifier's claims are built from the statement: the file sizes nothing.

mod preset;
mod proof_file;
mod prove;
mod report;
mod statement;
mod verify;

pub use crate::rejection::Rejection;
pub use proof_file::{FriProofFile, ParsedProofFile, parse_proof_file};
pub use prove::{MAX_POW_BITS, prove_generated};
pub(crate) use prove::{commit_and_open, prove};
pub use statement::Statement;
pub(crate) use verify::verify;
pub use verify::{Verified, check_proof_file};
