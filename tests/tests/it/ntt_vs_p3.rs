//! `aurum-ntt` against `p3-dft` 0.8 on random matrices of many shapes, on every SIMD backend
//! this machine runs (each engine is pinned to a backend with `Ntt::with_backend`).
//!
//! The plonky2 domain cannot be checked here against plonky2 itself (a nightly-only crate that
//! is not a dev-dependency); `crates/ntt/tests/ntt.rs` checks it against a naive DFT at
//! plonky2's points instead.

use aurum_goldilocks::{Backend, Goldilocks, Goldilocks2};
use aurum_ntt::{Ntt, Order};
use p3_dft::{Radix2Dit, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::Matrix;
use p3_matrix::bitrev::BitReversibleMatrix;
use p3_matrix::dense::RowMajorMatrix;
use proptest::prelude::*;

type P3Ext = BinomialExtensionField<P3, 2>;

fn engines() -> Vec<Ntt> {
    Backend::supported()
        .into_iter()
        .map(|b| Ntt::plonky3().with_backend(b).expect("supported"))
        .collect()
}

fn canonical(values: &[Goldilocks]) -> Vec<u64> {
    values.iter().map(|x| x.as_canonical_u64()).collect()
}

fn canonical_p3(values: &[P3]) -> Vec<u64> {
    values.iter().map(|x| x.as_canonical_u64()).collect()
}

/// p3's output as rows in the requested order.
fn p3_rows(evals: impl BitReversibleMatrix<P3>, order: Order) -> Vec<u64> {
    let natural = evals.to_row_major_matrix();
    match order {
        Order::Natural => canonical_p3(&natural.values),
        Order::BitReversed => {
            canonical_p3(&natural.bit_reverse_rows().to_row_major_matrix().values)
        }
    }
}

fn matrix(raw: &[u64]) -> (Vec<Goldilocks>, Vec<P3>) {
    (
        raw.iter().map(|&x| Goldilocks::from_u64(x)).collect(),
        raw.iter().map(|&x| P3::new(x)).collect(),
    )
}

fn shape() -> impl Strategy<Value = (usize, usize, Vec<u64>)> {
    (0usize..=10, prop_oneof![1usize..=9, 10usize..=40]).prop_flat_map(|(log_h, width)| {
        (
            Just(log_h),
            Just(width),
            proptest::collection::vec(any::<u64>(), width << log_h),
        )
    })
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::Natural), Just(Order::BitReversed)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn dft_and_idft_match_p3((_log_h, width, raw) in shape(), order in order()) {
        let (ours, theirs) = matrix(&raw);
        let expected = p3_rows(Radix2Dit::default().dft_batch(RowMajorMatrix::new(theirs.clone(), width)), order);
        let parallel = p3_rows(Radix2DitParallel::default().dft_batch(RowMajorMatrix::new(theirs.clone(), width)), order);
        prop_assert_eq!(&expected, &parallel);
        // p3's inverse DFT of the same matrix (read as evaluations, natural order).
        let expected_inv = canonical_p3(&Radix2Dit::default().idft_batch(RowMajorMatrix::new(theirs.clone(), width)).values);
        for ntt in engines() {
            let mut values = ours.clone();
            ntt.forward(&mut values, width, order).unwrap();
            prop_assert_eq!(&canonical(&values), &expected, "forward on {:?}", ntt.backend());
            let mut values = ours.clone();
            ntt.inverse(&mut values, width, Order::Natural).unwrap();
            prop_assert_eq!(&canonical(&values), &expected_inv, "inverse on {:?}", ntt.backend());
        }
    }

    #[test]
    fn coset_dft_and_lde_match_p3(
        (log_h, width, raw) in shape(),
        order in order(),
        added_bits in 1usize..=4,
        shift in prop_oneof![Just(7u64), 1u64..u64::MAX],
    ) {
        let (ours, theirs) = matrix(&raw);
        let shift_p3 = P3::new(shift);
        let shift_ours = Goldilocks::from_u64(shift);
        let expected = p3_rows(Radix2Dit::default().coset_dft_batch(RowMajorMatrix::new(theirs.clone(), width), shift_p3), order);
        let expected_lde = (log_h + added_bits <= 11).then(|| {
            let par = p3_rows(Radix2DitParallel::default().coset_lde_batch(RowMajorMatrix::new(theirs.clone(), width), added_bits, shift_p3), order);
            let dit = p3_rows(Radix2Dit::default().coset_lde_batch(RowMajorMatrix::new(theirs.clone(), width), added_bits, shift_p3), order);
            assert_eq!(par, dit);
            par
        });
        for ntt in engines() {
            let mut values = ours.clone();
            ntt.coset_forward(&mut values, width, shift_ours, order).unwrap();
            prop_assert_eq!(&canonical(&values), &expected, "coset_forward on {:?}", ntt.backend());
            ntt.coset_inverse(&mut values, width, shift_ours, order).unwrap();
            prop_assert_eq!(&values, &ours);
            if let Some(expected_lde) = &expected_lde {
                let lde = ntt.coset_lde(&ours, width, added_bits, shift_ours, order).unwrap();
                prop_assert_eq!(&canonical(&lde), expected_lde, "coset_lde on {:?}", ntt.backend());
            }
        }
    }

    #[test]
    fn extension_columns_match_p3((log_h, width) in (0usize..=9, 1usize..=6), seed in any::<u64>(), order in order()) {
        let len = 2 * (width << log_h);
        let raw: Vec<u64> = (0..len as u64).map(|i| (seed ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        let (ours_base, theirs_base) = matrix(&raw);
        let ours: Vec<Goldilocks2> = ours_base.chunks_exact(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
        let theirs: Vec<P3Ext> = theirs_base.chunks_exact(2).map(|c| P3Ext::from_basis_coefficients_fn(|i| c[i])).collect();
        let flatten = |values: Vec<P3Ext>| -> Vec<u64> {
            values.iter().flat_map(|x| canonical_p3(x.as_basis_coefficients_slice())).collect()
        };
        let dft = Radix2Dit::default();
        let mut expected = RowMajorMatrix::new(dft.dft_algebra_batch(RowMajorMatrix::new(theirs.clone(), width)).values, width);
        if order == Order::BitReversed {
            expected = expected.bit_reverse_rows().to_row_major_matrix();
        }
        let expected = flatten(expected.values);
        let expected_lde = flatten(dft.coset_lde_algebra_batch(RowMajorMatrix::new(theirs.clone(), width), 1, P3::from_u64(7)).values);
        for ntt in engines() {
            let mut values = ours.clone();
            ntt.forward(&mut values, width, order).unwrap();
            prop_assert_eq!(&canonical(Goldilocks2::as_base_slice(&values)), &expected);
            let lde = ntt.coset_lde(&ours, width, 1, Goldilocks::from_u64(7), Order::Natural).unwrap();
            prop_assert_eq!(&canonical(Goldilocks2::as_base_slice(&lde)), &expected_lde);
        }
    }
}

/// Shapes big enough for the cache-blocked, parallel schedule (several passes).
#[test]
fn large_shapes_match_p3() {
    for (log_h, width) in [(12, 40), (13, 9), (14, 3), (17, 1), (12, 33)] {
        let raw: Vec<u64> = (0..(width << log_h) as u64)
            .map(|i| i.wrapping_mul(0xD134_2543_DE82_EF95) ^ (i << 40))
            .collect();
        let (ours, theirs) = matrix(&raw);
        let dft = Radix2DitParallel::default();
        let expected = p3_rows(
            dft.dft_batch(RowMajorMatrix::new(theirs.clone(), width)),
            Order::BitReversed,
        );
        let expected_lde = p3_rows(
            dft.coset_lde_batch(
                RowMajorMatrix::new(theirs.clone(), width),
                1,
                P3::from_u64(7),
            ),
            Order::BitReversed,
        );
        for ntt in engines() {
            let mut values = ours.clone();
            ntt.forward(&mut values, width, Order::BitReversed).unwrap();
            assert_eq!(
                canonical(&values),
                expected,
                "2^{log_h}x{width} {:?}",
                ntt.backend()
            );
            let lde = ntt
                .coset_lde(&ours, width, 1, Goldilocks::from_u64(7), Order::BitReversed)
                .unwrap();
            assert_eq!(
                canonical(&lde),
                expected_lde,
                "lde 2^{log_h}x{width} {:?}",
                ntt.backend()
            );
        }
    }
}
