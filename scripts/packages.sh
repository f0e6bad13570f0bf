#!/usr/bin/env bash
# The Debian packages Aurum's scripts need, in groups, and their installation: one
# `apt-get update` and one `apt-get install` for all the groups named, of the packages that
# are missing. Idempotent: with everything present it only checks (< 1 s).
#
#   aarch64      cross-testing for aarch64 (scripts/aarch64-toolchain.sh, used by
#                test-aarch64.sh and arm-instructions.sh): rustc-web, a Debian rustc and
#                rustdoc, with an aarch64 std (libstd-rust-web-dev:arm64) and clippy
#                (rust-web-clippy) — rustup downloads nothing —, the cross linker and libc
#                (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross), the runner (qemu-user-static)
#   qemu-plugin  instruction counting (scripts/qemu-plugin.sh): qemu-user (the dynamic build,
#                which loads TCG plugins), binutils for both architectures (its smoke test)
#   mpi          the `mpi` feature (scripts/mpi.sh): Open MPI (libopenmpi-dev, openmpi-bin),
#                and clang, libclang-dev, pkg-config for rsmpi's build (bindgen)
#   python       pip, to fetch the NVRTC wheel (scripts/cuda-compile.sh)
#
# Usage: scripts/packages.sh [--list] GROUP...
#   --list   print the packages of the groups, one per line, and exit
# Needs root or sudo to install. Exit status: 0 installed (or already there); 3 cannot
# install here (no apt-get, no root or sudo), which callers may treat as "skipped"; 1 apt
# failed (its log's end is printed). .ci/run runs it for every group in the background while
# the first steps compile, so the installs cost no wall time there.
set -euo pipefail

log() { echo "packages: $*"; }

group_packages() {
  case "$1" in
    aarch64) echo rustc-web libstd-rust-web-dev:arm64 rust-web-clippy gcc-aarch64-linux-gnu \
      libc6-dev-arm64-cross qemu-user-static ;;
    qemu-plugin) echo qemu-user binutils-aarch64-linux-gnu binutils ;;
    mpi) echo libopenmpi-dev openmpi-bin clang libclang-dev pkg-config ;;
    python) echo python3 python3-pip ;;
    *) echo "packages: unknown group '$1' (aarch64, qemu-plugin, mpi, python)" >&2; return 2 ;;
  esac
}

list=0
groups=()
for a in "$@"; do
  case "$a" in
    --list) list=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) groups+=("$a") ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || { echo "usage: scripts/packages.sh [--list] GROUP..." >&2; exit 2; }
pkgs=()
for g in "${groups[@]}"; do
  read -r -a p <<<"$(group_packages "$g")"
  pkgs+=("${p[@]}")
done
if [ $list = 1 ]; then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi

installed() { # PACKAGE: whether dpkg has it installed
  local st
  st=$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)
  [ "$st" = installed ]
}
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
else
  missing=("${pkgs[@]}")
fi
[ ${#missing[@]} -gt 0 ] || exit 0

command -v apt-get >/dev/null || { log "cannot install ${missing[*]}: no apt-get"; exit 3; }
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null \
    || { log "cannot install ${missing[*]}: needs root or sudo"; exit 3; }
  sudo="sudo -n"
fi
apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
apt_log=$(mktemp /tmp/aurum-packages-XXXXXX.log)
for p in "${missing[@]}"; do
  if [[ $p == *:arm64 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "adding foreign architecture arm64"
    $sudo dpkg --add-architecture arm64
  fi
done
t=$SECONDS
log "apt-get update"
"${apt[@]}" update -q >"$apt_log" 2>&1 \
  || { tail -20 "$apt_log" >&2; log "apt-get update failed (log: $apt_log)"; exit 1; }
log "apt-get install ${missing[*]}"
"${apt[@]}" -o Dpkg::Options::=--force-confold install -y -q --no-install-recommends \
    "${missing[@]}" >>"$apt_log" 2>&1 \
  || { tail -30 "$apt_log" >&2; log "apt-get install failed (log: $apt_log)"; exit 1; }
for p in "${missing[@]}"; do
  installed "$p" || { log "$p still missing after apt-get install (log: $apt_log)"; exit 1; }
done
rm -f "$apt_log"
log "installed ${#missing[@]} packages in $((SECONDS - t)) s"
