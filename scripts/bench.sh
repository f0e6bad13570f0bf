#!/usr/bin/env bash
# Run a criterion bench of aurum-benches under the three build configurations we report,
# saving each as a criterion baseline in target/criterion, then print the side-by-side table.
#
#   noflags       plain `cargo bench` (no RUSTFLAGS): what a dependency gets by default
#   native        RUSTFLAGS="-C target-cpu=native"
#   native-avx2   native without AVX-512 (so Plonky3's AVX2 packing is what gets measured)
#
# Usage: scripts/bench.sh BENCH [CONFIG...] [-- criterion args, e.g. a filter]
# Example: scripts/bench.sh field noflags native -- throughput/mul
set -euo pipefail
cd "$(dirname "$0")/.."

bench=${1:?usage: scripts/bench.sh BENCH [CONFIG...] [-- criterion args]}
shift
configs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do configs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#configs[@]} -gt 0 ] || configs=(noflags native native-avx2)

export CRITERION_HOME="$PWD/target/criterion"
for config in "${configs[@]}"; do
  case "$config" in
    noflags)     flags="";                                              dir=target ;;
    native)      flags="-C target-cpu=native";                          dir=target/native ;;
    native-avx2) flags="-C target-cpu=native -C target-feature=-avx512f"; dir=target/native-avx2 ;;
    *) echo "bench.sh: unknown config '$config' (noflags, native, native-avx2)" >&2; exit 2 ;;
  esac
  echo "== $bench [$config] RUSTFLAGS='$flags'" >&2
  RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" cargo bench -p aurum-benches --bench "$bench" -- --save-baseline "$config" "$@"
done
cargo run -q -p aurum-benches --example bench-table -- "$CRITERION_HOME"
