#![doc = include_str!("../README.md")]

pub mod constants;
mod fast;
pub mod hash;
pub mod reference;
mod rounds;
mod single;
mod sve;

use aurum_goldilocks::{Backend, Goldilocks, PackedField};
use aurum_symmetric::{BatchTable, Permutation};

use constants::{HALF_FULL_ROUNDS, WIDTH};
pub use fast::FastConstants;
pub use hash::{Digest, HashMode, HashNoPad, HashOrNoop, LinearHash, TwoToOne, hash_many};
pub use rounds::mds_layer;
use rounds::{first_partial_layer, full_sbox_layer, partial_rounds};
use single::SingleState;
pub use sve::SveKernel;

/// The Poseidon permutation of plonky2 / Polygon zkProver (width 12).
#[derive(Clone, Copy, Debug)]
pub struct Poseidon {
    constants: &'static FastConstants,
    batch: BatchTable,
    /// The SVE kernel, where this CPU runs SVE (decided when built).
    sve: Option<&'static SveKernel>,
    /// The form single-state calls (`permute`) run (decided when built).
    single: SingleState,
}

impl Default for Poseidon {
    fn default() -> Self {
        Self::new()
    }
}

impl Poseidon {
    /// The permutation. Its derived constants are computed on first use in the process and
    /// shared, so this is cheap.
    #[must_use]
    pub fn new() -> Self {
        Self {
            constants: FastConstants::get(),
            batch: MEASURED_BATCH,
            sve: SveKernel::get(),
            single: SingleState::for_backend(aurum_goldilocks::backend()),
        }
    }

    /// Chooses the single-state form that [`Permutation::permute`] runs: the vector form of
    /// `backend` (AVX2 or AVX-512, the 12 words of one state across vector registers) where
    /// this crate has one and this CPU runs it, the scalar form otherwise. [`Poseidon::new`]
    /// chooses the form of the backend selected at run time. Every form gives the same results.
    #[must_use]
    pub fn with_single_state_backend(mut self, backend: Backend) -> Self {
        self.single = SingleState::for_backend(backend);
        self
    }

    /// The backend whose instructions single-state calls run on ([`Backend::Scalar`] for the
    /// scalar form; see [`Poseidon::with_single_state_backend`]).
    #[must_use]
    pub fn single_state_backend(&self) -> Backend {
        self.single.backend()
    }

    /// The derived constants the fast permutation runs on.
    #[must_use]
    pub fn fast_constants(&self) -> &'static FastConstants {
        self.constants
    }

    /// Overrides the batch size bulk calls use on every backend (benchmarks compare them).
    ///
    /// # Panics
    /// Panics unless `batch` is 1, 2 or 4.
    #[must_use]
    pub fn with_batch_size(mut self, batch: usize) -> Self {
        self.batch = BatchTable::uniform(batch);
        self
    }
}

/// Measured with `benches/poseidon.rs` (`poseidon/packed/aurum-<backend>-b<B>`, ns per
/// state) on a shared Zen 4, no RUSTFLAGS: scalar 1227 / 1262 / 1197 for B = 1/2/4,
/// AVX2 1097 / 1079 / 1041, AVX-512 528 / 480 / 468. NEON: B = 2, measured best in a
/// batched-permute study on a Raspberry Pi 5 (B = 4 loses to it); qemu timings say nothing
/// about Arm cores.
const MEASURED_BATCH: BatchTable = BatchTable::new([4, 4, 4, 2]);

impl Permutation<WIDTH> for Poseidon {
    type StateKernel = SveKernel;

    #[inline(always)]
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        // Work on a local copy: LLVM keeps a local array in registers more readily than
        // memory behind a reference.
        let mut local = *states;
        // All eight full rounds in one loop, the partial rounds inside it after the fourth:
        // one copy of the full round's code instead of one per group of rounds (each copy
        // costs compile time, and stack in unoptimised builds).
        for (r, constants) in self.constants.full.iter().enumerate() {
            full_sbox_layer(&mut local, constants);
            if r == HALF_FULL_ROUNDS - 1 {
                first_partial_layer(self.constants, &mut local);
                partial_rounds(self.constants, &mut local);
            } else {
                for state in local.iter_mut() {
                    mds_layer(state);
                }
            }
        }
        *states = local;
    }

    /// Permutes one state with the single-state form chosen when this was built.
    #[inline]
    fn permute(&self, state: &mut [Goldilocks; WIDTH]) {
        if !self.single.permute(self.constants, state) {
            let mut states = [*state];
            self.permute_batch::<Goldilocks, 1>(&mut states);
            *state = states[0];
        }
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.batch.get(backend)
    }

    fn state_kernel(&self, backend: Backend) -> Option<&SveKernel> {
        self.sve.filter(|_| backend == Backend::Sve)
    }
}

/// Permutes every state in place on the backend selected at run time, in parallel for many
/// states (`aurum_symmetric::permute_many` with the shared default instance).
pub fn permute_many(states: &mut [[Goldilocks; WIDTH]]) {
    aurum_symmetric::permute_many(&Poseidon::new(), states);
}
