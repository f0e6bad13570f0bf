//! `aurum-fri`'s commit engine on the GPU: a `FriPcs` with [`GpuCommitEngine`] computes its
//! input LDEs and their Merkle tree on the device (the LDEs stay there for the tree and for the
//! openings' reduced codewords; they and the tree's upper layers come back for the rest of the
//! openings), and its other trees — over LDEs computed elsewhere (`FriPcs::commit_ldes`) and
//! over each codeword the FRI commit phase folds — from host memory, and those folds, and the
//! reduced openings, with the same values as the CPU, so the proofs are the same.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use aurum_fri::{CommitEngine, EngineCommit, EngineMatrix, HeightOpening};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Answers, Matrix, Preset, TreeDigests};
use aurum_ntt::{Domain, Order};

use crate::device::{AUTO_MIN_ELEMENTS, DeviceChoice, OPEN_TREE_MIN_ELEMENTS};
use crate::error::{CommitError, CudaError};
use crate::fold::fri_fold;
use crate::gpu::Gpu;
use crate::kernels::Poseidon2Constants;
use crate::lde::{LdeError, coset_lde_on_device};
use crate::matrix::GpuMatrix;
use crate::merkle::{commit_matrices, commit_on_device};
use crate::open::{KeptLdes, reduced_openings};
use crate::parts::GpuKernel;
use crate::reference::with_gpu_config;

/// The GPU as a `FriPcs` commit engine (`FriPcs::with_engine`).
#[derive(Debug)]
pub struct GpuCommitEngine {
    gpu: &'static Gpu,
    /// Whether every job must run here (`cuda`): else a commitment below
    /// [`AUTO_MIN_ELEMENTS`] input elements, a tree below [`OPEN_TREE_MIN_ELEMENTS`], a job
    /// larger than the device's free memory, or one needing a group of kernels the device
    /// refused, is left to the CPU.
    required: bool,
    /// Commitments computed here so far.
    jobs: AtomicUsize,
    /// Other trees computed here so far.
    trees: AtomicUsize,
    /// FRI folds computed here so far.
    folds: AtomicUsize,
    /// Openings' reduced codewords computed here so far (calls: one per opening).
    openings: AtomicUsize,
}

impl GpuCommitEngine {
    /// An engine that runs every commitment on `gpu` (a job it cannot hold is an error).
    #[must_use]
    pub fn new(gpu: &'static Gpu) -> Self {
        Self::on(gpu, true)
    }

    /// An engine on `gpu` that takes the jobs `auto` gives a GPU — commitments from
    /// [`AUTO_MIN_ELEMENTS`] input elements, other trees, folds and openings from
    /// [`OPEN_TREE_MIN_ELEMENTS`], those that fit its memory and need no group of kernels it
    /// refused ([`Gpu::refused`]) — and leaves the rest to the CPU.
    #[must_use]
    pub fn auto(gpu: &'static Gpu) -> Self {
        Self::on(gpu, false)
    }

    fn on(gpu: &'static Gpu, required: bool) -> Self {
        Self {
            gpu,
            required,
            jobs: AtomicUsize::new(0),
            trees: AtomicUsize::new(0),
            folds: AtomicUsize::new(0),
            openings: AtomicUsize::new(0),
        }
    }

    /// The engine `choice` asks for, for commitments of about `elements` input elements (as
    /// [`crate::gpu_for`] chooses): none for `cpu`; for `cuda` the process's GPU, every job on
    /// it, or the error that says why there is none; for `auto`, from [`AUTO_MIN_ELEMENTS`]
    /// elements on, the GPU when one opens, taking the jobs of at least that size that fit its
    /// memory (the CPU takes the rest), else none.
    pub fn for_job(choice: DeviceChoice, elements: usize) -> Result<Option<Self>, CudaError> {
        Self::for_job_with(choice, elements, &Poseidon2Constants::default())
    }

