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
#   Without extra args the unit and integration tests (--lib --bins --tests) of the crates in
#   CRATES below are built once and each test binary runs under every line of RUNS, minus the
#   heavy tests of scripts/heavy-tests.sh and those its TESTS column leaves out; the doctests
#   run once, under the first line. With extra args each line runs
#   `cargo test -p CRATES... ARGS`.
#   AURUM_QEMU_CPUS  space-separated qemu CPU models: run only the lines of RUNS below whose
#                    model is listed (a model not in RUNS runs once, with no expectations)
#   AURUM_QEMU_JOBS  how many lines run at once (default 2; their logs are printed whole)
#
# What runs here and why (CI has 90 minutes, and this step was most of them):
# - CRATES is the library crates of ours: the kernels (field, SVE, permutations, Merkle, NTT),
#   FRI and aurum-bench (which reads the Arm machine's description), so all lines share one
#   build. Not here:
#   - the peer-oracle crates (aurum-p3, the `tests` crate with the Plonky3 differential tests,
#     aurum-benches) and the instruction-count workload. They compare Aurum with Plonky3
#     through the same dispatch, and the kernels' own suites here check every backend against
#     scalar, which the oracle tests match natively; building Plonky3 for aarch64 took a third
#     of this step.
#   - the CLI's tests (aurum-cli). The CLI has no code of its own that depends on the
#     architecture: it sits above the dispatch, which the crates below check on every line,
#     and its tests are about its arguments, files, reports and errors, which the README's
#     `cargo test --workspace` runs natively. Built and run here, they were a fifth of this
#     step: on a 2-vCPU Intel Xeon (family 6 model 207) the CLI's library and tests took
#     about 150 s of the cross build's 980 s of CPU, and its tests under qemu 120 s of the
#     first line's 234 s (the binary started through the emulator). clippy below still lints
#     the CLI for aarch64, so a CLI that does not type-check there fails this step.
# - The heavy tests (Merkle trees over many shapes against naive references, many-chunk
#   streams; scripts/heavy-tests.sh) are backend-independent logic over the same kernels;
#   under SVE emulation they took 8 of the 9 minutes of the kernel crates' tests. The README's
#   `cargo test --workspace` runs them natively.
# - Each line runs the test binaries its TESTS column names (one build serves them all):
#   all      every binary: the first line, 256-bit SVE2 (the backend a modern Arm server
#            selects), and NEON (Cortex-A72); FRI's proofs and trees included.
#   kernels  the kernel crates (field, SVE, permutations, Merkle, NTT) and FRI's per-backend
#            proof (its known answer goes through the SVE kernels at that vector length);
#            not aurum-bench's and FRI's integration suite (engine interface, tampering:
#            logic above the kernels, checked on the all lines): the other three lines
#            are there for the kernels' vector lengths (128 and 2048 bits, SVE without SVE2).
# - clippy for aarch64 lints the same crates, where all the aarch64-only code is, and the CLI
#   (the x86 clippy of CI's first step lints every crate and target).
set -euo pipefail

cd "$(dirname "$0")/.."

# ---- What runtime backend selection must pick on each emulated CPU ------------------------
# One `cargo test` under qemu per line, in this order. Columns:
#   QEMU_CPU               qemu's -cpu (sve-default-vector-length is in BYTES: 16 = 128 bits)
#   AURUM_BACKEND          forced backend for the run, or "-" (unset: runtime selection)
#   AURUM_EXPECT_BACKEND   the backend aurum_goldilocks::backend() must select in that run
#   AURUM_EXPECT_SVE_BITS  the SVE vector length of the CPU as the backend must detect it,
#                          in bits, or "none" (the CPU has no SVE)
#   TESTS                  which test binaries run under this line (all, kernels;
#                          see above)
# The EXPECT columns are exported to the tests (qemu passes the environment through); a test
# that finds them unset checks the selection against what the CPU reports instead.
# Vector lengths: SVE2 at 128, 256 and 2048 bits (the smallest, a common one, the largest)
# and SVE without SVE2 at 512 (A64FX); NEON without SVE (Cortex-A72).
# The lines start in this order, two at a time (QEMU_JOBS), so that both slots end together: on
# a 2-vCPU Intel Xeon (family 6 model 207), on a slow day, they took 96 s (256 bits), 103 s
# (2048 bits), 151 s (A64FX), 85 s (128 bits) and 76 s (Cortex-A72), and both slots ended after
# 264 s, about half their sum. (With the CLI's tests, the first line took twice as long, and it
# started first for that reason.)
RUNS=(
  # QEMU_CPU                           AURUM_BACKEND  EXPECT_BACKEND  EXPECT_SVE_BITS  TESTS
  # SVE executes fewer instructions than NEON at every vector length (README, "SVE and
  # SVE2"), so it is selected wherever the CPU has it, 128 bits included.
  "max,sve-default-vector-length=32    -              sve             256              all"
  "max,sve-default-vector-length=256   -              sve             2048             kernels"
  "a64fx                               -              sve             512              kernels" # no SVE2
  "max,sve-default-vector-length=16    -              sve             128              kernels"
  "cortex-a72                          -              neon            none             all" # no SVE
)

