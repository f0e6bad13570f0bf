//! `aurum-fri` against `p3-fri` 0.8's `TwoAdicFriPcs` (with `MerkleTreeMmcs` over Poseidon2
//! width 8, `ExtensionMmcs` for the folded codewords, `DuplexChallenger` width 8 rate 4) on
//! random shapes: 1–2 commitments of 1–4 matrices in all, mixed heights and widths, 1–3
//! points per matrix, `max_log_arity` 1..=4, several `log_final_poly_len` and `log_blowup`.
//!
//! * With every proof-of-work difficulty 0 the commitments, the opened values and the proofs
//!   are equal, field for field.
//! * With proofs of work, each side's proof verifies under the other's verifier (the
//!   witnesses may differ: Aurum's is the smallest, Plonky3's parallel search returns any).

use ::p3_fri::{BatchMultiOpening, CommitPhaseMultiStep};
use aurum_fri::{
    CommitPhaseOpening, Evaluations, FriParameters, FriPcs, FriProof, OpeningRequest, claims,
};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Commitment, MultiOpening};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};
use p3_challenger::{CanObserve, FieldChallenger};
use p3_commit::{CommitmentOpening, MatrixOpening, OpeningRequest as P3Request, Pcs, PointOpening};
use p3_field::{BasedVectorSpace, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::{MerkleCap, PrunedMerklePaths};
use proptest::prelude::*;

#[path = "../../common/p3_fri.rs"]
mod p3_fri;

use p3_fri::{Ext, P3Challenger, P3Pcs, p3_challenger, p3_pcs};

type P3Proof = <P3Pcs as Pcs<Ext, P3Challenger>>::Proof;
type AurumPcs = FriPcs<aurum_merkle::config::Poseidon2W8>;

fn ours(x: P3) -> Goldilocks {
    Goldilocks::from_u64(x.as_canonical_u64())
}

fn theirs(x: Goldilocks) -> P3 {
    P3::new(x.as_canonical_u64())
}

fn ours_ext(x: Ext) -> Goldilocks2 {
    let c = x.as_basis_coefficients_slice();
    Goldilocks2::new(ours(c[0]), ours(c[1]))
}

fn theirs_ext(x: Goldilocks2) -> Ext {
    Ext::from_basis_coefficients_slice(&[theirs(x.coeffs[0]), theirs(x.coeffs[1])]).unwrap()
}

fn ours_cap(cap: &MerkleCap<P3, [P3; 4]>) -> Commitment {
    Commitment {
        cap: cap.roots().iter().map(|d| d.map(ours)).collect(),
    }
}

fn theirs_cap(c: &Commitment) -> MerkleCap<P3, [P3; 4]> {
    MerkleCap::new(c.cap.iter().map(|d| d.map(theirs)).collect())
}

/// Plonky3's proof in Aurum's types.
fn ours_proof(p: &P3Proof) -> FriProof {
    FriProof {
        batch_pow_witness: ours(p.batch_pow_witness),
        commit_phase_commits: p.commit_phase_commits.iter().map(ours_cap).collect(),
        commit_pow_witnesses: p.commit_pow_witnesses.iter().map(|&w| ours(w)).collect(),
        input_openings: p
            .input_openings
            .iter()
            .map(|o| MultiOpening {
                rows: o
                    .opened_values
                    .iter()
                    .map(|q| {
                        q.iter()
                            .map(|r| r.iter().map(|&x| ours(x)).collect())
                            .collect()
                    })
                    .collect(),
                siblings: o
                    .opening_proof
                    .sibling_hashes
                    .iter()
                    .map(|d| d.map(ours))
                    .collect(),
            })
            .collect(),
        commit_phase_openings: p
            .commit_phase_openings
            .iter()
            .map(|o| CommitPhaseOpening {
                sibling_values: o
                    .sibling_values
                    .iter()
                    .map(|v| v.iter().map(|&x| ours_ext(x)).collect())
                    .collect(),
                siblings: o
                    .opening_proof
                    .sibling_hashes
                    .iter()
                    .map(|d| d.map(ours))
                    .collect(),
            })
            .collect(),
        final_poly: p.final_poly.iter().map(|&x| ours_ext(x)).collect(),
        query_pow_witness: ours(p.query_pow_witness),
    }
}

/// Aurum's proof in Plonky3's types.
fn theirs_proof(p: &FriProof) -> P3Proof {
    P3Proof {
        batch_pow_witness: theirs(p.batch_pow_witness),
        commit_phase_commits: p.commit_phase_commits.iter().map(theirs_cap).collect(),
        commit_pow_witnesses: p.commit_pow_witnesses.iter().map(|&w| theirs(w)).collect(),
        input_openings: p
            .input_openings
            .iter()
            .map(|o| BatchMultiOpening {
                opened_values: o
                    .rows
                    .iter()
                    .map(|q| {
                        q.iter()
                            .map(|r| r.iter().map(|&x| theirs(x)).collect())
                            .collect()
                    })
                    .collect(),
                opening_proof: PrunedMerklePaths {
                    sibling_hashes: o.siblings.iter().map(|d| d.map(theirs)).collect(),
                },
            })
            .collect(),
        commit_phase_openings: p
            .commit_phase_openings
            .iter()
            .map(|o| CommitPhaseMultiStep {
                sibling_values: o
                    .sibling_values
                    .iter()
                    .map(|v| v.iter().map(|&x| theirs_ext(x)).collect())
                    .collect(),
                opening_proof: PrunedMerklePaths {
                    sibling_hashes: o.siblings.iter().map(|d| d.map(theirs)).collect(),
                },
            })
            .collect(),
        final_poly: p.final_poly.iter().map(|&x| theirs_ext(x)).collect(),
        query_pow_witness: theirs(p.query_pow_witness),
    }
}

/// A deterministic stream of field elements.
fn values(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % aurum_goldilocks::P
        })
        .collect()
}

