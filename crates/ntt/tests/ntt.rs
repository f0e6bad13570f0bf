//! The NTT crate against independent references (naive DFT, textbook FFT), once per SIMD
//! backend this machine has, for every domain and both orders; plus error handling.

mod reference;

use aurum_goldilocks::{Backend, Goldilocks, Goldilocks2};
use aurum_ntt::{Domain, Ntt, NttElement, NttError, Order};
use proptest::prelude::*;
use reference::*;

const DOMAINS: [Domain; 3] = [Domain::PLONKY3, Domain::PLONKY2, Domain::POLYGON_ZKPROVER];

fn engine(domain: Domain, backend: Backend) -> Option<Ntt> {
    match Ntt::new(domain).with_backend(backend) {
        Ok(ntt) => Some(ntt),
        Err(_) => {
            eprintln!("note: backend {backend} is not supported here; its NTT tests were skipped");
            None
        }
    }
}

fn to_order(values: Vec<Goldilocks>, width: usize, order: Order) -> Vec<Goldilocks> {
    match order {
        Order::Natural => values,
        Order::BitReversed => bit_reverse(&values, width),
    }
}

/// Forward, inverse, coset forward/inverse and LDE of one random matrix against the naive
/// DFT, on one backend.
fn check_all(
    backend: Backend,
    domain: Domain,
    log_n: usize,
    width: usize,
    order: Order,
    seed: u64,
) {
    let Some(ntt) = engine(domain, backend) else {
        return;
    };
    let n = 1usize << log_n;
    let omega = root(domain.generator(), log_n);
    let coeffs = random_matrix(n * width, seed);
    let ctx = format!("{backend} {domain:?} 2^{log_n}x{width} {order:?}");

    // Forward = evaluations at ω^i.
    let expected = to_order(
        naive_coset_dft(&coeffs, width, omega, Goldilocks::ONE),
        width,
        order,
    );
    let mut values = coeffs.clone();
    ntt.forward(&mut values, width, order).unwrap();
    assert_eq!(values, expected, "forward {ctx}");
    // Inverse undoes it.
    ntt.inverse(&mut values, width, order).unwrap();
    assert_eq!(values, coeffs, "inverse {ctx}");

    // Coset forward / inverse.
    let shift = domain.shift();
    let expected = to_order(naive_coset_dft(&coeffs, width, omega, shift), width, order);
    let mut values = coeffs.clone();
    ntt.coset_forward(&mut values, width, shift, order).unwrap();
    assert_eq!(values, expected, "coset_forward {ctx}");
    ntt.coset_inverse(&mut values, width, shift, order).unwrap();
    assert_eq!(values, coeffs, "coset_inverse {ctx}");

    // LDE: the polynomial through `coeffs` (read as evaluations on H) on shift·H'.
    let added_bits = 1 + (seed as usize % 4);
    if log_n + added_bits <= 9 {
        let poly = interpolate(&coeffs, width, omega);
        let mut padded = poly.clone();
        padded.resize(coeffs.len() << added_bits, Goldilocks::ZERO);
        let big_omega = root(domain.generator(), log_n + added_bits);
        let expected = to_order(
            naive_coset_dft(&padded, width, big_omega, shift),
            width,
            order,
        );
        let lde = ntt
            .coset_lde(&coeffs, width, added_bits, shift, order)
            .unwrap();
        assert_eq!(lde, expected, "coset_lde +{added_bits} {ctx}");
        let lde_vec = ntt
            .coset_lde_vec(coeffs.clone(), width, added_bits, shift, order)
            .unwrap();
        assert_eq!(lde_vec, expected, "coset_lde_vec +{added_bits} {ctx}");
        let mut into = vec![Goldilocks::ONE; lde.len()];
        ntt.coset_lde_into(&coeffs, width, added_bits, shift, &mut into, order)
            .unwrap();
        assert_eq!(into, expected, "coset_lde_into +{added_bits} {ctx}");
    }
}

