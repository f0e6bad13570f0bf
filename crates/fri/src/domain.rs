//! Points of the evaluation domains in the order codewords store them.
//!
//! A committed LDE of height `n = 2^log_n` holds, in row `i`, the evaluation at
//! `x_i = g · ω_n^rev(i)`: `g = 7` (the multiplicative generator, Plonky3's coset shift),
//! `ω_n` the two-adic generator of order `n`, `rev` the reversal of `log_n` bits. In that order
//! the first `2^k` rows are the coset of order `2^k`, which is how shorter matrices and the low
//! rows of an LDE share one description.

use aurum_goldilocks::Goldilocks;

/// The coset shift of every LDE: Goldilocks' multiplicative generator 7.
pub(crate) const SHIFT: Goldilocks = Goldilocks::GENERATOR;

/// Reverses the low `bits` bits of `x` (`bits ≤ 64`; 0 gives 0).
pub(crate) fn reverse_bits(x: usize, bits: usize) -> usize {
    if bits == 0 {
        0
    } else {
        x.reverse_bits() >> (usize::BITS as usize - bits)
    }
}

/// `ω` of order `2^log_n` (`log_n ≤ 32`, checked by every caller's validation).
pub(crate) fn root_of_unity(log_n: usize) -> Goldilocks {
    Goldilocks::two_adic_generator(log_n).expect("domains are at most 2^32 points")
}

/// The coset `g · ⟨ω_n⟩` in bit-reversed order, produced chunk by chunk: for a chunk of
/// `2^c` rows starting at `q · 2^c`, `x_{q·2^c + j} = (g · ω_n^rev_{log_n − c}(q)) · ω_{2^c}^rev_c(j)`,
/// one exponentiation per chunk and a shared table of `2^c` roots.
pub(crate) struct BitReversedCoset {
    log_n: usize,
    log_chunk: usize,
    /// `ω_{2^c}^rev_c(j)` for `j < 2^c`.
    table: Vec<Goldilocks>,
}

impl BitReversedCoset {
    /// The coset of order `2^log_n`, in chunks of `2^min(log_chunk, log_n)` points.
    pub(crate) fn new(log_n: usize, log_chunk: usize) -> Self {
        let log_chunk = log_chunk.min(log_n);
        let root = root_of_unity(log_chunk);
        let mut natural = Vec::with_capacity(1 << log_chunk);
        let mut x = Goldilocks::ONE;
        for _ in 0..1usize << log_chunk {
            natural.push(x);
            x *= root;
        }
        let table = (0..1usize << log_chunk)
            .map(|j| natural[reverse_bits(j, log_chunk)])
            .collect();
        Self {
            log_n,
            log_chunk,
            table,
        }
    }

    /// Points per chunk.
    pub(crate) fn chunk_len(&self) -> usize {
        1 << self.log_chunk
    }

    /// The points of chunk `q` (rows `q · chunk_len ..`).
    pub(crate) fn chunk(&self, q: usize, out: &mut Vec<Goldilocks>) {
        let exponent = reverse_bits(q, self.log_n - self.log_chunk) as u64;
        let start = SHIFT * root_of_unity(self.log_n).exp_u64(exponent);
        out.clear();
        out.extend(self.table.iter().map(|&t| start * t));
    }
}

/// The point of row `i` of a bit-reversed coset of order `2^log_n` (`i < 2^log_n`).
pub(crate) fn coset_point(log_n: usize, i: usize) -> Goldilocks {
    SHIFT * root_of_unity(log_n).exp_u64(reverse_bits(i, log_n) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_list_the_bit_reversed_coset() {
        for log_n in 0..8 {
            for log_chunk in 0..5 {
                let coset = BitReversedCoset::new(log_n, log_chunk);
                let mut points = Vec::new();
                let mut chunk = Vec::new();
                for q in 0..(1 << log_n) / coset.chunk_len() {
                    coset.chunk(q, &mut chunk);
                    points.extend_from_slice(&chunk);
                }
                let expected: Vec<Goldilocks> =
                    (0..1 << log_n).map(|i| coset_point(log_n, i)).collect();
                assert_eq!(points, expected, "log_n {log_n} chunk {log_chunk}");
            }
        }
        // The first 2^k rows of a larger coset are the coset of order 2^k.
        for i in 0..16 {
            assert_eq!(coset_point(10, i), coset_point(4, i));
        }
        assert_eq!(reverse_bits(0b0011, 4), 0b1100);
        assert_eq!(reverse_bits(5, 0), 0);
    }
}
