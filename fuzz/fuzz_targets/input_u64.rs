//! libFuzzer harness of fuzz/targets/src/input_u64.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::input_u64::run(data));
