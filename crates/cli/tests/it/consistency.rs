//! One policy in every command: a bad `AURUM_BACKEND`, `AURUM_BATCH` or `AURUM_HUGE_PAGES` is refused by the commands that compute
//! with the kernels and ignored by those that compute nothing; every untrusted JSON format
//! refuses an unknown field at any depth, naming it; `bench import-insn` refuses negative
//! counts and impossible dates, and records with impossible dates are refused too.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;

use common::{aurum, aurum_command, json, refused, stderr, stdout, temp};

/// The repository's root (where crates/bench/records is).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `aurum ARGS` with `AURUM_BACKEND=bogus`.
fn with_bogus_backend(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .env("AURUM_BACKEND", "bogus")
        .output()
        .unwrap()
}

/// `aurum ARGS` with `AURUM_HUGE_PAGES=sometimes` (not a policy).
fn with_bogus_huge_pages(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .env_remove("AURUM_BACKEND")
        .env("AURUM_HUGE_PAGES", "sometimes")
        .output()
        .unwrap()
}

/// `aurum ARGS` with `AURUM_BATCH=3` (not a batch size).
fn with_bogus_batch(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .env_remove("AURUM_BACKEND")
        .env("AURUM_BATCH", "3")
        .output()
        .unwrap()
}

fn write_json(name: &str, value: &serde_json::Value) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Genuine files of every format, made without `AURUM_BACKEND`: a commitment file and
/// `commit --json` report, a Merkle proof file, a FRI proof file and the FRI root.
struct Genuine {
    commitment: PathBuf,
    report: serde_json::Value,
    proof: PathBuf,
    fri_proof: PathBuf,
    fri_root: String,
}

const MERKLE: [&str; 4] = ["--rows", "64", "--cols", "3"];
const FRI: [&str; 6] = ["--rows", "64", "--cols", "2", "--params", "testing"];

