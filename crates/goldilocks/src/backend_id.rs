//! [`Backend`]: the name of a family of packed-field implementations, which
//! [`PackedField::BACKEND`](crate::PackedField::BACKEND) gives for each packed type. What the
//! backends can do on this machine, and which one runs, is decided in
//! [`crate::dispatch`](mod@crate::dispatch).

/// A family of packed-field implementations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// Portable scalar code (`Goldilocks`, 1 lane).
    Scalar,
    /// x86-64 AVX2 (4 lanes).
    Avx2,
    /// x86-64 AVX-512F (8 lanes).
    Avx512,
    /// aarch64 NEON (2 lanes).
    Neon,
    /// Arm SVE/SVE2 at the CPU's vector length (128 to 2048 bits), for the kernels that have
    /// SVE code (element-wise slices in `aurum-sve`; the Poseidon2 and Poseidon permutations,
    /// with their Merkle hashing and compression, in their own crates, on `aurum-sve`'s field
    /// header); every other kernel runs on NEON, its packed type. See [`Backend::sve`].
    Sve,
}
