//! The in-memory tree: build, caps, openings, and optionally dropped lower layers.

use core::fmt;
use std::borrow::Cow;

use rayon::prelude::*;

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::{Digest, ZERO_DIGEST};
use crate::error::{BuildError, DimensionsMismatch, NoMemory, OpenError};
use crate::matrix::Matrix;
use crate::opening::Opening;
use crate::shape::{Dimensions, TreeShape};

/// `len` zero digests, allocated zeroed, or the bytes that could not be had.
fn try_zeroed_digests(len: usize) -> Result<Vec<Digest>, NoMemory> {
    aurum_goldilocks::raw::try_zeroed(len).map_err(|e| NoMemory(e.bytes))
}

/// A Merkle tree over one or more borrowed matrices.
///
/// Storage is layer-major and contiguous: one `Vec<Digest>` (32 bytes per digest) per digest
/// layer, leaves first; about `2 × padded height` digests in all, i.e. 64 bytes per leaf row
/// on top of the caller's matrices. [`MerkleTree::with_dropped_layers`] keeps only the layers
/// from `k` up (a `2^-k` share of that), recomputing a `2^k`-leaf block when opening.
pub struct MerkleTree<'a, C: MerkleConfig> {
    config: &'a C,
    matrices: Vec<Matrix<'a>>,
    shape: TreeShape,
    /// Layers `dropped..=depth`; `layers[i]` is layer `dropped + i` (borrowed when
    /// re-attached from [`TreeDigests`]).
    layers: Cow<'a, [Vec<Digest>]>,
    dropped: usize,
}

impl<C: MerkleConfig> fmt::Debug for MerkleTree<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MerkleTree")
            .field("config", &self.config.name())
            .field("dims", &self.shape.dims())
            .field("depth", &self.shape.depth())
            .field("dropped_layers", &self.dropped)
            .field("root", &self.root())
            .finish()
    }
}

impl<'a, C: MerkleConfig> MerkleTree<'a, C> {
    /// Commits to `matrices` (in this order).
    pub fn new(config: &'a C, matrices: Vec<Matrix<'a>>) -> Result<Self, BuildError> {
        Self::with_dropped_layers(config, matrices, 0)
    }

    /// Commits to `matrices`, storing only digest layers `drop..` (the lower ones are
    /// recomputed block by block when opening).
    pub fn with_dropped_layers(
        config: &'a C,
        matrices: Vec<Matrix<'a>>,
        drop: usize,
    ) -> Result<Self, BuildError> {
        let dims: Vec<Dimensions> = matrices.iter().map(Matrix::dimensions).collect();
        let shape = TreeShape::new(&dims)?;
        if drop > shape.depth() {
            return Err(BuildError::TooManyDroppedLayers {
                requested: drop,
                depth: shape.depth(),
            });
        }
        let builder = Builder {
            config,
            matrices: &matrices,
            shape: &shape,
        };
        let layers = builder.build_all(drop)?;
        Ok(Self {
            config,
            matrices,
            shape,
            layers: Cow::Owned(layers),
            dropped: drop,
        })
    }

    /// The geometry (dimensions, depth).
    #[must_use]
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The root digest.
    #[must_use]
    pub fn root(&self) -> Digest {
        root_of(&self.layers)
    }

    /// The `min(2^cap_height, layer length)` digests of the layer `cap_height` below the root.
    pub fn cap(&self, cap_height: usize) -> Result<Vec<Digest>, OpenError> {
        self.check_cap_height(cap_height)?;
        let depth = self.shape.depth();
        let len = self
            .shape
            .cap_len(cap_height)
            .ok_or(OpenError::CapTooHigh { cap_height, depth })?;
        let layer = depth - cap_height;
        let digests = match layer.checked_sub(self.dropped) {
            Some(stored) => self.layers[stored][..len].to_vec(),
            // A cap below the stored layers: rebuild that layer in full.
            None => {
                let builder = Builder {
                    config: self.config,
                    matrices: &self.matrices,
                    shape: &self.shape,
                };
                let mut digests = builder.full_layer(layer)?;
                digests.truncate(len);
                digests
            }
        };
        Ok(digests)
    }

    /// A cap height this tree can commit with: at most the depth, and at most
    /// [`TreeShape::max_cap_height`].
    fn check_cap_height(&self, cap_height: usize) -> Result<(), OpenError> {
        let depth = self.shape.depth();
        if cap_height > depth {
            return Err(OpenError::CapTooHigh { cap_height, depth });
        }
        let max_cap_height = self.shape.max_cap_height();
        if cap_height > max_cap_height {
            return Err(OpenError::CapBelowMatrices {
                cap_height,
                max_cap_height,
            });
        }
        Ok(())
    }

