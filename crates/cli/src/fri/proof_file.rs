//! The proof file of `aurum fri --out`: the prover's claims about the statement, the cap, the
//! opened values and the proof (compact binary, in hex), and its parser.

use std::path::Path;

use aurum_fri::{FriParameters, FriProof, codec};
use aurum_goldilocks::Goldilocks2;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::hex::{parse_bytes, parse_cap, parse_digest};

/// The largest proof file `aurum fri verify` reads (real ones are a few hundred KiB).
const MAX_FRI_PROOF_BYTES: u64 = 256 << 20;

/// The proof file's `format` value.
pub(crate) const FORMAT: &str = "aurum-fri-proof";

/// The proof file: the prover's claims about the statement (compared, never used), the cap,
/// the opened values and the proof (compact binary, in hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FriProofFile {
    /// `aurum-fri-proof`.
    pub format: String,
    /// 1.
    pub version: u32,
    /// The Merkle preset.
    pub preset: String,
    /// Rows of the committed matrix.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// FRI parameters.
    pub params: FriParameters,
    /// Opening points drawn.
    pub points: usize,
    /// Cap height.
    pub cap_height: usize,
    /// The root, `0x…,0x…,0x…,0x…`.
    pub root: String,
    /// The cap, each digest as four hex words.
    pub cap: Vec<Vec<String>>,
    /// `opened_values[k][j]`: column `j` at point `k`.
    pub opened_values: Vec<Vec<Goldilocks2>>,
    /// The proof's compact binary encoding, in hex.
    pub proof: String,
}

/// A proof file, parsed: its claims, and the cap, root and proof decoded (a file whose
/// values cannot be decoded is malformed, not merely invalid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedProofFile {
    /// The file as written.
    pub file: FriProofFile,
    /// Its `root` claim.
    pub root: aurum_merkle::Digest,
    /// Its cap.
    pub cap: Vec<aurum_merkle::Digest>,
    /// Its proof.
    pub proof: FriProof,
}

/// Parses a proof file written by `aurum fri --out`: JSON without unknown fields (at any
/// depth), format `aurum-fri-proof` version 1, a root and a cap of canonical digests, and a
/// proof in the compact encoding. The errors are the CLI's exit-status-2 messages (without
/// the file's name).
pub fn parse_proof_file(text: &[u8]) -> Result<ParsedProofFile, Error> {
    let file: FriProofFile = serde_json::from_slice(text)
        .map_err(|e| Error::Input(format!("not a proof file of `aurum fri`: {e}")))?;
    if file.format != FORMAT || file.version != 1 {
        return Err(Error::Input(
            "not a proof file of `aurum fri` version 1".to_string(),
        ));
    }
    let root = parse_digest(&file.root).map_err(|e| e.context("root"))?;
    let cap = parse_cap(&file.cap)?;
    let bytes = parse_bytes(&file.proof).map_err(|e| e.context("proof"))?;
    let proof = codec::decode(&bytes).map_err(|e| Error::Input(format!("proof: {e}")))?;
    Ok(ParsedProofFile {
        file,
        root,
        cap,
        proof,
    })
}

/// Reads and parses a proof file (malformed files are errors, exit status 2).
pub(crate) fn read_file(path: &Path) -> Result<ParsedProofFile, Error> {
    let text = crate::input::read_limited(path, MAX_FRI_PROOF_BYTES)?;
    parse_proof_file(&text).map_err(|e| e.context(path.display()))
}
