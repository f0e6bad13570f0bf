//! Checks that need a process of their own (the backend is chosen once per process) run this
//! test binary again as a child.

use std::process::Command;

/// The environment variable naming the emulator a cross-test runs under (qemu user emulation,
/// `scripts/test-aarch64.sh`), where a foreign binary cannot start another by itself.
pub const TEST_RUNNER_ENV: &str = "AURUM_TEST_RUNNER";

/// A command that runs this test binary again: directly, or under the emulator named in
/// [`TEST_RUNNER_ENV`] if that is set and not empty.
///
/// # Errors
/// The message if the path of this binary cannot be found.
pub fn this_test_again() -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    Ok(match std::env::var(TEST_RUNNER_ENV) {
        Ok(runner) if !runner.is_empty() => {
            let mut command = Command::new(runner);
            command.arg(exe);
            command
        }
        _ => Command::new(exe),
    })
}
