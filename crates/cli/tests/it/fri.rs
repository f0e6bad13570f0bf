//! `aurum fri` end to end (tests named `fri_…`, which `scripts/test-unoptimised.sh` skips): the report, the proof file, `aurum fri verify` against the
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
    // Another root: the file's cap does not lead to it.
    let wrong_root = format!("0x{:016x},{}", 12345u64, root.split_once(',').unwrap().1);
    let out = verify(&path, &wrong_root, &SMALL);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("INVALID: cap"), "{}", stdout(&out));
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
    assert!(stdout(&out).contains("INVALID: cap"), "{}", stdout(&out));
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