    /// The commitment: the cap of height `cap_height`.
    pub fn commitment(&self, cap_height: usize) -> Result<Commitment, OpenError> {
        Ok(Commitment {
            cap: self.cap(cap_height)?,
        })
    }

    /// Digest layer `j` (0 = leaves), or `None` if it was dropped.
    #[must_use]
    pub fn layer(&self, j: usize) -> Option<&[Digest]> {
        stored_layer(&self.layers, self.dropped, j)
    }

    /// Bytes held by the stored digest layers.
    #[must_use]
    pub fn digest_bytes(&self) -> usize {
        layers_bytes(&self.layers)
    }

    /// Opens leaf `index` against the cap of height `cap_height`: the rows of every matrix
    /// that the leaf covers (in input order) and the sibling path up to the cap.
    pub fn open(&self, index: usize, cap_height: usize) -> Result<Opening, OpenError> {
        Ok(self
            .open_batch(&[index], cap_height)?
            .pop()
            .expect("one opening per index"))
    }

    /// Opens many leaves; the blocks of dropped layers their paths cross are rebuilt once
    /// each, in parallel.
    pub fn open_batch(
        &self,
        indices: &[usize],
        cap_height: usize,
    ) -> Result<Vec<Opening>, OpenError> {
        self.check_cap_height(cap_height)?;
        let depth = self.shape.depth();
        let max_height = self.shape.max_height();
        if let Some(&index) = indices.iter().find(|&&i| i >= max_height) {
            return Err(OpenError::IndexOutOfRange { index, max_height });
        }
        let path_len = depth - cap_height;
        let builder = Builder {
            config: self.config,
            matrices: &self.matrices,
            shape: &self.shape,
        };
        // The blocks of dropped layers the paths cross, each rebuilt once, in parallel.
        let mut blocks: Vec<usize> = if self.dropped > 0 && path_len > 0 {
            indices.iter().map(|&i| i >> self.dropped).collect()
        } else {
            Vec::new()
        };
        blocks.sort_unstable();
        blocks.dedup();
        let rebuilt: Vec<Vec<Vec<Digest>>> = blocks
            .par_iter()
            .map(|&block| {
                let start = block << self.dropped;
                builder.build_block(start, start + (1 << self.dropped), self.dropped - 1)
            })
            .collect::<Result<_, NoMemory>>()?;
        let mut openings = Vec::with_capacity(indices.len());
        for &index in indices {
            let rows = self
                .matrices
                .iter()
                .enumerate()
                .map(|(m, matrix)| matrix.row_at(self.shape.row_index(m, index)).to_vec())
                .collect();
            let mut siblings = Vec::with_capacity(path_len);
            for j in 0..path_len {
                let sibling = (index >> j) ^ 1;
                let digest = if j >= self.dropped {
                    self.layers[j - self.dropped][sibling]
                } else {
                    let block = index >> self.dropped;
                    let layers = &rebuilt[blocks.binary_search(&block).expect("rebuilt above")];
                    layers[j][sibling - ((block << self.dropped) >> j)]
                };
                siblings.push(digest);
            }
            openings.push(Opening { rows, siblings });
        }
        Ok(openings)
    }
}

/// Digest layer `j` of layers stored from `dropped` up, or `None` if dropped or above the root.
fn stored_layer(layers: &[Vec<Digest>], dropped: usize, j: usize) -> Option<&[Digest]> {
    layers.get(j.checked_sub(dropped)?).map(Vec::as_slice)
}

/// The root: the last stored layer's only digest.
fn root_of(layers: &[Vec<Digest>]) -> Digest {
    layers.last().expect("the root layer is always stored")[0]
}

/// Bytes held by digest layers.
fn layers_bytes(layers: &[Vec<Digest>]) -> usize {
    layers.iter().map(|l| l.len() * size_of::<Digest>()).sum()
}

/// A tree's geometry and digest layers without its matrices (see
/// [`MerkleTree::into_digests`]).
#[derive(Clone, Debug)]
pub struct TreeDigests {
    shape: TreeShape,
    layers: Vec<Vec<Digest>>,
    dropped: usize,
}

impl TreeDigests {
    /// The geometry.
    #[must_use]
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// Bytes held by the stored digest layers.
    #[must_use]
    pub fn digest_bytes(&self) -> usize {
        layers_bytes(&self.layers)
    }

