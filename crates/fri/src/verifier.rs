//! The verifier: Plonky3's `TwoAdicFriPcs::verify` and `verify_fri`, with a typed error for
//! every way a proof (or an inconsistent claim) can be wrong.
//!
//! The shape of a valid proof follows from the parameters and the claims alone — the
//! folding schedule, the round count, every arity, the query count, the final polynomial's
//! length, every opened row's width — so every length the proof carries is compared with
//! it before the proof is used; no proof-supplied length sizes an allocation or a loop.

use std::collections::BTreeMap;

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Dimensions, MerkleConfig, MultiOpening, TreeShape, verify_multi};
use aurum_symmetric::Challenger;

use crate::domain::{coset_point, reverse_bits, root_of_unity};
use crate::error::{PowPhase, VerifyError};
use crate::fold::fold_row;
use crate::limits::MAX_LOG_DOMAIN;
use crate::params::{FriParameters, effective_cap_height};
use crate::proof::{CommitmentClaim, FriProof};
use crate::transcript::{FriShape, fri_seed, pcs_seed};

/// A claimed matrix, validated: LDE height (log), width, and its points and values.
struct Matrix<'a> {
    log_height: usize,
    width: usize,
    points: &'a [crate::proof::PointClaim],
}

/// Checks the claims' own consistency; returns each batch's matrices.
fn check_claims<'a>(
    params: &FriParameters,
    claims: &'a [CommitmentClaim],
) -> Result<Vec<Vec<Matrix<'a>>>, VerifyError> {
    let mut any = false;
    let batches = claims
        .iter()
        .enumerate()
        .map(|(batch, claim)| {
            claim
                .matrices
                .iter()
                .enumerate()
                .map(|(matrix, m)| {
                    any = true;
                    let first = m
                        .points
                        .first()
                        .ok_or(VerifyError::NoPoints { batch, matrix })?;
                    let width = first.values.len();
                    for (point, p) in m.points.iter().enumerate() {
                        if p.values.len() != width {
                            return Err(VerifyError::ValueCount {
                                batch,
                                matrix,
                                point,
                                expected: width,
                                found: p.values.len(),
                            });
                        }
                    }
                    let log_height = m
                        .log_height
                        .checked_add(params.log_blowup)
                        .filter(|&h| h <= MAX_LOG_DOMAIN)
                        .ok_or(VerifyError::ClaimTooTall {
                            batch,
                            matrix,
                            log_height: m.log_height,
                        })?;
                    Ok(Matrix {
                        log_height,
                        width,
                        points: &m.points,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    if any {
        Ok(batches)
    } else {
        Err(VerifyError::NoCommittedMatrices)
    }
}

/// Zero witnesses where no work is asked: otherwise the field would be unbound.
fn check_canonical_witnesses(params: &FriParameters, proof: &FriProof) -> Result<(), VerifyError> {
    let zero = Goldilocks::ZERO;
    if params.batch_proof_of_work_bits == 0 && proof.batch_pow_witness != zero {
        return Err(VerifyError::NonCanonicalPowWitness {
            phase: PowPhase::Batch,
        });
    }
    if params.commit_proof_of_work_bits == 0
        && let Some(round) = proof.commit_pow_witnesses.iter().position(|w| *w != zero)
    {
        return Err(VerifyError::NonCanonicalPowWitness {
            phase: PowPhase::Commit(round),
        });
    }
    if params.query_proof_of_work_bits == 0 && proof.query_pow_witness != zero {
        return Err(VerifyError::NonCanonicalPowWitness {
            phase: PowPhase::Query,
        });
    }
    Ok(())
}

fn check_pow<Ch: Challenger>(
    challenger: &mut Ch,
    bits: usize,
    witness: Goldilocks,
    phase: PowPhase,
) -> Result<(), VerifyError> {
    // Validated parameters: bits ≤ 63.
    if challenger.check_witness(bits, witness).unwrap_or(false) {
        Ok(())
    } else {
        Err(VerifyError::InvalidPowWitness { phase })
    }
}

/// See [`crate::FriPcs::verify`].
pub(crate) fn verify<C: MerkleConfig, Ch: Challenger>(
    config: &C,
    params: &FriParameters,
    cap_height: usize,
    claims: &[CommitmentClaim],
    proof: &FriProof,
    challenger: &mut Ch,
) -> Result<(), VerifyError> {
    let batches = check_claims(params, claims)?;
    check_canonical_witnesses(params, proof)?;

    // The shape of the run, from the parameters and the claims alone.
    let mut heights: Vec<usize> = batches.iter().flatten().map(|m| m.log_height).collect();
    heights.sort_unstable_by(|a, b| b.cmp(a));
    heights.dedup();
    let log_max_height = heights[0];
    let shape = FriShape::new(params, &heights);
    let log_arities = shape.log_arities.clone();
    let rounds = log_arities.len();
    check_proof_shape(
        params,
        cap_height,
        &log_arities,
        log_max_height,
        claims,
        proof,
    )?;

    // The opening argument's transcript.
    let widths: Vec<Vec<Vec<usize>>> = batches
        .iter()
        .map(|b| b.iter().map(|m| vec![m.width; m.points.len()]).collect())
        .collect();
    challenger.observe_slice(&pcs_seed(&widths, params.batch_proof_of_work_bits));
    for m in batches.iter().flatten() {
        for p in m.points {
            for &v in &p.values {
                challenger.observe_ext(v);
            }
        }
    }
    check_pow(
        challenger,
        params.batch_proof_of_work_bits,
        proof.batch_pow_witness,
        PowPhase::Batch,
    )?;
    let alpha = challenger.sample_ext();

    // The low-degree test's transcript.
    challenger.observe_slice(&fri_seed(&shape));
    let mut betas = Vec::with_capacity(rounds);
    for (round, (commitment, &witness)) in proof
        .commit_phase_commits
        .iter()
        .zip(&proof.commit_pow_witnesses)
        .enumerate()
    {
        for digest in &commitment.cap {
            challenger.observe_slice(digest);
        }
        check_pow(
            challenger,
            params.commit_proof_of_work_bits,
            witness,
            PowPhase::Commit(round),
        )?;
        betas.push(challenger.sample_ext());
    }
    for &c in &proof.final_poly {
        challenger.observe_ext(c);
    }
    check_pow(
        challenger,
        params.query_proof_of_work_bits,
        proof.query_pow_witness,
        PowPhase::Query,
    )?;
    let indices: Vec<usize> = (0..params.num_queries)
        .map(|_| challenger.sample_bits(log_max_height).unwrap_or(0) as usize)
        .collect();

    let reduced = reduced_openings(
        config,
        params,
        log_max_height,
        &indices,
        claims,
        &batches,
        proof,
        alpha,
    )?;

    // Fold every query down to the final height, collecting each round's groups.
    let mut groups: Vec<Vec<usize>> = vec![Vec::with_capacity(indices.len()); rounds];
    let mut rows: Vec<Vec<Vec<Vec<Goldilocks>>>> = vec![Vec::with_capacity(indices.len()); rounds];
    for (query, (&index, openings)) in indices.iter().zip(reduced).enumerate() {
        let mut openings = openings.into_iter().peekable();
        let (_, mut folded) = openings.next().expect("the tallest height is claimed");
        let mut index = index;
        let mut log_height = log_max_height;
        for (round, ((&log_arity, &beta), opening)) in log_arities
            .iter()
            .zip(&betas)
            .zip(&proof.commit_phase_openings)
            .enumerate()
        {
            let arity = 1usize << log_arity;
            let position = index % arity;
            let mut evals = Vec::with_capacity(arity);
            let mut siblings = opening.sibling_values[query].iter();
            for j in 0..arity {
                evals.push(if j == position {
                    folded
                } else {
                    *siblings.next().expect("sibling counts checked")
                });
            }
            index >>= log_arity;
            log_height -= log_arity;
            rows[round].push(vec![Goldilocks2::as_base_slice(&evals).to_vec()]);
            folded = fold_row(index, log_height, log_arity, beta, &mut evals);
            groups[round].push(index);
            if let Some((_, ro)) = openings.next_if(|(h, _)| *h == log_height) {
                folded += beta.exp_u64(arity as u64) * ro;
            }
        }
        if let Some((log_height, _)) = openings.next() {
            return Err(VerifyError::UnconsumedInput { log_height });
        }
        // The final codeword's row `index` is the point ω^rev(index) of its subgroup.
        let x = root_of_unity(log_height).exp_u64(reverse_bits(index, log_height) as u64);
        let expected = proof
            .final_poly
            .iter()
            .rev()
            .fold(Goldilocks2::ZERO, |acc, &c| acc * x + c);
        if expected != folded {
            return Err(VerifyError::FinalPolyMismatch { query });
        }
    }

    // Authenticate every round's groups, one multi-opening check per round.
    let mut log_height = log_max_height;
    for (round, (((commitment, opening), &log_arity), (groups, rows))) in proof
        .commit_phase_commits
        .iter()
        .zip(&proof.commit_phase_openings)
        .zip(&log_arities)
        .zip(groups.into_iter().zip(rows))
        .enumerate()
    {
        log_height -= log_arity;
        let dims = [Dimensions {
            width: 2 << log_arity,
            height: 1 << log_height,
        }];
        let multi = MultiOpening {
            rows,
            siblings: opening.siblings.clone(),
        };
        verify_multi(config, commitment, &dims, &groups, &multi)
            .map_err(|error| VerifyError::CommitPhaseOpening { round, error })?;
    }
    Ok(())
}

/// Every length of the proof against the shape derived from the parameters and the claims.
fn check_proof_shape(
    params: &FriParameters,
    cap_height: usize,
    log_arities: &[usize],
    log_max_height: usize,
    claims: &[CommitmentClaim],
    proof: &FriProof,
) -> Result<(), VerifyError> {
    let rounds = log_arities.len();
    if proof.commit_phase_commits.len() != rounds {
        return Err(VerifyError::CommitRoundCount {
            expected: rounds,
            found: proof.commit_phase_commits.len(),
        });
    }
    if proof.commit_pow_witnesses.len() != rounds {
        return Err(VerifyError::CommitPowWitnessCount {
            expected: rounds,
            found: proof.commit_pow_witnesses.len(),
        });
    }
    if proof.commit_phase_openings.len() != rounds {
        return Err(VerifyError::CommitPhaseOpeningCount {
            expected: rounds,
            found: proof.commit_phase_openings.len(),
        });
    }
    let mut log_height = log_max_height;
    for (round, ((&log_arity, opening), commitment)) in log_arities
        .iter()
        .zip(&proof.commit_phase_openings)
        .zip(&proof.commit_phase_commits)
        .enumerate()
    {
        log_height -= log_arity;
        let tree = TreeShape::new(&[Dimensions {
            width: 2 << log_arity,
            height: 1 << log_height,
        }])
        .expect("a power-of-two height of at most 2^32");
        let expected = tree
            .cap_size(effective_cap_height(cap_height, tree.depth()))
            .expect("a cap height within the depth");
        if commitment.cap.len() != expected {
            return Err(VerifyError::CommitCapLength {
                round,
                expected,
                found: commitment.cap.len(),
            });
        }
        if opening.sibling_values.len() != params.num_queries {
            return Err(VerifyError::CommitPhaseQueryCount {
                round,
                expected: params.num_queries,
                found: opening.sibling_values.len(),
            });
        }
        let expected = (1usize << log_arity) - 1;
        for (query, values) in opening.sibling_values.iter().enumerate() {
            if values.len() != expected {
                return Err(VerifyError::SiblingValueCount {
                    round,
                    query,
                    expected,
                    found: values.len(),
                });
            }
        }
    }
    if proof.final_poly.len() != params.final_poly_len() {
        return Err(VerifyError::FinalPolyLength {
            expected: params.final_poly_len(),
            found: proof.final_poly.len(),
        });
    }
    if proof.input_openings.len() != claims.len() {
        return Err(VerifyError::InputOpeningCount {
            expected: claims.len(),
            found: proof.input_openings.len(),
        });
    }
    Ok(())
}

/// Authenticates the input openings and combines them into each query's reduced openings:
/// per query, `(log_height, value)` tallest first.
#[allow(clippy::too_many_arguments)]
fn reduced_openings<C: MerkleConfig>(
    config: &C,
    params: &FriParameters,
    log_max_height: usize,
    indices: &[usize],
    claims: &[CommitmentClaim],
    batches: &[Vec<Matrix<'_>>],
    proof: &FriProof,
    alpha: Goldilocks2,
) -> Result<Vec<Vec<(usize, Goldilocks2)>>, VerifyError> {
    for (batch, ((claim, matrices), opening)) in claims
        .iter()
        .zip(batches)
        .zip(&proof.input_openings)
        .enumerate()
    {
        let dims: Vec<Dimensions> = matrices
            .iter()
            .map(|m| Dimensions {
                width: m.width,
                height: 1 << m.log_height,
            })
            .collect();
        let log_batch_height = matrices.iter().map(|m| m.log_height).max().unwrap_or(0);
        let reduced: Vec<usize> = indices
            .iter()
            .map(|i| i >> (log_max_height - log_batch_height))
            .collect();
        verify_multi(config, &claim.commitment, &dims, &reduced, opening)
            .map_err(|error| VerifyError::InputOpening { batch, error })?;
    }

    // Each (matrix, point) starts at an offset in its height's run of α powers, and
    // contributes Σ_j α^(off + j) p_j(z), the same for every query.
    let mut run_lengths: BTreeMap<usize, usize> = BTreeMap::new();
    let offsets: Vec<usize> = batches
        .iter()
        .flatten()
        .flat_map(|m| m.points.iter().map(move |_| m))
        .map(|m| {
            let run = run_lengths.entry(m.log_height).or_insert(0);
            let offset = *run;
            *run += m.width;
            offset
        })
        .collect();
    let longest = run_lengths.values().copied().max().unwrap_or(0);
    let mut powers = Vec::with_capacity(longest);
    let mut power = Goldilocks2::ONE;
    for _ in 0..longest {
        powers.push(power);
        power *= alpha;
    }
    let point_sums: Vec<(usize, Goldilocks2)> = batches
        .iter()
        .flatten()
        .flat_map(|m| m.points)
        .zip(offsets)
        .map(|(p, offset)| {
            let sum = p
                .values
                .iter()
                .zip(&powers[offset..])
                .map(|(&v, &a)| v * a)
                .sum();
            (offset, sum)
        })
        .collect();

    indices
        .iter()
        .enumerate()
        .map(|(query, &index)| {
            let mut reduced: BTreeMap<usize, Goldilocks2> = BTreeMap::new();
            let mut sums = point_sums.iter();
            for (batch, (matrices, opening)) in
                batches.iter().zip(&proof.input_openings).enumerate()
            {
                for (matrix, (m, row)) in matrices.iter().zip(&opening.rows[query]).enumerate() {
                    let x = coset_point(m.log_height, index >> (log_max_height - m.log_height));
                    let ro = reduced.entry(m.log_height).or_insert(Goldilocks2::ZERO);
                    for (point, p) in m.points.iter().enumerate() {
                        let &(offset, sum_at_z) = sums.next().expect("one sum per point");
                        let inverse =
                            (p.point - x)
                                .try_inverse()
                                .ok_or(VerifyError::PointMatchesQuery {
                                    query,
                                    batch,
                                    matrix,
                                    point,
                                })?;
                        let sum_at_x: Goldilocks2 = row
                            .iter()
                            .zip(&powers[offset..])
                            .map(|(&y, &a)| a * y)
                            .sum();
                        *ro += (sum_at_z - sum_at_x) * inverse;
                    }
                }
            }
            // A one-row matrix is a constant: its quotient must vanish.
            if reduced
                .get(&params.log_blowup)
                .is_some_and(|ro| !ro.is_zero())
            {
                return Err(VerifyError::ConstantQuotientNotZero { query });
            }
            Ok(reduced.into_iter().rev().collect())
        })
        .collect()
}
