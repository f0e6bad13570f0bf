#![doc = include_str!("../README.md")]

mod layers;
pub mod reference;
mod sve;

use core::marker::PhantomData;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use aurum_goldilocks::{Backend, Canonical, Goldilocks, PackedField};
use aurum_symmetric::grain::{Grain, GrainParams};
use aurum_symmetric::{BatchChoice, Permutation};

pub use layers::{HorizenLabsLayers, LinearLayers, Plonky3Layers, external_layer};
pub use sve::SveKernel;

/// External rounds before (and after) the internal rounds.
pub const HALF_EXTERNAL_ROUNDS: usize = 4;
/// Internal (partial) rounds.
pub const INTERNAL_ROUNDS: usize = 22;

/// The round constants of one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundConstants<const W: usize> {
    /// Constants of the 4 initial external rounds.
    pub initial: [[Goldilocks; W]; HALF_EXTERNAL_ROUNDS],
    /// Constants of the 22 internal rounds (added to `s_0`).
    pub internal: [Goldilocks; INTERNAL_ROUNDS],
    /// Constants of the 4 terminal external rounds.
    pub terminal: [[Goldilocks; W]; HALF_EXTERNAL_ROUNDS],
}

impl<const W: usize> RoundConstants<W> {
    /// Generates the constants with the Grain LFSR of the Poseidon2 reference.
    ///
    /// Each width's constants are generated once per process and then copied, so building a
    /// permutation (or a Merkle configuration holding several) costs no LFSR run.
    #[must_use]
    pub fn generate() -> Self {
        Self::in_round_order(&grain_constants(W))
    }

    /// The constants from `values` in round order: the 4 initial external rounds' `W` each,
    /// the 22 internal ones, the 4 terminal external rounds' — `2·4·W + 22` values, any more
    /// left unused.
    ///
    /// # Panics
    /// Panics if `values` holds fewer.
    #[must_use]
    pub fn in_round_order(values: &[Goldilocks]) -> Self {
        let mut next = values.iter().copied();
        let mut draw = || next.next().expect("as many constants as the rounds use");
        let initial = core::array::from_fn(|_| core::array::from_fn(|_| draw()));
        let internal = core::array::from_fn(|_| draw());
        let terminal = core::array::from_fn(|_| core::array::from_fn(|_| draw()));
        Self {
            initial,
            internal,
            terminal,
        }
    }
}

/// The `2·4·width + 22` constants a width-`width` instance draws from the Grain LFSR, in
/// round order, generated once per width and process.
fn grain_constants(width: usize) -> Arc<[Goldilocks]> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<[Goldilocks]>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    // A panic while holding the lock cannot leave a half-written entry: entries are inserted whole.
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(cache.entry(width).or_insert_with(|| {
        let seed_width = u16::try_from(width).expect("width fits the Grain seed");
        let mut grain = Grain::new(GrainParams::goldilocks(seed_width));
        grain
            .take_goldilocks(2 * HALF_EXTERNAL_ROUNDS * width + INTERNAL_ROUNDS)
            .into()
    }))
}

/// The Poseidon2 permutation with linear layers `L` at width `W`.
#[derive(Clone)]
pub struct Poseidon2<L, const W: usize> {
    constants: RoundConstants<W>,
    /// The same constants, as `Canonical` values for the cheaper packed addition.
    rc: PackedConstants<W>,
    diagonal: [Goldilocks; W],
    /// A batch size forced for benchmarks ([`Self::with_batch_size`]); else the measured one.
    batch: Option<usize>,
    /// The measured batch sizes of this type.
    choice: &'static BatchChoice,
    /// The SVE kernel, where the layers have one and this CPU runs SVE (decided when built).
    sve: Option<SveKernel<W>>,
    _layers: PhantomData<L>,
}

/// Poseidon2 with Plonky3's parameters (`Poseidon2Goldilocks<W>` in `p3-goldilocks`).
pub type Poseidon2Goldilocks<const W: usize> = Poseidon2<Plonky3Layers, W>;
/// Poseidon2 with Horizen Labs' reference parameters.
pub type Poseidon2HorizenLabs<const W: usize> = Poseidon2<HorizenLabsLayers, W>;

