//! The statement a verifier trusts: which tree (the preset), over which matrices (their
//! dimensions), with which cap height, committed to which root — and the cap when the
//! verifier has it. It comes from the verifier's side: a commitment file written by
//! `aurum commit --out` (or its `--json` output), or flags. A proof never supplies it.

use aurum_merkle::{Digest, Dimensions, Preset, TreeShape, root_from_cap};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::hex::{hex_digest, hex_words, parse_cap, parse_digest};

/// What the verifier holds of the commitment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrustedCommitment {
    /// Only the root: a proof's cap must lead back to it.
    Root(Digest),
    /// The whole cap (its root is checked when the statement is made): a proof's cap must
    /// equal it.
    Cap(Vec<Digest>),
}

/// A verifier's statement: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    preset: Preset,
    shape: TreeShape,
    cap_height: usize,
    commitment: TrustedCommitment,
}

/// The commitment file: what `aurum commit --out` writes and `aurum verify --commitment`
/// reads. The `--json` report carries the same fields and the report's own, which are read
/// (so that a report with a field of the wrong type or an unknown field is refused like any
/// other file) and otherwise ignored. Unknown fields are refused at every depth.
#[derive(Serialize, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // The report's fields are read only to be checked.
struct CommitmentFile {
    preset: String,
    dims: Vec<Dimensions>,
    cap_height: usize,
    /// `0x…,0x…,0x…,0x…`.
    root: String,
    /// Each digest as four hex words.
    cap: Vec<Vec<String>>,
    // The rest of the `--json` report (`crate::merkle::report`), absent from commitment files:
    // accepted, checked for their types and unknown fields, and ignored.
    #[serde(default, skip_serializing)]
    backend: Option<String>,
    #[serde(default, skip_serializing)]
    sve_vector_bits: Option<usize>,
    #[serde(default, skip_serializing)]
    device: Option<String>,
    #[serde(default, skip_serializing)]
    threads: Option<usize>,
    #[serde(default, skip_serializing)]
    source: Option<String>,
    #[serde(default, skip_serializing)]
    rows: Option<usize>,
    #[serde(default, skip_serializing)]
    cols: Option<usize>,
    #[serde(default, skip_serializing)]
    seconds: Option<f64>,
    #[serde(default, skip_serializing)]
    permutations: Option<usize>,
    #[serde(default, skip_serializing)]
    mperm_per_s: Option<f64>,
    #[serde(default, skip_serializing)]
    peak_memory_bytes: Option<u64>,
    #[serde(default, skip_serializing)]
    tree: Option<crate::merkle::report::TreeFileReport>,
    #[serde(default, skip_serializing)]
    mpi: Option<crate::merkle::report::MpiSummary>,
}

impl Statement {
    /// A statement of which only the root is trusted (`--root` with `--preset`, `--rows`,
    /// `--cols`, `--cap-height`).
    pub fn with_root(
        preset: Preset,
        dims: &[Dimensions],
        cap_height: usize,
        root: Digest,
    ) -> Result<Self, Error> {
        let shape = checked_shape(dims, cap_height)?;
        Ok(Self {
            preset,
            shape,
            cap_height,
            commitment: TrustedCommitment::Root(root),
        })
    }

    /// A statement with its cap. When `root` is given it must be the cap's root (where the
    /// cap determines the root: no matrix joins the tree above the cap).
    pub fn with_cap(
        preset: Preset,
        dims: &[Dimensions],
        cap_height: usize,
        cap: Vec<Digest>,
        root: Option<Digest>,
    ) -> Result<Self, Error> {
        let shape = checked_shape(dims, cap_height)?;
        let recomputed = with_preset!(preset, |config| root_from_cap(
            &config, &shape, cap_height, &cap
        ));
        match (recomputed, root) {
            (Ok(recomputed), Some(root)) if recomputed != root => {
                return Err(Error::Statement(format!(
                    "the root {} is not the root of the cap, {}",
                    hex_digest(&root),
                    hex_digest(&recomputed)
                )));
            }
            (Ok(_), _) | (Err(aurum_merkle::VerifyError::MatricesAboveCap { .. }), _) => {}
            (Err(e), _) => return Err(Error::Statement(e.to_string())),
        }
        Ok(Self {
            preset,
            shape,
            cap_height,
            commitment: TrustedCommitment::Cap(cap),
        })
    }

    /// Reads a commitment file (or the JSON report of `aurum commit --json`).
    pub fn from_commitment_json(text: &str) -> Result<Self, Error> {
        let file: CommitmentFile = serde_json::from_str(text).map_err(|e| {
            Error::Input(format!("not a commitment written by `aurum commit`: {e}"))
        })?;
        let preset: Preset = file
            .preset
            .parse()
            .map_err(|e| Error::Input(format!("preset: {e}")))?;
        let cap = parse_cap(&file.cap)?;
        let root = parse_digest(&file.root).map_err(|e| e.context("root"))?;
        Self::with_cap(preset, &file.dims, file.cap_height, cap, Some(root))
    }

    /// The tree's configuration.
    #[must_use]
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// The committed matrices' dimensions, in input order.
    #[must_use]
    pub fn dims(&self) -> &[Dimensions] {
        self.shape.dims()
    }

    /// The tree's geometry.
    #[must_use]
    pub fn shape(&self) -> &TreeShape {
        &self.shape
    }

    /// The cap height openings are made against.
    #[must_use]
    pub fn cap_height(&self) -> usize {
        self.cap_height
    }

    /// The trusted root or cap.
    #[must_use]
    pub fn commitment(&self) -> &TrustedCommitment {
        &self.commitment
    }
}

/// The commitment file of a tree: what `aurum commit --out` writes.
#[must_use]
pub fn commitment_json(
    preset: Preset,
    dims: &[Dimensions],
    cap_height: usize,
    root: &Digest,
    cap: &[Digest],
) -> String {
    let file = CommitmentFile {
        preset: preset.name().to_string(),
        dims: dims.to_vec(),
        cap_height,
        root: hex_digest(root),
        cap: cap.iter().map(hex_words).collect(),
        backend: None,
        sve_vector_bits: None,
        device: None,
        threads: None,
        source: None,
        rows: None,
        cols: None,
        seconds: None,
        permutations: None,
        mperm_per_s: None,
        peak_memory_bytes: None,
        tree: None,
        mpi: None,
    };
    serde_json::to_string_pretty(&file).expect("plain data serialises")
}

/// The tree of `dims`, which must have a cap of height `cap_height`.
pub(crate) fn checked_shape(dims: &[Dimensions], cap_height: usize) -> Result<TreeShape, Error> {
    let shape = TreeShape::new(dims).map_err(|e| Error::Statement(format!("dimensions: {e}")))?;
    if cap_height > shape.depth() {
        return Err(Error::Statement(format!(
            "cap height {cap_height} exceeds the depth {} of a tree of {} leaves",
            shape.depth(),
            shape.max_height()
        )));
    }
    Ok(shape)
}
