//! Field axioms, constructors, inversion and serde for `Goldilocks` and `Goldilocks2`.

use aurum_goldilocks::{Field, Goldilocks, Goldilocks2, P};
use aurum_testing::values::{element, extension_element, raw_u64};
use proptest::prelude::*;

/// The field axioms, written once for any `Field`.
fn check_axioms<F: Field>(a: F, b: F, c: F) {
    assert_eq!(a + b, b + a);
    assert_eq!(a * b, b * a);
    assert_eq!((a + b) + c, a + (b + c));
    assert_eq!((a * b) * c, a * (b * c));
    assert_eq!(a * (b + c), a * b + a * c);
    assert_eq!(a + F::ZERO, a);
    assert_eq!(a * F::ONE, a);
    assert_eq!(a * F::ZERO, F::ZERO);
    assert_eq!(a + (-a), F::ZERO);
    assert_eq!(a - b, a + (-b));
    assert_eq!(-(-a), a);
    assert_eq!(a.square(), a * a);
    assert_eq!(a.double(), a + a);
    assert_eq!(a.halve().double(), a);
    assert_eq!(a.mul_2exp(5), a * F::from(Goldilocks::from_u64(32)));
    assert_eq!(a.exp_u64(3), a * a * a);
    assert_eq!(a.exp_u64(0), F::ONE);
    match a.try_inverse() {
        Some(inv) => assert_eq!(a * inv, F::ONE),
        None => assert!(a.is_zero()),
    }
    assert_eq!([a, b, c].into_iter().sum::<F>(), a + b + c);
    assert_eq!([a, b, c].into_iter().product::<F>(), a * b * c);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn base_field_axioms(a in element(), b in element(), c in element()) {
        check_axioms(a, b, c);
    }

    #[test]
    fn extension_field_axioms(a in extension_element(), b in extension_element(), c in extension_element()) {
        check_axioms(a, b, c);
        // The base field embeds as a subfield.
        let (x, y) = (a.coeffs[0], b.coeffs[0]);
        prop_assert_eq!(Goldilocks2::from(x) * Goldilocks2::from(y), Goldilocks2::from(x * y));
        prop_assert_eq!(a * x, a * Goldilocks2::from(x));
        prop_assert_eq!(a.frobenius().frobenius(), a);
        prop_assert_eq!(Goldilocks2::from(a.norm()), a * a.frobenius());
    }

    #[test]
    fn arithmetic_matches_u128_model(x in raw_u64(), y in raw_u64()) {
        let (a, b) = (Goldilocks::from_u64(x), Goldilocks::from_u64(y));
        let (xm, ym, p) = (x as u128 % P as u128, y as u128 % P as u128, P as u128);
        prop_assert_eq!((a + b).as_canonical_u64() as u128, (xm + ym) % p);
        prop_assert_eq!((a - b).as_canonical_u64() as u128, (xm + p - ym) % p);
        prop_assert_eq!((a * b).as_canonical_u64() as u128, xm * ym % p);
        prop_assert_eq!((-a).as_canonical_u64() as u128, (p - xm) % p);
        prop_assert_eq!(a.as_canonical_u64() as u128, xm);
        prop_assert!(a.as_canonical_u64() < P);
        // Canonical equality, ordering and hashing agree whatever the stored representation.
        let c = Goldilocks::from_u64(xm as u64);
        prop_assert_eq!(a, c);
        prop_assert_eq!(a.cmp(&c), core::cmp::Ordering::Equal);
    }

    #[test]
    fn from_u128_reduces(x in any::<u128>()) {
        prop_assert_eq!(Goldilocks::from_u128(x).as_canonical_u64() as u128, x % P as u128);
    }

    #[test]
    fn from_canonical_accepts_exactly_below_p(x in raw_u64()) {
        match Goldilocks::from_canonical(x) {
            Ok(a) => { prop_assert!(x < P); prop_assert_eq!(a.as_canonical_u64(), x); }
            Err(e) => { prop_assert!(x >= P); prop_assert_eq!(e.value, x); }
        }
    }

    #[test]
    fn inverses_agree(a in element()) {
        prop_assert_eq!(a.try_inverse(), a.try_inverse_constant_time());
        if let Some(inv) = a.try_inverse() { prop_assert_eq!(inv * a, Goldilocks::ONE); }
    }

    #[test]
    fn dot_product_defers_reduction_correctly(v in proptest::collection::vec((element(), element()), 0..300)) {
        let (a, b): (Vec<_>, Vec<_>) = v.into_iter().unzip();
        let naive = a.iter().zip(&b).fold(Goldilocks::ZERO, |acc, (x, y)| acc + *x * *y);
        prop_assert_eq!(Goldilocks::dot_product(&a, &b), naive);
    }

    #[test]
    fn extension_dot_product(v in proptest::collection::vec((extension_element(), extension_element()), 0..100)) {
        let (a, b): (Vec<_>, Vec<_>) = v.into_iter().unzip();
        let naive = a.iter().zip(&b).fold(Goldilocks2::ZERO, |acc, (x, y)| acc + *x * *y);
        prop_assert_eq!(Goldilocks2::dot_product(&a, &b), naive);
    }

    #[test]
    fn extension_batch_inverse(v in proptest::collection::vec(extension_element(), 0..50)) {
        let mut inv = v.clone();
        match Goldilocks2::batch_inverse_in_place(&mut inv) {
            Ok(()) => for (x, y) in v.iter().zip(&inv) { prop_assert_eq!(*x * *y, Goldilocks2::ONE); },
            Err(e) => { prop_assert!(v[e.index].is_zero()); prop_assert_eq!(&inv, &v); }
        }
    }

    #[test]
    fn serde_round_trip(a in element(), e in extension_element()) {
        let json = serde_json::to_string(&a).unwrap();
        prop_assert_eq!(json.clone(), a.as_canonical_u64().to_string());
        prop_assert_eq!(serde_json::from_str::<Goldilocks>(&json).unwrap(), a);
        let json = serde_json::to_string(&e).unwrap();
        prop_assert_eq!(serde_json::from_str::<Goldilocks2>(&json).unwrap(), e);
    }

    #[test]
    fn serde_rejects_non_canonical(x in P..=u64::MAX) {
        let err = serde_json::from_str::<Goldilocks>(&x.to_string()).unwrap_err();
        prop_assert!(err.to_string().contains(&x.to_string()), "{}", err);
        let pair = format!("[1,{}]", x);
        prop_assert!(serde_json::from_str::<Goldilocks2>(&pair).is_err());
    }
}

