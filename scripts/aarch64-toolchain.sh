#!/usr/bin/env bash
# Install (when missing) and check the aarch64 cross toolchain that scripts/test-aarch64.sh and
# scripts/arm-instructions.sh use. Debian bookworm packages only; rustup downloads nothing:
#   rustc-web                    a Debian rustc (/usr/bin/rustc, rustdoc) ...
#   libstd-rust-web-dev:arm64    ... with an aarch64 std (and the arm64 runtime qemu runs on)
#   gcc-aarch64-linux-gnu, libc6-dev-arm64-cross   the linker (.cargo/config.toml names it)
#   qemu-user-static             the cargo runner (qemu-aarch64-static)
#   rust-web-clippy              lints the aarch64-only code, which an x86 clippy never sees
# Needs root or sudo to install. Idempotent: with everything present it only checks (< 1 s).
# Use the Debian compiler only where you set RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc;
# plain `cargo` stays on the pinned rustup toolchain.
set -euo pipefail

log() { echo "aarch64-toolchain: $*"; }
die() { echo "aarch64-toolchain: ERROR: $*" >&2; exit 1; }

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
command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc missing"
