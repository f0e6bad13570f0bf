//! libFuzzer harness of fuzz/targets/src/cli_verify.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::cli_verify::run(data));
