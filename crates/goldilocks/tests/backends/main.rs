//! Every backend against the scalar reference, lane by lane, on random and "danger" inputs.
//!
//! The same generic suite runs once per backend of this target architecture (scalar, AVX2 and
//! AVX-512 on x86_64; scalar and NEON on aarch64), like Plonky3's field test macros. Each test
//! enters its backend through `dispatch_on`, so one `cargo test` on an AVX-512 machine
//! exercises scalar, AVX2 and AVX-512, whatever the build flags.
//!
//! A backend this CPU cannot run (AVX-512 on most x86 machines) is reported as **ignored**,
//! with the reason, never as passed: this is a `harness = false` test binary driven by
//! `libtest-mimic`, which decides that at run time, and it runs the property tests with
//! proptest's `TestRunner` directly.
//!
//! Failing inputs proptest has found are replayed as named regression tests (`regression_*`)
//! with the recorded values, not through a `.proptest-regressions` file: that file stores RNG
//! seeds, which silently replay a different input once a strategy changes (and a `TestRunner`
//! used without the `proptest!` macro does not know which source file it belongs to). A new
//! failure prints its shrunk input; add it to `regressions.rs`.

mod regressions;

use aurum_goldilocks::kernels::{
    self, BatchInverse, BinaryOp, DotProduct, Elementwise, Scale, SumKernel,
};
use aurum_goldilocks::{
    Backend, Canonical, Goldilocks, Kernel, P, PackedField, SmallCoefficients, dispatch_on,
};
use aurum_testing::backends::{self, BackendTest, SUPPORTED};
use aurum_testing::property::check_property;
use aurum_testing::values::{DANGER, element};
use libtest_mimic::{Arguments, Completion, Trial};
use proptest::prelude::*;
use regressions::{
    REGRESSION_BULK_A, REGRESSION_BULK_B, REGRESSION_BULK_C, with_non_canonical_twins,
};

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
        record("div_2exp", &|x, _| x.div_2exp(exp));
        record("exp7", &|x, _| x.exp7());
        // Five elements: one group of four and a remainder.
        let each = |x: P, y: P, k: usize| {
            let mut xs = [x, y, -x, x.double(), y.halve()];
            P::exp7_each(&mut xs);
            xs[k]
        };
        record("exp7_each[0]", &|x, y| each(x, y, 0));
        record("exp7_each[1]", &|x, y| each(x, y, 1));
        record("exp7_each[2]", &|x, y| each(x, y, 2));
        record("exp7_each[3]", &|x, y| each(x, y, 3));
        record("exp7_each[4]", &|x, y| each(x, y, 4));
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
        (
            "div_2exp",
            lanewise(&|x, _| x * Goldilocks::TWO.inverse().exp_u64(exp)),
        ),
        ("exp7", lanewise(&|x, _| pow7(x))),
        ("exp7_each[0]", lanewise(&|x, _| pow7(x))),
        ("exp7_each[1]", lanewise(&|_, y| pow7(y))),
        ("exp7_each[2]", lanewise(&|x, _| pow7(-x))),
        ("exp7_each[3]", lanewise(&|x, _| pow7(x + x))),
        (
            "exp7_each[4]",
            lanewise(&|_, y| pow7(y * Goldilocks::TWO.inverse())),
        ),
        ("exp_u64", lanewise(&|x, _| x.exp_u64(exp))),
    ]
}

/// `x^7` by repeated multiplication.
fn pow7(x: Goldilocks) -> Goldilocks {
    x * x * x * x * x * x * x
}

