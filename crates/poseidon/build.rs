//! Compiles the SVE kernel of plonky2's Poseidon (width 12) in `csrc/` with
//! `aurum-sve`'s field header, where `aurum-sve` built its own kernels (aarch64, an
//! SVE-capable C compiler, `AURUM_SVE_DISABLE` unset): see `aurum-sve`'s `build_kernels.rs`.
//! Elsewhere nothing is compiled and cfg `aurum_sve_kernels` stays unset.

#[path = "../sve/build_kernels.rs"]
mod build_kernels;

fn main() {
    build_kernels::build_with_field_header("aurum_poseidon", &["csrc/poseidon.c"]);
}
