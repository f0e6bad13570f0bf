//! A duplex-sponge Fiat–Shamir challenger over a [`Permutation`], value for value Plonky3's
//! `DuplexChallenger<Goldilocks, Perm, W, RATE>` (`p3-challenger` 0.8), with a proof-of-work
//! search that runs the batched packed permutation over many candidate witnesses at once.
//!
//! The sponge, as Plonky3 0.8 defines it:
//!
//! * **observe** buffers inputs; when `RATE` are buffered they are absorbed (a *duplexing*).
//!   Observing discards any buffered output.
//! * **duplexing** with `n > 0` buffered inputs overwrites `state[..n]` with them, zeroes
//!   `state[n..RATE]` and adds `n` to `state[RATE]` (so an absorb and its zero-extension
//!   differ), then permutes; with no inputs it only permutes (a squeeze). Either way the
//!   output buffer becomes `state[..RATE]`.
//! * **sample** duplexes first if inputs are buffered or no output is left, then takes the
//!   *last* buffered output (`state[RATE − 1]` first after a duplexing).
//! * An extension element is observed and sampled coefficient by coefficient, `c0` first.
//! * **sample_bits(b)**: the low `b` bits of the canonical value of one sample.
//! * **proof of work** with `b` bits: a witness `w` passes when observing it and then sampling
//!   `b` bits gives zero; with `b = 0` every witness passes and nothing is absorbed.
//!
//! # Grinding
//!
//! Every candidate witness shares the sponge state up to the witness, so the search builds the
//! pre-permutation state once, puts one candidate in each lane of `B` packed states, and runs
//! [`Permutation::permute_batch`] on the backend selected at run time — the same kernel as
//! [`crate::permute_many`] — over rayon-parallel chunks of consecutive candidates.
//!
//! **Reproducible:** the search returns the *smallest* passing witness, whatever the thread
//! count or SIMD width. It walks the candidates in rounds of consecutive ranges; within a round
//! every chunk reports its own smallest passing candidate (chunks stop at their first hit,
//! which is their smallest), and the first round with any hit ends the search with the
//! minimum over its chunks. Every smaller candidate lay in an earlier round or chunk and was
//! checked. Plonky3's verifier accepts any passing witness, so this one verifies there too;
//! Plonky3's own parallel search may return a different one.

use core::fmt;

use aurum_goldilocks::{Goldilocks, Goldilocks2, P as MODULUS, PackedField, backend};
use rayon::prelude::*;

use crate::batch::{BatchedKernel, run_batched};
use crate::permutation::Permutation;

pub use crate::error::{GrindError, MAX_BITS, TooManyBits};

fn check_bits(bits: usize) -> Result<(), TooManyBits> {
    if bits <= MAX_BITS {
        Ok(())
    } else {
        Err(TooManyBits { bits })
    }
}

/// What a Fiat–Shamir protocol needs from its transcript: absorb field elements, draw field
/// elements and bit strings, and prove or check work.
pub trait Challenger {
    /// Absorbs one base-field element.
    fn observe(&mut self, value: Goldilocks);

    /// Draws one base-field element.
    fn sample(&mut self) -> Goldilocks;

    /// Searches for a `bits`-bit proof-of-work witness, absorbs it and returns it (zero, with
    /// nothing absorbed, for `bits = 0`).
    fn grind(&mut self, bits: usize) -> Result<Goldilocks, GrindError>;

    /// Absorbs several base-field elements in order.
    fn observe_slice(&mut self, values: &[Goldilocks]) {
        for &value in values {
            self.observe(value);
        }
    }

    /// Absorbs an extension element, `c0` then `c1`.
    fn observe_ext(&mut self, value: Goldilocks2) {
        self.observe_slice(&value.coeffs);
    }

    /// Draws an extension element, `c0` first.
    fn sample_ext(&mut self) -> Goldilocks2 {
        let c0 = self.sample();
        let c1 = self.sample();
        Goldilocks2::new(c0, c1)
    }