    /// [`GpuCommitEngine::for_job`] with the kernels compiled with the Poseidon2 round
    /// constants `constants` ([`Gpu::shared_with`]): the engine for a prover whose
    /// configuration hashes with its own constants (a `FriPcs` over Plonky3's width-8 tree with
    /// them hands it its commitments; one over the preset's constants no longer does).
    pub fn for_job_with(
        choice: DeviceChoice,
        elements: usize,
        constants: &Poseidon2Constants,
    ) -> Result<Option<Self>, CudaError> {
        Ok(crate::gpu::gpu_for_with(choice, elements, constants)?
            .map(|gpu| Self::on(gpu, choice == DeviceChoice::Cuda)))
    }

    /// Input commitments (LDEs and tree) this engine has computed (the rest went to the CPU).
    #[must_use]
    pub fn jobs(&self) -> usize {
        self.jobs.load(Ordering::Relaxed)
    }

    /// Other trees this engine has computed: over LDEs computed elsewhere and over the FRI
    /// commit phase's codewords (the rest went to the CPU).
    #[must_use]
    pub fn trees(&self) -> usize {
        self.trees.load(Ordering::Relaxed)
    }

    /// FRI folds this engine has computed (the rest went to the CPU).
    #[must_use]
    pub fn folds(&self) -> usize {
        self.folds.load(Ordering::Relaxed)
    }

    /// Openings whose reduced codewords this engine has computed (the rest went to the CPU).
    #[must_use]
    pub fn openings(&self) -> usize {
        self.openings.load(Ordering::Relaxed)
    }

    /// The device.
    #[must_use]
    pub fn gpu(&self) -> &'static Gpu {
        self.gpu
    }

    /// A job of `elements` input elements that runs the groups of kernels `kernels`, as the
    /// engine interface wants its outcome: unless every job must run here, one below
    /// `min_elements` or needing a group the device refused ([`Gpu::refused`]) is left to the
    /// CPU without running, and one that does not fit the device's memory after trying;
    /// `job`'s result otherwise, counted in `done` when it ran.
    fn take<T>(
        &self,
        elements: usize,
        min_elements: usize,
        kernels: &[GpuKernel],
        done: &AtomicUsize,
        job: impl FnOnce() -> Result<T, CommitError>,
    ) -> Result<Option<T>, String> {
        if !self.required && elements < min_elements {
            return Ok(None);
        }
        if let Some(refused) = kernels
            .iter()
            .find_map(|&k| self.gpu.kernel_usable(k).err())
        {
            return if self.required {
                Err(format!("GPU: {refused}"))
            } else {
                Ok(None)
            };
        }
        match job() {
            Ok(result) => {
                done.fetch_add(1, Ordering::Relaxed);
                Ok(Some(result))
            }
            Err(CommitError::Cuda(CudaError::OutOfMemory { .. })) if !self.required => Ok(None),
            Err(e) => Err(format!("GPU: {e}")),
        }
    }

    fn run(
        &self,
        preset: Preset,
        matrices: &[EngineMatrix<'_>],
        log_blowup: usize,
        dropped: usize,
    ) -> Result<EngineCommit, CommitError> {
        let gpu = self.gpu;
        let start = Instant::now();
        let ldes: Vec<GpuMatrix<'static>> = matrices
            .iter()
            .map(|m| {
                coset_lde_on_device(
                    gpu,
                    Domain::PLONKY3,
                    m.values,
                    m.width,
                    log_blowup,
                    m.lde_shift,
                    Order::BitReversed,
                )
            })
            .collect::<Result<_, LdeError>>()
            .map_err(|e| match e {
                LdeError::Cuda(e) => CommitError::Cuda(e),
                // The scheme checked the shapes; a refusal here is a bug, said as such.
                LdeError::Shape(e) => CommitError::Cuda(CudaError::Driver {
                    what: "an LDE of a checked shape",
                    message: e.to_string(),
                }),
            })?;
        gpu.device.synchronize()?;
        let mut lde_time = start.elapsed();
        let start = Instant::now();
        let refs: Vec<&GpuMatrix<'_>> = ldes.iter().collect();
        let digests = commit_matrices(gpu, preset, &refs)?.digests_above(dropped)?;
        let merkle_time = start.elapsed();
        let start = Instant::now();
        let host: Vec<Vec<Goldilocks>> = ldes
            .iter()
            .map(GpuMatrix::to_host)
            .collect::<Result<_, _>>()?;
        lde_time += start.elapsed();
        Ok(EngineCommit {
            ldes: host,
            digests,
            lde_time,
            merkle_time,
            // The device copies stay for the openings' reduced codewords.
            kept: Some(Arc::new(KeptLdes { gpu, ldes })),
        })
    }
}

