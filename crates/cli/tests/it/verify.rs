//! `aurum open` and `aurum verify` end to end: openings verify against the verifier's own
//! statement (a commitment file, or a root with the tree's preset and shape), and forged or
//! hostile proofs, commitments and sizes are refused with a message, never a panic.

use std::path::PathBuf;
use std::process::Output;

use aurum_goldilocks::P;

use crate::common;

use common::{aurum, json, stderr, stdout, temp};

/// `aurum commit --out` and `--json` give a commitment file; the root alone with the tree's
/// preset and shape is a statement too.
fn committed(args: &[&str], name: &str) -> (PathBuf, serde_json::Value) {
    let path = temp(name);
    let mut full = args.to_vec();
    full.extend(["--json", "--out", path.to_str().unwrap()]);
    let report = json(&aurum(&full));
    (path, report)
}

fn verify(args: &[&str]) -> Output {
    let mut full = vec!["verify"];
    full.extend(args);
    aurum(&full)
}

#[test]
fn open_then_verify_against_the_trusted_statement() {
    let proof = temp("proof.json");
    let proof_arg = proof.to_str().unwrap();
    let shape = ["--rows", "100", "--cols", "6", "--cap-height", "1"];
    let mut open = vec!["open", "--index", "42", "--out", proof_arg];
    open.extend(shape);
    let out = aurum(&open);
    assert!(out.status.success(), "{}", stderr(&out));
    let (commitment, report) = committed(&shape, "commitment.json");
    let commitment_arg = commitment.to_str().unwrap();

    // Against the commitment file: the leaf and its row values are printed.
    let out = verify(&["--proof", proof_arg, "--commitment", commitment_arg]);
    assert!(out.status.success(), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("valid: leaf 42 of the poseidon2-w8 commitment"),
        "{text}"
    );
    assert!(text.contains("matrix 0 (100 × 6), row 42: ["), "{text}");
    assert!(
        text.contains("note: leaf 42 is the one the proof file names"),
        "{text}"
    );
    let expected_row = aurum_cli::input::random_matrix(100, 6, 0).unwrap()[42 * 6..43 * 6]
        .iter()
        .map(|x| x.as_canonical_u64().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        text.contains(&format!("row 42: [{expected_row}]")),
        "{text}"
    );
    // The `--json` report is a commitment file too.
    let report_file = temp("report.json");
    std::fs::write(&report_file, report.to_string()).unwrap();
    let out = verify(&[
        "--proof",
        proof_arg,
        "--commitment",
        report_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stdout(&out));

    // Against the root: the proof's cap must lead to it.
    let root = report["root"].as_str().unwrap();
    let by_root = |extra: &[&str]| {
        let mut args = vec![
            "--proof",
            proof_arg,
            "--root",
            root,
            "--preset",
            "poseidon2-w8",
        ];
        args.extend(extra);
        verify(&args)
    };
    let out = by_root(&[
        "--rows",
        "100",
        "--cols",
        "6",
        "--cap-height",
        "1",
        "--index",
        "42",
    ]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(!stdout(&out).contains("note:"), "{}", stdout(&out));

    // Whatever differs from the statement is named, with exit status 1.
    for (extra, field) in [
        (
            vec![
                "--rows",
                "100",
                "--cols",
                "6",
                "--cap-height",
                "1",
                "--index",
                "41",
            ],
            "`index`",
        ),
        (vec!["--rows", "100", "--cols", "6"], "`cap_height`"),
        (
            vec!["--rows", "101", "--cols", "6", "--cap-height", "1"],
            "`dims[0].height`",
        ),
        (
            vec!["--rows", "100", "--cols", "7", "--cap-height", "1"],
            "`dims[0].width`",
        ),
    ] {
        let out = by_root(&extra);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {}", stdout(&out));
        assert!(
            stdout(&out).starts_with("INVALID: proof field ") && stdout(&out).contains(field),
            "{extra:?}: {}",
            stdout(&out)
        );
    }
    let mut args = vec!["--proof", proof_arg, "--root", root, "--preset", "plonky2"];
    args.extend(["--rows", "100", "--cols", "6", "--cap-height", "1"]);
    let out = verify(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("proof field `preset`"),
        "{}",
        stdout(&out)
    );
    // Another commitment (another seed) is rejected, naming the cap entry.
    let mut other_shape = shape.to_vec();
    other_shape.extend(["--seed", "9"]);
    let (other, other_report) = committed(&other_shape, "other.json");
    let out = verify(&[
        "--proof",
        proof_arg,
        "--commitment",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("proof field `commitment.cap[0]`"),
        "{}",
        stdout(&out)
    );
    let other_root = other_report["root"].as_str().unwrap();
    let mut args = vec![
        "--proof",
        proof_arg,
        "--root",
        other_root,
        "--preset",
        "poseidon2-w8",
    ];
    args.extend(["--rows", "100", "--cols", "6", "--cap-height", "1"]);
    let out = verify(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("not to the trusted root"),
        "{}",
        stdout(&out)
    );

    // Tampered values and widths are rejected with the reason.
    let text = std::fs::read_to_string(&proof).unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let original = file["opening"]["rows"][0][3].as_u64().unwrap();
    file["opening"]["rows"][0][3] = serde_json::json!((original + 1) % P);
    let tampered = temp("tampered.json");
    let tampered_arg = tampered.to_str().unwrap();
    std::fs::write(&tampered, file.to_string()).unwrap();
    let out = verify(&["--proof", tampered_arg, "--commitment", commitment_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("does not match the commitment"),
        "{}",
        stdout(&out)
    );
    file["opening"]["rows"][0].as_array_mut().unwrap().pop();
    std::fs::write(&tampered, file.to_string()).unwrap();
    let out = verify(&["--proof", tampered_arg, "--commitment", commitment_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("width 6"), "{}", stdout(&out));

    // Without a trusted statement there is nothing to verify against.
    for args in [
        vec!["--proof", proof_arg],
        vec!["--proof", proof_arg, "--root", root],
        vec![
            "--proof", proof_arg, "--root", root, "--preset", "plonky2", "--rows", "100",
        ],
        vec![
            "--proof",
            proof_arg,
            "--commitment",
            commitment_arg,
            "--rows",
            "100",
        ],
    ] {
        let out = verify(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }

    // Malformed proof and commitment files are errors, not panics.
    for bad in ["", "{", "{\"preset\":\"poseidon2-w8\"}", "[1,2,3]"] {
        std::fs::write(&tampered, bad).unwrap();
        let out = verify(&["--proof", tampered_arg, "--commitment", commitment_arg]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("not a valid proof file"),
            "{}",
            stderr(&out)
        );
        let out = verify(&["--proof", proof_arg, "--commitment", tampered_arg]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("not a commitment written by `aurum commit`"),
            "{}",
            stderr(&out)
        );
    }
    // A commitment file whose root is not its cap's.
    let mut inconsistent = report.clone();
    inconsistent["root"] = other_report["root"].clone();
    std::fs::write(&tampered, inconsistent.to_string()).unwrap();
    let out = verify(&["--proof", proof_arg, "--commitment", tampered_arg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not the root of the cap"),
        "{}",
        stderr(&out)
    );

    // Opening a leaf past the end fails before any work: this matrix would need 2^56
    // elements.
    let out = aurum(&[
        "open", "--rows", "100", "--index", "100", "--out", proof_arg,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
    let huge = (1u64 << 36).to_string();
    let out = aurum(&[
        "open", "--rows", &huge, "--cols", "1048576", "--index", &huge, "--out", proof_arg,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
    // The proof file written before is intact (files are replaced whole, never truncated).
    assert_eq!(std::fs::read_to_string(&proof).unwrap(), text);
}

/// The forgery of a one-row "tree" whose row is the root: plonky2's and Polygon's leaf hash
/// copy rows of at most four elements as their digest, so it would verify against any root
/// if the verifier took the preset, the dimensions or the index from the proof.
#[test]
fn the_one_row_forgery_is_rejected() {
    for trusted_preset in ["poseidon2-w8", "plonky2"] {
        let args = ["--rows", "64", "--cols", "8", "--preset", trusted_preset];
        let (commitment, report) = committed(&args, "forgery-commitment.json");
        let root = report["root"].as_str().unwrap();
        let words: Vec<u64> = root
            .split(',')
            .map(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).unwrap())
            .collect();
        for preset in ["plonky2", "polygon"] {
            let forged = serde_json::json!({
                "preset": preset, "dims": [{"width": 4, "height": 1}], "index": 0,
                "commitment": {"cap": [words]},
                "opening": {"rows": [words], "siblings": []},
            });
            let path = temp("forged.json");
            std::fs::write(&path, forged.to_string()).unwrap();
            let forged_arg = path.to_str().unwrap();
            let by_commitment = verify(&[
                "--proof",
                forged_arg,
                "--commitment",
                commitment.to_str().unwrap(),
            ]);
            let by_root = verify(&[
                "--proof",
                forged_arg,
                "--root",
                root,
                "--preset",
                trusted_preset,
                "--rows",
                "64",
                "--cols",
                "8",
            ]);
            for out in [by_commitment, by_root] {
                assert_eq!(out.status.code(), Some(1), "{preset}: {}", stdout(&out));
                let expected = if preset == trusted_preset {
                    "proof field `dims[0].width`"
                } else {
                    "proof field `preset`"
                };
                assert!(stdout(&out).contains(expected), "{}", stdout(&out));
            }
        }
    }
}

/// Sizes from proof files, commitment files and flags that overflow any arithmetic are
/// refused with a message, never a panic.
#[test]
fn hostile_sizes_are_refused() {
    let shape = ["--rows", "64", "--cols", "8"];
    let (commitment, report) = committed(&shape, "hostile-commitment.json");
    let proof = temp("hostile-proof.json");
    let mut open = vec!["open", "--index", "3", "--out", proof.to_str().unwrap()];
    open.extend(shape);
    assert!(aurum(&open).status.success());
    let genuine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    let root = report["root"].as_str().unwrap();
    let hostile_file = temp("hostile.json");
    let hostile_arg = hostile_file.to_str().unwrap();
    for height in [(1u64 << 48) + 1, (1u64 << 63) + 1, u64::MAX] {
        let height_text = height.to_string();
        // In the proof file: it differs from the statement.
        let mut file = genuine.clone();
        file["dims"][0]["height"] = serde_json::json!(height);
        std::fs::write(&hostile_file, file.to_string()).unwrap();
        let out = verify(&[
            "--proof",
            hostile_arg,
            "--commitment",
            commitment.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{height}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("`dims[0].height`"),
            "{}",
            stdout(&out)
        );
        // In the trusted statement: refused as a statement.
        let mut file = report.clone();
        file["dims"][0]["height"] = serde_json::json!(height);
        std::fs::write(&hostile_file, file.to_string()).unwrap();
        let out = verify(&[
            "--proof",
            proof.to_str().unwrap(),
            "--commitment",
            hostile_arg,
        ]);
        assert_eq!(out.status.code(), Some(2), "{height}: {}", stdout(&out));
        assert!(stderr(&out).contains("dimensions"), "{}", stderr(&out));
        let out = verify(&[
            "--proof",
            proof.to_str().unwrap(),
            "--root",
            root,
            "--preset",
            "polygon",
            "--rows",
            &height_text,
            "--cols",
            "8",
        ]);
        assert_eq!(out.status.code(), Some(2), "{height}: {}", stdout(&out));
        assert!(stderr(&out).contains("dimensions"), "{}", stderr(&out));
    }
    // Huge cap heights, indices and widths.
    for args in [
        vec!["--cap-height", "64"],
        vec!["--cap-height", "18446744073709551615"],
        vec!["--index", "18446744073709551616"],
    ] {
        let mut full = vec!["--proof", proof.to_str().unwrap(), "--root", root];
        full.extend(["--preset", "poseidon2-w8", "--rows", "64", "--cols", "8"]);
        full.extend(&args);
        let out = verify(&full);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    let out = aurum(&["--rows", "1", "--cols", "1", "--cap-height", "99"]);
    assert_eq!(out.status.code(), Some(2));
}
