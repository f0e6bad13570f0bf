//! The checksum of a tree file's header and levels.

use super::format::le_u64;

/// A running checksum of 64-bit words: each step `s ← (rotl(s, 23) ⊕ w) · M` with `M` odd is
/// a bijection of the word for a fixed state and of the state for a fixed word, so two word
/// sequences of the same length that differ in one word end in different states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Checksum(pub(crate) u64);

impl Checksum {
    pub(crate) fn new() -> Self {
        Checksum(0x243F_6A88_85A3_08D3)
    }

    pub(crate) fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    /// Whole 8-byte words of `bytes` (its length is a multiple of 8 everywhere it is used).
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for word in bytes.chunks_exact(8) {
            self.word(le_u64(word));
        }
    }
}
