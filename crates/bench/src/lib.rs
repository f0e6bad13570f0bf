#![doc = include_str!("../README.md")]

pub mod chart;
mod commands;
pub mod compare;
mod display;
mod error;
mod gpu;
mod host;
pub mod insn;
mod machine;
pub mod measure;
pub mod microbench;
pub mod record;
mod run;
mod suite;

pub use commands::{CompareOptions, ImportInsnOptions, compare, import_insn, read_record};
pub use error::{BenchError, RecordError, ValueError};
pub use host::{Host, Steps};
pub use machine::{EMULATED_ENV, peak_memory_bytes};
pub use run::{NOISY_OTHER_CPU_SHARE, NOISY_RELATIVE_MAD, NOISY_STEAL_SHARE, RunOptions, run};

/// The `schema` value of the records this version writes and reads ([`record`]).
pub const SCHEMA: &str = "aurum-bench/1";
