//! `aurum fri verify`: a saved proof checked against the statement the verifier gives itself.
//! Every claim of the file is compared with the statement first; only the cap (checked against
//! the trusted root), the opened values and the proof are taken from it.

use std::process::ExitCode;
use std::time::Instant;

use aurum_fri::{CommitmentClaim, FriPcs, MatrixClaim, PointClaim};
use aurum_goldilocks::Goldilocks2;
use aurum_merkle::{Commitment, MerkleConfig, Preset, root_from_cap};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};

use crate::args::FriVerifyArgs;
use crate::error::Error;
use crate::fri::preset::{draw_points, with_fri_preset};
use crate::fri::proof_file::{ParsedProofFile, read_file};
use crate::fri::statement::Statement;
use crate::hex::{hex_digest, parse_digest};
use crate::rejection::{Rejection, claim, same_claim};

/// What a verified proof file proves: the committed matrix takes `values[k]` (one value per
/// column) at `points[k]`, the points the verifier drew itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The opening points, drawn from the transcript after the trusted commitment.
    pub points: Vec<Goldilocks2>,
    /// `values[k][j]`: column `j` at `points[k]`.
    pub values: Vec<Vec<Goldilocks2>>,
}

/// Compares every claim of the file with the statement and the trusted root: the shape,
/// parameters, point count and cap height, the root, the cap (it must hash to the root) and
/// the opened values (exactly one value per column at each point).
fn check_claims(
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<(), Rejection> {
    let file = &parsed.file;
    let differ = |field: &'static str, claimed: String, stated: String| {
        same_claim(field, claimed, stated, |claimed, stated| {
            format!("the file says {claimed}, the verifier states {stated}")
        })
    };
    differ(
        "preset",
        file.preset.clone(),
        statement.preset.name().to_string(),
    )?;
    differ("rows", file.rows.to_string(), statement.rows.to_string())?;
    differ("cols", file.cols.to_string(), statement.cols.to_string())?;
    differ(
        "params",
        format!("{:?}", file.params),
        format!("{:?}", statement.params),
    )?;
    differ(
        "points",
        file.points.to_string(),
        statement.points.to_string(),
    )?;
    differ(
        "cap_height",
        file.cap_height.to_string(),
        statement.cap_height.to_string(),
    )?;
    differ("root", hex_digest(&parsed.root), hex_digest(root))?;
    let values = &file.opened_values;
    if values.len() != statement.points {
        return Err(claim(
            "opened_values",
            format!(
                "the file has values at {} points, the verifier draws {}",
                values.len(),
                statement.points
            ),
        ));
    }
    for (k, at_point) in values.iter().enumerate() {
        if at_point.len() != statement.cols {
            return Err(claim(
                format!("opened_values[{k}]"),
                format!(
                    "the file has {} values, the verifier states {} columns",
                    at_point.len(),
                    statement.cols
                ),
            ));
        }
    }
    Ok(())
}

/// Verifies `parsed` against `statement` and the trusted `root`.
fn check<C: MerkleConfig, Ch: Challenger>(
    config: C,
    new_challenger: impl Fn() -> Ch,
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<Result<Verified, Rejection>, Error> {
    if let Err(rejection) = check_claims(statement, root, parsed) {
        return Ok(Err(rejection));
    }
    let shape = statement.lde_shape();
    match root_from_cap(&config, &shape, statement.cap_height, &parsed.cap) {
        Ok(r) if r == *root => {}
        Ok(r) => {
            return Ok(Err(claim(
                "cap",
                format!("it hashes to {}, not the trusted root", hex_digest(&r)),
            )));
        }
        Err(e) => return Ok(Err(claim("cap", e.to_string()))),
    }
    let commitment = Commitment {
        cap: parsed.cap.clone(),
    };
    let pcs = FriPcs::new(config, statement.params)
        .map_err(|e| Error::Failed(e.to_string()))?
        .with_cap_height(statement.cap_height);
    let mut challenger = new_challenger();
    let points = draw_points(&mut challenger, &commitment, statement.points);
    // The verifier's claims, shaped by the statement alone: one matrix of `log_rows`, the
    // points drawn here, and (checked above) one value per column at each of them. The
    // library takes every width and count from these claims.
    let claims = [CommitmentClaim {
        commitment,
        matrices: vec![MatrixClaim {
            log_height: statement.log_rows(),
            points: points
                .iter()
                .zip(&parsed.file.opened_values)
                .map(|(&point, values)| PointClaim {
                    point,
                    values: values.clone(),
                })
                .collect(),
        }],
    }];
    if let Err(e) = pcs.verify(&claims, &parsed.proof, &mut challenger) {
        return Ok(Err(Rejection::Proof(e)));
    }
    let [claim] = claims;
    let (points, values) = claim
        .matrices
        .into_iter()
        .flat_map(|m| m.points)
        .map(|p| (p.point, p.values))
        .unzip();
    Ok(Ok(Verified { points, values }))
}

/// Checks a parsed proof file against the verifier's `statement` and trusted `root`, as
/// `aurum fri verify` does: `Ok(Ok(verified))` for a proof of the statement, `Ok(Err(_))` for
/// a file that is not one (exit status 1), `Err(_)` for a statement the verifier cannot run.
pub fn check_proof_file(
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<Result<Verified, Rejection>, Error> {
    with_fri_preset!(statement.preset, |config, challenger| check(
        config, challenger, statement, root, parsed
    ))
}

/// `aurum fri verify`.
pub(crate) fn verify(args: FriVerifyArgs) -> Result<ExitCode, Error> {
    let statement = args.statement.statement(None)?;
    let root = parse_digest(&args.root).map_err(|e| Error::Usage(format!("--root: {e}")))?;
    let parsed = read_file(&args.proof)?;
    let start = Instant::now();
    let result = check_proof_file(&statement, &root, &parsed)?;
    let elapsed = start.elapsed();
    match result {
        Ok(verified) => {
            if args.json {
                // Only what was verified: the verifier's own statement, the points it drew
                // and the values the proof bound there.
                let report = serde_json::json!({
                    "valid": true,
                    "preset": statement.preset.name(),
                    "rows": statement.rows,
                    "cols": statement.cols,
                    "params": statement.params,
                    "cap_height": statement.cap_height,
                    "root": hex_digest(&root),
                    "points": statement.points,
                    "opening_points": verified.points,
                    "opened_values": verified.values,
                    "seconds": elapsed.as_secs_f64(),
                });
                println!("{report}");
            } else {
                println!(
                    "valid: the {} × {} matrix committed to in root {} takes the claimed values \
                     at the {} points the transcript draws ({:.1} ms)",
                    statement.rows,
                    statement.cols,
                    hex_digest(&root),
                    statement.points,
                    elapsed.as_secs_f64() * 1e3
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(rejection) => Err(Error::Invalid(rejection)),
    }
}