impl<L: LinearLayers<W>, const W: usize> core::fmt::Debug for Poseidon2<L, W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Poseidon2<{}, {W}>", L::NAME)
    }
}

impl<L: LinearLayers<W>, const W: usize> Default for Poseidon2<L, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: LinearLayers<W>, const W: usize> Poseidon2<L, W> {
    /// The instance with generated round constants.
    #[must_use]
    pub fn new() -> Self {
        Self::with_constants(RoundConstants::generate())
    }

    /// The instance with the given round constants (e.g. for tests).
    #[must_use]
    pub fn with_constants(constants: RoundConstants<W>) -> Self {
        let canonical = |round: &[Goldilocks; W]| round.map(Canonical::new);
        let mut external = [[Canonical::default(); W]; 2 * HALF_EXTERNAL_ROUNDS];
        for (rc, round) in external
            .iter_mut()
            .zip(constants.initial.iter().chain(&constants.terminal))
        {
            *rc = canonical(round);
        }
        let sve = if L::SVE_KERNEL {
            SveKernel::new(&constants)
        } else {
            None
        };
        Self {
            rc: PackedConstants {
                external,
                internal: constants.internal.map(Canonical::new),
            },
            constants,
            diagonal: L::internal_diagonal(),
            batch: None,
            choice: BatchChoice::of::<Self>(),
            sve,
            _layers: PhantomData,
        }
    }

    /// The round constants.
    #[must_use]
    pub fn constants(&self) -> &RoundConstants<W> {
        &self.constants
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

/// Round constants in the form the packed rounds add them.
#[derive(Clone, Debug)]
struct PackedConstants<const W: usize> {
    /// The initial external rounds', then the terminal ones'.
    external: [[Canonical; W]; 2 * HALF_EXTERNAL_ROUNDS],
    internal: [Canonical; INTERNAL_ROUNDS],
}

/// `x + c` for every element, then `x^7` ([`PackedField::exp7_each`]).
#[inline(always)]
fn add_constants_and_sbox<P: PackedField, const W: usize>(
    state: &mut [P; W],
    constants: &[Canonical; W],
) {
    for (s, c) in state.iter_mut().zip(constants) {
        *s = s.add_canonical(Canonical::broadcast(*c));
    }
    P::exp7_each(state);
}

impl<L: LinearLayers<W>, const W: usize> Poseidon2<L, W> {
    #[inline(always)]
    fn internal_rounds<P: PackedField, const B: usize>(&self, states: &mut [[P; W]; B]) {
        for &constant in &self.rc.internal {
            // The sum of s_1.. does not depend on the S-box of s_0: start it first so both
            // dependency chains run side by side.
            let mut partial_sums = [P::ZERO; B];
            for (sum, state) in partial_sums.iter_mut().zip(states.iter()) {
                *sum = P::sum_deferred(&state[1..]);
            }
            for state in states.iter_mut() {
                state[0] = state[0]
                    .add_canonical(Canonical::broadcast(constant))
                    .exp7();
            }
            for (state, partial) in states.iter_mut().zip(partial_sums) {
                let sum = partial + state[0];
                L::internal_diagonal_plus_sum(state, sum, &self.diagonal);
            }
        }
    }
}

impl<L: LinearLayers<W>, const W: usize> Permutation<W> for Poseidon2<L, W> {
    type StateKernel = SveKernel<W>;

    #[inline(always)]
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; W]; B]) {
        for state in states.iter_mut() {
            external_layer::<L, P, W>(state);
        }
        // All eight external rounds in one loop, the internal rounds inside it after the
        // fourth: one copy of the external round's code instead of one per group of rounds
        // (each copy costs compile time, and stack in unoptimised builds).
        for (r, constants) in self.rc.external.iter().enumerate() {
            for state in states.iter_mut() {
                add_constants_and_sbox(state, constants);
                external_layer::<L, P, W>(state);
            }
            if r == HALF_EXTERNAL_ROUNDS - 1 {
                self.internal_rounds(states);
            }
        }
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.batch
            .unwrap_or_else(|| self.choice.batch(self, backend))
    }

    fn state_kernel(&self, backend: Backend) -> Option<&SveKernel<W>> {
        self.sve.as_ref().filter(|_| backend == Backend::Sve)
    }
}
