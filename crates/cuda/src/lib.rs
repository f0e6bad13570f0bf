#![doc = include_str!("../README.md")]

mod backend;
mod device;
mod engine;
mod error;
mod fold;
mod gpu;
mod info;
pub mod kernels;
mod known_answers;
mod lde;
mod matrix;
mod merkle;
mod open;
mod parts;
mod permute;
mod reference;

/// The streaming geometry: words per page-locked staging slot, and the most rows hashed as one
/// chunk (the host emulator's, under the `emulator` feature, are 128 times smaller).
pub use backend::{CHUNK_ROWS as STAGING_CHUNK_ROWS, SLOT_WORDS as STAGING_SLOT_WORDS};
pub use device::{
    AUTO_MIN_ELEMENTS, DEVICE_ENV, DeviceChoice, OPEN_TREE_MIN_ELEMENTS, UnknownDevice,
    selected_device,
};
pub use engine::GpuCommitEngine;
pub use error::{CommitError, CudaError};
pub use fold::fri_fold;
pub use gpu::{Gpu, compile_kernels, compile_kernels_tuned, gpu_for, gpu_for_with};
pub use info::DeviceInfo;
pub use kernels::{KernelTuning, Poseidon2Constants};
pub use lde::{LdeError, LdeTimings, coset_lde, coset_lde_on_device, coset_lde_timed};
pub use matrix::GpuMatrix;
pub use merkle::{
    CommitTimings, GpuTree, StreamingCommit, commit, commit_matrices, commit_on_device,
    commit_timed, hash_resident,
};
pub use open::reduced_openings;
pub use parts::{GpuKernel, GpuPermutation};
pub use permute::PermutationRate;
