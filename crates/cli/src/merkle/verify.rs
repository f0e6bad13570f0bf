//! `aurum verify`: a proof file checked against the statement the verifier trusts.

use std::process::ExitCode;

use aurum_merkle::Dimensions;

use crate::args::VerifyArgs;
use crate::error::Error;
use crate::flags::to_usize;
use crate::hex::{hex_digest, parse_digest};
use crate::input::read_limited;
use crate::merkle::proof::{self, MAX_PROOF_BYTES, ProofFile};
use crate::merkle::statement::{Statement, TrustedCommitment};

/// The largest commitment file `aurum verify` reads (a cap of 2^24 digests is ~400 MiB of
/// JSON; real ones are a few KiB).
const MAX_COMMITMENT_BYTES: u64 = 1 << 30;

/// The verifier's statement, from `--commitment` or from `--root` and its flags.
fn trusted_statement(args: &VerifyArgs) -> Result<Statement, Error> {
    if let Some(path) = &args.commitment {
        let text = read_limited(path, MAX_COMMITMENT_BYTES)?;
        let text = String::from_utf8(text).map_err(|_| {
            Error::Input(format!(
                "{} is not a commitment file (not UTF-8)",
                path.display()
            ))
        })?;
        return Statement::from_commitment_json(&text).map_err(|e| e.context(path.display()));
    }
    let missing =
        |flag: &str| Error::Usage(format!("--root needs {flag}: the verifier states the tree"));
    let root = parse_digest(args.root.as_deref().ok_or_else(|| {
        Error::Usage(
            "verify needs the trusted commitment: --commitment FILE, or --root with --preset, \
             --rows and --cols"
                .to_string(),
        )
    })?)
    .map_err(|e| Error::Usage(format!("--root: {e}")))?;
    let preset = args.preset.ok_or_else(|| missing("--preset"))?;
    let dims = [Dimensions {
        width: to_usize("--cols", args.cols.ok_or_else(|| missing("--cols"))?)?,
        height: to_usize("--rows", args.rows.ok_or_else(|| missing("--rows"))?)?,
    }];
    let cap_height = to_usize("--cap-height", args.cap_height.unwrap_or(0))?;
    Statement::with_root(preset, &dims, cap_height, root)
}

pub(crate) fn verify(args: VerifyArgs) -> Result<ExitCode, Error> {
    let statement = trusted_statement(&args)?;
    let text = read_limited(&args.proof, MAX_PROOF_BYTES)?;
    let file = ProofFile::parse(&text).map_err(|e| {
        e.context(format_args!(
            "{} is not a valid proof file",
            args.proof.display()
        ))
    })?;
    let index = args.index.map(|i| to_usize("--index", i)).transpose()?;
    let verified = proof::check(&statement, &file, index)?;
    let commitment = match statement.commitment() {
        TrustedCommitment::Root(root) => format!("root {}", hex_digest(root)),
        TrustedCommitment::Cap(cap) if cap.len() == 1 => format!("root {}", hex_digest(&cap[0])),
        TrustedCommitment::Cap(cap) => format!(
            "cap of height {} ({} digests)",
            statement.cap_height(),
            cap.len()
        ),
    };
    println!(
        "valid: leaf {} of the {} commitment with {commitment}",
        verified.index,
        statement.preset()
    );
    for row in &verified.rows {
        let d = statement.dims()[row.matrix];
        let values: Vec<String> = row
            .values
            .iter()
            .map(|x| x.as_canonical_u64().to_string())
            .collect();
        println!(
            "matrix {} ({} × {}), row {}: [{}]",
            row.matrix,
            d.height,
            d.width,
            row.row,
            values.join(", ")
        );
    }
    if index.is_none() {
        println!(
            "note: leaf {} is the one the proof file names; pass --index to ask about a \
             particular leaf",
            verified.index
        );
    }
    Ok(ExitCode::SUCCESS)
}