#[test]
fn serde_rejects_malformed_input() {
    for bad in [
        "-1",
        "1.5",
        "\"7\"",
        "[1]",
        "[1,2,3]",
        "18446744073709551616",
        "",
    ] {
        assert!(
            serde_json::from_str::<Goldilocks>(bad).is_err() || bad.starts_with('['),
            "{bad}"
        );
        assert!(serde_json::from_str::<Goldilocks2>(bad).is_err(), "{bad}");
    }
}

#[test]
fn two_adic_generators_have_exact_order() {
    for bits in 0..=32usize {
        let g = Goldilocks::two_adic_generator(bits).unwrap();
        assert_eq!(g.exp_u64(1 << bits), Goldilocks::ONE, "bits {bits}");
        if bits > 0 {
            assert_eq!(
                g.exp_u64(1 << (bits - 1)),
                Goldilocks::NEG_ONE,
                "bits {bits}"
            );
        }
    }
    assert_eq!(
        Goldilocks::two_adic_generator(32),
        Some(Goldilocks::from_u64(0x185629dcda58878c))
    );
    assert_eq!(Goldilocks::two_adic_generator(33), None);
    assert_eq!(Goldilocks::two_adic_generator(usize::MAX), None);
}

#[test]
fn rand_samples_are_canonical_and_spread() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let xs: Vec<Goldilocks> = (0..1000).map(|_| rng.random()).collect();
    assert!(xs.iter().all(|x| x.as_canonical_u64() < P));
    let distinct: std::collections::HashSet<_> = xs.iter().collect();
    assert_eq!(distinct.len(), 1000);
    let _: Goldilocks2 = rng.random();
}

#[test]
fn extension_slices_view_as_interleaved_coefficients() {
    let mut values: Vec<Goldilocks2> = (0..5u32)
        .map(|i| Goldilocks2::new(Goldilocks::from(2 * i), Goldilocks::from(2 * i + 1)))
        .collect();
    let base = Goldilocks2::as_base_slice(&values);
    assert_eq!(base.len(), 10);
    assert!(
        base.iter()
            .enumerate()
            .all(|(i, x)| *x == Goldilocks::from(i as u32))
    );
    let base = Goldilocks2::as_base_slice_mut(&mut values);
    base[3] = Goldilocks::from(100u32);
    assert_eq!(
        values[1],
        Goldilocks2::new(Goldilocks::from(2u32), Goldilocks::from(100u32))
    );
    assert!(Goldilocks2::as_base_slice(&[]).is_empty());
}
