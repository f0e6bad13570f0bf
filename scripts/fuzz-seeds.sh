#!/usr/bin/env bash
# Regenerates the fuzz seeds in fuzz/seeds/ from genuine files written by the `aurum` binary
# (commitment files, Merkle and FRI proof files, u64 and byte inputs) and small hand-written
# JSON values. The seeds are committed; run this after changing a file format. The seeds of
# tree_file and bench_records (tree files and records kept by hand) are left as they are.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -q -p aurum-cli
aurum=${CARGO_TARGET_DIR:-target}/release/aurum
seeds=fuzz/seeds
generated=(cli_verify proof_against_statement input_u64 input_bytes serde_goldilocks
  serde_goldilocks2 serde_merkle tree_shape merkle_verify ntt_shapes fri_codec fri_verify_file)
for target in "${generated[@]}"; do
  rm -rf "${seeds:?}/$target"
  mkdir -p "$seeds/$target"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0
for preset in poseidon2-w8 poseidon2-w12 poseidon2-w16 plonky2 polygon; do
  for shape in "8 3 0" "5 4 1" "16 2 2" "1 5 0"; do
    read -r rows cols cap <<<"$shape"
    args=(--rows "$rows" --cols "$cols" --cap-height "$cap" --preset "$preset")
    "$aurum" "${args[@]}" --out "$work/c.json" >/dev/null
    index=$(( rows / 2 ))
    "$aurum" open "${args[@]}" --index "$index" --out "$work/p.json" >/dev/null
    n=$((n + 1))
    # cli_verify: commitment 0xFF proof [0xFF index as 8 little-endian bytes]
    { cat "$work/c.json"; printf '\xff'; cat "$work/p.json"; } >"$seeds/cli_verify/$n"
    { cat "$work/c.json"; printf '\xff'; cat "$work/p.json"; printf '\xff'
      printf "\\x$(printf %02x "$index")\\x00\\x00\\x00\\x00\\x00\\x00\\x00"; } >"$seeds/cli_verify/$n-index"
    # proof_against_statement: a statement byte, then a proof file
    { printf "\\x$(printf %02x $((n * 7 % 256)))"; cat "$work/p.json"; } >"$seeds/proof_against_statement/$n"
    cp "$work/p.json" "$seeds/serde_merkle/$n"
  done
done

# fri_verify_file: a statement byte, then a genuine `aurum fri --out` proof file of that
# statement (the order of STATEMENTS in fuzz/targets/src/fri_verify_file.rs); fri_codec: the
# binary proof inside each.
n=0
for statement in "poseidon2-w8 16 2 2 0 1 0" "poseidon2-w12 32 3 1 1 1 0" \
    "poseidon2-w16 8 1 3 2 1 0" "poseidon2-w8 64 4 2 0 2 1"; do
  read -r preset rows cols points cap arity final <<<"$statement"
  "$aurum" fri --params testing --preset "$preset" --rows "$rows" --cols "$cols" \
    --points "$points" --cap-height "$cap" --max-log-arity "$arity" \
    --log-final-poly-len "$final" --out "$work/f.json" >/dev/null
  { printf "\\x$(printf %02x "$n")"; cat "$work/f.json"; } >"$seeds/fri_verify_file/$n"
  perl -ne 'print pack("H*", $1) if /"proof": "([0-9a-f]*)"/' "$work/f.json" \
    >"$seeds/fri_codec/$n"
  n=$((n + 1))
done
printf 'aFRI\x01' >"$seeds/fri_codec/header"

# --input: rows of u64 values, including p − 1, p and 2^64 − 1; --bytes: any bytes.
printf '\x03' >"$seeds/input_u64/1"
head -c 48 /dev/zero >>"$seeds/input_u64/1"
{ printf '\x01'; printf '\x00\x00\x00\x00\xff\xff\xff\xff'; printf '\x01\x00\x00\x00\xff\xff\xff\xff'; } >"$seeds/input_u64/2"
{ printf '\x00'; printf '\xff\xff\xff\xff\xff\xff\xff\xff'; } >"$seeds/input_u64/3"
{ printf '\x02'; printf 'seven bytes per element, rows of three'; } >"$seeds/input_bytes/1"
printf '\x00' >"$seeds/input_bytes/2"

printf '0' >"$seeds/serde_goldilocks/1"
printf '18446744069414584320' >"$seeds/serde_goldilocks/2"
printf '18446744069414584321' >"$seeds/serde_goldilocks/3"
printf '[1,2]' >"$seeds/serde_goldilocks2/1"
printf '[18446744069414584320,0]' >"$seeds/serde_goldilocks2/2"
printf '{"cap":[[1,2,3,4]]}' >"$seeds/serde_merkle/cap"
printf '[{"width":4,"height":1},{"width":9223372036854775809,"height":18446744073709551615}]' >"$seeds/serde_merkle/dims"

# Structured targets take arbitrary bytes; a few lengths of varied bytes (from a proof file's
# hex digits, so regeneration gives the same seeds) start them off.
for target in tree_shape merkle_verify ntt_shapes; do
  for len in 16 64 256; do
    tail -c "$len" "$seeds/serde_merkle/1" >"$seeds/$target/$len"
  done
done
echo "fuzz seeds: $(find "$seeds" -type f | wc -l) files in $seeds"
