//! Keccak-256 (the original Keccak padding, as Ethereum and Plonky3's `Keccak256Hash` use it,
//! not SHA3-256): the byte hash Plonky3's Fiat–Shamir transcripts fingerprint their shape with.
//!
//! A plain scalar implementation of the Keccak-f\[1600\] permutation (FIPS 202, §3): it hashes
//! a few hundred bytes per proof, never data.

/// Rate of Keccak-256 in bytes: `1600 − 2·256` bits.
const RATE_BYTES: usize = 136;

/// Rounds of Keccak-f\[1600\].
const ROUNDS: usize = 24;

/// The ι step's round constants (FIPS 202, algorithm 5, evaluated for the 24 rounds).
const ROUND_CONSTANTS: [u64; ROUNDS] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// The ρ step's rotation of lane `x + 5y` (FIPS 202, table 2).
const ROTATIONS: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

/// Keccak-f\[1600\] on 25 lanes, lane `x + 5y` at index `x + 5·y`.
fn keccak_f(state: &mut [u64; 25]) {
    for &round_constant in &ROUND_CONSTANTS {
        // θ: each lane absorbs the parities of two neighbouring columns.
        let mut parity = [0u64; 5];
        for (x, p) in parity.iter_mut().enumerate() {
            *p = (0..5).fold(0, |acc, y| acc ^ state[x + 5 * y]);
        }
        for x in 0..5 {
            let d = parity[(x + 4) % 5] ^ parity[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                state[x + 5 * y] ^= d;
            }
        }
        // ρ and π: rotate each lane, then move lane (x, y) to (y, 2x + 3y).
        let mut moved = [0u64; 25];
        for x in 0..5 {
            for y in 0..5 {
                let lane = x + 5 * y;
                moved[y + 5 * ((2 * x + 3 * y) % 5)] = state[lane].rotate_left(ROTATIONS[lane]);
            }
        }
        // χ: the only non-linear step, row by row.
        for y in 0..5 {
            for x in 0..5 {
                state[x + 5 * y] =
                    moved[x + 5 * y] ^ (!moved[(x + 1) % 5 + 5 * y] & moved[(x + 2) % 5 + 5 * y]);
            }
        }
        // ι
        state[0] ^= round_constant;
    }
}

/// XORs one rate-sized block (little-endian lanes) into the state.
fn absorb_block(state: &mut [u64; 25], block: &[u8; RATE_BYTES]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        *lane ^= u64::from_le_bytes(word);
    }
    keccak_f(state);
}

/// The Keccak-256 digest of `bytes`.
#[must_use]
pub fn keccak256(bytes: &[u8]) -> [u8; 32] {
    let mut state = [0u64; 25];
    let mut blocks = bytes.chunks_exact(RATE_BYTES);
    for block in &mut blocks {
        absorb_block(&mut state, block.try_into().expect("a whole block"));
    }
    // Keccak's pad10*1 with the original domain byte 0x01 (SHA3 would use 0x06).
    let tail = blocks.remainder();
    let mut last = [0u8; RATE_BYTES];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] ^= 0x01;
    last[RATE_BYTES - 1] ^= 0x80;
    absorb_block(&mut state, &last);
    let mut digest = [0u8; 32];
    for (out, lane) in digest.chunks_exact_mut(8).zip(&state) {
        out.copy_from_slice(&lane.to_le_bytes());
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn known_answers() {
        // Keccak-256 of the empty string and of "abc" (the Keccak team's and Ethereum's
        // published values).
        assert_eq!(
            hex(&keccak256(b"")),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(
            hex(&keccak256(b"abc")),
            "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
        );
    }

    #[test]
    fn block_boundaries_change_the_digest() {
        // Inputs around the rate: the padding byte lands in the last block or a new one.
        let mut seen = std::collections::HashSet::new();
        for len in [
            RATE_BYTES - 2,
            RATE_BYTES - 1,
            RATE_BYTES,
            RATE_BYTES + 1,
            3 * RATE_BYTES,
        ] {
            assert!(seen.insert(keccak256(&vec![0xa5; len])), "length {len}");
        }
    }
}
