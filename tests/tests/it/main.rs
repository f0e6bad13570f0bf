//! The integration tests, one module per file, in one test binary: each test binary links
//! and monomorphises again every kernel it reaches, so one binary builds several times faster
//! than one per file.

mod challenger_vs_p3;
mod field_vs_p3;
mod fri_vs_p3;
mod merkle_vs_p3;
mod ntt_vs_p3;
mod poseidon2_vs_p3;
