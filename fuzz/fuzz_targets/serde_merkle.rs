//! libFuzzer harness of fuzz/targets/src/serde_merkle.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::serde_merkle::run(data));
