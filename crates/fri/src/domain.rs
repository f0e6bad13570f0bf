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

/// `s · g^rev(i)` for `i < 2^log_count` (`rev` over `log_count` bits), chunk by chunk: for a
/// chunk of `2^c` values starting at `q · 2^c`,
/// `g^rev(q·2^c + j) = g^rev_{log_count − c}(q) · (g^(2^(log_count − c)))^rev_c(j)`: one
/// exponentiation per chunk and a shared table of `2^c` values.
///
/// With `g = ω` of order `2^log_count` and `s = 7` this is the bit-reversed coset `7·⟨ω⟩`
/// ([`BitReversedPowers::coset`]); folding uses other generators and scales.
pub(crate) struct BitReversedPowers {
    generator: Goldilocks,
    scale: Goldilocks,
    log_count: usize,
    log_chunk: usize,
    /// `(g^(2^(log_count − c)))^rev_c(j)` for `j < 2^c`.
    table: Vec<Goldilocks>,
}

impl BitReversedPowers {
    /// The values `scale · generator^rev(i)`, `i < 2^log_count`, in chunks of
    /// `2^min(log_chunk, log_count)`.
    pub(crate) fn new(
        generator: Goldilocks,
        scale: Goldilocks,
        log_count: usize,
        log_chunk: usize,
    ) -> Self {
        let log_chunk = log_chunk.min(log_count);
        let step = generator.exp_power_of_2(log_count - log_chunk);
        let mut natural = Vec::with_capacity(1 << log_chunk);
        let mut x = Goldilocks::ONE;
        for _ in 0..1usize << log_chunk {
            natural.push(x);
            x *= step;
        }
        let table = (0..1usize << log_chunk)
            .map(|j| natural[reverse_bits(j, log_chunk)])
            .collect();
        Self {
            generator,
            scale,
            log_count,
            log_chunk,
            table,
        }
    }

    /// The bit-reversed coset `7 · ⟨ω⟩` of order `2^log_n`.
    pub(crate) fn coset(log_n: usize, log_chunk: usize) -> Self {
        Self::new(root_of_unity(log_n), SHIFT, log_n, log_chunk)
    }

    /// Values per chunk.
    pub(crate) fn chunk_len(&self) -> usize {
        1 << self.log_chunk
    }

    /// The values of chunk `q` (indices `q · chunk_len ..`).
    pub(crate) fn chunk(&self, q: usize, out: &mut Vec<Goldilocks>) {
        let exponent = reverse_bits(q, self.log_count - self.log_chunk) as u64;
        let start = self.scale * self.generator.exp_u64(exponent);
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
                let coset = BitReversedPowers::coset(log_n, log_chunk);
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