    /// The low `bits` bits of the canonical value of one sample.
    fn sample_bits(&mut self, bits: usize) -> Result<u64, TooManyBits> {
        check_bits(bits)?;
        Ok(self.sample().as_canonical_u64() & low_bits_mask(bits))
    }

    /// Whether `witness` is a `bits`-bit proof of work here: absorbs it and checks that the
    /// next `bits` sampled bits are zero. For `bits = 0` every witness passes and nothing is
    /// absorbed (Plonky3's rule; a protocol that wants a canonical zero witness checks that
    /// itself).
    fn check_witness(&mut self, bits: usize, witness: Goldilocks) -> Result<bool, TooManyBits> {
        check_bits(bits)?;
        if bits == 0 {
            return Ok(true);
        }
        self.observe(witness);
        Ok(self.sample_bits(bits)? == 0)
    }
}

/// `2^bits − 1` for `bits ≤ 63`.
fn low_bits_mask(bits: usize) -> u64 {
    (1u64 << bits) - 1
}

/// Plonky3's `DuplexChallenger<Goldilocks, Perm, W, RATE>` (see the [module](self) docs).
#[derive(Clone)]
pub struct DuplexChallenger<Perm, const W: usize, const RATE: usize> {
    perm: Perm,
    state: [Goldilocks; W],
    /// Observed, not yet absorbed (fewer than `RATE`).
    input: Vec<Goldilocks>,
    /// Squeezed, not yet sampled; sampling pops from the end.
    output: Vec<Goldilocks>,
}

impl<Perm, const W: usize, const RATE: usize> fmt::Debug for DuplexChallenger<Perm, W, RATE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DuplexChallenger")
            .field("width", &W)
            .field("rate", &RATE)
            .field("state", &self.state)
            .field("input", &self.input)
            .field("output", &self.output)
            .finish_non_exhaustive()
    }
}

impl<Perm: Permutation<W>, const W: usize, const RATE: usize> DuplexChallenger<Perm, W, RATE> {
    /// The absorbed length is added to `state[RATE]` as a byte in Plonky3, so the rate must
    /// leave a capacity element and stay below 256.
    const VALID: () = assert!(
        RATE > 0 && RATE < W && RATE <= 255,
        "the rate must leave a capacity element and fit a byte"
    );

    /// A fresh transcript (zero state).
    pub fn new(perm: Perm) -> Self {
        let () = Self::VALID;
        Self {
            perm,
            state: [Goldilocks::ZERO; W],
            input: Vec::with_capacity(RATE),
            output: Vec::with_capacity(RATE),
        }
    }

    /// The sponge state (for tests and diagnostics).
    #[must_use]
    pub fn state(&self) -> &[Goldilocks; W] {
        &self.state
    }

    /// The state just before the permutation of a duplexing that absorbs `inputs`
    /// (`inputs.len() ≤ RATE`): the rate overwritten and zero-padded, the absorbed length
    /// added to the first capacity element. No inputs: the state as it is (a squeeze).
    fn pre_permutation_state(&self, inputs: &[Goldilocks]) -> [Goldilocks; W] {
        let mut state = self.state;
        if !inputs.is_empty() {
            state[..inputs.len()].copy_from_slice(inputs);
            state[inputs.len()..RATE].fill(Goldilocks::ZERO);
            state[RATE] += Goldilocks::from_u64(inputs.len() as u64);
        }
        state
    }

    fn duplex(&mut self) {
        self.state = self.pre_permutation_state(&self.input);
        self.input.clear();
        self.perm.permute(&mut self.state);
        self.output.clear();
        self.output.extend_from_slice(&self.state[..RATE]);
    }

    /// The smallest `bits`-bit witness from the current state, without absorbing it.
    fn find_witness(&self, bits: usize) -> Option<Goldilocks> {
        // The witness is absorbed with the buffered inputs, in the slot after them; the test
        // reads the last rate element of the permuted state (the first sample after it).
        let slot = self.input.len();
        let mut inputs = self.input.clone();
        inputs.push(Goldilocks::ZERO);
        let search = WitnessSearch {
            perm: &self.perm,
            template: self.pre_permutation_state(&inputs),
            slot,
            output: RATE - 1,
            mask: low_bits_mask(bits),
        };
        search.smallest(bits).map(Goldilocks::from_u64)
    }
}

