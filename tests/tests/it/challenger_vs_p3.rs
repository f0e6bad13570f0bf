//! `aurum_symmetric::DuplexChallenger` against `p3-challenger` 0.8's `DuplexChallenger` over
//! Poseidon2 (W8/rate 4, W12/rate 8, W16/rate 12): random sequences of observations, samples
//! (base, extension, bits) and proof-of-work grinding give the same values; Aurum's witness
//! (the smallest) passes Plonky3's check, and Plonky3's passes Aurum's. Keccak-256 against
//! `p3-keccak`.

use aurum_goldilocks::Goldilocks;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::DuplexChallenger;
use aurum_symmetric::challenger::Challenger;
use aurum_symmetric::keccak::keccak256;
use p3_challenger::{CanObserve, CanSample, CanSampleBits, FieldChallenger, GrindingChallenger};
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_symmetric::CryptographicHasher;
use proptest::prelude::*;

type P3Ext = BinomialExtensionField<P3, 2>;

#[derive(Clone, Debug)]
enum Op {
    Observe(u64),
    ObserveMany(Vec<u64>),
    ObserveExt(u64, u64),
    Sample,
    SampleExt,
    SampleBits(usize),
    Grind(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u64>().prop_map(Op::Observe),
        2 => proptest::collection::vec(any::<u64>(), 0..20).prop_map(Op::ObserveMany),
        2 => (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Op::ObserveExt(a, b)),
        3 => Just(Op::Sample),
        2 => Just(Op::SampleExt),
        2 => (0usize..=63).prop_map(Op::SampleBits),
        1 => (0usize..=8).prop_map(Op::Grind),
    ]
}

fn ours(x: P3) -> Goldilocks {
    Goldilocks::from_u64(x.as_canonical_u64())
}

fn theirs(x: Goldilocks) -> P3 {
    P3::new(x.as_canonical_u64())
}

macro_rules! differential {
    ($name:ident, $w:literal, $rate:literal, $p3perm:expr) => {
        fn $name(ops: &[Op]) {
            let mut a = DuplexChallenger::<_, $w, $rate>::new(Poseidon2Goldilocks::<$w>::new());
            let mut b = p3_challenger::DuplexChallenger::<P3, _, $w, $rate>::new($p3perm);
            for (step, op) in ops.iter().enumerate() {
                match op {
                    Op::Observe(x) => {
                        a.observe(Goldilocks::from_u64(*x));
                        b.observe(P3::new(*x));
                    }
                    Op::ObserveMany(xs) => {
                        let values: Vec<Goldilocks> =
                            xs.iter().map(|&x| Goldilocks::from_u64(x)).collect();
                        a.observe_slice(&values);
                        b.observe_slice(&xs.iter().map(|&x| P3::new(x)).collect::<Vec<_>>());
                    }
                    Op::ObserveExt(c0, c1) => {
                        a.observe_ext(aurum_goldilocks::Goldilocks2::new(
                            Goldilocks::from_u64(*c0),
                            Goldilocks::from_u64(*c1),
                        ));
                        b.observe_algebra_element(
                            P3Ext::from_basis_coefficients_slice(&[P3::new(*c0), P3::new(*c1)])
                                .unwrap(),
                        );
                    }
                    Op::Sample => {
                        let theirs: P3 = b.sample();
                        assert_eq!(a.sample(), ours(theirs), "step {step}");
                    }
                    Op::SampleExt => {
                        let theirs: P3Ext = b.sample_algebra_element();
                        let c = theirs.as_basis_coefficients_slice();
                        let mine = a.sample_ext();
                        assert_eq!(mine.coeffs, [ours(c[0]), ours(c[1])], "step {step}");
                    }
                    Op::SampleBits(bits) => {
                        let theirs = b.sample_bits(*bits) as u64;
                        assert_eq!(a.sample_bits(*bits).unwrap(), theirs, "step {step}");
                    }
                    Op::Grind(bits) => {
                        // Aurum's witness is the smallest; Plonky3's check accepts it, and every
                        // smaller candidate fails Plonky3's check too.
                        let witness = a.grind(*bits).unwrap();
                        for smaller in 0..witness.as_canonical_u64() {
                            assert!(
                                !b.clone().check_witness(*bits, P3::new(smaller)),
                                "step {step}: {smaller} passes too"
                            );
                        }
                        assert!(b.check_witness(*bits, theirs(witness)), "step {step}");
                    }
                }
            }
            // Plonky3's own witness passes Aurum's check and leaves both in the same state.
            let mut theirs_ground = b.clone();
            let witness = theirs_ground.grind(6);
            assert!(a.check_witness(6, ours(witness)).unwrap());
            let next: P3 = theirs_ground.sample();
            assert_eq!(a.sample(), ours(next));
        }
    };
}

differential!(w8, 8, 4, p3_goldilocks::default_goldilocks_poseidon2_8());
differential!(w12, 12, 8, p3_goldilocks::default_goldilocks_poseidon2_12());
differential!(
    w16,
    16,
    12,
    p3_goldilocks::default_goldilocks_poseidon2_16()
);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn duplex_w8_rate4_equals_p3(ops in proptest::collection::vec(op(), 0..40)) {
        w8(&ops);
    }

    #[test]
    fn duplex_w12_rate8_equals_p3(ops in proptest::collection::vec(op(), 0..40)) {
        w12(&ops);
    }

    #[test]
    fn duplex_w16_rate12_equals_p3(ops in proptest::collection::vec(op(), 0..40)) {
        w16(&ops);
    }

    #[test]
    fn keccak256_equals_p3(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(keccak256(&bytes), p3_keccak::Keccak256Hash.hash_iter(bytes.iter().copied()));
    }
}

#[test]
fn grinding_at_sixteen_bits_matches_plonky3s_check() {
    let mut a = DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    let mut b = p3_challenger::DuplexChallenger::<P3, _, 8, 4>::new(
        p3_goldilocks::default_goldilocks_poseidon2_8(),
    );
    a.observe(Goldilocks::from_u64(42));
    b.observe(P3::new(42));
    let witness = a.grind(16).unwrap();
    assert!(b.check_witness(16, theirs(witness)));
    let next: P3 = b.sample();
    assert_eq!(a.sample(), ours(next));
}
