#!/usr/bin/env bash
# The GPU checks, on a machine with an NVIDIA GPU: the GPU tests (aurum-cuda's tests/gpu.rs:
# permutations, leaf layers and whole trees of every preset and many shapes equal the CPU's,
# kernels compile for every architecture), the CLI on the GPU (`aurum info`, `aurum commit`
# with AURUM_DEVICE=cuda against AURUM_DEVICE=cpu, every preset; `aurum fri`'s proof with its
# trees on the GPU against the CPU's), and the GPU benchmark
# (crates/cuda/examples/gpu_bench.rs), then Plonky3's Keccak STARK with aurum-p3's FriPcs
# committing on the GPU (crates/p3/examples/keccak_prove.rs, over drawn Poseidon2 constants —
# the kernels compiled with them — and over Plonky3's fixed ones: its proofs byte-identical to
# stock Plonky3's, and timed against stock and the CPU), and a quick
# `aurum bench` with the GPU's figures (its record written to $OUT where that is set).
#
#   scripts/gpu-check.sh bundle        here (any x86-64 Linux with Rust): builds the test binary,
#                                      the benchmark and the CLI into target/gpu-bundle (about
#                                      20 MB, stripped), to copy to a GPU machine without Rust
#   scripts/gpu-check.sh run [quick]   there: runs them from target/gpu-bundle; needs the NVIDIA
#                                      driver and NVRTC (a CUDA toolkit, or the
#                                      nvidia-cuda-nvrtc wheel), found on the usual paths
#   scripts/gpu-check.sh               both, on one machine that has Rust and a GPU
#   scripts/gpu-check.sh emulate       here, without a GPU: the same bundle built on aurum-cuda's
#                                      host emulator (the kernels compiled by `c++`, run on the
#                                      CPU; target/gpu-bundle-emulated) and run at small sizes,
#                                      benchmarks left out: every check above but the GPU's own
#                                      (NVRTC, its ordering of copies and kernels, its speed), so
#                                      a lent GPU's few minutes are not lost to this script
#
# `run` sets AURUM_REQUIRE_GPU=1 and AURUM_REQUIRE_NVRTC=1, so a missing device or NVRTC fails
# the tests instead of reporting them ignored. It takes about 4 minutes on an H200 (quick: 3).
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=target/gpu-bundle

