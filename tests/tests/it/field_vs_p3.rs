//! `Goldilocks` arithmetic against `p3-goldilocks` 0.8, including non-canonical inputs
//! (both libraries accept any u64 as a representation of its residue).

use aurum_goldilocks::{Goldilocks, P};
use p3_field::{Field, PrimeCharacteristicRing, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use proptest::prelude::*;

fn raw_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => proptest::sample::select(vec![0, 1, P - 1, P, P + 1, u64::MAX, 1 << 32, (1 << 32) - 1, 1 << 63]),
        1 => P..=u64::MAX,
    ]
}

fn same(ours: Goldilocks, theirs: P3) -> bool {
    ours.as_canonical_u64() == theirs.as_canonical_u64()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arithmetic_matches_plonky3(x in raw_u64(), y in raw_u64(), e in any::<u64>(), k in 0u64..300) {
        let (a, b) = (Goldilocks::from_u64(x), Goldilocks::from_u64(y));
        let (a3, b3) = (P3::new(x), P3::new(y));
        prop_assert!(same(a + b, a3 + b3));
        prop_assert!(same(a - b, a3 - b3));
        prop_assert!(same(a * b, a3 * b3));
        prop_assert!(same(-a, -a3));
        prop_assert!(same(a.square(), a3.square()));
        prop_assert!(same(a.double(), a3.double()));
        prop_assert!(same(a.halve(), a3.halve()));
        prop_assert!(same(a.exp_u64(e), a3.exp_u64(e)));
        prop_assert!(same(a.mul_2exp(k), a3.mul_2exp_u64(k)));
        prop_assert!(same(a.exp7(), a3.exp_const_u64::<7>()));
        match (a.try_inverse(), a3.try_inverse()) {
            (Some(i), Some(i3)) => prop_assert!(same(i, i3)),
            (None, None) => {}
            (ours, theirs) => prop_assert!(false, "inverse disagrees: {:?} vs {:?}", ours, theirs),
        }
    }
}

#[test]
fn two_adic_generators_match_plonky3() {
    use p3_field::TwoAdicField;
    for bits in 0..=32 {
        let ours = Goldilocks::two_adic_generator(bits).unwrap();
        assert!(same(ours, P3::two_adic_generator(bits)), "bits {bits}");
    }
    assert!(same(Goldilocks::GENERATOR, P3::GENERATOR));
}
