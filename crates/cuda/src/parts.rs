//! The parts of the GPU's work named on their own: the permutations it runs
//! ([`GpuPermutation`]), and the groups of kernels its known-answer check accepts or refuses
//! one by one ([`GpuKernel`]).

use core::fmt;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::Preset;
use aurum_poseidon::Poseidon;
use aurum_symmetric::Permutation;

use crate::kernels::Poseidon2Constants;

/// A permutation the GPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuPermutation {
    /// Poseidon2 (Plonky3's parameters), width 8.
    Poseidon2W8,
    /// Poseidon2, width 12.
    Poseidon2W12,
    /// Poseidon2, width 16.
    Poseidon2W16,
    /// plonky2's Poseidon, width 12.
    Poseidon,
}

impl GpuPermutation {
    /// Every permutation.
    pub const ALL: [GpuPermutation; 4] = [
        GpuPermutation::Poseidon2W8,
        GpuPermutation::Poseidon2W12,
        GpuPermutation::Poseidon2W16,
        GpuPermutation::Poseidon,
    ];

    /// The state's width.
    #[must_use]
    pub const fn width(self) -> usize {
        match self {
            GpuPermutation::Poseidon2W8 => 8,
            GpuPermutation::Poseidon2W12 | GpuPermutation::Poseidon => 12,
            GpuPermutation::Poseidon2W16 => 16,
        }
    }

    /// A short name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GpuPermutation::Poseidon2W8 => "poseidon2-w8",
            GpuPermutation::Poseidon2W12 => "poseidon2-w12",
            GpuPermutation::Poseidon2W16 => "poseidon2-w16",
            GpuPermutation::Poseidon => "poseidon",
        }
    }

    /// The CPU's permutation of each state of `states` (whole states), Poseidon2 with the
    /// round constants `constants`.
    pub(crate) fn permute_on_cpu(self, constants: &Poseidon2Constants, states: &mut [Goldilocks]) {
        fn each<const W: usize>(perm: &impl Permutation<W>, states: &mut [Goldilocks]) {
            for state in states.chunks_exact_mut(W) {
                perm.permute(state.try_into().expect("chunks of W"));
            }
        }
        match self {
            GpuPermutation::Poseidon2W8 => each(&constants.permutation::<8>(), states),
            GpuPermutation::Poseidon2W12 => each(&constants.permutation::<12>(), states),
            GpuPermutation::Poseidon2W16 => each(&constants.permutation::<16>(), states),
            GpuPermutation::Poseidon => each(&Poseidon::new(), states),
        }
    }

    pub(crate) fn kernel(self) -> &'static str {
        match self {
            GpuPermutation::Poseidon2W8 => "poseidon2_w8_permute",
            GpuPermutation::Poseidon2W12 => "poseidon2_w12_permute",
            GpuPermutation::Poseidon2W16 => "poseidon2_w16_permute",
            GpuPermutation::Poseidon => "poseidon_permute_states",
        }
    }
}

/// A group of the GPU's kernels that the known-answer check of [`crate::Gpu::open`] accepts or
/// refuses on its own. A refused group never runs (every call that needs it is
/// [`crate::CudaError::KnownAnswer`], and under `auto` its jobs go to the CPU); the accepted
/// ones serve as usual, so one faulty kernel does not take the others' work off the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuKernel {
    /// A permutation of many states ([`crate::Gpu::permute`], the benchmarks' rates).
    Permutation(GpuPermutation),
    /// A preset's Merkle tree: its leaf hashing and compression (every commitment).
    Tree(Preset),
    /// The coset LDE: the transforms' passes and the tables of powers.
    Lde,
    /// The FRI fold (and the table of powers it reads).
    Fold,
    /// The openings' reduced codewords (and the table of the domain's points).
    Opening,
}

impl GpuKernel {
    /// Every group, in the order the check runs them: the permutations and trees first (the
    /// kernels most of the work needs), then the LDE, the fold and the openings.
    #[must_use]
    pub fn all() -> Vec<GpuKernel> {
        GpuPermutation::ALL
            .into_iter()
            .map(GpuKernel::Permutation)
            .chain(Preset::ALL.into_iter().map(GpuKernel::Tree))
            .chain([GpuKernel::Lde, GpuKernel::Fold, GpuKernel::Opening])
            .collect()
    }
}

impl fmt::Display for GpuKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuKernel::Permutation(perm) => write!(f, "{} permutation", perm.name()),
            GpuKernel::Tree(preset) => write!(f, "{preset} tree"),
            GpuKernel::Lde => f.write_str("coset LDE"),
            GpuKernel::Fold => f.write_str("FRI fold"),
            GpuKernel::Opening => f.write_str("reduced opening"),
        }
    }
}
