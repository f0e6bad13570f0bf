//! libFuzzer harness of fuzz/targets/src/input_bytes.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::input_bytes::run(data));
