#!/usr/bin/env bash
# Machine instructions per permutation of the GPU's permutation kernels (Poseidon2 at widths 8,
# 12 and 16, plonky2's Poseidon), without a GPU: the kernels compiled to PTX by NVRTC (as the
# library does at run time), assembled for compute 9.0 (Hopper) by ptxas and disassembled by
# cuobjdump (all three from NVIDIA's PyPI wheels, unpacked into target/), then each kernel's
# round loops weighted by their trip counts (Poseidon2: 4 full, 22 partial, 4 full rounds;
# Poseidon: 3 full rounds looped, the fourth straight, 22 partial, 4 full).
#
# The counts are split by the pipe that issues them. On Hopper (compute 9.0) an SM issues one
# warp instruction per clock on each of its four schedulers, and the integer work goes to two
# pipes of 16 lanes each per scheduler: the ALU pipe (IADD3, ISETP, SEL, LOP3, SHF, …) and the
# FMA pipe (IMAD and its forms); so a permutation needs at least max(ALU, IMAD, all/2) / 64
# clocks of an SM, which with an H200's 132 SMs at 1.98 GHz gives the ceiling printed.
#
# Usage: scripts/cuda-sass.sh [--check] [--ptx FILE]
#   --check     CI: fail unless every count listed in scripts/cuda-sass-bands.txt is inside
#               its band (the counts are deterministic for the pinned ptxas)
#   --ptx FILE  the kernels' PTX for compute 9.0 as scripts/cuda-compile.sh leaves it
#               (target/cuda-ptx/compute_90.ptx), instead of compiling it here
#   --cubin FILE  that PTX already assembled for sm_90 by ptxas -O3, as scripts/cuda-compile.sh
#               leaves it (target/cuda-ptx/sm_90.cubin), instead of assembling it here
# Needs: python3 with pip and PyPI (scripts/cuda-wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
ptx=
cubin=
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --ptx) ptx=$2; shift ;;
    --cubin) cubin=$2; shift ;;
    *) echo "cuda-sass: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
arch=90
sms=132
ghz=1.98
version=13.5.37
nvrtc=target/nvrtc-$version
tools=target/cuda-tools-$version
bin=$tools/nvidia/cu13/bin
# NVRTC and ptxas.
if [ ! -e "$nvrtc/nvidia/cu13/lib/libnvrtc.so.13" ] || [ ! -x "$bin/ptxas" ]; then
  scripts/cuda-compile.sh >/dev/null
fi
if [ ! -x "$bin/cuobjdump" ] || [ ! -x "$bin/nvdisasm" ]; then
  scripts/cuda-wheel.sh "$tools" "nvidia-cuda-cuobjdump==$version" nvidia/cu13/bin/cuobjdump
  scripts/cuda-wheel.sh "$tools" "nvidia-cuda-nvdisasm==$version" nvidia/cu13/bin/nvdisasm
fi
work=target/cuda-sass
mkdir -p "$work"
if [ -z "$cubin" ]; then
  if [ -z "$ptx" ]; then
    ptx=$work/kernels.ptx
    LD_LIBRARY_PATH="$PWD/$nvrtc/nvidia/cu13/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      cargo run --quiet --release -p aurum-cuda --example ptx -- "$arch" > "$ptx"
  fi
  cubin=$work/kernels.cubin
  "$bin/ptxas" -arch="sm_$arch" -O3 "$ptx" -o "$cubin"
fi
NVDISASM_PATH="$bin" "$bin/cuobjdump" -sass "$cubin" > "$work/kernels.sass"
python3 - "$work/kernels.sass" "$arch" "$sms" "$ghz" "$check" scripts/cuda-sass-bands.txt <<'PY'
import re, sys
path, arch, sms, ghz = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
check, bands_path = sys.argv[5] == "1", sys.argv[6]
text = open(path).read()