/// Checks every op of one backend against the scalar reference.
fn check_all_ops(backend: Backend, a: [Goldilocks; 8], b: [Goldilocks; 8], small: u32, exp: u64) {
    let got = dispatch_on(backend, AllOps { a, b, small, exp }).expect(SUPPORTED);
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

fn check_interleave(backend: Backend, a: [Goldilocks; 8], b: [Goldilocks; 8]) {
    let got = dispatch_on(backend, InterleaveAll { a, b }).expect(SUPPORTED);
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
}

/// The bulk kernels of `aurum_goldilocks::kernels` on one backend against scalar formulas.
fn check_bulk_kernels(backend: Backend, a: &[Goldilocks], b: &[Goldilocks], c: Goldilocks) {
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
}

/// `linear_combination` and `linear_combination_small` over 12 vectors of 8 lanes.
struct LinearCombinations {
    xs: [[Goldilocks; 8]; 12],
    cs: [Goldilocks; 12],
    small: SmallCoefficients<12>,
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

/// Checks both linear combinations of one backend lane by lane.
fn check_linear_combinations(
    backend: Backend,
    xs: [[Goldilocks; 8]; 12],
    cs: [Goldilocks; 12],
    small: [u32; 12],
) {
    let coefficients = SmallCoefficients::try_new(small).expect("coefficients sum below 2^31");
    let (full, got_small) = dispatch_on(
        backend,
        LinearCombinations {
            xs,
            cs,
            small: coefficients,
        },
    )
    .expect(SUPPORTED);
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
}

/// Small coefficients whose sum stays below 2^31 (what `SmallCoefficients` accepts), biased
/// towards the largest allowed.
fn small_coefficients() -> impl Strategy<Value = [u32; 12]> {
    prop_oneof![
        proptest::array::uniform12(0u32..64),
        proptest::array::uniform12(0u32..(1 << 31) / 12),
        Just([(1u32 << 31) / 12 - 1; 12]),
    ]
}

/// `sum_deferred` over `values.len() / 8` vectors per backend, lane by lane.
struct SumDeferred<'a> {
    values: &'a [[Goldilocks; 8]],
}

impl Kernel for SumDeferred<'_> {
    type Output = [Goldilocks; 8];

    #[inline(always)]
    fn run<P: PackedField>(self) -> [Goldilocks; 8] {
        let mut out = [Goldilocks::ZERO; 8];
        for start in (0..8).step_by(P::WIDTH) {
            let vectors: Vec<P> = self
                .values
                .iter()
                .map(|v| P::load(&v[start..start + P::WIDTH]))
                .collect();
            P::sum_deferred(&vectors).store(&mut out[start..start + P::WIDTH]);
        }
        out
    }
}

fn check_sum_deferred(backend: Backend, values: &[[Goldilocks; 8]]) {
    let got = dispatch_on(backend, SumDeferred { values }).expect(SUPPORTED);
    let expected: [Goldilocks; 8] =
        core::array::from_fn(|lane| values.iter().fold(Goldilocks::ZERO, |acc, v| acc + v[lane]));
    assert_eq!(
        got,
        expected,
        "{backend}: sum_deferred of {} vectors",
        values.len()
    );
}

/// Exponents for `mul_2exp` / `exp_u64`: small ones (every case split of the reduction of
/// `2^exp` modulo `2^192 ≡ 1`), and any `u64`.
fn exponent() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 0u64..400, 1 => any::<u64>()]
}

/// The generic suite, for one backend.
fn backend_suite(backend: Backend) -> Vec<Trial> {
    let tests: [BackendTest; 12] = [
        ("every_op_matches_scalar", |backend| {
            check_property(
                512,
                (lanes8(), lanes8(), any::<u32>(), exponent()),
                |(a, b, small, exp)| check_all_ops(backend, a, b, small, exp),
            );
        }),
        ("linear_combinations_match_scalar", |backend| {
            check_property(
                512,
                (
                    proptest::array::uniform12(lanes8()),
                    proptest::array::uniform12(element()),
                    small_coefficients(),
                ),
                |(xs, cs, small)| check_linear_combinations(backend, xs, cs, small),
            );
        }),
        ("interleave_matches_reference", |backend| {
            check_property(512, (lanes8(), lanes8()), |(a, b)| {
                check_interleave(backend, a, b)
            });
        }),
        ("bulk_kernels_match_scalar", |backend| {
            check_property(
                512,
                (
                    (0usize..70).prop_flat_map(|n| {
                        (
                            proptest::collection::vec(element(), n),
                            proptest::collection::vec(element(), n),
                        )
                    }),
                    element(),
                ),
                |((a, b), c)| check_bulk_kernels(backend, &a, &b, c),
            );
        }),
        ("sum_deferred_matches_field_sum", |backend| {
            check_property(512, proptest::collection::vec(lanes8(), 0..40), |values| {
                check_sum_deferred(backend, &values)
            });
        }),
        ("sum_deferred_of_extremes", |backend| {
            // Every addition carries: the largest carry count per length.
            for len in 0..100 {
                check_sum_deferred(backend, &vec![[Goldilocks::from_u64(u64::MAX); 8]; len]);
                check_sum_deferred(backend, &vec![[Goldilocks::from_u64(P - 1); 8]; len]);
            }
        }),
        ("danger_pairs_exhaustively", |backend| {
            for &x in &DANGER {
                for &y in &DANGER {
                    let a = [Goldilocks::from_u64(x); 8];
                    let b = [Goldilocks::from_u64(y); 8];
                    for exp in [x % 200, y, x] {
                        check_all_ops(backend, a, b, y as u32, exp);
                    }
                }
            }
        }),
        ("every_exponent_below_200_on_danger_values", |backend| {
            // mul_2exp and div_2exp: every case of their exponent splits, on every danger value.
            let a: [Goldilocks; 8] = core::array::from_fn(|i| Goldilocks::from_u64(DANGER[i]));
            let b: [Goldilocks; 8] = core::array::from_fn(|i| Goldilocks::from_u64(DANGER[i + 8]));
            for exp in 0..200 {
                check_all_ops(backend, a, b, 3, exp);
                check_all_ops(backend, b, a, 3, exp);
            }
        }),
        ("linear_combinations_of_extremes", |backend| {
            // All-maximal lanes and coefficients: the largest sums either accumulator sees.
            let largest = [(1u32 << 31) / 12 - 1; 12];
            let mut lopsided = [0u32; 12];
            lopsided[5] = (1 << 31) - 1;
            for &x in &[u64::MAX, P, P - 1, 1 << 63, 0xFFFF_FFFF_0000_0000] {
                let xs = [[Goldilocks::from_u64(x); 8]; 12];
                let cs = [Goldilocks::from_u64(u64::MAX); 12];
                check_linear_combinations(backend, xs, cs, largest);
                check_linear_combinations(backend, xs, cs, lopsided);
            }
        }),
        ("batch_inverse_reports_the_first_zero", |backend| {
            let mut values: Vec<Goldilocks> = (1..=40u32).map(Goldilocks::from).collect();
            values[17] = Goldilocks::from_u64(P); // zero, non-canonically
            values[30] = Goldilocks::ZERO;
            let before = values.clone();
            let result = dispatch_on(
                backend,
                BatchInverse {
                    values: &mut values,
                },
            )
            .expect(SUPPORTED);
            assert_eq!(result, Err(aurum_goldilocks::ZeroElement { index: 17 }));
            assert_eq!(values, before);
        }),
        ("regression_bulk_kernels_69_elements", |backend| {
            for (a, b) in with_non_canonical_twins(&REGRESSION_BULK_A, &REGRESSION_BULK_B) {
                check_bulk_kernels(backend, &a, &b, Goldilocks::from_u64(REGRESSION_BULK_C));
            }
        }),
        ("regression_every_op_on_zeros_and_four", |backend| {
            let a = [0u64; 8];
            let b = [0, 0, 0, 0, 0, 0, 0, 4];
            for (a, b) in with_non_canonical_twins(&a, &b) {
                check_all_ops(backend, a.try_into().unwrap(), b.try_into().unwrap(), 0, 0);
            }
        }),
    ];
    backends::suite(backend, &tests)
}

