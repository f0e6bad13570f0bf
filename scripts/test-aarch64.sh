#!/usr/bin/env bash
# Cross-build the workspace for aarch64-unknown-linux-gnu and run its tests under qemu, so the
# NEON backend is really exercised (and the SVE-capable CPU models too).
#
# Installs what it needs when missing (Debian bookworm packages only; rustup downloads
# nothing): rustc-web (a Debian rustc with an aarch64 std), libstd-rust-web-dev:arm64,
# gcc-aarch64-linux-gnu + libc6-dev-arm64-cross (linker), qemu-user-static (runner),
# rust-web-clippy (lints the aarch64-only code, which an x86 clippy never sees).
# The linker and runner are set in .cargo/config.toml. The Debian compiler is used only for
# these commands (RUSTC/RUSTDOC below); plain `cargo` stays on the pinned rustup toolchain.
#
# Usage: scripts/test-aarch64.sh [extra cargo test args...]
#   AURUM_QEMU_CPUS  space-separated qemu CPU models to run under
#                    (default: "max,sve-default-vector-length=16 max,sve-default-vector-length=64 cortex-a72":
#                    NEON with SVE at 128 and 512 bits, and a NEON-only core)
set -euo pipefail

cd "$(dirname "$0")/.."

log() { echo "test-aarch64: $*"; }
die() { echo "test-aarch64: ERROR: $*" >&2; exit 1; }

PKGS=(rustc-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static rust-web-clippy)

installed() {
  local p st
  for p in "$@"; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = "installed" ] || return 1
  done
}

install_toolchain() {
  command -v apt-get >/dev/null || die "needs a Debian system with apt-get to install ${PKGS[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "run as root (or install sudo) to install ${PKGS[*]}"
    sudo="sudo"
  fi
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "adding foreign architecture arm64"
    $sudo dpkg --add-architecture arm64
  fi
  log "apt-get update"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -q >/tmp/aurum-aarch64-apt.log 2>&1 \
    || { tail -20 /tmp/aurum-aarch64-apt.log >&2; die "apt-get update failed"; }
  log "apt-get install ${PKGS[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confold \
      install -y -q --no-install-recommends "${PKGS[@]}" >>/tmp/aurum-aarch64-apt.log 2>&1 \
    || { tail -30 /tmp/aurum-aarch64-apt.log >&2; die "apt-get install failed"; }
  installed "${PKGS[@]}" || die "packages still missing after apt-get install"
}

if ! installed "${PKGS[@]}"; then
  install_toolchain
fi
[ -x /usr/bin/rustc ] && [ -x /usr/bin/rustdoc ] || die "/usr/bin/rustc or rustdoc missing (rustc-web)"
ls /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib/libcore-*.rlib >/dev/null 2>&1 \
  || die "no aarch64 std under /usr/lib/rustlib (libstd-rust-web-dev:arm64)"
command -v qemu-aarch64-static >/dev/null || die "qemu-aarch64-static missing"

export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
# Tests that start the `aurum` binary run it through the emulator too (there is no binfmt_misc).
export AURUM_TEST_RUNNER=qemu-aarch64-static
# A separate target dir: the Debian rustc is a different compiler from the pinned one.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/aarch64-cross"
log "using $($RUSTC -V)"

log "clippy for aarch64 (NEON code)"
/usr/bin/cargo-clippy clippy --workspace --all-targets --target aarch64-unknown-linux-gnu -- -D warnings

CPUS=${AURUM_QEMU_CPUS:-"max,sve-default-vector-length=16 max,sve-default-vector-length=64 cortex-a72"}
for cpu in $CPUS; do
  log "cargo test --workspace --target aarch64-unknown-linux-gnu under qemu -cpu $cpu"
  QEMU_CPU="$cpu" cargo test --workspace --target aarch64-unknown-linux-gnu "$@"
done
log "all aarch64 runs passed"
