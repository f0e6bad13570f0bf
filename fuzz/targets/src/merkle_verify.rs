//! `aurum_merkle::verify` with arbitrary dimensions, index, commitment and opening, for every
//! preset: a typed error or `Ok`, never a panic, a hang or a huge allocation.

use arbitrary::Arbitrary;
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Commitment, Dimensions, Opening, config, verify};

#[derive(Arbitrary, Debug)]
pub struct Input {
    preset: u8,
    dims: Vec<(usize, usize)>,
    index: usize,
    cap: Vec<[u64; 4]>,
    rows: Vec<Vec<u64>>,
    siblings: Vec<[u64; 4]>,
}

fn digest(words: &[u64; 4]) -> [Goldilocks; 4] {
    words.map(Goldilocks::from_u64)
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(input: Input) {
    let dims: Vec<Dimensions> = input
        .dims
        .iter()
        .take(16)
        .map(|&(width, height)| Dimensions { width, height })
        .collect();
    let commitment = Commitment {
        cap: input.cap.iter().map(digest).collect(),
    };
    let opening = Opening {
        rows: input
            .rows
            .iter()
            .map(|r| r.iter().copied().map(Goldilocks::from_u64).collect())
            .collect(),
        siblings: input.siblings.iter().map(digest).collect(),
    };
    let index = input.index;
    let _ = match input.preset % 5 {
        0 => verify(&config::poseidon2_w8(), &commitment, &dims, index, &opening),
        1 => verify(
            &config::poseidon2_w12(),
            &commitment,
            &dims,
            index,
            &opening,
        ),
        2 => verify(
            &config::poseidon2_w16(),
            &commitment,
            &dims,
            index,
            &opening,
        ),
        3 => verify(&config::plonky2(), &commitment, &dims, index, &opening),
        _ => verify(&config::polygon(), &commitment, &dims, index, &opening),
    };
}
