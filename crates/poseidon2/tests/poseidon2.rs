//! Poseidon2: constants, known answers on every backend and batch size, the optimised
//! permutation against the naive reference, bulk and sponge/compression forms.

use aurum_goldilocks::{Backend, Goldilocks, P, dispatch_on};
use aurum_poseidon2::{
    LinearLayers, Poseidon2, Poseidon2Goldilocks, Poseidon2HorizenLabs, RoundConstants, reference,
};
use aurum_symmetric::{
    BATCH_ENV, BATCH_SIZES, BatchChoice, BatchRequest, Compressor, Hasher, PaddingFreeSponge,
    Permutation, PermuteMany, TruncatedPermutation, measure_batch_sizes, parse_batch_request,
    permute_many, requested_batch,
};
use aurum_testing::values::element;
use proptest::prelude::*;

fn g<const W: usize>(values: [u64; W]) -> [Goldilocks; W] {
    values.map(Goldilocks::from_u64)
}

fn iota<const W: usize>() -> [Goldilocks; W] {
    core::array::from_fn(|i| Goldilocks::from_u64(i as u64))
}

/// Runs `inputs` through `perm` on `backend` with batch size `batch`; `None` if unsupported.
fn run_on<Perm: Permutation<W>, const W: usize>(
    backend: Backend,
    perm: &Perm,
    inputs: &[[Goldilocks; W]],
    batch: usize,
) -> Option<Vec<[Goldilocks; W]>> {
    let mut states = inputs.to_vec();
    dispatch_on(
        backend,
        PermuteMany {
            perm,
            states: &mut states,
            batch: Some(batch),
        },
    )
    .ok()?;
    Some(states)
}

/// Checks a known answer on every supported backend and batch size, with the input repeated
/// across more states than any backend has lanes (so packed lanes and tails are all covered).
fn check_kat<Perm: Permutation<W>, const W: usize>(
    perm: &Perm,
    input: [Goldilocks; W],
    expected: [Goldilocks; W],
) {
    assert_eq!(perm.permuted(input), expected, "scalar permute");
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            for copies in [1, 7, 8 * batch + 3] {
                let inputs = vec![input; copies];
                let outputs = run_on(backend, perm, &inputs, batch).expect("supported");
                assert!(
                    outputs.iter().all(|o| *o == expected),
                    "{backend} B={batch} copies={copies}"
                );
            }
        }
    }
}

#[test]
fn round_constants_come_from_the_grain_lfsr() {
    let c8 = RoundConstants::<8>::generate();
    assert_eq!(
        c8.initial[0],
        g([
            0xdd5743e7f2a5a5d9,
            0xcb3a864e58ada44b,
            0xffa2449ed32f8cdc,
            0x42025f65d6bd13ee,
            0x7889175e25506323,
            0x34b98bb03d24b737,
            0xbdcc535ecc4faa2a,
            0x5b20ad869fc0d033
        ])
    );
    assert_eq!(c8.internal[0], Goldilocks::from_u64(0x488897d85ff51f56));
    assert_eq!(
        RoundConstants::<12>::generate().internal[0],
        Goldilocks::from_u64(0x4adf842aa75d4316)
    );
    for constants in [
        RoundConstants::<8>::generate().initial.concat(),
        RoundConstants::<12>::generate().terminal.concat(),
        RoundConstants::<16>::generate().initial.concat(),
        RoundConstants::<16>::generate().internal.to_vec(),
    ] {
        // Stored canonically: each is below p.
        assert!(constants.iter().all(|c| c.as_canonical_u64() < P));
    }
}

#[test]
fn plonky3_w8_known_answer() {
    check_kat(
        &Poseidon2Goldilocks::<8>::new(),
        iota(),
        g([
            0x020cf04a1b214d14,
            0x84e14aaaeacaed25,
            0x1ae0f640e81c7457,
            0xa4d204cbaeb0d8a5,
            0x0cf637b627b3a7ff,
            0x788d304d948b486b,
            0x7327133ea1949af4,
            0xf415abb924da395b,
        ]),
    );
}

#[test]
fn plonky3_w12_known_answer() {
    check_kat(
        &Poseidon2Goldilocks::<12>::new(),
        iota(),
        g([
            0xf292ab67c0f14b03,
            0x0a32f1b37656544c,
            0x053c61ab895498de,
            0x02ff92e55b196ffb,
            0x58176e8f6f58cab2,
            0xb0aa1206e7aec0f8,
            0xe90c13f3dce83ca4,
            0xf4da15333edf39c2,
            0x23b701c053c2ca6c,
            0xd233d593dcdfbf58,
            0x4effa5f9516fb52e,
            0x0aaf4489f1f40166,
        ]),
    );
}

