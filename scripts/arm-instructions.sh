#!/usr/bin/env bash
# Executed guest instructions per unit of work, counted under qemu with a TCG plugin: the ARM
# performance measure when there is no ARM hardware (NEON, SVE2 at VL 128/256/512/2048, SVE on
# A64FX), next to x86-64 scalar and AVX2 counted the same way.
#
# Usage: scripts/arm-instructions.sh [--quick | --check] [--out DIR]
#   (default)  the full table: 7 kernels x 9 columns; a few minutes
#   --quick    the same table with fewer iterations (counts agree with the default to well
#              under 1 %; the default amortises rayon's thread wake-ups over more work)
#   --check    CI: count each (kernel, column) listed in scripts/insn-bands.txt and fail if the
#              instructions per unit leave the band stored there (a regression in instruction
#              count, or an unexplained improvement that should move the band)
#   --out DIR  where to write table.md and counts.csv (default: $CARGO_TARGET_DIR or target,
#              /arm-instructions)
#
# Installs what it needs when missing: the aarch64 cross toolchain (scripts/aarch64-toolchain.sh)
# and qemu-user + the counting plugin (scripts/qemu-plugin.sh, which checks that the plugin
# counts a hand-written program exactly). Builds tools/insn-workload in release for aarch64
# (Debian rustc, target dir .../aarch64-cross) and for x86_64 (the pinned toolchain).
#
# Method. Each cell runs the workload twice, with ITERS = k and 2k (zero-padded to the same
# length), under `env -i RAYON_NUM_THREADS=1 AURUM_BACKEND=<backend> qemu-<arch> -cpu <model>
# -plugin libinsn_count.so,out=FILE`: an empty, fixed environment and equal-length argv, so the
# difference is exactly k iterations (process start, setup, one-time tables and printing cancel
# out). The cell is difference / (k x units per iteration). Every SVE instruction counts 1 at
# any vector length; instruction counts are not time. A run must report the backend and SVE
# vector length its column asks for, and all columns of a row must compute the same checksum.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

log() { echo "arm-instructions: $*" >&2; }
die() { echo "arm-instructions: ERROR: $*" >&2; exit 1; }

MODE=default
OUTDIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) MODE=quick ;;
    --check) MODE=check ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; OUTDIR=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
BASE=${CARGO_TARGET_DIR:-target}
mkdir -p "$BASE"
BASE=$(cd "$BASE" && pwd)
OUTDIR=${OUTDIR:-$BASE/arm-instructions}
BANDS=$ROOT/scripts/insn-bands.txt

# ---- the table's columns: id | heading | qemu | -cpu | AURUM_BACKEND | expected "sve=..." ---
# NEON runs on `max` with SVE switched off: the same CPU model (hence the same glibc string
# routines) as the SVE2 columns, without SVE, like a Graviton2 / Cortex-A7x core.
COLUMNS=(
  "neon|NEON|qemu-aarch64|max,sve=off|neon|sve=none"
  "sve2-128|SVE2 VL128|qemu-aarch64|max,sve-default-vector-length=16|sve|sve=128"
  "sve2-256|SVE2 VL256|qemu-aarch64|max,sve-default-vector-length=32|sve|sve=256"
  "sve2-512|SVE2 VL512|qemu-aarch64|max,sve-default-vector-length=64|sve|sve=512"
  "sve2-2048|SVE2 VL2048|qemu-aarch64|max,sve-default-vector-length=256|sve|sve=2048"
  "sve-a64fx-256|SVE VL256 (A64FX)|qemu-aarch64|a64fx,sve256=on|sve|sve=256"
  "sve-a64fx|SVE VL512 (A64FX)|qemu-aarch64|a64fx|sve|sve=512"
  "x86-scalar|x86-64 scalar|qemu-x86_64|max|scalar|sve=none"
  "x86-avx2|x86-64 AVX2|qemu-x86_64|max|avx2|sve=none"
  "x86-avx512|x86-64 AVX-512|-|-|avx512|sve=none"
)
# ---- the rows: kernel | heading | k (default) | k (--quick, --check) ------------------------
KERNELS=(
  "p2w8|Poseidon2 W8 permutation, per state|16|2"
  "p2w12|Poseidon2 W12 permutation, per state|16|2"
  "p2w16|Poseidon2 W16 permutation, per state|16|2"
  "poseidon12|Poseidon (plonky2) W12 permutation, per state|16|2"
  "merkle-p2w8|Merkle commit 2^16 x 8, poseidon2-w8, per leaf|2|1"
  "merkle-plonky2|Merkle commit 2^16 x 8, plonky2, per leaf|2|1"
  "ntt|Forward NTT 2^16 x 8 (bit-reversed output), per butterfly|4|1"
)
field() { local IFS='|'; local a; read -r -a a <<<"$1"; echo "${a[$2]}"; }
column_line() { local c; for c in "${COLUMNS[@]}"; do [ "$(field "$c" 0)" = "$1" ] && { echo "$c"; return; }; done; die "unknown column '$1'"; }
kernel_line() { local k; for k in "${KERNELS[@]}"; do [ "$(field "$k" 0)" = "$1" ] && { echo "$k"; return; }; done; die "unknown kernel '$1'"; }

