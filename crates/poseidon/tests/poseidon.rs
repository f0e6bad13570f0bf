//! Poseidon (plonky2 / Polygon instance): constants, known answers on every backend and batch
//! size, the fast permutation against the naive reference, batched against sequential, and
//! the hash modes against their definitions — scalar, packed/batched and bulk.

mod common;

use aurum_goldilocks::{Backend, Goldilocks, Kernel, P, PackedField, dispatch_on};
use aurum_poseidon::constants::{PARTIAL_ROUNDS, ROUND_CONSTANTS, WIDTH};
use aurum_poseidon::{
    Digest, FastConstants, HashMode, HashNoPad, HashOrNoop, LinearHash, Poseidon, TwoToOne,
    hash_many, reference,
};
use aurum_symmetric::{Hasher, Permutation, PermuteMany, permute_many};
use aurum_testing::values::element;
use proptest::prelude::*;

type State = [Goldilocks; WIDTH];

fn g<const N: usize>(values: [u64; N]) -> [Goldilocks; N] {
    values.map(Goldilocks::from_u64)
}

/// Runs `inputs` through the permutation on `backend` with batch size `batch`.
fn run_on(backend: Backend, inputs: &[State], batch: usize) -> Option<Vec<State>> {
    let perm = Poseidon::new();
    let mut states = inputs.to_vec();
    dispatch_on(
        backend,
        PermuteMany {
            perm: &perm,
            states: &mut states,
            batch: Some(batch),
        },
    )
    .ok()?;
    Some(states)
}

/// Checks a known answer with the reference, the scalar permutation, and on every supported
/// backend and batch size, with the input repeated across more states than any backend has
/// lanes (so full batches, single packed states and tails are all covered).
fn check_kat(input: State, expected: State) {
    assert_eq!(reference::permute(input), expected, "reference");
    assert_eq!(Poseidon::new().permuted(input), expected, "scalar permute");
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            for copies in [1, 7, 8 * batch + 3] {
                let outputs = run_on(backend, &vec![input; copies], batch).expect("supported");
                assert!(
                    outputs.iter().all(|o| *o == expected),
                    "{backend} B={batch} copies={copies}"
                );
            }
        }
    }
}

#[test]
fn round_constants_are_plonky2s_and_below_p() {
    assert_eq!(ROUND_CONSTANTS.len(), 360);
    assert_eq!(
        ROUND_CONSTANTS[..4],
        [
            0xb585f766f2144405,
            0x7746a55f43921ad7,
            0xb2fb0d31cee799b4,
            0x0f6760a4803427d7
        ]
    );
    assert!(ROUND_CONSTANTS.iter().all(|&c| c < P));
    // The last constant of plonky2's table (round 29, word 11).
    assert_eq!(ROUND_CONSTANTS[359], 0xbc8dfb627fe558fc);
}

#[test]
fn known_answer_zeros() {
    check_kat([Goldilocks::ZERO; WIDTH], g(common::ZERO_STATE_PERMUTED));
}

#[test]
fn known_answer_iota() {
    check_kat(
        core::array::from_fn(|i| Goldilocks::from_u64(i as u64)),
        g([
            0xd64e1e3efc5b8e9e,
            0x53666633020aaa47,
            0xd40285597c6a8825,
            0x613a4f81e81231d2,
            0x414754bfebd051f0,
            0xcb1f8980294a023f,
            0x6eb2a9e4d54a9d0f,
            0x1902bc3af467e056,
            0xf045d5eafdc6021f,
            0xe4150f77caaa3be5,
            0xc9bfd01d39b50cce,
            0x5c0a27fcb0e1459b,
        ]),
    );
}

#[test]
fn known_answer_minus_one() {
    let expected = g([
        0xbe0085cfc57a8357,
        0xd95af71847d05c09,
        0xcf55a13d33c1c953,
        0x95803a74f4530e82,
        0xfcd99eb30a135df1,
        0xe095905e913a3029,
        0xde0392461b42919b,
        0x7d3260e24e81d031,
        0x10d3d0465d9deaa0,
        0xa87571083dfc2a47,
        0xe18263681e9958f8,
        0xe28e96f1ae5e60d3,
    ]);
    check_kat([Goldilocks::NEG_ONE; WIDTH], expected);
    // Non-canonical representations hash like their residues (p stands for zero).
    let mut shifted = [Goldilocks::ZERO; WIDTH];
    shifted[3] = Goldilocks::from_u64(P); // zero, non-canonically
    let canonical = Poseidon::new().permuted([Goldilocks::ZERO; WIDTH]);
    assert_eq!(Poseidon::new().permuted(shifted), canonical);
}

