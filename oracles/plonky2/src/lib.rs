//! Conversions between aurum's and plonky2's Goldilocks elements, for the oracle tests and
//! benchmarks (see `tests/` and `benches/`).

use aurum_goldilocks::Goldilocks;
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::types::{Field, PrimeField64};

/// A plonky2 element with the same stored value (possibly non-canonical).
#[must_use]
pub fn to_plonky2(x: u64) -> GoldilocksField {
    GoldilocksField::from_noncanonical_u64(x)
}

/// An aurum element with the same stored value.
#[must_use]
pub fn to_aurum(x: u64) -> Goldilocks {
    Goldilocks::from_u64(x)
}

/// The canonical value of a plonky2 element.
#[must_use]
pub fn canonical(x: GoldilocksField) -> u64 {
    x.to_canonical_u64()
}

/// plonky2's zero, for building states.
#[must_use]
pub fn zero() -> GoldilocksField {
    GoldilocksField::ZERO
}
