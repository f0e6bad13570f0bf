#![doc = include_str!("../README.md")]

pub mod codec;
mod domain;
mod engine;
mod error;
mod fold;
mod fold_schedule;
mod instrument;
mod limits;
mod params;
mod pcs;
mod proof;
mod prover;
mod quotient;
pub mod transcript;
mod verifier;

pub use engine::{
    CommitEngine, EngineCommit, EngineData, EngineMatrix, HeightOpening, MatrixOpening, OpeningTerm,
};
pub use error::{CommitError, DecodeError, OpenError, ParamsError, PowPhase, VerifyError};
pub use fold::{fold_as_verifier, foldable};
pub use fold_schedule::fold_schedule;
pub use instrument::Timings;
pub use limits::{MAX_LOG_ARITY, MAX_LOG_BLOWUP, MAX_LOG_DOMAIN};
pub use params::FriParameters;
pub use pcs::{Evaluations, FriPcs, Lde, OpeningRequest, ProverData};
pub use proof::{
    CommitPhaseOpening, CommitmentClaim, FriProof, MatrixClaim, OpenedValues, PointClaim, claims,
};
pub use quotient::reduced_opening;