# ---- tools and builds ----------------------------------------------------------------------
t0=$SECONDS
scripts/aarch64-toolchain.sh >&2
scripts/qemu-plugin.sh "$BASE/qemu-plugins" >&2
PLUGIN=$BASE/qemu-plugins/libinsn_count.so
log "building tools/insn-workload (release) for x86_64 and aarch64"
# With the CLI in the same build, cargo resolves the shared crates' features as for the README's
# `cargo run --release` (the CLI is the default member), so the release units that command built
# are reused and only the workload compiles (43 s instead of 78 s on a 2-vCPU Intel Xeon, family
# 6 model 207); alone, the workload's narrower features (syn's, tracing's) give other units, and
# serde, its derive and Aurum's crates compiled again. Standing alone, this builds the CLI too.
# The two builds run at once (their target directories differ): each ends in long
# single-threaded stretches (the workload crate, codegen-units = 1; the LTO link), which the
# other one's compilation fills.
cargo build -q --release -p aurum-cli -p aurum-insn-workload &
x86_build=$!
X86_BIN=$BASE/release/insn-workload
env RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR="$BASE/aarch64-cross" \
  cargo build -q --release --target aarch64-unknown-linux-gnu -p aurum-insn-workload ||
  { kill "$x86_build" 2>/dev/null || true; die "the aarch64 build of the workload failed"; }
wait "$x86_build" || die "the x86-64 build of the workload failed"
A64_BIN=$BASE/aarch64-cross/aarch64-unknown-linux-gnu/release/insn-workload
[ -x "$X86_BIN" ] && [ -x "$A64_BIN" ] || die "the workload binaries are missing after the build"
log "tools and builds ready in $((SECONDS - t0)) s"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
case "$TMP" in *,*) die "temporary directory $TMP contains a comma" ;; esac

