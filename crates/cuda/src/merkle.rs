//! Merkle commitments on the GPU: the same layers as `aurum_merkle::MerkleTree` for every
//! preset and shape (mixed heights included).
//!
//! The matrices are streamed: the rows of each group that is hashed together (the tallest
//! matrices for the leaves, each shorter height's matrices for the layer they join) are packed
//! chunk by chunk into page-locked buffers, copied on one stream and hashed on another, so
//! packing, copying and hashing overlap and only digests stay on the device — an input larger
//! than the GPU's memory commits as well. The layers are then built on the device and stay
//! there ([`GpuTree`]) until the caller asks for the root, a cap or all of them.

use std::time::{Duration, Instant};

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{BuildError, Digest, Matrix, OpenError, Preset, TreeDigests, TreeShape};
use rayon::prelude::*;

use crate::backend::{self, Buffer, Device, Staging};
use crate::error::{CommitError, CudaError};
use crate::gpu::Gpu;
use crate::matrix::GpuMatrix;
use crate::parts::GpuKernel;

/// A tree whose digest layers are on the device.
pub struct GpuTree<'g> {
    gpu: &'g Gpu,
    shape: TreeShape,
    /// Layers 0 (leaves) ..= depth (root), each of its stored length · 4 words.
    layers: Vec<Buffer>,
}

impl core::fmt::Debug for GpuTree<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuTree")
            .field("dims", &self.shape.dims())
            .finish()
    }
}

fn digests_of(words: &[u64]) -> Vec<Digest> {
    words
        .chunks_exact(4)
        .map(|d| core::array::from_fn(|i| Goldilocks::from_u64(d[i])))
        .collect()
}

impl GpuTree<'_> {
    /// The geometry.
    #[must_use]
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The root, copied back (32 bytes).
    pub fn root(&self) -> Result<Digest, CudaError> {
        let root = self.layers.last().expect("a tree has a root layer");
        Ok(digests_of(&self.gpu.device.download(root, 4)?)[0])
    }

    /// The cap of height `cap_height` (the layer `cap_height` below the root), copied back;
    /// the same checks as `MerkleTree::cap`'s.
    pub fn cap(&self, cap_height: usize) -> Result<Vec<Digest>, CommitError> {
        let depth = self.shape.depth();
        let max_cap_height = self.shape.max_cap_height();
        if cap_height > depth {
            return Err(CommitError::Open(OpenError::CapTooHigh {
                cap_height,
                depth,
            }));
        }
        if cap_height > max_cap_height {
            return Err(CommitError::Open(OpenError::CapBelowMatrices {
                cap_height,
                max_cap_height,
            }));
        }
        let layer = depth - cap_height;
        let len =
            self.shape
                .cap_size(cap_height)
                .ok_or(CommitError::Open(OpenError::CapTooHigh {
                    cap_height,
                    depth,
                }))?;
        let words = self.gpu.device.download(&self.layers[layer], 4 * len)?;
        Ok(digests_of(&words))
    }

    /// Every layer, copied back: equal to the CPU's `MerkleTree::into_digests()` (re-attach
    /// them with `MerkleTree::from_digests` to open).
    pub fn digests(&self) -> Result<TreeDigests, CudaError> {
        self.read_layers(0)
    }

    /// Layers `dropped..=depth`, copied back: equal to the CPU's
    /// `MerkleTree::with_dropped_layers(config, matrices, dropped).into_digests()`.
    pub fn digests_above(&self, dropped: usize) -> Result<TreeDigests, CommitError> {
        let depth = self.shape.depth();
        if dropped > depth {
            return Err(CommitError::Build(BuildError::TooManyDroppedLayers {
                requested: dropped,
                depth,
            }));
        }
        Ok(self.read_layers(dropped)?)
    }

    /// Layers `dropped..=depth` (`dropped ≤ depth`), copied back.
    fn read_layers(&self, dropped: usize) -> Result<TreeDigests, CudaError> {
        let mut staging = self.gpu.staging()?;
        let staging = staging.as_mut().map_err(Clone::clone)?;
        let mut layers = Vec::with_capacity(self.layers.len() - dropped);
        for (j, buffer) in self.layers.iter().enumerate().skip(dropped) {
            let len = self.shape.stored_len(j).expect("one buffer per layer");
            // Zeroed pages (huge where the kernel gives them), first touched by the parallel
            // copy out of the read-back buffers; the kernels' values are canonical, stored as
            // they are.
            let mut layer: Vec<Digest> =
                aurum_goldilocks::raw::try_zeroed(len).map_err(|e| CudaError::Driver {
                    what: "allocating the digest layers",
                    message: e.to_string(),
                })?;
            let words = aurum_goldilocks::raw::words_mut(layer.as_flattened_mut());
            self.gpu.device.read_back(staging, buffer, words)?;
            layers.push(layer);
        }
        Ok(
            TreeDigests::from_layers_above(self.shape.clone(), dropped, layers)
                .expect("one layer of the stored length per layer of the shape"),
        )
    }
}

