//! libFuzzer harness of fuzz/targets/src/tree_shape.rs, which says what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|dims: Vec<(usize, usize)>| aurum_fuzz_targets::tree_shape::run(dims));
