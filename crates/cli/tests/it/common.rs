//! Running the `aurum` binary from the CLI's integration tests.

#![allow(dead_code)] // Each test crate uses its own subset.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

/// The `aurum` binary as a command. Cross-tests (scripts/test-aarch64.sh) run this test under
/// qemu user emulation, which cannot start another foreign binary by itself: they name the
/// emulator in `AURUM_TEST_RUNNER`.
pub fn aurum_command() -> Command {
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

pub fn aurum(args: &[&str]) -> Output {
    aurum_command()
        .args(args)
        .env_remove("AURUM_BACKEND")
        .env_remove("AURUM_BATCH")
        .env_remove("AURUM_HUGE_PAGES")
        .env_remove("AURUM_DEVICE")
        .output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn temp(name: &str) -> PathBuf {
    static FRESH: std::sync::Once = std::sync::Once::new();
    let dir = std::env::temp_dir().join(format!("aurum-cli-test-{}", std::process::id()));
    // A directory left by an earlier process that had the same PID (PIDs wrap) would hand its
    // files to this run's tests: start from an empty one.
    FRESH.call_once(|| {
        let _ = std::fs::remove_dir_all(&dir);
    });
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

pub fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "stderr: {}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap()
}

/// Exit status 2, no panic, and one line on stderr, `error: …`, containing every needle: how
/// the CLI refuses bad input.
#[track_caller]
pub fn refused(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdout: {}\nstderr: {err}",
        stdout(out)
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "expected {needle:?} in {err}");
    }
}

/// Waits until a file in `dir` has data, while `child` (started to write there) is still
/// running: the moment to interrupt or kill it mid-write. Fails if it ends first, or after two
/// minutes without output.
#[track_caller]
pub fn wait_for_output(child: &mut Child, dir: &Path) {
    let started = std::time::Instant::now();
    let has_data = || {
        std::fs::read_dir(dir)
            .unwrap()
            .any(|e| e.unwrap().metadata().is_ok_and(|m| m.len() > 0))
    };
    while !has_data() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the child ended before it could be stopped mid-write"
        );
        assert!(
            started.elapsed().as_secs() < 120,
            "no output after 2 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
