//! The result of a commit, as text or JSON.

use std::time::Duration;

use aurum_goldilocks::Backend;
use aurum_merkle::{Digest, Dimensions};
use serde::{Deserialize, Serialize};

use crate::hex::{hex_digest, hex_words};

/// What `aurum commit` prints.
pub(crate) struct Report {
    pub(crate) backend: Backend,
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
    backend: &'a str,
    /// The SVE vector length in bits when the backend is SVE (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    sve_vector_bits: Option<usize>,
    threads: usize,
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

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub(crate) use aurum_bench::peak_memory_bytes;

impl Report {
    pub(crate) fn print(&self, json: bool) {
        let rows = self.dims.first().map_or(0, |d| d.height);
        let cols = self.dims.first().map_or(0, |d| d.width);
        let seconds = self.elapsed.as_secs_f64();
        let mperm = self.permutations as f64 / seconds.max(1e-9) / 1e6;
        let peak = peak_memory_bytes();
        if json {
            let report = JsonReport {
                backend: self.backend.name(),
                sve_vector_bits: self.backend.sve().map(|sve| sve.vector_bits()),
                threads: self.threads,
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
            println!(
                "{}",
                serde_json::to_string(&report).expect("plain data serialises")
            );
            return;
        }
        println!("backend:     {}", self.backend.describe());
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
        match peak {
            Some(b) => println!("peak memory: {:.1} MiB", b as f64 / 1048576.0),
            None => println!("peak memory: unknown"),
        }
        if let Some(tree) = &self.tree {
            println!(
                "tree file:   {} ({:.1} MiB, lowest {} digest layers left out)",
                tree.path,
                tree.bytes as f64 / 1048576.0,
                tree.dropped
            );
        }
        if let Some(b) = self.mpi.as_ref().and_then(|m| m.max_peak_memory_bytes) {
            println!(
                "peak memory: {:.1} MiB on the largest rank",
                b as f64 / 1048576.0
            );
        }
    }
}
