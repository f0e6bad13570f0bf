#!/usr/bin/env bash
# Cross-build the workspace for aarch64-unknown-linux-gnu and run its tests under qemu, so the
# NEON backend and the SVE-capable CPU models are really exercised.
#
# Installs what it needs when missing (scripts/aarch64-toolchain.sh: Debian bookworm packages
# only; rustup downloads nothing): rustc-web (a Debian rustc with an aarch64 std),
# gcc-aarch64-linux-gnu (linker), qemu-user-static (runner), rust-web-clippy (lints the
# aarch64-only code, which an x86 clippy never sees). The linker and runner are set in
# .cargo/config.toml. The Debian compiler is used only for these commands (RUSTC/RUSTDOC
# below); plain `cargo` stays on the pinned rustup toolchain.
#
# Usage: scripts/test-aarch64.sh [extra cargo test args...]
#   Without extra args every line of RUNS runs the unit and integration tests
#   (--lib --bins --tests) of its SCOPE; the doctests run once, under the first full line; the
#   examples are checked by clippy --all-targets, not built. With extra args each line runs `cargo test --workspace ARGS`.
#   AURUM_QEMU_CPUS  space-separated qemu CPU models: run only the lines of RUNS below whose
#                    model is listed (a model not in RUNS runs once, with no expectations)
set -euo pipefail

cd "$(dirname "$0")/.."

# ---- What runtime backend selection must pick on each emulated CPU ------------------------
# One `cargo test --workspace` under qemu per line, in this order. Columns:
#   QEMU_CPU               qemu's -cpu (sve-default-vector-length is in BYTES: 16 = 128 bits)
#   AURUM_BACKEND          forced backend for the run, or "-" (unset: runtime selection)
#   AURUM_EXPECT_BACKEND   the backend aurum_goldilocks::backend() must select in that run
#   AURUM_EXPECT_SVE_BITS  the SVE vector length of the CPU as the backend must detect it,
#                          in bits, or "none" (the CPU has no SVE)
#   SCOPE                  "full": the whole workspace; "kernels": the crates with
#                          backend-dependent code paths (KERNEL_CRATES below). The peer
#                          differential tests, FRI and the CLI call those kernels through the
#                          same dispatch, so two full lines (one SVE, one NEON) cover them;
#                          the other vector lengths run the kernels' own suites, which is where
#                          a vector-length bug shows (and saves a third of CI's time).
#   HEAVY                  "run" or "skip" the heavy tests of scripts/heavy-tests.sh (Merkle
#                          trees over many shapes against naive references, many-chunk
#                          streams: backend-independent logic over the same kernels, 8 of the
#                          9 minutes of a kernels line). One line runs them under emulation,
#                          `cargo test --workspace` runs them natively.
# The EXPECT columns are exported to the tests (qemu passes the environment through); a test
# that finds them unset checks the selection against what the CPU reports instead.
RUNS=(
  # QEMU_CPU                           AURUM_BACKEND  EXPECT_BACKEND  EXPECT_SVE_BITS  SCOPE    HEAVY
  # SVE executes fewer instructions than NEON at every vector length (README, "SVE and
  # SVE2"), so it is selected wherever the CPU has it, 128 bits included.
  "max,sve-default-vector-length=32    -              sve             256   full     run"
  "cortex-a72                          -              neon            none  full     skip" # no SVE
  "max,sve-default-vector-length=16    -              sve             128   kernels  skip"
  "max,sve-default-vector-length=64    -              sve             512   kernels  skip"
  "max,sve-default-vector-length=256   -              sve             2048  kernels  skip"
  "a64fx                               -              sve             512   kernels  skip" # no SVE2
)

log() { echo "test-aarch64: $*"; }
die() { echo "test-aarch64: ERROR: $*" >&2; exit 1; }

scripts/aarch64-toolchain.sh

export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
# Tests that start the `aurum` binary run it through the emulator too (there is no binfmt_misc).
export AURUM_TEST_RUNNER=qemu-aarch64-static
# A separate target dir: the Debian rustc is a different compiler from the pinned one.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/aarch64-cross"
# The cross build keeps line tables (file:line in panics and backtraces) but not full debug
# info: less to generate and link, for a build that is only run, never stepped through.
export CARGO_PROFILE_TEST_DEBUG=line-tables-only
log "using $($RUSTC -V)"

log "clippy for aarch64 (NEON code)"
/usr/bin/cargo-clippy clippy --workspace --all-targets --target aarch64-unknown-linux-gnu -- -D warnings

# The crates whose code paths depend on the backend (the "kernels" scope of RUNS).
# shellcheck source=scripts/heavy-tests.sh
source scripts/heavy-tests.sh

KERNEL_CRATES=(aurum-goldilocks aurum-sve aurum-poseidon aurum-poseidon2 aurum-merkle aurum-ntt)

# The selected lines of RUNS (all, or those whose model is in AURUM_QEMU_CPUS).
selected=()
if [ -n "${AURUM_QEMU_CPUS:-}" ]; then
  for cpu in $AURUM_QEMU_CPUS; do
    found=0
    for run in "${RUNS[@]}"; do
      read -r c _ <<<"$run"
      if [ "$c" = "$cpu" ]; then selected+=("$run"); found=1; fi
    done
    [ "$found" = 1 ] || selected+=("$cpu - - - full run")
  done
else
  selected=("${RUNS[@]}")
fi

started=$SECONDS
doc_done=0
for run in "${selected[@]}"; do
  read -r cpu force expect bits scope heavy <<<"$run"
  envs=()
  unset_backend=(-u AURUM_BACKEND) # runtime selection, whatever the caller's shell has set
  [ "$force" = - ] || { envs+=("AURUM_BACKEND=$force"); unset_backend=(); }
  [ "$expect" = - ] || envs+=("AURUM_EXPECT_BACKEND=$expect")
  [ "$bits" = - ] || envs+=("AURUM_EXPECT_SVE_BITS=$bits")
  selection=("$@")
  if [ $# -eq 0 ]; then
    selection=(--lib --bins --tests)
    [ "$heavy" = run ] || selection+=(-- "${HEAVY_SKIP_ARGS[@]}")
  fi
  packages=(--workspace)
  if [ "$scope" = kernels ]; then
    packages=()
    for crate in "${KERNEL_CRATES[@]}"; do packages+=(-p "$crate"); done
  fi
  log "cargo test ${packages[*]} --target aarch64-unknown-linux-gnu ${selection[*]} under qemu -cpu $cpu ${envs[*]}"
  t=$SECONDS
  env "${unset_backend[@]}" QEMU_CPU="$cpu" "${envs[@]}" \
    cargo test "${packages[@]}" --target aarch64-unknown-linux-gnu "${selection[@]}"
  if [ $# -eq 0 ] && [ "$doc_done" = 0 ] && [ "$scope" = full ]; then
    log "cargo test --workspace --doc (once) under qemu -cpu $cpu ${envs[*]}"
    env "${unset_backend[@]}" QEMU_CPU="$cpu" "${envs[@]}" \
      cargo test --workspace --target aarch64-unknown-linux-gnu --doc
    doc_done=1
  fi
  log "-cpu $cpu ${envs[*]}: passed in $((SECONDS - t)) s"
done
log "all aarch64 runs passed ($((SECONDS - started)) s of tests after clippy)"
