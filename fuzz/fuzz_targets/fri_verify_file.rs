//! libFuzzer harness of fuzz/targets/src/fri_verify_file.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::fri_verify_file::run(data));
