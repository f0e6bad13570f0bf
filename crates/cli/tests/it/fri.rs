//! `aurum fri` end to end: the report, the proof file, `aurum fri verify` against the
//! verifier's own statement (exit 0), rejections (exit 1) and bad input (exit 2).

use std::path::Path;
use std::process::Output;

use aurum_goldilocks::P;

use crate::common;

use common::{aurum, json, stderr, stdout, temp};

/// A small statement: 256 × 3, Plonky3's testing parameters.
const SMALL: [&str; 6] = ["--rows", "256", "--cols", "3", "--params", "testing"];

fn prove_small(out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["fri", "--json", "--out", out.to_str().unwrap()];
    args.extend_from_slice(&SMALL);
    args.extend_from_slice(extra);
    json(&aurum(&args))
}

fn verify(proof: &Path, root: &str, statement: &[&str]) -> Output {
    let mut args = vec![
        "fri",
        "verify",
        "--proof",
        proof.to_str().unwrap(),
        "--root",
        root,
    ];
    args.extend_from_slice(statement);
    aurum(&args)
}

#[test]
fn fri_prove_reports_every_phase_and_the_proof_verifies() {
    let out = aurum(&["fri", "--rows", "512", "--cols", "2", "--num-queries", "10"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for field in [
        "512 rows × 2 columns",
        "soundness:    26 bits",
        "LDE:",
        "Merkle tree:",
        "evaluation:",
        "quotients:",
        "commit phase:",
        "grinding:",
        "queries:",
        "verify:",
        "proof size:",
        "peak memory:",
    ] {
        assert!(text.contains(field), "missing {field:?} in\n{text}");
    }
    assert!(
        stderr(&out).is_empty(),
        "no progress when piped: {}",
        stderr(&out)
    );

    let path = temp("proof.json");
    let report = prove_small(&path, &[]);
    let root = report["root"].as_str().unwrap().to_string();
    assert!(report["proof_bytes"].as_u64().unwrap() > 0);
    assert_eq!(report["conjectured_soundness_bits"], 5);
    let ok = verify(&path, &root, &SMALL);
    assert!(ok.status.success(), "{}{}", stdout(&ok), stderr(&ok));
    assert!(stdout(&ok).starts_with("valid:"), "{}", stdout(&ok));
    // Same seed, same root, whatever the thread count; another seed, another root.
    let again = prove_small(&temp("again.json"), &["--threads", "1"]);
    assert_eq!(again["root"], report["root"]);
    let other = prove_small(&temp("other.json"), &["--seed", "9"]);
    assert_ne!(other["root"], report["root"]);
}

#[test]
fn fri_the_verifier_states_the_shape_parameters_and_root() {
    let path = temp("statement.json");
    let report = prove_small(&path, &[]);
    let root = report["root"].as_str().unwrap().to_string();
    let mismatches: [(&[&str], &str); 5] = [
        (
            &["--rows", "512", "--cols", "3", "--params", "testing"],
            "`rows`",
        ),
        (
            &["--rows", "256", "--cols", "4", "--params", "testing"],
            "`cols`",
        ),
        (
            &["--rows", "256", "--cols", "3", "--params", "benchmark"],
            "`params`",
        ),
        (
            &[
                "--rows", "256", "--cols", "3", "--params", "testing", "--points", "3",
            ],
            "`points`",
        ),
        (
            &[
                "--rows",
                "256",
                "--cols",
                "3",
                "--params",
                "testing",
                "--preset",
                "poseidon2-w12",
            ],
            "`preset`",
        ),
    ];
    for (statement, field) in mismatches {
        let out = verify(&path, &root, statement);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{statement:?}: {}",
            stdout(&out)
        );
        assert!(stdout(&out).contains(field), "{field}: {}", stdout(&out));
    }
    // Another root: the file's root claim differs from it.
    let wrong_root = format!("0x{:016x},{}", 12345u64, root.split_once(',').unwrap().1);
    let out = verify(&path, &wrong_root, &SMALL);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("INVALID: proof field `root`"),
        "{}",
        stdout(&out)
    );
    // A file claiming that root too: its cap does not lead to it.
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    file["root"] = serde_json::json!(wrong_root);
    let claims_wrong_root = temp("claims-wrong-root.json");
    std::fs::write(&claims_wrong_root, file.to_string()).unwrap();
    let out = verify(&claims_wrong_root, &wrong_root, &SMALL);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("INVALID: proof field `cap`"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn fri_tampered_proof_files_are_rejected() {
    let path = temp("tamper.json");
    let report = prove_small(&path, &["--cap-height", "2"]);
    let root = report["root"].as_str().unwrap().to_string();
    let statement = [&SMALL[..], &["--cap-height", "2"]].concat();
    assert!(verify(&path, &root, &statement).status.success());
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();

    // A claimed value changed: the transcript and the quotients disagree.
    let mut file = original.clone();
    let v = file["opened_values"][0][1][0].as_u64().unwrap();
    file["opened_values"][0][1][0] = serde_json::json!((v + 1) % P);
    let bad = temp("tampered-value.json");
    std::fs::write(&bad, file.to_string()).unwrap();
    let out = verify(&bad, &root, &statement);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));

    // A byte of the proof flipped (a hex digit in the middle): rejected, or malformed.
    let proof = original["proof"].as_str().unwrap();
    for position in [20, proof.len() / 2, proof.len() - 40] {
        let mut chars: Vec<char> = proof.chars().collect();
        chars[position] = if chars[position] == '0' { '1' } else { '0' };
        let mut file = original.clone();
        file["proof"] = serde_json::json!(chars.into_iter().collect::<String>());
        std::fs::write(&bad, file.to_string()).unwrap();
        let out = verify(&bad, &root, &statement);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "position {position}: {}",
            stdout(&out)
        );
    }

    // A cap digest changed: it no longer hashes to the root.
    let mut file = original.clone();
    file["cap"][1][0] = serde_json::json!("0x0000000000000001");
    std::fs::write(&bad, file.to_string()).unwrap();
    let out = verify(&bad, &root, &statement);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("INVALID: proof field `cap`"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn fri_bad_flags_and_files_exit_with_status_two() {
    let path = temp("bad.json");
    std::fs::write(&path, "{}").unwrap();
    let root = "0x0,0x0,0x0,0x0";
    let cases: [&[&str]; 8] = [
        &["fri", "--rows", "1000"],
        &["fri", "--rows", "256", "--log-blowup", "0"],
        &["fri", "--rows", "256", "--max-log-arity", "5"],
        &["fri", "--rows", "256", "--num-queries", "0"],
        &["fri", "--rows", "256", "--preset", "plonky2"],
        &[
            "fri",
            "--rows",
            "2",
            "--params",
            "testing",
            "--log-final-poly-len",
            "3",
        ],
        &[
            "fri",
            "verify",
            "--proof",
            path.to_str().unwrap(),
            "--root",
            root,
        ],
        &[
            "fri",
            "verify",
            "--proof",
            "/nonexistent/proof.json",
            "--root",
            root,
        ],
    ];
    for args in cases {
        let out = aurum(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert!(!stderr(&out).is_empty(), "{args:?}: no reason given");
    }
    // A root that is not four canonical words.
    let out = aurum(&[
        "fri",
        "verify",
        "--proof",
        path.to_str().unwrap(),
        "--root",
        "0x1",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fri_an_input_file_of_power_of_two_rows_is_committed() {
    let values: Vec<u8> = (0..64u64 * 2)
        .flat_map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % P).to_le_bytes())
        .collect();
    let path = temp("values.bin");
    std::fs::write(&path, &values).unwrap();
    let report = json(&aurum(&[
        "fri",
        "--input",
        path.to_str().unwrap(),
        "--cols",
        "2",
        "--params",
        "testing",
        "--json",
    ]));
    assert_eq!(
        (report["rows"].as_u64(), report["cols"].as_u64()),
        (Some(64), Some(2))
    );
    // Three columns do not divide the 128 values into whole rows.
    let out = aurum(&["fri", "--input", path.to_str().unwrap(), "--cols", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The proof file at `path` as JSON, to alter.
fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes `value` to a new file `name` and returns its path.
fn write_json(name: &str, value: &serde_json::Value) -> std::path::PathBuf {
    let path = temp(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path
}

/// Exit status 1, `INVALID: proof field `FIELD`: …` on stdout, nothing reported as valid.
fn assert_rejected_claim(out: &Output, field: &str) {
    let text = stdout(out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(out));
    assert!(
        text.starts_with(&format!("INVALID: proof field `{field}`: ")),
        "{field}: {text}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(!text.contains("valid\""), "{text}");
}

#[test]
fn fri_opened_values_must_have_the_statements_shape() {
    let path = temp("shape.json");
    let report = prove_small(&path, &[]);
    let root = report["root"].as_str().unwrap().to_string();
    let original = read_json(&path);
    let json_args = [&SMALL[..], &["--json"]].concat();

    // Values at a third point the verifier never draws: they would be reported as proven.
    let mut extra = original.clone();
    let first = extra["opened_values"][0].clone();
    extra["opened_values"].as_array_mut().unwrap().push(first);
    let out = verify(&write_json("extra-point.json", &extra), &root, &json_args);
    assert_rejected_claim(&out, "opened_values");
    assert!(stdout(&out).contains("values at 3 points, the verifier draws 2"));

    // Values at one point only.
    let mut fewer = original.clone();
    fewer["opened_values"].as_array_mut().unwrap().pop();
    let out = verify(&write_json("fewer-points.json", &fewer), &root, &SMALL);
    assert_rejected_claim(&out, "opened_values");

    // A fourth value at the second point; two values at the first.
    let mut wide = original.clone();
    let value = wide["opened_values"][1][0].clone();
    wide["opened_values"][1].as_array_mut().unwrap().push(value);
    let out = verify(&write_json("extra-column.json", &wide), &root, &SMALL);
    assert_rejected_claim(&out, "opened_values[1]");
    assert!(stdout(&out).contains("4 values, the verifier states 3 columns"));
    let mut narrow = original.clone();
    narrow["opened_values"][0].as_array_mut().unwrap().pop();
    let out = verify(&write_json("fewer-columns.json", &narrow), &root, &SMALL);
    assert_rejected_claim(&out, "opened_values[0]");

    // A genuine proof of a 256 × 2 matrix, claimed (and checked) as 256 × 3: the root does
    // not say how many columns the tree has, so only the values' count can tell.
    let two = temp("two-columns.json");
    let report = json(&aurum(&[
        "fri",
        "--json",
        "--rows",
        "256",
        "--cols",
        "2",
        "--params",
        "testing",
        "--out",
        two.to_str().unwrap(),
    ]));
    let two_root = report["root"].as_str().unwrap().to_string();
    let mut forged = read_json(&two);
    forged["cols"] = serde_json::json!(3);
    let out = verify(&write_json("forged-cols.json", &forged), &two_root, &SMALL);
    assert_rejected_claim(&out, "opened_values[0]");
    // The genuine file, against its own statement, verifies.
    let out = verify(
        &two,
        &two_root,
        &["--rows", "256", "--cols", "2", "--params", "testing"],
    );
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn fri_the_files_root_claim_is_compared_with_the_trusted_root() {
    let path = temp("root-claim.json");
    let report = prove_small(&path, &["--cap-height", "1"]);
    let root = report["root"].as_str().unwrap().to_string();
    let statement = [&SMALL[..], &["--cap-height", "1"]].concat();
    let mut file = read_json(&path);
    file["root"] = serde_json::json!("0x1,0x2,0x3,0x4");
    let out = verify(&write_json("other-root.json", &file), &root, &statement);
    assert_rejected_claim(&out, "root");
    assert!(
        stdout(&out).contains(&format!(
            "the file says 0x0000000000000001,0x0000000000000002,0x0000000000000003,\
             0x0000000000000004, the verifier states {root}"
        )),
        "{}",
        stdout(&out)
    );
    // A root that is not a digest: a malformed file.
    file["root"] = serde_json::json!("not a root");
    let out = verify(&write_json("bad-root.json", &file), &root, &statement);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("root"), "{}", stderr(&out));
}

#[test]
fn fri_verify_json_reports_only_what_was_verified() {
    let path = temp("report.json");
    let report = prove_small(&path, &["--points", "3"]);
    let root = report["root"].as_str().unwrap().to_string();
    let statement = [&SMALL[..], &["--points", "3", "--json"]].concat();
    let out = verify(&path, &root, &statement);
    let verified = json(&out);
    let keys: Vec<&str> = verified
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "cap_height",
            "cols",
            "opened_values",
            "opening_points",
            "params",
            "points",
            "preset",
            "root",
            "rows",
            "seconds",
            "valid"
        ]
    );
    assert_eq!(verified["valid"], true);
    assert_eq!(verified["root"], root.as_str());
    assert_eq!(
        (&verified["rows"], &verified["cols"], &verified["points"]),
        (&256.into(), &3.into(), &3.into())
    );
    assert_eq!(verified["params"], report["params"]);
    // The values are the file's, exactly the statement's three points by three columns, at
    // the points the verifier drew.
    let file = read_json(&path);
    assert_eq!(verified["opened_values"], file["opened_values"]);
    let values = verified["opened_values"].as_array().unwrap();
    assert_eq!(values.len(), 3);
    assert!(values.iter().all(|v| v.as_array().unwrap().len() == 3));
    let points = verified["opening_points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert!(points.iter().all(|p| p.as_array().unwrap().len() == 2));
}

#[test]
fn fri_cap_height_above_the_lde_tree_is_refused_like_commit() {
    // 16 rows, blow-up 2^1 (benchmark): an LDE tree of 32 leaves, depth 5.
    for args in [
        &["fri", "--rows", "16", "--cap-height", "20"][..],
        &["fri", "--rows", "16", "--cap-height", "6"],
        &[
            "fri",
            "verify",
            "--proof",
            "/nonexistent.json",
            "--root",
            "0x0,0x0,0x0,0x0",
            "--rows",
            "16",
            "--cap-height",
            "6",
        ],
    ] {
        let out = aurum(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("error: cap height ") && err.contains("exceeds the depth 5"),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Commit's message for the same tree.
    let out = aurum(&["--rows", "32", "--cap-height", "6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cap height 6 exceeds the depth 5 of a tree of 32 leaves"));
    // The whole LDE layer as the cap is allowed, and verifies.
    let path = temp("full-cap.json");
    let report = json(&aurum(&[
        "fri",
        "--json",
        "--rows",
        "16",
        "--cap-height",
        "5",
        "--num-queries",
        "2",
        "--query-pow-bits",
        "0",
        "--out",
        path.to_str().unwrap(),
    ]));
    let out = verify(
        &path,
        report["root"].as_str().unwrap(),
        &[
            "--rows",
            "16",
            "--cap-height",
            "5",
            "--num-queries",
            "2",
            "--query-pow-bits",
            "0",
        ],
    );
    assert!(out.status.success(), "{}", stdout(&out));
}