def instructions(kernel):
    m = re.search(r"Function : " + re.escape(kernel) + r"\n(.*?)(?=\n\s*Function :|\Z)", text, re.S)
    if not m:
        sys.exit(f"cuda-sass: no kernel {kernel} in the disassembly")
    out = []
    for line in m.group(1).splitlines():
        mm = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?);", line)
        if mm:
            text_ = re.sub(r"^@!?U?P\w+\s+", "", mm.group(2).strip())
            out.append((int(mm.group(1), 16), text_.split()[0], text_))
    return out

def pipe(op):
    if op.startswith("IMAD"):
        return "imad"
    if op.startswith(("U", "LD", "ST", "BRA", "EXIT", "S2", "CS2R", "NOP", "BAR")):
        return "other"
    return "alu"

print(f"Machine instructions per permutation, compute {arch} (ptxas of CUDA 13.5), and the")
print(f"ceiling they set on {sms} SMs at {ghz} GHz (64 ALU and 64 IMAD lanes, 128 issue slots")
print("per SM and clock):")
print(f"{'kernel':24} {'ALU':>7} {'IMAD':>7} {'other':>6} {'all':>7} {'G perm/s':>9}")
counted = {}
# Each kernel's three round loops and their trip counts: Poseidon2's initial full, partial and
# final full rounds; Poseidon's first three full rounds (the fourth, with the partial rounds'
# first layer, is straight code between the loops), its partial and its final full rounds.
trips = {
    "poseidon2_w8_permute": (4, 22, 4),
    "poseidon2_w12_permute": (4, 22, 4),
    "poseidon2_w16_permute": (4, 22, 4),
    "poseidon_permute_states": (3, 22, 4),
}
for kernel in trips:
    ins = instructions(kernel)
    loops = []
    for addr, op, t in ins:
        target = re.search(r"0x([0-9a-f]+)", t.split("BRA", 1)[1]) if op == "BRA" else None
        if target and int(target.group(1), 16) < addr:
            loops.append((int(target.group(1), 16), addr))
    if not loops:
        sys.exit(f"cuda-sass: {kernel} has no loop")
    outer = max(loops, key=lambda l: l[1] - l[0])
    inner = sorted(l for l in loops if l != outer and outer[0] <= l[0] and l[1] <= outer[1])
    if len(inner) != 3:
        sys.exit(f"cuda-sass: {kernel}: expected the three round loops inside the rounds loop, found {len(inner)}")
    counts = {"alu": 0, "imad": 0, "other": 0}
    for addr, op, _ in ins:
        if not outer[0] <= addr <= outer[1]:
            continue
        weight = next((n for (s, e), n in zip(inner, trips[kernel]) if s <= addr <= e), 1)
        counts[pipe(op)] += weight
    total = sum(counts.values())
    counted[kernel] = dict(counts, all=total)
    clocks = max(counts["alu"] / 64, counts["imad"] / 64, total / 128)
    rate = sms * ghz / clocks
    print(f"{kernel:24} {counts['alu']:>7} {counts['imad']:>7} {counts['other']:>6} {total:>7} {rate:>9.2f}")

if check:
    failed = checked = 0
    for line in open(bands_path):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        kernel, pipe, expected, tolerance = fields[0], fields[1], float(fields[2]), float(fields[3])
        if kernel not in counted or pipe not in counted[kernel]:
            sys.exit(f"cuda-sass: {bands_path} names {kernel} {pipe}, which is not counted")
        got = counted[kernel][pipe]
        low, high = expected * (1 - tolerance / 100), expected * (1 + tolerance / 100)
        ok = low <= got <= high
        checked += 1
        failed += not ok
        print(f"cuda-sass: {'ok  ' if ok else 'FAIL'} {kernel} {pipe}: {got} (band {low:.0f} .. {high:.0f})")
    if checked == 0:
        sys.exit(f"cuda-sass: {bands_path} lists no bands")
    if failed:
        sys.exit(f"cuda-sass: {failed} of {checked} counts outside their bands")
    print(f"cuda-sass: all {checked} counts inside their bands")
PY