/// A large matrix (several cache-blocked passes) on one backend against the textbook FFT,
/// and the same transform on the scalar backend.
fn check_large(backend: Backend, log_n: usize, width: usize, seed: u64) {
    let Some(ntt) = engine(Domain::PLONKY3, backend) else {
        return;
    };
    let omega = root(Domain::PLONKY3.generator(), log_n);
    let coeffs = random_matrix(width << log_n, seed);
    let expected = coset_fft_matrix(&coeffs, width, omega, Goldilocks::ONE);
    let mut values = coeffs.clone();
    ntt.forward(&mut values, width, Order::Natural).unwrap();
    assert_eq!(values, expected, "{backend} forward 2^{log_n}x{width}");
    let mut bitrev = coeffs.clone();
    ntt.forward(&mut bitrev, width, Order::BitReversed).unwrap();
    assert_eq!(
        bitrev,
        bit_reverse(&expected, width),
        "{backend} forward bitrev 2^{log_n}x{width}"
    );
    ntt.inverse(&mut bitrev, width, Order::BitReversed).unwrap();
    assert_eq!(bitrev, coeffs, "{backend} inverse 2^{log_n}x{width}");
    let shift = Domain::PLONKY3.shift();
    let lde = ntt
        .coset_lde(&coeffs, width, 1, shift, Order::BitReversed)
        .unwrap();
    let scalar = Ntt::plonky3().with_backend(Backend::Scalar).unwrap();
    let lde_scalar = scalar
        .coset_lde(&coeffs, width, 1, shift, Order::BitReversed)
        .unwrap();
    assert_eq!(lde, lde_scalar, "{backend} lde 2^{log_n}x{width} vs scalar");
    // Spot-check the LDE against direct evaluation of the interpolant at a few points.
    let poly = interpolate(&coeffs, width, omega);
    let big_omega = root(Domain::PLONKY3.generator(), log_n + 1);
    for row in [0usize, 1, 5, (2 << log_n) - 1] {
        let point = shift * big_omega.exp_u64(rev(row, log_n + 1) as u64);
        for c in [0, width - 1] {
            let value = (0..1usize << log_n)
                .rev()
                .fold(Goldilocks::ZERO, |acc, j| acc * point + poly[j * width + c]);
            assert_eq!(
                lde[row * width + c],
                value,
                "{backend} lde row {row} col {c}"
            );
        }
    }
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::Natural), Just(Order::BitReversed)]
}

macro_rules! backend_suite {
    ($module:ident, $backend:expr) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

                #[test]
                fn transforms_match_naive_dft(
                    log_n in 0usize..=7,
                    width in prop_oneof![1usize..=9, 10usize..=40],
                    domain in 0usize..3,
                    order in order(),
                    seed in any::<u64>(),
                ) {
                    check_all($backend, DOMAINS[domain], log_n, width, order, seed);
                }
            }

            #[test]
            fn every_width_small_sizes() {
                for log_n in 0..=5 {
                    for width in 1..=17 {
                        let order = if width % 2 == 0 { Order::Natural } else { Order::BitReversed };
                        check_all($backend, Domain::PLONKY3, log_n, width, order, (log_n * 100 + width) as u64);
                    }
                }
            }

            #[test]
            fn large_single_column() {
                check_large($backend, 17, 1, 1);
            }

            #[test]
            fn large_narrow_matrix() {
                check_large($backend, 14, 3, 2);
            }

            #[test]
            fn large_wide_matrix() {
                check_large($backend, 12, 24, 3);
            }

            #[test]
            fn extension_columns_are_pairs_of_base_columns() {
                let Some(ntt) = engine(Domain::PLONKY3, $backend) else { return };
                for (log_n, width) in [(0, 1), (3, 1), (6, 2), (10, 3), (13, 1)] {
                    let base = random_matrix(2 * width << log_n, 77 + log_n as u64);
                    let ext: Vec<Goldilocks2> = base.chunks_exact(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
                    for order in [Order::Natural, Order::BitReversed] {
                        let mut expected = base.clone();
                        ntt.forward(&mut expected, 2 * width, order).unwrap();
                        let mut values = ext.clone();
                        ntt.forward(&mut values, width, order).unwrap();
                        assert_eq!(Goldilocks2::as_base_slice(&values), &expected[..]);
                        ntt.inverse(&mut values, width, order).unwrap();
                        assert_eq!(values, ext);
                        let lde = ntt.coset_lde(&ext, width, 2, Goldilocks::from_u64(7), order).unwrap();
                        let lde_base = ntt.coset_lde(&base, 2 * width, 2, Goldilocks::from_u64(7), order).unwrap();
                        assert_eq!(Goldilocks2::as_base_slice(&lde), &lde_base[..]);
                    }
                }
            }
        }
    };
}

