//! The geometry of a tree over mixed-height matrices, shared by the builder, the openings and
//! the verifier. It follows Plonky3's `MerkleTreeMmcs` (`p3-merkle-tree` 0.8) exactly:
//!
//! * Matrices are ordered tallest first (a stable sort: equal heights keep their order). The
//!   tallest ones form the leaves: leaf `i` is the hash of row `i` of each of them,
//!   concatenated.
//! * Every height `h` must be `⌈max_height / 2^k⌉` for the `k` that puts `h` in the
//!   power-of-two bucket `2^⌈log₂ h⌉`; heights need not be powers of two.
//! * Each digest layer is padded with zero digests to an even length (a layer of one digest is
//!   the root). Parent `i` of layer `j + 1` is `compress(child 2i, child 2i + 1)`; at the layer
//!   whose unpadded length rounds up to the same power of two as some matrices' heights, those
//!   matrices join: parent `i` becomes `compress(parent i, hash of their rows i)` for `i` below
//!   their height and `compress(parent i, 0)` above it.

pub use crate::dimensions::Dimensions;
pub use crate::error::ShapeError;
pub use crate::limits::{MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH};

/// `⌈log₂ n⌉` (0 for n ≤ 1), for every `n` (no overflow even above `2^63`).
pub(crate) fn log2_ceil(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// Layer length after padding to an even count (a single digest is the root). Only called
/// with lengths ≤ [`MAX_HEIGHT`], so rounding up to even cannot overflow.
pub(crate) fn padded_len(raw: usize) -> usize {
    debug_assert!(raw <= MAX_HEIGHT);
    if raw <= 1 { raw } else { raw + (raw & 1) }
}

/// One digest layer above the leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LayerShape {
    /// Parents computed from children (the rest, up to `len`, are zero padding).
    pub(crate) raw_len: usize,
    /// Stored length (even unless 1).
    pub(crate) len: usize,
    /// Matrices (input positions, tallest-first order) whose rows join at this layer.
    pub(crate) injected: Vec<usize>,
    /// Their common height (0 when none).
    pub(crate) injected_height: usize,
}

/// How one digest layer above the leaves is computed (see [`TreeShape::layer_plan`]): for
/// builders outside this crate (the GPU's) that must produce the same layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerPlan<'a> {
    /// Digests computed from pairs of the layer below; the rest are zero padding.
    pub computed: usize,
    /// Matrices (input positions) whose rows join at this layer.
    pub injected: &'a [usize],
    /// Their common height (0 when none).
    pub injected_height: usize,
}

/// The validated geometry of a tree.
///
/// Every `TreeShape` satisfies the limits: at least one matrix, heights in
/// `1..=`[`MAX_HEIGHT`] on the `⌈max / 2^k⌉` ladder, widths `≥ 1` summing to at most
/// [`MAX_WIDTH`]. The arithmetic on its sizes relies on them, so they are checked first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeShape {
    pub(crate) dims: Vec<Dimensions>,
    /// Input positions of the tallest matrices, in order.
    pub(crate) leaves: Vec<usize>,
    pub(crate) max_height: usize,
    /// Length of the leaf-digest layer (padded).
    pub(crate) leaf_len: usize,
    /// Layers 1.. (the last has length 1).
    pub(crate) layers: Vec<LayerShape>,
}

/// Checks one matrix's dimensions against the limits (not against the other matrices).
pub(crate) fn check_dimensions(matrix: usize, d: Dimensions) -> Result<(), ShapeError> {
    if d.height == 0 {
        return Err(ShapeError::EmptyMatrix { matrix });
    }
    if d.height > MAX_HEIGHT {
        return Err(ShapeError::HeightTooLarge {
            matrix,
            height: d.height,
        });
    }
    check_width(matrix, d.width)
}

/// Checks one matrix's width against the limits.
pub(crate) fn check_width(matrix: usize, width: usize) -> Result<(), ShapeError> {
    if width == 0 {
        return Err(ShapeError::ZeroWidth { matrix });
    }
    if width > MAX_WIDTH {
        return Err(ShapeError::WidthTooLarge { matrix, width });
    }
    Ok(())
}

