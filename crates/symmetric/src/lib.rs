#![doc = include_str!("../README.md")]

mod batch;
mod batch_choice;
pub mod challenger;
mod compressor;
mod error;
pub mod grain;
mod hasher;
pub mod keccak;
mod lanes;
mod permutation;
mod permute_many;
mod sponge;
mod truncated;

pub use batch::{BATCH_SIZES, BatchedKernel, run_batched};
pub use batch_choice::{
    BATCH_ENV, BatchChoice, BatchMeasurement, BatchRequest, REMEASURE_AFTER, ROUNDS,
    less_disturbed, measure_batch_sizes, parse_batch_request, requested_batch, set_batch_request,
    states_measured,
};
pub use challenger::{Challenger, DuplexChallenger};
pub use compressor::{CompressLayer, Compressor, compress_layer, compress_layer_packed};
pub use error::{BatchEnvError, LengthError};
pub use hasher::{HashRows, Hasher, hash_rows, hash_rows_on_this_thread, hash_rows_packed};
pub use lanes::{pack_states, truncate_states, unpack_digests, unpack_states};
pub use permutation::{NoStateKernel, Permutation, StateKernel};
pub use permute_many::{PERMUTE_MANY_PARALLEL_THRESHOLD, PermuteMany, permute_many};
pub use sponge::{PaddingFreeSponge, hash_rows_on_kernel};
pub use truncated::TruncatedPermutation;
