//! Prints criterion medians as tables, one per benchmark group, with one column per saved
//! baseline (build configuration), plus Aurum-vs-peer ratios.
//!
//! Usage: `cargo run -p aurum-benches --example bench-table [CRITERION_DIR] [GROUP_PREFIX]`
//! (default: `$CRITERION_HOME`, else `target/criterion`). Any criterion output directory
//! works, or any directory inside one (a group's): `scripts/bench.sh`'s, whose runs are
//! saved as named baselines (`noflags`, `native`, …), one column each; or a plain
//! `cargo bench`'s, whose latest run criterion keeps as `new`.
//!
//! Ratios are "how many times faster Aurum is" from throughput (elements or states per ns),
//! computed within one baseline, i.e. between two benchmarks of the same binary and run.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

/// One measurement: median time and work per iteration.
#[derive(Clone, Debug)]
struct Sample {
    median_ns: f64,
    elements: Option<f64>,
}

impl Sample {
    /// Work per nanosecond (elements/ns), or iterations per ns without a throughput.
    fn rate(&self) -> f64 {
        self.elements.unwrap_or(1.0) / self.median_ns
    }
}

/// group → function → baseline → sample
type Table = BTreeMap<String, BTreeMap<String, BTreeMap<String, Sample>>>;

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&fs::read_to_string(path).ok()?).ok()
}

fn collect(dir: &Path, table: &mut Table) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let bench = path.join("benchmark.json");
        let estimates = path.join("estimates.json");
        if bench.is_file() && estimates.is_file() {
            let baseline = path.file_name().unwrap().to_string_lossy().into_owned();
            if baseline == "change" || baseline == "report" {
                continue;
            }
            let (Some(b), Some(e)) = (read_json(&bench), read_json(&estimates)) else {
                continue;
            };
            let group = b["group_id"].as_str().unwrap_or("?").to_string();
            let function = b["function_id"]
                .as_str()
                .or_else(|| b["value_str"].as_str())
                .unwrap_or("?")
                .to_string();
            let Some(median_ns) = e["median"]["point_estimate"].as_f64() else {
                continue;
            };
            let elements = b["throughput"]["Elements"].as_f64();
            table
                .entry(group)
                .or_default()
                .entry(function)
                .or_default()
                .insert(
                    baseline,
                    Sample {
                        median_ns,
                        elements,
                    },
                );
        } else {
            collect(&path, table);
        }
    }
}

fn human_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.2} ns")
    }
}

/// A rate as elements per ns, or as time per element when that reads better.
fn per_element(rate: f64) -> String {
    if rate >= 0.1 {
        format!("{rate:.3}/ns")
    } else {
        format!("{}/el", human_time(1.0 / rate))
    }
}

/// The peer a function of ours is compared with: the peer on the same backend
/// (`aurum-avx2[-b2]` ↔ `p3-avx2`), else, for benchmarks that are not per backend, the
/// group's only peer.
fn peer_for<'a>(group: &str, ours: &str, peers: &[&'a String]) -> Option<&'a String> {
    let backend = ours.split('-').nth(1).unwrap_or(ours);
    if let Some(p) = peers.iter().find(|p| p.rsplit('-').next() == Some(backend)) {
        return Some(p);
    }
    let per_backend = group.starts_with("throughput")
        || group.starts_with("latency")
        || group.ends_with("/packed")
        || group.ends_with("/latency");
    (!per_backend && peers.len() == 1).then(|| peers[0])
}

