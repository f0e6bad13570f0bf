//! `aurum commit --tree` and `aurum open --tree` end to end: the proof file equals the one
//! `aurum open` makes from the whole input, for every preset, `--input` and `--bytes`, cap
//! heights and dropped layers, and `aurum verify` accepts it; a tree file that does not match
//! the input, a damaged one and bad requests are one-line errors with exit status 2.

use std::path::{Path, PathBuf};
use std::process::Output;

use aurum_goldilocks::P;

use crate::common;

use common::{aurum, json, stderr, stdout, temp};

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A u64 input file of `rows × cols` values below p.
fn u64_file(name: &str, rows: usize, cols: usize, seed: u64) -> PathBuf {
    let path = temp(name);
    let bytes: Vec<u8> = (0..(rows * cols) as u64)
        .flat_map(|i| {
            ((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed)
                .checked_rem(P)
                .unwrap()
                .to_le_bytes()
        })
        .collect();
    std::fs::write(&path, bytes).unwrap();
    path
}

#[track_caller]
fn failed(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stdout(out));
    let err = stderr(out);
    assert!(err.contains(needle), "expected {needle:?} in {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
}

/// No temporary file of a run that ended is left in `path`'s directory (tests run in
/// parallel there: the temporaries of live runs are theirs).
fn no_temp_files_next_to(path: &Path) {
    let ended = |name: &str| {
        let pid = name
            .strip_prefix(aurum_cli::files::TEMP_PREFIX)
            .and_then(|rest| rest.split('-').next())
            .unwrap_or_default();
        !Path::new("/proc/self").exists() || !Path::new("/proc").join(pid).exists()
    };
    let prefix = format!(".{}", path.file_name().unwrap().to_str().unwrap());
    let dir = path.parent().unwrap();
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| {
            n.starts_with(&prefix) || (n.starts_with(aurum_cli::files::TEMP_PREFIX) && ended(n))
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Commits `input` with a tree file, opens leaves from it, and compares with plain `open`.
fn round_trip(input_flag: &str, input: &Path, cols: usize, preset: &str, cap: usize, drop: usize) {
    let tag = format!(
        "{preset}-{cols}-c{cap}-k{drop}-{}",
        input_flag.trim_start_matches('-')
    );
    let tree = temp(&format!("{tag}.aur"));
    let commitment = temp(&format!("{tag}.json"));
    let (cols_s, cap_s, drop_s) = (cols.to_string(), cap.to_string(), drop.to_string());
    let base = [
        input_flag,
        path_str(input),
        "--cols",
        &cols_s,
        "--preset",
        preset,
        "--cap-height",
        &cap_s,
    ];
    let mut commit = vec!["commit"];
    commit.extend(base);
    commit.extend([
        "--tree",
        path_str(&tree),
        "--tree-drop",
        &drop_s,
        "--json",
        "--out",
        path_str(&commitment),
    ]);
    let report = json(&aurum(&commit));
    assert_eq!(report["tree"]["path"], path_str(&tree));
    assert_eq!(report["tree"]["dropped"], drop);
    let size = std::fs::metadata(&tree).unwrap().len();
    assert_eq!(report["tree"]["bytes"], size);
    // The same root as without --tree.
    let mut plain = vec!["commit"];
    plain.extend(base);
    plain.push("--json");
    assert_eq!(json(&aurum(&plain))["root"], report["root"], "{tag}");
    no_temp_files_next_to(&tree);

    let rows = report["rows"].as_u64().unwrap() as usize;
    for index in [0, rows / 3, rows - 1] {
        let index_s = index.to_string();
        let from_tree = temp(&format!("{tag}-{index}-tree.json"));
        let from_input = temp(&format!("{tag}-{index}-input.json"));
        // Preset, columns and cap height come from the tree file.
        let out = aurum(&[
            "open",
            "--tree",
            path_str(&tree),
            input_flag,
            path_str(input),
            "--index",
            &index_s,
            "--out",
            path_str(&from_tree),
        ]);
        assert!(out.status.success(), "{tag}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("from the tree file"),
            "{}",
            stdout(&out)
        );
        let mut open = vec!["open"];
        open.extend(base);
        open.extend(["--index", &index_s, "--out", path_str(&from_input)]);
        let out = aurum(&open);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            std::fs::read_to_string(&from_tree).unwrap(),
            std::fs::read_to_string(&from_input).unwrap(),
            "{tag}, leaf {index}"
        );
        let out = aurum(&[
            "verify",
            "--proof",
            path_str(&from_tree),
            "--commitment",
            path_str(&commitment),
            "--index",
            &index_s,
        ]);
        assert!(out.status.success(), "{tag}: {}", stdout(&out));
        // Another cap height than the tree's, given explicitly: the proof of that cap.
        if cap > 0 {
            let out = aurum(&[
                "open",
                "--tree",
                path_str(&tree),
                input_flag,
                path_str(input),
                "--index",
                &index_s,
                "--cap-height",
                "0",
                "--out",
                path_str(&from_tree),
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            let proof: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&from_tree).unwrap()).unwrap();
            assert_eq!(proof["cap_height"], 0);
            assert_eq!(proof["commitment"]["cap"].as_array().unwrap().len(), 1);
        }
        std::fs::remove_file(&from_tree).unwrap();
        std::fs::remove_file(&from_input).unwrap();
    }
    std::fs::remove_file(&tree).unwrap();
    std::fs::remove_file(&commitment).unwrap();
}

#[test]
fn openings_from_the_tree_file_equal_plain_openings_for_every_preset() {
    let presets = [
        "poseidon2-w8",
        "poseidon2-w12",
        "poseidon2-w16",
        "plonky2",
        "polygon",
    ];
    // (rows, cols, cap height, dropped layers): heights 1, a power of two and others.
    let shapes = [
        (1, 3, 0, 0),
        (37, 4, 1, 2),
        (64, 5, 2, 3),
        (100, 2, 0, 7),
        (300, 7, 3, 4),
    ];
    for (p, preset) in presets.into_iter().enumerate() {
        for (s, &(rows, cols, cap, drop)) in shapes.iter().enumerate() {
            if (p + s) % 2 == 1 && rows != 1 {
                continue; // Half of the pairs (each preset sees several shapes).
            }
            let input = u64_file(&format!("in-{preset}-{rows}.bin"), rows, cols, p as u64);
            round_trip("--input", &input, cols, preset, cap, drop);
            std::fs::remove_file(&input).unwrap();
        }
    }
    // Any file, 7 bytes per element with its end marker: the last block reaches past the
    // file's end.
    let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
    let input = temp("any.dat");
    std::fs::write(&input, &bytes).unwrap();
    round_trip("--bytes", &input, 3, "poseidon2-w8", 1, 3);
    round_trip("--bytes", &input, 5, "plonky2", 0, 0);
    std::fs::remove_file(&input).unwrap();
}

#[test]
fn mismatched_damaged_and_bad_requests_are_clear_errors() {
    let (rows, cols) = (200, 4);
    let input = u64_file("base.bin", rows, cols, 1);
    let tree = temp("base.aur");
    let out = aurum(&[
        "commit",
        "--input",
        path_str(&input),
        "--cols",
        "4",
        "--tree",
        path_str(&tree),
        "--tree-drop",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("tree file:"), "{}", stdout(&out));
    let open = |tree: &Path, input: &Path, index: &str, extra: &[&str]| {
        let proof = temp("mismatch-proof.json");
        let mut args = vec![
            "open",
            "--tree",
            path_str(tree),
            "--input",
            path_str(input),
            "--index",
            index,
            "--out",
            path_str(&proof),
        ];
        args.extend(extra);
        aurum(&args)
    };
    assert!(open(&tree, &input, "5", &[]).status.success());

    // Another input of the same shape: the block's rows do not hash to the tree's node.
    let mut other = std::fs::read(&input).unwrap();
    other[8 * (cols * 6 + 1)] ^= 1; // row 6, column 1
    let changed = temp("changed.bin");
    std::fs::write(&changed, &other).unwrap();
    failed(&open(&tree, &changed, "5", &[]), "does not match the tree");
    // Rows outside the changed block still open (and verify: the tree is the same).
    assert!(open(&tree, &changed, "100", &[]).status.success());
    // Another shape or length.
    let shorter = u64_file("shorter.bin", rows - 1, cols, 1);
    failed(
        &open(&tree, &shorter, "5", &[]),
        "does not match the tree file",
    );
    let longer = u64_file("longer.bin", rows + 4, cols, 1);
    failed(
        &open(&tree, &longer, "5", &[]),
        "does not match the tree file",
    );
    // Flags that disagree with the tree file.
    failed(
        &open(&tree, &input, "5", &["--preset", "plonky2"]),
        "--preset plonky2 differs from the tree file",
    );
    failed(
        &open(&tree, &input, "5", &["--cols", "8"]),
        "--cols 8 differs from the tree file",
    );
    // The commitment's layers dropped: that cap is not in the tree file.
    failed(
        &open(&tree, &input, "5", &["--cap-height", "7"]),
        "cap height 7 is not available",
    );
    // An index out of range.
    failed(
        &open(&tree, &input, "200", &[]),
        "leaf index 200 is out of range",
    );
    // A truncated, a foreign and a damaged tree file.
    let good = std::fs::read(&tree).unwrap();
    let cut = temp("cut.aur");
    for len in [0, 7, 100, good.len() / 2, good.len() - 1] {
        std::fs::write(&cut, &good[..len]).unwrap();
        failed(&open(&cut, &input, "5", &[]), "truncated");
    }
    std::fs::write(&cut, std::fs::read(&input).unwrap()).unwrap();
    failed(&open(&cut, &input, "5", &[]), "not an aurum tree file");
    let mut damaged = good.clone();
    damaged[50] ^= 1; // the width, under the header checksum
    std::fs::write(&cut, &damaged).unwrap();
    failed(&open(&cut, &input, "5", &[]), "header is damaged");
    // A damaged digest on leaf 5's path: its sibling at level 2 (the first stored level) is
    // position 0 there.
    let mut damaged = good.clone();
    let header_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    damaged[header_len] ^= 1;
    std::fs::write(&cut, &damaged).unwrap();
    failed(&open(&cut, &input, "5", &[]), "do not lead to its root");
    // No input at all.
    let out = aurum(&[
        "open",
        "--tree",
        path_str(&tree),
        "--index",
        "5",
        "--out",
        path_str(&temp("x.json")),
    ]);
    failed(&out, "needs the --input");
    for path in [&changed, &shorter, &longer, &cut, &tree, &input] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn a_failed_commit_leaves_no_tree_file() {
    let tree = temp("never.aur");
    // The generated matrix: refused (an opening reads rows back from the input file).
    failed(
        &aurum(&["commit", "--rows", "64", "--tree", path_str(&tree)]),
        "--tree needs --input or --bytes",
    );
    // The commitment's cap would be dropped.
    let input = u64_file("drop.bin", 64, 2, 3);
    failed(
        &aurum(&[
            "commit",
            "--input",
            path_str(&input),
            "--cols",
            "2",
            "--cap-height",
            "3",
            "--tree",
            path_str(&tree),
            "--tree-drop",
            "4",
        ]),
        "would not be stored",
    );
    // A value ≥ p in the last row: the commit fails after writing most of the layers.
    let mut bytes = std::fs::read(&input).unwrap();
    let at = bytes.len() - 8;
    bytes[at..].copy_from_slice(&P.to_le_bytes());
    std::fs::write(&input, &bytes).unwrap();
    failed(
        &aurum(&[
            "commit",
            "--input",
            path_str(&input),
            "--cols",
            "2",
            "--tree",
            path_str(&tree),
        ]),
        "row 63, column 1",
    );
    assert!(!tree.exists());
    no_temp_files_next_to(&tree);
    // --tree-drop needs --tree.
    let out = aurum(&["commit", "--input", path_str(&input), "--tree-drop", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--tree"), "{}", stderr(&out));
    std::fs::remove_file(&input).unwrap();
}
