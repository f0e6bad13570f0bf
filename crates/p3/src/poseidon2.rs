//! Aurum's Poseidon2 (Plonky3's parameter set) as a Plonky3 permutation.

use core::fmt;

use aurum_goldilocks::{Backend, PackedField};
use aurum_poseidon2::{HALF_EXTERNAL_ROUNDS, INTERNAL_ROUNDS, LinearLayers, Plonky3Layers};
use aurum_poseidon2::{Poseidon2Goldilocks as AurumPoseidon2, RoundConstants};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_poseidon2::ExternalLayerConstants;
use p3_symmetric::{CryptographicPermutation, Permutation};
use rand::{Rng, RngExt};

use crate::convert::{cast, cast_mut};
use crate::error::ConstantsError;

/// Poseidon2 over Goldilocks with Plonky3's parameters (width 8, 12 or 16; `x^7`; 8 external
/// and 22 internal rounds), computed by Aurum: the drop-in for
/// `p3_goldilocks::Poseidon2Goldilocks<WIDTH>`, equal to it for the same round constants.
///
/// It is a Plonky3 [`Permutation`] / [`CryptographicPermutation`] of `[Goldilocks; WIDTH]`
/// (what `DuplexChallenger` absorbs with) and of `[<Goldilocks as Field>::Packing; WIDTH]`
/// in builds where that packing is a SIMD type (what the challenger's proof-of-work search
/// permutes), and an [`aurum_symmetric::Permutation`], which is what
/// [`PaddingFreeSponge`](crate::PaddingFreeSponge) and
/// [`TruncatedPermutation`](crate::TruncatedPermutation) run in bulk.
///
/// Constants: [`new_from_rng_128`](Self::new_from_rng_128) draws them from a random number
/// generator exactly as Plonky3's constructor of that name does (so a prover keeps the
/// constants its proofs already use), [`from_p3_constants`](Self::from_p3_constants) takes
/// them in Plonky3's form, and [`new`](Self::new) is Plonky3's fixed instance
/// (`default_goldilocks_poseidon2_8/12/16`).
#[derive(Clone)]
pub struct Poseidon2Goldilocks<const WIDTH: usize> {
    inner: AurumPoseidon2<WIDTH>,
}

impl<const WIDTH: usize> fmt::Debug for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "aurum_p3::Poseidon2Goldilocks<{WIDTH}>")
    }
}

fn rounds<T: Copy, const N: usize>(
    rounds: &'static str,
    given: &[T],
) -> Result<[T; N], ConstantsError> {
    given.try_into().map_err(|_| ConstantsError {
        rounds,
        expected: N,
        found: given.len(),
    })
}

impl<const WIDTH: usize> Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    /// Plonky3's fixed instance: equal to `p3_goldilocks::default_goldilocks_poseidon2_8()`
    /// (and `_12`, `_16`), whose constants Aurum generates with the same Grain LFSR.
    #[must_use]
    pub fn new() -> Self {
        Self {
            inner: AurumPoseidon2::new(),
        }
    }

    /// Draws the round constants from `rng` exactly as Plonky3's
    /// `Poseidon2Goldilocks::<WIDTH>::new_from_rng_128` does — the four initial external
    /// rounds' constants, then the four terminal ones, `WIDTH` elements each, then the 22
    /// internal ones, each element sampled with Plonky3's own distribution — so the same
    /// generator state gives the same permutation (and leaves the generator in the same
    /// state).
    #[must_use]
    pub fn new_from_rng_128<R: Rng + ?Sized>(rng: &mut R) -> Self {
        let initial: [[P3Goldilocks; WIDTH]; HALF_EXTERNAL_ROUNDS] =
            core::array::from_fn(|_| rng.random::<[P3Goldilocks; WIDTH]>());
        let terminal: [[P3Goldilocks; WIDTH]; HALF_EXTERNAL_ROUNDS] =
            core::array::from_fn(|_| rng.random::<[P3Goldilocks; WIDTH]>());
        let internal: [P3Goldilocks; INTERNAL_ROUNDS] =
            core::array::from_fn(|_| rng.random::<P3Goldilocks>());
        Self::with_constants(RoundConstants {
            initial: cast(initial),
            internal: cast(internal),
            terminal: cast(terminal),
        })
    }

    /// The permutation with round constants in Plonky3's form (what
    /// `p3_poseidon2::Poseidon2::new` takes), e.g. constants a prover has saved.
    ///
    /// # Errors
    /// [`ConstantsError`] unless there are 4 initial and 4 terminal external rounds and 22
    /// internal ones.
    pub fn from_p3_constants(
        external: &ExternalLayerConstants<P3Goldilocks, WIDTH>,
        internal: &[P3Goldilocks],
    ) -> Result<Self, ConstantsError> {
        let initial: [[P3Goldilocks; WIDTH]; HALF_EXTERNAL_ROUNDS] =
            rounds("initial external", external.get_initial_constants())?;
        let terminal: [[P3Goldilocks; WIDTH]; HALF_EXTERNAL_ROUNDS] =
            rounds("terminal external", external.get_terminal_constants())?;
        let internal: [P3Goldilocks; INTERNAL_ROUNDS] = rounds("internal", internal)?;
        Ok(Self::with_constants(RoundConstants {
            initial: cast(initial),
            internal: cast(internal),
            terminal: cast(terminal),
        }))
    }

    /// The permutation with round constants in Aurum's form.
    #[must_use]
    pub fn with_constants(constants: RoundConstants<WIDTH>) -> Self {
        Self {
            inner: AurumPoseidon2::with_constants(constants),
        }
    }

    /// The Aurum permutation underneath (for Aurum's own APIs, e.g. `aurum-merkle`).
    #[must_use]
    pub fn aurum(&self) -> &AurumPoseidon2<WIDTH> {
        &self.inner
    }
}

impl<const WIDTH: usize> Default for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const WIDTH: usize> From<AurumPoseidon2<WIDTH>> for Poseidon2Goldilocks<WIDTH> {
    fn from(inner: AurumPoseidon2<WIDTH>) -> Self {
        Self { inner }
    }
}

impl<const WIDTH: usize> aurum_symmetric::Permutation<WIDTH> for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    type StateKernel = aurum_poseidon2::SveKernel<WIDTH>;

    #[inline(always)]
    fn permute_batch<P: PackedField, const B: usize>(&self, states: &mut [[P; WIDTH]; B]) {
        self.inner.permute_batch::<P, B>(states);
    }

    fn batch_size(&self, backend: Backend) -> usize {
        self.inner.batch_size(backend)
    }

    fn state_kernel(&self, backend: Backend) -> Option<&Self::StateKernel> {
        self.inner.state_kernel(backend)
    }
}

impl<const WIDTH: usize> Permutation<[P3Goldilocks; WIDTH]> for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    fn permute_mut(&self, state: &mut [P3Goldilocks; WIDTH]) {
        aurum_symmetric::Permutation::permute(&self.inner, cast_mut(state));
    }
}

impl<const WIDTH: usize> CryptographicPermutation<[P3Goldilocks; WIDTH]>
    for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
}