fn genuine(tag: &str) -> Genuine {
    let commitment = temp(&format!("{tag}-commitment.json"));
    let report = json(&aurum(
        &[
            &["commit", "--json", "--out", commitment.to_str().unwrap()][..],
            &MERKLE,
        ]
        .concat(),
    ));
    let proof = temp(&format!("{tag}-proof.json"));
    let out = aurum(
        &[
            &["open", "--index", "5", "--out", proof.to_str().unwrap()][..],
            &MERKLE,
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let fri_proof = temp(&format!("{tag}-fri.json"));
    let fri = json(&aurum(
        &[
            &["fri", "--json", "--out", fri_proof.to_str().unwrap()][..],
            &FRI,
        ]
        .concat(),
    ));
    Genuine {
        commitment,
        report,
        proof,
        fri_proof,
        fri_root: fri["root"].as_str().unwrap().to_string(),
    }
}

#[test]
fn a_bad_backend_is_refused_by_every_command_that_computes() {
    let g = genuine("backend-refused");
    let out_file = temp("backend-refused-never-written");
    let out = out_file.to_str().unwrap();
    let root = g.report["root"].as_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        [&["commit"][..], &MERKLE].concat(),
        [&["--out", out][..], &MERKLE].concat(),
        [&["open", "--index", "1", "--out", out][..], &MERKLE].concat(),
        vec![
            "verify",
            "--proof",
            g.proof.to_str().unwrap(),
            "--commitment",
            g.commitment.to_str().unwrap(),
        ],
        [
            &[
                "verify",
                "--proof",
                g.proof.to_str().unwrap(),
                "--root",
                root,
                "--preset",
                "poseidon2-w8",
            ][..],
            &MERKLE,
        ]
        .concat(),
        [&["fri"][..], &FRI].concat(),
        [
            &[
                "fri",
                "verify",
                "--proof",
                g.fri_proof.to_str().unwrap(),
                "--root",
                &g.fri_root,
            ][..],
            &FRI,
        ]
        .concat(),
        vec!["info", "--millis", "1"],
        vec!["bench", "--smoke", "--out", out],
    ];
    for args in commands {
        // The genuine files verify without the variable…
        if args[0].contains("verify") || args.get(1) == Some(&"verify") {
            let ok = aurum(&args);
            assert!(ok.status.success(), "{args:?}: {}", stdout(&ok));
        }
        // …and the command refuses to run with a bad one.
        let out = with_bogus_backend(&args);
        refused(&out, &["AURUM_BACKEND"]);
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        // The same for a bad `AURUM_BATCH`.
        let out = with_bogus_batch(&args);
        refused(&out, &["AURUM_BATCH", "\"3\""]);
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        let out = with_bogus_huge_pages(&args);
        refused(&out, &["AURUM_HUGE_PAGES", "sometimes"]);
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }
    assert!(!out_file.exists());
}

#[test]
fn commands_that_compute_nothing_ignore_the_backend() {
    // `gen` writes the generated matrix with scalar arithmetic only: the same bytes.
    let plain = temp("gen-plain.bin");
    let bogus = temp("gen-bogus.bin");
    let gen_args = |path: &Path| {
        vec![
            "gen".to_string(),
            "--rows".into(),
            "100".into(),
            "--cols".into(),
            "3".into(),
            "--out".into(),
            path.to_str().unwrap().into(),
        ]
    };
    let args = gen_args(&plain);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(aurum(&args).status.success());
    let args = gen_args(&bogus);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = with_bogus_backend(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&bogus).unwrap()
    );

    // `bench compare` and `bench import-insn` read records and counts and compute nothing.
    let records = root().join("crates/bench/records");
    let neon = records.join("aarch64-qemu-neon.json");
    let sve = records.join("aarch64-qemu-sve2-128.json");
    let args = [
        "bench",
        "compare",
        neon.to_str().unwrap(),
        sve.to_str().unwrap(),
    ];
    let out = with_bogus_backend(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), stdout(&aurum(&args)));
    let dir = temp("import-bogus-backend");
    std::fs::create_dir_all(&dir).unwrap();
    let counts = records.join("arm-instructions/counts.csv");
    let out = with_bogus_backend(&[
        "bench",
        "import-insn",
        counts.to_str().unwrap(),
        "--columns",
        "neon",
        "--date",
        "2026-01-02T03:04:05Z",
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("aarch64-qemu-neon.json").exists());
}

/// Adds `"extra": 1` to the object at `pointer` (a JSON pointer) of `value`.
fn with_extra(value: &serde_json::Value, pointer: &str) -> serde_json::Value {
    let mut value = value.clone();
    value
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer}"))
        .as_object_mut()
        .unwrap_or_else(|| panic!("{pointer} is not an object"))
        .insert("extra".to_string(), 1.into());
    value
}

