//! Compiling SVE kernels written in C: shared by the build scripts of `aurum-sve` (the field's
//! kernels) and of the crates whose kernels use its field header `csrc/goldilocks.h`
//! (`aurum-poseidon2`, `aurum-poseidon`), which include this file with `#[path]`.
//!
//! Each kernel is compiled twice, once with `+sve` (for SVE-only cores such as Graviton3 and
//! A64FX) and once with `+sve2`, into two static libraries: the same C, two symbol prefixes
//! (`aurum_sve_*`, `aurum_sve2_*`, see `goldilocks.h`); the crate picks one at run time. Only
//! these objects use SVE instructions, so the rest of a binary runs on any aarch64 core.

use std::env;
use std::path::Path;

/// Compiles `sources` (with `includes` on the header path) into the static libraries
/// `{name}_sve` and `{name}_sve2`, or returns the first error.
pub fn compile_twice(name: &str, sources: &[&str], includes: &[&Path]) -> Result<(), cc::Error> {
    for (flavour, march) in [("sve", "armv8.2-a+sve"), ("sve2", "armv8.2-a+sve2")] {
        cc::Build::new()
            .files(sources)
            .includes(includes)
            .flag(format!("-march={march}"))
            .flag_if_supported("-std=c11")
            // The kernels are only worth having optimised, also in a `dev` build.
            .opt_level(2)
            .warnings(true)
            .extra_warnings(true)
            .try_compile(&format!("{name}_{flavour}"))?;
    }
    Ok(())
}

/// The build script of a crate whose kernel uses `aurum-sve`'s field header: compiles `sources`
/// (in its `csrc/`) into `{name}_sve` and `{name}_sve2` and sets cfg `aurum_sve_kernels`, where
/// `aurum-sve` built its own kernels (aarch64, an SVE-capable C compiler, `AURUM_SVE_DISABLE`
/// unset; its `links` metadata `DEP_AURUM_SVE_KERNELS` and `DEP_AURUM_SVE_INCLUDE` say so and
/// where the header is). Elsewhere it compiles nothing.
#[allow(dead_code)] // `aurum-sve`'s own build script uses only `compile_twice`
pub fn build_with_field_header(name: &str, sources: &[&str]) {
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
    match compile_twice(name, sources, &[Path::new("csrc"), include]) {
        Ok(()) => println!("cargo::rustc-cfg=aurum_sve_kernels"),
        Err(error) => {
            println!("cargo::warning=SVE kernel not built ({error}); bulk calls run NEON")
        }
    }
}
