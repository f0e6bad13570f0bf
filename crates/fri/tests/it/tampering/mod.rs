//! Every field of a valid proof, mutated, is rejected with a typed error and never a panic;
//! so are inconsistent claims, hostile sizes, bad parameters and bad requests.
//!
//! Plonky3's own verifier tests are the checklist (counts of commitments, witnesses,
//! openings, queries and sibling values, the final polynomial's length and values, every
//! proof of work, canonical zero witnesses, Merkle paths and rows, widths, claims without
//! points, nothing committed, heights beyond the two-adicity); the exhaustive walk below
//! mutates every value and every length of the proof besides.

use aurum_fri::{
    CommitmentClaim, Evaluations, FriParameters, FriPcs, FriProof, OpeningRequest, PowPhase,
    VerifyError, claims,
};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::config::{Poseidon2W8, poseidon2_w8};
use aurum_merkle::{Commitment, VerifyError as MerkleError};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};

mod hostile;

type Ch = DuplexChallenger<Poseidon2Goldilocks<8>, 8, 4>;

fn challenger() -> Ch {
    Ch::new(Poseidon2Goldilocks::<8>::new())
}

/// Commitments, points per matrix; the transcript both sides run before opening.
fn draw_points(
    ch: &mut Ch,
    commitments: &[Commitment],
    shape: &[Vec<usize>],
) -> Vec<Vec<Vec<Goldilocks2>>> {
    for c in commitments {
        ch.observe_slice(&c.cap.concat());
    }
    shape
        .iter()
        .map(|batch| {
            batch
                .iter()
                .map(|&n| (0..n).map(|_| ch.sample_ext()).collect())
                .collect()
        })
        .collect()
}

struct Fixture {
    pcs: FriPcs<Poseidon2W8>,
    commitments: Vec<Commitment>,
    /// Points per matrix, per commitment.
    point_counts: Vec<Vec<usize>>,
    claims: Vec<CommitmentClaim>,
    proof: FriProof,
}

impl Fixture {
    /// Two commitments with mixed heights and widths, opened at 1–2 points per matrix.
    fn new(params: FriParameters, cap_height: usize) -> Self {
        let pcs = FriPcs::new(poseidon2_w8(), params)
            .unwrap()
            .with_cap_height(cap_height);
        // (log height, width) per matrix; the second batch's heights are all equal so that
        // any cap height commits to it.
        let shapes = [vec![(6, 3), (4, 2)], vec![(5, 4)]];
        let point_counts = vec![vec![2, 1], vec![1]];
        let mut commitments = Vec::new();
        let mut data = Vec::new();
        for (b, batch) in shapes.iter().enumerate() {
            let matrices = batch
                .iter()
                .enumerate()
                .map(|(m, &(log_height, width))| {
                    let values = (0..(1u64 << log_height) * width as u64)
                        .map(|i| Goldilocks::from_u64(i * i + 31 * m as u64 + 1000 * b as u64))
                        .collect();
                    Evaluations::new(values, width)
                })
                .collect();
            let (commitment, d) = pcs.commit(matrices).unwrap();
            commitments.push(commitment);
            data.push(d);
        }
        let mut ch = challenger();
        let points = draw_points(&mut ch, &commitments, &point_counts);
        let requests: Vec<OpeningRequest<'_>> = data
            .iter()
            .zip(&points)
            .map(|(data, points)| OpeningRequest { data, points })
            .collect();
        let (values, proof) = pcs.open(&requests, &mut ch).unwrap();
        let log_heights: Vec<Vec<usize>> = shapes
            .iter()
            .map(|b| b.iter().map(|m| m.0).collect())
            .collect();
        let claims = claims(&commitments, &log_heights, &points, &values);
        let fixture = Self {
            pcs,
            commitments,
            point_counts,
            claims,
            proof,
        };
        assert_eq!(fixture.verify(&fixture.claims, &fixture.proof), Ok(()));
        fixture
    }

    fn verify(&self, claims: &[CommitmentClaim], proof: &FriProof) -> Result<(), VerifyError> {
        let mut ch = challenger();
        let _ = draw_points(&mut ch, &self.commitments, &self.point_counts);
        self.pcs.verify(claims, proof, &mut ch)
    }

    fn reject(&self, proof: &FriProof) -> VerifyError {
        self.verify(&self.claims, proof)
            .expect_err("a mutated proof verified")
    }
}

