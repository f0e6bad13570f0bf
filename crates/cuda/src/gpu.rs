//! The device handle: [`Gpu`] (opened once per process, its kernels compiled, its staging
//! buffers kept), the choice of device for a job, and the kernels' compilation check.

use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use crate::backend;
use crate::device::{AUTO_MIN_ELEMENTS, DeviceChoice};
use crate::error::CudaError;
use crate::info::DeviceInfo;
use crate::kernels::{KernelTuning, Poseidon2Constants};
use crate::parts::GpuKernel;

/// A CUDA device with Aurum's kernels compiled and loaded: device 0 of the machine.
pub struct Gpu {
    pub(crate) device: backend::Device,
    /// The Poseidon2 round constants the kernels were compiled with.
    constants: Poseidon2Constants,
    /// The streaming buffers, allocated at the first commitment (page-locked memory is slow
    /// to allocate) and reused by every later one; one commitment at a time uses them.
    staging: Mutex<Option<Result<backend::Staging, CudaError>>>,
    /// The groups of kernels the known-answer check refused ([`CudaError::KnownAnswer`]).
    refused: Vec<CudaError>,
}

impl core::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gpu")
            .field("info", &self.device.info)
            .finish()
    }
}

impl Gpu {
    /// Opens device 0, compiles the kernels for it (NVRTC; see [`DeviceInfo`] for what that
    /// took) and checks each group of its kernels ([`GpuKernel`]) against the CPU on known
    /// answers (every permutation, every preset's tree, coset LDEs, folds, openings;
    /// [`DeviceInfo::check_time`]). Without a driver, a device or NVRTC this is the
    /// [`CudaError`] that says which — never a panic. A group that computes other values, or
    /// fails to run, is refused ([`Gpu::refused`]): the device opens without it, and every call
    /// that needs it is its [`CudaError::KnownAnswer`]. Where every group is refused the device
    /// is no use: the first refusal is the error.
    pub fn open() -> Result<Self, CudaError> {
        Self::open_with(Poseidon2Constants::default())
    }

    /// [`Gpu::open`] with the kernels compiled with the Poseidon2 round constants
    /// `constants` (a prover's own: Plonky3 provers often draw theirs), so its `poseidon2-w*`
    /// trees and permutations are those of the permutations with these constants; the known
    /// answers are checked against the CPU's permutations with them.
    pub fn open_with(constants: Poseidon2Constants) -> Result<Self, CudaError> {
        Self::open_tuned(constants, KernelTuning::default())
    }

    /// [`Gpu::open_with`] with the kernels compiled with `tuning` instead of the default:
    /// for measuring a setting on a GPU (the results are the same; the known answers are
    /// checked as always).
    pub fn open_tuned(
        constants: Poseidon2Constants,
        tuning: KernelTuning,
    ) -> Result<Self, CudaError> {
        Self::checked(backend::Device::open(&constants, tuning)?, constants)
    }

    /// The host emulator (the `emulator` feature) with its kernels' source edited — the one
    /// occurrence of `replace` becomes `with` — and checked as [`Gpu::open`] checks: how the
    /// tests put a fault into one group of kernels and see it refused.
    #[cfg(feature = "emulator")]
    #[doc(hidden)]
    pub fn open_emulator_with_fault(replace: &str, with: &str) -> Result<Self, CudaError> {
        let constants = Poseidon2Constants::default();
        let device = backend::Device::open_edited(
            &constants,
            KernelTuning::default(),
            Some((replace, with)),
        )?;
        Self::checked(device, constants)
    }

    /// The opened `device`, its kernels compiled with `constants`, after the known-answer
    /// check.
    fn checked(device: backend::Device, constants: Poseidon2Constants) -> Result<Self, CudaError> {
        let mut gpu = Self {
            device,
            constants,
            staging: Mutex::new(None),
            refused: Vec::new(),
        };
        let start = Instant::now();
        // Every group runs its check with none refused yet; the refusals take effect after.
        let refused = gpu.check_known_answers();
        gpu.device.info.check_time = start.elapsed();
        if refused.len() == GpuKernel::all().len() {
            return Err(refused.into_iter().next().expect("at least one group"));
        }
        gpu.refused = refused;
        Ok(gpu)
    }

    /// The groups of kernels the known-answer check refused, each as the
    /// [`CudaError::KnownAnswer`] that says what differed (empty on a sound device).
    #[must_use]
    pub fn refused(&self) -> &[CudaError] {
        &self.refused
    }

