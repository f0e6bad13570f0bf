#!/usr/bin/env bash
# The CUDA kernels compile, on a machine without a GPU: NVRTC from the nvidia-cuda-nvrtc wheel
# (PyPI; no GPU or driver needed), unpacked into target/, then aurum-cuda's `nvrtc::` tests
# (crates/cuda/tests/gpu.rs: the kernels compiled to PTX for every architecture listed there)
# with AURUM_REQUIRE_NVRTC=1, so a missing NVRTC fails instead of being reported ignored.
# The GPU's own results are checked by scripts/gpu-check.sh on a machine with one.
#
# Needs: python3 with pip (installed with scripts/packages.sh python where missing) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

version=13.5.37
dir=target/nvrtc-$version
lib=$dir/nvidia/cu13/lib
if [ ! -e "$lib/libnvrtc.so.13" ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    scripts/packages.sh python
  fi
  mkdir -p "$dir"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$dir" \
    "nvidia-cuda-nvrtc==$version"
  python3 - "$dir" <<'PY'
import glob, sys, zipfile
folder = sys.argv[1]
(wheel,) = glob.glob(f"{folder}/nvidia_cuda_nvrtc-*.whl")
zipfile.ZipFile(wheel).extractall(folder)
PY
fi
# `--workspace` (the only `gpu` test target is aurum-cuda's): the features of the workspace
# test build, whose binary is reused; `-p aurum-cuda` would rebuild dependencies.
AURUM_REQUIRE_NVRTC=1 LD_LIBRARY_PATH="$PWD/$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  cargo test --workspace --test gpu -- nvrtc::
