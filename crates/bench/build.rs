//! Records how the `aurum` binary was built, for the machine records of `aurum bench`: the
//! compiler's version, the target, the profile, the flags (RUSTFLAGS in any of its forms) and
//! the git commit. Each is passed to the crate as a compile-time environment variable
//! (`AURUM_BUILD_*`, read with `env!`); what cannot be found (no git, a source tarball) is
//! recorded as empty and reported as unknown.

use std::path::Path;
use std::process::Command;

/// The first line of a command's stdout, if it ran and succeeded.
fn first_line(program: &str, args: &[&str], dir: &Path) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.lines().next()?.trim().to_string();
    (!line.is_empty()).then_some(line)
}

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let dir = Path::new(&manifest_dir);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let rustc_version = first_line(&rustc, &["--version"], dir).unwrap_or_default();
    // Cargo passes every RUSTFLAGS source (the variable, config files, target-specific
    // flags) here, separated by 0x1f.
    let rustflags = std::env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\u{1f}')
        .filter(|f| !f.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let commit = first_line("git", &["rev-parse", "HEAD"], dir).unwrap_or_default();

    let set = |name: &str, value: &str| println!("cargo:rustc-env={name}={value}");
    set("AURUM_BUILD_RUSTC", &rustc_version);
    set(
        "AURUM_BUILD_TARGET",
        &std::env::var("TARGET").unwrap_or_default(),
    );
    set(
        "AURUM_BUILD_PROFILE",
        &std::env::var("PROFILE").unwrap_or_default(),
    );
    set("AURUM_BUILD_RUSTFLAGS", &rustflags);
    set("AURUM_BUILD_GIT_COMMIT", &commit);

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_BUILD_RUSTFLAGS");
    // A new commit changes HEAD (a branch switch) or the branch's ref (a commit on it).
    for git_path in ["HEAD", "refs/heads", "packed-refs"] {
        if let Some(path) = first_line("git", &["rev-parse", "--git-path", git_path], dir) {
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
