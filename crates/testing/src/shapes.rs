//! Proptest strategies for the shapes of matrices committed together (Merkle trees with
//! mixed heights, FRI batches).

use core::ops::Range;

use proptest::prelude::*;

/// `(height, width)` of `matrices` matrices whose heights lie on the ladder `⌈max / 2^k⌉`
/// (`max` in `1..70`, `k` in `0..shifts`), in a random order, with widths from `widths`.
pub fn height_ladder(
    shifts: usize,
    widths: Range<usize>,
    matrices: Range<usize>,
) -> impl Strategy<Value = Vec<(usize, usize)>> {
    (
        1usize..70,
        proptest::collection::vec((0usize..shifts, widths), matrices),
    )
        .prop_map(|(max, specs)| {
            specs
                .into_iter()
                .map(|(k, width)| (((max - 1) >> k) + 1, width))
                .collect()
        })
}
