//! The `aurum` binary end to end: commit (generated, u64 file, bytes file), open, verify, and
//! clear errors with a non-zero exit for bad input.

use std::path::PathBuf;
use std::process::Output;

use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::{Matrix, MerkleTree, config};

use crate::common;

use common::{aurum, aurum_command, json, stderr, stdout, temp};

fn hex_root(values: &[Goldilocks], cols: usize) -> String {
    let config = config::poseidon2_w8();
    let tree = MerkleTree::new(&config, vec![Matrix::new(values, cols).unwrap()]).unwrap();
    tree.root()
        .iter()
        .map(|x| format!("0x{:016x}", x.as_canonical_u64()))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn commit_prints_the_report() {
    let out = aurum(&["--rows", "1000", "--cols", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for field in [
        "backend:",
        "threads:",
        "1000 rows × 8 columns",
        "root:        0x",
        "time:",
        "M permutations/s",
        "peak memory:",
    ] {
        assert!(text.contains(field), "missing {field:?} in\n{text}");
    }
    // Piped output: no progress bar.
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    // Same seed, same root; another seed, another root; other threads, same root.
    let a = json(&aurum(&["--rows", "300", "--json"]));
    let b = json(&aurum(&[
        "commit",
        "--rows",
        "300",
        "--json",
        "--threads",
        "1",
    ]));
    let c = json(&aurum(&["--rows", "300", "--json", "--seed", "1"]));
    assert_eq!(a["root"], b["root"]);
    assert_ne!(a["root"], c["root"]);
    assert_eq!(a["rows"], 300);
    assert_eq!(b["threads"], 1);
    assert!(a["peak_memory_bytes"].as_u64().unwrap() > 0);
    assert!(a["permutations"].as_u64().unwrap() > 300);
}

#[test]
fn u64_file_root_equals_the_library_root() {
    let values: Vec<u64> = (0..200u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % P)
        .collect();
    let path = temp("values.bin");
    std::fs::write(
        &path,
        values
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let report = json(&aurum(&[
        "--input",
        path.to_str().unwrap(),
        "--cols",
        "5",
        "--json",
    ]));
    let field: Vec<Goldilocks> = values.iter().map(|&v| Goldilocks::from_u64(v)).collect();
    assert_eq!(report["root"], hex_root(&field, 5));
    assert_eq!(
        (report["rows"].as_u64(), report["cols"].as_u64()),
        (Some(40), Some(5))
    );
    // With a cap, the JSON lists it.
    let capped = json(&aurum(&[
        "--input",
        path.to_str().unwrap(),
        "--cols",
        "5",
        "--json",
        "--cap-height",
        "2",
    ]));
    assert_eq!(capped["cap"].as_array().unwrap().len(), 4);
}

#[test]
fn bytes_file_packs_seven_bytes_per_element_with_an_end_marker() {
    let bytes: Vec<u8> = (0..100u8).collect();
    let path = temp("any.dat");
    std::fs::write(&path, &bytes).unwrap();
    let report = json(&aurum(&[
        "--bytes",
        path.to_str().unwrap(),
        "--cols",
        "4",
        "--json",
    ]));
    let mut padded = bytes.clone();
    padded.push(1);
    padded.resize(padded.len().div_ceil(28) * 28, 0);
    let field: Vec<Goldilocks> = padded
        .chunks(7)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..7].copy_from_slice(c);
            Goldilocks::from_u64(u64::from_le_bytes(w))
        })
        .collect();
    assert_eq!(report["root"], hex_root(&field, 4));
    // A file one zero byte longer commits differently.
    let mut longer = bytes.clone();
    longer.push(0);
    let path2 = temp("any2.dat");
    std::fs::write(&path2, &longer).unwrap();
    let other = json(&aurum(&[
        "--bytes",
        path2.to_str().unwrap(),
        "--cols",
        "4",
        "--json",
    ]));
    assert_ne!(report["root"], other["root"]);
}

#[test]
fn bad_input_is_a_clear_error() {
    // A value ≥ p, named by row and column.
    let mut values = [1u64; 12];
    values[7] = P;
    let path = temp("bad.bin");
    std::fs::write(
        &path,
        values
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let out = aurum(&["--input", path.to_str().unwrap(), "--cols", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("row 2, column 1") && err.contains("18446744069414584321"),
        "{err}"
    );
    // A file that is not whole rows.
    let out = aurum(&["--input", path.to_str().unwrap(), "--cols", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a whole number of rows"),
        "{}",
        stderr(&out)
    );
    // Missing file, bad options, bad backend: errors, never panics or backtraces.
    for (args, needle) in [
        (vec!["--input", "/nonexistent/file"], "cannot open"),
        (vec!["--cols", "0"], "--cols"),
        (vec!["--rows", "ten"], "--rows"),
        (
            vec!["--preset", "sha3"],
            "possible values: poseidon2-w8, poseidon2-w12",
        ),
        (vec!["--input", "x", "--bytes", "y"], "cannot be used with"),
        (
            vec!["--cap-height", "4", "--rows", "8"],
            "cap height 4 exceeds the depth 3",
        ),
        (vec!["--cap-height", "30", "--rows", "8"], "--cap-height"),
    ] {
        let out = aurum(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
    }
    let out = aurum_command()
        .env("AURUM_BACKEND", "quantum")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown backend \"quantum\""),
        "{}",
        stderr(&out)
    );
}

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

#[test]
fn commit_reports_the_root_and_writes_the_commitment_whole() {
    // With a cap, `root` is the tree's root (not the first cap entry) and `cap` is the cap.
    let capped = json(&aurum(&[
        "--rows",
        "64",
        "--cols",
        "3",
        "--cap-height",
        "2",
        "--json",
    ]));
    let plain = json(&aurum(&["--rows", "64", "--cols", "3", "--json"]));
    assert_eq!(capped["root"], plain["root"]);
    assert_eq!(capped["cap"].as_array().unwrap().len(), 4);
    let first: Vec<&str> = capped["cap"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_ne!(first.join(","), plain["root"].as_str().unwrap());
    assert_eq!(
        capped["dims"],
        serde_json::json!([{"width": 3, "height": 64}])
    );
    // The text report prints the root too.
    let text = stdout(&aurum(&[
        "--rows",
        "64",
        "--cols",
        "3",
        "--cap-height",
        "2",
    ]));
    assert!(
        text.contains(&format!("root:        {}", plain["root"].as_str().unwrap())),
        "{text}"
    );
    // `--out` leaves the commitment file and nothing else in its directory.
    let dir = temp("out-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c.json");
    let out = aurum(&["--rows", "64", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(entries.len(), 1);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["preset"], "poseidon2-w8");
    assert_eq!(written["cap_height"], 0);
    // An unwritable destination is an error, and the old file stays.
    let out = aurum(&["--rows", "64", "--out", "/nonexistent-dir/c.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
}

#[test]
fn help_lists_every_preset() {
    for command in [
        vec!["--help"],
        vec!["verify", "--help"],
        vec!["open", "--help"],
    ] {
        let text = stdout(&aurum(&command));
        for preset in [
            "poseidon2-w8",
            "poseidon2-w12",
            "poseidon2-w16",
            "plonky2",
            "polygon",
        ] {
            assert!(text.contains(preset), "{command:?} lacks {preset}:\n{text}");
        }
    }
}

/// The Polygon preset end to end: Polygon zkProver's Merkle test matrix (128 columns × 64
/// rows, rows 0 and 1 = 1..=128, then Fibonacci) written as a u64 file gives their root, and
/// the plonky2 preset commits the same file to the root of its own tree.
#[test]
fn polygon_and_plonky2_presets_commit_files() {
    let (cols, rows) = (128usize, 64usize);
    let mut values: Vec<Goldilocks> = Vec::with_capacity(cols * rows);
    for j in 0..rows {
        for c in 0..cols {
            let v = if j < 2 {
                Goldilocks::from_u64(c as u64 + 1)
            } else {
                values[(j - 2) * cols + c] + values[(j - 1) * cols + c]
            };
            values.push(v);
        }
    }
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|x| x.as_canonical_u64().to_le_bytes())
        .collect();
    let path = temp("polygon.bin");
    std::fs::write(&path, bytes).unwrap();
    let file = path.to_str().unwrap();

    let out = json(&aurum(&[
        "--input", file, "--cols", "128", "--preset", "polygon", "--json",
    ]));
    assert_eq!(
        out["root"],
        "0x918f7cd0c3e8701f,0x83a130e00f961b02,0x6921497b364123f8,0xbd2b98a57b748bf4"
    );
    assert_eq!(out["preset"], "polygon");

    let out = json(&aurum(&[
        "--input", file, "--cols", "128", "--preset", "plonky2", "--json",
    ]));
    let config = config::plonky2();
    let tree = MerkleTree::new(&config, vec![Matrix::new(&values, cols).unwrap()]).unwrap();
    let expected: Vec<String> = tree
        .root()
        .iter()
        .map(|x| format!("0x{:016x}", x.as_canonical_u64()))
        .collect();
    assert_eq!(out["root"], expected.join(","));
}

#[test]
fn gen_writes_the_generated_matrix() {
    let path = temp("gen.bin");
    let out = aurum(&[
        "gen",
        "--rows",
        "1000",
        "--cols",
        "5",
        "--seed",
        "3",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("wrote 1000 × 5 u64 values"),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 1000 * 5 * 8);
    let from_file = json(&aurum(&[
        "commit",
        "--input",
        path.to_str().unwrap(),
        "--cols",
        "5",
        "--json",
    ]));
    let generated = json(&aurum(&[
        "--rows", "1000", "--cols", "5", "--seed", "3", "--json",
    ]));
    assert_eq!(from_file["root"], generated["root"]);
    // An empty matrix is refused before anything is written.
    let empty = temp("gen-empty.bin");
    let out = aurum(&["gen", "--rows", "0", "--out", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!empty.exists());
}

/// Ctrl-C in the middle of a large `aurum gen` exits with 130 and leaves no file: neither
/// the output nor its temporary.
#[cfg(unix)]
#[test]
fn interrupted_gen_leaves_no_file() {
    let dir = temp("interrupted");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("big.bin");
    // 1 GiB if nothing stopped it; interrupted as soon as its temporary file has data.
    let mut child = aurum_command()
        .args(["gen", "--rows", "134217728", "--cols", "1", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let has_data = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .any(|e| e.unwrap().metadata().is_ok_and(|m| m.len() > 0))
    };
    while !has_data() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "gen ended before it could be interrupted"
        );
        assert!(
            started.elapsed().as_secs() < 120,
            "no output after 2 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("interrupted"),
        "{}",
        stderr(&output)
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
