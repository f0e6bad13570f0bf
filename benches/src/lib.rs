//! Criterion benchmarks for Aurum (see `benches/`) and `bench-table`, which prints their
//! medians side by side with the peer libraries and the ratios.

/// User + system CPU time of this process in milliseconds (Linux; 0 elsewhere): what the
/// noise-tolerant comparisons (`ntt_quick`, `p3_commit_quick`, `fri`) report next to wall
/// time, since other processes on a shared machine disturb it much less.
#[must_use]
pub fn process_cpu_ms() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (field(11) + field(12)) * 10.0 // USER_HZ = 100 on Linux
}