# run COLUMN KERNEL ITERS: one counted run. Sets RUN_COUNT, RUN_SUM (checksum), RUN_UNITS.
# Returns 1 with the reason in RUN_ERR only when the workload refuses the column's backend
# (unknown to this build, or not on this CPU model); any other failure (a crash, SIGILL, a
# qemu error) stops the script.
run() {
  local col=$1 kernel=$2 iters=$3 line qemu cpu backend sve bin info
  line=$(column_line "$col")
  qemu=$(field "$line" 2) cpu=$(field "$line" 3) backend=$(field "$line" 4) sve=$(field "$line" 5)
  RUN_ERR="" RUN_COUNT="" RUN_SUM="" RUN_UNITS=""
  case "$qemu" in
    qemu-aarch64) bin=$A64_BIN ;;
    qemu-x86_64) bin=$X86_BIN ;;
    *) RUN_ERR="not countable"; return 1 ;;
  esac
  rm -f "$TMP/count"
  local rc=0
  env -i RAYON_NUM_THREADS=1 AURUM_BACKEND="$backend" "$(command -v "$qemu")" -cpu "$cpu" \
    -plugin "$PLUGIN,out=$TMP/count" "$bin" "$kernel" "$iters" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
  if [ "$rc" -ne 0 ]; then
    RUN_ERR=$(grep '^insn-workload: AURUM_BACKEND: ' "$TMP/stderr" | head -1 || true)
    [ "$rc" -eq 2 ] && [ -n "$RUN_ERR" ] && return 1
    cat "$TMP/stderr" >&2
    die "$qemu -cpu $cpu, AURUM_BACKEND=$backend: '$kernel $iters' failed with exit status $rc"
  fi
  info=$(grep '^insn-workload: ' "$TMP/stderr" || true)
  case "$info" in
    *" backend=$backend $sve "*) ;;
    *) die "-cpu $cpu AURUM_BACKEND=$backend: expected 'backend=$backend $sve', the workload says: $info" ;;
  esac
  RUN_COUNT=$(cat "$TMP/count" 2>/dev/null || true)
  [[ "$RUN_COUNT" =~ ^[0-9]+$ ]] || die "-cpu $cpu $kernel $iters: the plugin wrote no count"
  RUN_SUM=$(awk -v k="$kernel" '$1 == k && $2 == "checksum" {print $3}' "$TMP/stdout")
  [ -n "$RUN_SUM" ] || die "-cpu $cpu $kernel $iters: no checksum on stdout"
  RUN_UNITS=$(sed -n 's/.* units_per_iter=\([0-9]*\).*/\1/p' <<<"$info")
}

# measure COLUMN KERNEL K: sets CELL (instructions per unit, 4 decimals), CELL_SUM, and the raw
# counts C1 (k iterations) and C2 (2k); returns 1 with RUN_ERR if the column cannot count.
measure() {
  local col=$1 kernel=$2 k=$3
  run "$col" "$kernel" "$(printf '%04d' "$k")" || return 1
  C1=$RUN_COUNT
  run "$col" "$kernel" "$(printf '%04d' $((2 * k)))" || return 1
  C2=$RUN_COUNT
  CELL_SUM=$RUN_SUM
  [ "$C2" -gt "$C1" ] || die "$col $kernel: $((2 * k)) iterations counted $C2, not more than $k iterations ($C1)"
  CELL=$(awk -v d=$((C2 - C1)) -v k="$k" -v u="$RUN_UNITS" 'BEGIN {printf "%.4f", d / (k * u)}')
}

# probe COLUMN: can this column count at all? (the `none` kernel, cheap). Also checks that
# the difference method isolates the iterations: `none` with 1 and 2 iterations must count
# the same up to a few instructions.
probe() {
  local col=$1
  run "$col" none 0001 || return 1
  local a=$RUN_COUNT
  run "$col" none 0002 || return 1
  local d=$((RUN_COUNT - a))
  [ "${d#-}" -le 64 ] || die "column $col: the 'none' kernel counts $a and $RUN_COUNT instructions for 1 and 2 \
iterations; the runs are not reproducible, so no difference of two runs can be trusted"
}

