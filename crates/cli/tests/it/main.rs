//! The integration tests, one module per file, in one test binary: each test binary links
//! and monomorphises again every kernel it reaches, so one binary builds several times faster
//! than one per file.

mod bench;
mod cli;
mod common;
mod consistency;
mod device;
mod docs;
mod fri;
mod inputs;
mod outputs;
mod proof_mutation;
mod tree_file;
mod verify;
