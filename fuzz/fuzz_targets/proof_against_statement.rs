//! libFuzzer harness of fuzz/targets/src/proof_against_statement.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::proof_against_statement::run(data));