# ---- --check: the bands ----------------------------------------------------------------------
if [ "$MODE" = check ]; then
  [ -f "$BANDS" ] || die "no $BANDS"
  t=$SECONDS
  fails=0 checked=0
  declare -A sums=() probed=()
  while read -r kernel col expected tol rest; do
    case "$kernel" in "" | \#*) continue ;; esac
    [ -n "$tol" ] || die "$BANDS: expected 'KERNEL COLUMN EXPECTED TOLERANCE%' in: $kernel $col $expected"
    kline=$(kernel_line "$kernel")
    if [ -z "${probed[$col]:-}" ]; then
      probe "$col" || die "column $col cannot count: $RUN_ERR"
      probed[$col]=1
    fi
    measure "$col" "$kernel" "$(field "$kline" 3)" || die "$kernel on $col: $RUN_ERR"
    lo=$(awk -v e="$expected" -v t="$tol" 'BEGIN {printf "%.2f", e * (1 - t / 100)}')
    hi=$(awk -v e="$expected" -v t="$tol" 'BEGIN {printf "%.2f", e * (1 + t / 100)}')
    dev=$(awk -v c="$CELL" -v e="$expected" 'BEGIN {printf "%+.2f", (c / e - 1) * 100}')
    if awk -v c="$CELL" -v lo="$lo" -v hi="$hi" 'BEGIN {exit !(c >= lo && c <= hi)}'; then
      log "ok   $kernel on $col: $CELL instructions per unit ($dev % from $expected, band $lo .. $hi)"
    else
      log "FAIL $kernel on $col: $CELL instructions per unit, $dev % from $expected: outside $lo .. $hi"
      log "     if the change is intended, set the line in scripts/insn-bands.txt to: $kernel $col $CELL $tol"
      fails=$((fails + 1))
    fi
    if [ -n "${sums[$kernel]:-}" ] && [ "${sums[$kernel]}" != "$CELL_SUM" ]; then
      log "FAIL $kernel on $col computed checksum $CELL_SUM, another column ${sums[$kernel]}"
      fails=$((fails + 1))
    fi
    sums[$kernel]=$CELL_SUM
    checked=$((checked + 1))
  done <"$BANDS"
  [ "$checked" -gt 0 ] || die "$BANDS lists no bands"
  [ "$fails" = 0 ] || die "$fails of $checked instruction-count checks failed"
  log "all $checked instruction counts inside their bands ($((SECONDS - t)) s of counting)"
  exit 0
fi

# ---- the table -------------------------------------------------------------------------------
mkdir -p "$OUTDIR"
KI=2 # index of k in a KERNELS line
[ "$MODE" = quick ] && KI=3
declare -A cell=() col_err=()
csv="kernel,unit_per,column,qemu_cpu,aurum_backend,k,count_k,count_2k,per_unit,checksum"
t=$SECONDS
for c in "${COLUMNS[@]}"; do
  col=$(field "$c" 0)
  if [ "$(field "$c" 2)" = - ]; then
    col_err[$col]="not countable"
    continue
  fi
  if ! probe "$col"; then
    col_err[$col]=$RUN_ERR
    log "column $col: n/a ($RUN_ERR)"
    continue
  fi
  for kl in "${KERNELS[@]}"; do
    kernel=$(field "$kl" 0) k=$(field "$kl" $KI)
    measure "$col" "$kernel" "$k" || die "$kernel on $col: $RUN_ERR (the 'none' probe of this column worked)"
    cell[$kernel,$col]=$CELL
    cell[$kernel,$col,sum]=$CELL_SUM
    csv+=$'\n'"$kernel,$(field "$kl" 1 | sed 's/.*, per //'),$col,$(field "$c" 3 | sed 's/,/ /g'),$(field "$c" 4),$k,$C1,$C2,$CELL,$CELL_SUM"
    log "$kernel on $col: $CELL"
  done
done

# All columns that counted a row must have computed the same result.
for kl in "${KERNELS[@]}"; do
  kernel=$(field "$kl" 0) first=""
  for c in "${COLUMNS[@]}"; do
    s=${cell[$kernel,$(field "$c" 0),sum]:-}
    [ -n "$s" ] || continue
    [ -z "$first" ] && first=$s
    [ "$s" = "$first" ] || die "$kernel: column $(field "$c" 0) computed checksum $s, an earlier column $first"
  done
done

