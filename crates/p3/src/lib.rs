//! Aurum under an unmodified Plonky3 0.8 prover.
//!
//! Plonky3 provers are generic over their hash, compression and DFT. This crate implements
//! Plonky3's traits with Aurum's kernels, so that a prover built on `p3-uni-stark`,
//! `p3-fri` and `p3-merkle-tree` runs on them by changing type aliases, and produces the
//! **same proofs, byte for byte**:
//!
//! | Plonky3 0.8 | Aurum drop-in | trait(s) |
//! |---|---|---|
//! | `p3_goldilocks::Poseidon2Goldilocks<W>` | [`Poseidon2Goldilocks<W>`] | `Permutation`, `CryptographicPermutation` (scalar and packed) |
//! | `p3_symmetric::PaddingFreeSponge<Perm, W, RATE, OUT>` | [`PaddingFreeSponge<Perm, W, RATE, OUT>`] | `CryptographicHasher` with `LANES > 1` and `hash_many` |
//! | `p3_symmetric::TruncatedPermutation<Perm, 2, CHUNK, W>` | [`TruncatedPermutation<Perm, 2, CHUNK, W>`] | `PseudoCompressionFunction` with `LANES > 1` and `compress_many` |
//! | `p3_dft::Radix2DitParallel<Goldilocks>` | [`NttDft`] | `TwoAdicSubgroupDft<Goldilocks>` |
//! | `p3_fri::TwoAdicFriPcs<Goldilocks, Dft, ValMmcs, ChallengeMmcs>` (Poseidon2 `MerkleTreeMmcs`, quadratic extension) | [`FriPcs<Perm, W, RATE>`](FriPcs) (`aurum-fri`) | `Pcs`, `UnivariateStarkPcs` (not hiding) |
//!
//! With the first four, Plonky3's own `MerkleTreeMmcs` keeps building the trees: its batched
//! hooks (`LANES > 1`) hand whole rows to [`PaddingFreeSponge`]'s `hash_many` and adjacent digests to
//! [`TruncatedPermutation`]'s `compress_many`, which are Aurum's `hash_rows` and
//! `compress_layer` — packed, batched permutations on the SIMD backend detected at run time
//! (so a build without `RUSTFLAGS` uses AVX-512 or AVX2 where the CPU has them), rayon
//! parallel.
//!
//! ```
//! use aurum_p3::{NttDft, PaddingFreeSponge, Poseidon2Goldilocks, TruncatedPermutation};
//! use p3_field::Field;
//! use p3_goldilocks::Goldilocks;
//! use p3_merkle_tree::MerkleTreeMmcs;
//! use rand::SeedableRng;
//!
//! type Perm = Poseidon2Goldilocks<8>;
//! type MyHash = PaddingFreeSponge<Perm, 8, 4, 4>;
//! type MyCompress = TruncatedPermutation<Perm, 2, 4, 8>;
//! type ValPacking = <Goldilocks as Field>::Packing;
//! type ValMmcs = MerkleTreeMmcs<ValPacking, ValPacking, MyHash, MyCompress, 2, 4>;
//! type Dft = NttDft;
//!
//! // The constants a Plonky3 prover draws with `Poseidon2Goldilocks::new_from_rng_128`.
//! let perm = Perm::new_from_rng_128(&mut rand::rngs::SmallRng::seed_from_u64(1));
//! let mmcs = ValMmcs::new(MyHash::new(perm.clone()), MyCompress::new(perm), 0);
//! let dft = Dft::default();
//! # let _ = (mmcs, dft);
//! ```
//!
//! With [`FriPcs`] the whole commitment — LDEs, Merkle trees, openings, FRI, grinding on the
//! caller's challenger — is `aurum-fri`'s, with the caller's Poseidon2 constants, and the
//! commitments and proofs are Plonky3's own types, so the STARK proofs are again the same
//! bytes (see the [`pcs`] module for the challenger adapter and the differences).
//!
//! [`convert`] reinterprets Plonky3's Goldilocks as Aurum's and back without copying (both
//! are lazily reduced words with no invariant, so no canonicalisation is needed either way);
//! it holds the crate's only `unsafe` code.
//!
//! Supported: Plonky3 0.8.0 exactly (`p3-*` pinned `=0.8.0`), the Goldilocks field, Poseidon2
//! widths 8, 12 and 16 with Plonky3's parameters, binary Merkle trees.
#![deny(unsafe_code)]

pub mod convert;
mod dft;
mod hash;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "avx2"),
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "wasm32", target_feature = "simd128"),
))]
mod packed;
pub mod pcs;
mod poseidon2;

pub use dft::{Evaluations, NttDft};
pub use hash::{LANES, PaddingFreeSponge, TruncatedPermutation};
pub use pcs::FriPcs;
pub use poseidon2::{ConstantsError, Poseidon2Goldilocks};
