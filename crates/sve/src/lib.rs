#![doc = include_str!("../README.md")]

use core::fmt;
use std::sync::OnceLock;

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
mod ffi;

/// Which instruction set the kernels run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// SVE (e.g. Graviton3, A64FX).
    Sve,
    /// SVE2 (e.g. Graviton4, Axion, Neoverse N2/V2).
    Sve2,
}

impl Flavour {
    /// `"sve"` or `"sve2"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Flavour::Sve => "sve",
            Flavour::Sve2 => "sve2",
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether this CPU implements SVE (whether or not this build has the kernels).
#[must_use]
pub fn cpu_has_sve() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("sve")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// Whether this build contains the SVE kernels (aarch64 with an SVE-capable C compiler).
#[must_use]
pub const fn kernels_built() -> bool {
    cfg!(all(target_arch = "aarch64", aurum_sve_kernels))
}

/// The SVE state of this process, detected once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sve {
    /// The instruction set the kernels run with (SVE2 where the CPU has it).
    pub flavour: Flavour,
    /// 64-bit lanes per vector (`cntd`): 2 at 128 bits … 32 at 2048 bits.
    pub lanes: usize,
}

impl Sve {
    /// The vector length in bits.
    #[must_use]
    pub const fn vector_bits(self) -> usize {
        self.lanes * 64
    }
}

/// The SVE kernels this process can run, or `None` (no SVE, not aarch64, or not built).
#[must_use]
pub fn detect() -> Option<Sve> {
    static DETECTED: OnceLock<Option<Sve>> = OnceLock::new();
    *DETECTED.get_or_init(detect_uncached)
}

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
fn detect_uncached() -> Option<Sve> {
    let flavour = if std::arch::is_aarch64_feature_detected!("sve2") {
        Flavour::Sve2
    } else if std::arch::is_aarch64_feature_detected!("sve") {
        Flavour::Sve
    } else {
        return None;
    };
    Some(Sve {
        flavour,
        lanes: ffi::lanes(flavour),
    })
}

#[cfg(not(all(target_arch = "aarch64", aurum_sve_kernels)))]
fn detect_uncached() -> Option<Sve> {
    None
}

/// An element-wise field operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `a + b`
    Add,
    /// `a − b`
    Sub,
    /// `a · b`
    Mul,
}

/// `out[i] = a[i] op b[i]` in the Goldilocks field (canonical results) with SVE; `false`, with
/// nothing written, where SVE cannot run.
///
/// # Panics
/// Unless the three slices have the same length.
pub fn elementwise(op: Op, a: &[u64], b: &[u64], out: &mut [u64]) -> bool {
    assert!(
        a.len() == out.len() && b.len() == out.len(),
        "elementwise: slices of different lengths ({}, {}, {})",
        a.len(),
        b.len(),
        out.len()
    );
    #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
    if let Some(sve) = detect() {
        let op = match op {
            Op::Add => ffi::Elementwise::Add,
            Op::Sub => ffi::Elementwise::Sub,
            Op::Mul => ffi::Elementwise::Mul,
        };
        ffi::elementwise(sve.flavour, op, a, b, out);
        return true;
    }
    let _ = op;
    false
}