/// A case: parameters, cap height, and per commitment its matrices `(log_height, width,
/// points)`.
#[derive(Clone, Debug)]
struct Case {
    params: FriParameters,
    cap_height: usize,
    batches: Vec<Vec<(usize, usize, usize)>>,
    seed: u64,
}

/// Runs both schemes on `case`; compares everything when no proof of work is asked, and
/// cross-verifies always.
fn run(case: &Case) {
    let params = case.params;
    let pcs = AurumPcs::new(aurum_merkle::config::poseidon2_w8(), params)
        .unwrap()
        .with_cap_height(case.cap_height);
    let p3 = p3_pcs(&params, case.cap_height);

    // Commit on both sides.
    let mut seed = case.seed;
    let mut ours_data = Vec::new();
    let mut commitments = Vec::new();
    let mut p3_data = Vec::new();
    let mut p3_commits = Vec::new();
    for batch in &case.batches {
        let mut ours_in = Vec::new();
        let mut theirs_in = Vec::new();
        for &(log_height, width, _) in batch {
            seed += 1;
            let raw = values(seed, (1 << log_height) * width);
            ours_in.push(Evaluations::new(
                raw.iter().map(|&x| Goldilocks::from_u64(x)).collect(),
                width,
            ));
            let domain =
                <P3Pcs as Pcs<Ext, P3Challenger>>::natural_domain_for_degree(&p3, 1 << log_height);
            theirs_in.push((
                domain,
                RowMajorMatrix::new(raw.iter().map(|&x| P3::new(x)).collect(), width),
            ));
        }
        let (commitment, data) = pcs.commit(ours_in).unwrap();
        let (p3_commit, p3_d) = <P3Pcs as Pcs<Ext, P3Challenger>>::commit(&p3, theirs_in).unwrap();
        assert_eq!(commitment, ours_cap(&p3_commit), "commitment of {batch:?}");
        commitments.push(commitment);
        ours_data.push(data);
        p3_commits.push(p3_commit);
        p3_data.push(p3_d);
    }

    // Both transcripts absorb the commitments and draw the points.
    let new_ours = || DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    let new_theirs = p3_challenger;
    let draw = |ch: &mut DuplexChallenger<Poseidon2Goldilocks<8>, 8, 4>| {
        for c in &commitments {
            for d in &c.cap {
                ch.observe_slice(d);
            }
        }
        case.batches
            .iter()
            .map(|batch| {
                batch
                    .iter()
                    .map(|&(_, _, points)| (0..points).map(|_| ch.sample_ext()).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let mut ours_ch = new_ours();
    let points = draw(&mut ours_ch);
    let mut theirs_ch = new_theirs();
    for c in &p3_commits {
        theirs_ch.observe(c.clone());
    }
    let p3_points: Vec<Vec<Vec<Ext>>> = case
        .batches
        .iter()
        .map(|batch| {
            batch
                .iter()
                .map(|&(_, _, n)| {
                    (0..n)
                        .map(|_| theirs_ch.sample_algebra_element::<Ext>())
                        .collect()
                })
                .collect()
        })
        .collect();
    assert_eq!(
        points,
        p3_points
            .iter()
            .map(|b| b
                .iter()
                .map(|m| m.iter().map(|&z| ours_ext(z)).collect::<Vec<_>>())
                .collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );

    // Open on both sides.
    let requests: Vec<OpeningRequest<'_>> = ours_data
        .iter()
        .zip(&points)
        .map(|(data, points)| OpeningRequest { data, points })
        .collect();
    let (values_ours, proof) = pcs.open(&requests, &mut ours_ch).unwrap();
    let p3_requests = p3_data
        .iter()
        .zip(&p3_points)
        .map(|(d, p)| P3Request {
            prover_data: d,
            points: p.clone(),
        })
        .collect();
    let (p3_values, p3_proof) =
        <P3Pcs as Pcs<Ext, P3Challenger>>::open(&p3, p3_requests, &mut theirs_ch).unwrap();
    let p3_values_ours: Vec<Vec<Vec<Vec<Goldilocks2>>>> = p3_values
        .iter()
        .map(|b| {
            b.iter()
                .map(|m| {
                    m.iter()
                        .map(|p| p.iter().map(|&x| ours_ext(x)).collect())
                        .collect()
                })
                .collect()
        })
        .collect();
    assert_eq!(values_ours, p3_values_ours, "opened values");
    let no_work = params.batch_proof_of_work_bits == 0
        && params.commit_proof_of_work_bits == 0
        && params.query_proof_of_work_bits == 0;
    if no_work {
        assert_eq!(proof, ours_proof(&p3_proof), "proofs differ for {case:?}");
    }

    // Each verifier accepts both proofs.
    let log_heights: Vec<Vec<usize>> = case
        .batches
        .iter()
        .map(|b| b.iter().map(|m| m.0).collect())
        .collect();
    let claims = claims(&commitments, &log_heights, &points, &values_ours);
    for (name, candidate) in [("aurum", &proof), ("plonky3", &ours_proof(&p3_proof))] {
        let mut ch = new_ours();
        let _ = draw(&mut ch);
        assert_eq!(
            pcs.verify(&claims, candidate, &mut ch),
            Ok(()),
            "aurum verifier, {name} proof"
        );
    }
    let p3_claims: Vec<CommitmentOpening<Ext, MerkleCap<P3, [P3; 4]>, _>> = case
        .batches
        .iter()
        .enumerate()
        .map(|(c, batch)| CommitmentOpening {
            commitment: p3_commits[c].clone(),
            matrices: batch
                .iter()
                .enumerate()
                .map(|(m, &(log_height, _, _))| MatrixOpening {
                    domain: <P3Pcs as Pcs<Ext, P3Challenger>>::natural_domain_for_degree(
                        &p3,
                        1 << log_height,
                    ),
                    points: p3_points[c][m]
                        .iter()
                        .zip(&p3_values[c][m])
                        .map(|(&point, values)| PointOpening {
                            point,
                            values: values.clone(),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    for (name, candidate) in [("plonky3", &p3_proof), ("aurum", &theirs_proof(&proof))] {
        let mut ch = new_theirs();
        for c in &p3_commits {
            ch.observe(c.clone());
        }
        for batch in &case.batches {
            for &(_, _, n) in batch {
                for _ in 0..n {
                    let _: Ext = ch.sample_algebra_element();
                }
            }
        }
        let result =
            <P3Pcs as Pcs<Ext, P3Challenger>>::verify(&p3, p3_claims.clone(), candidate, &mut ch);
        assert!(result.is_ok(), "plonky3 verifier, {name} proof: {result:?}");
    }
}

/// Parameters, then shapes whose heights suit them (every LDE above the final height when
/// the final polynomial is not a constant).
fn cases(pow: bool) -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        0usize..=2,
        1usize..=4,
        1usize..=4,
        0usize..=2,
        any::<u64>(),
    )
        .prop_flat_map(
            move |(
                log_blowup,
                log_final_poly_len,
                max_log_arity,
                num_queries,
                cap_height,
                seed,
            )| {
                let min_log_height = if log_final_poly_len > 0 {
                    log_final_poly_len + 1
                } else {
                    0
                };
                let matrix = (min_log_height..=min_log_height + 5, 1usize..=5, 1usize..=3);
                let batches =
                    proptest::collection::vec(proptest::collection::vec(matrix, 1..=2), 1..=2);
                let bits = if pow { 0usize..=3 } else { 0usize..=0 };
                (batches, bits.clone(), bits.clone(), bits).prop_map(move |(batches, b, c, q)| {
                    Case {
                        params: FriParameters {
                            log_blowup,
                            log_final_poly_len,
                            max_log_arity,
                            num_queries,
                            batch_proof_of_work_bits: b,
                            commit_proof_of_work_bits: c,
                            query_proof_of_work_bits: q,
                        },
                        cap_height,
                        batches,
                        seed,
                    }
                })
            },
        )
}

/// A cap height this case can commit with on both sides: Aurum refuses caps below the layer
/// where a shorter matrix joins (they would not commit to it).
fn usable(case: &Case) -> bool {
    case.batches.iter().all(|batch| {
        let dims: Vec<aurum_merkle::Dimensions> = batch
            .iter()
            .map(|&(log_height, width, _)| aurum_merkle::Dimensions {
                width,
                height: 1 << (log_height + case.params.log_blowup),
            })
            .collect();
        let shape = aurum_merkle::TreeShape::new(&dims).unwrap();
        case.cap_height.min(shape.depth()) <= shape.max_cap_height()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn proofs_equal_plonky3s_without_proof_of_work(case in cases(false)) {
        prop_assume!(usable(&case));
        run(&case);
    }

    #[test]
    fn proofs_cross_verify_with_proof_of_work(case in cases(true)) {
        prop_assume!(usable(&case));
        run(&case);
    }
}

#[test]
fn presets_match_plonky3() {
    for params in [
        FriParameters::testing(0),
        FriParameters::testing(2),
        FriParameters {
            num_queries: 4,
            query_proof_of_work_bits: 8,
            ..FriParameters::benchmark()
        },
        FriParameters {
            num_queries: 4,
            query_proof_of_work_bits: 8,
            ..FriParameters::benchmark_high_arity()
        },
    ] {
        run(&Case {
            params,
            cap_height: 0,
            batches: vec![vec![(7, 3, 2), (5, 2, 1)], vec![(6, 4, 3)]],
            seed: 7,
        });
    }
}

/// Sizes past one chunk of every pass (evaluation, quotients, folding tasks) and widths past
/// one SIMD vector, with a remainder.
#[test]
fn larger_shapes_match_plonky3() {
    for (max_log_arity, log_blowup) in [(1, 1), (3, 2)] {
        run(&Case {
            params: FriParameters {
                log_blowup,
                log_final_poly_len: 2,
                max_log_arity,
                num_queries: 6,
                batch_proof_of_work_bits: 0,
                commit_proof_of_work_bits: 0,
                query_proof_of_work_bits: 0,
            },
            cap_height: 1,
            batches: vec![vec![(13, 13, 2), (12, 2, 1)], vec![(10, 1, 3)]],
            seed: 3,
        });
    }
}