backend_suite!(scalar, Backend::Scalar);
backend_suite!(avx2, Backend::Avx2);
backend_suite!(avx512, Backend::Avx512);
backend_suite!(neon, Backend::Neon);

#[test]
fn every_backend_is_bit_identical_to_scalar() {
    // Canonical values are compared (representations are lazily reduced by design).
    let scalar = Ntt::plonky3().with_backend(Backend::Scalar).unwrap();
    for backend in Backend::supported() {
        let ntt = Ntt::plonky3().with_backend(backend).unwrap();
        for (log_n, width) in [(1, 1), (4, 1), (9, 5), (11, 8), (8, 13), (15, 1)] {
            let input = random_matrix(width << log_n, log_n as u64);
            let (mut a, mut b) = (input.clone(), input.clone());
            ntt.forward(&mut a, width, Order::BitReversed).unwrap();
            scalar.forward(&mut b, width, Order::BitReversed).unwrap();
            assert_eq!(a, b, "{backend} 2^{log_n}x{width}");
        }
    }
}

#[test]
fn plonky2_domain_constants_are_consistent() {
    // plonky2's root is g^((p−1)/2^32) for its multiplicative generator g, which is its
    // coset shift; computed here, not copied.
    let g = Domain::PLONKY2.shift();
    let derived = g.exp_u64((aurum_goldilocks::P - 1) >> 32);
    assert_eq!(derived, Domain::PLONKY2.generator());
    assert_eq!(derived.as_canonical_u64(), 7_277_203_076_849_721_926);
    assert_eq!(Domain::POLYGON_ZKPROVER.generator(), derived);
    // Plonky3's root is 7^((p−1)/2^32).
    assert_eq!(
        Goldilocks::from_u64(7).exp_u64((aurum_goldilocks::P - 1) >> 32),
        Domain::PLONKY3.generator()
    );
    // All three generate the same order-2^32 subgroup, with different ω.
    for d in DOMAINS {
        assert!(Domain::new(d.generator(), d.shift()).is_ok());
    }
    assert_ne!(
        Domain::PLONKY2.root_of_unity(3).unwrap(),
        Domain::PLONKY3.root_of_unity(3).unwrap()
    );
}