impl CommitEngine for GpuCommitEngine {
    /// The device's `poseidon2-w*` trees hash with the constants its kernels were compiled
    /// with ([`Gpu::constants`]); its other trees are the presets'.
    fn tree_answers(&self, preset: Preset) -> Answers {
        with_gpu_config!(self.gpu.constants(), preset, |config| Answers::of(&config))
    }

    fn commit(
        &self,
        preset: Preset,
        matrices: &[EngineMatrix<'_>],
        log_blowup: usize,
        dropped: usize,
    ) -> Result<Option<EngineCommit>, String> {
        let elements = matrices.iter().map(|m| m.values.len()).sum();
        let kernels = [GpuKernel::Lde, GpuKernel::Tree(preset)];
        self.take(elements, AUTO_MIN_ELEMENTS, &kernels, &self.jobs, || {
            self.run(preset, matrices, log_blowup, dropped)
        })
    }

    /// The tree over `matrices` from host memory ([`commit_on_device`]), its layers from
    /// `dropped` up copied back.
    fn tree(
        &self,
        preset: Preset,
        matrices: &[Matrix<'_>],
        dropped: usize,
    ) -> Result<Option<TreeDigests>, String> {
        let elements = matrices.iter().map(|m| m.values().len()).sum();
        let kernels = [GpuKernel::Tree(preset)];
        self.take(
            elements,
            OPEN_TREE_MIN_ELEMENTS,
            &kernels,
            &self.trees,
            || commit_on_device(self.gpu, preset, matrices)?.digests_above(dropped),
        )
    }

    /// The fold on the device ([`fri_fold`]), under `auto` from the size its tree's crossover
    /// was measured at ([`OPEN_TREE_MIN_ELEMENTS`] base elements; the fold's own was not).
    fn fold(
        &self,
        codeword: &[Goldilocks2],
        log_arity: usize,
        beta: Goldilocks2,
    ) -> Result<Option<Vec<Goldilocks2>>, String> {
        self.take(
            2 * codeword.len(),
            OPEN_TREE_MIN_ELEMENTS,
            &[GpuKernel::Fold],
            &self.folds,
            || Ok(fri_fold(self.gpu, codeword, log_arity, beta)?),
        )
    }

    /// The reduced codewords on the device ([`reduced_openings`]), over the LDEs kept there
    /// from this engine's commitments (others copied), under `auto` from the trees' threshold
    /// ([`OPEN_TREE_MIN_ELEMENTS`] LDE elements; this job's own crossover was not measured).
    fn reduced_openings(
        &self,
        heights: &[HeightOpening<'_>],
    ) -> Result<Option<Vec<Vec<Goldilocks2>>>, String> {
        let elements = heights
            .iter()
            .flat_map(|h| &h.matrices)
            .map(|m| m.lde.len())
            .sum();
        let kernels = [GpuKernel::Opening];
        self.take(
            elements,
            OPEN_TREE_MIN_ELEMENTS,
            &kernels,
            &self.openings,
            || Ok(reduced_openings(self.gpu, heights)?),
        )
    }
}