/// Where a commitment's time went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitTimings {
    /// Host matrices to every layer on the device: packing, copying and hashing, overlapped.
    pub build: Duration,
    /// Copying every layer back.
    pub download: Duration,
}

/// Commits to `matrices` (in this order) with `preset` on `gpu` and copies every digest layer
/// back: equal to the CPU's `MerkleTree::new(&config, matrices)?.into_digests()`.
pub fn commit(
    gpu: &Gpu,
    preset: Preset,
    matrices: &[Matrix<'_>],
) -> Result<TreeDigests, CommitError> {
    Ok(commit_on_device(gpu, preset, matrices)?.digests()?)
}

/// [`commit`], with where its time went.
pub fn commit_timed(
    gpu: &Gpu,
    preset: Preset,
    matrices: &[Matrix<'_>],
) -> Result<(TreeDigests, CommitTimings), CommitError> {
    let start = Instant::now();
    let tree = commit_on_device(gpu, preset, matrices)?;
    gpu.device.synchronize()?;
    let build = start.elapsed();
    let start = Instant::now();
    let digests = tree.digests()?;
    Ok((
        digests,
        CommitTimings {
            build,
            download: start.elapsed(),
        },
    ))
}

/// Commits to `matrices` with `preset`, leaving the layers on the device.
pub fn commit_on_device<'g>(
    gpu: &'g Gpu,
    preset: Preset,
    matrices: &[Matrix<'_>],
) -> Result<GpuTree<'g>, CommitError> {
    let dims: Vec<_> = matrices.iter().map(Matrix::dimensions).collect();
    let shape = TreeShape::new(&dims)?;
    gpu.kernel_usable(GpuKernel::Tree(preset))?;
    check_memory(gpu, &shape, 2 * backend::SLOTS * backend::SLOT_WORDS * 8)?;
    let mut staging = gpu.staging()?;
    let staging = staging.as_mut().map_err(|e| CommitError::Cuda(e.clone()))?;
    let device = &gpu.device;
    let layers = build_layers(device, preset, &shape, |group, rows, out| {
        stream_group(device, preset, staging, matrices, group, rows, out)
    })?;
    Ok(GpuTree { gpu, shape, layers })
}

/// Commits to matrices already on the device (an LDE's output, say), in this order, with
/// `preset`, leaving the layers on the device: the same tree as the CPU's over the same
/// values, with no copy of the matrices.
pub fn commit_matrices<'g>(
    gpu: &'g Gpu,
    preset: Preset,
    matrices: &[&GpuMatrix<'_>],
) -> Result<GpuTree<'g>, CommitError> {
    let dims: Vec<_> = matrices.iter().map(|m| m.dimensions()).collect();
    let shape = TreeShape::new(&dims)?;
    gpu.kernel_usable(GpuKernel::Tree(preset))?;
    check_memory(gpu, &shape, 0)?;
    let layers = resident_layers(gpu, preset, &shape, matrices)?;
    Ok(GpuTree { gpu, shape, layers })
}