    /// `Ok` when `kernel` passed the known-answer check, else its refusal: every entry point
    /// that runs a group asks this first.
    pub fn kernel_usable(&self, kernel: GpuKernel) -> Result<(), CudaError> {
        match self.refused.iter().find(
            |e| matches!(e, CudaError::KnownAnswer { kernel: refused, .. } if *refused == kernel),
        ) {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The Poseidon2 round constants the kernels were compiled with.
    #[must_use]
    pub fn constants(&self) -> &Poseidon2Constants {
        &self.constants
    }

    /// The staging buffers, allocated on first use (or why they could not be).
    pub(crate) fn staging(&self) -> Result<StagingGuard<'_>, CudaError> {
        let mut guard = self
            .staging
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if guard.is_none() {
            *guard = Some(self.device.staging(backend::SLOT_WORDS, backend::SLOTS));
        }
        Ok(StagingGuard(guard))
    }

    /// The process's device, opened (and its kernels compiled) on first use; later calls
    /// return the same device or the same error.
    pub fn shared() -> Result<&'static Gpu, CudaError> {
        static GPU: OnceLock<Result<Gpu, CudaError>> = OnceLock::new();
        GPU.get_or_init(Gpu::open).as_ref().map_err(Clone::clone)
    }

    /// [`Gpu::shared`] for the kernels compiled with `constants`: one device per set of
    /// constants and process (the default set is [`Gpu::shared`]'s), opened on first use and
    /// kept; later calls return the same device or the same error.
    pub fn shared_with(constants: &Poseidon2Constants) -> Result<&'static Gpu, CudaError> {
        type Opened = Vec<(Poseidon2Constants, &'static Result<Gpu, CudaError>)>;
        static OTHERS: Mutex<Opened> = Mutex::new(Vec::new());
        let constants = &constants.without_fixed();
        if *constants == Poseidon2Constants::default() {
            return Self::shared();
        }
        let mut others = OTHERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let opened = match others.iter().find(|(c, _)| c == constants) {
            Some((_, opened)) => *opened,
            None => {
                // Kept for the process, as the default device is: a handful of sets at most.
                let opened: &'static Result<Gpu, CudaError> =
                    Box::leak(Box::new(Gpu::open_with(constants.clone())));
                others.push((constants.clone(), opened));
                opened
            }
        };
        opened.as_ref().map_err(Clone::clone)
    }

    /// The device's name, memory, multiprocessors and start-up cost.
    #[must_use]
    pub fn info(&self) -> &DeviceInfo {
        &self.device.info
    }

    /// Each kernel's name, registers per thread and spilled (local-memory) bytes per thread.
    pub fn kernel_resources(&self) -> Result<Vec<(&'static str, i32, i32)>, CudaError> {
        self.device.kernel_resources()
    }
}

/// The locked staging buffers of a [`Gpu`].
pub(crate) struct StagingGuard<'a>(MutexGuard<'a, Option<Result<backend::Staging, CudaError>>>);

impl StagingGuard<'_> {
    pub(crate) fn as_mut(&mut self) -> Result<&mut backend::Staging, &CudaError> {
        self.0
            .as_mut()
            .expect("allocated by Gpu::staging")
            .as_mut()
            .map_err(|e| &*e)
    }
}

/// The GPU a job of `elements` input elements should run on under `choice`: `None` for the
/// CPU. `cuda` without a usable GPU is the error; `auto` takes the GPU only from
/// [`AUTO_MIN_ELEMENTS`] on and when one opens (else the CPU, silently).
pub fn gpu_for(choice: DeviceChoice, elements: usize) -> Result<Option<&'static Gpu>, CudaError> {
    gpu_for_with(choice, elements, &Poseidon2Constants::default())
}

/// [`gpu_for`] for the kernels compiled with the Poseidon2 round constants `constants`
/// ([`Gpu::shared_with`]).
pub fn gpu_for_with(
    choice: DeviceChoice,
    elements: usize,
    constants: &Poseidon2Constants,
) -> Result<Option<&'static Gpu>, CudaError> {
    match choice {
        DeviceChoice::Cpu => Ok(None),
        DeviceChoice::Cuda => Gpu::shared_with(constants).map(Some),
        DeviceChoice::Auto if elements < AUTO_MIN_ELEMENTS => Ok(None),
        DeviceChoice::Auto => Ok(Gpu::shared_with(constants).ok()),
    }
}

/// Compiles the kernels to PTX for `compute_<arch>` (e.g. `"90"`) with NVRTC, without a
/// device: the check CI runs for every supported architecture. The PTX text, or why not.
pub fn compile_kernels(arch: &str) -> Result<String, CudaError> {
    compile_kernels_tuned(arch, KernelTuning::default())
}

/// [`compile_kernels`] with `tuning` ([`Gpu::open_tuned`] compiles the same).
pub fn compile_kernels_tuned(arch: &str, tuning: KernelTuning) -> Result<String, CudaError> {
    backend::compile(arch, &Poseidon2Constants::default(), tuning)
}
