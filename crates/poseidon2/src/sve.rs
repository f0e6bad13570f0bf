//! The SVE backend of Poseidon2: the whole-permutation kernels of `aurum-sve` (Plonky3's
//! layers at widths 8, 12 and 16), run by bulk calls on [`Backend::Sve`](aurum_goldilocks::Backend::Sve).

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::StateKernel;

use crate::RoundConstants;

/// Poseidon2 with Plonky3's layers on SVE: the round constants in the kernel's layout. A
/// [`Poseidon2`](crate::Poseidon2) builds one where this CPU runs SVE, and its bulk calls on
/// the SVE backend run it (see [`aurum_symmetric::Permutation::state_kernel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SveKernel<const W: usize> {
    constants: aurum_sve::Poseidon2Constants,
}

impl<const W: usize> SveKernel<W> {
    /// The kernel for these constants of Plonky3's layers, where this CPU runs SVE and there is
    /// a kernel of width `W`.
    pub(crate) fn new(constants: &RoundConstants<W>) -> Option<Self> {
        aurum_sve::detect()?;
        let words = |c: &Goldilocks| c.as_canonical_u64();
        let external: Vec<u64> = constants
            .initial
            .iter()
            .chain(&constants.terminal)
            .flatten()
            .map(words)
            .collect();
        let internal: Vec<u64> = constants.internal.iter().map(words).collect();
        let constants = aurum_sve::Poseidon2Constants::new(W, &external, &internal).ok()?;
        Some(Self { constants })
    }
}

impl<const W: usize> StateKernel<W> for SveKernel<W> {
    fn permute_states(&self, states: &mut [[Goldilocks; W]]) {
        let ran = aurum_sve::poseidon2_plonky3(
            &self.constants,
            aurum_goldilocks::raw::words_mut(states.as_flattened_mut()),
        );
        assert!(ran, "an SVE kernel exists only where SVE runs");
    }
}
