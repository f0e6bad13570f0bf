//! Danger values and the proptest strategies built on them.

use aurum_goldilocks::{Goldilocks, Goldilocks2, P};
use proptest::prelude::*;

/// Values at the edges of the representation and of the reduction's case splits.
pub const DANGER: [u64; 16] = [
    0,
    1,
    2,
    P - 1,
    P,
    P + 1,
    P + 2,
    (1 << 32) - 1,
    1 << 32,
    (1 << 32) + 1,
    1 << 63,
    (1 << 63) - 1,
    u64::MAX,
    u64::MAX - 1,
    0xFFFF_FFFF_0000_0000,
    0x0000_0001_FFFF_FFFF,
];

/// Any `u64` as a (possibly non-canonical) representation, biased towards [`DANGER`] values
/// and the non-canonical range `[p, 2^64)`.
pub fn raw_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        2 => proptest::sample::select(&DANGER[..]),
        1 => P..=u64::MAX,
    ]
}

/// A field element from [`raw_u64`], stored as drawn (possibly non-canonical).
pub fn element() -> impl Strategy<Value = Goldilocks> {
    raw_u64().prop_map(Goldilocks::from_u64)
}

/// An extension element whose coefficients come from [`element`].
pub fn extension_element() -> impl Strategy<Value = Goldilocks2> {
    (element(), element()).prop_map(|(a, b)| Goldilocks2::new(a, b))
}

/// `n` field elements spread over the whole `u64` range by a multiplicative hash of their index,
/// different for every `seed`: deterministic test data (matrices, leaves) without an RNG.
#[must_use]
pub fn seeded(n: usize, seed: u64) -> Vec<Goldilocks> {
    (0..n as u64)
        .map(|i| Goldilocks::from_u64((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed))
        .collect()
}
