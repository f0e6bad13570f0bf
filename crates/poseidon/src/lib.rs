#![doc = include_str!("../README.md")]

pub mod constants;
mod fast;
pub mod hash;
pub mod reference;
mod single;
mod sve;

use aurum_goldilocks::{Backend, Goldilocks, PackedField, SmallCoefficients};
use aurum_symmetric::{BatchChoice, Permutation};

use constants::{HALF_FULL_ROUNDS, PARTIAL_ROUNDS, WIDTH};
pub use fast::FastConstants;
pub use hash::{Digest, HashMode, HashNoPad, HashOrNoop, LinearHash, TwoToOne, hash_many};
use single::SingleState;
pub use sve::SveKernel;

/// The Poseidon permutation of plonky2 / Polygon zkProver (width 12).
#[derive(Clone, Copy, Debug)]
pub struct Poseidon {
    constants: &'static FastConstants,
    /// A batch size forced for benchmarks ([`Self::with_batch_size`]); else the measured one.
    batch: Option<usize>,
    /// The measured batch sizes of this type.
    choice: &'static BatchChoice,
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
            batch: None,
            choice: BatchChoice::of::<Self>(),
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

    /// Overrides the batch size bulk calls use on every backend (benchmarks compare them),
    /// instead of the size measured fastest on this machine.
    ///
    /// # Panics
    /// Panics unless `batch` is 1, 2 or 4.
    #[must_use]
    pub fn with_batch_size(mut self, batch: usize) -> Self {
        assert!(
            aurum_symmetric::BATCH_SIZES.contains(&batch),
            "batch size must be 1, 2 or 4"
        );
        self.batch = Some(batch);
        self
    }
}

/// The MDS matrix as small-coefficient rows, `MDS_U32[i].get()[j]` multiplying `state[j]` in
/// `out[i]`.
const MDS_U32: [SmallCoefficients<WIDTH>; WIDTH] = {
    let m = constants::mds_matrix();
    let mut out = [SmallCoefficients::new([0; WIDTH]); WIDTH];
    let mut i = 0;
    while i < WIDTH {
        let mut row = [0u32; WIDTH];
        let mut j = 0;
        while j < WIDTH {
            row[j] = m[i][j] as u32;
            j += 1;
        }
        // A row summing to 2^31 or more fails to compile here.
        out[i] = SmallCoefficients::new(row);
        i += 1;
    }
    out
};

// Hot-path code below uses plain loops, never closures (`array::from_fn`, `map`): a closure
// is compiled as its own function without the backend's target features, so the SIMD
// intrinsics inside would not inline into it (100× slower on AVX2/AVX-512).

/// `MDS · state` with the small coefficients: one deferred-reduction linear combination per
/// output, over the unrotated state with the matrix row as coefficients (so the rows share
/// every operand and its split into 32-bit halves). A loop over the constant rows, which LLVM
/// unrolls (each row's coefficients then become constants); spelling the 12 rows out
/// measured no faster and multiplied the unoptimised code and stack by 12.
#[inline(always)]
pub fn mds_layer<P: PackedField>(state: &mut [P; WIDTH]) {
    let mut out = [P::ZERO; WIDTH];
    for (o, row) in out.iter_mut().zip(&MDS_U32) {
        *o = P::linear_combination_small(state, row);
    }
    // Written back word by word (a whole-array assignment may become a `memcpy` call).
    for (s, o) in state.iter_mut().zip(out) {
        *s = o;
    }
}

/// Adds a round's constants to every state, then applies the S-box to every word
/// ([`PackedField::exp7_each`]: four words at a time, stage by stage).
#[inline(always)]
fn full_sbox_layer<P: PackedField, const B: usize>(
    states: &mut [[P; WIDTH]; B],
    constants: &[Goldilocks; WIDTH],
) {
    for state in states.iter_mut() {
        for (s, &c) in state.iter_mut().zip(constants) {
            *s += c;
        }
        P::exp7_each(state);
    }
}

impl Poseidon {
    /// The linear layer of the last initial full round: the MDS matrix followed by the dense
    /// matrix the sparse partial rounds start with, plus the first partial constant.
    #[inline(always)]
    fn first_partial_layer<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        let c = self.constants;
        for state in states.iter_mut() {
            let s = *state;
            state[0] = P::linear_combination_small(&s, &MDS_U32[0]) + c.partial[0];
            for (x, row) in state[1..].iter_mut().zip(&c.first_partial_matrix) {
                *x = P::linear_combination(&s, row);
            }
        }
    }

    /// The 22 partial rounds in sparse form. On entry `state[0]` already holds the first
    /// partial constant; each round adds the next one off the critical path.
    #[inline(always)]
    fn partial_rounds<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        let c = self.constants;
        for j in 0..PARTIAL_ROUNDS {
            // Independent of this round's S-box: the row product over state[1..] plus the
            // next round's constant.
            let mut partial_sums = [P::ZERO; B];
            for (sum, state) in partial_sums.iter_mut().zip(states.iter()) {
                let rest: &[P; WIDTH - 1] = state[1..].try_into().expect("11 words");
                *sum = P::linear_combination(rest, &c.partial_rows[j]);
                if j + 1 < PARTIAL_ROUNDS {
                    *sum += c.partial[j + 1];
                }
            }
            for state in states.iter_mut() {
                state[0] = state[0].exp7();
            }
            for (state, sum) in states.iter_mut().zip(partial_sums) {
                let s0 = state[0];
                // Products, then sums: two one-operation loops LLVM unrolls. A multiply-add
                // body it left rolled, with the state in memory (scalar latency +3 %).
                let mut products = [P::ZERO; WIDTH - 1];
                for (p, &col) in products.iter_mut().zip(&c.partial_cols[j]) {
                    *p = s0 * col;
                }
                for (x, p) in state[1..].iter_mut().zip(products) {
                    *x += p;
                }
                state[0] = s0.mul_small(MDS_U32[0].get()[0]) + sum;
            }
        }
    }
}

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
                self.first_partial_layer(&mut local);
                self.partial_rounds(&mut local);
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
        self.batch
            .unwrap_or_else(|| self.choice.batch(self, backend))
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
