//! The result of `aurum commit`, as text or JSON.

use std::time::Duration;

use aurum_goldilocks::Backend;
use aurum_merkle::{Digest, Dimensions};
use serde::{Deserialize, Serialize};

use crate::hex::{hex_digest, hex_words};
use crate::report::{RunJson, mib, peak_memory_bytes, peak_memory_text, print_json};

/// What `aurum commit` prints.
pub(crate) struct Report {
    pub(crate) backend: Backend,
    /// Where the tree was hashed: "cpu", or the GPU's name.
    pub(crate) device: String,
    pub(crate) threads: usize,
    pub(crate) preset: &'static str,
    pub(crate) source: String,
    pub(crate) dims: Vec<Dimensions>,
    pub(crate) cap_height: usize,
    pub(crate) root: Digest,
    pub(crate) cap: Vec<Digest>,
    pub(crate) elapsed: Duration,
    pub(crate) permutations: usize,
    /// The tree file written with `--tree`.
    pub(crate) tree: Option<TreeFileReport>,
    /// How the work was split, when MPI ranks shared it.
    pub(crate) mpi: Option<MpiSummary>,
}

/// A tree file `aurum commit --tree` wrote.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TreeFileReport {
    /// Where.
    pub(crate) path: String,
    /// Its size.
    pub(crate) bytes: u64,
    /// The digest layers left out (`--tree-drop`).
    pub(crate) dropped: usize,
}

/// How a distributed commit (`mpirun -n K aurum commit`) was split, and what it moved.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MpiSummary {
    /// MPI ranks (`K`).
    pub(crate) ranks: usize,
    /// Ranks that received rows (the rest had none).
    pub(crate) ranks_with_rows: usize,
    /// Rows per rank: the power-of-two block (the last rank with rows may have fewer).
    pub(crate) rows_per_rank: usize,
    /// Bytes each rank sent to rank 0 in the data gather (its nodes, padded to a fixed slot).
    pub(crate) gathered_bytes_per_rank: usize,
    /// Bytes each rank sent in the status exchange before it (every rank to every rank).
    pub(crate) status_bytes_per_rank: usize,
    /// The longest time a rank took to read and commit its part.
    pub(crate) slowest_part_seconds: f64,
    /// The largest peak resident memory of any rank, if known.
    pub(crate) max_peak_memory_bytes: Option<u64>,
}

/// The JSON form. Its `preset`, `dims`, `cap_height`, `root` and `cap` are a commitment file
/// (`aurum verify --commitment` reads it).
#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    run: RunJson,
    device: &'a str,
    preset: &'a str,
    source: &'a str,
    rows: usize,
    cols: usize,
    dims: &'a [Dimensions],
    cap_height: usize,
    root: String,
    cap: Vec<Vec<String>>,
    seconds: f64,
    permutations: usize,
    mperm_per_s: f64,
    peak_memory_bytes: Option<u64>,
    /// The tree file (absent without `--tree`).
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<&'a TreeFileReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mpi: Option<&'a MpiSummary>,
}

impl Report {
    pub(crate) fn print(&self, json: bool) {
        let rows = self.dims.first().map_or(0, |d| d.height);
        let cols = self.dims.first().map_or(0, |d| d.width);
        let seconds = self.elapsed.as_secs_f64();
        let mperm = self.permutations as f64 / seconds.max(1e-9) / 1e6;
        let peak = peak_memory_bytes();
        if json {
            let report = JsonReport {
                run: RunJson::new(self.backend, self.threads),
                device: &self.device,
                preset: self.preset,
                source: &self.source,
                rows,
                cols,
                dims: &self.dims,
                cap_height: self.cap_height,
                root: hex_digest(&self.root),
                cap: self.cap.iter().map(hex_words).collect(),
                seconds,
                permutations: self.permutations,
                mperm_per_s: mperm,
                peak_memory_bytes: peak,
                tree: self.tree.as_ref(),
                mpi: self.mpi.as_ref(),
            };
            print_json(&report);
            return;
        }
        println!("backend:     {}", self.backend.describe());
        println!("device:      {}", self.device);
        println!("threads:     {}", self.threads);
        if let Some(mpi) = &self.mpi {
            println!(
                "mpi:         {} ranks ({} with rows), {} rows per rank; {} B gathered per \
                 rank, {} B of status; slowest part {:.3} s",
                mpi.ranks,
                mpi.ranks_with_rows,
                mpi.rows_per_rank,
                mpi.gathered_bytes_per_rank,
                mpi.status_bytes_per_rank,
                mpi.slowest_part_seconds
            );
        }
        println!("matrix:      {rows} rows × {cols} columns, {}", self.source);
        println!("preset:      {}", self.preset);
        println!("root:        {}", hex_digest(&self.root));
        if self.cap_height > 0 {
            println!(
                "cap (height {}, {} digests):",
                self.cap_height,
                self.cap.len()
            );
            for d in &self.cap {
                println!("  {}", hex_digest(d));
            }
        }
        println!("time:        {seconds:.3} s");
        println!(
            "throughput:  {mperm:.2} M permutations/s ({} permutations)",
            self.permutations
        );
        println!("peak memory: {}", peak_memory_text(peak));
        if let Some(tree) = &self.tree {
            println!(
                "tree file:   {} ({}, lowest {} digest layers left out)",
                tree.path,
                mib(tree.bytes),
                tree.dropped
            );
        }
        if let Some(b) = self.mpi.as_ref().and_then(|m| m.max_peak_memory_bytes) {
            println!("peak memory: {} on the largest rank", mib(b));
        }
    }
}