#[test]
fn plonky3_w16_known_answer() {
    check_kat(
        &Poseidon2Goldilocks::<16>::new(),
        g([
            0x4d3f967fab9d4979,
            0x57e1fba55677697e,
            0x57429a86e75a3774,
            0x31d379f3a592b5eb,
            0x497232e1b648e3f1,
            0x325a7db57173c39e,
            0xa802252d78bee916,
            0x8920f55e154adef8,
            0xa1225bc9c7913658,
            0xd687be5097ffd038,
            0x89f514ef0c913e48,
            0x21fd4a9cf548cd84,
            0x570a1586ada436ff,
            0x46bfbf38ccd740ae,
            0x23651b3f3ab26484,
            0xe90f3b02127fa552,
        ]),
        g([
            0xf0f7717837c7032a,
            0xf12fbcc838feb15b,
            0xd8661f6fa4165ad8,
            0x351cdc546760d1a9,
            0x99474334bf02445f,
            0x46fc4e9ceb376d6a,
            0x4601808321fcd920,
            0xc58bfd0342dc60df,
            0xb7f3acd43f3c029c,
            0x5c7afa6a6997dfc5,
            0xecbef8b82906c887,
            0xd490e3b4e945d87c,
            0x31866766b83ebe0b,
            0xb32d52f6e7a5bea2,
            0x9522431667b3c5f9,
            0xeaf5638a69518f65,
        ]),
    );
}

#[test]
fn horizen_labs_w8_known_answers() {
    let perm = Poseidon2HorizenLabs::<8>::new();
    check_kat(
        &perm,
        [Goldilocks::ZERO; 8],
        g([
            4214787979728720400,
            12324939279576102560,
            10353596058419792404,
            15456793487362310586,
            10065219879212154722,
            16227496357546636742,
            2959271128466640042,
            14285409611125725709,
        ]),
    );
    check_kat(
        &perm,
        iota(),
        g([
            14266028122062624699,
            5353147180106052723,
            15203350112844181434,
            17630919042639565165,
            16601551015858213987,
            10184091939013874068,
            16774100645754596496,
            12047415603622314780,
        ]),
    );
    check_kat(
        &perm,
        g([
            5116996373749832116,
            8931548647907683339,
            17132360229780760684,
            11280040044015983889,
            11957737519043010992,
            15695650327991256125,
            17604752143022812942,
            543194415197607509,
        ]),
        g([
            1831346684315917658,
            13497752062035433374,
            12149460647271516589,
            15656333994315312197,
            4671534937670455565,
            3140092508031220630,
            4251208148861706881,
            6973971209430822232,
        ]),
    );
}

#[test]
fn horizen_labs_w12_known_answer() {
    check_kat(
        &Poseidon2HorizenLabs::<12>::new(),
        iota(),
        g([
            0x01eaef96bdf1c0c1,
            0x1f0d2cc525b2540c,
            0x6282c1dfe1e0358d,
            0xe780d721f698e1e6,
            0x280c0b6f753d833b,
            0x1b942dd5023156ab,
            0x43f0df3fcccb8398,
            0xe8e8190585489025,
            0x56bdbf72f77ada22,
            0x7911c32bf9dcd705,
            0xec467926508fbe67,
            0x6a50450ddf85a6ed,
        ]),
    );
}

fn states<const W: usize>(max: usize) -> impl Strategy<Value = Vec<[Goldilocks; W]>> {
    proptest::collection::vec(proptest::array::uniform(element()), 1..max)
}

