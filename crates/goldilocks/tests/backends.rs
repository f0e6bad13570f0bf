//! Every backend against the scalar reference, lane by lane, on random and "danger" inputs.
//!
//! The same generic suite is instantiated once per backend (like Plonky3's field test
//! macros). Each test enters its backend through `dispatch_on`, so one `cargo test` on an
//! AVX-512 machine exercises scalar, AVX2 and AVX-512, whatever the build flags. A backend the
//! CPU lacks is reported as skipped on stderr.

use aurum_goldilocks::kernels::{
    self, BatchInverse, BinaryOp, DotProduct, Elementwise, Scale, SumKernel,
};
use aurum_goldilocks::{Backend, Canonical, Goldilocks, Kernel, P, PackedField, dispatch_on};
use proptest::prelude::*;

/// Values at the edges of the representation and of the reduction's case splits.
const DANGER: [u64; 16] = [
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

/// Any u64 as a (possibly non-canonical) representation, biased towards danger values.
fn raw_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        2 => proptest::sample::select(&DANGER[..]),
        1 => P..=u64::MAX,
    ]
}

fn element() -> impl Strategy<Value = Goldilocks> {
    raw_u64().prop_map(Goldilocks::from_u64)
}

/// Eight lanes: enough for every backend (the narrower ones process several vectors).
fn lanes8() -> impl Strategy<Value = [Goldilocks; 8]> {
    proptest::array::uniform8(element())
}

/// Every operation of `PackedField`, applied vector by vector to 8-lane inputs.
struct AllOps {
    a: [Goldilocks; 8],
    b: [Goldilocks; 8],
    small: u32,
    exp: u64,
}