impl TreeShape {
    /// Validates the dimensions of the matrices to commit to, in input order: the limits
    /// ([`MAX_HEIGHT`], [`MAX_WIDTH`], no empty matrix, no zero width), then the height ladder.
    /// `O(n log n)` for `n` matrices, whatever their sizes.
    pub fn new(dims: &[Dimensions]) -> Result<Self, ShapeError> {
        if dims.is_empty() {
            return Err(ShapeError::NoMatrices);
        }
        // The limits first: everything below computes with these sizes.
        let mut total_width = 0usize;
        let mut max_height = 0;
        for (matrix, &d) in dims.iter().enumerate() {
            check_dimensions(matrix, d)?;
            // Both terms are ≤ MAX_WIDTH = 2^32: the sum cannot overflow.
            total_width += d.width;
            if total_width > MAX_WIDTH {
                return Err(ShapeError::TotalWidthTooLarge {
                    matrix,
                    total: total_width,
                });
            }
            max_height = max_height.max(d.height);
        }
        let log_max = log2_ceil(max_height);
        for (matrix, d) in dims.iter().enumerate() {
            // d.height ≤ max_height, so the difference is in 0..=MAX_LOG_HEIGHT.
            let bits = log_max - log2_ceil(d.height);
            let expected = ((max_height - 1) >> bits) + 1;
            if d.height != expected {
                return Err(ShapeError::IncompatibleHeight {
                    matrix,
                    height: d.height,
                    expected,
                    max_height,
                });
            }
        }
        // Tallest first; the sort is stable, so equal heights keep their input order.
        let mut order: Vec<usize> = (0..dims.len()).collect();
        order.sort_by_key(|&m| core::cmp::Reverse(dims[m].height));
        let mut rest = order.into_iter().peekable();
        let mut leaves = Vec::new();
        while let Some(&m) = rest.peek() {
            if dims[m].height != max_height {
                break;
            }
            leaves.push(m);
            rest.next();
        }
        let leaf_len = padded_len(max_height);
        let mut layers = Vec::new();
        let mut prev_len = leaf_len;
        while prev_len > 1 {
            let raw_len = prev_len / 2;
            let bucket = log2_ceil(raw_len);
            let mut injected = Vec::new();
            while let Some(&m) = rest.peek() {
                if log2_ceil(dims[m].height) != bucket {
                    break;
                }
                injected.push(m);
                rest.next();
            }
            let injected_height = injected.first().map_or(0, |&m| dims[m].height);
            let len = padded_len(raw_len);
            layers.push(LayerShape {
                raw_len,
                len,
                injected,
                injected_height,
            });
            prev_len = len;
        }
        debug_assert!(
            rest.next().is_none(),
            "the height ladder guarantees every matrix joins"
        );
        Ok(Self {
            dims: dims.to_vec(),
            leaves,
            max_height,
            leaf_len,
            layers,
        })
    }

    /// The matrices' dimensions, in input order.
    #[must_use]
    pub fn dims(&self) -> &[Dimensions] {
        &self.dims
    }

    /// The tallest height: openings are indexed by `0..max_height`.
    #[must_use]
    pub fn max_height(&self) -> usize {
        self.max_height
    }

    /// Digest layers, leaves and root included.
    #[must_use]
    pub fn num_layers(&self) -> usize {
        self.layers.len() + 1
    }

    /// The largest valid cap height (`num_layers − 1`, a cap of the leaf layer):
    /// `⌈log₂ max_height⌉`, at most [`MAX_LOG_HEIGHT`].
    #[must_use]
    pub fn depth(&self) -> usize {
        self.layers.len()
    }

    /// The matrices (input positions) whose rows are hashed into the leaf layer: the
    /// tallest, in input order; each leaf is the hash of their rows concatenated.
    #[must_use]
    pub fn leaf_matrices(&self) -> &[usize] {
        &self.leaves
    }

    /// Stored length of digest layer `j` (0 = leaves; even unless 1), or `None` above the root.
    #[must_use]
    pub fn stored_len(&self, j: usize) -> Option<usize> {
        (j <= self.depth()).then(|| self.layer_len(j))
    }

