//! Hostile inputs: what is not a regular file (a FIFO with no writer, a directory, a device)
//! is refused at once as a matrix, proof, commitment, tree file or bench record, never read
//! and never waited on; what is read stops where the file's size or the statement says; the
//! proof-of-work bits `aurum fri` would grind are bounded; and an allocation that fails is a
//! one-line error with exit status 2, not an abort.
//!
//! Every run here has a deadline: a regression (a blocking `open()`, an endless read, an
//! endless grind) fails the test instead of hanging it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{aurum, aurum_command, refused, stderr, temp};

/// How long a refused input may take: it is refused before anything is read (milliseconds),
/// but the test machine may be loaded; a blocked or endless run is killed at this deadline.
const DEADLINE: Duration = Duration::from_secs(20);

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `command` with its output captured, killing it (and failing the test) if it is still
/// running after `limit`.
#[track_caller]
fn run_with_deadline(mut command: Command, limit: Duration) -> Output {
    let what = format!("{command:?}");
    let mut child = command
        .env_remove("AURUM_BACKEND")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = Vec::new();
            let mut err = Vec::new();
            child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
            child.stderr.take().unwrap().read_to_end(&mut err).unwrap();
            return Output {
                status,
                stdout: out,
                stderr: err,
            };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} was still running after {limit:?}: it blocks or does not stop");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `aurum ARGS` with the deadline.
#[track_caller]
fn aurum_with_deadline(args: &[&str]) -> Output {
    let mut command = aurum_command();
    command.args(args);
    run_with_deadline(command, DEADLINE)
}

/// A FIFO nobody writes to (`mkfifo`; the CLI and its tests use no `unsafe`).
fn fifo(name: &str) -> PathBuf {
    let path = temp(name);
    let _ = std::fs::remove_file(&path);
    let status = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
    path
}

/// A small genuine input, its commitment file, tree file and proof file.
struct Genuine {
    input: PathBuf,
    commitment: PathBuf,
    tree: PathBuf,
    proof: PathBuf,
}

fn genuine(tag: &str) -> Genuine {
    let input = temp(&format!("{tag}.bin"));
    let commitment = temp(&format!("{tag}-commit.json"));
    let tree = temp(&format!("{tag}.aur"));
    let proof = temp(&format!("{tag}-proof.json"));
    let ok = |out: Output| assert!(out.status.success(), "{}", stderr(&out));
    ok(aurum(&[
        "gen",
        "--rows",
        "64",
        "--cols",
        "4",
        "--out",
        path_str(&input),
    ]));
    ok(aurum(&[
        "commit",
        "--input",
        path_str(&input),
        "--cols",
        "4",
        "--out",
        path_str(&commitment),
        "--tree",
        path_str(&tree),
    ]));
    ok(aurum(&[
        "open",
        "--input",
        path_str(&input),
        "--cols",
        "4",
        "--index",
        "3",
        "--out",
        path_str(&proof),
    ]));
    Genuine {
        input,
        commitment,
        tree,
        proof,
    }
}

/// A root in the `--root` format (its value does not matter to the tests that use it: the
/// input is refused before any check).
const ZERO_ROOT: &str =
    "0x0000000000000000,0x0000000000000000,0x0000000000000000,0x0000000000000000";

/// Every command that reads `path` as one of its inputs, with the other inputs genuine.
fn every_reader_of(path: &Path, g: &Genuine) -> Vec<Vec<String>> {
    let p = path_str(path);
    let input = path_str(&g.input);
    let commitment = path_str(&g.commitment);
    let proof = path_str(&g.proof);
    let tree = path_str(&g.tree);
    let out = temp("refused-out.json");
    let out = path_str(&out);
    let runs: Vec<Vec<&str>> = vec![
        // Matrices.
        vec!["commit", "--input", p, "--cols", "4"],
        vec!["commit", "--bytes", p, "--cols", "4"],
        vec!["commit", "--input", p, "--cols", "4", "--tree", out],
        vec![
            "open", "--input", p, "--cols", "4", "--index", "0", "--out", out,
        ],
        vec![
            "open", "--bytes", p, "--cols", "4", "--index", "0", "--out", out,
        ],
        vec![
            "open", "--tree", tree, "--input", p, "--index", "0", "--out", out,
        ],
        vec!["fri", "--input", p, "--cols", "4", "--params", "testing"],
        // Proofs and commitments.
        vec!["verify", "--proof", p, "--commitment", commitment],
        vec![
            "verify",
            "--proof",
            p,
            "--root",
            ZERO_ROOT,
            "--preset",
            "poseidon2-w8",
            "--rows",
            "64",
            "--cols",
            "4",
        ],
        vec!["verify", "--proof", proof, "--commitment", p],
        vec![
            "fri", "verify", "--proof", p, "--root", ZERO_ROOT, "--params", "testing", "--rows",
            "1024", "--cols", "4",
        ],
        // Tree files.
        vec![
            "open", "--tree", p, "--input", input, "--index", "0", "--out", out,
        ],
        // Bench records and counts.
        vec!["bench", "compare", p],
        vec!["bench", "import-insn", p, "--out-dir", out],
    ];
    runs.into_iter()
        .map(|run| run.into_iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn a_fifo_without_a_writer_is_refused_as_every_input() {
    let g = genuine("fifo");
    let fifo = fifo("no-writer.fifo");
    for run in every_reader_of(&fifo, &g) {
        let args: Vec<&str> = run.iter().map(String::as_str).collect();
        // Refused before any read: no writer is waited for (a blocked run fails the test at
        // the deadline).
        let out = aurum_with_deadline(&args);
        refused(&out, &[path_str(&fifo), "is a FIFO, not a regular file"]);
    }
}

#[test]
fn directories_and_devices_are_refused_as_inputs() {
    let g = genuine("special");
    let dir = temp("a-directory");
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&Path, &str); 3] = [
        (&dir, "is a directory, not a regular file"),
        (
            Path::new("/dev/zero"),
            "is a character device, not a regular file",
        ),
        (
            Path::new("/dev/null"),
            "is a character device, not a regular file",
        ),
    ];
    for (path, what) in cases {
        for run in every_reader_of(path, &g) {
            let args: Vec<&str> = run.iter().map(String::as_str).collect();
            let out = aurum_with_deadline(&args);
            refused(&out, &[path_str(path), what]);
        }
    }
    // A link to a special file is what it points to.
    let link = temp("zero-link");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let out = aurum_with_deadline(&["commit", "--bytes", path_str(&link)]);
    refused(&out, &["is a character device, not a regular file"]);
}

