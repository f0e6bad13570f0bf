//! The `aurum` binary end to end: commit (generated, u64 file, bytes file), open, verify, and
//! clear errors with a non-zero exit for bad input.

use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::{Matrix, MerkleTree, config};

use crate::common;

use common::{aurum, aurum_command, json, stderr, stdout, temp, wait_for_output};

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
    wait_for_output(&mut child, &dir);
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

/// `aurum info` shows each permutation's batch size on the selected backend: measured (one of
/// 1, 2, 4, with a time per state at each) or forced by `AURUM_BATCH`.
#[test]
fn info_shows_the_batch_sizes() {
    let rows = |out: &std::process::Output| -> Vec<Vec<String>> {
        assert!(out.status.success(), "{}", stderr(out));
        let text = stdout(out);
        [
            "poseidon2-w8",
            "poseidon2-w12",
            "poseidon2-w16",
            "poseidon (plonky2) w12",
        ]
        .iter()
        .map(|name| {
            let line = text
                .lines()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("no row for {name}:\n{text}"));
            line[name.len()..]
                .split_whitespace()
                .map(str::to_string)
                .collect()
        })
        .collect()
    };
    let measured = aurum(&["info", "--millis", "1"]);
    for row in rows(&measured) {
        // Where the backend runs its own kernel (SVE) there are no batches.
        if row[0] == "-" {
            continue;
        }
        assert!(["1", "2", "4"].contains(&row[0].as_str()), "{row:?}");
        for ns in &row[1..4] {
            assert!(ns.parse::<f64>().unwrap() > 0.0, "{row:?}");
        }
        assert_eq!(row[5], "ms", "{row:?}");
    }
    let forced = aurum_command()
        .args(["info", "--millis", "1"])
        .env_remove("AURUM_BACKEND")
        .env("AURUM_BATCH", "4")
        .output()
        .unwrap();
    for row in rows(&forced) {
        if row[0] == "-" {
            continue;
        }
        assert_eq!(row[..2], ["4", "(forced"], "{row:?}");
    }
}

/// A reader that closes the pipe early (`aurum info | head -1`) ends `aurum` quietly, with the
/// status a shell reports for SIGPIPE, not a panic.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let mut child = aurum_command()
        .args(["info", "--millis", "1"])
        .env_remove("AURUM_BACKEND")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before `aurum` prints its first line.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}