/// The baselines to show. Criterion writes every run as `new` and, without
/// `--save-baseline`, also copies it to `base` (the one the next run compares with); with
/// `--save-baseline NAME` it copies it to `NAME` instead. So with named baselines, `new`
/// repeats the last of them and `base` is an older plain run: show the named ones. Without
/// them, `new` is the latest run (and `base` the same or older): show `new`.
fn retain_latest(baselines: &mut Vec<&String>) {
    let automatic = |b: &str| b == "new" || b == "base";
    if baselines.iter().any(|b| !automatic(b)) {
        baselines.retain(|b| !automatic(b));
    } else if baselines.iter().any(|b| b.as_str() == "new") {
        baselines.retain(|b| b.as_str() == "new");
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = match args.first() {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("CRITERION_HOME")
            .map_or_else(|| PathBuf::from("target/criterion"), PathBuf::from),
    };
    if !dir.is_dir() {
        eprintln!(
            "error: {} is not a directory (give a criterion output directory, e.g. \
             target/criterion)",
            dir.display()
        );
        return ExitCode::from(2);
    }
    let prefix = args.get(1).cloned().unwrap_or_default();
    let mut table = Table::new();
    collect(&dir, &mut table);
    if table.is_empty() {
        eprintln!("error: no criterion results under {}", dir.display());
        return ExitCode::from(2);
    }
    for (group, functions) in table.iter().filter(|(g, _)| g.starts_with(&prefix)) {
        let mut baselines: Vec<&String> = functions.values().flat_map(|b| b.keys()).collect();
        baselines.sort();
        baselines.dedup();
        retain_latest(&mut baselines);
        println!("## {group}");
        print!("| {:<28} |", "benchmark");
        for b in &baselines {
            print!(" {:>22} |", format!("{b} (median)"));
        }
        println!();
        print!("|{:-<30}|", "");
        for _ in &baselines {
            print!("{:->24}|", ":");
        }
        println!();
        for (function, samples) in functions {
            print!("| {function:<28} |");
            for b in &baselines {
                match samples.get(*b) {
                    Some(s) if s.elements.is_some() => {
                        print!(
                            " {:>22} |",
                            format!("{} ({})", human_time(s.median_ns), per_element(s.rate()))
                        )
                    }
                    Some(s) => print!(" {:>22} |", human_time(s.median_ns)),
                    None => print!(" {:>22} |", "—"),
                }
            }
            println!();
        }
        // Ratios within each baseline: ours vs the matching peer.
        let peers: Vec<&String> = functions
            .keys()
            .filter(|f| f.starts_with("p3") || f.starts_with("plonky"))
            .collect();
        for b in &baselines {
            for (function, samples) in functions.iter().filter(|(f, _)| f.starts_with("aurum")) {
                let Some(peer) = peer_for(group, function, &peers) else {
                    // Several peer implementations of one operation (e.g. Plonky3's DFTs):
                    // compare with the fastest of them in this baseline.
                    let best = peers
                        .iter()
                        .filter_map(|p| functions[*p].get(*b).map(|s| (p, s.rate())))
                        .max_by(|x, y| x.1.total_cmp(&y.1));
                    if let (Some(ours), Some((peer, rate))) = (samples.get(*b), best)
                        && peers.len() > 1
                    {
                        println!(
                            "- {b}: {function} vs best peer {peer}: {:.2}× faster",
                            ours.rate() / rate
                        );
                    }
                    continue;
                };
                if let (Some(ours), Some(theirs)) = (samples.get(*b), functions[peer].get(*b)) {
                    println!(
                        "- {b}: {function} vs {peer}: {:.2}× faster",
                        ours.rate() / theirs.rate()
                    );
                }
            }
        }
        println!();
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latest(names: &[&str]) -> Vec<String> {
        let owned: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let mut baselines: Vec<&String> = owned.iter().collect();
        retain_latest(&mut baselines);
        baselines.into_iter().cloned().collect()
    }

    #[test]
    fn baselines_shown() {
        // A plain `cargo bench`: the latest run.
        assert_eq!(latest(&["base", "new"]), ["new"]);
        assert_eq!(latest(&["new"]), ["new"]);
        // scripts/bench.sh: the named baselines, not a stale `base` nor `new`.
        assert_eq!(
            latest(&["base", "native", "new", "noflags"]),
            ["native", "noflags"]
        );
        assert_eq!(latest(&["base"]), ["base"]);
    }

    #[test]
    fn reads_a_plain_cargo_bench_directory() {
        let dir = std::env::temp_dir().join(format!("bench-table-test-{}", std::process::id()));
        let sample = |baseline: &str, function: &str, ns: f64| {
            let d = dir.join("grp").join(function).join(baseline);
            fs::create_dir_all(&d).unwrap();
            let bench = format!(
                r#"{{"group_id":"grp","function_id":"{function}","throughput":{{"Elements":100}}}}"#
            );
            fs::write(d.join("benchmark.json"), bench).unwrap();
            let estimates = format!(r#"{{"median":{{"point_estimate":{ns}}}}}"#);
            fs::write(d.join("estimates.json"), estimates).unwrap();
        };
        sample("new", "aurum-avx2", 50.0);
        sample("base", "aurum-avx2", 70.0);
        sample("new", "p3-avx2", 100.0);
        let mut table = Table::new();
        collect(&dir, &mut table);
        let functions = &table["grp"];
        assert_eq!(functions["aurum-avx2"]["new"].median_ns, 50.0);
        assert_eq!(functions["aurum-avx2"]["base"].median_ns, 70.0);
        assert_eq!(
            peer_for("grp", "aurum-avx2", &[&"p3-avx2".to_string()]).unwrap(),
            "p3-avx2"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