# The library crates of ours (see above); one build serves every line.
CRATES=(aurum-goldilocks aurum-sve aurum-symmetric aurum-poseidon aurum-poseidon2 aurum-merkle
  aurum-ntt aurum-fri aurum-bench)

# Seconds one test binary may run under qemu (the longest, Merkle's integration tests, took
# under 45 s on a 2-vCPU Intel Xeon with two models running at once).
BINARY_LIMIT=${AURUM_QEMU_BINARY_LIMIT:-300}
# How many lines of RUNS run at once (see below).
QEMU_JOBS=${AURUM_QEMU_JOBS:-2}

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
# Aurum's crates at opt-level 1 here, not the test profile's 2: the x86 backends need 2 (at 1
# their intrinsics stay calls in generic instances shared between crates: Cargo.toml,
# [profile.test]), NEON is baseline on aarch64 and inlines in any function, and the SVE
# kernels are C, compiled by their own flags. On a 2-vCPU Intel Xeon
# (family 6 model 207) the build of these crates' tests (then with the CLI's) took 795 s of CPU
# instead of 1 419 s, and the tests under qemu ran 25 % longer (NEON's binaries: 55 s instead of
# 44 s): the step is shorter by minutes.
export CARGO_PROFILE_TEST_OPT_LEVEL=1
# The test profile's `lto = "off"` (Cargo.toml) shortens the x86 build; here, at opt-level 1,
# the cross build took as long without LTO (390 s against 387 s, on different days), so the
# binaries the models run stay as they were: rustc's default thin local LTO.
export CARGO_PROFILE_TEST_LTO=false
# The other crates (proptest, rayon, serde, …) stay at the test profile's opt-level 2: tried at
# 1 on the same slow day, the cross build was not shorter (452 s against 387 s at 2) and the
# A64FX model took 168 s (151 s at 2).
log "using $($RUSTC -V)"

# shellcheck source=scripts/heavy-tests.sh
source scripts/heavy-tests.sh
packages=()
for crate in "${CRATES[@]}"; do packages+=(-p "$crate"); done

# clippy's crates: CRATES and the CLI, which is linted (and so type-checked) for aarch64 but not
# tested here.
linted=("${packages[@]}" -p aurum-cli)
log "clippy for aarch64 (NEON and SVE code): ${CRATES[*]} aurum-cli"
/usr/bin/cargo-clippy clippy "${linted[@]}" --all-targets --target aarch64-unknown-linux-gnu -- -D warnings

# The selected lines of RUNS (all, or those whose model is in AURUM_QEMU_CPUS).
selected=()
if [ -n "${AURUM_QEMU_CPUS:-}" ]; then
  for cpu in $AURUM_QEMU_CPUS; do
    found=0
    for run in "${RUNS[@]}"; do
      read -r c _ <<<"$run"
      if [ "$c" = "$cpu" ]; then selected+=("$run"); found=1; fi
    done
    [ "$found" = 1 ] || selected+=("$cpu - - - all")
  done
else
  selected=("${RUNS[@]}")
fi

# Without extra args: build the tests once and list their binaries (executable and package
# folder) from cargo's JSON messages, so each line can run them without cargo re-deciding.
binaries=()
if [ $# -eq 0 ]; then
  log "building the tests: cargo test ${packages[*]} --target aarch64-unknown-linux-gnu --lib --bins --tests --no-run"
  messages=$(mktemp /tmp/aurum-aarch64-tests-XXXXXX.json)
  trap 'rm -f "$messages"' EXIT
  cargo test "${packages[@]}" --target aarch64-unknown-linux-gnu --lib --bins --tests --no-run \
    --message-format=json-render-diagnostics >"$messages"
  while IFS= read -r line; do
    exe=$(sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' <<<"$line")
    dir=$(sed -n 's/.*"manifest_path":"\([^"]*\)\/Cargo.toml".*/\1/p' <<<"$line")
    [ -n "$exe" ] && [ -n "$dir" ] || die "no executable or package in: $line"
    target=$(sed -n 's/.*"target":{[^}]*"name":"\([^"]*\)".*/\1/p' <<<"$line")
    [ -n "$target" ] || die "no target name in: $line"
    binaries+=("$exe	$dir	$target")
  done < <(grep '"reason":"compiler-artifact"' "$messages" | grep '"profile":{[^}]*"test":true' |
    grep '"executable":"')
  [ "${#binaries[@]}" -gt 0 ] || die "cargo built no test binaries"
  log "${#binaries[@]} test binaries"
fi
# Whether a test binary (package folder, target name) runs on a line whose TESTS column says $1.
runs_on() {
  local tests=$1 dir=${2#"$PWD/"} target=$3
  case "$tests" in
    all) return 0 ;;
    kernels)
      case "$dir" in
        crates/bench) return 1 ;;
        crates/fri) [ "$target" = backends ] ;;
        *) return 0 ;;
      esac
      ;;
    *) die "unknown TESTS column '$tests' (all, kernels)" ;;
  esac
}

