//! Known answers shared by the test binaries.

/// plonky2's known answer: the permutation of the all-zero state (`poseidon_goldilocks.rs`
/// tests).
pub const ZERO_STATE_PERMUTED: [u64; 12] = [
    0x3c18a9786cb0b359,
    0xc4055e3364a246c3,
    0x7953db0ab48808f4,
    0xc71603f33a1144ca,
    0xd7709673896996dc,
    0x46a84e87642f44ed,
    0xd032648251ee0b3c,
    0x1c687363b207df62,
    0xdf8565563e8045fe,
    0x40f5b37ff4254dae,
    0xd070f637b431067c,
    0x1792b1c4342109d7,
];
