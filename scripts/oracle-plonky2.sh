#!/usr/bin/env bash
# The plonky2 oracle (oracles/plonky2): aurum-poseidon against plonky2 1.1, which needs a
# nightly compiler (`#![feature(specialization)]`). The crate is its own workspace, excluded
# from the root one, with a rust-toolchain.toml pinning `nightly`; its Cargo.lock is committed.
#
#   scripts/oracle-plonky2.sh            differential tests: all 360 round constants, the derived
#                                        sparse partial-round tables, and proptests of the
#                                        permutation, hash_no_pad, hash_or_noop, two_to_one
#   scripts/oracle-plonky2.sh latency [ROUNDS] [CHAIN]   one permutation's latency: plonky2's
#                                        Poseidon::poseidon against each of aurum's single-state
#                                        forms (scalar, AVX2, AVX-512), alternating in one process;
#                                        the median of the per-round ratios with their range
#   scripts/oracle-plonky2.sh bench [criterion args]   (includes the Merkle 2^16 × 135 benchmark)
#                                        plonky2's Poseidon::poseidon / hash_no_pad next to
#                                        aurum's in one nightly build and run (target/criterion
#                                        of the oracle; `cargo run -p aurum-benches --bin
#                                        bench-table -- oracles/plonky2/target/criterion`)
#
# Needs: a rustup `nightly` toolchain and crates.io (or a cargo cache holding plonky2 1.1.0).
# .ci/run runs the tests when a nightly toolchain is installed (CI machines are only
# guaranteed the pinned stable one) and says it skipped them otherwise.
set -euo pipefail
cd "$(dirname "$0")/../oracles/plonky2"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "oracle-plonky2: no nightly toolchain (rustup toolchain install nightly)" >&2
  exit 1
fi

case "${1:-test}" in
  test) shift || true; cargo test "$@" ;;
  bench) shift; cargo bench --features bench --bench plonky2 -- "$@" ;;
  latency) shift; cargo run --release --example latency -- "$@" ;;
  *) echo "usage: scripts/oracle-plonky2.sh [test|bench|latency] [args...]" >&2; exit 2 ;;
esac