/// Proof of work at every phase, arity up to 8, a final polynomial of 2, caps of height 1.
fn params() -> FriParameters {
    FriParameters {
        log_blowup: 2,
        log_final_poly_len: 1,
        max_log_arity: 3,
        num_queries: 5,
        batch_proof_of_work_bits: 8,
        commit_proof_of_work_bits: 8,
        query_proof_of_work_bits: 8,
    }
}

fn bump(x: &mut Goldilocks) {
    *x += Goldilocks::ONE;
}

/// Every value of `proof` changed, and every list made one longer and one shorter.
fn mutations(proof: &FriProof) -> Vec<(String, FriProof)> {
    let mut out: Vec<(String, FriProof)> = Vec::new();
    let mut add = |name: String, f: &dyn Fn(&mut FriProof)| {
        let mut p = proof.clone();
        f(&mut p);
        out.push((name, p));
    };
    add("batch_pow_witness".into(), &|p| {
        bump(&mut p.batch_pow_witness)
    });
    add("query_pow_witness".into(), &|p| {
        bump(&mut p.query_pow_witness)
    });
    add("commit_pow_witnesses +1".into(), &|p| {
        p.commit_pow_witnesses.push(Goldilocks::ZERO)
    });
    add("commit_pow_witnesses −1".into(), &|p| {
        p.commit_pow_witnesses.pop();
    });
    for r in 0..proof.commit_pow_witnesses.len() {
        add(format!("commit_pow_witnesses[{r}]"), &|p| {
            bump(&mut p.commit_pow_witnesses[r])
        });
    }
    add("commit_phase_commits +1".into(), &|p| {
        let last = p.commit_phase_commits.last().unwrap().clone();
        p.commit_phase_commits.push(last);
    });
    add("commit_phase_commits −1".into(), &|p| {
        p.commit_phase_commits.pop();
    });
    for (r, c) in proof.commit_phase_commits.iter().enumerate() {
        add(format!("commit {r} cap +1"), &|p| {
            p.commit_phase_commits[r].cap.push([Goldilocks::ZERO; 4])
        });
        add(format!("commit {r} cap −1"), &|p| {
            p.commit_phase_commits[r].cap.pop();
        });
        for d in 0..c.cap.len() {
            for e in 0..4 {
                add(format!("commit {r} cap[{d}][{e}]"), &|p| {
                    bump(&mut p.commit_phase_commits[r].cap[d][e])
                });
            }
        }
    }
    add("input_openings +1".into(), &|p| {
        let last = p.input_openings.last().unwrap().clone();
        p.input_openings.push(last);
    });
    add("input_openings −1".into(), &|p| {
        p.input_openings.pop();
    });
    for (b, opening) in proof.input_openings.iter().enumerate() {
        add(format!("input {b} queries +1"), &|p| {
            let first = p.input_openings[b].rows[0].clone();
            p.input_openings[b].rows.push(first);
        });
        add(format!("input {b} queries −1"), &|p| {
            p.input_openings[b].rows.pop();
        });
        for (q, rows) in opening.rows.iter().enumerate() {
            add(format!("input {b} query {q} matrices +1"), &|p| {
                let first = p.input_openings[b].rows[q][0].clone();
                p.input_openings[b].rows[q].push(first);
            });
            add(format!("input {b} query {q} matrices −1"), &|p| {
                p.input_openings[b].rows[q].pop();
            });
            for (m, row) in rows.iter().enumerate() {
                add(format!("input {b} query {q} matrix {m} width +1"), &|p| {
                    p.input_openings[b].rows[q][m].push(Goldilocks::ZERO)
                });
                add(format!("input {b} query {q} matrix {m} width −1"), &|p| {
                    p.input_openings[b].rows[q][m].pop();
                });
                for j in 0..row.len() {
                    add(format!("input {b} query {q} matrix {m} value {j}"), &|p| {
                        bump(&mut p.input_openings[b].rows[q][m][j])
                    });
                }
            }
        }
        add(format!("input {b} siblings +1"), &|p| {
            p.input_openings[b].siblings.push([Goldilocks::ZERO; 4])
        });
        add(format!("input {b} siblings −1"), &|p| {
            p.input_openings[b].siblings.pop();
        });
        for s in 0..opening.siblings.len() {
            for e in 0..4 {
                add(format!("input {b} sibling {s}[{e}]"), &|p| {
                    bump(&mut p.input_openings[b].siblings[s][e])
                });
            }
        }
    }
    add("commit_phase_openings +1".into(), &|p| {
        let last = p.commit_phase_openings.last().unwrap().clone();
        p.commit_phase_openings.push(last);
    });
    add("commit_phase_openings −1".into(), &|p| {
        p.commit_phase_openings.pop();
    });
    for (r, round) in proof.commit_phase_openings.iter().enumerate() {
        add(format!("round {r} queries +1"), &|p| {
            let first = p.commit_phase_openings[r].sibling_values[0].clone();
            p.commit_phase_openings[r].sibling_values.push(first);
        });
        add(format!("round {r} queries −1"), &|p| {
            p.commit_phase_openings[r].sibling_values.pop();
        });
        for (q, values) in round.sibling_values.iter().enumerate() {
            add(format!("round {r} query {q} values +1"), &|p| {
                p.commit_phase_openings[r].sibling_values[q].push(Goldilocks2::ZERO)
            });
            add(format!("round {r} query {q} values −1"), &|p| {
                p.commit_phase_openings[r].sibling_values[q].pop();
            });
            for j in 0..values.len() {
                for c in 0..2 {
                    add(format!("round {r} query {q} value {j}.c{c}"), &|p| {
                        bump(&mut p.commit_phase_openings[r].sibling_values[q][j].coeffs[c])
                    });
                }
            }
        }
        add(format!("round {r} siblings +1"), &|p| {
            p.commit_phase_openings[r]
                .siblings
                .push([Goldilocks::ZERO; 4])
        });
        add(format!("round {r} siblings −1"), &|p| {
            p.commit_phase_openings[r].siblings.pop();
        });
        for s in 0..round.siblings.len() {
            for e in 0..4 {
                add(format!("round {r} sibling {s}[{e}]"), &|p| {
                    bump(&mut p.commit_phase_openings[r].siblings[s][e])
                });
            }
        }
    }
    add("final_poly +1".into(), &|p| {
        p.final_poly.push(Goldilocks2::ZERO)
    });
    add("final_poly −1".into(), &|p| {
        p.final_poly.pop();
    });
    for i in 0..proof.final_poly.len() {
        for c in 0..2 {
            add(format!("final_poly[{i}].c{c}"), &|p| {
                bump(&mut p.final_poly[i].coeffs[c])
            });
        }
    }
    out
}