#[test]
fn known_answer_fibonacci() {
    check_kat(
        g([0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]),
        g([
            0x3095570037f4605d,
            0x3d561b5ef1bc8b58,
            0x8129db5ec75c3226,
            0x8ec2b67afb6b87ed,
            0xfc591f17d0fab161,
            0x1d2b045cc2fea1ad,
            0x8a4e3b0cb12d4527,
            0x0ff217a756ae2211,
            0x78f6e79cfc407293,
            0x3de827e086ae61c9,
            0x921456f6d2d11e27,
            0xf58a41d4028c66a5,
        ]),
    );
}

/// The first `n` Fibonacci numbers mod p, starting 0, 1.
fn fibonacci(n: usize) -> Vec<Goldilocks> {
    let mut out = vec![Goldilocks::ZERO, Goldilocks::ONE];
    while out.len() < n {
        let next = out[out.len() - 1] + out[out.len() - 2];
        out.push(next);
    }
    out.truncate(n);
    out
}

const LINEAR_HASH_KAT: [u64; 4] = [
    0xb214fea22c79ae3c,
    0x49da61deed54466a,
    0x7338cc9dba8256fd,
    0xc1043293021620ce,
];

#[test]
fn linear_hash_known_answer_every_backend_and_batch() {
    let input = fibonacci(128);
    let expected = g(LINEAR_HASH_KAT);
    assert_eq!(Poseidon::new().linear_hash(&input), expected, "scalar");
    // Many copies of the row, hashed in bulk on every backend and batch size.
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            let rows = 8 * batch + 3;
            let data = input.repeat(rows);
            let hasher = LinearHash::new(Poseidon::new().with_batch_size(batch));
            let mut digests = vec![[Goldilocks::ZERO; 4]; rows];
            dispatch_on(
                backend,
                RowsOn {
                    hasher: &hasher,
                    data: &data,
                    row_len: 128,
                    digests: &mut digests,
                },
            )
            .expect("supported");
            assert!(
                digests.iter().all(|d| *d == expected),
                "{backend} B={batch}"
            );
        }
    }
    let mut digests = vec![[Goldilocks::ZERO; 4]; 600];
    hash_many(HashMode::Linear, &input.repeat(600), 128, &mut digests).unwrap();
    assert!(digests.iter().all(|d| *d == expected), "hash_many");
}

/// Hashes rows with a chosen backend (the bulk driver dispatches on the selected one).
struct RowsOn<'a, H> {
    hasher: &'a H,
    data: &'a [Goldilocks],
    row_len: usize,
    digests: &'a mut [Digest],
}

impl<H: Hasher<4>> Kernel for RowsOn<'_, H> {
    type Output = ();

    #[inline(always)]
    fn run<Pk: PackedField>(self) {
        match self.hasher.batch_size(Pk::BACKEND) {
            4 => rows_on::<Pk, H, 4>(self),
            2 => rows_on::<Pk, H, 2>(self),
            _ => rows_on::<Pk, H, 1>(self),
        }
    }
}

#[inline(always)]
fn rows_on<Pk: PackedField, H: Hasher<4>, const B: usize>(job: RowsOn<'_, H>) {
    let group = Pk::WIDTH * B;
    let len = job.row_len;
    for (r0, out) in job
        .digests
        .chunks_mut(group)
        .enumerate()
        .map(|(i, o)| (i * group, o))
    {
        if out.len() < group {
            for (i, d) in out.iter_mut().enumerate() {
                *d = job
                    .hasher
                    .hash(&job.data[(r0 + i) * len..(r0 + i + 1) * len]);
            }
            continue;
        }
        let hashed = job.hasher.hash_packed::<Pk, B>(len, |b, lane, k| {
            job.data[(r0 + b * Pk::WIDTH + lane) * len + k]
        });
        for (b, digest) in hashed.iter().enumerate() {
            for (i, p) in digest.iter().enumerate() {
                for (lane, x) in p.as_slice().iter().enumerate() {
                    out[b * Pk::WIDTH + lane][i] = *x;
                }
            }
        }
    }
}

fn states(max: usize) -> impl Strategy<Value = Vec<State>> {
    proptest::collection::vec(proptest::array::uniform12(element()), 1..max)
}

/// The fast permutation equals the naive reference on every backend and batch size
/// (`PermuteMany` with a fixed batch runs `permute_batch::<P, B>` on packed states).
fn check_against_reference(inputs: &[State]) {
    let expected: Vec<State> = inputs.iter().map(|s| reference::permute(*s)).collect();
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            let got = run_on(backend, inputs, batch).unwrap();
            assert_eq!(got, expected, "{backend}, B={batch}");
        }
    }
}

