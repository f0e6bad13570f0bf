#!/usr/bin/env bash
# The CUDA kernels compile, on a machine without a GPU: NVRTC from the nvidia-cuda-nvrtc wheel
# (PyPI; no GPU or driver needed), unpacked into target/, then aurum-cuda's `nvrtc::` tests
# (crates/cuda/tests/gpu.rs: the kernels compiled to PTX for every architecture listed there)
# with AURUM_REQUIRE_NVRTC=1, so a missing NVRTC fails instead of being reported ignored; then
# ptxas assembles each architecture's PTX.
# The GPU's own results are checked by scripts/gpu-check.sh on a machine with one.
#
# Needs: python3 with pip (installed with scripts/packages.sh python where missing) and PyPI
# (scripts/cuda-wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

version=13.5.37
dir=target/nvrtc-$version
lib=$dir/nvidia/cu13/lib
if [ ! -e "$lib/libnvrtc.so.13" ]; then
  scripts/cuda-wheel.sh "$dir" "nvidia-cuda-nvrtc==$version"
fi
# `--workspace` (the only `gpu` test target is aurum-cuda's): the features of the workspace
# test build, whose binary is reused; `-p aurum-cuda` would rebuild dependencies. The tests
# leave each architecture's PTX in $ptx_dir.
ptx_dir=target/cuda-ptx
rm -rf "$ptx_dir"
mkdir -p "$ptx_dir"
AURUM_REQUIRE_NVRTC=1 AURUM_PTX_DIR="$PWD/$ptx_dir" \
  LD_LIBRARY_PATH="$PWD/$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  cargo test --workspace --test gpu -- nvrtc::

# NVRTC passes the kernels' inline PTX (goldilocks.cuh's carry chains) through unchecked: the
# assembler checks it, as the driver does when it loads the kernels. So assemble every
# architecture's PTX with ptxas (from the nvidia-cuda-nvcc wheel, unpacked into target/).
tools=target/cuda-tools-$version
bin=$tools/nvidia/cu13/bin
if [ ! -x "$bin/ptxas" ]; then
  scripts/cuda-wheel.sh "$tools" "nvidia-cuda-nvcc==$version" nvidia/cu13/bin/ptxas
fi
count=0
pids=()
for ptx in "$ptx_dir"/compute_*.ptx; do
  arch=${ptx##*/compute_}
  arch=${arch%.ptx}
  # Kept: scripts/cuda-sass.sh --cubin counts the sm_90 one's instructions.
  "$bin/ptxas" -arch="sm_$arch" -O3 "$ptx" -o "$ptx_dir/sm_$arch.cubin" &
  pids+=($!)
  count=$((count + 1))
done
for pid in "${pids[@]}"; do
  wait "$pid"
done
if [ "$count" -lt 7 ]; then
  echo "cuda-compile: only $count architectures' PTX to assemble" >&2
  exit 1
fi
echo "cuda-compile: ptxas assembled the kernels for $count architectures"
