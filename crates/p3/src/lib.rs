#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]

mod challenger;
pub mod convert;
mod dft;
mod error;
mod hash;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "avx2"),
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "wasm32", target_feature = "simd128"),
))]
mod packed;
mod params;
pub mod pcs;
mod poseidon2;
mod proof;
mod types;

pub use dft::{Evaluations, NttDft};
pub use error::{ConfigError, ConstantsError, ProverError};
pub use hash::{LANES, PaddingFreeSponge, TruncatedPermutation};
pub use pcs::FriPcs;
pub use poseidon2::Poseidon2Goldilocks;

// What this crate's API names from Aurum's and Plonky3's crates, so that `aurum-p3` and the
// Plonky3 crates a prover already has are enough to use it: `aurum-fri`'s parameters and
// errors (`FriPcs::new`, the `Pcs` implementation), the SIMD backend (`backend()` to log at
// start-up, `NttDft::with_backend`), `NttDft`'s error, and the round constants of
// `Poseidon2Goldilocks::with_constants` and `from_p3_constants`.
pub use aurum_fri::{
    CommitEngine, CommitError, FriParameters, OpenError, ParamsError, ProverData, VerifyError,
};
pub use aurum_goldilocks::{Backend, BackendError, backend, selected_backend};
pub use aurum_ntt::NttError;
pub use aurum_poseidon2::RoundConstants;
pub use p3_poseidon2::ExternalLayerConstants;
