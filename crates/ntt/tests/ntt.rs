//! The NTT crate: every backend bit-identical to scalar, domain constants, known answers and
//! error handling. The per-backend suite against the naive DFT and textbook FFT is
//! `tests/backends.rs`.

mod reference;

use aurum_goldilocks::{Backend, Goldilocks, Goldilocks2};
use aurum_ntt::{Domain, Ntt, NttElement, NttError, Order};
use reference::*;

const DOMAINS: [Domain; 3] = [Domain::PLONKY3, Domain::PLONKY2, Domain::POLYGON_ZKPROVER];

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

/// `check_coset_lde` gives what `Ntt::coset_lde` gives: the same error for each bad request,
/// the rows' logarithm and the output length for a good one.
#[test]
fn the_public_lde_check_is_the_lde_s() {
    use aurum_ntt::check_coset_lde;
    let values = [Goldilocks::ONE; 24];
    let seven = Goldilocks::from_u64(7);
    let ntt = Ntt::plonky3();
    for (len, width, added_bits, shift) in [
        (24, 0, 1, seven),
        (24, 5, 1, seven),
        (24, 8, 1, seven),
        (24, 3, 0, seven),
        (24, 3, 5, seven),
        (24, 3, 1, Goldilocks::ZERO),
    ] {
        let cpu = ntt
            .coset_lde(&values[..len], width, added_bits, shift, Order::Natural)
            .expect_err("a bad request");
        assert_eq!(check_coset_lde(len, width, added_bits, shift), Err(cpu));
    }
    assert_eq!(check_coset_lde(24, 3, 2, seven), Ok((3, 96)));
}
