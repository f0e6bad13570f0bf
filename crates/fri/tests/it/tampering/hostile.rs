//! Inconsistent or hostile claims, bad parameters, requests and matrices, and encodings that
//! are garbage or one bit off: typed errors, never a panic, never a verified proof.

use aurum_fri::{
    CommitError, CommitmentClaim, Evaluations, FriParameters, FriPcs, FriProof, OpenError,
    OpeningRequest, ParamsError, VerifyError, codec,
};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::config::{Poseidon2W8, poseidon2_w8};
use proptest::prelude::*;

use super::{Fixture, challenger, params};

#[test]
fn inconsistent_or_hostile_claims_are_typed_errors() {
    let f = Fixture::new(params(), 0);
    let with = |change: &dyn Fn(&mut Vec<CommitmentClaim>)| {
        let mut claims = f.claims.clone();
        change(&mut claims);
        f.verify(&claims, &f.proof)
            .expect_err("altered claims verified")
    };
    assert_eq!(
        with(&|c| c[0].matrices[1].points.clear()),
        VerifyError::NoPoints {
            batch: 0,
            matrix: 1
        }
    );
    assert!(matches!(
        with(&|c| {
            c[0].matrices[0].points[1].values.pop();
        }),
        VerifyError::ValueCount {
            batch: 0,
            matrix: 0,
            point: 1,
            ..
        }
    ));
    assert_eq!(
        with(&|c| c.iter_mut().for_each(|c| c.matrices.clear())),
        VerifyError::NoCommittedMatrices
    );
    for log_height in [31, 40, usize::MAX] {
        assert_eq!(
            with(&|c| c[1].matrices[0].log_height = log_height),
            VerifyError::ClaimTooTall {
                batch: 1,
                matrix: 0,
                log_height
            }
        );
    }
    // A claimed value, a point, a height, a width or a commitment the proof is not about.
    let _ = with(&|c| c[1].matrices[0].points[0].values[2] += Goldilocks2::ONE);
    let _ = with(&|c| c[0].matrices[0].points[0].point += Goldilocks2::ONE);
    let _ = with(&|c| c[0].matrices[1].log_height += 1);
    let _ = with(&|c| c[0].matrices[1].log_height -= 1);
    let _ = with(&|c| c[1].matrices[0].points[0].values.push(Goldilocks2::ZERO));
    let _ = with(&|c| c[1].commitment.cap[0][0] += Goldilocks::ONE);
    let _ = with(&|c| c.swap(0, 1));
    assert_eq!(
        with(&|c| c.push(c[1].clone())),
        VerifyError::InputOpeningCount {
            expected: 3,
            found: 2
        }
    );
}

