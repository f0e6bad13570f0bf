//! The NTT crate against independent references (naive DFT, textbook FFT), once per SIMD
//! backend of this target architecture, for every domain and both orders.
//!
//! A backend this CPU cannot run (AVX-512 on most x86 machines) is reported as **ignored**,
//! with the reason, never as passed: this is a `harness = false` test binary driven by
//! `libtest-mimic`, which decides that at run time, and it runs the property test with
//! proptest's `TestRunner` directly.

mod reference;

use aurum_goldilocks::{Backend, Goldilocks, Goldilocks2};
use aurum_ntt::{Domain, Ntt, Order};
use aurum_testing::backends::{self, BackendTest, SUPPORTED};
use aurum_testing::property::check_property;
use libtest_mimic::{Arguments, Trial};
use proptest::prelude::*;
use reference::*;

const DOMAINS: [Domain; 3] = [Domain::PLONKY3, Domain::PLONKY2, Domain::POLYGON_ZKPROVER];

/// An engine pinned to `backend` (the trials run only on backends this CPU supports).
fn engine(domain: Domain, backend: Backend) -> Ntt {
    Ntt::new(domain).with_backend(backend).expect(SUPPORTED)
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
    let ntt = engine(domain, backend);
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
    let ntt = engine(Domain::PLONKY3, backend);
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

/// The suite for one backend, each test named `<backend>::<name>` and ignored (with the
/// reason) if this CPU cannot run the backend.
fn backend_suite(backend: Backend) -> Vec<Trial> {
    let tests: [BackendTest; 7] = [
        ("transforms_match_naive_dft", |backend| {
            let inputs = (
                0usize..=7,
                prop_oneof![1usize..=9, 10usize..=40],
                0usize..3,
                order(),
                any::<u64>(),
            );
            check_property(48, inputs, |(log_n, width, domain, order, seed)| {
                check_all(backend, DOMAINS[domain], log_n, width, order, seed);
            });
        }),
        ("every_width_small_sizes", |backend| {
            for log_n in 0..=5 {
                for width in 1..=17 {
                    let order = if width % 2 == 0 {
                        Order::Natural
                    } else {
                        Order::BitReversed
                    };
                    let seed = (log_n * 100 + width) as u64;
                    check_all(backend, Domain::PLONKY3, log_n, width, order, seed);
                }
            }
        }),
        ("large_single_column", |backend| {
            check_large(backend, 17, 1, 1)
        }),
        ("large_narrow_matrix", |backend| {
            check_large(backend, 14, 3, 2)
        }),
        ("large_wide_matrix", |backend| {
            check_large(backend, 12, 24, 3)
        }),
        ("natural_lde_of_narrow_outputs", |backend| {
            // Outputs narrower than a vector (2^added_bits · width < lanes) take their own
            // natural-order path: against the bit-reversed LDE (another path, checked against
            // the naive DFT above) permuted, through every entry point, small and multi-pass.
            let ntt = engine(Domain::PLONKY3, backend);
            let shift = Goldilocks::from_u64(7);
            let mut shapes = vec![(17, 1, 1), (15, 1, 2), (14, 2, 1), (13, 3, 1), (12, 1, 3)];
            for log_n in 0..=7 {
                for width in 1..=3 {
                    for added_bits in 1..=3 {
                        shapes.push((log_n, width, added_bits));
                    }
                }
            }
            for (log_n, width, added_bits) in shapes {
                let values =
                    random_matrix(width << log_n, (log_n * 16 + width * 4 + added_bits) as u64);
                let bitrev = ntt
                    .coset_lde(&values, width, added_bits, shift, Order::BitReversed)
                    .unwrap();
                let expected = bit_reverse(&bitrev, width);
                let ctx = format!("{backend} 2^{log_n}x{width} +{added_bits}");
                let lde = ntt
                    .coset_lde(&values, width, added_bits, shift, Order::Natural)
                    .unwrap();
                assert_eq!(lde, expected, "coset_lde {ctx}");
                let lde_vec = ntt
                    .coset_lde_vec(values.clone(), width, added_bits, shift, Order::Natural)
                    .unwrap();
                assert_eq!(lde_vec, expected, "coset_lde_vec {ctx}");
                let mut into = vec![Goldilocks::ONE; lde.len()];
                ntt.coset_lde_into(&values, width, added_bits, shift, &mut into, Order::Natural)
                    .unwrap();
                assert_eq!(into, expected, "coset_lde_into {ctx}");
            }
        }),
        ("extension_columns_are_pairs_of_base_columns", |backend| {
            let ntt = engine(Domain::PLONKY3, backend);
            for (log_n, width) in [(0, 1), (3, 1), (6, 2), (10, 3), (13, 1)] {
                let base = random_matrix((2 * width) << log_n, 77 + log_n as u64);
                let ext: Vec<Goldilocks2> = base
                    .chunks_exact(2)
                    .map(|c| Goldilocks2::new(c[0], c[1]))
                    .collect();
                for order in [Order::Natural, Order::BitReversed] {
                    let mut expected = base.clone();
                    ntt.forward(&mut expected, 2 * width, order).unwrap();
                    let mut values = ext.clone();
                    ntt.forward(&mut values, width, order).unwrap();
                    assert_eq!(Goldilocks2::as_base_slice(&values), &expected[..]);
                    ntt.inverse(&mut values, width, order).unwrap();
                    assert_eq!(values, ext);
                    let lde = ntt
                        .coset_lde(&ext, width, 2, Goldilocks::from_u64(7), order)
                        .unwrap();
                    let lde_base = ntt
                        .coset_lde(&base, 2 * width, 2, Goldilocks::from_u64(7), order)
                        .unwrap();
                    assert_eq!(Goldilocks2::as_base_slice(&lde), &lde_base[..]);
                }
            }
        }),
    ];
    backends::suite(backend, &tests)
}

fn main() {
    let args = Arguments::from_args();
    let trials = backends::of_this_arch()
        .into_iter()
        .flat_map(backend_suite)
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
