//! The bodies of Aurum's fuzz targets, one module per parser or verifier that reads untrusted
//! data. Each module's `run` takes one input and returns if all is well; a bug is a panic
//! (a failed assertion, an overflow, an out-of-bounds index).
//!
//! Two drivers call them:
//! * `fuzz/fuzz_targets/<name>.rs`: libFuzzer through cargo-fuzz (nightly, AddressSanitizer),
//!   for campaigns (`scripts/fuzz.sh`);
//! * `tests/replay.rs` (stable, part of `cargo test --workspace`): every committed seed in
//!   `fuzz/seeds/<name>/` and every input a campaign kept in `fuzz/corpus/<name>/`, through
//!   [`run`], exactly as libFuzzer would pass it.

#![forbid(unsafe_code)]

pub mod bench_records;
pub mod cli_verify;
pub mod fri_codec;
pub mod fri_verify_file;
pub mod input_bytes;
pub mod input_u64;
pub mod merkle_verify;
pub mod ntt_shapes;
pub mod proof_against_statement;
pub mod serde_goldilocks;
pub mod serde_goldilocks2;
pub mod serde_merkle;
pub mod tree_file;
pub mod tree_shape;

use arbitrary::{Arbitrary, Unstructured};

/// Every target's name (the module, the file in `fuzz/fuzz_targets/`, the seed directory).
pub const TARGETS: &[&str] = &[
    "bench_records",
    "cli_verify",
    "fri_codec",
    "fri_verify_file",
    "input_bytes",
    "input_u64",
    "merkle_verify",
    "ntt_shapes",
    "proof_against_statement",
    "serde_goldilocks",
    "serde_goldilocks2",
    "serde_merkle",
    "tree_file",
    "tree_shape",
];

/// Decodes a structured target's input from raw bytes the way libfuzzer-sys's `fuzz_target!`
/// does (`Arbitrary::arbitrary_take_rest`); `None` where it would skip the input.
fn structured<'a, T: Arbitrary<'a>>(data: &'a [u8]) -> Option<T> {
    T::arbitrary_take_rest(Unstructured::new(data)).ok()
}

/// Runs the target `name` on the raw bytes `data`, as its libFuzzer harness would. Returns
/// `false` for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "bench_records" => bench_records::run(data),
        "cli_verify" => cli_verify::run(data),
        "fri_codec" => fri_codec::run(data),
        "fri_verify_file" => fri_verify_file::run(data),
        "input_bytes" => input_bytes::run(data),
        "input_u64" => input_u64::run(data),
        "merkle_verify" => {
            if let Some(input) = structured(data) {
                merkle_verify::run(input);
            }
        }
        "ntt_shapes" => {
            if let Some(input) = structured(data) {
                ntt_shapes::run(input);
            }
        }
        "proof_against_statement" => proof_against_statement::run(data),
        "serde_goldilocks" => serde_goldilocks::run(data),
        "serde_goldilocks2" => serde_goldilocks2::run(data),
        "serde_merkle" => serde_merkle::run(data),
        "tree_file" => tree_file::run(data),
        "tree_shape" => {
            if let Some(dims) = structured(data) {
                tree_shape::run(dims);
            }
        }
        _ => return false,
    }
    true
}