/// Scalar hash-mode definitions, written out from the specifications.
fn no_pad_definition(perm: &Poseidon, input: &[Goldilocks]) -> Digest {
    let mut state = [Goldilocks::ZERO; WIDTH];
    for chunk in input.chunks(8) {
        for (i, x) in chunk.iter().enumerate() {
            state[i] = *x;
        }
        state = reference::permute(state);
    }
    let _ = perm;
    [state[0], state[1], state[2], state[3]]
}

fn linear_definition(input: &[Goldilocks]) -> Digest {
    if input.len() <= 4 {
        return core::array::from_fn(|i| input.get(i).copied().unwrap_or(Goldilocks::ZERO));
    }
    let mut digest = [Goldilocks::ZERO; 4];
    for (index, block) in input.chunks(8).enumerate() {
        let mut state = [Goldilocks::ZERO; WIDTH];
        state[..block.len()].copy_from_slice(block);
        if index > 0 {
            state[8..].copy_from_slice(&digest);
        }
        let out = reference::permute(state);
        digest = [out[0], out[1], out[2], out[3]];
    }
    digest
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fast_matches_reference(inputs in states(40)) {
        check_against_reference(&inputs);
    }

    #[test]
    fn batched_equals_sequential_packed(inputs in proptest::collection::vec(proptest::array::uniform12(element()), 32)) {
        for backend in Backend::supported() {
            let got = dispatch_on(backend, BatchedVsSequential { inputs: &inputs }).unwrap();
            prop_assert!(got, "{}", backend);
        }
    }

    #[test]
    fn permute_many_equals_scalar(inputs in states(1200)) {
        let perm = Poseidon::new();
        let mut bulk = inputs.clone();
        permute_many(&perm, &mut bulk);
        let scalar: Vec<_> = inputs.iter().map(|s| perm.permuted(*s)).collect();
        prop_assert_eq!(&bulk, &scalar);
        let mut bulk2 = inputs.clone();
        aurum_poseidon::permute_many(&mut bulk2);
        prop_assert_eq!(bulk2, scalar);
    }

    #[test]
    fn hash_modes_match_definitions(input in proptest::collection::vec(element(), 0..40)) {
        let perm = Poseidon::new();
        let no_pad = no_pad_definition(&perm, &input);
        prop_assert_eq!(perm.hash_no_pad(&input), no_pad);
        let or_noop = if input.len() <= 4 {
            core::array::from_fn(|i| input.get(i).copied().unwrap_or(Goldilocks::ZERO))
        } else {
            no_pad
        };
        prop_assert_eq!(perm.hash_or_noop(&input), or_noop);
        prop_assert_eq!(perm.linear_hash(&input), linear_definition(&input));
        if input.len() <= 8 && input.len() > 4 {
            prop_assert_eq!(perm.linear_hash(&input), no_pad);
        }
    }

    #[test]
    fn bulk_hash_modes_equal_scalar(
        (row_len, rows) in (0usize..20).prop_flat_map(|len| (Just(len), proptest::collection::vec(proptest::collection::vec(element(), len), 1..70))),
    ) {
        let perm = Poseidon::new();
        let data: Vec<Goldilocks> = rows.concat();
        for mode in [HashMode::NoPad, HashMode::OrNoop, HashMode::Linear] {
            let mut digests = vec![[Goldilocks::ONE; 4]; rows.len()];
            hash_many(mode, &data, row_len, &mut digests).unwrap();
            for (row, digest) in rows.iter().zip(&digests) {
                prop_assert_eq!(*digest, perm.hash(mode, row), "{:?} len {}", mode, row_len);
            }
            // Every backend and batch size through the packed form.
            for backend in Backend::supported() {
                for batch in aurum_symmetric::BATCH_SIZES {
                    let p = perm.with_batch_size(batch);
                    let mut got = vec![[Goldilocks::ONE; 4]; rows.len()];
                    let run = |digests: &mut [Digest]| match mode {
                        HashMode::NoPad => dispatch_on(backend, RowsOn { hasher: &HashNoPad::new(p), data: &data, row_len, digests }),
                        HashMode::OrNoop => dispatch_on(backend, RowsOn { hasher: &HashOrNoop::new(p), data: &data, row_len, digests }),
                        HashMode::Linear => dispatch_on(backend, RowsOn { hasher: &LinearHash::new(p), data: &data, row_len, digests }),
                    };
                    run(&mut got).unwrap();
                    prop_assert_eq!(&got, &digests, "{:?} {} B={}", mode, backend, batch);
                }
            }
        }
    }

    #[test]
    fn two_to_one_layers(pairs in proptest::collection::vec(proptest::array::uniform4(element()), 2..80)) {
        let perm = Poseidon::new();
        let compression = TwoToOne::new(perm);
        let children = &pairs[..pairs.len() / 2 * 2];
        let mut parents = vec![[Goldilocks::ZERO; 4]; children.len() / 2];
        compression.compress_layer(children, &mut parents).unwrap();
        for (j, parent) in parents.iter().enumerate() {
            let (l, r) = (children[2 * j], children[2 * j + 1]);
            let mut state = [Goldilocks::ZERO; WIDTH];
            state[..4].copy_from_slice(&l);
            state[4..8].copy_from_slice(&r);
            let out = reference::permute(state);
            prop_assert_eq!(*parent, [out[0], out[1], out[2], out[3]]);
            prop_assert_eq!(perm.two_to_one(l, r), *parent);
        }
    }
}