    /// Every digest layer of a tree of `shape` computed elsewhere (the GPU's builder), leaves
    /// first, for [`MerkleTree::from_digests`]; `None` unless there is one layer per
    /// [`TreeShape::stored_len`] with exactly that length. The values are not checked (that
    /// would cost a rebuild): openings of wrong ones would not verify.
    #[must_use]
    pub fn from_layers(shape: TreeShape, layers: Vec<Vec<Digest>>) -> Option<Self> {
        Self::from_layers_above(shape, 0, layers)
    }

    /// [`TreeDigests::from_layers`] for a tree that keeps only layers `dropped..=depth` (as
    /// [`MerkleTree::with_dropped_layers`] builds it): `layers[i]` is layer `dropped + i`.
    #[must_use]
    pub fn from_layers_above(
        shape: TreeShape,
        dropped: usize,
        layers: Vec<Vec<Digest>>,
    ) -> Option<Self> {
        let lengths_match = dropped <= shape.depth()
            && dropped + layers.len() == shape.num_layers()
            && layers
                .iter()
                .enumerate()
                .all(|(i, layer)| shape.stored_len(dropped + i) == Some(layer.len()));
        lengths_match.then_some(Self {
            shape,
            layers,
            dropped,
        })
    }

    /// Digest layer `j` (0 = leaves), or `None` if it was dropped or is above the root.
    #[must_use]
    pub fn layer(&self, j: usize) -> Option<&[Digest]> {
        stored_layer(&self.layers, self.dropped, j)
    }

    /// The root digest.
    #[must_use]
    pub fn root(&self) -> Digest {
        root_of(&self.layers)
    }
}

impl<'a, C: MerkleConfig> MerkleTree<'a, C> {
    /// Detaches the digest layers from the borrowed matrices. A prover that owns its matrices
    /// (an LDE it computed) cannot keep a tree borrowing them in the same struct; it keeps
    /// these next to them and re-attaches them with [`MerkleTree::from_digests`] to open.
    #[must_use]
    pub fn into_digests(self) -> TreeDigests {
        TreeDigests {
            shape: self.shape,
            layers: self.layers.into_owned(),
            dropped: self.dropped,
        }
    }

    /// Re-attaches `digests` (borrowed, not copied) to the matrices they were built from.
    /// Only the dimensions are checked (checking the values would cost a rebuild): openings of
    /// other values would not verify.
    pub fn from_digests(
        config: &'a C,
        matrices: Vec<Matrix<'a>>,
        digests: &'a TreeDigests,
    ) -> Result<Self, DimensionsMismatch> {
        let found: Vec<Dimensions> = matrices.iter().map(Matrix::dimensions).collect();
        if found != digests.shape.dims() {
            return Err(DimensionsMismatch {
                expected: digests.shape.dims().to_vec(),
                found,
            });
        }
        Ok(Self {
            config,
            matrices,
            shape: digests.shape.clone(),
            layers: Cow::Borrowed(&digests.layers),
            dropped: digests.dropped,
        })
    }
}

/// Leaf rows below which hashing the tallest group stays on the calling thread's chunks.
const ROWS_PER_TASK: usize = 256;

/// Computes digest layers.
pub(crate) struct Builder<'b, C: MerkleConfig> {
    pub(crate) config: &'b C,
    pub(crate) matrices: &'b [Matrix<'b>],
    pub(crate) shape: &'b TreeShape,
}