/// `aurum open --bytes /dev/zero` once read without bound (it was OOM-killed at 23 GB within
/// a minute); `commit` stopped the same source. Both stop now, at once.
#[test]
fn open_of_an_unbounded_source_stops() {
    let out = temp("zero-open.json");
    for command in ["open", "commit"] {
        let mut args = vec![command, "--bytes", "/dev/zero", "--cols", "4"];
        if command == "open" {
            args.extend(["--index", "0", "--out", path_str(&out)]);
        }
        let out = aurum_with_deadline(&args);
        refused(&out, &["/dev/zero"]);
    }
    assert!(!out.exists());
}

/// Proof of work above 32 bits is refused before any work (`--query-pow-bits 63` ground for
/// ever); 32 is the bound docs/cli.md documents.
#[test]
fn fri_proof_of_work_above_the_bound_is_refused() {
    for flag in ["--batch-pow-bits", "--commit-pow-bits", "--query-pow-bits"] {
        for bits in ["33", "40", "63", "64"] {
            let out = aurum_with_deadline(&[
                "fri", "--params", "testing", "--rows", "64", "--cols", "2", flag, bits,
            ]);
            refused(&out, &[&format!("{flag} {bits}"), "at most 32"]);
        }
    }
    // Small proof of work still runs, and verifies.
    let out = aurum_with_deadline(&[
        "fri",
        "--params",
        "testing",
        "--rows",
        "64",
        "--cols",
        "2",
        "--batch-pow-bits",
        "2",
        "--commit-pow-bits",
        "3",
        "--query-pow-bits",
        "4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Runs `aurum ARGS` under an address-space limit of `kib` KiB (`ulimit -v` in a shell that
/// then execs the binary), with `env` set.
fn aurum_under_address_limit(kib: u64, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_aurum"))
        .args(args)
        .envs(env.iter().copied());
    run_with_deadline(command, Duration::from_secs(120))
}

/// Allocations past the address space are errors: "not enough memory for WHAT: needs N MiB"
/// and exit status 2, where the tree's digest layers and the FRI LDE used to abort (status
/// 134, "memory allocation of N bytes failed"). Native only: qemu user emulation reserves
/// address space of its own (scripts/heavy-tests.sh skips it there, and at opt-level 0).
#[test]
fn allocation_failures_under_a_limited_address_space_are_errors() {
    // The reproduction, as it was run: whatever allocation fails first, it is reported.
    let out = aurum_under_address_limit(900_000, &[], &["--rows", "8388608"]);
    refused(&out, &["not enough memory for ", " MiB"]);
    // Which allocation fails, with one malloc arena (glibc reserves 64 MiB of address space
    // for each further one, as threads happen to need them) and two threads: the process
    // itself takes under 30 MiB, so the margins below are wide.
    let env = [("MALLOC_ARENA_MAX", "1")];
    // A tall single column: its 128 MiB fit in 390 MiB, its 512 MiB of leaf digests do not.
    let out = aurum_under_address_limit(
        400_000,
        &env,
        &["--rows", "16777216", "--cols", "1", "--threads", "2"],
    );
    refused(
        &out,
        &["not enough memory for the Merkle tree's digests: needs 512 MiB"],
    );
    // FRI: the 128 MiB matrix fits in 215 MiB, its LDE (grown to 256 MiB in place) does not.
    let out = aurum_under_address_limit(
        220_000,
        &env,
        &["fri", "--rows", "262144", "--cols", "64", "--threads", "2"],
    );
    refused(&out, &["not enough memory for the LDE: needs 256 MiB"]);
    // The same limits leave enough for ordinary runs.
    for args in [
        &["--rows", "4096", "--threads", "2"][..],
        &["fri", "--rows", "4096", "--cols", "64", "--threads", "2"],
    ] {
        let out = aurum_under_address_limit(220_000, &env, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
}
