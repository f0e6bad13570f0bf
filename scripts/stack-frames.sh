#!/usr/bin/env bash
# Stack frame sizes of the dispatched kernel entry points at opt-level 0, read from the
# prologues in the disassembly of the `aurum` CLI: what a dependent's `dev` build reserves per
# call of a kernel (the `run_kernel*` functions are each backend's entry point; `Outlined` ones
# are the permutations that `Permutation::permute_batch_outlined` calls).
#
# Builds the CLI with the `unoptimised` profile and v0 symbol mangling (which spells out the
# generic arguments) into target/stack-frames, then prints every entry point whose frame is at
# least MIN_KIB, largest first. Needs objdump (binutils).
#
# Usage: scripts/stack-frames.sh [MIN_KIB (default 16)] [extra grep -E filter]
set -euo pipefail
cd "$(dirname "$0")/.."

min_kib=${1:-16}
filter=${2:-.}
dir="${CARGO_TARGET_DIR:-target}/stack-frames"
RUSTFLAGS="-C symbol-mangling-version=v0" CARGO_TARGET_DIR="$dir" \
  cargo build -q --profile unoptimised -p aurum-cli
command -v objdump >/dev/null || { echo "stack-frames: objdump (binutils) is needed" >&2; exit 1; }

# A frame is 8 bytes per push plus every `sub $n,%rsp` of the prologue; large frames are
# probed a page at a time (`sub $n,%r11`, then a loop of `sub $0x1000,%rsp`), counted once.
objdump -d --no-show-raw-insn -C "$dir/unoptimised/aurum" | awk -v min="$((min_kib * 1024))" '
  function hex(s,    i, v) {
    v = 0
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
  }
  function flush() {
    if (name != "" && size >= min) printf "%8.1f KiB  %s\n", size / 1024, name
  }
  /^[0-9a-f]+ <.*>:$/ {
    flush()
    name = ""; size = 0; probing = 0; done = 0
    if ($0 ~ /run_kernel/) { name = $0; sub(/^[0-9a-f]+ </, "", name); sub(/>:$/, "", name) }
    next
  }
  name != "" && !done {
    op = $2; args = $3
    if (op == "push") { size += 8; next }
    if (op == "sub" && args ~ /^\$0x[0-9a-f]+,%r11$/) { size += hex(substr(args, 4, index(args, ",") - 4)); probing = 1; next }
    if (op == "sub" && args ~ /^\$0x[0-9a-f]+,%rsp$/) {
      n = hex(substr(args, 4, index(args, ",") - 4))
      if (!(probing && n == 4096)) size += n
      next
    }
    if (op ~ /^(mov|movq|and|cmp|jne|lea)$/) next
    done = 1
  }
  END { flush() }
' | sort -rn | grep -E -- "$filter" \
  | sed -E 's/aurum_goldilocks::backend::[a-z0-9_]+:://; s/aurum_goldilocks::backend::(avx2|avx512|neon)::Packed//g;
            s/aurum_goldilocks::field::Goldilocks/Goldilocks/g; s/aurum_[a-z0-9]+::([a-z_]+::)*//g'
