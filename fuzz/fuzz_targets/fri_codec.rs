//! libFuzzer harness of fuzz/targets/src/fri_codec.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::fri_codec::run(data));