#[test]
fn plonky2_lde_onto_coset_known_answer() {
    // plonky2's `lde_onto_coset(rate_bits)`: ifft, zero-pad, coset_fft with its coset shift,
    // natural order. Derived with the naive DFT at plonky2's own points.
    let ntt = Ntt::plonky2();
    let values: Vec<Goldilocks> = (1..=8u32).map(Goldilocks::from).collect();
    let shift = Domain::PLONKY2.shift();
    let lde = ntt.coset_lde(&values, 1, 2, shift, Order::Natural).unwrap();
    let omega = root(Goldilocks::from_u64(7_277_203_076_849_721_926), 3);
    let poly = interpolate(&values, 1, omega);
    let mut padded = poly;
    padded.resize(32, Goldilocks::ZERO);
    let big_omega = root(Goldilocks::from_u64(7_277_203_076_849_721_926), 5);
    let expected = naive_coset_dft(
        &padded,
        1,
        big_omega,
        Goldilocks::from_u64(14_293_326_489_335_486_720),
    );
    assert_eq!(lde, expected);
    // The polynomial through 1..=8 on H is reproduced on H itself at every 4th point of
    // ω'-powers only on the unshifted domain; with shift 1 the LDE must contain the input.
    let plain = ntt
        .coset_lde(&values, 1, 2, Goldilocks::ONE, Order::Natural)
        .unwrap();
    let every_fourth: Vec<_> = plain.iter().step_by(4).copied().collect();
    assert_eq!(every_fourth, values);
}

