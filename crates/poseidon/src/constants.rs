//! The instance: width 12 (rate 8, capacity 4), S-box `x^7`, 4 + 22 + 4 rounds, plonky2's
//! MDS matrix and round constants.
//!
//! # Where the round constants come from
//!
//! The 360 round constants are plonky2's `ALL_ROUND_CONSTANTS` (plonky2 1.1.0,
//! `src/hash/poseidon.rs`), which Polygon's zkProver / pil-stark and eigen's starky copy. They
//! are carried here as **data**, in `data/round_constants.txt` (30 lines of 12 hex values,
//! one line per round), parsed at compile time by [`parse_round_constants`]: a malformed file,
//! a wrong count or a value `≥ p` is a compile error.
//!
//! They are not regenerated because they cannot be: the Grain LFSR of the Poseidon paper
//! (`aurum_symmetric::grain`, seeded for prime field, `x^α`, n = 64, t = 12, R_F = 8,
//! R_P = 22) yields a different table (starting `0x13dcf33aba214f46`), and plonky2's source
//! says its table came from a ChaCha-based generator whose seed it does not record. The
//! tests check that every constant is below p and that the first four and the last are
//! plonky2's; the plonky2 oracle crate (`oracles/plonky2`) checks all 360 against plonky2
//! itself.
//!
//! Everything the fast permutation uses beyond these (moved constants, the sparse
//! partial-round matrices) is *derived* from them and from the MDS matrix in this crate
//! ([`crate::FastConstants`]).

use aurum_goldilocks::P;

/// State width.
pub const WIDTH: usize = 12;
/// Sponge rate (elements absorbed per permutation).
pub const RATE: usize = 8;
/// Sponge capacity.
pub const CAPACITY: usize = 4;
/// Digest length of every hash mode.
pub const DIGEST_LEN: usize = 4;
/// Full rounds before (and after) the partial rounds.
pub const HALF_FULL_ROUNDS: usize = 4;
/// Partial rounds (S-box on `state[0]` only).
pub const PARTIAL_ROUNDS: usize = 22;
/// All rounds.
pub const ROUNDS: usize = 2 * HALF_FULL_ROUNDS + PARTIAL_ROUNDS;

/// First row of the circulant part of the MDS matrix: row `i` of the matrix computes
/// `out[i] = Σ_k state[(k + i) mod 12]·MDS_CIRC[k]` (plus [`MDS_DIAG_0`]`·state[0]` for `i = 0`).
pub const MDS_CIRC: [u64; WIDTH] = [17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20];
/// The MDS matrix is `circ(MDS_CIRC) + diag(8, 0, …, 0)`.
pub const MDS_DIAG_0: u64 = 8;

/// The round constants, `ROUND_CONSTANTS[12·r + i]` added to `state[i]` in round `r`.
pub const ROUND_CONSTANTS: [u64; WIDTH * ROUNDS] =
    parse_round_constants(include_str!("../data/round_constants.txt"));

/// Parses the round-constant data file: `#` starts a comment line; otherwise whitespace
/// separated `0x`-prefixed hexadecimal values, exactly `12 · 30` of them, each below p.
///
/// # Panics
/// Panics (at compile time, where it is used) on anything else.
#[must_use]
pub const fn parse_round_constants(text: &str) -> [u64; WIDTH * ROUNDS] {
    let bytes = text.as_bytes();
    let mut out = [0u64; WIDTH * ROUNDS];
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if b == b' ' || b == b'\n' || b == b'\r' || b == b'\t' {
            i += 1;
        } else {
            assert!(
                b == b'0' && i + 1 < bytes.len() && bytes[i + 1] == b'x',
                "round constants: expected a 0x-prefixed value"
            );
            i += 2;
            let mut value: u64 = 0;
            let mut digits = 0;
            while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                let d = bytes[i];
                let nibble = match d {
                    b'0'..=b'9' => d - b'0',
                    b'a'..=b'f' => d - b'a' + 10,
                    _ => d - b'A' + 10,
                };
                assert!(
                    digits < 16,
                    "round constants: a value has more than 16 digits"
                );
                value = (value << 4) | nibble as u64;
                digits += 1;
                i += 1;
            }
            assert!(digits > 0, "round constants: empty value");
            assert!(value < P, "round constants: a value is not below p");
            assert!(
                count < WIDTH * ROUNDS,
                "round constants: more than 360 values"
            );
            out[count] = value;
            count += 1;
        }
    }
    assert!(
        count == WIDTH * ROUNDS,
        "round constants: fewer than 360 values"
    );
    out
}

/// The MDS matrix as integers: `MDS[i][j]` multiplies `state[j]` in `out[i]`.
#[must_use]
pub const fn mds_matrix() -> [[u64; WIDTH]; WIDTH] {
    let mut m = [[0u64; WIDTH]; WIDTH];
    let mut i = 0;
    while i < WIDTH {
        let mut k = 0;
        while k < WIDTH {
            m[i][(k + i) % WIDTH] = MDS_CIRC[k];
            k += 1;
        }
        i += 1;
    }
    m[0][0] += MDS_DIAG_0;
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_rejects_bad_data() {
        let good: String = (0..360).map(|i| format!("0x{i:x}\n")).collect();
        assert_eq!(parse_round_constants(&good)[359], 359);
        let too_few: String = (0..359).map(|i| format!("0x{i:x} ")).collect();
        assert!(std::panic::catch_unwind(|| parse_round_constants(&too_few)).is_err());
        let too_big = good.replacen("0x0\n", "0xffffffff00000001\n", 1);
        assert!(std::panic::catch_unwind(|| parse_round_constants(&too_big)).is_err());
        let garbage = good.replacen("0x1\n", "17\n", 1);
        assert!(std::panic::catch_unwind(|| parse_round_constants(&garbage)).is_err());
    }

    #[test]
    fn mds_rows_sum_to_the_circulant_total() {
        let m = mds_matrix();
        assert_eq!(m[0].iter().sum::<u64>(), 256 + 8);
        assert!(m[1..].iter().all(|row| row.iter().sum::<u64>() == 256));
        assert_eq!(m[1][0], 20);
        assert_eq!(m[0][0], 25);
    }
}
