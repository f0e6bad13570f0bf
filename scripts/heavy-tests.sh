# Sourced by scripts/test-unoptimised.sh and scripts/test-aarch64.sh: the tests whose time goes
# to reference computations or to repeating the same kernels over many shapes, not to a code
# path of their own. `cargo test --workspace` (the README's test command, optimised, native)
# runs all of them; the opt-level-0 step and the aarch64 runs under qemu skip them. Each costs
# a minute or more there: at opt-level 0 tests/it/merkle.rs took 464 s and tests/it/stored.rs over
# 20 minutes; under qemu with SVE2-512, the merkle, split and stored suites took 110, 133
# and 241 s, against 30 s for everything else in the kernel crates.
#   streaming_over_many_chunks          3.5 chunks of 2^20 elements, five times (4.6 M perms)
#   tree_matches_definition_and_openings_verify, plonky2_and_polygon_trees_match_definition
#                                       40 random shapes each against a naive reference tree
#   overlapped_pushes_equal_in_memory   3·2^14 rows × 64 columns in five piece sizes
#   wide_rows_fill_whole_chunks_inside_parts
#                                       wide rows split into parts at every chunk boundary
#   random_shapes_store_and_open_like_the_in_memory_tree, stored_trees_equal_the_in_memory_tree
#                                       24 shapes / every preset stored, reopened and opened
#   a_large_tree_file_over_many_chunks, a_sink_receives_exactly_the_in_memory_layers
#                                       2^16 × 16 and 2.5·2^14 × 64 rows through the stored-tree
#                                       writer (its small-file tests run the same code)
#   documented_commands_run             every command of the docs through the CLI (the docs
#                                       test: it checks the documentation, not the build, and
#                                       the emulated binary cannot be started from its shell)
#   openings_from_the_tree_file_equal_plain_openings_for_every_preset
#                                       the CLI's tree files: 17 round trips of commit, open and
#                                       verify, about 200 processes of the binary (60 s under
#                                       qemu, most of the CLI's suite there; the tree files'
#                                       damaged, foreign and failed cases stay)
#   allocation_failures_under_a_limited_address_space_are_errors
#                                       native only: the CLI under `ulimit -v` (qemu user
#                                       emulation reserves address space of its own, and the
#                                       emulated binary cannot be exec'd from the test's shell);
#                                       it generates 0.5 GiB matrices, slow at opt-level 0
#   every_preset_small_heights_all_parts_and_caps
#                                       every preset, heights 1..=33, 63..=65 and 100, 10 part
#                                       counts, every cap height: each split commitment against
#                                       the in-memory tree (50 s at opt-level 0, where the rest
#                                       of the Merkle suite took 21 s)
# Kept everywhere: streaming vs in-memory (proptest), tampering, overlapped errors, split parts
# (random shapes) and plans, damaged and foreign tree files, openings from stored trees, every
# permutation, NTT and field test, and the CLI's other tests.
HEAVY_TESTS=(streaming_over_many_chunks tree_matches_definition_and_openings_verify
  plonky2_and_polygon_trees_match_definition overlapped_pushes_equal_in_memory
  wide_rows_fill_whole_chunks_inside_parts
  random_shapes_store_and_open_like_the_in_memory_tree
  stored_trees_equal_the_in_memory_tree_for_every_preset a_large_tree_file_over_many_chunks
  a_sink_receives_exactly_the_in_memory_layers documented_commands_run
  openings_from_the_tree_file_equal_plain_openings_for_every_preset
  allocation_failures_under_a_limited_address_space_are_errors
  every_preset_small_heights_all_parts_and_caps)
# libtest arguments that skip them (--skip matches substrings; every name above is unique).
HEAVY_SKIP_ARGS=()
for heavy_test in "${HEAVY_TESTS[@]}"; do HEAVY_SKIP_ARGS+=(--skip "$heavy_test"); done
unset heavy_test
