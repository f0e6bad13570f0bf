#!/usr/bin/env bash
# Install (when missing, through scripts/packages.sh aarch64) and check the aarch64 cross
# toolchain that scripts/test-aarch64.sh and scripts/arm-instructions.sh use. Debian bookworm
# packages only; rustup downloads nothing:
#   rustc-web                    a Debian rustc (/usr/bin/rustc, rustdoc) ...
#   libstd-rust-web-dev:arm64    ... with an aarch64 std (and the arm64 runtime qemu runs on)
#   gcc-aarch64-linux-gnu, libc6-dev-arm64-cross   the linker (.cargo/config.toml names it)
#   qemu-user-static             the cargo runner (qemu-aarch64-static)
#   rust-web-clippy              lints the aarch64-only code, which an x86 clippy never sees
# Needs root or sudo to install. Idempotent: with everything present it only checks (< 1 s).
# Use the Debian compiler only where you set RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc;
# plain `cargo` stays on the pinned rustup toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "aarch64-toolchain: $*"; }
die() { echo "aarch64-toolchain: ERROR: $*" >&2; exit 1; }

scripts/packages.sh aarch64 || die "the aarch64 cross toolchain could not be installed (above)"
[ -x /usr/bin/rustc ] && [ -x /usr/bin/rustdoc ] || die "/usr/bin/rustc or rustdoc missing (rustc-web)"
ls /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib/libcore-*.rlib >/dev/null 2>&1 \
  || die "no aarch64 std under /usr/lib/rustlib (libstd-rust-web-dev:arm64)"
command -v qemu-aarch64-static >/dev/null || die "qemu-aarch64-static missing"
command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc missing"
