#!/usr/bin/env bash
# The MPI mode of `aurum commit` (the `mpi` cargo feature): `mpirun -n K` must print the
# single-process commitment, and a rank that fails must end the whole job with its reason.
#
# Installs what it needs when missing (Debian packages, idempotent; with everything present
# it only checks): libopenmpi-dev and openmpi-bin (Open MPI, which rsmpi links), and for
# rsmpi's build clang and libclang-dev (bindgen) and pkg-config (finds MPI). Where they cannot
# be installed (no apt-get, no root or sudo, apt fails) it prints "skipped: ..." and exits 0.
#
# Then, with `aurum` built with --features mpi (the `unoptimised` profile: every crate at
# opt-level 0 builds in a third of the test profile's time, the shapes below are small, and
# scripts/test-unoptimised.sh reuses the dependencies it built):
#   * clippy -D warnings on aurum-cli with the feature;
#   * for random shapes (u64 files, --bytes files, a generated matrix) and every preset and
#     several cap heights: `aurum commit --out` single-process, then under
#     `mpirun --oversubscribe -n 2` and `-n 4` (and -n 3 once): the commitment files
#     (preset, dimensions, cap height, root, cap) must be identical;
#   * failing ranks: a value ≥ p in the last rank's rows only, a file that is not whole rows,
#     a missing file, a read error (a directory as the input), and ranks given different
#     files must each exit non-zero within `timeout 60`, naming the reason.
#
# Usage: scripts/mpi.sh            (AURUM_MPIRUN_FLAGS adds flags to every mpirun)
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "mpi: $*"; }
die() { echo "mpi: ERROR: $*" >&2; exit 1; }
skip() { echo "skipped: $* (scripts/mpi.sh)"; exit 0; }

status=0
scripts/packages.sh mpi || status=$?
case $status in
  0) ;;
  3) skip "MPI is not installed and cannot be installed here (above)" ;;
  *) skip "MPI could not be installed (apt-get failed, above)" ;;
esac
command -v mpirun >/dev/null || die "mpirun missing although openmpi-bin is installed"
log "$(mpirun --version 2>&1 | head -1)"

# Open MPI refuses to run as root unless told; --oversubscribe allows more ranks than cores.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
read -r -a EXTRA <<<"${AURUM_MPIRUN_FLAGS:-}"
MPIRUN=(mpirun --oversubscribe "${EXTRA[@]}")

log "clippy -p aurum-cli --features mpi"
cargo clippy -q -p aurum-cli --all-targets --features mpi -- -D warnings
log "build aurum --features mpi (${SECONDS} s so far)"
cargo build -q --profile unoptimised -p aurum-cli --features mpi --bin aurum
AURUM="${CARGO_TARGET_DIR:-target}/unoptimised/aurum"
[ -x "$AURUM" ] || die "$AURUM was not built"

log "built (${SECONDS} s so far)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# A file of `rows × cols` little-endian u64 values below p (seeded), some of them near p.
u64_file() { # seed rows cols path
  perl -e 'my ($seed, $n, $path) = @ARGV; srand($seed);
    open(my $f, ">:raw", $path) or die "$path: $!";
    for (1 .. $n) {
      my ($lo, $hi) = rand() < 0.01 ? (0xFFFFFFFF, 0xFFFFFFFE) : (int(rand(2**32)), int(rand(0xFFFFFFFF)));
      print $f pack("L<L<", $lo, $hi);
    }' "$1" "$(($2 * $3))" "$4"
}

# Commits single-process and under mpirun -n K for each K given; the commitments must match.
check() { # label "aurum flags" K...
  local label=$1 flags=$2
  shift 2
  # shellcheck disable=SC2086
  "$AURUM" commit $flags --out "$WORK/single.json" >/dev/null
  for k in "$@"; do
    rm -f "$WORK/mpi.json"
    # shellcheck disable=SC2086
    timeout 60 "${MPIRUN[@]}" -n "$k" "$AURUM" commit $flags --out "$WORK/mpi.json" --json >"$WORK/mpi.out" \
      || die "$label: mpirun -n $k failed (exit $?)"
    cmp -s "$WORK/single.json" "$WORK/mpi.json" \
      || die "$label: mpirun -n $k gives $(cat "$WORK/mpi.json"), single-process $(cat "$WORK/single.json")"
    grep -q "\"ranks\":$k," "$WORK/mpi.out" || die "$label: the report of -n $k does not say $k ranks"
  done
  log "ok: $label (single-process = mpirun -n $*)"
}