#[test]
fn every_untrusted_json_format_refuses_unknown_fields_at_any_depth() {
    let g = genuine("unknown-fields");
    let commitment = read_json(&g.commitment);
    let proof = read_json(&g.proof);
    let fri = read_json(&g.fri_proof);
    let merkle_root = g.report["root"].as_str().unwrap();

    // The genuine files are accepted, and so is the `commit --json` report as a commitment.
    let verify_with = |commitment: &Path, proof: &Path| {
        aurum(&[
            "verify",
            "--proof",
            proof.to_str().unwrap(),
            "--commitment",
            commitment.to_str().unwrap(),
        ])
    };
    let report = write_json("unknown-report.json", &g.report);
    for c in [&g.commitment, &report] {
        let out = verify_with(c, &g.proof);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    }

    // Commitment files (and reports): at the top level and inside `dims`.
    for (name, bad) in [
        ("c-top.json", with_extra(&commitment, "")),
        ("c-dims.json", with_extra(&commitment, "/dims/0")),
        ("r-top.json", with_extra(&g.report, "")),
        ("r-dims.json", with_extra(&g.report, "/dims/0")),
    ] {
        let out = verify_with(&write_json(name, &bad), &g.proof);
        refused(&out, &["unknown field `extra`"]);
    }
    // Merkle proof files: top level, `dims`, `commitment`, `opening`; against a commitment
    // file and against a root.
    for (name, bad) in [
        ("p-top.json", with_extra(&proof, "")),
        ("p-dims.json", with_extra(&proof, "/dims/0")),
        ("p-commitment.json", with_extra(&proof, "/commitment")),
        ("p-opening.json", with_extra(&proof, "/opening")),
    ] {
        let path = write_json(name, &bad);
        refused(
            &verify_with(&g.commitment, &path),
            &["unknown field `extra`"],
        );
        let by_root = aurum(
            &[
                &[
                    "verify",
                    "--proof",
                    path.to_str().unwrap(),
                    "--root",
                    merkle_root,
                    "--preset",
                    "poseidon2-w8",
                ][..],
                &MERKLE,
            ]
            .concat(),
        );
        refused(&by_root, &["unknown field `extra`"]);
    }
    // FRI proof files: top level and `params`.
    for (name, bad) in [
        ("f-top.json", with_extra(&fri, "")),
        ("f-params.json", with_extra(&fri, "/params")),
    ] {
        let path = write_json(name, &bad);
        let out = aurum(
            &[
                &[
                    "fri",
                    "verify",
                    "--proof",
                    path.to_str().unwrap(),
                    "--root",
                    &g.fri_root,
                ][..],
                &FRI,
            ]
            .concat(),
        );
        refused(&out, &["unknown field `extra`"]);
    }
    // Bench records: every nested object.
    let record = read_json(&root().join("crates/bench/records/aarch64-qemu-neon.json"));
    for pointer in [
        "",
        "/machine",
        "/machine/emulated",
        "/figures/0",
        "/figures/0/one_thread",
    ] {
        let path = write_json("record-extra.json", &with_extra(&record, pointer));
        let out = aurum(&["bench", "compare", path.to_str().unwrap()]);
        refused(&out, &["unknown field `extra`"]);
    }
}

/// `counts.csv` with one line of the shipped file altered by `edit`.
fn counts_with(name: &str, edit: impl Fn(&mut Vec<String>)) -> PathBuf {
    let counts =
        std::fs::read_to_string(root().join("crates/bench/records/arm-instructions/counts.csv"))
            .unwrap();
    let mut lines: Vec<String> = counts.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    edit(&mut fields);
    lines[1] = fields.join(",");
    let path = temp(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn import_insn_refuses_negative_counts_and_impossible_dates() {
    let dir = temp("import-refused");
    std::fs::create_dir_all(&dir).unwrap();
    let import = |counts: &Path, date: &str| {
        aurum(&[
            "bench",
            "import-insn",
            counts.to_str().unwrap(),
            "--date",
            date,
            "--out-dir",
            dir.to_str().unwrap(),
        ])
    };
    let good_date = "2026-01-02T03:04:05Z";
    // Fields 5, 6, 7: k, count_k, count_2k.
    for (field, name, value) in [
        (5, "k", "-16"),
        (5, "k", "0"),
        (6, "count_k", "-29886123"),
        (7, "count_2k", "-1"),
        (6, "count_k", "1.5"),
        (7, "count_2k", "lots"),
    ] {
        let counts = counts_with("negative-counts.csv", |f| f[field] = value.to_string());
        let out = import(&counts, good_date);
        refused(&out, &[&format!("line 2: {name} {value:?}")]);
    }
    let counts = root().join("crates/bench/records/arm-instructions/counts.csv");
    for date in [
        "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T12:60:00Z",
        "2026-01-01T12:00:60Z",
    ] {
        refused(&import(&counts, date), &[&format!("--date {date:?}")]);
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // A leap day is a date.
    let out = import(&counts, "2024-02-29T23:59:59Z");
    assert!(out.status.success(), "{}", stderr(&out));

    // Records carry the same dates: an impossible one is refused, naming the field.
    let record = read_json(&root().join("crates/bench/records/aarch64-qemu-neon.json"));
    let mut bad = record.clone();
    bad["date"] = "2026-02-30T00:00:00Z".into();
    let path = write_json("impossible-date.json", &bad);
    refused(
        &aurum(&["bench", "compare", path.to_str().unwrap()]),
        &["field `date`"],
    );
}
