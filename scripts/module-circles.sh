#!/usr/bin/env bash
# Checks that no source file of the repository imports, directly or around a loop, from a
# file that imports back from it (a module circle), and prints the module graph's size; on a
# circle it lists each file of it with the names it takes from the others. The check is the
# test tests/tests/module_graph.rs (so `cargo test --workspace` runs it too); its header says
# how imports are read.
#
# Usage: scripts/module-circles.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo test -q -p aurum-tests --test module_graph -- --nocapture --test-threads 1
