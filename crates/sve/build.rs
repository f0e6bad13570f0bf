//! Compiles the field's SVE kernels in `csrc/` for aarch64 targets (see `build_kernels.rs`),
//! and hands the crates with SVE kernels of their own what they need (as `links` metadata:
//! `DEP_AURUM_SVE_INCLUDE`, the directory of the field header `goldilocks.h`, and
//! `DEP_AURUM_SVE_KERNELS`, set where this build has the kernels).
//!
//! Needs a C compiler with the Arm C Language Extensions for SVE (`arm_sve.h`: GCC ≥ 10 or
//! Clang ≥ 12); the `cc` crate finds it (`aarch64-linux-gnu-gcc` when cross-compiling,
//! `CC_aarch64_unknown_linux_gnu` overrides). Without one the build still succeeds, with a
//! warning, and the SVE backend reports itself unavailable (cfg `aurum_sve_kernels` unset).
//! Other architectures compile nothing.

use std::env;
use std::path::Path;

#[path = "build_kernels.rs"]
mod build_kernels;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(aurum_sve_kernels)");
    println!("cargo::rerun-if-changed=csrc");
    println!("cargo::rerun-if-changed=build_kernels.rs");
    println!("cargo::rerun-if-env-changed=AURUM_SVE_DISABLE");
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let include = Path::new(&manifest).join("csrc");
    println!("cargo::metadata=include={}", include.display());
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("aarch64") {
        return;
    }
    if env::var_os("AURUM_SVE_DISABLE").is_some() {
        println!("cargo::warning=AURUM_SVE_DISABLE is set: building without the SVE kernels");
        return;
    }
    if let Err(error) = build_kernels::compile_twice("aurum", &["csrc/field.c"], &[&include]) {
        println!("cargo::warning=SVE kernels not built ({error}); the SVE backend is unavailable");
        return;
    }
    println!("cargo::rustc-cfg=aurum_sve_kernels");
    println!("cargo::metadata=kernels=1");
}
