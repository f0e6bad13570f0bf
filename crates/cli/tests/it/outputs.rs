//! Every file the CLI writes (`--out` of commit, open, fri, gen and bench, `--tree`,
//! `bench compare --svg`, `bench import-insn --out-dir`): never over one of the command's
//! inputs (the same path, a hard link or a symbolic link to it), never onto a directory or a
//! special file, never through a planted symbolic link; a missing directory fails before
//! any work; temporaries are removed on errors and Ctrl-C, and those of killed runs by the
//! next run that writes into their directory (docs/cli.md, "Output files").

use std::path::{Path, PathBuf};

use crate::common;

use common::{aurum, aurum_command, refused, stderr, stdout, temp, wait_for_output};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A fresh, empty directory of this test process's temporary directory.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `aurum gen` of `rows` × 8 into `path`: a valid `--input` file (a power-of-two height for
/// `aurum fri`).
fn make_matrix(path: &Path, rows: u64) -> Vec<u8> {
    let out = aurum(&["gen", "--rows", &rows.to_string(), "--out", s(path)]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read(path).unwrap()
}

/// `path` still holds `bytes`.
#[track_caller]
fn intact(path: &Path, bytes: &[u8]) {
    assert!(
        std::fs::read(path).unwrap() == bytes,
        "{} was changed",
        path.display()
    );
}

/// The names of the temporary files (`.aurum-tmp-…`) in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(aurum_cli::files::TEMP_PREFIX))
        .collect()
}