impl<Perm: Permutation<W>, const W: usize, const RATE: usize> Challenger
    for DuplexChallenger<Perm, W, RATE>
{
    fn observe(&mut self, value: Goldilocks) {
        self.output.clear();
        self.input.push(value);
        if self.input.len() == RATE {
            self.duplex();
        }
    }

    fn sample(&mut self) -> Goldilocks {
        if !self.input.is_empty() || self.output.is_empty() {
            self.duplex();
        }
        self.output
            .pop()
            .expect("a duplexing leaves RATE ≥ 1 outputs")
    }

    fn grind(&mut self, bits: usize) -> Result<Goldilocks, GrindError> {
        check_bits(bits)?;
        if bits == 0 {
            return Ok(Goldilocks::ZERO);
        }
        let witness = self
            .find_witness(bits)
            .ok_or(GrindError::NoWitness { bits })?;
        let passed = self.check_witness(bits, witness)?;
        debug_assert!(passed, "the search and the check agree");
        Ok(witness)
    }
}

/// Candidates one rayon task checks before reporting (a multiple of every `WIDTH · B`).
const CANDIDATES_PER_TASK: u64 = 1 << 10;
/// Tasks per round and thread: enough to balance, few enough that a round ending with a hit
/// wastes little.
const TASKS_PER_THREAD: u64 = 4;

/// One proof-of-work search: the pre-permutation state shared by every candidate, the slot the
/// candidate goes in, the state element tested, and the mask of bits that must be zero.
struct WitnessSearch<'a, Perm, const W: usize> {
    perm: &'a Perm,
    template: [Goldilocks; W],
    slot: usize,
    output: usize,
    mask: u64,
}

impl<Perm: Permutation<W>, const W: usize> WitnessSearch<'_, Perm, W> {
    /// The smallest passing candidate below `p`, or `None` if none passes.
    fn smallest(&self, bits: usize) -> Option<u64> {
        let threads = rayon::current_num_threads() as u64;
        // A round of about a quarter of the expected work, so that small difficulties stay
        // on one task and large ones use every thread.
        let expected = 1u64 << bits;
        let round = (TASKS_PER_THREAD * threads * CANDIDATES_PER_TASK)
            .min(expected.div_ceil(4).next_multiple_of(CANDIDATES_PER_TASK))
            .max(CANDIDATES_PER_TASK);
        let backend = backend();
        let batch = self.perm.batch_size(backend);
        let mut start = 0u64;
        while start < MODULUS {
            let end = start.saturating_add(round).min(MODULUS);
            let tasks = (end - start).div_ceil(CANDIDATES_PER_TASK);
            let found = (0..tasks)
                .into_par_iter()
                .filter_map(|task| {
                    let first = start + task * CANDIDATES_PER_TASK;
                    let count = CANDIDATES_PER_TASK.min(end - first);
                    run_batched(
                        backend,
                        batch,
                        SearchRange {
                            search: self,
                            first,
                            count,
                        },
                    )
                })
                .min();
            if found.is_some() {
                return found;
            }
            start = end;
        }
        None
    }
}

/// Checks candidates `first..first + count` (all below `p`) on one thread.
struct SearchRange<'a, 'b, Perm, const W: usize> {
    search: &'a WitnessSearch<'b, Perm, W>,
    first: u64,
    count: u64,
}

impl<Perm: Permutation<W>, const W: usize> BatchedKernel for SearchRange<'_, '_, Perm, W> {
    type Output = Option<u64>;

