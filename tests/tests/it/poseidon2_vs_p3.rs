//! Poseidon2 (Plonky3 parameters) against `p3-goldilocks` 0.8's `Poseidon2Goldilocks<W>`,
//! on random and non-canonical inputs, for widths 8, 12, 16 — scalar and through the bulk API
//! (whose lanes run on the backend this CPU selects).

use aurum_goldilocks::{Goldilocks, P};
use aurum_poseidon2::{LinearLayers, Plonky3Layers, Poseidon2Goldilocks};
use aurum_symmetric::{Permutation, permute_many};
use p3_field::PrimeField64;
use p3_goldilocks::{
    Goldilocks as P3, default_goldilocks_poseidon2_8, default_goldilocks_poseidon2_12,
    default_goldilocks_poseidon2_16,
};
use p3_symmetric::Permutation as P3Permutation;
use proptest::prelude::*;

fn raw() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => any::<u64>(),
        1 => proptest::sample::select(vec![0, 1, P - 1, P, P + 1, u64::MAX, 1 << 63, (1 << 32) - 1]),
        1 => P..=u64::MAX,
    ]
}

fn check<const W: usize>(
    ours: &Poseidon2Goldilocks<W>,
    theirs: &impl P3Permutation<[P3; W]>,
    inputs: &[[u64; W]],
) where
    Plonky3Layers: LinearLayers<W>,
{
    let mut bulk: Vec<[Goldilocks; W]> =
        inputs.iter().map(|s| s.map(Goldilocks::from_u64)).collect();
    permute_many(ours, &mut bulk);
    for (input, bulk_out) in inputs.iter().zip(&bulk) {
        let mut expected = input.map(P3::new);
        theirs.permute_mut(&mut expected);
        let expected = expected.map(|x| x.as_canonical_u64());
        let scalar = ours
            .permuted(input.map(Goldilocks::from_u64))
            .map(|x| x.as_canonical_u64());
        assert_eq!(scalar, expected, "scalar, input {input:x?}");
        assert_eq!(
            bulk_out.map(|x| x.as_canonical_u64()),
            expected,
            "bulk, input {input:x?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn width_8(inputs in proptest::collection::vec(proptest::array::uniform8(raw()), 1..40)) {
        check(&Poseidon2Goldilocks::<8>::new(), &default_goldilocks_poseidon2_8(), &inputs);
    }

    #[test]
    fn width_12(inputs in proptest::collection::vec(proptest::array::uniform12(raw()), 1..40)) {
        check(&Poseidon2Goldilocks::<12>::new(), &default_goldilocks_poseidon2_12(), &inputs);
    }

    #[test]
    fn width_16(inputs in proptest::collection::vec(proptest::array::uniform16(raw()), 1..40)) {
        check(&Poseidon2Goldilocks::<16>::new(), &default_goldilocks_poseidon2_16(), &inputs);
    }
}
