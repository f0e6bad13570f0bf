#!/usr/bin/env bash
# Decide the NEON multiplication strategy without Arm hardware: build the two 8-accumulator
# throughput loops of crates/goldilocks/examples/neon_mul_strategies.rs for aarch64, cut each
# loop body out of the binary and ask llvm-mca for its steady-state cycles on several Arm core
# models; then run the example under qemu (correctness, and timings that are NOT hardware).
#
# Needs what scripts/test-aarch64.sh installs, plus llvm-mca (Debian: llvm-16).
set -euo pipefail
cd "$(dirname "$0")/.."
MCA=${MCA:-$(command -v llvm-mca-16 || command -v /usr/lib/llvm-16/bin/llvm-mca || command -v llvm-mca || true)}
[ -n "$MCA" ] || { echo "neon-mul-mca: llvm-mca not found (apt-get install llvm-16)" >&2; exit 1; }
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR=target/aarch64-cross
cargo build -q --release -p aurum-goldilocks --example neon_mul_strategies --target aarch64-unknown-linux-gnu
bin=target/aarch64-cross/aarch64-unknown-linux-gnu/release/examples/neon_mul_strategies
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aarch64-linux-gnu-objdump -d --no-show-raw-insn "$bin" >"$tmp/all.dis"
for f in neon_mul_interleaved_scalar neon_mul_vector; do
  awk -v f="$f" '$0 ~ "<.*" f ".*>:$" {on=1; next} on && /^$/ {on=0} on {print}' "$tmp/all.dis" >"$tmp/$f.dis"
  # The loop: from the target of the last backward conditional branch up to that branch.
  awk '
    function hex(s,   i, c, v) { v = 0; for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }; return v }
    { addr = $1; sub(":", "", addr); lines[NR] = $0; addrs[NR] = addr }
    $2 ~ /^(b\.|cbnz|cbz|tbnz|tbz)/ {
      tgt = ""; for (i = 3; i <= NF; i++) if ($i ~ /^[0-9a-f]+$/) tgt = $i
      if (tgt != "" && hex(tgt) < hex(addr)) { start = tgt; end = NR }
    }
    END {
      for (i = 1; i < end; i++) if (addrs[i] == start) s = i
      for (i = s; i < end; i++) { l = lines[i]; sub(/^[ \t]*[0-9a-f]+:[ \t]*/, "", l); sub(/\/\/.*/, "", l); print l }
    }
  ' "$tmp/$f.dis" >"$tmp/$f.s"
  echo "== $f: $(wc -l <"$tmp/$f.s") instructions per iteration (8 vectors = 16 products)"
  for cpu in cortex-a72 cortex-a76 neoverse-n1 neoverse-n2 neoverse-v1; do
    cycles=$("$MCA" -mtriple=aarch64 -mcpu="$cpu" -iterations=200 "$tmp/$f.s" 2>/dev/null \
      | awk '/^Total Cycles:/ {print $3}')
    printf '   %-12s %6.2f cycles per product\n' "$cpu" "$(echo "$cycles / 200 / 16" | bc -l)"
  done
done
echo "== under qemu (emulation: relative numbers only)"
QEMU_CPU=cortex-a72 qemu-aarch64-static "$bin"
