//! `aurum verify --commitment FILE --proof FILE [--index N]` on arbitrary file contents: the
//! commitment file's parser and checks, the proof file's parser, and the verification of
//! the proof against the statement — exactly the calls the command makes.
//!
//! Input: the commitment file, a 0xFF byte (never in UTF-8 text), the proof file, and
//! optionally a 0xFF byte and 8 bytes of index.

use aurum_cli::proof::{ProofFile, check};
use aurum_cli::statement::Statement;

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let mut parts = data.splitn(3, |&b| b == 0xFF);
    let commitment = parts.next().unwrap_or_default();
    let proof = parts.next().unwrap_or_default();
    let index = parts
        .next()
        .and_then(|b| b.get(..8))
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()) as usize);
    let Ok(text) = std::str::from_utf8(commitment) else {
        return;
    };
    let statement = Statement::from_commitment_json(text);
    let proof = ProofFile::parse(proof);
    if let (Ok(statement), Ok(proof)) = (statement, proof)
        && let Ok(verified) = check(&statement, &proof, index)
    {
        // What is reported as proven is what the proof opened, at the leaf asked about.
        assert_eq!(verified.index, index.unwrap_or(proof.index));
        assert_eq!(verified.rows.len(), statement.dims().len());
        for (row, opened) in verified.rows.iter().zip(&proof.opening.rows) {
            assert_eq!(&row.values, opened);
        }
    }
}