# Reads a line of RUNS into cpu, tests, envs (the expectations, exported to the tests) and
# unset_backend (runtime selection, whatever the caller's shell has set, unless forced).
parse_line() {
  local force expect bits
  read -r cpu force expect bits tests <<<"$1"
  envs=()
  unset_backend=(-u AURUM_BACKEND)
  [ "$force" = - ] || { envs+=("AURUM_BACKEND=$force"); unset_backend=(); }
  [ "$expect" = - ] || envs+=("AURUM_EXPECT_BACKEND=$expect")
  [ "$bits" = - ] || envs+=("AURUM_EXPECT_SVE_BITS=$bits")
}

# Runs the test binaries of one line of RUNS (those its TESTS column names).
run_line() {
  parse_line "$1"
  local t=$SECONDS entry exe dir target attempt rc
  log "the test binaries under qemu -cpu $cpu ${envs[*]} (TESTS: $tests)"
  for entry in "${binaries[@]}"; do
    IFS=$'\t' read -r exe dir target <<<"$entry"
    runs_on "$tests" "$dir" "$target" || continue
    echo "     Running ${exe#"$PWD/"} (in ${dir#"$PWD/"})"
    # As cargo runs a test: from its package's folder, through the runner (the emulator),
    # under a time limit: a test that starts a process forks the emulator, and a fork of a
    # multi-threaded program under qemu-user can deadlock before its exec (qemu's own locks,
    # held by another thread at the fork) — seen once here, a test of the CLI (tested here then)
    # waiting on a child that never ran. A binary that runs past the limit is run once more; a
    # second hang, or any failure, fails the step.
    for attempt in 1 2; do
      rc=0
      (cd "$dir" && env "${unset_backend[@]}" QEMU_CPU="$cpu" "${envs[@]}" CARGO_MANIFEST_DIR="$dir" \
        timeout --kill-after=10 "$BINARY_LIMIT" qemu-aarch64-static "$exe" "${HEAVY_SKIP_ARGS[@]}") ||
        rc=$?
      [ "$rc" -eq 0 ] && break
      if { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && [ "$attempt" -eq 1 ]; then
        log "${exe#"$PWD/"} ran past ${BINARY_LIMIT} s under qemu -cpu $cpu (a forked emulator" \
          "deadlocked before its exec?): running it once more"
        continue
      fi
      die "${exe#"$PWD/"} failed under qemu -cpu $cpu (status $rc)"
    done
  done
  log "-cpu $cpu ${envs[*]}: passed in $((SECONDS - t)) s"
}

started=$SECONDS
if [ $# -gt 0 ]; then
  for run in "${selected[@]}"; do
    parse_line "$run"
    t=$SECONDS
    log "cargo test ${packages[*]} --target aarch64-unknown-linux-gnu $* under qemu -cpu $cpu ${envs[*]}"
    env "${unset_backend[@]}" QEMU_CPU="$cpu" "${envs[@]}" \
      cargo test "${packages[@]}" --target aarch64-unknown-linux-gnu "$@"
    log "-cpu $cpu ${envs[*]}: passed in $((SECONDS - t)) s"
  done
else
  # The doctests once, under the first line (cargo builds them first).
  parse_line "${selected[0]}"
  log "cargo test ${packages[*]} --doc (once) under qemu -cpu $cpu ${envs[*]}"
  env "${unset_backend[@]}" QEMU_CPU="$cpu" "${envs[@]}" \
    cargo test "${packages[@]}" --target aarch64-unknown-linux-gnu --doc
  # The lines run QEMU_JOBS at a time, each into a log printed whole when it ends (in the order
  # of RUNS): a line's test binaries keep 1.6 of 2 CPUs busy on average (single-threaded
  # stretches, emulator start-ups), two lines at once all of them.
  jobs_dir=$(mktemp -d /tmp/aurum-aarch64-runs-XXXXXX)
  trap 'rm -f "$messages"; rm -rf "$jobs_dir"' EXIT
  pids=()
  for i in "${!selected[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$QEMU_JOBS" ]; do wait -n || true; done
    read -r cpu _ <<<"${selected[$i]}"
    log "started: -cpu $cpu"
    (
      set +e
      (run_line "${selected[$i]}") >"$jobs_dir/$i.log" 2>&1
      echo $? >"$jobs_dir/$i.status"
    ) &
    pids+=($!)
  done
  failed=()
  for i in "${!selected[@]}"; do
    wait "${pids[$i]}" || true
    cat "$jobs_dir/$i.log"
    read -r cpu _ <<<"${selected[$i]}"
    [ "$(cat "$jobs_dir/$i.status" 2>/dev/null)" = 0 ] || failed+=("$cpu")
  done
  [ "${#failed[@]}" -eq 0 ] || die "failed under qemu -cpu ${failed[*]} (their logs above)"
fi
log "all aarch64 runs passed ($((SECONDS - started)) s of tests after the build)"
