//! libFuzzer harness of fuzz/targets/src/merkle_verify.rs, which says what it checks.

#![no_main]

use aurum_fuzz_targets::merkle_verify::{Input, run};

libfuzzer_sys::fuzz_target!(|input: Input| run(input));
