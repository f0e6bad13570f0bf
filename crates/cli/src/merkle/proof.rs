//! Proof files (`aurum open` writes them) and their verification against a verifier's
//! [`Statement`].

use core::fmt;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Commitment, Dimensions, Opening, Preset, root_from_cap, verify};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::hex::hex_digest;
use crate::merkle::statement::{Statement, TrustedCommitment};
pub use crate::rejection::Rejection;
use crate::rejection::{claim, same_claim};

/// The largest proof file `aurum verify` reads: far above any real opening (a row of 2^20
/// elements is about 20 MiB of JSON), and a bound on what a hostile file can make it
/// allocate.
pub const MAX_PROOF_BYTES: u64 = 256 << 20;

/// A proof file: one leaf's opening, with what the prover says it is an opening of. The
/// claims (preset, dimensions, cap height, commitment, index) are only compared with the
/// verifier's statement; verification uses the statement's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofFile {
    /// The tree's preset.
    pub preset: String,
    /// The committed matrices' dimensions.
    pub dims: Vec<Dimensions>,
    /// The cap height the opening reaches (0 when absent: files of earlier versions).
    #[serde(default)]
    pub cap_height: usize,
    /// The opened leaf.
    pub index: usize,
    /// The commitment (cap) the opening is against.
    pub commitment: Commitment,
    /// The opened rows and the sibling path.
    pub opening: Opening,
}

impl ProofFile {
    /// Parses a proof file's JSON.
    pub fn parse(text: &[u8]) -> Result<Self, Error> {
        serde_json::from_slice(text).map_err(|e| Error::Input(e.to_string()))
    }

    /// The proof file's JSON.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serialises")
    }
}

/// One opened row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedRow {
    /// The matrix (input order).
    pub matrix: usize,
    /// The row of that matrix.
    pub row: usize,
    /// Its values.
    pub values: Vec<Goldilocks>,
}

/// What a verified proof proves: these rows are at leaf `index` of the statement's tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The leaf.
    pub index: usize,
    /// The rows of every matrix at that leaf.
    pub rows: Vec<OpenedRow>,
}

/// `proof`'s claims must equal `trusted`; `what` names the value in the message.
fn same<T: PartialEq + fmt::Display>(
    field: &str,
    what: &str,
    proof: T,
    trusted: T,
) -> Result<(), Rejection> {
    same_claim(field, proof, trusted, |proof, trusted| {
        format!("the proof says {what} {proof}, the trusted commitment has {trusted}")
    })
}

/// Checks that `proof` opens leaf `index` — the one the verifier asks about, or the proof's
/// own when `index` is `None` — of the tree `statement` describes, and returns the rows it
/// proves. Every claim of the proof file is checked against the statement first.
pub fn check(
    statement: &Statement,
    proof: &ProofFile,
    index: Option<usize>,
) -> Result<Verified, Rejection> {
    let preset = statement.preset();
    if proof.preset.parse::<Preset>() != Ok(preset) {
        return Err(claim(
            "preset",
            format!(
                "the proof says {:?}, the trusted commitment is {preset}",
                proof.preset
            ),
        ));
    }
    let dims = statement.dims();
    same("dims", "matrices:", proof.dims.len(), dims.len())?;
    for (m, (claimed, trusted)) in proof.dims.iter().zip(dims).enumerate() {
        same(
            &format!("dims[{m}].width"),
            "width",
            claimed.width,
            trusted.width,
        )?;
        same(
            &format!("dims[{m}].height"),
            "height",
            claimed.height,
            trusted.height,
        )?;
    }
    let cap_height = statement.cap_height();
    same("cap_height", "cap height", proof.cap_height, cap_height)?;
    let cap = &proof.commitment.cap;
    match statement.commitment() {
        TrustedCommitment::Cap(trusted) => {
            same("commitment.cap", "digests:", cap.len(), trusted.len())?;
            for (i, (claimed, trusted)) in cap.iter().zip(trusted).enumerate() {
                if claimed != trusted {
                    return Err(claim(
                        format!("commitment.cap[{i}]"),
                        format!(
                            "the proof says {}, the trusted cap has {}",
                            hex_digest(claimed),
                            hex_digest(trusted)
                        ),
                    ));
                }
            }
        }
        TrustedCommitment::Root(root) => {
            let recomputed = with_preset!(preset, |config| root_from_cap(
                &config,
                statement.shape(),
                cap_height,
                cap
            ))
            .map_err(|e| claim("commitment.cap", e.to_string()))?;
            if &recomputed != root {
                return Err(claim(
                    "commitment.cap",
                    format!(
                        "it leads to the root {}, not to the trusted root {}",
                        hex_digest(&recomputed),
                        hex_digest(root)
                    ),
                ));
            }
        }
    }
    let index = match index {
        Some(asked) if asked != proof.index => {
            return Err(claim(
                "index",
                format!(
                    "the proof opens leaf {}, the verifier asks about leaf {asked}",
                    proof.index
                ),
            ));
        }
        Some(asked) => asked,
        None => proof.index,
    };
    with_preset!(preset, |config| verify(
        &config,
        &proof.commitment,
        dims,
        index,
        &proof.opening
    ))
    .map_err(Rejection::Opening)?;
    let shape = statement.shape();
    let rows = proof
        .opening
        .rows
        .iter()
        .enumerate()
        .map(|(matrix, values)| OpenedRow {
            matrix,
            // `verify` accepted the index and one row per matrix.
            row: shape.opened_row(matrix, index).unwrap_or_default(),
            values: values.clone(),
        })
        .collect();
    Ok(Verified { index, rows })
}
