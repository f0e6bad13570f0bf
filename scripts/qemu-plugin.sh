#!/usr/bin/env bash
# Build the instruction-counting QEMU plugin (tools/insn-count) and check that it counts exactly.
#
# Installs what it needs when missing (Debian bookworm packages; root or sudo):
#   qemu-user                   qemu-aarch64 / qemu-x86_64, the *dynamic* builds: they load TCG
#                               plugins (qemu-user-static's binaries reject `-plugin`)
#   binutils-aarch64-linux-gnu  aarch64 assembler + linker for the smoke test (binutils: x86_64)
# Builds tools/insn-count (a Rust cdylib on qemu-plugin-sys, plugin API v1 = QEMU 6.0 .. 8.x,
# e.g. bookworm's 7.2) for the host with the pinned toolchain, isolated from cross-build
# settings (RUSTFLAGS, CARGO_BUILD_TARGET, RUSTC ...), and copies it to OUTDIR/libinsn_count.so.
# Then runs two hand-written programs (aarch64 and x86_64) of exactly 2004 executed
# instructions under the plugin and fails unless both count 2004: a broken plugin, a qemu
# without plugin support or a changed counting rule fails here, loudly.
#
# Usage: scripts/qemu-plugin.sh OUTDIR [--no-smoke]     (idempotent; a rerun takes < 1 s)
#   then: qemu-aarch64 -cpu max -plugin OUTDIR/libinsn_count.so[,out=FILE][,mode=tb|inline|insn][,syms=N] PROG ARGS
#   stderr: "insn-count: N (mode=tb, threads=T)"; with out=FILE also the bare N in FILE.
#   See tools/insn-count/src/lib.rs for the modes; scripts/arm-instructions.sh uses it.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

log() { echo "qemu-plugin: $*"; }
die() { echo "qemu-plugin: ERROR: $*" >&2; exit 1; }

OUT=""
SMOKE=1
for a in "$@"; do
  case "$a" in
    --no-smoke) SMOKE=0 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    -*) die "unknown argument '$a'" ;;
    *) [ -z "$OUT" ] || die "one OUTDIR only"; OUT=$a ;;
  esac
done
[ -n "$OUT" ] || { echo "usage: scripts/qemu-plugin.sh OUTDIR [--no-smoke]" >&2; exit 2; }
[ "$(uname -m)" = x86_64 ] || die "host is $(uname -m); this script expects an x86_64 Debian host"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case "$OUT" in *,*) die "OUTDIR must not contain a comma (qemu splits plugin arguments on commas)" ;; esac

# ---- 1. packages --------------------------------------------------------------------------
"$ROOT/scripts/packages.sh" qemu-plugin || die "qemu-user and binutils could not be installed (above)"
for q in qemu-aarch64 qemu-x86_64; do
  command -v $q >/dev/null || die "$q missing (package qemu-user)"
  $q -h | grep -q -- '^-plugin' || die "$(command -v $q) has no -plugin option (a static build?)"
done
QV=$(qemu-aarch64 --version | head -1)
case "$QV" in
  *" 6."* | *" 7."* | *" 8."*) ;;
  *) die "'$QV': tools/insn-count speaks plugin API v1 (QEMU 6.0 .. 8.x); a newer QEMU needs the plugin-api-v2+ feature of qemu-plugin-sys and small API changes" ;;
esac

# ---- 2. the plugin ------------------------------------------------------------------------
# Built for the host explicitly, with everything a caller may have set up for cross builds
# unset: RUSTFLAGS with +sve, CARGO_BUILD_TARGET=aarch64-..., the Debian RUSTC, a wrapper.
SRC=$ROOT/tools/insn-count
HOST=$(env -u RUSTC rustc -vV | sed -n 's/^host: //p')
[ -n "$HOST" ] || die "cannot ask rustc for the host triple"
log "cargo build --release --target $HOST (tools/insn-count)"
build_log=$OUT/build.log
(cd "$SRC" && env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_TARGET -u RUSTC_WRAPPER \
    -u RUSTC -u RUSTDOC CARGO_TARGET_DIR="$SRC/target" \
    cargo build --locked --release --target "$HOST") >"$build_log" 2>&1 \
  || { tail -30 "$build_log" >&2; die "plugin build failed (log: $build_log)"; }
SO=$SRC/target/$HOST/release/libinsn_count.so
[ -f "$SO" ] || die "the build produced no $SO"
cmp -s "$SO" "$OUT/libinsn_count.so" || cp "$SO" "$OUT/libinsn_count.so"

# ---- 3. smoke test: programs of exactly 2004 executed instructions -------------------------
# mov; 1000 × (subs; b.ne); mov; mov; svc  =  1 + 2000 + 3 instructions (x86_64 alike).
if [ "$SMOKE" = 1 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cat >"$tmp/a64.s" <<'EOF'
    .global _start
_start:
    mov x0, #1000
1:  subs x0, x0, #1
    b.ne 1b
    mov x8, #93
    mov x0, #0
    svc #0
EOF
  cat >"$tmp/x86.s" <<'EOF'
    .global _start
_start:
    mov $1000, %ecx
1:  dec %ecx
    jnz 1b
    mov $60, %eax
    xor %edi, %edi
    syscall
EOF
  { aarch64-linux-gnu-as -o "$tmp/a64.o" "$tmp/a64.s" && aarch64-linux-gnu-ld -o "$tmp/a64" "$tmp/a64.o"; } \
    || die "assembling the aarch64 smoke program failed"
  { as -o "$tmp/x86.o" "$tmp/x86.s" && ld -o "$tmp/x86" "$tmp/x86.o"; } \
    || die "assembling the x86_64 smoke program failed"
  P=$OUT/libinsn_count.so
  for run in "qemu-aarch64 -cpu max,sve-default-vector-length=64 -plugin $P $tmp/a64" \
             "qemu-aarch64 -cpu cortex-a72 -plugin $P,mode=insn $tmp/a64" \
             "qemu-aarch64 -cpu max -plugin $P,out=$tmp/count $tmp/a64" \
             "qemu-x86_64 -cpu max -plugin $P $tmp/x86"; do
    got=$(timeout 60 env -i $run 2>&1) || { echo "$got" >&2; die "smoke run failed: $run"; }
    echo "$got" | grep -q '^insn-count: 2004 ' || { echo "$got" >&2; die "expected 2004 instructions: $run"; }
  done
  [ "$(cat "$tmp/count")" = 2004 ] || die "out=FILE holds '$(cat "$tmp/count")', expected 2004"
  log "smoke ok: the aarch64 (tb, insn, out=) and x86_64 programs counted exactly 2004 instructions"
fi
log "ready: $QV, $OUT/libinsn_count.so"