#[test]
fn every_mutation_of_every_field_is_rejected() {
    for cap_height in [0, 1] {
        let fixture = Fixture::new(params(), cap_height);
        let all = mutations(&fixture.proof);
        assert!(all.len() > 500, "{} mutations", all.len());
        for (name, proof) in &all {
            let result = fixture.verify(&fixture.claims, proof);
            assert!(
                result.is_err(),
                "cap {cap_height}: mutation `{name}` verified"
            );
        }
    }
}

#[test]
fn each_kind_of_mutation_gets_its_error() {
    let f = Fixture::new(params(), 1);
    let rounds = f.proof.commit_phase_commits.len();
    assert!(rounds >= 2, "the fixture folds in several rounds");
    let with = |change: &dyn Fn(&mut FriProof)| {
        let mut p = f.proof.clone();
        change(&mut p);
        f.reject(&p)
    };
    assert_eq!(
        with(&|p| bump(&mut p.batch_pow_witness)),
        VerifyError::InvalidPowWitness {
            phase: PowPhase::Batch
        }
    );
    assert_eq!(
        with(&|p| bump(&mut p.commit_pow_witnesses[1])),
        VerifyError::InvalidPowWitness {
            phase: PowPhase::Commit(1)
        }
    );
    assert_eq!(
        with(&|p| bump(&mut p.query_pow_witness)),
        VerifyError::InvalidPowWitness {
            phase: PowPhase::Query
        }
    );
    assert_eq!(
        with(&|p| {
            p.commit_phase_commits.pop();
        }),
        VerifyError::CommitRoundCount {
            expected: rounds,
            found: rounds - 1
        }
    );
    assert_eq!(
        with(&|p| {
            p.commit_pow_witnesses.pop();
        }),
        VerifyError::CommitPowWitnessCount {
            expected: rounds,
            found: rounds - 1
        }
    );
    assert_eq!(
        with(&|p| {
            p.commit_phase_openings.pop();
        }),
        VerifyError::CommitPhaseOpeningCount {
            expected: rounds,
            found: rounds - 1
        }
    );
    // A uniformly shortened or lengthened commit phase is a round-count mismatch too.
    assert_eq!(
        with(&|p| {
            p.commit_phase_commits.pop();
            p.commit_pow_witnesses.pop();
            p.commit_phase_openings.pop();
        }),
        VerifyError::CommitRoundCount {
            expected: rounds,
            found: rounds - 1
        }
    );
    assert!(matches!(
        with(&|p| p.commit_phase_commits[0].cap.push([Goldilocks::ZERO; 4])),
        VerifyError::CommitCapLength { round: 0, .. }
    ));
    assert!(matches!(
        with(&|p| {
            p.commit_phase_openings[0].sibling_values.pop();
        }),
        VerifyError::CommitPhaseQueryCount { round: 0, .. }
    ));
    assert!(matches!(
        with(&|p| p.commit_phase_openings[1].sibling_values[2].push(Goldilocks2::ZERO)),
        VerifyError::SiblingValueCount {
            round: 1,
            query: 2,
            ..
        }
    ));
    assert_eq!(
        with(&|p| p.final_poly.push(Goldilocks2::ZERO)),
        VerifyError::FinalPolyLength {
            expected: 2,
            found: 3
        }
    );
    assert_eq!(
        with(&|p| {
            p.input_openings.pop();
        }),
        VerifyError::InputOpeningCount {
            expected: 2,
            found: 1
        }
    );
    assert!(matches!(
        with(&|p| {
            p.input_openings[0].rows.pop();
        }),
        VerifyError::InputOpening {
            batch: 0,
            error: MerkleError::WrongNumberOfQueries { .. }
        }
    ));
    assert!(matches!(
        with(&|p| {
            p.input_openings[0].rows[1].pop();
        }),
        VerifyError::InputOpening {
            batch: 0,
            error: MerkleError::WrongNumberOfMatrices { .. }
        }
    ));
    assert!(matches!(
        with(&|p| p.input_openings[1].rows[0][0].push(Goldilocks::ZERO)),
        VerifyError::InputOpening {
            batch: 1,
            error: MerkleError::WrongRowWidth { .. }
        }
    ));
    assert!(matches!(
        with(&|p| bump(&mut p.input_openings[0].siblings[0][0])),
        VerifyError::InputOpening {
            batch: 0,
            error: MerkleError::RootMismatch { .. }
        }
    ));
    assert!(matches!(
        with(&|p| {
            p.input_openings[0].siblings.pop();
        }),
        VerifyError::InputOpening {
            batch: 0,
            error: MerkleError::WrongSiblingCount { .. }
        }
    ));
    assert!(matches!(
        with(&|p| bump(&mut p.commit_phase_openings[0].siblings[0][3])),
        VerifyError::CommitPhaseOpening {
            round: 0,
            error: MerkleError::RootMismatch { .. }
        }
    ));
    // A sibling value changes the fold: the chain misses the final polynomial, or the round's
    // opening no longer authenticates.
    assert!(matches!(
        with(&|p| bump(&mut p.commit_phase_openings[0].sibling_values[0][0].coeffs[1])),
        VerifyError::FinalPolyMismatch { .. } | VerifyError::CommitPhaseOpening { .. }
    ));
}

#[test]
fn zero_difficulty_witnesses_must_be_zero() {
    let params = FriParameters {
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: 0,
        ..params()
    };
    let f = Fixture::new(params, 0);
    assert!(
        f.proof
            .commit_pow_witnesses
            .iter()
            .all(|w| *w == Goldilocks::ZERO)
    );
    for (phase, change) in [
        (
            PowPhase::Batch,
            (|p: &mut FriProof| bump(&mut p.batch_pow_witness)) as fn(&mut FriProof),
        ),
        (PowPhase::Commit(0), |p| {
            bump(&mut p.commit_pow_witnesses[0])
        }),
        (PowPhase::Query, |p| bump(&mut p.query_pow_witness)),
    ] {
        let mut p = f.proof.clone();
        change(&mut p);
        assert_eq!(f.reject(&p), VerifyError::NonCanonicalPowWitness { phase });
    }
}
