//! Compiles the SVE kernels in `csrc/` for aarch64 targets, twice: once with `+sve` (for
//! SVE-only cores such as Graviton3 and A64FX) and once with `+sve2`; the library picks one at
//! run time. Only these objects use SVE instructions, so the rest of the binary still runs on
//! any aarch64 core.
//!
//! Needs a C compiler with the Arm C Language Extensions for SVE (`arm_sve.h`: GCC ≥ 10 or
//! Clang ≥ 12); the `cc` crate finds it (`aarch64-linux-gnu-gcc` when cross-compiling,
//! `CC_aarch64_unknown_linux_gnu` overrides). Without one the build still succeeds, with a
//! warning, and the SVE backend reports itself unavailable (cfg `aurum_sve_kernels` unset).
//! Other architectures compile nothing.

use std::env;

const SOURCES: [&str; 3] = ["csrc/field.c", "csrc/poseidon.c", "csrc/poseidon2.c"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(aurum_sve_kernels)");
    println!("cargo::rerun-if-changed=csrc");
    println!("cargo::rerun-if-env-changed=AURUM_SVE_DISABLE");
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("aarch64") {
        return;
    }
    if env::var_os("AURUM_SVE_DISABLE").is_some() {
        println!("cargo::warning=AURUM_SVE_DISABLE is set: building without the SVE kernels");
        return;
    }
    for (library, march) in [
        ("aurum_sve", "armv8.2-a+sve"),
        ("aurum_sve2", "armv8.2-a+sve2"),
    ] {
        let mut build = cc::Build::new();
        build
            .files(SOURCES)
            .include("csrc")
            .flag(format!("-march={march}"))
            .flag_if_supported("-std=c11")
            // The kernels are only worth having optimised, also in a `dev` build.
            .opt_level(2)
            .warnings(true)
            .extra_warnings(true);
        if let Err(error) = build.try_compile(library) {
            println!(
                "cargo::warning=SVE kernels not built ({error}); the SVE backend is unavailable"
            );
            return;
        }
    }
    println!("cargo::rustc-cfg=aurum_sve_kernels");
}
