#!/usr/bin/env bash
# Downloads one of NVIDIA's CUDA wheels from PyPI and unpacks it into a folder: the whole wheel,
# or only the named members (executables, marked so). No GPU or CUDA install needed; used by
# scripts/cuda-compile.sh (NVRTC, ptxas) and scripts/cuda-sass.sh (cuobjdump, nvdisasm).
#
# Usage: scripts/cuda-wheel.sh DEST PACKAGE==VERSION [MEMBER...]
# Needs: python3 with pip (installed with scripts/packages.sh python where missing) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=$1
package=$2
shift 2
if ! python3 -m pip --version >/dev/null 2>&1; then
  scripts/packages.sh python
fi
mkdir -p "$dest"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$dest" "$package"
python3 - "$dest" "${package%%==*}" "$@" <<'PY'
import glob, os, stat, sys, zipfile
folder, name, members = sys.argv[1], sys.argv[2].replace("-", "_"), sys.argv[3:]
(wheel,) = glob.glob(f"{folder}/{name}-*.whl")
with zipfile.ZipFile(wheel) as z:
    for member in members or z.namelist():
        path = z.extract(member, folder)
        if members:
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
os.remove(wheel)
PY