    #[inline(always)]
    fn run<P: PackedField, const B: usize>(self) -> Option<u64> {
        let SearchRange {
            search,
            first,
            count,
        } = self;
        let template = search.template.map(P::broadcast);
        let group = (P::WIDTH * B) as u64;
        let mut base = first;
        while base < first + count {
            let mut states = [template; B];
            for (b, state) in states.iter_mut().enumerate() {
                // Lanes past the range repeat its last candidate: checked twice, harmless.
                state[search.slot] = P::from_fn(|lane| {
                    let candidate = (base + (b * P::WIDTH + lane) as u64).min(first + count - 1);
                    Goldilocks::from_u64(candidate)
                });
            }
            search.perm.permute_batch::<P, B>(&mut states);
            // Candidates in increasing order: batch-major, then lane.
            for (b, state) in states.iter().enumerate() {
                for (lane, sample) in state[search.output].as_slice().iter().enumerate() {
                    let candidate = base + (b * P::WIDTH + lane) as u64;
                    if candidate < first + count && sample.as_canonical_u64() & search.mask == 0 {
                        return Some(candidate);
                    }
                }
            }
            base += group;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap bijection for unit tests that mixes every element into every output: add the
    /// state's sum to each element (the matrix `I + J`, determinant 9), a position-dependent
    /// constant, then `x^7` (a bijection since gcd(7, p − 1) = 1), twice.
    #[derive(Clone, Debug)]
    struct Mix;

    impl Permutation<8> for Mix {
        type StateKernel = crate::NoStateKernel;

        #[inline(always)]
        fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; 8]; B]) {
            for state in states.iter_mut() {
                for _ in 0..2 {
                    let sum = state.iter().fold(P::ZERO, |acc, x| acc + *x);
                    for (i, x) in state.iter_mut().enumerate() {
                        *x = (*x + sum + Goldilocks::from_u64(i as u64 + 1)).exp7();
                    }
                }
            }
        }
    }

    type Ch = DuplexChallenger<Mix, 8, 4>;

    #[test]
    fn absorb_pads_the_rate_and_tags_the_length() {
        let mut ch = Ch::new(Mix);
        ch.observe_slice(&[Goldilocks::from_u64(5), Goldilocks::from_u64(6)]);
        let sample = ch.sample();
        let mut expected = [Goldilocks::ZERO; 8];
        expected[0] = Goldilocks::from_u64(5);
        expected[1] = Goldilocks::from_u64(6);
        expected[4] = Goldilocks::from_u64(2);
        Mix.permute(&mut expected);
        assert_eq!(sample, expected[3]);
        assert_eq!(ch.sample(), expected[2]);
        assert_eq!(ch.state(), &expected);
    }

    #[test]
    fn grinding_finds_the_smallest_witness() {
        for bits in [1, 3, 6, 9] {
            for prefix in 0..5u64 {
                let mut ch = Ch::new(Mix);
                for i in 0..prefix {
                    ch.observe(Goldilocks::from_u64(i * 77 + 1));
                }
                let mut reference = ch.clone();
                let witness = ch.grind(bits).unwrap();
                // Every smaller candidate fails, the witness passes, and both transcripts agree.
                let smallest = (0u64..)
                    .find(|&w| {
                        reference
                            .clone()
                            .check_witness(bits, Goldilocks::from_u64(w))
                            .unwrap()
                    })
                    .unwrap();
                assert_eq!(
                    witness.as_canonical_u64(),
                    smallest,
                    "bits {bits} prefix {prefix}"
                );
                assert!(reference.check_witness(bits, witness).unwrap());
                assert_eq!(ch.sample(), reference.sample());
            }
        }
    }

    #[test]
    fn zero_bits_absorb_nothing_and_too_many_bits_are_errors() {
        let mut ch = Ch::new(Mix);
        ch.observe(Goldilocks::ONE);
        let before = ch.clone();
        assert_eq!(ch.grind(0), Ok(Goldilocks::ZERO));
        assert_eq!(ch.check_witness(0, Goldilocks::from_u64(99)), Ok(true));
        assert_eq!(ch.state(), before.state());
        assert_eq!(ch.clone().sample(), before.clone().sample());
        assert_eq!(
            ch.grind(64),
            Err(GrindError::TooManyBits(TooManyBits { bits: 64 }))
        );
        assert_eq!(ch.sample_bits(64), Err(TooManyBits { bits: 64 }));
        assert_eq!(
            ch.check_witness(70, Goldilocks::ZERO),
            Err(TooManyBits { bits: 70 })
        );
    }
}