#[test]
fn bit_reverse_rows_matches_reference() {
    let ntt = Ntt::default();
    for (log_n, width) in [
        (0, 1),
        (1, 3),
        (5, 1),
        (10, 1),
        (11, 2),
        (12, 7),
        (9, 40),
        (16, 1),
    ] {
        let input = random_matrix(width << log_n, 5);
        let mut values = input.clone();
        ntt.bit_reverse_rows(&mut values, width).unwrap();
        assert_eq!(values, bit_reverse(&input, width), "2^{log_n}x{width}");
        ntt.bit_reverse_rows(&mut values, width).unwrap();
        assert_eq!(values, input);
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let ntt = Ntt::default();
    let mut v = vec![Goldilocks::ONE; 12];
    assert_eq!(
        ntt.forward(&mut v, 4, Order::Natural),
        Err(NttError::HeightNotPowerOfTwo { height: 3 })
    );
    assert_eq!(
        ntt.forward(&mut v, 5, Order::Natural),
        Err(NttError::LengthNotMultipleOfWidth { len: 12, width: 5 })
    );
    assert_eq!(
        ntt.inverse(&mut v, 0, Order::Natural),
        Err(NttError::ZeroWidth)
    );
    let mut empty: Vec<Goldilocks> = Vec::new();
    assert_eq!(
        ntt.forward(&mut empty, 1, Order::Natural),
        Err(NttError::HeightNotPowerOfTwo { height: 0 })
    );
    let v8 = vec![Goldilocks::ONE; 8];
    for added_bits in [0, 5, 64, usize::MAX] {
        assert_eq!(
            ntt.coset_lde(&v8, 1, added_bits, Goldilocks::from_u64(7), Order::Natural),
            Err(NttError::AddedBits { added_bits })
        );
    }
    assert_eq!(
        ntt.coset_lde(&v8, 1, 1, Goldilocks::ZERO, Order::Natural),
        Err(NttError::ZeroShift)
    );
    assert_eq!(
        ntt.coset_lde_vec(
            vec![Goldilocks::ONE; 6],
            1,
            1,
            Goldilocks::ONE,
            Order::Natural
        ),
        Err(NttError::HeightNotPowerOfTwo { height: 6 })
    );
    let mut out = vec![Goldilocks::ZERO; 15];
    assert_eq!(
        ntt.coset_lde_into(&v8, 1, 1, Goldilocks::ONE, &mut out, Order::Natural),
        Err(NttError::OutputLength {
            expected: 16,
            found: 15
        })
    );
    let mut v8m = v8.clone();
    assert_eq!(
        ntt.coset_inverse(
            &mut v8m,
            1,
            Goldilocks::from_u64(aurum_goldilocks::P),
            Order::Natural
        ),
        Err(NttError::ZeroShift)
    );
    assert_eq!(v8m, v8, "a refused call leaves the data alone");
    // Sizes beyond 2^32 are refused before any memory is touched: a width-0-cost check on
    // an LDE whose output would be 2^33 rows needs a 2^29-row input, too big for a test, so
    // the domain-level check stands in for it.
    assert_eq!(
        Domain::PLONKY3.root_of_unity(33),
        Err(NttError::TooLarge {
            log_size: 33,
            max_log_size: 32
        })
    );
    assert!(matches!(
        Domain::new(Goldilocks::from_u64(7), Goldilocks::ONE),
        Err(NttError::NotATwoAdicGenerator { generator: 7 })
    ));
    assert_eq!(
        Domain::PLONKY3.with_shift(Goldilocks::ZERO),
        Err(NttError::ZeroShift)
    );
    for e in [
        NttError::HeightNotPowerOfTwo { height: 3 },
        NttError::AddedBits { added_bits: 9 },
        NttError::TooLarge {
            log_size: 33,
            max_log_size: 32,
        },
    ] {
        assert!(!e.to_string().is_empty());
    }
    assert!(
        NttError::HeightNotPowerOfTwo { height: 3 }
            .to_string()
            .contains("power of two")
    );
}

/// Every entry point with absurd widths and blow-ups: typed errors, never a panic (no
/// product or shift of the caller's sizes is formed before they are checked).
#[test]
fn hostile_sizes_are_errors_at_every_entry_point() {
    fn every_entry<E: NttElement + PartialEq + core::fmt::Debug>(
        values: &[E],
        width: usize,
        added_bits: usize,
    ) -> Vec<Result<(), NttError>> {
        let ntt = Ntt::default();
        let shift = Goldilocks::from_u64(7);
        let mut v = values.to_vec();
        let mut out = vec![E::default(); values.len() * 2];
        let results = [
            ntt.forward(&mut v, width, Order::Natural),
            ntt.inverse(&mut v, width, Order::BitReversed),
            ntt.coset_forward(&mut v, width, shift, Order::BitReversed),
            ntt.coset_inverse(&mut v, width, shift, Order::Natural),
            ntt.bit_reverse_rows(&mut v, width),
            ntt.coset_lde(values, width, added_bits, shift, Order::Natural)
                .map(drop),
            ntt.coset_lde_vec(
                values.to_vec(),
                width,
                added_bits,
                shift,
                Order::BitReversed,
            )
            .map(drop),
            ntt.coset_lde_into(values, width, added_bits, shift, &mut out, Order::Natural),
        ];
        if results.iter().all(Result::is_err) {
            assert_eq!(v, values, "refused calls leave the data alone");
        }
        results.to_vec()
    }
    let all = |e: NttError| vec![Err(e); 8];
    for width in [usize::MAX, usize::MAX / 2 + 1, 1 << 63, 1 << 32] {
        for added_bits in [0, 1, 5, usize::MAX] {
            let empty = NttError::HeightNotPowerOfTwo { height: 0 };
            assert_eq!(
                every_entry::<Goldilocks>(&[], width, added_bits),
                all(empty.clone())
            );
            assert_eq!(
                every_entry::<Goldilocks2>(&[], width, added_bits),
                all(empty)
            );
            let one = NttError::LengthNotMultipleOfWidth { len: 1, width };
            assert_eq!(
                every_entry(&[Goldilocks::ONE], width, added_bits),
                all(one.clone())
            );
            assert_eq!(
                every_entry(&[Goldilocks2::ONE], width, added_bits),
                all(one)
            );
        }
    }
    // A valid matrix with a blow-up out of range: only the LDEs refuse, naming it.
    let v8 = vec![Goldilocks::ONE; 8];
    for added_bits in [0, 5, 63, 64, 65, usize::MAX] {
        let results = every_entry(&v8, 1, added_bits);
        assert_eq!(results[..5], [Ok(()), Ok(()), Ok(()), Ok(()), Ok(())]);
        for result in &results[5..] {
            let e = result.as_ref().unwrap_err();
            assert_eq!(e, &NttError::AddedBits { added_bits });
            assert!(
                e.to_string().contains(&format!("added_bits {added_bits}")),
                "{e}"
            );
        }
    }
}
