//! What every report shares: where it ran (the JSON fields every report starts with), the
//! peak memory, sizes in MiB, and the one-line JSON output.

use aurum_goldilocks::Backend;
use serde::Serialize;

/// The fields every JSON report starts with (flattened into it): the backend, its SVE vector
/// length, the worker threads.
#[derive(Serialize)]
pub(crate) struct RunJson {
    backend: &'static str,
    /// The SVE vector length in bits when the backend is SVE (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    sve_vector_bits: Option<usize>,
    threads: usize,
}

impl RunJson {
    pub(crate) fn new(backend: Backend, threads: usize) -> Self {
        Self {
            backend: backend.name(),
            sve_vector_bits: backend.sve().map(|sve| sve.vector_bits()),
            threads,
        }
    }
}

/// Prints `report` as one line of JSON.
pub(crate) fn print_json(report: &impl Serialize) {
    println!(
        "{}",
        serde_json::to_string(report).expect("plain data serialises")
    );
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub(crate) use aurum_bench::peak_memory_bytes;

/// `bytes` in MiB, one decimal: `12.5 MiB`.
pub(crate) fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1048576.0)
}

/// The peak memory for the text reports: [`mib`], or `unknown`.
pub(crate) fn peak_memory_text(peak: Option<u64>) -> String {
    peak.map_or_else(|| "unknown".to_string(), mib)
}
