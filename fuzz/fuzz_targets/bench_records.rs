//! libFuzzer harness of fuzz/targets/src/bench_records.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| aurum_fuzz_targets::bench_records::run(data));
