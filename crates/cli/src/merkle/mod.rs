//! The Merkle commands — `aurum commit` (in one process, or split over the ranks of an MPI
//! job), `aurum open` and `aurum verify` — with what they read and write: the statement a
//! verifier trusts, proof files, the parts of a split commitment, and the commit report.

mod commit;
#[cfg(feature = "mpi")]
mod distributed;
mod open;
pub mod part;
pub mod proof;
mod report;
pub mod statement;
mod verify;

pub(crate) use commit::{commit, commit_in_memory};
pub(crate) use open::open;
pub(crate) use verify::verify;