/// `(name, result lanes)` for each operation.
type OpResults = Vec<(&'static str, [Goldilocks; 8])>;

impl Kernel for AllOps {
    type Output = OpResults;

    #[inline(always)]
    fn run<P: PackedField>(self) -> OpResults {
        let mut results: OpResults = Vec::new();
        let mut record = |name, f: &dyn Fn(P, P) -> P| {
            let mut out = [Goldilocks::ZERO; 8];
            for ((o, x), y) in out
                .chunks_exact_mut(P::WIDTH)
                .zip(self.a.chunks_exact(P::WIDTH))
                .zip(self.b.chunks_exact(P::WIDTH))
            {
                f(P::load(x), P::load(y)).store(o);
            }
            results.push((name, out));
        };
        let (small, exp) = (self.small, self.exp);
        record("add", &|x, y| x + y);
        record("sub", &|x, y| x - y);
        record("mul", &|x, y| x * y);
        record("neg", &|x, _| -x);
        record("square", &|x, _| x.square());
        record("double", &|x, _| x.double());
        record("halve", &|x, _| x.halve());
        record("mul_small", &|x, _| x.mul_small(small));
        record("mul_2exp", &|x, _| x.mul_2exp(exp));
        record("exp7", &|x, _| x.exp7());
        record("exp_u64", &|x, _| x.exp_u64(exp));
        record("add_scalar", &|x, y| x + y.as_slice()[0]);
        record("sub_scalar", &|x, y| x - y.as_slice()[0]);
        record("mul_scalar", &|x, y| x * y.as_slice()[0]);
        record("add_canonical_scalar", &|x, y| {
            x.add_canonical(Canonical::broadcast(Canonical::new(y.as_slice()[0])))
        });
        record("add_canonical", &|x, y| x.add_canonical(y.canonicalize()));
        record("canonicalize", &|x, _| x.canonicalize().get());
        record("add_assign", &|mut x, y| {
            x += y;
            x
        });
        record("sub_assign", &|mut x, y| {
            x -= y;
            x
        });
        record("mul_assign", &|mut x, y| {
            x *= y;
            x
        });
        record("chain", &|x, y| {
            ((x * y + x).square() - y.double()).halve() * -x
        });
        results
    }
}

fn scalar_expected(a: [Goldilocks; 8], b: [Goldilocks; 8], small: u32, exp: u64) -> OpResults {
    let lanewise = |f: &dyn Fn(Goldilocks, Goldilocks) -> Goldilocks| -> [Goldilocks; 8] {
        core::array::from_fn(|i| f(a[i], b[i]))
    };
    vec![
        (
            "add",
            lanewise(&|x, y| {
                Goldilocks::from_u128(x.as_canonical_u64() as u128 + y.as_canonical_u64() as u128)
            }),
        ),
        (
            "sub",
            lanewise(&|x, y| {
                Goldilocks::from_u128(
                    x.as_canonical_u64() as u128 + P as u128 - y.as_canonical_u64() as u128,
                )
            }),
        ),
        (
            "mul",
            lanewise(&|x, y| {
                Goldilocks::from_u128(x.as_canonical_u64() as u128 * y.as_canonical_u64() as u128)
            }),
        ),
        (
            "neg",
            lanewise(&|x, _| Goldilocks::from_u128(P as u128 - x.as_canonical_u64() as u128)),
        ),
        ("square", lanewise(&|x, _| x * x)),
        ("double", lanewise(&|x, _| x + x)),
        ("halve", lanewise(&|x, _| x * Goldilocks::TWO.inverse())),
        ("mul_small", lanewise(&|x, _| x * Goldilocks::from(small))),
        (
            "mul_2exp",
            lanewise(&|x, _| x * Goldilocks::TWO.exp_u64(exp)),
        ),
        ("exp7", lanewise(&|x, _| x * x * x * x * x * x * x)),
        ("exp_u64", lanewise(&|x, _| x.exp_u64(exp))),
    ]
}

/// Checks every op of one backend against the scalar reference; `false` if unsupported.
fn check_all_ops(
    backend: Backend,
    a: [Goldilocks; 8],
    b: [Goldilocks; 8],
    small: u32,
    exp: u64,
) -> bool {
    let Ok(got) = dispatch_on(backend, AllOps { a, b, small, exp }) else {
        return false;
    };
    // Lane-independent ops have one expected value whatever the width.
    for (name, expected) in scalar_expected(a, b, small, exp) {
        let (_, lanes) = got.iter().find(|(n, _)| *n == name).unwrap();
        assert_eq!(
            lanes, &expected,
            "{backend}: {name}({a:?}, {b:?}) small={small} exp={exp}"
        );
    }
    // Ops with a broadcast scalar or a composite chain: compare with the scalar backend,
    // which is the reference implementation for those.
    let reference = dispatch_on(Backend::Scalar, AllOps { a, b, small, exp }).unwrap();
    let width = backend.lanes();
    for ((name, lanes), (_, ref_lanes)) in got.iter().zip(&reference) {
        if name.ends_with("_scalar") {
            // Per vector, the scalar operand is lane 0 of that vector of `b`.
            let expected: [Goldilocks; 8] = core::array::from_fn(|i| {
                let s = b[i - i % width];
                match *name {
                    "add_scalar" | "add_canonical_scalar" => a[i] + s,
                    "sub_scalar" => a[i] - s,
                    _ => a[i] * s,
                }
            });
            assert_eq!(lanes, &expected, "{backend}: {name}");
        } else {
            assert_eq!(lanes, ref_lanes, "{backend}: {name}({a:?}, {b:?})");
        }
    }
    true
}

/// `interleave` for every block length against a lane-array reference.
struct InterleaveAll {
    a: [Goldilocks; 8],
    b: [Goldilocks; 8],
}

impl Kernel for InterleaveAll {
    type Output = Vec<(usize, Vec<Goldilocks>, Vec<Goldilocks>)>;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Self::Output {
        let x = P::load(&self.a[..P::WIDTH]);
        let y = P::load(&self.b[..P::WIDTH]);
        let mut out = Vec::new();
        let mut block_len = 1;
        while block_len <= P::WIDTH {
            let (u, v) = x.interleave(y, block_len);
            out.push((block_len, u.as_slice().to_vec(), v.as_slice().to_vec()));
            block_len *= 2;
        }
        out
    }
}

fn interleave_reference(
    a: &[Goldilocks],
    b: &[Goldilocks],
    block_len: usize,
) -> (Vec<Goldilocks>, Vec<Goldilocks>) {
    let n = a.len();
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    if block_len < n {
        for pair in (0..n).step_by(2 * block_len) {
            for i in 0..block_len {
                x[pair + block_len + i] = b[pair + i];
                y[pair + i] = a[pair + block_len + i];
            }
        }
    }
    (x, y)
}

fn check_interleave(backend: Backend, a: [Goldilocks; 8], b: [Goldilocks; 8]) -> bool {
    let Ok(got) = dispatch_on(backend, InterleaveAll { a, b }) else {
        return false;
    };
    let w = backend.lanes();
    assert_eq!(got.len(), w.trailing_zeros() as usize + 1);
    for (block_len, x, y) in got {
        let (ex, ey) = interleave_reference(&a[..w], &b[..w], block_len);
        assert_eq!(
            (x, y),
            (ex, ey),
            "{backend}: interleave block_len {block_len}"
        );
    }
    true
}

/// The bulk kernels of `aurum_goldilocks::kernels` on one backend against scalar formulas.
fn check_bulk_kernels(backend: Backend, a: &[Goldilocks], b: &[Goldilocks], c: Goldilocks) -> bool {
    if !backend.is_supported() {
        return false;
    }
    let n = a.len();
    for (op, f) in [
        (
            BinaryOp::Add,
            (|x, y| x + y) as fn(Goldilocks, Goldilocks) -> Goldilocks,
        ),
        (BinaryOp::Sub, |x, y| x - y),
        (BinaryOp::Mul, |x, y| x * y),
    ] {
        let mut out = vec![Goldilocks::ZERO; n];
        dispatch_on(backend, Elementwise::new(op, &mut out, a, b).unwrap()).unwrap();
        let expected: Vec<_> = a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect();
        assert_eq!(out, expected, "{backend}: {op:?} of {n} elements");
    }
    let mut scaled = a.to_vec();
    dispatch_on(
        backend,
        Scale {
            values: &mut scaled,
            factor: c,
        },
    )
    .unwrap();
    assert_eq!(
        scaled,
        a.iter().map(|&x| x * c).collect::<Vec<_>>(),
        "{backend}: scale"
    );

    let dot = dispatch_on(backend, DotProduct::new(a, b).unwrap()).unwrap();
    let expected_dot = a
        .iter()
        .zip(b)
        .fold(Goldilocks::ZERO, |acc, (&x, &y)| acc + x * y);
    assert_eq!(dot, expected_dot, "{backend}: dot product of {n}");

    let total = dispatch_on(backend, SumKernel { values: a }).unwrap();
    assert_eq!(
        total,
        a.iter().fold(Goldilocks::ZERO, |acc, &x| acc + x),
        "{backend}: sum"
    );

    let mut inv = a.to_vec();
    let result = dispatch_on(backend, BatchInverse { values: &mut inv }).unwrap();
    match a.iter().position(|x| *x == Goldilocks::ZERO) {
        Some(index) => {
            assert_eq!(result.unwrap_err().index, index, "{backend}: first zero");
            assert_eq!(inv, a, "{backend}: input left unchanged on error");
        }
        None => {
            result.unwrap();
            for (x, y) in a.iter().zip(&inv) {
                assert_eq!(*x * *y, Goldilocks::ONE, "{backend}: batch inverse of {x}");
            }
        }
    }
    true
}

/// `linear_combination` and `linear_combination_small` over 12 vectors of 8 lanes.
struct LinearCombinations {
    xs: [[Goldilocks; 8]; 12],
    cs: [Goldilocks; 12],
    small: [u32; 12],
}

impl Kernel for LinearCombinations {
    type Output = ([Goldilocks; 8], [Goldilocks; 8]);

    #[inline(always)]
    fn run<P: PackedField>(self) -> Self::Output {
        let mut full = [Goldilocks::ZERO; 8];
        let mut small = [Goldilocks::ZERO; 8];
        for start in (0..8).step_by(P::WIDTH) {
            let xs: [P; 12] =
                core::array::from_fn(|k| P::load(&self.xs[k][start..start + P::WIDTH]));
            P::linear_combination(&xs, &self.cs).store(&mut full[start..start + P::WIDTH]);
            P::linear_combination_small(&xs, &self.small)
                .store(&mut small[start..start + P::WIDTH]);
        }
        (full, small)
    }
}

/// Checks both linear combinations of one backend lane by lane; `false` if unsupported.
fn check_linear_combinations(
    backend: Backend,
    xs: [[Goldilocks; 8]; 12],
    cs: [Goldilocks; 12],
    small: [u32; 12],
) -> bool {
    let Ok((full, got_small)) = dispatch_on(backend, LinearCombinations { xs, cs, small }) else {
        return false;
    };
    for lane in 0..8 {
        let expected: Goldilocks = (0..12).map(|k| xs[k][lane] * cs[k]).sum();
        assert_eq!(
            full[lane], expected,
            "{backend}: linear_combination lane {lane}"
        );
        let expected: Goldilocks = (0..12)
            .map(|k| xs[k][lane] * Goldilocks::from(small[k]))
            .sum();
        assert_eq!(
            got_small[lane], expected,
            "{backend}: linear_combination_small lane {lane} {small:?}"
        );
    }
    true
}

/// Small coefficients whose sum stays below 2^31 (the contract of
/// `linear_combination_small`), biased towards the largest allowed.
fn small_coefficients() -> impl Strategy<Value = [u32; 12]> {
    prop_oneof![
        proptest::array::uniform12(0u32..64),
        proptest::array::uniform12(0u32..(1 << 31) / 12),
        Just([(1u32 << 31) / 12 - 1; 12]),
    ]
}

/// Reports (once per backend) that a backend's tests were skipped on this machine.
fn skipped(backend: Backend) {
    use std::sync::Mutex;
    static REPORTED: Mutex<Vec<Backend>> = Mutex::new(Vec::new());
    let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
    if !reported.contains(&backend) {
        reported.push(backend);
        eprintln!(
            "note: backend {backend} is not supported on this machine; its tests were skipped"
        );
    }
}

macro_rules! backend_suite {
    ($module:ident, $backend:expr) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

                #[test]
                fn every_op_matches_scalar(a in lanes8(), b in lanes8(), small in any::<u32>(), exp in 0u64..400) {
                    if !check_all_ops($backend, a, b, small, exp) {
                        skipped($backend);
                    }
                }

                #[test]
                fn linear_combinations_match_scalar(
                    xs in proptest::array::uniform12(lanes8()),
                    cs in proptest::array::uniform12(element()),
                    small in small_coefficients(),
                ) {
                    if !check_linear_combinations($backend, xs, cs, small) {
                        skipped($backend);
                    }
                }

                #[test]
                fn interleave_matches_reference(a in lanes8(), b in lanes8()) {
                    if !check_interleave($backend, a, b) {
                        skipped($backend);
                    }
                }

                #[test]
                fn bulk_kernels_match_scalar(
                    ab in (0usize..70).prop_flat_map(|n| (proptest::collection::vec(element(), n), proptest::collection::vec(element(), n))),
                    c in element(),
                ) {
                    if !check_bulk_kernels($backend, &ab.0, &ab.1, c) {
                        skipped($backend);
                    }
                }
            }

            #[test]
            fn danger_pairs_exhaustively() {
                for &x in &DANGER {
                    for &y in &DANGER {
                        let a = [Goldilocks::from_u64(x); 8];
                        let b = [Goldilocks::from_u64(y); 8];
                        if !check_all_ops($backend, a, b, y as u32, x % 200) {
                            skipped($backend);
                            return;
                        }
                    }
                }
            }

            #[test]
            fn linear_combinations_of_extremes() {
                // All-maximal lanes and coefficients: the largest sums either accumulator sees.
                for &x in &[u64::MAX, P, P - 1, 1 << 63, 0xFFFF_FFFF_0000_0000] {
                    let xs = [[Goldilocks::from_u64(x); 8]; 12];
                    let cs = [Goldilocks::from_u64(u64::MAX); 12];
                    let small = [(1u32 << 31) / 12 - 1; 12];
                    if !check_linear_combinations($backend, xs, cs, small) {
                        skipped($backend);
                        return;
                    }
                }
            }

            #[test]
            fn batch_inverse_reports_the_first_zero() {
                let mut values: Vec<Goldilocks> = (1..=40u32).map(Goldilocks::from).collect();
                values[17] = Goldilocks::from_u64(P); // zero, non-canonically
                values[30] = Goldilocks::ZERO;
                let before = values.clone();
                match dispatch_on($backend, BatchInverse { values: &mut values }) {
                    Ok(result) => {
                        assert_eq!(result, Err(aurum_goldilocks::ZeroElement { index: 17 }));
                        assert_eq!(values, before);
                    }
                    Err(_) => skipped($backend),
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
fn bulk_entry_points_check_lengths_and_run_in_parallel() {
    let n = kernels::PARALLEL_THRESHOLD * 3 + 5;
    let a: Vec<Goldilocks> = (0..n as u64)
        .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
        .collect();
    let b: Vec<Goldilocks> = (0..n as u64).map(|i| Goldilocks::from_u64(!i)).collect();
    let mut out = vec![Goldilocks::ZERO; n];
    kernels::mul_slices(&mut out, &a, &b).unwrap();
    assert!(
        out.iter()
            .zip(a.iter().zip(&b))
            .all(|(o, (x, y))| *o == *x * *y)
    );
    kernels::add_slices(&mut out, &a, &b).unwrap();
    assert!(
        out.iter()
            .zip(a.iter().zip(&b))
            .all(|(o, (x, y))| *o == *x + *y)
    );
    kernels::sub_slices(&mut out, &a, &b).unwrap();
    assert!(
        out.iter()
            .zip(a.iter().zip(&b))
            .all(|(o, (x, y))| *o == *x - *y)
    );
    let expected_dot = a
        .iter()
        .zip(&b)
        .fold(Goldilocks::ZERO, |acc, (x, y)| acc + *x * *y);
    assert_eq!(kernels::dot_product(&a, &b).unwrap(), expected_dot);
    assert_eq!(
        kernels::sum(&a),
        a.iter().fold(Goldilocks::ZERO, |acc, x| acc + *x)
    );
    let mut scaled = a.clone();
    kernels::scale_slice(&mut scaled, Goldilocks::from_u64(3));
    assert!(
        scaled
            .iter()
            .zip(&a)
            .all(|(s, x)| *s == *x * Goldilocks::from_u64(3))
    );

    let mut inv = b.clone();
    kernels::batch_inverse(&mut inv).unwrap();
    assert!(inv.iter().zip(&b).all(|(i, x)| *i * *x == Goldilocks::ONE));
    // A zero deep in a later chunk: error, and nothing was inverted.
    let mut with_zero = b.clone();
    with_zero[n - 3] = Goldilocks::ZERO;
    let before = with_zero.clone();
    assert_eq!(
        kernels::batch_inverse(&mut with_zero).unwrap_err().index,
        n - 3
    );
    assert_eq!(with_zero, before);

    let err = kernels::mul_slices(&mut out[..10], &a, &b).unwrap_err();
    assert_eq!((err.left, err.right), (10, n));
    assert!(err.to_string().contains("equal lengths"), "{err}");
    assert!(kernels::dot_product(&a[1..], &b).is_err());
}

#[test]
fn this_machine_runs_every_backend_it_has() {
    let supported = Backend::supported();
    eprintln!(
        "backends tested here: {supported:?}; selected: {}",
        aurum_goldilocks::backend()
    );
    assert!(supported.contains(&Backend::Scalar));
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(
            supported.contains(&Backend::Avx2),
            std::arch::is_x86_feature_detected!("avx2")
        );
        assert_eq!(
            supported.contains(&Backend::Avx512),
            std::arch::is_x86_feature_detected!("avx512f")
        );
    }
    #[cfg(target_arch = "aarch64")]
    assert!(supported.contains(&Backend::Neon));
}