/// Whole-slice entry points (dispatch on the selected backend, rayon above the threshold).
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

/// The backends this library detects, against what the kernel reports in `/proc/cpuinfo`
/// (an independent source: `flags` on x86_64, `Features` on aarch64). Ignored, with the
/// reason, where the file has no such line (e.g. under an emulator that shows the host's).
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn this_machine_runs_every_backend_it_has() -> Result<Completion, libtest_mimic::Failed> {
    let key = if cfg!(target_arch = "x86_64") {
        "flags"
    } else {
        "Features"
    };
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo")
        .map_err(|e| format!("cannot read /proc/cpuinfo: {e}"))?;
    let Some(features) = cpuinfo.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        (name.trim() == key).then(|| value.split_whitespace().collect::<Vec<_>>())
    }) else {
        return Ok(Completion::ignored_with(format!(
            "/proc/cpuinfo has no `{key}` line to compare with"
        )));
    };
    let has = |feature: &str| features.contains(&feature);
    // In the order `Backend::supported` lists them: slowest to fastest.
    let mut expected = vec![Backend::Scalar];
    if has("asimd") && cfg!(target_arch = "aarch64") {
        expected.push(Backend::Neon);
    }
    if has("avx2") && cfg!(target_arch = "x86_64") {
        expected.push(Backend::Avx2);
    }
    // /proc/cpuinfo's names for the AVX-512 backend's features (F, DQ, BW, VL, BMI1, BMI2).
    let avx512 = [
        "avx512f", "avx512dq", "avx512bw", "avx512vl", "bmi1", "bmi2",
    ];
    if avx512.iter().all(|f| has(f)) && cfg!(target_arch = "x86_64") {
        expected.push(Backend::Avx512);
    }
    let supported = Backend::supported();
    eprintln!(
        "backends detected: {supported:?} (/proc/cpuinfo: {expected:?}); selected: {}",
        aurum_goldilocks::backend()
    );
    if supported == expected {
        Ok(Completion::Completed)
    } else {
        Err(format!("detected {supported:?}, but /proc/cpuinfo {key} implies {expected:?}").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = backends::of_this_arch()
        .into_iter()
        .flat_map(backend_suite)
        .collect();
    trials.push(Trial::test(
        "bulk_entry_points_check_lengths_and_run_in_parallel",
        || {
            bulk_entry_points_check_lengths_and_run_in_parallel();
            Ok(())
        },
    ));
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    trials.push(Trial::ignorable_test(
        "this_machine_runs_every_backend_it_has",
        this_machine_runs_every_backend_it_has,
    ));
    libtest_mimic::run(&args, trials).exit();
}
