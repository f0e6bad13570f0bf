//! Compiles the SVE kernel of Poseidon2 (Plonky3's layers, widths 8, 12, 16) in `csrc/` with
//! `aurum-sve`'s field header, where `aurum-sve` built its own kernels (aarch64, an
//! SVE-capable C compiler, `AURUM_SVE_DISABLE` unset): see `aurum-sve`'s `build_kernels.rs`.
//! Elsewhere nothing is compiled and cfg `aurum_sve_kernels` stays unset.

use std::env;
use std::path::Path;

#[path = "../sve/build_kernels.rs"]
mod build_kernels;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(aurum_sve_kernels)");
    println!("cargo::rerun-if-changed=csrc");
    println!("cargo::rerun-if-changed=../sve/build_kernels.rs");
    println!("cargo::rerun-if-env-changed=DEP_AURUM_SVE_KERNELS");
    println!("cargo::rerun-if-env-changed=DEP_AURUM_SVE_INCLUDE");
    let (Some(_), Some(include)) = (
        env::var_os("DEP_AURUM_SVE_KERNELS"),
        env::var_os("DEP_AURUM_SVE_INCLUDE"),
    ) else {
        return;
    };
    let include = Path::new(&include);
    println!(
        "cargo::rerun-if-changed={}",
        include.join("goldilocks.h").display()
    );
    let csrc = Path::new("csrc");
    match build_kernels::compile_twice("aurum_poseidon2", &["csrc/poseidon2.c"], &[csrc, include]) {
        Ok(()) => println!("cargo::rustc-cfg=aurum_sve_kernels"),
        Err(error) => {
            println!("cargo::warning=SVE kernel not built ({error}); bulk calls run NEON")
        }
    }
}