impl<C: MerkleConfig> Builder<'_, C> {
    /// Every layer from `keep_from` to the root, at full length.
    /// Every layer from `keep_from` to the root, at full length (or the bytes of the first
    /// layer that cannot be allocated).
    fn build_all(&self, keep_from: usize) -> Result<Vec<Vec<Digest>>, NoMemory> {
        let depth = self.shape.depth();
        let mut layers = Vec::with_capacity(depth + 1 - keep_from);
        let mut current = self.leaf_layer(0, self.shape.layer_len(0))?;
        for j in 1..=depth {
            let next = self.parent_layer(&current, j, 0, true)?;
            let finished = core::mem::replace(&mut current, next);
            if j > keep_from {
                layers.push(finished);
            }
        }
        layers.push(current);
        Ok(layers)
    }

    /// Layer `j` at full (stored) length.
    fn full_layer(&self, j: usize) -> Result<Vec<Digest>, NoMemory> {
        let mut current = self.leaf_layer(0, self.shape.layer_len(0))?;
        for level in 1..=j {
            current = self.parent_layer(&current, level, 0, true)?;
        }
        Ok(current)
    }

    /// Layers `0..=top` restricted to the block of leaf positions `start..end` (positions at or
    /// past a layer's stored length are padding: zero digests).
    pub(crate) fn build_block(
        &self,
        start: usize,
        end: usize,
        top: usize,
    ) -> Result<Vec<Vec<Digest>>, NoMemory> {
        let mut layers = vec![self.leaf_layer(start, end)?];
        for j in 1..=top {
            let next =
                self.parent_layer(layers.last().expect("non-empty"), j, start >> j, false)?;
            layers.push(next);
        }
        Ok(layers)
    }

    /// Leaf digests for positions `start..end`: rows below the tallest height are hashed,
    /// padding positions are zero.
    fn leaf_layer(&self, start: usize, end: usize) -> Result<Vec<Digest>, NoMemory> {
        // Zeroed pages, not a fill: the hashing threads touch them first (and only once).
        let mut out = try_zeroed_digests(end - start)?;
        let real_end = end.min(self.shape.max_height);
        if start < real_end {
            self.hash_rows_of(&self.shape.leaves, start, &mut out[..real_end - start]);
        }
        Ok(out)
    }

    /// Layer `j` from the layer below it, which starts at position `2 · first`. With `pad`,
    /// extends it with zero digests to its stored length.
    fn parent_layer(
        &self,
        children: &[Digest],
        j: usize,
        first: usize,
        pad: bool,
    ) -> Result<Vec<Digest>, NoMemory> {
        let layer = &self.shape.layers[j - 1];
        let count = children.len() / 2;
        // Allocated zeroed at the stored length up front (the padding digest is zero, and
        // growing by one would double the allocation); only `count` are computed below.
        let mut parents = try_zeroed_digests(if pad { layer.len.max(count) } else { count })?;
        self.config
            .compress_nodes(&children[..2 * count], &mut parents[..count])
            .expect("2·count children");
        // Positions past the computed length are padding, zero whatever their children.
        let real = layer.raw_len.saturating_sub(first).min(count);
        for p in &mut parents[real..] {
            *p = ZERO_DIGEST;
        }
        if !layer.injected.is_empty() && real > 0 {
            // parent ← compress(parent, hash of the injected rows), or compress(parent, 0) past
            // the injected matrices' height.
            let rows = layer.injected_height.saturating_sub(first).min(real);
            let mut pairs = try_zeroed_digests(2 * real)?;
            for (pair, parent) in pairs.chunks_exact_mut(2).zip(&parents) {
                pair[0] = *parent;
            }
            if rows > 0 {
                let mut injected = try_zeroed_digests(rows)?;
                self.hash_rows_of(&layer.injected, first, &mut injected);
                for (pair, digest) in pairs.chunks_exact_mut(2).zip(injected) {
                    pair[1] = digest;
                }
            }
            self.config
                .compress_nodes(&pairs, &mut parents[..real])
                .expect("2·real children");
        }
        if pad {
            // Zero past `count` already: the stored length, as the layer keeps it.
            parents.truncate(layer.len);
        }
        Ok(parents)
    }

    /// `out[i] = leaf hash of the rows first + i of `matrices`, concatenated in order.
    fn hash_rows_of(&self, matrices: &[usize], first: usize, out: &mut [Digest]) {
        if let [m] = matrices {
            let matrix = &self.matrices[*m];
            let width = matrix.width();
            self.config
                .hash_leaves(matrix.rows(first, first + out.len()), width, out)
                .expect("whole rows");
            return;
        }
        // Several matrices: gather each chunk's rows back to back, then hash them as one.
        let width = self.shape.total_width(matrices);
        let gather_and_hash = |offset: usize, digests: &mut [Digest]| {
            let mut scratch = Vec::with_capacity(digests.len() * width);
            for row in first + offset..first + offset + digests.len() {
                for &m in matrices {
                    scratch.extend_from_slice(self.matrices[m].row_at(row));
                }
            }
            self.config
                .hash_leaves_on_this_thread(&scratch, width, digests);
        };
        if out.len() <= 2 * ROWS_PER_TASK {
            gather_and_hash(0, out);
        } else {
            out.par_chunks_mut(ROWS_PER_TASK)
                .enumerate()
                .for_each(|(task, digests)| gather_and_hash(task * ROWS_PER_TASK, digests));
        }
    }
}