/// The optimised permutation equals the naive reference on every backend and batch size.
fn check_against_reference<L: LinearLayers<W>, const W: usize>(
    inputs: &[[Goldilocks; W]],
    m4: &[[u64; 4]; 4],
) {
    let perm = Poseidon2::<L, W>::new();
    let diagonal = L::internal_diagonal();
    let expected: Vec<_> = inputs
        .iter()
        .map(|s| reference::permute(perm.constants(), m4, &diagonal, *s))
        .collect();
    for backend in Backend::supported() {
        for batch in aurum_symmetric::BATCH_SIZES {
            let got = run_on(backend, &perm, inputs, batch).unwrap();
            assert_eq!(got, expected, "{} W={W} on {backend}, B={batch}", L::NAME);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn plonky3_matches_reference_w8(inputs in states::<8>(40)) {
        check_against_reference::<aurum_poseidon2::Plonky3Layers, 8>(&inputs, &reference::PLONKY3_M4);
    }

    #[test]
    fn plonky3_matches_reference_w12(inputs in states::<12>(40)) {
        check_against_reference::<aurum_poseidon2::Plonky3Layers, 12>(&inputs, &reference::PLONKY3_M4);
    }

    #[test]
    fn plonky3_matches_reference_w16(inputs in states::<16>(40)) {
        check_against_reference::<aurum_poseidon2::Plonky3Layers, 16>(&inputs, &reference::PLONKY3_M4);
    }

    #[test]
    fn horizen_labs_matches_reference_w8(inputs in states::<8>(40)) {
        check_against_reference::<aurum_poseidon2::HorizenLabsLayers, 8>(&inputs, &reference::HORIZEN_LABS_M4);
    }

    #[test]
    fn horizen_labs_matches_reference_w12(inputs in states::<12>(40)) {
        check_against_reference::<aurum_poseidon2::HorizenLabsLayers, 12>(&inputs, &reference::HORIZEN_LABS_M4);
    }

    #[test]
    fn permute_many_equals_scalar(inputs in states::<12>(1200)) {
        let perm = Poseidon2Goldilocks::<12>::new();
        let mut bulk = inputs.clone();
        permute_many(&perm, &mut bulk);
        let scalar: Vec<_> = inputs.iter().map(|s| perm.permuted(*s)).collect();
        prop_assert_eq!(bulk, scalar);
    }

    #[test]
    fn sponge_and_compression_forms_agree(
        rows in proptest::collection::vec(proptest::collection::vec(element(), 13), 1..80),
        pairs in proptest::collection::vec(proptest::array::uniform4(element()), 2..80),
    ) {
        let sponge = PaddingFreeSponge::<_, 8, 4, 4>::new(Poseidon2Goldilocks::<8>::new());
        let data: Vec<Goldilocks> = rows.concat();
        let mut digests = vec![[Goldilocks::ZERO; 4]; rows.len()];
        sponge.hash_rows(&data, 13, &mut digests).unwrap();
        for (row, digest) in rows.iter().zip(&digests) {
            prop_assert_eq!(*digest, sponge.hash(row));
        }
        let compression = TruncatedPermutation::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
        let children = &pairs[..pairs.len() / 2 * 2];
        let mut parents = vec![[Goldilocks::ZERO; 4]; children.len() / 2];
        compression.compress_layer(children, &mut parents).unwrap();
        for (j, parent) in parents.iter().enumerate() {
            prop_assert_eq!(*parent, compression.compress([children[2 * j], children[2 * j + 1]]));
        }
    }
}

#[test]
fn sponge_definition() {
    let perm = Poseidon2Goldilocks::<8>::new();
    let sponge = PaddingFreeSponge::<_, 8, 4, 4>::new(perm.clone());
    // Empty input: no permutation, zero digest.
    assert_eq!(sponge.hash(&[]), [Goldilocks::ZERO; 4]);
    // Six elements: a full block, then a partial block overwriting only two positions.
    let input: Vec<Goldilocks> = (1..=6u32).map(Goldilocks::from).collect();
    let mut state = [Goldilocks::ZERO; 8];
    state[..4].copy_from_slice(&input[..4]);
    perm.permute(&mut state);
    state[..2].copy_from_slice(&input[4..]);
    perm.permute(&mut state);
    assert_eq!(
        sponge.hash(&input),
        [state[0], state[1], state[2], state[3]]
    );
    // Compression: [left, right] then permute, keep four.
    let compression = TruncatedPermutation::<_, 8, 4>::new(perm.clone());
    let (l, r) = (g([1, 2, 3, 4]), g([5, 6, 7, 8]));
    let out = perm.permuted(g([1, 2, 3, 4, 5, 6, 7, 8]));
    assert_eq!(
        compression.compress([l, r]),
        [out[0], out[1], out[2], out[3]]
    );
}

#[test]
fn bulk_forms_reject_wrong_lengths() {
    let sponge = PaddingFreeSponge::<_, 8, 4, 4>::new(Poseidon2Goldilocks::<8>::new());
    let mut digests = vec![[Goldilocks::ZERO; 4]; 3];
    let err = sponge
        .hash_rows(&[Goldilocks::ONE; 10], 4, &mut digests)
        .unwrap_err();
    assert_eq!((err.expected, err.found), (12, 10));
    assert!(err.to_string().contains("expected 12"), "{err}");
    let compression = TruncatedPermutation::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    let mut parents = vec![[Goldilocks::ZERO; 4]; 2];
    assert!(
        compression
            .compress_layer(&[[Goldilocks::ONE; 4]; 5], &mut parents)
            .is_err()
    );
}

/// The measured batch choice: every backend this CPU runs gets a size that is one of
/// `BATCH_SIZES`, timed at every size, and the size it keeps is the fastest it timed.
#[test]
fn batch_choice_is_measured_on_every_backend() {
    let perm = Poseidon2Goldilocks::<8>::new();
    for backend in aurum_testing::backends::of_this_arch() {
        if !backend.is_supported() {
            continue;
        }
        let m = measure_batch_sizes(&perm, backend);
        assert!(!m.forced);
        assert!(BATCH_SIZES.contains(&m.batch), "{backend}: {m:?}");
        assert!(
            m.ns_per_state.iter().all(|t| t.is_finite() && *t > 0.0),
            "{backend}: {m:?}"
        );
        let chosen = BATCH_SIZES.iter().position(|b| *b == m.batch).unwrap();
        assert!(
            m.ns_per_state.iter().all(|t| *t >= m.ns_per_state[chosen]),
            "{backend}: kept a slower size: {m:?}"
        );
    }
    // One choice per permutation type, shared by its values.
    assert!(core::ptr::eq(
        BatchChoice::of::<Poseidon2Goldilocks<8>>(),
        BatchChoice::of::<Poseidon2Goldilocks<8>>()
    ));
    assert!(!core::ptr::eq(
        BatchChoice::of::<Poseidon2Goldilocks<8>>(),
        BatchChoice::of::<Poseidon2Goldilocks<12>>()
    ));
}

#[test]
fn batch_requests_parse() {
    for (value, expected) in [
        ("", Some(BatchRequest::Measure)),
        (" auto ", Some(BatchRequest::Measure)),
        ("AUTO", Some(BatchRequest::Measure)),
        ("1", Some(BatchRequest::Fixed(1))),
        ("2", Some(BatchRequest::Fixed(2))),
        ("4", Some(BatchRequest::Fixed(4))),
        ("3", None),
        ("0", None),
        ("8", None),
        ("-1", None),
        ("two", None),
    ] {
        assert_eq!(parse_batch_request(value).ok(), expected, "{value:?}");
    }
}

/// Set in the child processes of `aurum_batch_forces_a_size_or_warns`.
const BATCH_CHILD_ENV: &str = "AURUM_TEST_BATCH_CHILD";
const BATCH_CHILD_PASSED: &str = "batch child passed";

/// `AURUM_BATCH` is read once per process, so each value is checked in a child process (this
/// test binary again, running only this test): a size forces it without measuring; `auto`
/// measures; an invalid value measures after exactly one warning naming the value, and
/// [`requested_batch`] reports it.
#[test]
fn aurum_batch_forces_a_size_or_warns() {
    if let Ok(value) = std::env::var(BATCH_CHILD_ENV) {
        let perm = Poseidon2Goldilocks::<12>::new();
        let backend = aurum_goldilocks::backend();
        let batch = perm.batch_size(backend);
        let decided = BatchChoice::of::<Poseidon2Goldilocks<12>>()
            .decided(backend)
            .copied()
            .expect("batch_size decided it");
        // The choice changes speed only: the bulk form equals the scalar one either way.
        let mut states: Vec<[Goldilocks; 12]> = (0..100u64)
            .map(|i| core::array::from_fn(|j| Goldilocks::from_u64(i * 12 + j as u64)))
            .collect();
        let expected: Vec<_> = states.iter().map(|s| perm.permuted(*s)).collect();
        permute_many(&perm, &mut states);
        assert_eq!(states, expected);
        match value.as_str() {
            "2" | "4" => {
                assert_eq!(batch, value.parse::<usize>().unwrap());
                assert!(decided.forced);
                assert_eq!(decided.took, std::time::Duration::ZERO);
            }
            _ => {
                assert!(!decided.forced);
                assert!(decided.ns_per_state.iter().all(|t| *t > 0.0));
            }
        }
        assert_eq!(requested_batch().is_ok(), value != "7");
        // An explicit size wins over the variable.
        assert_eq!(perm.clone().with_batch_size(1).batch_size(backend), 1);
        println!("{BATCH_CHILD_PASSED}");
        return;
    }
    for value in ["2", "4", "auto", "7"] {
        let output = aurum_testing::process::this_test_again()
            .unwrap()
            .args([
                "--exact",
                "aurum_batch_forces_a_size_or_warns",
                "--nocapture",
            ])
            .env(BATCH_ENV, value)
            .env(BATCH_CHILD_ENV, value)
            .output()
            .expect("the child starts");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!("{BATCH_ENV}={value}: {}\n{stdout}\n{stderr}", output.status);
        assert!(
            output.status.success() && stdout.contains(BATCH_CHILD_PASSED),
            "{context}"
        );
        let warnings = stderr.lines().filter(|l| l.contains(BATCH_ENV)).count();
        let expected = usize::from(value == "7");
        assert_eq!(warnings, expected, "{context}");
        if value == "7" {
            assert!(stderr.contains("\"7\""), "{context}");
        }
    }
}