#[test]
fn bad_parameters_requests_and_matrices_are_typed_errors() {
    let config = poseidon2_w8;
    for (params, error) in [
        (
            FriParameters {
                num_queries: 0,
                ..params()
            },
            ParamsError::ZeroQueries,
        ),
        (
            FriParameters {
                log_blowup: 0,
                ..params()
            },
            ParamsError::Blowup { log_blowup: 0 },
        ),
        (
            FriParameters {
                max_log_arity: 0,
                ..params()
            },
            ParamsError::Arity { max_log_arity: 0 },
        ),
    ] {
        assert_eq!(FriPcs::new(config(), params).unwrap_err(), error);
    }
    let pcs = FriPcs::new(config(), params()).unwrap();
    let g = |n: u64| (0..n).map(Goldilocks::from_u64).collect::<Vec<_>>();
    assert_eq!(pcs.commit(vec![]).unwrap_err(), CommitError::NoMatrices);
    assert!(matches!(
        pcs.commit(vec![Evaluations::new(g(10), 3)]).unwrap_err(),
        CommitError::NotAMatrix { matrix: 0, .. }
    ));
    assert!(matches!(
        pcs.commit(vec![Evaluations::new(g(8), 0)]).unwrap_err(),
        CommitError::NotAMatrix { matrix: 0, .. }
    ));
    assert_eq!(
        pcs.commit(vec![Evaluations::new(g(8), 1), Evaluations::new(g(12), 2)])
            .unwrap_err(),
        CommitError::HeightNotPowerOfTwo {
            matrix: 1,
            height: 6
        }
    );
    assert_eq!(
        pcs.commit(vec![Evaluations::on_coset(g(8), 1, Goldilocks::ZERO)])
            .unwrap_err(),
        CommitError::ZeroShift { matrix: 0 }
    );
    assert!(matches!(
        pcs.clone()
            .with_cap_height(6)
            .commit(vec![Evaluations::new(g(64), 1), Evaluations::new(g(8), 1)])
            .unwrap_err(),
        CommitError::CapBelowMatrices { .. }
    ));

    let (_, data) = pcs
        .commit(vec![Evaluations::new(g(64), 2), Evaluations::new(g(4), 1)])
        .unwrap();
    let z = Goldilocks2::new(Goldilocks::from_u64(5), Goldilocks::from_u64(9));
    let open = |pcs: &FriPcs<Poseidon2W8>, points: &[Vec<Goldilocks2>]| {
        pcs.open(
            &[OpeningRequest {
                data: &data,
                points,
            }],
            &mut challenger(),
        )
        .unwrap_err()
    };
    assert_eq!(
        pcs.open(&[], &mut challenger()).unwrap_err(),
        OpenError::NoRequests
    );
    assert_eq!(
        open(&pcs, &[vec![z]]),
        OpenError::PointListCount {
            batch: 0,
            expected: 2,
            found: 1
        }
    );
    assert_eq!(
        open(&pcs, &[vec![z], vec![]]),
        OpenError::NoPoints {
            batch: 0,
            matrix: 1
        }
    );
    // A point of the LDE domain 7·K: 7 itself.
    assert_eq!(
        open(
            &pcs,
            &[vec![z], vec![z, Goldilocks2::from(Goldilocks::GENERATOR)]]
        ),
        OpenError::PointInDomain {
            batch: 0,
            matrix: 1,
            point: 1
        }
    );
    // With a final polynomial of 2 and blow-up 4, a 4-row trace (LDE of 16 > 8) folds, a
    // 1-row one (LDE of 4) does not.
    let (_, tiny) = pcs.commit(vec![Evaluations::new(g(1), 1)]).unwrap();
    assert!(matches!(
        pcs.open(
            &[OpeningRequest {
                data: &tiny,
                points: &[vec![z]]
            }],
            &mut challenger()
        )
        .unwrap_err(),
        OpenError::TooShort {
            batch: 0,
            matrix: 0,
            ..
        }
    ));
    let other = FriPcs::new(
        config(),
        FriParameters {
            log_blowup: 1,
            ..params()
        },
    )
    .unwrap();
    assert_eq!(
        open(&other, &[vec![z], vec![z]]),
        OpenError::BlowupMismatch {
            batch: 0,
            log_blowup: 2
        }
    );
    assert_eq!(
        open(&pcs.clone().with_cap_height(2), &[vec![z], vec![z]]),
        OpenError::CapHeightMismatch {
            batch: 0,
            cap_height: 0
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary bytes never panic the decoder.
    #[test]
    fn garbage_never_decodes_to_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut framed = b"aFRI\x01".to_vec();
        framed.extend_from_slice(&bytes);
        let _ = codec::decode(&bytes);
        let _ = codec::decode(&framed);
    }
}

#[test]
fn every_byte_of_an_encoded_proof_matters() {
    let f = Fixture::new(
        FriParameters {
            num_queries: 2,
            ..params()
        },
        0,
    );
    let bytes = codec::encode(&f.proof);
    assert_eq!(codec::decode(&bytes).as_ref(), Ok(&f.proof));
    assert_eq!(bytes.len(), f.proof.encoded_len());
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            if let Ok(proof) = codec::decode(&bad) {
                assert!(
                    f.verify(&f.claims, &proof).is_err(),
                    "byte {i} ^ {flip:#x} verified"
                );
            }
        }
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert_eq!(
        codec::decode(&trailing),
        Err(codec::DecodeError::TrailingBytes { count: 1 })
    );
    assert_eq!(
        codec::decode(&bytes[..bytes.len() - 1]),
        Err(codec::DecodeError::Truncated {
            offset: bytes.len() - 8
        })
    );
    // A length claiming more items than bytes left is refused before any allocation.
    let mut huge = b"aFRI\x01".to_vec();
    huge.extend_from_slice(&[0; 8]);
    huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    assert!(matches!(
        codec::decode(&huge),
        Err(codec::DecodeError::LengthTooLarge { .. })
    ));
    let json = serde_json::to_string(&f.proof).unwrap();
    assert_eq!(serde_json::from_str::<FriProof>(&json).unwrap(), f.proof);
}
