#!/usr/bin/env bash
# The side-by-side run behind the README's "Speed toward the limit" table: every row of the
# speed goals (Poseidon2 W8/W12/W16 and Poseidon latency and packed throughput, Merkle commits
# at 2^20 x 8, 2^18 x 256 and the Keccak trace shape 2^16 x 2633, forward NTT and coset LDE at
# 2^20 x 1, 2^20 x 8, 2^16 x 256, 2^16 x 2633) for Aurum and the fastest Plonky3 variants, with
# `-C target-cpu=native`, plus the no-RUSTFLAGS build of the rows where "fast without flags"
# is checked; then the table, then the distance to the arithmetic limit (`limit` example).
# About 20 minutes on a 2-core Zen 4. Results land in target/criterion (a fresh directory is
# best: `bench-table` prints every baseline it finds).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bench.sh poseidon2 native noflags -- 'poseidon2/w(8|12|16)/(latency|packed/(aurum-avx512-b[24]|p3))'
scripts/bench.sh poseidon native noflags -- 'poseidon/(latency|packed/aurum-avx512-b[24])'
scripts/bench.sh merkle native -- 'merkle/.*/(aurum|p3)$'
scripts/bench.sh merkle noflags -- 'merkle/poseidon2-w8/2\^20x8/aurum$'
scripts/bench.sh ntt native -- '/(aurum|aurum-natural|p3-small-batch|p3-radix2-dit-parallel)$'
scripts/bench.sh ntt noflags -- 'dft_batch/2\^20x8/aurum$|coset_lde_batch/2\^20x8/aurum$'
echo "== limit (no RUSTFLAGS)" >&2
cargo run --release -q -p aurum-benches --example limit
echo "== limit (native)" >&2
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native cargo run --release -q -p aurum-benches --example limit
