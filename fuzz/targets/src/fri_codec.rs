//! `aurum_fri::codec::decode` (the proof inside a file of `aurum fri --out`) on arbitrary
//! bytes: an error, or a proof that `encode` turns back into exactly these bytes (one proof,
//! one encoding) and that holds at most `MAX_HEAP_PER_BYTE` (24) bytes of heap per input byte
//! (no count in the bytes sizes an allocation beyond what the bytes themselves can fill).
//! Never a panic.

use aurum_fri::FriProof;
use aurum_fri::codec::{MAX_HEAP_PER_BYTE, decode, encode};

/// The heap bytes `proof` holds (every `Vec`'s capacity).
fn heap_bytes(proof: &FriProof) -> usize {
    fn vec<T>(v: &Vec<T>) -> usize {
        v.capacity() * size_of::<T>()
    }
    let commits: usize = proof.commit_phase_commits.iter().map(|c| vec(&c.cap)).sum();
    let inputs: usize = proof
        .input_openings
        .iter()
        .map(|o| {
            let rows: usize = o
                .rows
                .iter()
                .map(|q| vec(q) + q.iter().map(vec).sum::<usize>())
                .sum();
            vec(&o.rows) + rows + vec(&o.siblings)
        })
        .sum();
    let rounds: usize = proof
        .commit_phase_openings
        .iter()
        .map(|r| {
            vec(&r.sibling_values)
                + r.sibling_values.iter().map(vec).sum::<usize>()
                + vec(&r.siblings)
        })
        .sum();
    vec(&proof.commit_phase_commits)
        + commits
        + vec(&proof.commit_pow_witnesses)
        + vec(&proof.input_openings)
        + inputs
        + vec(&proof.commit_phase_openings)
        + rounds
        + vec(&proof.final_poly)
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let Ok(proof) = decode(data) else {
        return;
    };
    assert_eq!(encode(&proof), data, "a proof with another encoding");
    let held = heap_bytes(&proof);
    assert!(
        held <= MAX_HEAP_PER_BYTE * data.len(),
        "{} bytes decoded into {held} bytes of heap",
        data.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed seeds (but the bare header) are proofs.
    #[test]
    fn the_seeds_decode() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../seeds/fri_codec");
        for i in 0..4 {
            let data = std::fs::read(dir.join(i.to_string())).unwrap();
            let proof = decode(&data).unwrap();
            assert!(heap_bytes(&proof) <= MAX_HEAP_PER_BYTE * data.len());
            run(&data);
        }
    }
}
