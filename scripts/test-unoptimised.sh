#!/usr/bin/env bash
# Runs the Poseidon, Poseidon2, Merkle and CLI tests, and the `aurum` CLI (commit on every
# preset, `aurum fri` on two) on every backend, with every crate unoptimised (opt-level 0)
# and default thread stacks.
#
# Why: a dependent's `cargo test` or `dev` build compiles Aurum at opt-level 0. There every
# inlined copy of a kernel keeps stack slots of its own, so kernels that are small when
# optimised can need megabytes of stack — more than the 2 MiB of a test or rayon thread
# (an overflow aborts the process). The workspace's own `cargo test` optimises a little
# (`[profile.test]`) and would not notice; this step does.
#
# The `unoptimised` profile (workspace Cargo.toml) is `dev` with opt-level 0 pinned for every
# package, in its own target directory (so it does not rebuild `target/debug` and is unaffected
# if someone speeds up `dev` with package overrides). RUST_MIN_STACK is cleared: the point is
# the default stack size.
#
# Usage: scripts/test-unoptimised.sh [extra cargo test args...]
set -euo pipefail
cd "$(dirname "$0")/.."

unset RUST_MIN_STACK
profile=(--profile unoptimised)
aurum="${CARGO_TARGET_DIR:-target}/unoptimised/aurum"

log() { echo "test-unoptimised: $*"; }

log "cargo test (opt-level 0): aurum-poseidon aurum-poseidon2 aurum-merkle aurum-cli"
# The heavy tests (scripts/heavy-tests.sh) are skipped here: their opt-level-0 time goes to
# reference computations, not to a code path the tests kept here (and the CLI runs below) do
# not already run on test and rayon threads.
# shellcheck source=scripts/heavy-tests.sh
source scripts/heavy-tests.sh
cargo test "${profile[@]}" -p aurum-poseidon -p aurum-poseidon2 -p aurum-merkle -p aurum-cli "$@" \
  -- "${HEAVY_SKIP_ARGS[@]}"

# Without arguments the CLI's integration tests above built `aurum` into $aurum (with the
# features of that package set; a separate `cargo build -p aurum-cli` resolves them differently
# and built it again: 17 s on a 2-vCPU VM). Arguments may have left those tests out.
[ $# -eq 0 ] || cargo build -q "${profile[@]}" -p aurum-cli
backends=$("$aurum" info | sed -n 's/^supported here: //p' | tr -d ,)
[ -n "$backends" ] || { echo "test-unoptimised: no backend list from 'aurum info'" >&2; exit 1; }
for backend in $backends; do
  # The README's example and its Poseidon2 twin; then 4096 rows, enough for the leaf hashing
  # and the lower layers to run in parallel on rayon's threads with every packed kernel.
  log "aurum on $backend (opt-level 0)"
  AURUM_BACKEND=$backend "$aurum" --preset plonky2 --rows 16 --cols 4 >/dev/null
  AURUM_BACKEND=$backend "$aurum" --preset poseidon2-w8 --rows 16 --cols 4 >/dev/null
  for preset in plonky2 polygon poseidon2-w8 poseidon2-w12 poseidon2-w16; do
    AURUM_BACKEND=$backend "$aurum" --preset "$preset" --rows 4096 --cols 12 >/dev/null
  done
  # FRI: LDE, evaluations, quotients, folding, every proof-of-work search and the queries.
  # 8192 rows × 13 columns is an LDE of 2^17.7 elements, past aurum-ntt's 2^16-element
  # working set, so its stripe passes run as well as its block passes. 4 columns are
  # transformed one column at a time, 8 and 16 as rows of whole vectors: each row shape has
  # radix-4 loops of its own (a single column once overflowed a thread's stack here).
  for shape in "poseidon2-w8 8192 13" "poseidon2-w16 1024 13" "poseidon2-w8 4096 4" \
    "poseidon2-w8 1024 8" "poseidon2-w8 1024 16"; do
    set -- $shape
    AURUM_BACKEND=$backend "$aurum" fri --preset "$1" --rows "$2" --cols "$3" \
      --params high-arity --num-queries 12 --query-pow-bits 6 --commit-pow-bits 3 >/dev/null
  done
done
log "passed"
