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

use core::fmt;

/// A matrix's width and height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Dimensions {
    /// Elements per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// Why a set of matrices cannot form a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// No matrices at all.
    NoMatrices,
    /// A matrix with no rows.
    EmptyMatrix {
        /// Its position in the input.
        matrix: usize,
    },
    /// A height off the `⌈max_height / 2^k⌉` ladder.
    IncompatibleHeight {
        /// Its position in the input.
        matrix: usize,
        /// Its height.
        height: usize,
        /// The height its power-of-two bucket requires.
        expected: usize,
        /// The tallest height.
        max_height: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NoMatrices => write!(f, "no matrices to commit to"),
            ShapeError::EmptyMatrix { matrix } => write!(f, "matrix {matrix} has no rows"),
            ShapeError::IncompatibleHeight {
                matrix,
                height,
                expected,
                max_height,
            } => write!(
                f,
                "matrix {matrix} has height {height}, but with a tallest height of {max_height} \
                 a matrix in its power-of-two bucket must have height {expected} (⌈{max_height} / 2^k⌉)"
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

/// `⌈log₂ n⌉` (0 for n ≤ 1).
pub(crate) fn log2_ceil(n: usize) -> usize {
    n.next_power_of_two().trailing_zeros() as usize
}

/// Layer length after padding to an even count (a single digest is the root).
pub(crate) fn padded_len(raw: usize) -> usize {
    if raw <= 1 { raw } else { raw.div_ceil(2) * 2 }
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

/// The validated geometry of a tree.
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

impl TreeShape {
    /// Validates the dimensions of the matrices to commit to, in input order.
    pub fn new(dims: &[Dimensions]) -> Result<Self, ShapeError> {
        if dims.is_empty() {
            return Err(ShapeError::NoMatrices);
        }
        if let Some(matrix) = dims.iter().position(|d| d.height == 0) {
            return Err(ShapeError::EmptyMatrix { matrix });
        }
        let max_height = dims.iter().map(|d| d.height).max().expect("non-empty");
        let log_max = log2_ceil(max_height);
        for (matrix, d) in dims.iter().enumerate() {
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
            let target = raw_len.next_power_of_two();
            let mut injected = Vec::new();
            while let Some(&m) = rest.peek() {
                if dims[m].height.next_power_of_two() != target {
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

    /// The largest valid cap height (`num_layers − 1`, a cap of the leaf layer).
    #[must_use]
    pub fn depth(&self) -> usize {
        self.layers.len()
    }

    /// Stored length of digest layer `j` (0 = leaves).
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

    /// Number of digests in a cap of height `cap_height` (≤ depth): `2^cap_height`, or the
    /// whole layer when padding left it shorter (Plonky3 0.8 panics in that case).
    #[must_use]
    pub fn cap_size(&self, cap_height: usize) -> usize {
        self.cap_len(cap_height)
    }

    /// Number of digests in a cap of height `cap_height`.
    pub(crate) fn cap_len(&self, cap_height: usize) -> usize {
        let layer = self.depth() - cap_height;
        (1usize << cap_height).min(self.layer_len(layer))
    }

    /// The row of matrix `m` that leaf index `index` opens.
    pub(crate) fn row_index(&self, m: usize, index: usize) -> usize {
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
    #[must_use]
    pub fn permutations(&self, leaf_permutations: impl Fn(usize) -> usize) -> usize {
        let mut total = self.max_height * leaf_permutations(self.total_width(&self.leaves));
        for layer in &self.layers {
            total += layer.raw_len;
            if !layer.injected.is_empty() {
                total += layer.raw_len
                    + layer.injected_height * leaf_permutations(self.total_width(&layer.injected));
            }
        }
        total
    }

    /// Sum of the widths of a list of matrices.
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
}