# Builds the bundle; with `emulated`, on the host emulator, in its own target folder (the
# feature changes aurum-cuda and everything above it).
build_bundle() {
  local features=() target=target
  if [ "${1:-}" = emulated ]; then
    features=(--features aurum-cuda/emulator)
    target=target/emulator
    export CARGO_TARGET_DIR=$target
  fi
  mkdir -p "$bundle"
  local test_binary
  test_binary=$(cargo test --release -p aurum-cuda "${features[@]}" --test gpu --no-run \
    --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
  [ -n "$test_binary" ] || { echo "gpu-check: the test binary was not built" >&2; exit 1; }
  cp "$test_binary" "$bundle/gpu-tests"
  cargo build --release -p aurum-cuda "${features[@]}" --example gpu_bench
  cp "$target/release/examples/gpu_bench" "$bundle/gpu-bench"
  cargo build --release -p aurum-cli "${features[@]}"
  cp "$target/release/aurum" "$bundle/aurum"
  cargo build --release -p aurum-p3 "${features[@]}" --example keccak_prove
  cp "$target/release/examples/keccak_prove" "$bundle/keccak-prove"
  strip "$bundle"/* 2>/dev/null || true
  ls -l "$bundle"
}

# Adds the folders holding libcuda and libnvrtc to LD_LIBRARY_PATH.
find_libraries() {
  local dirs=() d
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu \
    /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && dirs+=("$d")
  done
  while IFS= read -r d; do dirs+=("$(dirname "$d")"); done < <(
    find /usr/local /opt -name 'libnvrtc.so*' -not -name '*builtins*' 2>/dev/null | head -5)
  local joined
  joined=$(IFS=:; echo "${dirs[*]}")
  export LD_LIBRARY_PATH="$joined${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# Runs a step with a time limit, so a hung kernel or copy costs one step, not the device's
# whole lease: `limited SECONDS command...`, the command's status (124 when it ran out).
limited() {
  local seconds=$1
  shift
  timeout --kill-after=10 "$seconds" "$@"
  local rc=$?
  [ "$rc" -eq 124 ] && echo "gpu-check: $1 ran past ${seconds} s and was stopped" >&2
  return "$rc"
}

# Runs the bundle; with `emulated` (the host emulator's bundle) at small sizes, without NVRTC
# and without the benchmarks.
run_bundle() {
  local emulated="" require_nvrtc=1
  local commit_rows=1048576 file_rows=3000000 fri_rows=1048576
  if [ "${1:-}" = emulated ]; then
    shift
    emulated=1 require_nvrtc=0
    commit_rows=16384 file_rows=40000 fri_rows=16384
  fi
  [ -x "$bundle/gpu-tests" ] || { echo "gpu-check: no $bundle (run: scripts/gpu-check.sh bundle)" >&2; exit 1; }
  find_libraries
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv || true
  fi
  grep -m1 'model name' /proc/cpuinfo || true
  # Both run even when the first fails (one trip to a GPU machine shows everything).
  local status=0
  echo "== GPU tests"
  AURUM_REQUIRE_GPU=1 AURUM_REQUIRE_NVRTC=$require_nvrtc limited 180 "$bundle/gpu-tests" \
    --test-threads 1 || status=1
  echo "== CLI on the GPU"
  "$bundle/aurum" info | grep -E '^(backend|device|device refused|threads):' || status=1
  local preset gpu cpu
  for preset in poseidon2-w8 poseidon2-w12 poseidon2-w16 plonky2 polygon; do
    gpu=$(AURUM_DEVICE=cuda limited 60 "$bundle/aurum" commit --rows "$commit_rows" --cols 12 \
      --cap-height 3 --preset "$preset") || { status=1; continue; }
    cpu=$(AURUM_DEVICE=cpu "$bundle/aurum" commit --rows "$commit_rows" --cols 12 \
      --cap-height 3 --preset "$preset") || { status=1; continue; }
    echo "$gpu" | grep -E '^(device|time):' | tr '\n' ' '
    echo "$cpu" | grep -E '^time:' | sed 's/^/cpu /'
    # Everything but the lines that name the device or measure: matrix, preset, root, cap.
    local same='^(backend|device|threads|time|throughput|peak memory):'
    if [ "$(echo "$gpu" | grep -vE "$same")" = "$(echo "$cpu" | grep -vE "$same")" ] &&
      echo "$gpu" | grep -q '^root:'; then
      echo "$preset: aurum commit root and cap on the GPU equal the CPU's"
    else
      echo "$preset: aurum commit on the GPU DIFFERS from the CPU"; status=1
    fi
  done
  # A file streams to the GPU as it is read: the same root as the generated matrix's on the
  # CPU (`aurum gen` writes the matrix `commit --rows --cols` generates).
  local file="${TMPDIR:-/tmp}/aurum-gpu-check-input.bin"
  "$bundle/aurum" gen --rows "$file_rows" --cols 12 --out "$file" >/dev/null || status=1
  gpu=$(AURUM_DEVICE=cuda limited 60 "$bundle/aurum" commit --input "$file" --cols 12) ||
    status=1
  cpu=$(AURUM_DEVICE=cpu "$bundle/aurum" commit --rows "$file_rows" --cols 12) || status=1
  if [ "$(echo "$gpu" | grep '^root:')" = "$(echo "$cpu" | grep '^root:')" ] &&
    echo "$gpu" | grep -q '^root:'; then
    echo "a file streamed to the GPU: its root equals the CPU's"
  else
    echo "a file streamed to the GPU: root DIFFERS from the CPU's"; status=1
  fi
  rm -f "$file"
  # `aurum fri` with its input tree, every commit-phase tree and every fold on the GPU: the
  # proof file (root, cap, opened values, proof; no timings) equals the CPU's byte for byte.
  local proofs="${TMPDIR:-/tmp}/aurum-gpu-check-fri"
  for preset in poseidon2-w8 poseidon2-w16; do
    gpu=$(AURUM_DEVICE=cuda limited 60 "$bundle/aurum" fri --rows "$fri_rows" --cols 8 \
      --preset "$preset" --out "$proofs-gpu.json") || { status=1; continue; }
    cpu=$(AURUM_DEVICE=cpu "$bundle/aurum" fri --rows "$fri_rows" --cols 8 --preset "$preset" \
      --out "$proofs-cpu.json") || { status=1; continue; }
    echo "$gpu" | grep -E '^(device|Merkle tree|quotients|commit phase|total):' | tr -s ' ' | tr '\n' ' '
    echo "$cpu" | grep -E '^(Merkle tree|quotients|commit phase|total):' | tr -s ' ' | tr '\n' ' ' |
      sed 's/^/cpu /'
    echo
    if cmp -s "$proofs-gpu.json" "$proofs-cpu.json" &&
      echo "$gpu" | grep -q 'commit-phase trees, [0-9]* folds, reduced openings'; then
      echo "$preset: aurum fri's proof with its trees, folds and reduced openings on the GPU" \
        "equals the CPU's"
    else
      echo "$preset: aurum fri on the GPU DIFFERS from the CPU (or ran no tree, fold or" \
        "reduced opening there)"
      status=1
    fi
  done
  rm -f "$proofs-gpu.json" "$proofs-cpu.json"
  if [ -z "$emulated" ]; then
    echo "== GPU benchmark"
    limited 180 "$bundle/gpu-bench" "$@" || status=1
    echo "== aurum bench with the GPU (quick)"
    # The record lands in $OUT where the device tool sets it (it comes back), else the bundle.
    AURUM_DEVICE=cuda limited 120 "$bundle/aurum" bench --quick --label gpu-host \
      --out "${OUT:-$bundle}/bench-gpu-host.json" || status=1
  fi
  echo "== Keccak STARK, aurum-fri committing on the GPU"
  # Identity on one thread (small), then timed rounds on every core.
  AURUM_DEVICE=cuda limited 90 "$bundle/keccak-prove" --log-rows 11 --runs 1 || status=1
  AURUM_DEVICE=cuda limited 90 "$bundle/keccak-prove" --fixed-constants --log-rows 11 --runs 1 ||
    status=1
  if [ -z "$emulated" ]; then
    AURUM_DEVICE=cuda limited 120 "$bundle/keccak-prove" --log-rows 16 --runs 3 --no-identity ||
      status=1
    AURUM_DEVICE=cpu limited 90 "$bundle/keccak-prove" --log-rows 16 --runs 1 --no-identity ||
      status=1
  fi
  [ "$status" -eq 0 ] && echo "gpu-check: passed" || echo "gpu-check: FAILED"
  return "$status"
}

case "${1:-all}" in
  bundle) build_bundle ;;
  run) shift; run_bundle "$@" ;;
  all) build_bundle; run_bundle ;;
  emulate)
    bundle=target/gpu-bundle-emulated
    build_bundle emulated
    run_bundle emulated
    ;;
  *) echo "usage: scripts/gpu-check.sh [bundle | run [quick] | emulate]" >&2; exit 2 ;;
esac
