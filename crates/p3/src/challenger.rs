//! A Plonky3 challenger lent to `aurum-fri`: every observation, sample and proof of work goes
//! to the caller's own challenger (the [`crate::pcs`] docs say why).

use aurum_goldilocks::Goldilocks as AurumGoldilocks;
use aurum_symmetric::challenger::{GrindError, MAX_BITS, TooManyBits};
use p3_challenger::{CanSample, CanSampleBits, FieldChallenger, GrindingChallenger};
use p3_goldilocks::Goldilocks as P3Goldilocks;

use crate::convert::{cast, cast_slice};

/// A Plonky3 challenger lent to `aurum-fri` (see the [`crate::pcs`] docs).
pub(crate) struct Transcript<'a, C>(pub(crate) &'a mut C);

impl<C> aurum_symmetric::Challenger for Transcript<'_, C>
where
    C: FieldChallenger<P3Goldilocks> + GrindingChallenger<Witness = P3Goldilocks>,
{
    fn observe(&mut self, value: AurumGoldilocks) {
        self.0.observe(cast(value));
    }

    fn observe_slice(&mut self, values: &[AurumGoldilocks]) {
        self.0.observe_slice(cast_slice(values));
    }

    fn sample(&mut self) -> AurumGoldilocks {
        cast(CanSample::<P3Goldilocks>::sample(self.0))
    }

    fn grind(&mut self, bits: usize) -> Result<AurumGoldilocks, GrindError> {
        // Plonky3 asserts the bound; `aurum-fri` validated it with its parameters already.
        if bits > MAX_BITS {
            return Err(GrindError::TooManyBits(TooManyBits { bits }));
        }
        // Plonky3's prover does not call `grind` at 0 bits (the witness is zero and nothing
        // is observed), so neither does this: the challenger sees the same calls, and the
        // span tree has no empty proof-of-work span.
        if bits == 0 {
            return Ok(AurumGoldilocks::ZERO);
        }
        Ok(cast(self.0.grind(bits)))
    }

    fn sample_bits(&mut self, bits: usize) -> Result<u64, TooManyBits> {
        if bits > MAX_BITS {
            return Err(TooManyBits { bits });
        }
        Ok(CanSampleBits::<usize>::sample_bits(self.0, bits) as u64)
    }

    fn check_witness(
        &mut self,
        bits: usize,
        witness: AurumGoldilocks,
    ) -> Result<bool, TooManyBits> {
        if bits > MAX_BITS {
            return Err(TooManyBits { bits });
        }
        Ok(self.0.check_witness(bits, cast(witness)))
    }
}
