//! What the commands and the suite need from the program that runs them ([`Host`]): its
//! checked files, the whole jobs it measures, its progress display.
//!
//! `aurum` implements it with the command line's own code, so that `aurum bench` measures
//! what `aurum commit` and `aurum fri` run and reads and writes files the way every command
//! does (regular files only, bounded reads, outputs checked before the work and renamed into
//! place when complete).

use std::path::Path;
use std::time::Duration;

use aurum_fri::{FriParameters, Timings};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{MerkleConfig, Preset};

use crate::BenchError;

/// The steps of a run, shown as they start.
pub trait Steps {
    /// The next step, `what`, is running.
    fn next(&mut self, what: &str);
    /// The run is over.
    fn finish(&mut self);
}

/// The program that runs `aurum bench` and its subcommands.
pub trait Host: Sync {
    /// An output prepared before the work (checked, its temporary created).
    type Output;
    /// The progress of a run of the suite.
    type Steps: Steps;

    /// The contents of `path`, refused when larger than `limit` bytes.
    ///
    /// # Errors
    /// The file cannot be read, is not a regular file, or is too large.
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, BenchError>;

    /// Prepares each `(flag, path)` of `outputs`, checked against `inputs` and each other.
    ///
    /// # Errors
    /// The first output refused; nothing is left behind.
    fn prepare(
        &self,
        outputs: &[(&str, &Path)],
        inputs: &[(&str, &Path)],
    ) -> Result<Vec<Self::Output>, BenchError>;

    /// Writes `contents` to a prepared output and puts it in place.
    ///
    /// # Errors
    /// Any I/O error; the destination is then left as it was.
    fn write(&self, output: Self::Output, contents: &[u8]) -> Result<(), BenchError>;

    /// The progress display of a run of `total` steps.
    fn steps(&self, total: usize) -> Self::Steps;

    /// A `rows × cols` matrix of pseudo-random canonical values derived from `seed`.
    ///
    /// # Errors
    /// Out of memory.
    fn random_matrix(
        &self,
        rows: usize,
        cols: usize,
        seed: u64,
    ) -> Result<Vec<Goldilocks>, BenchError>;

    /// The time of one Merkle commitment of `values` (`cols` columns) in memory.
    ///
    /// # Errors
    /// The matrix cannot be committed (its shape, memory).
    fn merkle_commit<C: MerkleConfig>(
        &self,
        config: &C,
        values: &[Goldilocks],
        cols: usize,
    ) -> Result<Duration, BenchError>;

    /// The phases of one FRI commitment to `values` (`cols` columns) under `params` with
    /// `preset`, and its opening (verified).
    ///
    /// # Errors
    /// The preset, shape or parameters cannot be proven with, or the proof does not verify.
    fn fri_commit_and_open(
        &self,
        preset: Preset,
        cols: usize,
        params: FriParameters,
        values: Vec<Goldilocks>,
    ) -> Result<Timings, BenchError>;
}
