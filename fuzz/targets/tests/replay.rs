//! Every fuzz target on every committed seed (`fuzz/seeds/<target>/`) and on every input a
//! campaign kept (`fuzz/corpus/<target>/`, not committed), on stable, as libFuzzer would pass
//! it: the targets' checks run on each `cargo test --workspace`, and a crash a campaign found
//! stays fixed once its input is committed as a seed.
//!
//! Also checks that the list of targets, the libFuzzer harnesses (`fuzz/Cargo.toml`) and the
//! seed directories agree, so a new target cannot go unreplayed.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use aurum_fuzz_targets::{TARGETS, run};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files under `dir`, recursively, sorted; empty when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_seed_and_corpus_input_passes_its_target() {
    let mut failures = Vec::new();
    let mut total = 0;
    for &target in TARGETS {
        let seeds = files(&fuzz_dir().join("seeds").join(target));
        assert!(!seeds.is_empty(), "fuzz/seeds/{target} holds no seed");
        let corpus = files(&fuzz_dir().join("corpus").join(target));
        for path in seeds.iter().chain(&corpus) {
            let data = std::fs::read(path).unwrap();
            total += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| run(target, &data)));
            match outcome {
                Ok(true) => {}
                Ok(false) => panic!("`run` does not know the target {target}"),
                Err(_) => failures.push(format!("{target}: {}", path.display())),
            }
        }
    }
    println!("{total} inputs replayed through {} targets", TARGETS.len());
    assert!(
        failures.is_empty(),
        "inputs that crash their target (the panic messages are above):\n{}",
        failures.join("\n")
    );
}

#[test]
fn targets_harnesses_and_seed_directories_agree() {
    let listed: BTreeSet<String> = TARGETS.iter().map(|s| s.to_string()).collect();
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let harnesses: BTreeSet<String> = manifest
        .lines()
        .filter_map(|l| l.trim().strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|name| *name != "aurum-fuzz")
        .map(str::to_string)
        .collect();
    assert_eq!(harnesses, listed, "fuzz/Cargo.toml's [[bin]] targets");
    for target in &listed {
        let harness = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&harness).unwrap();
        assert!(
            text.contains(&format!("aurum_fuzz_targets::{target}")),
            "{} does not call aurum_fuzz_targets::{target}",
            harness.display()
        );
    }
    let seed_dirs: BTreeSet<String> = std::fs::read_dir(fuzz_dir().join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(seed_dirs, listed, "the directories of fuzz/seeds");
    assert!(!run("no_such_target", b""));
}