    /// How a layer `j ≥ 1` is computed, or `None` for the leaves and above the root: its first
    /// `computed` digests compress pairs of the layer below (the rest of its stored length is
    /// zero padding); where matrices join there (`injected`, input positions, of common height
    /// `injected_height`), each computed digest `i` is then compressed with the leaf hash of
    /// their row `i` (a zero digest from `injected_height` on).
    #[must_use]
    pub fn layer_plan(&self, j: usize) -> Option<LayerPlan<'_>> {
        let layer = self.layers.get(j.checked_sub(1)?)?;
        Some(LayerPlan {
            computed: layer.raw_len,
            injected: &layer.injected,
            injected_height: layer.injected_height,
        })
    }

    /// Stored length of digest layer `j` (0 = leaves, `j ≤ depth`).
    pub(crate) fn layer_len(&self, j: usize) -> usize {
        if j == 0 {
            self.leaf_len
        } else {
            self.layers[j - 1].len
        }
    }

    /// The largest cap height whose cap commits to every matrix. A matrix shorter than the
    /// tallest joins the tree at a layer above the leaves; a cap below that layer does not
    /// depend on its rows at all, so it commits to nothing about them (Plonky3 0.8's
    /// `MerkleTreeMmcs` accepts such caps and then never checks those rows). Trees, openings
    /// and the verifier refuse cap heights above this.
    #[must_use]
    pub fn max_cap_height(&self) -> usize {
        // `layers[k]` is digest layer `k + 1`; a cap of height `h` is layer `depth − h`.
        match self.layers.iter().rposition(|l| !l.injected.is_empty()) {
            Some(k) => self.depth() - (k + 1),
            None => self.depth(),
        }
    }

    /// Number of digests in a cap of height `cap_height`: `2^cap_height`, or the whole layer
    /// when padding left it shorter (Plonky3 0.8 panics in that case); `None` when
    /// `cap_height` exceeds [`TreeShape::depth`].
    #[must_use]
    pub fn cap_size(&self, cap_height: usize) -> Option<usize> {
        self.cap_len(cap_height)
    }

    /// Number of digests in a cap of height `cap_height`, if the tree is that deep.
    pub(crate) fn cap_len(&self, cap_height: usize) -> Option<usize> {
        let layer = self.depth().checked_sub(cap_height)?;
        // cap_height ≤ depth ≤ MAX_LOG_HEIGHT < 64: the shift is in range.
        Some((1usize << cap_height).min(self.layer_len(layer)))
    }

    /// The row of matrix `m` (an input position) that leaf index `index` opens; for any
    /// `index`, and below the matrix's height when `index < max_height`.
    pub(crate) fn row_index(&self, m: usize, index: usize) -> usize {
        // The matrix is no taller than the tallest: the shift is in 0..=MAX_LOG_HEIGHT.
        index >> (log2_ceil(self.max_height) - log2_ceil(self.dims[m].height))
    }

    /// The row of matrix `m` (input order) that an opening of leaf `index` contains, or
    /// `None` when there is no such matrix or leaf.
    #[must_use]
    pub fn opened_row(&self, m: usize, index: usize) -> Option<usize> {
        (m < self.dims.len() && index < self.max_height).then(|| self.row_index(m, index))
    }

    /// Permutations a full build costs, given the permutations of one leaf hash of `len`
    /// elements (and one per compression).
    ///
    /// A cost estimate for reports, so it saturates: a shape whose count does not fit a
    /// `usize` (possible only for shapes far beyond memory, e.g. `2^48` rows of `2^32`
    /// elements, or with a `leaf_permutations` that returns huge counts) gives `usize::MAX`.
    #[must_use]
    pub fn permutations(&self, leaf_permutations: impl Fn(usize) -> usize) -> usize {
        let group = |height: usize, matrices: &[usize]| {
            height.saturating_mul(leaf_permutations(self.total_width(matrices)))
        };
        let mut total = group(self.max_height, &self.leaves);
        for layer in &self.layers {
            total = total.saturating_add(layer.raw_len);
            if !layer.injected.is_empty() {
                total = total
                    .saturating_add(layer.raw_len)
                    .saturating_add(group(layer.injected_height, &layer.injected));
            }
        }
        total
    }

    /// Sum of the widths of a list of matrices (at most [`MAX_WIDTH`], checked by `new`).
    pub(crate) fn total_width(&self, matrices: &[usize]) -> usize {
        matrices.iter().map(|&m| self.dims[m].width).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(heights: &[usize]) -> Vec<Dimensions> {
        heights
            .iter()
            .map(|&height| Dimensions { width: 1, height })
            .collect()
    }

    #[test]
    fn ladder_of_heights() {
        assert!(TreeShape::new(&dims(&[8, 4, 2, 1])).is_ok());
        assert!(TreeShape::new(&dims(&[6, 3, 2, 1])).is_ok());
        assert!(TreeShape::new(&dims(&[5, 3, 2, 1])).is_ok());
        assert!(TreeShape::new(&dims(&[1])).is_ok());
        let err = TreeShape::new(&dims(&[8, 3])).unwrap_err();
        assert_eq!(
            err,
            ShapeError::IncompatibleHeight {
                matrix: 1,
                height: 3,
                expected: 4,
                max_height: 8
            }
        );
        assert!(err.to_string().contains("height 3"), "{err}");
        assert_eq!(TreeShape::new(&[]).unwrap_err(), ShapeError::NoMatrices);
        assert_eq!(
            TreeShape::new(&dims(&[4, 0])).unwrap_err(),
            ShapeError::EmptyMatrix { matrix: 1 }
        );
    }

    #[test]
    fn layers_pad_to_even_and_inject_by_bucket() {
        let shape = TreeShape::new(&dims(&[3, 6, 2, 6, 1])).unwrap();
        assert_eq!(shape.leaves, vec![1, 3]);
        assert_eq!(shape.leaf_len, 6);
        let lens: Vec<_> = shape
            .layers
            .iter()
            .map(|l| (l.raw_len, l.len, l.injected.clone()))
            .collect();
        assert_eq!(
            lens,
            vec![(3, 4, vec![0]), (2, 2, vec![2]), (1, 1, vec![4])]
        );
        assert_eq!(shape.depth(), 3);
        assert_eq!(shape.row_index(0, 5), 2);
    }

    #[test]
    fn log2_ceil_is_total() {
        for (n, log) in [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 2),
            (1 << 48, 48),
            ((1 << 48) + 1, 49),
            ((1 << 63) - 1, 63),
            (1 << 63, 63),
            ((1 << 63) + 1, 64),
            (usize::MAX, 64),
        ] {
            assert_eq!(log2_ceil(n), log, "{n}");
        }
        for n in 1..=1025usize {
            assert_eq!(
                log2_ceil(n),
                n.next_power_of_two().trailing_zeros() as usize
            );
        }
    }

    /// The largest supported shape is a shape like any other: its arithmetic (depth, caps,
    /// row indices, cost) is exact, and the cost estimate saturates instead of wrapping.
    #[test]
    fn the_largest_shape_computes_without_overflow() {
        let shape = TreeShape::new(&[
            Dimensions {
                width: MAX_WIDTH - 1,
                height: MAX_HEIGHT,
            },
            Dimensions {
                width: 1,
                height: 1,
            },
        ])
        .unwrap();
        assert_eq!(shape.depth(), MAX_LOG_HEIGHT);
        assert_eq!(shape.cap_size(MAX_LOG_HEIGHT), Some(MAX_HEIGHT));
        assert_eq!(shape.cap_size(MAX_LOG_HEIGHT + 1), None);
        assert_eq!(shape.cap_size(usize::MAX), None);
        assert_eq!(shape.row_index(1, MAX_HEIGHT - 1), 0);
        assert_eq!(shape.row_index(0, usize::MAX), usize::MAX);
        assert_eq!(shape.permutations(|len| len), usize::MAX);
        assert_eq!(shape.permutations(|_| usize::MAX), usize::MAX);
        let one = TreeShape::new(&dims(&[MAX_HEIGHT - 1])).unwrap();
        assert_eq!(one.depth(), MAX_LOG_HEIGHT);
        assert_eq!(one.cap_size(MAX_LOG_HEIGHT), Some(MAX_HEIGHT));
        // 2^48 leaves, 2^48 − 1 compressions (one permutation per leaf of width 1).
        assert_eq!(
            one.permutations(|len| len),
            (MAX_HEIGHT - 1) + (MAX_HEIGHT - 1)
        );
    }

    #[test]
    fn sizes_beyond_the_limits_are_typed_errors() {
        for height in [
            MAX_HEIGHT + 1,
            (1 << 63) + 1,
            usize::MAX,
            usize::MAX - 1,
            1 << 63,
        ] {
            let err = TreeShape::new(&dims(&[4, height])).unwrap_err();
            assert_eq!(err, ShapeError::HeightTooLarge { matrix: 1, height });
            let msg = err.to_string();
            assert!(
                msg.contains("matrix 1") && msg.contains(&format!("height {height}")),
                "{msg}"
            );
        }
        let wide = |width| Dimensions { width, height: 2 };
        assert_eq!(
            TreeShape::new(&[wide(3), wide(0)]).unwrap_err(),
            ShapeError::ZeroWidth { matrix: 1 }
        );
        for width in [MAX_WIDTH + 1, usize::MAX] {
            let err = TreeShape::new(&[wide(width)]).unwrap_err();
            assert_eq!(err, ShapeError::WidthTooLarge { matrix: 0, width });
            assert!(err.to_string().contains(&format!("width {width}")), "{err}");
        }
        assert!(TreeShape::new(&[wide(MAX_WIDTH)]).is_ok());
        let half = MAX_WIDTH / 2;
        let err = TreeShape::new(&[wide(half), wide(half), wide(1)]).unwrap_err();
        assert_eq!(
            err,
            ShapeError::TotalWidthTooLarge {
                matrix: 2,
                total: MAX_WIDTH + 1
            }
        );
        assert!(err.to_string().contains("matrices 0..=2"), "{err}");
        // Many matrices: linear-time validation, and the limits still hold for the sum.
        let many = vec![wide(1); 1 << 20];
        assert_eq!(TreeShape::new(&many).unwrap().leaves.len(), 1 << 20);
        let err = TreeShape::new(&vec![wide(1 << 12); (1 << 20) + 1]).unwrap_err();
        assert_eq!(
            err,
            ShapeError::TotalWidthTooLarge {
                matrix: 1 << 20,
                total: MAX_WIDTH + (1 << 12)
            }
        );
        // A height above the limit is reported even when another check would also fail.
        assert_eq!(
            TreeShape::new(&[Dimensions {
                width: 0,
                height: usize::MAX
            }])
            .unwrap_err(),
            ShapeError::HeightTooLarge {
                matrix: 0,
                height: usize::MAX
            }
        );
    }
}
