//! `aurum fri verify`'s proof-file path on arbitrary file contents: the proof file's parser
//! (`aurum_cli::fri::parse_proof_file`: JSON, claims, root, cap, the proof's encoding) and
//! its check against genuine statements (`check_proof_file`, exactly the calls the command
//! makes) — small matrices of each Poseidon2 preset, with caps, several points and folding
//! arities, each trusted by the root of a genuine proof of it. Whatever verifies must be the
//! genuine proof's values at the points the verifier drew: any other values would be a
//! forgery.
//!
//! Input: one byte choosing the statement, then the proof file.

use std::sync::OnceLock;

use aurum_cli::args::{FriPreset, FriStatementArgs};
use aurum_cli::fri::{FriProofFile, Statement, check_proof_file, parse_proof_file};
use aurum_merkle::{Digest, Preset};

/// A statement, the root of its genuine proof and the genuine proof file.
struct Case {
    statement: Statement,
    root: Digest,
    genuine: FriProofFile,
}

/// The statements, as `aurum fri` flags: preset, rows, columns, points, cap height, and
/// `--max-log-arity`, `--log-final-poly-len` (with `--params testing`, seed 0).
/// `scripts/fuzz-seeds.sh` writes a seed for each, in this order.
pub const STATEMENTS: [(Preset, u64, u64, u64, u64, u64, u64); 4] = [
    (Preset::Poseidon2W8, 16, 2, 2, 0, 1, 0),
    (Preset::Poseidon2W12, 32, 3, 1, 1, 1, 0),
    (Preset::Poseidon2W16, 8, 1, 3, 2, 1, 0),
    (Preset::Poseidon2W8, 64, 4, 2, 0, 2, 1),
];

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        STATEMENTS
            .iter()
            .map(
                |&(preset, rows, cols, points, cap_height, arity, final_len)| {
                    let args = FriStatementArgs {
                        rows,
                        cols,
                        preset,
                        params: FriPreset::Testing,
                        log_blowup: None,
                        log_final_poly_len: Some(final_len),
                        max_log_arity: Some(arity),
                        num_queries: None,
                        batch_pow_bits: None,
                        commit_pow_bits: None,
                        query_pow_bits: None,
                        points,
                        cap_height,
                    };
                    let statement = args.statement(None).expect("a valid statement");
                    let (root, genuine) =
                        aurum_cli::fri::prove_generated(&statement, 0).expect("a genuine proof");
                    Case {
                        statement,
                        root,
                        genuine,
                    }
                },
            )
            .collect()
    })
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let cases = cases();
    let case = &cases[pick as usize % cases.len()];
    let Ok(parsed) = parse_proof_file(file) else {
        return;
    };
    let checked = check_proof_file(&case.statement, &case.root, &parsed)
        .expect("a genuine statement can be checked");
    if let Ok(verified) = checked {
        assert_eq!(
            verified.values, case.genuine.opened_values,
            "other values than the genuine proof's verified"
        );
        assert_eq!(verified.points.len(), verified.values.len());
        assert_eq!(parsed.root, case.root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed seeds are genuine proofs of the statements, in order: the target starts
    /// from files that verify, not from files every check rejects.
    #[test]
    fn the_seeds_verify() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../seeds/fri_verify_file");
        for (i, case) in cases().iter().enumerate() {
            let data = std::fs::read(dir.join(i.to_string())).unwrap();
            assert_eq!(usize::from(data[0]), i);
            let parsed = parse_proof_file(&data[1..]).unwrap();
            assert_eq!(
                parsed.file, case.genuine,
                "seed {i} is not the genuine proof"
            );
            let verified = check_proof_file(&case.statement, &case.root, &parsed)
                .unwrap()
                .unwrap();
            assert_eq!(verified.values, case.genuine.opened_values);
            run(&data);
        }
    }
}