/// `aurum gen --out x && aurum commit --input x --out x` replaced the matrix by a 346-byte
/// commitment, exit 0; so did `--tree x`, `open --out x` and `fri --out x`.
#[test]
fn the_same_path_as_an_input_is_refused_and_the_input_kept() {
    let dir = fresh_dir("out-same-path");
    let x = dir.join("x.bin");
    let bytes = make_matrix(&x, 64);
    let x = s(&x);
    for args in [
        vec!["commit", "--input", x, "--out", x],
        vec!["commit", "--input", x, "--tree", x],
        vec!["commit", "--bytes", x, "--out", x],
        vec!["commit", "--bytes", x, "--tree", x],
        vec!["open", "--input", x, "--index", "0", "--out", x],
        vec!["open", "--bytes", x, "--index", "0", "--out", x],
        vec!["fri", "--input", x, "--params", "testing", "--out", x],
    ] {
        refused(&aurum(&args), &["is the same file as"]);
        intact(Path::new(x), &bytes);
    }
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// `open --tree t --input x --out t` (or `--out x`) wrote the proof over the tree file (or
/// the matrix) it had just read.
#[test]
fn open_from_a_tree_file_never_writes_over_the_tree_or_the_input() {
    let dir = fresh_dir("out-open-tree");
    let x = dir.join("x.bin");
    let t = dir.join("x.aur");
    let matrix = make_matrix(&x, 64);
    let out = aurum(&["commit", "--input", s(&x), "--tree", s(&t)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = std::fs::read(&t).unwrap();
    for target in [&t, &x] {
        let out = aurum(&[
            "open",
            "--tree",
            s(&t),
            "--input",
            s(&x),
            "--index",
            "3",
            "--out",
            s(target),
        ]);
        refused(&out, &["is the same file as"]);
        intact(&x, &matrix);
        intact(&t, &tree);
    }
    // The tree file as the input of a commit that writes it.
    refused(
        &aurum(&["commit", "--bytes", s(&t), "--tree", s(&t)]),
        &["is the same file as"],
    );
    intact(&t, &tree);
}

/// A hard link or a symbolic link to an input is the input: refused as an output, whichever
/// of the two names the input is given by.
#[cfg(unix)]
#[test]
fn links_to_an_input_are_refused() {
    let dir = fresh_dir("out-links");
    let x = dir.join("x.bin");
    let bytes = make_matrix(&x, 64);
    let hard = dir.join("hard.bin");
    let soft = dir.join("soft.bin");
    std::fs::hard_link(&x, &hard).unwrap();
    std::os::unix::fs::symlink("x.bin", &soft).unwrap();
    for (input, output) in [(&x, &hard), (&x, &soft), (&soft, &x), (&hard, &soft)] {
        for args in [
            vec!["commit", "--input", s(input), "--out", s(output)],
            vec!["commit", "--input", s(input), "--tree", s(output)],
            vec![
                "open",
                "--input",
                s(input),
                "--index",
                "1",
                "--out",
                s(output),
            ],
            vec![
                "fri",
                "--input",
                s(input),
                "--params",
                "testing",
                "--out",
                s(output),
            ],
        ] {
            refused(&aurum(&args), &["is the same file as"]);
            intact(&x, &bytes);
            assert!(std::fs::symlink_metadata(&soft).unwrap().is_symlink());
            assert!(std::fs::symlink_metadata(&hard).unwrap().is_file());
        }
    }
}

/// `--out` and `--tree` of one commit naming one file: refused, whether it exists or not,
/// under two spellings of the path or through a link.
#[cfg(unix)]
#[test]
fn two_outputs_of_one_command_must_be_different_files() {
    let dir = fresh_dir("out-two-outputs");
    let x = dir.join("x.bin");
    make_matrix(&x, 64);
    let c = dir.join("c.out");
    let same_c = dir.join(".").join("c.out");
    let commit = |out: &Path, tree: &Path| {
        aurum(&[
            "commit",
            "--input",
            s(&x),
            "--out",
            s(out),
            "--tree",
            s(tree),
        ])
    };
    refused(&commit(&c, &c), &["is the same file as"]);
    refused(&commit(&c, &same_c), &["is the same file as"]);
    assert!(!c.exists());
    std::fs::write(&c, b"kept").unwrap();
    let link = dir.join("link.out");
    std::os::unix::fs::symlink("c.out", &link).unwrap();
    refused(&commit(&c, &same_c), &["is the same file as"]);
    refused(&commit(&link, &c), &["is the same file as"]);
    intact(&c, b"kept");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// The shipped record `crates/bench/records/NAME`, copied into `dir`.
fn record_copy(dir: &Path, name: &str) -> PathBuf {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/records");
    let copy = dir.join(name);
    std::fs::copy(shipped.join(name), &copy).unwrap();
    copy
}

/// `bench compare r.json --svg r.json` drew the chart over the record it compared.
#[cfg(unix)]
#[test]
fn bench_compare_never_draws_over_a_record() {
    let dir = fresh_dir("out-compare");
    let record = record_copy(&dir, "aarch64-qemu-neon.json");
    let bytes = std::fs::read(&record).unwrap();
    let link = dir.join("chart.svg");
    std::os::unix::fs::symlink("aarch64-qemu-neon.json", &link).unwrap();
    for svg in [&record, &link] {
        refused(
            &aurum(&["bench", "compare", s(&record), "--svg", s(svg)]),
            &["is the same file as"],
        );
        intact(&record, &bytes);
    }
}

/// `bench import-insn` writes `ARCH-qemu-COLUMN.json` into `--out-dir`: never over its
/// counts or its table.
#[test]
fn import_insn_never_writes_over_its_inputs() {
    let dir = fresh_dir("out-import");
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/records/arm-instructions/counts.csv");
    // The counts under the name of the record they make.
    let counts = dir.join("aarch64-qemu-neon.json");
    std::fs::copy(&shipped, &counts).unwrap();
    let bytes = std::fs::read(&counts).unwrap();
    refused(
        &aurum(&[
            "bench",
            "import-insn",
            s(&counts),
            "--columns",
            "neon",
            "--out-dir",
            s(&dir),
        ]),
        &["is the same file as"],
    );
    intact(&counts, &bytes);
    // The table under that name.
    let table = dir.join("aarch64-qemu-sve2-128.json");
    std::fs::write(&table, "# a table\n").unwrap();
    refused(
        &aurum(&[
            "bench",
            "import-insn",
            s(&shipped),
            "--table",
            s(&table),
            "--columns",
            "neon,sve2-128",
            "--out-dir",
            s(&dir),
        ]),
        &["is the same file as"],
    );
    intact(&table, b"# a table\n");
    // Nothing was written, not even the record that was not in the way (over the first
    // case's counts, not an input this time).
    intact(&counts, &bytes);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `--out` onto a device (here a link to /dev/null: as root, `aurum gen --out /dev/null`
/// replaced /dev/null), a FIFO or a directory is refused, before any work.
#[cfg(unix)]
#[test]
fn special_files_and_directories_are_refused() {
    use std::os::unix::fs::FileTypeExt;
    let dir = fresh_dir("out-special");
    let x = dir.join("x.bin");
    make_matrix(&x, 64);
    let null = dir.join("null");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    for (target, needle) in [
        (&null, "not a regular file"),
        (&fifo, "not a regular file"),
        (&sub, "is a directory"),
    ] {
        let t = s(target);
        for args in [
            vec!["gen", "--rows", "4", "--out", t],
            vec!["commit", "--rows", "64", "--out", t],
            vec!["commit", "--input", s(&x), "--tree", t],
            vec!["open", "--rows", "64", "--index", "0", "--out", t],
            vec!["fri", "--rows", "64", "--params", "testing", "--out", t],
            vec!["bench", "--smoke", "--label", "special", "--out", t],
        ] {
            let out = aurum(&args);
            refused(&out, &[needle]);
            assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        }
    }
    assert_eq!(
        std::fs::read_link(&null).unwrap(),
        Path::new("/dev/null"),
        "the link to /dev/null is kept"
    );
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(sub.is_dir());
    assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 0);
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// The decision for a symbolic link at the destination itself (not an input, not a special
/// file): the link is replaced by the new regular file, as `mv` would; the file it pointed to
/// is never written.
#[cfg(unix)]
#[test]
fn a_symbolic_link_at_the_destination_is_replaced_and_its_target_untouched() {
    let dir = fresh_dir("out-dest-link");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    for (i, args) in [
        vec!["--rows", "64", "--out"],
        vec!["gen", "--rows", "4", "--out"],
    ]
    .into_iter()
    .enumerate()
    {
        let link = dir.join(format!("link{i}"));
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let mut args = args;
        args.push(s(&link));
        let out = aurum(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(meta.is_file(), "the link is replaced by a regular file");
        assert!(meta.len() > 0);
        intact(&victim, b"victim");
    }
    // A dangling link: replaced too, and nothing is created where it pointed.
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
    let out = aurum(&["--rows", "64", "--out", s(&dangling)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&dangling).unwrap().is_file());
    assert!(!dir.join("nowhere").exists());
}

/// The old temporary names were predictable (`.NAME.PID.tmp`) and opened without
/// exclusive creation: a symbolic link planted under the name of the next process made
/// Aurum write through it. `exec` keeps the shell's PID, so the link is planted under the
/// very name that process would have used.
#[cfg(unix)]
#[test]
fn a_link_planted_under_a_temporary_name_is_not_followed() {
    let dir = fresh_dir("out-planted");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    let aurum_program = aurum_command();
    let mut program: Vec<&std::ffi::OsStr> = vec![aurum_program.get_program()];
    program.extend(aurum_program.get_args());
    for (out_name, args) in [
        ("c.json", vec!["--rows", "64", "--out", "c.json"]),
        ("m.bin", vec!["gen", "--rows", "4", "--out", "m.bin"]),
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ln -s victim .{out_name}.$$.tmp && exec \"$@\""))
            .arg("sh")
            .args(&program)
            .args(&args)
            .current_dir(&dir)
            .env_remove("AURUM_BACKEND")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        intact(&victim, b"victim");
        let written = std::fs::symlink_metadata(dir.join(out_name)).unwrap();
        assert!(written.is_file() && written.len() > 0);
    }
}

/// A file of one row of 8 values whose first is ≥ p: reading it fails at once, so an error
/// about the output proves the output was checked first.
fn bad_input(dir: &Path) -> PathBuf {
    let bad = dir.join("bad.bin");
    let mut bytes = u64::MAX.to_le_bytes().to_vec();
    bytes.resize(64, 0);
    std::fs::write(&bad, bytes).unwrap();
    bad
}

/// A 10-minute commit into a missing directory lost its result at the end: every output is
/// checked before the work (here: before reading an input that would fail, or before the
/// whole `bench` suite).
#[test]
fn a_missing_output_directory_fails_before_any_work() {
    let dir = fresh_dir("out-missing");
    let bad = bad_input(&dir);
    let missing = dir.join("missing");
    let m = |name: &str| missing.join(name).to_str().unwrap().to_string();
    let (c, t, p, f, b, svg) = (
        m("c.json"),
        m("t.aur"),
        m("p.json"),
        m("f.json"),
        m("b.json"),
        m("c.svg"),
    );
    let record = record_copy(&dir, "aarch64-qemu-neon.json");
    let counts =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/records/arm-instructions/counts.csv");
    for args in [
        vec!["commit", "--input", s(&bad), "--out", &c],
        vec!["commit", "--input", s(&bad), "--tree", &t],
        vec!["open", "--input", s(&bad), "--index", "0", "--out", &p],
        vec!["fri", "--input", s(&bad), "--rows", "1", "--out", &f],
        vec!["gen", "--rows", "4", "--out", &c],
        vec!["bench", "--smoke", "--label", "missing", "--out", &b],
        vec!["bench", "compare", s(&record), "--svg", &svg],
        vec![
            "bench",
            "import-insn",
            s(&counts),
            "--columns",
            "neon",
            "--out-dir",
            missing.to_str().unwrap(),
        ],
    ] {
        let out = aurum(&args);
        refused(&out, &["does not exist"]);
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }
    assert!(!missing.exists());
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// A run killed with SIGKILL leaves its temporary (`.aurum-tmp-PID-…`); the next run writing
/// into that directory removes it once no process has that PID, and never the temporary of
/// a live process or of another machine.
#[cfg(target_os = "linux")]
#[test]
fn stale_temporaries_are_removed_and_live_ones_kept() {
    use aurum_cli::files::temp_prefix;
    let dir = fresh_dir("out-stale");
    // A PID that no process has any more: a child's, once it has been waited for.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    assert!(!Path::new(&format!("/proc/{dead}")).exists());
    let stale = dir.join(format!("{}AbCdEf", temp_prefix(dead)));
    let live = dir.join(format!("{}AbCdEf", temp_prefix(std::process::id())));
    // A dead PID of another machine or PID namespace (another tag): not ours to judge.
    let foreign = dir.join(format!(
        "{}{dead}-0123456789abcdef-AbCdEf",
        aurum_cli::files::TEMP_PREFIX
    ));
    let odd = dir.join(format!("{}not-a-pid", aurum_cli::files::TEMP_PREFIX));
    for path in [&stale, &live, &foreign, &odd] {
        std::fs::write(path, b"partial").unwrap();
    }
    let out = aurum(&["gen", "--rows", "4", "--out", s(&dir.join("m.bin"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stale.exists(), "the dead writer's temporary is removed");
    assert!(live.exists(), "a live process's temporary is kept");
    assert!(foreign.exists() && odd.exists());
    // Only in the directory written to.
    let other = fresh_dir("out-stale-other");
    let stale = other.join(format!("{}AbCdEf", temp_prefix(dead)));
    std::fs::write(&stale, b"partial").unwrap();
    let out = aurum(&["gen", "--rows", "4", "--out", s(&dir.join("m.bin"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stale.exists());
}

/// The reproduction: a SIGKILLed `aurum gen` leaves its hidden temporary (as large as the
/// output); the next run writing into that directory removes it.
#[cfg(target_os = "linux")]
#[test]
fn the_temporary_of_a_killed_run_is_removed_by_the_next_run() {
    let dir = fresh_dir("out-killed");
    let out = dir.join("big.bin");
    // 1 GiB if nothing stopped it; killed as soon as its temporary file has data.
    let mut child = aurum_command()
        .args([
            "gen",
            "--rows",
            "134217728",
            "--cols",
            "1",
            "--out",
            s(&out),
        ])
        .env_remove("AURUM_BACKEND")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_output(&mut child, &dir);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let left = temporaries(&dir);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        left[0].starts_with(&aurum_cli::files::temp_prefix(child.id())),
        "{left:?} names its writer"
    );
    assert!(!out.exists());
    let next = aurum(&["gen", "--rows", "4", "--out", s(&dir.join("small.bin"))]);
    assert!(next.status.success(), "{}", stderr(&next));
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
}

/// Ctrl-C (SIGINT) in the middle of a commit removes the temporaries of both its outputs,
/// which now exist from the start.
#[cfg(unix)]
#[test]
fn an_interrupted_commit_leaves_no_temporary() {
    let dir = fresh_dir("out-interrupted");
    let x = dir.join("x.bin");
    make_matrix(&x, 1 << 19);
    let mut child = aurum_command()
        .args(["commit", "--threads", "1", "--input", s(&x)])
        .args([
            "--out",
            s(&dir.join("c.json")),
            "--tree",
            s(&dir.join("t.aur")),
        ])
        .env_remove("AURUM_BACKEND")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while temporaries(&dir).len() < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the commit ended before it could be interrupted"
        );
        assert!(
            started.elapsed().as_secs() < 120,
            "no temporaries after 2 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["x.bin"]);
}

/// Outputs get the permissions of any new file (0666 less the umask), not the 0600 of a
/// private temporary file.
#[cfg(unix)]
#[test]
fn outputs_have_the_permissions_of_a_new_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh_dir("out-mode");
    let reference = dir.join("reference");
    std::fs::File::create(&reference).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let x = dir.join("x.bin");
    make_matrix(&x, 64);
    let (c, t) = (dir.join("c.json"), dir.join("t.aur"));
    let out = aurum(&["commit", "--input", s(&x), "--out", s(&c), "--tree", s(&t)]);
    assert!(out.status.success(), "{}", stderr(&out));
    for path in [&x, &c, &t] {
        assert_eq!(mode(path), mode(&reference), "{}", path.display());
    }
}

/// Neither a success nor an error after the temporaries were created leaves one behind.
#[test]
fn runs_leave_no_temporary_behind() {
    let dir = fresh_dir("out-no-temporary");
    let x = dir.join("x.bin");
    make_matrix(&x, 64);
    let (c, t, p) = (dir.join("c.json"), dir.join("t.aur"), dir.join("p.json"));
    let out = aurum(&["commit", "--input", s(&x), "--out", s(&c), "--tree", s(&t)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = aurum(&[
        "open",
        "--tree",
        s(&t),
        "--input",
        s(&x),
        "--index",
        "5",
        "--out",
        s(&p),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bad = bad_input(&dir);
    refused(
        &aurum(&[
            "commit",
            "--input",
            s(&bad),
            "--out",
            s(&c),
            "--tree",
            s(&t),
        ]),
        &["row 0, column 0"],
    );
    refused(
        &aurum(&["fri", "--input", s(&bad), "--rows", "1", "--out", s(&p)]),
        &[""],
    );
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.bin", "c.json", "p.json", "t.aur", "x.bin"]);
}