fn resident_layers(
    gpu: &Gpu,
    preset: Preset,
    shape: &TreeShape,
    matrices: &[&GpuMatrix<'_>],
) -> Result<Vec<Buffer>, CudaError> {
    let device = &gpu.device;
    build_layers(device, preset, shape, |group, rows, out| {
        let buffers: Vec<&Buffer> = group.iter().map(|&m| &matrices[m].buffer).collect();
        let widths: Vec<usize> = group.iter().map(|&m| matrices[m].width).collect();
        device.leaves(preset, &buffers, &widths, 0, rows, &mut out.slice_mut(..))
    })
}

/// The hashing alone, on matrices copied to the device beforehand (whole, not streamed): the
/// kernels' own speed, for benchmarks. Returns the root and the hashing time.
pub fn hash_resident(
    gpu: &Gpu,
    preset: Preset,
    matrices: &[Matrix<'_>],
) -> Result<(Digest, Duration), CommitError> {
    let dims: Vec<_> = matrices.iter().map(Matrix::dimensions).collect();
    let shape = TreeShape::new(&dims)?;
    gpu.kernel_usable(GpuKernel::Tree(preset))?;
    let input: usize = matrices.iter().map(|m| m.values().len() * 8).sum();
    check_memory(gpu, &shape, input)?;
    let uploaded = matrices
        .iter()
        .map(|&m| GpuMatrix::upload(gpu, m))
        .collect::<Result<Vec<GpuMatrix<'_>>, CudaError>>()?;
    let refs: Vec<&GpuMatrix<'_>> = uploaded.iter().collect();
    let (layers, time) = gpu
        .device
        .timed(|| resident_layers(gpu, preset, &shape, &refs))?;
    let tree = GpuTree { gpu, shape, layers };
    Ok((tree.root()?, time))
}

/// Refuses a job larger than the device's free memory (a typed error, not a failed
/// allocation half-way through): the digest layers, one layer's injected digests, and
/// `extra` bytes (staging, or the resident input).
fn check_memory(gpu: &Gpu, shape: &TreeShape, extra: usize) -> Result<(), CudaError> {
    let digests: usize = (0..shape.num_layers())
        .filter_map(|j| shape.stored_len(j))
        .map(|len| len * 32)
        .sum();
    let injected = shape.stored_len(0).unwrap_or(0) * 32;
    let bytes = digests + injected + extra;
    let free = gpu.device.free_memory()?;
    if bytes > free {
        return Err(CudaError::OutOfMemory { bytes, free });
    }
    Ok(())
}

/// Every layer on the device, leaves first; `hash_group(group, rows, out)` writes the leaf
/// digests of the first `rows` rows of the matrices `group` (input positions) into `out`.
fn build_layers(
    device: &Device,
    preset: Preset,
    shape: &TreeShape,
    mut hash_group: impl FnMut(&[usize], usize, &mut Buffer) -> Result<(), CudaError>,
) -> Result<Vec<Buffer>, CudaError> {
    let leaf_len = shape.stored_len(0).expect("a tree has leaves");
    let mut leaves = device.zeros(4 * leaf_len)?;
    hash_group(shape.leaf_matrices(), shape.max_height(), &mut leaves)?;
    layers_above(device, preset, shape, leaves, hash_group)
}

/// The layers above `leaves` (layer 0, already hashed), as [`build_layers`] builds them.
fn layers_above(
    device: &Device,
    preset: Preset,
    shape: &TreeShape,
    leaves: Buffer,
    mut hash_group: impl FnMut(&[usize], usize, &mut Buffer) -> Result<(), CudaError>,
) -> Result<Vec<Buffer>, CudaError> {
    let mut layers = vec![leaves];
    for j in 1..shape.num_layers() {
        let plan = shape.layer_plan(j).expect("layers 1..=depth have plans");
        let len = shape.stored_len(j).expect("j ≤ depth");
        let mut parents = device.zeros(4 * len)?;
        let children = layers.last().expect("the leaves are first");
        device.compress(preset, children, plan.computed, &mut parents)?;
        if !plan.injected.is_empty() && plan.computed > 0 {
            let rows = plan.injected_height.min(plan.computed);
            let mut injected = device.zeros(4 * rows)?;
            hash_group(plan.injected, rows, &mut injected)?;
            device.inject(preset, &mut parents, &injected, rows, plan.computed)?;
        }
        layers.push(parents);
    }
    Ok(layers)
}

/// Leaf digests of the first `rows` rows of `group` through the staging slots: each chunk of
/// rows is packed (the group's rows back to back, in parallel) into a page-locked slot, copied
/// and hashed while the next chunk is packed.
fn stream_group(
    device: &Device,
    preset: Preset,
    staging: &mut Staging,
    matrices: &[Matrix<'_>],
    group: &[usize],
    rows: usize,
    out: &mut Buffer,
) -> Result<(), CudaError> {
    let group: Vec<Matrix<'_>> = group.iter().map(|&m| matrices[m]).collect();
    let width: usize = group.iter().map(Matrix::width).sum();
    let chunk_rows = chunk_rows(staging, width);
    if chunk_rows == 0 {
        // A row longer than a slot: copy the group whole instead.
        let buffers = group
            .iter()
            .map(|m| {
                device.upload(aurum_goldilocks::raw::words(
                    &m.values()[..rows * m.width()],
                ))
            })
            .collect::<Result<Vec<Buffer>, CudaError>>()?;
        let refs: Vec<&Buffer> = buffers.iter().collect();
        let widths: Vec<usize> = group.iter().map(Matrix::width).collect();
        return device.leaves(preset, &refs, &widths, 0, rows, &mut out.slice_mut(..));
    }
    for (chunk, first) in (0..rows).step_by(chunk_rows).enumerate() {
        let n = chunk_rows.min(rows - first);
        let slot = chunk % staging.slots();
        device.stage(staging, slot, n * width, |dst| {
            pack(&group, first, n, width, dst)
        })?;
        device.packed_leaves(
            preset,
            staging,
            slot,
            width,
            n,
            &mut out.slice_mut(4 * first..4 * (first + n)),
        )?;
    }
    Ok(())
}

/// Rows of `width` words staged and hashed as one chunk: as many as a slot holds, at most
/// [`backend::CHUNK_ROWS`]; 0 when a row is longer than a slot.
fn chunk_rows(staging: &Staging, width: usize) -> usize {
    (staging.slot_len() / width).min(backend::CHUNK_ROWS)
}

/// Rows `first..first + n` of `group`, each row's matrices back to back, into `dst`
/// (`n · width` words), in parallel.
fn pack(group: &[Matrix<'_>], first: usize, n: usize, width: usize, dst: &mut [u64]) {
    if let [matrix] = group {
        let src =
            aurum_goldilocks::raw::words(&matrix.values()[first * width..(first + n) * width]);
        dst.par_chunks_mut(1 << 15)
            .zip(src.par_chunks(1 << 15))
            .for_each(|(d, s)| d.copy_from_slice(s));
        return;
    }
    let rows_per_task = (1 << 15) / width + 1;
    dst.par_chunks_mut(rows_per_task * width)
        .enumerate()
        .for_each(|(task, d)| {
            let start = first + task * rows_per_task;
            for (r, row) in d.chunks_exact_mut(width).enumerate() {
                let mut at = 0;
                for m in group {
                    let w = m.width();
                    let src = &m.values()[(start + r) * w..(start + r + 1) * w];
                    row[at..at + w].copy_from_slice(aurum_goldilocks::raw::words(src));
                    at += w;
                }
            }
        });
}

/// A commitment to one matrix whose rows arrive in pieces (a file as it is read): each piece
/// is packed into the page-locked staging buffers as it comes, and a full buffer is copied and
/// hashed while the next one fills, so reading, copying and hashing overlap and the matrix is
/// never whole in memory, the host's or the device's. [`StreamingCommit::finish`] builds the
/// layers above the leaves; the tree is the one [`commit_on_device`] makes of the same rows.
pub struct StreamingCommit<'g> {
    gpu: &'g Gpu,
    preset: Preset,
    shape: TreeShape,
    width: usize,
    staging: crate::gpu::StagingGuard<'g>,
    leaves: Buffer,
    /// Rows hashed or queued so far.
    done: usize,
    /// Rows in the slot being filled.
    filled: usize,
    slot: usize,
}

impl core::fmt::Debug for StreamingCommit<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamingCommit")
            .field("dims", &self.shape.dims())
            .field("rows_received", &(self.done + self.filled))
            .finish_non_exhaustive()
    }
}

impl<'g> StreamingCommit<'g> {
    /// A commitment with `preset` to a matrix of `rows` rows of `width` elements, whose rows
    /// [`StreamingCommit::push`] takes in order.
    pub fn new(
        gpu: &'g Gpu,
        preset: Preset,
        rows: usize,
        width: usize,
    ) -> Result<Self, CommitError> {
        let shape = TreeShape::new(&[aurum_merkle::Dimensions {
            width,
            height: rows,
        }])?;
        gpu.kernel_usable(GpuKernel::Tree(preset))?;
        check_memory(gpu, &shape, 2 * backend::SLOTS * backend::SLOT_WORDS * 8)?;
        let staging = gpu.staging()?;
        let leaves = gpu
            .device
            .zeros(4 * shape.stored_len(0).expect("a tree has leaves"))?;
        let mut this = Self {
            gpu,
            preset,
            shape,
            width,
            staging,
            leaves,
            done: 0,
            filled: 0,
            slot: 0,
        };
        this.staging()?;
        Ok(this)
    }

    fn staging(&mut self) -> Result<&mut Staging, CudaError> {
        self.staging.as_mut().map_err(Clone::clone)
    }

    /// Rows per staging slot ([`chunk_rows`]; 0: a row is longer than a slot).
    fn slot_rows(&mut self) -> Result<usize, CudaError> {
        let width = self.width;
        Ok(chunk_rows(self.staging()?, width))
    }

    /// The next rows of the matrix (a whole number of them, canonical values).
    pub fn push(&mut self, rows: &[Goldilocks]) -> Result<(), CommitError> {
        let width = self.width;
        let height = self.shape.max_height();
        let count = rows.len() / width;
        if !rows.len().is_multiple_of(width) {
            return Err(CommitError::PartialRow {
                len: rows.len(),
                width,
            });
        }
        if self.done + self.filled + count > height {
            return Err(CommitError::RowCount {
                announced: height,
                received: self.done + self.filled + count,
            });
        }
        let slot_rows = self.slot_rows()?;
        if slot_rows == 0 {
            // A row longer than a slot: this piece straight to the device and hashed there.
            let device = &self.gpu.device;
            let buffer = device.upload(aurum_goldilocks::raw::words(rows))?;
            let first = self.done;
            device.leaves(
                self.preset,
                &[&buffer],
                &[width],
                0,
                count,
                &mut self.leaves.slice_mut(4 * first..4 * (first + count)),
            )?;
            device.synchronize()?;
            self.done += count;
            return Ok(());
        }
        let mut rest = rows;
        while !rest.is_empty() {
            let take = (slot_rows - self.filled).min(rest.len() / width);
            let (piece, tail) = rest.split_at(take * width);
            let (slot, at) = (self.slot, self.filled * width);
            let host = Device::slot_mut(self.staging()?, slot)?;
            host[at..at + piece.len()].copy_from_slice(aurum_goldilocks::raw::words(piece));
            self.filled += take;
            rest = tail;
            if self.filled == slot_rows {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Copies and hashes the slot being filled, and moves to the next one.
    fn flush(&mut self) -> Result<(), CudaError> {
        if self.filled == 0 {
            return Ok(());
        }
        let (slot, rows, first, width, preset) =
            (self.slot, self.filled, self.done, self.width, self.preset);
        let device = &self.gpu.device;
        let staging = self.staging.as_mut().map_err(Clone::clone)?;
        device.send(staging, slot, rows * width)?;
        device.packed_leaves(
            preset,
            staging,
            slot,
            width,
            rows,
            &mut self.leaves.slice_mut(4 * first..4 * (first + rows)),
        )?;
        self.done += rows;
        self.filled = 0;
        self.slot = (slot + 1) % staging.slots();
        Ok(())
    }

    /// The tree, its layers on the device; an error if fewer rows came than announced.
    pub fn finish(mut self) -> Result<GpuTree<'g>, CommitError> {
        self.flush()?;
        let height = self.shape.max_height();
        if self.done != height {
            return Err(CommitError::RowCount {
                announced: height,
                received: self.done,
            });
        }
        let Self {
            gpu,
            preset,
            shape,
            leaves,
            ..
        } = self;
        let layers = layers_above(&gpu.device, preset, &shape, leaves, |_, _, _| {
            unreachable!("one matrix: nothing joins above the leaves")
        })?;
        Ok(GpuTree { gpu, shape, layers })
    }
}
