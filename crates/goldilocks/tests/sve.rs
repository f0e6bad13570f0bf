//! The SVE backend's element-wise kernels (`aurum-sve`) against the scalar field, on every
//! pair of danger values and on random representations, at lengths around the vector length
//! (full vectors and predicated tails).
//!
//! Reported as **ignored** where SVE cannot run (other architectures, aarch64 cores without
//! SVE, builds without the C kernels): a `harness = false` binary on `libtest-mimic`.

use aurum_goldilocks::{Backend, Goldilocks, P, raw};
use libtest_mimic::{Arguments, Trial};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use aurum_testing::values::DANGER;

/// The field operation each SVE kernel must agree with.
type Reference = fn(Goldilocks, Goldilocks) -> Goldilocks;

const OPS: [(aurum_sve::Op, Reference); 3] = [
    (aurum_sve::Op::Add, |a, b| a + b),
    (aurum_sve::Op::Sub, |a, b| a - b),
    (aurum_sve::Op::Mul, |a, b| a * b),
];

fn check(a: &[u64], b: &[u64]) -> Result<(), String> {
    for (op, reference) in OPS {
        let mut out = vec![0u64; a.len()];
        if !aurum_sve::elementwise(op, a, b, &mut out) {
            return Err("aurum_sve::elementwise did not run although SVE was detected".into());
        }
        for (i, ((&x, &y), &z)) in a.iter().zip(b).zip(&out).enumerate() {
            let expected = reference(Goldilocks::from_u64(x), Goldilocks::from_u64(y));
            if z != expected.as_canonical_u64() {
                return Err(format!(
                    "{op:?} at {i}: {x:#x}, {y:#x} gave {z:#x}, expected {:#x}",
                    expected.as_canonical_u64()
                ));
            }
        }
    }
    Ok(())
}

fn danger_pairs() -> Result<(), String> {
    let a: Vec<u64> = DANGER.iter().flat_map(|&x| DANGER.map(|_| x)).collect();
    let b: Vec<u64> = DANGER.iter().flat_map(|_| DANGER).collect();
    check(&a, &b)
}

fn random_lengths() -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(0x5e5e);
    for len in (0..=70).chain([127, 128, 129, 1000]) {
        for _ in 0..4 {
            let mut draw = || {
                if rng.random_bool(0.25) {
                    DANGER[rng.random_range(0..DANGER.len())]
                } else {
                    rng.random()
                }
            };
            let a: Vec<u64> = (0..len).map(|_| draw()).collect();
            let b: Vec<u64> = (0..len).map(|_| draw()).collect();
            check(&a, &b)?;
        }
    }
    Ok(())
}

/// `kernels::mul_slices` with SVE selected equals the scalar product (the public path).
fn public_kernel() -> Result<(), String> {
    if aurum_goldilocks::backend() != Backend::Sve {
        return Ok(());
    }
    let a: Vec<Goldilocks> = (0..5000u64)
        .map(|i| Goldilocks::from_u64(u64::MAX - i * 7919))
        .collect();
    let b: Vec<Goldilocks> = (0..5000u64)
        .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .collect();
    let mut out = vec![Goldilocks::ZERO; a.len()];
    aurum_goldilocks::kernels::mul_slices(&mut out, &a, &b).map_err(|e| e.to_string())?;
    for i in 0..a.len() {
        if out[i] != a[i] * b[i] {
            return Err(format!("mul_slices at {i}"));
        }
    }
    let words = raw::words(&out);
    if words.iter().any(|&w| w >= P) {
        return Err("SVE results are canonical".into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let sve = aurum_sve::detect();
    if let Some(sve) = sve {
        eprintln!("SVE: {} at {} bits", sve.flavour, sve.vector_bits());
    }
    let trials = [
        (
            "sve_elementwise_danger_pairs",
            danger_pairs as fn() -> Result<(), String>,
        ),
        ("sve_elementwise_random_lengths", random_lengths),
        ("sve_public_kernel_when_selected", public_kernel),
    ]
    .into_iter()
    .map(|(name, f)| {
        Trial::test(name, move || f().map_err(Into::into)).with_ignored_flag(sve.is_none())
    })
    .collect();
    libtest_mimic::run(&args, trials).exit();
}
