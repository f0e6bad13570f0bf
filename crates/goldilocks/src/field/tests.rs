use core::cmp::Ordering;
use core::hash::{Hash, Hasher};

use super::Goldilocks;
use super::arith::{EPSILON, P};

#[test]
fn constants() {
    assert_eq!(Goldilocks::ORDER, 18446744069414584321);
    assert_eq!(Goldilocks::NEG_ONE + Goldilocks::ONE, Goldilocks::ZERO);
    assert_eq!(
        Goldilocks::GENERATOR.exp_u64((P - 1) >> 32),
        Goldilocks::POWER_OF_TWO_GENERATOR
    );
    let g = Goldilocks::two_adic_generator(32).unwrap();
    assert_eq!(g.exp_power_of_2(31), Goldilocks::NEG_ONE);
    assert_eq!(g.exp_power_of_2(32), Goldilocks::ONE);
    assert_eq!(Goldilocks::two_adic_generator(0), Some(Goldilocks::ONE));
    assert_eq!(Goldilocks::two_adic_generator(1), Some(Goldilocks::NEG_ONE));
    assert_eq!(Goldilocks::two_adic_generator(33), None);
    // 7 generates F_p^*: 7^((p-1)/q) ≠ 1 for each prime q | p − 1.
    for q in [2u64, 3, 5, 17, 257, 65537] {
        assert_ne!(Goldilocks::GENERATOR.exp_u64((P - 1) / q), Goldilocks::ONE);
    }
}

#[test]
fn from_canonical_rejects_and_names_the_value() {
    assert!(Goldilocks::from_canonical(P - 1).is_ok());
    let err = Goldilocks::from_canonical(P).unwrap_err();
    assert_eq!(err.value, P);
    assert!(err.to_string().contains("18446744069414584321"));
    assert!(Goldilocks::from_canonical(u64::MAX).is_err());
}

#[test]
fn reduction_of_extremes() {
    assert_eq!(Goldilocks::from_u64(P).as_canonical_u64(), 0);
    assert_eq!(Goldilocks::from_u64(P + 1), Goldilocks::ONE);
    assert_eq!(
        Goldilocks::from_u64(u64::MAX).as_canonical_u64(),
        EPSILON - 1
    );
    assert_eq!(
        Goldilocks::from_u128(u128::MAX).as_canonical_u64(),
        (u128::MAX % P as u128) as u64
    );
    assert_eq!(Goldilocks::from_i64(-1), Goldilocks::NEG_ONE);
    assert_eq!(
        Goldilocks::from_i64(i64::MIN).as_canonical_u64(),
        P - (1u64 << 63)
    );
}

#[test]
fn raw_representations_are_equal_in_the_field() {
    let a = Goldilocks::from_raw(P + 5);
    let b = Goldilocks::from_u64(5);
    assert_eq!(a, b);
    assert_eq!(a.cmp(&b), Ordering::Equal);
    use std::collections::hash_map::DefaultHasher;
    let h = |x: Goldilocks| {
        let mut s = DefaultHasher::new();
        x.hash(&mut s);
        s.finish()
    };
    assert_eq!(h(a), h(b));
    assert_eq!(format!("{a} {a:?}"), "5 5");
}

#[test]
fn inverse_gcd_and_chain_agree() {
    let powers_of_two = (0..64).map(|k| 1u64 << k);
    let near = [
        1u64,
        2,
        7,
        P - 1,
        P - 2,
        (P - 1) / 2,
        P.div_ceil(2),
        1 << 32,
        (1 << 32) - 1,
        0x1234_5678_9abc_def0,
    ];
    for x in powers_of_two.chain(near) {
        let x = Goldilocks::from_u64(x);
        let inv = x.try_inverse().unwrap();
        assert_eq!(x * inv, Goldilocks::ONE, "{x}");
        assert_eq!(x.try_inverse_constant_time(), Some(inv), "{x}");
    }
    assert_eq!(Goldilocks::ZERO.try_inverse(), None);
    assert_eq!(Goldilocks::from_raw(P).try_inverse(), None);
    assert_eq!(Goldilocks::ZERO.try_inverse_constant_time(), None);
    assert_eq!(Goldilocks::from_raw(P).try_inverse_constant_time(), None);
}

#[test]
fn mul_2exp_matches_multiplication() {
    let x = Goldilocks::from_u64(0xdead_beef_1234_5678);
    for k in [
        0u64, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 150, 191, 192, 1000,
    ] {
        let two_k = Goldilocks::TWO.exp_u64(k);
        assert_eq!(x.mul_2exp(k), x * two_k, "k = {k}");
        assert_eq!(x.div_2exp(k) * two_k, x, "k = {k}");
    }
}
