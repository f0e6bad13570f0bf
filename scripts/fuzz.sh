#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer via cargo-fuzz, AddressSanitizer) of every Aurum parser
# and verifier that reads untrusted data: the harnesses in fuzz/fuzz_targets/, each one line
# around its body in fuzz/targets/src/ (the aurum-fuzz-targets crate).
#
# CI does not run this: `cargo test --workspace` replays every seed (and whatever a campaign
# left in fuzz/corpus/) through the same bodies on stable (fuzz/targets/tests/replay.rs), and
# .ci/run checks that the harnesses compile. Commit a crash's input to fuzz/seeds/<target>/
# once it is fixed, and it is replayed from then on.
#
# Needs a nightly toolchain (cargo-fuzz builds with -Zsanitizer); installs cargo-fuzz with
# `cargo install` when it is missing. Seeds are committed in fuzz/seeds/<target>; what a run
# discovers goes to fuzz/corpus/<target> (not committed), crashes to fuzz/artifacts/<target>.
#
# Usage: scripts/fuzz.sh [--seconds S | --runs N] [target...]
#   --seconds S   run each target for S seconds (default 60)
#   --runs N      run each target for N executions (e.g. 1000000)
#   targets       default: all of them
# Prints one line per target: executions, seconds, corpus size. Exits non-zero on a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-max_total_time=60)
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz: needs a nightly toolchain (rustup toolchain list shows none)" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

cd fuzz
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "seeds/$target"
  log=$(mktemp)
  start=$(date +%s)
  if ! cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
      "${limit[@]}" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $target FAILED (crash input in fuzz/artifacts/$target)" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  corpus=$(ls "corpus/$target" | wc -l)
  printf 'fuzz: %-26s %10s executions in %4d s, corpus %d\n' "$target" "$runs" \
    "$(( $(date +%s) - start ))" "$corpus"
  rm -f "$log"
done