/// `permute_batch::<P, B>` for B = 2, 4 equals B single packed permutations, on the backend
/// it is dispatched to.
struct BatchedVsSequential<'a> {
    inputs: &'a [State],
}

impl Kernel for BatchedVsSequential<'_> {
    type Output = bool;

    #[inline(always)]
    fn run<Pk: PackedField>(self) -> bool {
        let perm = Poseidon::new();
        let pack = |b: usize| -> [Pk; WIDTH] {
            core::array::from_fn(|i| {
                Pk::from_fn(|lane| self.inputs[(b * Pk::WIDTH + lane) % self.inputs.len()][i])
            })
        };
        let sequential: [[Pk; WIDTH]; 4] = core::array::from_fn(|b| {
            let mut s = pack(b);
            perm.permute_packed(&mut s);
            s
        });
        let mut two: [[Pk; WIDTH]; 2] = core::array::from_fn(pack);
        perm.permute_batch::<Pk, 2>(&mut two);
        let mut four: [[Pk; WIDTH]; 4] = core::array::from_fn(pack);
        perm.permute_batch::<Pk, 4>(&mut four);
        two[..] == sequential[..2] && four == sequential
    }
}

#[test]
fn hash_modes_at_the_boundaries() {
    let perm = Poseidon::new();
    let fib = fibonacci(17);
    let zero = [Goldilocks::ZERO; 4];
    // Empty input: zeros in every mode, no permutation.
    assert_eq!(perm.hash_no_pad(&[]), zero);
    assert_eq!(perm.hash_or_noop(&[]), zero);
    assert_eq!(perm.linear_hash(&[]), zero);
    for len in [1, 3, 4, 5, 8, 9, 16, 17] {
        let input = &fib[..len];
        let no_pad = no_pad_definition(&perm, input);
        assert_eq!(perm.hash_no_pad(input), no_pad, "no_pad {len}");
        assert_eq!(
            perm.linear_hash(input),
            linear_definition(input),
            "linear {len}"
        );
        if len <= 4 {
            let copied: Digest =
                core::array::from_fn(|i| input.get(i).copied().unwrap_or_default());
            assert_eq!(perm.hash_or_noop(input), copied);
            assert_eq!(perm.linear_hash(input), copied);
            assert_ne!(
                perm.hash_no_pad(input),
                copied,
                "hash_no_pad hashes short inputs"
            );
        } else {
            assert_eq!(perm.hash_or_noop(input), no_pad);
        }
        // The two families agree up to one block and differ after it.
        if len > 4 && len <= 8 {
            assert_eq!(perm.linear_hash(input), no_pad, "{len}");
        }
        if len > 8 {
            assert_ne!(perm.linear_hash(input), no_pad, "{len}");
        }
    }
}

#[test]
fn bulk_forms_reject_wrong_lengths() {
    let mut digests = vec![[Goldilocks::ZERO; 4]; 3];
    for mode in [HashMode::NoPad, HashMode::OrNoop, HashMode::Linear] {
        let err = hash_many(mode, &[Goldilocks::ONE; 10], 4, &mut digests).unwrap_err();
        assert_eq!((err.expected, err.found), (12, 10));
        assert!(err.to_string().contains("expected 12"), "{err}");
    }
    // A product of lengths that overflows is an error too, not a panic.
    let mut huge: Vec<Digest> = vec![[Goldilocks::ZERO; 4]; 2];
    assert!(hash_many(HashMode::Linear, &[], usize::MAX, &mut huge).is_err());
    let compression = TwoToOne::new(Poseidon::new());
    let mut parents = vec![[Goldilocks::ZERO; 4]; 2];
    assert!(
        compression
            .compress_layer(&[[Goldilocks::ONE; 4]; 5], &mut parents)
            .is_err()
    );
}

#[test]
fn fast_constants_shape() {
    let c = Poseidon::new().fast_constants();
    assert_eq!(c, &FastConstants::derive());
    // The last partial round carries no constant of its own (moved into round 26).
    assert_eq!(c.partial.len(), PARTIAL_ROUNDS);
    assert_eq!(
        c.partial[0],
        Goldilocks::from_u64(ROUND_CONSTANTS[4 * WIDTH])
    );
}
