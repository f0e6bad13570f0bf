//! The single-state (latency) forms of the permutation — the vector forms that
//! [`Permutation::permute`] runs on AVX2 and AVX-512, one state's 12 words across vector
//! registers — against the scalar form and the naive reference: random states, states of
//! danger values (non-canonical representations included), the known answers, and the scalar
//! hash modes built on `permute`.
//!
//! One trial per check and backend of this architecture, reported as **ignored** where this
//! CPU cannot run the backend (a `harness = false` binary on `libtest-mimic`).

mod common;

use aurum_goldilocks::{Backend, Goldilocks};
use aurum_poseidon::constants::WIDTH;
use aurum_poseidon::{HashNoPad, HashOrNoop, LinearHash, Poseidon, TwoToOne, reference};
use aurum_symmetric::{Compressor, Hasher, Permutation};
use aurum_testing::backends::{BackendTest, of_this_arch, suite};
use aurum_testing::values::DANGER;
use libtest_mimic::Arguments;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

type State = [Goldilocks; WIDTH];

/// The permutation with `backend`'s single-state form.
fn on(backend: Backend) -> Poseidon {
    Poseidon::new().with_single_state_backend(backend)
}

/// The permutation with the scalar single-state form: the generic round code.
fn scalar() -> Poseidon {
    let perm = on(Backend::Scalar);
    assert_eq!(perm.single_state_backend(), Backend::Scalar);
    perm
}

/// A random element, a danger value one time in four (stored as given: non-canonical values
/// stay non-canonical).
fn element(rng: &mut StdRng) -> Goldilocks {
    Goldilocks::from_u64(if rng.random_bool(0.25) {
        DANGER[rng.random_range(0..DANGER.len())]
    } else {
        rng.random()
    })
}

/// The form is the backend's own wherever this CPU has what it needs (AVX2 with BMI2; AVX-512
/// also with AVX-512VL, else its AVX2 form), so the checks below test the vector code.
fn form_is_the_backends(backend: Backend) {
    let got = on(backend).single_state_backend();
    let expected = match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 | Backend::Avx512 if !std::arch::is_x86_feature_detected!("bmi2") => {
            Backend::Scalar
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if !std::arch::is_x86_feature_detected!("avx512vl") => Backend::Avx2,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 | Backend::Avx512 => backend,
        _ => Backend::Scalar,
    };
    assert_eq!(got, expected, "the single-state form chosen for {backend}");
}

fn random_states_match_scalar(backend: Backend) {
    let (perm, scalar) = (on(backend), scalar());
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    for i in 0..4000 {
        let input: State = core::array::from_fn(|_| element(&mut rng));
        let got = perm.permuted(input);
        assert_eq!(
            got,
            scalar.permuted(input),
            "{backend}: state {i}: {input:?}"
        );
        if i % 100 == 0 {
            assert_eq!(
                got,
                reference::permute(input),
                "{backend}: reference, state {i}"
            );
        }
    }
}

/// Every state of one danger value with another danger value at one position, and the states
/// of danger values in every position's rotation.
fn danger_states_match_scalar(backend: Backend) {
    let (perm, scalar) = (on(backend), scalar());
    let g = Goldilocks::from_u64;
    for &a in &DANGER {
        for &b in &DANGER {
            for position in 0..WIDTH {
                let mut input = [g(a); WIDTH];
                input[position] = g(b);
                assert_eq!(
                    perm.permuted(input),
                    scalar.permuted(input),
                    "{backend}: {a:#x} with {b:#x} at {position}"
                );
            }
        }
    }
    for start in 0..DANGER.len() {
        let input: State = core::array::from_fn(|i| g(DANGER[(start + i) % DANGER.len()]));
        assert_eq!(
            perm.permuted(input),
            scalar.permuted(input),
            "{backend}: rotation {start}"
        );
    }
}

/// plonky2's known answer for the zero state (`poseidon_goldilocks.rs` tests), and the chained
/// permutations of a state fed back 1000 times.
fn known_answers(backend: Backend) {
    let perm = on(backend);
    let expected = common::ZERO_STATE_PERMUTED.map(Goldilocks::from_u64);
    assert_eq!(
        perm.permuted([Goldilocks::ZERO; WIDTH]),
        expected,
        "{backend}"
    );
    let (mut ours, mut theirs) = (
        [Goldilocks::from_u64(u64::MAX); WIDTH],
        [Goldilocks::from_u64(u64::MAX); WIDTH],
    );
    for _ in 0..1000 {
        perm.permute(&mut ours);
        theirs = reference::permute(theirs);
    }
    assert_eq!(ours, theirs, "{backend}: 1000 chained permutations");
}

/// The scalar hash modes (built on `permute`) agree with the scalar form's.
fn hash_modes_match_scalar(backend: Backend) {
    let mut rng = StdRng::seed_from_u64(0x5eed_0002);
    let (perm, scalar) = (on(backend), scalar());
    for len in 0..40 {
        let input: Vec<Goldilocks> = (0..len).map(|_| element(&mut rng)).collect();
        assert_eq!(
            HashNoPad::new(perm).hash(&input),
            HashNoPad::new(scalar).hash(&input),
            "{backend}: hash_no_pad of {len}"
        );
        assert_eq!(
            HashOrNoop::new(perm).hash(&input),
            HashOrNoop::new(scalar).hash(&input),
            "{backend}: hash_or_noop of {len}"
        );
        assert_eq!(
            LinearHash::new(perm).hash(&input),
            LinearHash::new(scalar).hash(&input),
            "{backend}: linear_hash of {len}"
        );
    }
    for _ in 0..200 {
        let pair: [[Goldilocks; 4]; 2] =
            core::array::from_fn(|_| core::array::from_fn(|_| element(&mut rng)));
        assert_eq!(
            TwoToOne::new(perm).compress(pair),
            TwoToOne::new(scalar).compress(pair),
            "{backend}: two_to_one"
        );
    }
}

const TESTS: &[BackendTest] = &[
    ("single_state::form_is_the_backends", form_is_the_backends),
    (
        "single_state::random_states_match_scalar",
        random_states_match_scalar,
    ),
    (
        "single_state::danger_states_match_scalar",
        danger_states_match_scalar,
    ),
    ("single_state::known_answers", known_answers),
    (
        "single_state::hash_modes_match_scalar",
        hash_modes_match_scalar,
    ),
];

fn main() {
    let trials = of_this_arch()
        .into_iter()
        .flat_map(|backend| suite(backend, TESTS))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
