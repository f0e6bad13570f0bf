//! Running the `aurum` binary from the CLI's integration tests.

#![allow(dead_code)] // Each test crate uses its own subset.

use std::path::PathBuf;
use std::process::{Command, Output};

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
    let dir = std::env::temp_dir().join(format!("aurum-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

pub fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "stderr: {}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap()
}
