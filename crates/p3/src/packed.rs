//! The permutation, hash and compression on Plonky3's packed Goldilocks, in builds where
//! `<Goldilocks as Field>::Packing` is a SIMD type (x86-64 with AVX2 or AVX-512 enabled at
//! compile time, AArch64 with NEON, WebAssembly with SIMD128); elsewhere it is `Goldilocks`
//! itself and the scalar implementations serve.
//!
//! Plonky3 requires these for type-checking `MerkleTreeMmcs` and `DuplexChallenger`, but on
//! Aurum's types they are off the hot path: the Merkle tree takes the batched `hash_many` /
//! `compress_many` route (`LANES > 1`), and only the challenger's proof-of-work search
//! permutes packed states. Each call unpacks the lanes into states, runs Aurum's bulk kernel
//! on them (runtime backend), and packs the results.

use aurum_goldilocks::Goldilocks as AurumGoldilocks;
use aurum_poseidon2::{LinearLayers, Plonky3Layers};
use aurum_symmetric::{compress_layer, hash_rows, permute_many};
use p3_field::{Field, PackedValue};
use p3_goldilocks::Goldilocks as P3Goldilocks;
use p3_symmetric::{
    CryptographicHasher, CryptographicPermutation, Permutation, PseudoCompressionFunction,
};

use crate::convert::cast_slice;
use crate::{PaddingFreeSponge, Poseidon2Goldilocks, TruncatedPermutation};

// Plonky3's packed Goldilocks in this build, by name: trait coherence does not see through the
// projection `<Goldilocks as Field>::Packing`, which is `Goldilocks` itself in other builds.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
type P3Packing = p3_goldilocks::PackedGoldilocksAVX512;
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(target_feature = "avx512f")
))]
type P3Packing = p3_goldilocks::PackedGoldilocksAVX2;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
type P3Packing = p3_goldilocks::PackedGoldilocksNeon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
type P3Packing = p3_goldilocks::PackedGoldilocksWasmSimd128;

/// Compiles only if the name above is Plonky3's packing.
const _: fn(P3Packing) -> <P3Goldilocks as Field>::Packing = |packed| packed;

/// Its number of lanes.
const LANES: usize = <P3Packing as PackedValue>::WIDTH;

/// Lane `lane` of every element of `packed`, as one Aurum row.
fn lane_of<const N: usize>(packed: &[P3Packing; N], lane: usize) -> [AurumGoldilocks; N] {
    let mut row = [P3Goldilocks::default(); N];
    for (x, p) in row.iter_mut().zip(packed) {
        *x = p.as_slice()[lane];
    }
    crate::convert::cast(row)
}

/// Packs `rows[lane]` into lane `lane` of every element.
fn pack_rows<const N: usize>(rows: &[[AurumGoldilocks; N]]) -> [P3Packing; N] {
    let rows: &[[P3Goldilocks; N]] = cast_slice(rows);
    core::array::from_fn(|i| P3Packing::from_fn(|lane| rows[lane][i]))
}

impl<const WIDTH: usize> Permutation<[P3Packing; WIDTH]> for Poseidon2Goldilocks<WIDTH>
where
    Plonky3Layers: LinearLayers<WIDTH>,
{
    fn permute_mut(&self, state: &mut [P3Packing; WIDTH]) {
        let mut states: [[AurumGoldilocks; WIDTH]; LANES] =
            core::array::from_fn(|lane| lane_of(state, lane));
        permute_many(self.aurum(), &mut states);
        *state = pack_rows(&states);
    }
}

impl<const WIDTH: usize> CryptographicPermutation<[P3Packing; WIDTH]> for Poseidon2Goldilocks<WIDTH> where
    Plonky3Layers: LinearLayers<WIDTH>
{
}

impl<P, const WIDTH: usize, const RATE: usize, const OUT: usize>
    CryptographicHasher<P3Packing, [P3Packing; OUT]> for PaddingFreeSponge<P, WIDTH, RATE, OUT>
where
    P: aurum_symmetric::Permutation<WIDTH> + Clone,
{
    fn hash_iter<I>(&self, input: I) -> [P3Packing; OUT]
    where
        I: IntoIterator<Item = P3Packing>,
    {
        let columns: Vec<P3Packing> = input.into_iter().collect();
        // One message per lane: row `lane` is lane `lane` of every input element.
        let len = columns.len();
        let mut rows = vec![P3Goldilocks::default(); LANES * len];
        for (k, packed) in columns.iter().enumerate() {
            for (lane, x) in packed.as_slice().iter().enumerate() {
                rows[lane * len + k] = *x;
            }
        }
        let mut digests = [[AurumGoldilocks::ZERO; OUT]; LANES];
        if let Err(err) = hash_rows(self.aurum(), cast_slice(&rows), len, &mut digests) {
            unreachable!("packed hash: {err}");
        }
        pack_rows(&digests)
    }
}

impl<P, const CHUNK: usize, const WIDTH: usize> PseudoCompressionFunction<[P3Packing; CHUNK], 2>
    for TruncatedPermutation<P, 2, CHUNK, WIDTH>
where
    P: aurum_symmetric::Permutation<WIDTH> + Clone,
{
    fn compress(&self, input: [[P3Packing; CHUNK]; 2]) -> [P3Packing; CHUNK] {
        // Children `2·lane` and `2·lane + 1` are lane `lane` of the left and right inputs.
        let mut children = [[AurumGoldilocks::ZERO; CHUNK]; 2 * LANES];
        for (lane, pair) in children.chunks_exact_mut(2).enumerate() {
            pair[0] = lane_of(&input[0], lane);
            pair[1] = lane_of(&input[1], lane);
        }
        let mut parents = [[AurumGoldilocks::ZERO; CHUNK]; LANES];
        if let Err(err) = compress_layer(self.aurum(), &children, &mut parents) {
            unreachable!("packed compress: {err}");
        }
        pack_rows(&parents)
    }
}
