//! libFuzzer harness of fuzz/targets/src/ntt_shapes.rs, which says what it checks.

#![no_main]

use aurum_fuzz_targets::ntt_shapes::{Input, run};

libfuzzer_sys::fuzz_target!(|input: Input| run(input));
