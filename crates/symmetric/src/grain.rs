//! The Grain LFSR round-constant generator of the Poseidon paper (Grassi et al., appendix F),
//! as used by the reference scripts of Poseidon (`generate_parameters_grain.sage`) and
//! Poseidon2 (`poseidon2_rust_params.sage`).
//!
//! The 80-bit state is seeded with the instance description — field type (2 bits: 1 = prime
//! field), S-box type (4 bits: 0 = x^α), field size n (12 bits), width t (12 bits), R_F
//! (10 bits), R_P (10 bits) and thirty 1 bits — clocked 160 times, then used in
//! self-shrinking mode: bits come in pairs and the second is kept only when the first is 1.
//! Field elements are n kept bits read big-endian, rejected and redrawn when ≥ p.

use aurum_goldilocks::{Goldilocks, P};

/// The description of a Poseidon-family instance that seeds the LFSR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrainParams {
    /// Field size in bits (64 for Goldilocks).
    pub field_bits: u16,
    /// State width t.
    pub width: u16,
    /// Number of full rounds R_F.
    pub full_rounds: u16,
    /// Number of partial rounds R_P.
    pub partial_rounds: u16,
}

impl GrainParams {
    /// Goldilocks, x^7 S-box, `R_F = 8`, `R_P = 22`, width `t`: the instance of both plonky2's
    /// Poseidon (t = 12) and the Poseidon2 Goldilocks parameter sets.
    #[must_use]
    pub const fn goldilocks(width: u16) -> Self {
        Self {
            field_bits: 64,
            width,
            full_rounds: 8,
            partial_rounds: 22,
        }
    }
}

/// The LFSR in self-shrinking mode.
#[derive(Clone, Debug)]
pub struct Grain {
    /// The 80 state bits as a window, oldest in bit 0: bit `k` is `b_{i+k}` of the recurrence.
    /// (One shift per step rather than six indexed reads and a modulo: constants are
    /// generated whenever a permutation is built.)
    window: u128,
}

impl Grain {
    /// Seeds the LFSR for a prime-field instance with an x^α S-box and discards 160 bits.
    #[must_use]
    pub fn new(params: GrainParams) -> Self {
        let mut bits = Vec::with_capacity(80);
        let mut push = |value: u64, width: u32| {
            for i in (0..width).rev() {
                bits.push((value >> i) & 1 == 1);
            }
        };
        push(1, 2); // field: GF(p)
        push(0, 4); // S-box: x^alpha
        push(u64::from(params.field_bits), 12);
        push(u64::from(params.width), 12);
        push(u64::from(params.full_rounds), 10);
        push(u64::from(params.partial_rounds), 10);
        push((1 << 30) - 1, 30);
        let window = bits
            .iter()
            .enumerate()
            .fold(0u128, |w, (k, &bit)| w | (u128::from(bit) << k));
        let mut grain = Grain { window };
        for _ in 0..160 {
            grain.clock();
        }
        grain
    }

    /// One LFSR step: b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i.
    fn clock(&mut self) -> bool {
        let at = |k: u32| (self.window >> k) & 1 == 1;
        let bit = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
        self.window = (self.window >> 1) | (u128::from(bit) << 79);
        bit
    }

    /// The next output bit of the self-shrinking generator.
    pub fn next_bit(&mut self) -> bool {
        loop {
            let keep = self.clock();
            let bit = self.clock();
            if keep {
                return bit;
            }
        }
    }

    /// The next field element: 64 output bits, big-endian, redrawn while ≥ p.
    pub fn next_goldilocks(&mut self) -> Goldilocks {
        loop {
            let value = (0..64).fold(0u64, |acc, _| (acc << 1) | u64::from(self.next_bit()));
            if let Ok(x) = Goldilocks::from_canonical(value) {
                return x;
            }
            debug_assert!(value >= P);
        }
    }

    /// The first `count` field elements.
    pub fn take_goldilocks(&mut self, count: usize) -> Vec<Goldilocks> {
        (0..count).map(|_| self.next_goldilocks()).collect()
    }
}

/// All `(R_F + R_P) · t` round constants of an instance, in generation order (round by round,
/// `t` per round), as the reference scripts print them.
#[must_use]
pub fn round_constants(params: GrainParams) -> Vec<Goldilocks> {
    let count = usize::from(params.full_rounds + params.partial_rounds) * usize::from(params.width);
    Grain::new(params).take_goldilocks(count)
}
