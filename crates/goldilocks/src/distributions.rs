//! `rand` support: uniform sampling of field elements.

use rand::Rng;
use rand::distr::{Distribution, StandardUniform};

use crate::extension::Goldilocks2;
use crate::field::{Goldilocks, P};

impl Distribution<Goldilocks> for StandardUniform {
    /// Uniform over `[0, p)` by rejection (a draw is rejected with probability 2^-32).
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Goldilocks {
        loop {
            let x = rng.next_u64();
            if x < P {
                return Goldilocks::from_u64(x);
            }
        }
    }
}

impl Distribution<Goldilocks2> for StandardUniform {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Goldilocks2 {
        Goldilocks2::new(self.sample(rng), self.sample(rng))
    }
}