# Footnotes: one per distinct reason a column could not count.
declare -A note_of=()
notes=()
for c in "${COLUMNS[@]}"; do
  col=$(field "$c" 0)
  [ -n "${col_err[$col]:-}" ] || continue
  if [ "$col" = x86-avx512 ]; then
    if ! command -v perf >/dev/null; then
      perf_says="perf is not installed"
    else
      perf_says=$(perf stat -x, -e instructions:u true 2>&1 >/dev/null | head -1 | cut -d, -f1 || true)
      if [[ "$perf_says" =~ ^[0-9]+$ ]]; then
        perf_says="perf stat counts natively here, but this script does not mix native and emulated counts"
      else
        perf_says="\`perf stat -e instructions\` says '$perf_says' here: no hardware counters"
      fi
    fi
    reason="qemu 7.2's TCG emulates no AVX-512 (under \`-cpu max\` avx512f is absent), so this cell \
cannot be counted the way the others are ($perf_says)."
  else
    reason="the workload refuses AURUM_BACKEND=$(field "$c" 4) here: ${col_err[$col]#insn-workload: AURUM_BACKEND: }"
  fi
  if [ -z "${note_of[$reason]:-}" ]; then
    notes+=("$reason")
    note_of[$reason]=${#notes[@]}
  fi
  col_err[$col]="n/a[^${note_of[$reason]}]"
done

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit+=" + local changes"
{
  echo "Executed instructions per unit of work, counted under qemu ($(qemu-aarch64 --version | head -1 | sed 's/ (.*//');"
  echo "TCG plugin tools/insn-count). Mode: $MODE. Commit $commit; aarch64 built by $(/usr/bin/rustc -V | cut -d' ' -f1-2),"
  echo "x86-64 by $(rustc -V | cut -d' ' -f1-2). Generated by \`scripts/arm-instructions.sh$([ "$MODE" = quick ] && echo ' --quick')\`."
  echo
  printf '| kernel |'
  for c in "${COLUMNS[@]}"; do printf ' %s |' "$(field "$c" 1)"; done
  echo
  printf '|---|'
  for c in "${COLUMNS[@]}"; do printf -- '---:|'; done
  echo
  for kl in "${KERNELS[@]}"; do
    kernel=$(field "$kl" 0)
    printf '| %s |' "$(field "$kl" 1)"
    for c in "${COLUMNS[@]}"; do
      col=$(field "$c" 0)
      v=${cell[$kernel,$col]:-}
      if [ -n "$v" ]; then
        printf ' %s |' "$(awk -v v="$v" 'BEGIN {if (v >= 100) printf "%.0f", v; else printf "%.2f", v}')"
      else
        printf ' %s |' "${col_err[$col]}"
      fi
    done
    echo
  done
  echo
  echo "Columns: \`qemu-aarch64 -cpu max,sve=off\` with AURUM_BACKEND=neon; \`-cpu max,sve-default-vector-length=16/32/64/256\`"
  echo "(VL 128/256/512/2048 bits) and \`-cpu a64fx,sve256=on\` / \`-cpu a64fx\` (SVE without SVE2, VL 256 / 512) with AURUM_BACKEND=sve;"
  echo "\`qemu-x86_64 -cpu max\` with AURUM_BACKEND=scalar / avx2. Each cell is the difference of two runs"
  echo "(k and 2k iterations) divided by k x units; NTT butterflies = rows/2 x log2(rows) x columns"
  echo "= 2^15 x 16 x 8 per transform. An SVE instruction counts 1 at any vector length: this is an"
  echo "instruction count, not time. On \`a64fx\` glibc picks its A64FX (SVE) memcpy/memset, so"
  echo "library calls there differ from \`max\` for reasons outside Aurum."
  n=1
  for r in "${notes[@]}"; do
    echo
    echo "[^$n]: $r"
    n=$((n + 1))
  done
} >"$OUTDIR/table.md"
echo "$csv" >"$OUTDIR/counts.csv"
log "counted in $((SECONDS - t)) s; wrote $OUTDIR/table.md and $OUTDIR/counts.csv"
cat "$OUTDIR/table.md"
