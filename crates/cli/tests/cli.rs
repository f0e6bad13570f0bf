//! The `aurum` binary end to end: commit (generated, u64 file, bytes file), open, verify, and
//! clear errors with a non-zero exit for bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::{Matrix, MerkleTree, config};

/// The `aurum` binary as a command. Cross-tests (scripts/test-aarch64.sh) run this test under
/// qemu user emulation, which cannot start another foreign binary by itself: they name the
/// emulator in `AURUM_TEST_RUNNER`.
fn aurum_command() -> Command {
    let exe = env!("CARGO_BIN_EXE_aurum");
    match std::env::var("AURUM_TEST_RUNNER") {
        Ok(runner) if !runner.is_empty() => {
            let mut command = Command::new(runner);
            command.arg(exe);
            command
        }
        _ => Command::new(exe),
    }
}

fn aurum(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .env_remove("AURUM_BACKEND")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aurum-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "stderr: {}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap()
}

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
        (vec!["--preset", "sha3"], "unknown preset"),
        (vec!["--input", "x", "--bytes", "y"], "cannot be used with"),
        (vec!["--cap-height", "30", "--rows", "8"], "cap height"),
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

#[test]
fn open_then_verify_and_reject_tampering() {
    let proof = temp("proof.json");
    let proof_arg = proof.to_str().unwrap();
    let out = aurum(&[
        "open",
        "--rows",
        "100",
        "--cols",
        "6",
        "--cap-height",
        "1",
        "--index",
        "42",
        "--out",
        proof_arg,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = aurum(&["verify", "--proof", proof_arg]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("valid"), "{}", stdout(&out));

    // Against the trusted commitment printed by `aurum commit --json`.
    let commitment = temp("commitment.json");
    let c = aurum(&[
        "--rows",
        "100",
        "--cols",
        "6",
        "--cap-height",
        "1",
        "--json",
    ]);
    std::fs::write(&commitment, &c.stdout).unwrap();
    let out = aurum(&[
        "verify",
        "--proof",
        proof_arg,
        "--commitment",
        commitment.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stdout(&out));
    // A different trusted commitment is rejected.
    let other = temp("other.json");
    std::fs::write(
        &other,
        aurum(&[
            "--rows",
            "100",
            "--cols",
            "6",
            "--cap-height",
            "1",
            "--json",
            "--seed",
            "9",
        ])
        .stdout,
    )
    .unwrap();
    let out = aurum(&[
        "verify",
        "--proof",
        proof_arg,
        "--commitment",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));

    // Tampered values and widths are rejected with the reason.
    let text = std::fs::read_to_string(&proof).unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let original = file["opening"]["rows"][0][3].as_u64().unwrap();
    file["opening"]["rows"][0][3] = serde_json::json!((original + 1) % P);
    let tampered = temp("tampered.json");
    std::fs::write(&tampered, file.to_string()).unwrap();
    let out = aurum(&["verify", "--proof", tampered.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("does not match the commitment"),
        "{}",
        stdout(&out)
    );
    file["opening"]["rows"][0].as_array_mut().unwrap().pop();
    std::fs::write(&tampered, file.to_string()).unwrap();
    let out = aurum(&["verify", "--proof", tampered.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("width 6"), "{}", stdout(&out));

    // Malformed proof files are errors, not panics.
    for bad in ["", "{", "{\"preset\":\"poseidon2-w8\"}", "[1,2,3]"] {
        std::fs::write(&tampered, bad).unwrap();
        let out = aurum(&["verify", "--proof", tampered.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("not a valid proof file"),
            "{}",
            stderr(&out)
        );
    }
    // Opening a leaf past the end.
    let out = aurum(&[
        "open", "--rows", "100", "--index", "100", "--out", proof_arg,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
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
