#!/usr/bin/env bash
# The side-by-side run behind the README's "Speed toward the limit" tables.
#
# 1. `goals` example, `-C target-cpu=native`: every row of the speed goals (Poseidon2 W8/W12/W16
#    packed and latency, Merkle commits at 2^20 x 8, 2^18 x 256 and the Keccak trace shape
#    2^16 x 2633, forward NTT and coset LDE at 2^20 x 1, 2^20 x 8, 2^16 x 256, 2^16 x 2633 in
#    both orders), Aurum and the fastest Plonky3 variant alternating round after round in one
#    process: medians and the median (range) of the per-round ratios.
# 2. The same without RUSTFLAGS: Aurum's column is the "fast without flags" check (Plonky3's
#    packed rows fall back to scalar there, so its column is not a peer figure).
# 3. The `limit` example in both builds: cycles per kernel against the arithmetic bound.
# 4. With a nightly toolchain: plonky2's Poseidon (latency, packed throughput) and Merkle tree
#    next to Aurum's, both built with `-C target-cpu=native` (scripts/oracle-plonky2.sh bench).
#
# Usage: scripts/bench-goals.sh [goals args...]   e.g. --rounds 9, or `perm merkle` for a subset.
# About 35 minutes on a 2-core Zen 3. Output: Markdown tables on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

native=(env RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native)
echo "## goals, -C target-cpu=native ($(date -u +%F), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
"${native[@]}" cargo run --release -q -p aurum-benches --example goals -- "$@"
echo
echo "## goals, no RUSTFLAGS (Aurum's column: fast without flags)"
cargo run --release -q -p aurum-benches --example goals -- "$@"
echo
echo "## limit, -C target-cpu=native"
"${native[@]}" cargo run --release -q -p aurum-benches --example limit
echo
echo "## limit, no RUSTFLAGS"
cargo run --release -q -p aurum-benches --example limit
if rustup run nightly rustc --version >/dev/null 2>&1; then
  echo
  echo "## plonky2 1.1 vs Aurum, both -C target-cpu=native (criterion; ns per permutation / state)"
  RUSTFLAGS="-C target-cpu=native" scripts/oracle-plonky2.sh bench \
    'poseidon/(latency|throughput)|merkle/' 2>&1 | grep -E '^(poseidon|merkle)/|time:'
else
  echo "plonky2 rows skipped: no nightly toolchain (scripts/oracle-plonky2.sh)"
fi
