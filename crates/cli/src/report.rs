//! The result of a commit: text or JSON, and reading commitments and roots back.

use std::time::Duration;

use aurum_goldilocks::{Backend, Goldilocks};
use aurum_merkle::{Commitment, Digest, Dimensions};
use serde::Serialize;

/// What `aurum commit` prints.
pub(crate) struct Report {
    pub(crate) backend: Backend,
    pub(crate) threads: usize,
    preset: &'static str,
    source: String,
    dims: Vec<Dimensions>,
    cap_height: usize,
    commitment: Commitment,
    elapsed: Duration,
    permutations: usize,
}

/// The JSON form (also read back by `aurum verify --commitment`).
#[derive(Serialize)]
struct JsonReport<'a> {
    backend: &'a str,
    threads: usize,
    preset: &'a str,
    source: &'a str,
    rows: usize,
    cols: usize,
    cap_height: usize,
    root: String,
    cap: Vec<Vec<String>>,
    seconds: f64,
    permutations: usize,
    mperm_per_s: f64,
    peak_memory_bytes: Option<u64>,
}

/// `0x…,0x…,0x…,0x…`: a digest's canonical words in hex.
pub(crate) fn hex_digest(d: &Digest) -> String {
    d.iter()
        .map(|x| format!("0x{:016x}", x.as_canonical_u64()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses `0x…,0x…,0x…,0x…` (or the same without `0x`); each word must be canonical.
pub(crate) fn parse_digest(text: &str) -> Result<Digest, String> {
    let words: Vec<&str> = text.split(',').map(str::trim).collect();
    if words.len() != 4 {
        return Err(format!(
            "a digest has 4 comma-separated hex words, got {}: {text:?}",
            words.len()
        ));
    }
    let mut digest = [Goldilocks::ZERO; 4];
    for (d, w) in digest.iter_mut().zip(words) {
        let digits = w.strip_prefix("0x").unwrap_or(w);
        let value = u64::from_str_radix(digits, 16)
            .map_err(|e| format!("{w:?} is not a 64-bit hex word: {e}"))?;
        *d = Goldilocks::from_canonical(value).map_err(|e| e.to_string())?;
    }
    Ok(digest)
}

/// Reads the commitment from the JSON of `aurum commit --json`.
pub(crate) fn read_commitment(json: &str) -> Result<Commitment, String> {
    #[derive(serde::Deserialize)]
    struct Cap {
        cap: Vec<Vec<String>>,
    }
    let parsed: Cap = serde_json::from_str(json)
        .map_err(|e| format!("not the output of `aurum commit --json`: {e}"))?;
    let cap = parsed
        .cap
        .iter()
        .map(|words| parse_digest(&words.join(",")))
        .collect::<Result<_, _>>()?;
    Ok(Commitment { cap })
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub(crate) fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

impl Report {
    pub(crate) fn new(
        preset: &'static str,
        source: String,
        dims: Vec<Dimensions>,
        cap_height: usize,
        commitment: Commitment,
        elapsed: Duration,
        permutations: usize,
    ) -> Self {
        Self {
            backend: Backend::Scalar,
            threads: 0,
            preset,
            source,
            dims,
            cap_height,
            commitment,
            elapsed,
            permutations,
        }
    }

    pub(crate) fn print(&self, json: bool) {
        let rows = self.dims.first().map_or(0, |d| d.height);
        let cols = self.dims.first().map_or(0, |d| d.width);
        let seconds = self.elapsed.as_secs_f64();
        let mperm = self.permutations as f64 / seconds.max(1e-9) / 1e6;
        let peak = peak_memory_bytes();
        if json {
            let report = JsonReport {
                backend: self.backend.name(),
                threads: self.threads,
                preset: self.preset,
                source: &self.source,
                rows,
                cols,
                cap_height: self.cap_height,
                root: hex_digest(&self.commitment.cap[0]),
                cap: self
                    .commitment
                    .cap
                    .iter()
                    .map(|d| {
                        d.iter()
                            .map(|x| format!("0x{:016x}", x.as_canonical_u64()))
                            .collect()
                    })
                    .collect(),
                seconds,
                permutations: self.permutations,
                mperm_per_s: mperm,
                peak_memory_bytes: peak,
            };
            println!(
                "{}",
                serde_json::to_string(&report).expect("plain data serialises")
            );
            return;
        }
        println!(
            "backend:     {} ({} lanes)",
            self.backend,
            self.backend.lanes()
        );
        println!("threads:     {}", self.threads);
        println!("matrix:      {rows} rows × {cols} columns, {}", self.source);
        println!("preset:      {}", self.preset);
        if self.cap_height == 0 {
            println!("root:        {}", hex_digest(&self.commitment.cap[0]));
        } else {
            println!(
                "cap (height {}, {} digests):",
                self.cap_height,
                self.commitment.cap.len()
            );
            for d in &self.commitment.cap {
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
    }
}