PRESETS=(poseidon2-w8 poseidon2-w12 poseidon2-w16 plonky2 polygon)
# rows cols cap-height: powers of two and not, one row, fewer rows than ranks, wide rows, the
# cap below the ranks' blocks (each rank sends its part of the cap) and above them.
SHAPES=(
  "1 3 0" "3 2 2" "7 1 3" "1000 5 0" "1000 5 4" "1025 8 11" "4096 8 2" "777 13 10"
  "$((RANDOM % 3000 + 1)) $((RANDOM % 20 + 1)) 0" "$((RANDOM % 300 + 300)) $((RANDOM % 9 + 1)) 9"
)
i=0
for shape in "${SHAPES[@]}"; do
  read -r rows cols cap <<<"$shape"
  preset=${PRESETS[$((i % ${#PRESETS[@]}))]}
  u64_file "$i" "$rows" "$cols" "$WORK/m$i.u64"
  check "u64 file $rows × $cols, $preset, cap height $cap" \
    "--input $WORK/m$i.u64 --cols $cols --preset $preset --cap-height $cap" 2 4
  i=$((i + 1))
done
for preset in "${PRESETS[@]}"; do
  check "u64 file 1000 × 5, $preset, cap height 1" \
    "--input $WORK/m3.u64 --cols 5 --preset $preset --cap-height 1" 2 4
done
check "u64 file 1000 × 5 on 3 ranks (not a power of two)" "--input $WORK/m4.u64 --cols 5 --cap-height 4" 3
# --bytes files: the end marker in the last rank's rows, wherever the last row ends.
for spec in "0 0" "1 0" "6999 2" "7000 2" "7001 2" "100000 5"; do
  read -r len cap <<<"$spec"
  head -c "$len" /dev/urandom >"$WORK/b$len"
  check "--bytes file of $len bytes, cap height $cap" \
    "--bytes $WORK/b$len --cols 4 --preset polygon --cap-height $cap" 2 4
done
check "generated 3000 × 6 matrix" "--rows 3000 --cols 6 --seed 11 --preset plonky2 --cap-height 3" 2 4

# A failing job must exit non-zero (and not by the timeout) with the reason.
expect_failure() { # label "expected message" mpirun-args...
  local label=$1 expected=$2 status=0
  shift 2
  timeout 60 "${MPIRUN[@]}" "$@" >"$WORK/fail.out" 2>"$WORK/fail.err" || status=$?
  [ "$status" -ne 0 ] || die "$label: the job succeeded"
  [ "$status" -ne 124 ] || die "$label: the job hung (killed by timeout 60)"
  grep -q -- "$expected" "$WORK/fail.err" || { cat "$WORK/fail.err" >&2; die "$label: no '$expected' on stderr"; }
  log "ok: $label: exit $status, '$(grep -m1 -- "$expected" "$WORK/fail.err")'"
}
# 1000 rows of 5 values; row 900 is in the last of 4 ranks' rows (768..1000) only.
u64_file 99 1000 5 "$WORK/bad.u64"
perl -e 'open(my $f, "+<:raw", $ARGV[0]) or die; seek($f, (900 * 5 + 2) * 8, 0); print $f pack("Q<", 0xFFFFFFFF00000001)' "$WORK/bad.u64"
expect_failure "a value ≥ p in rank 3's rows" "rank 3 of 4: .*not a canonical" \
  -n 4 "$AURUM" commit --input "$WORK/bad.u64" --cols 5
head -c 39997 "$WORK/bad.u64" >"$WORK/ragged.u64"
expect_failure "a file that is not whole rows" "not a whole number of rows" \
  -n 2 "$AURUM" commit --input "$WORK/ragged.u64" --cols 5
expect_failure "a missing file" "cannot open" \
  -n 2 "$AURUM" commit --input "$WORK/missing.u64" --cols 5
# A directory opens, has a size, and fails at the first read (EISDIR) — on file systems
# that give directories a size of whole rows (ext4, xfs: 4096).
mkdir "$WORK/dir"
dir_size=$(stat -c %s "$WORK/dir")
if [ "$dir_size" -gt 0 ] && [ $((dir_size % 8)) -eq 0 ]; then
  expect_failure "a read error (a directory as input)" "rank 1 of 2: .*s a directory" \
    -n 2 "$AURUM" commit --input "$WORK/dir" --cols 1
else
  log "no read-error case: directories here are $dir_size bytes, not whole rows"
fi
# Ranks that read different files (mpirun's MPMD form: one command per rank) must refuse
# to combine their nodes.
expect_failure "ranks that disagree on the matrix" "every rank must read the same file" \
  -n 1 "$AURUM" commit --input "$WORK/m3.u64" --cols 5 : -n 1 "$AURUM" commit --input "$WORK/m5.u64" --cols 5
log "passed in ${SECONDS} s"
