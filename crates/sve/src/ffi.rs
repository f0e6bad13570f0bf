//! The C kernels' symbols and the only `unsafe` code of this crate: each wrapper checks what
//! the C code relies on (lengths, the CPU's SVE support) before calling it.

#![allow(unsafe_code)]

use crate::Flavour;

/// Declares one flavour's symbols (`aurum_sve_*` or `aurum_sve2_*`, the same C compiled with
/// `+sve` or `+sve2`).
macro_rules! declare {
    ($module:ident, $lanes:ident, $add:ident, $sub:ident, $mul:ident, $p8:ident, $p12:ident, $p16:ident, $poseidon:ident) => {
        mod $module {
            unsafe extern "C" {
                pub(super) fn $lanes() -> usize;
                pub(super) fn $add(a: *const u64, b: *const u64, out: *mut u64, n: usize);
                pub(super) fn $sub(a: *const u64, b: *const u64, out: *mut u64, n: usize);
                pub(super) fn $mul(a: *const u64, b: *const u64, out: *mut u64, n: usize);
                pub(super) fn $p8(ext: *const u64, int: *const u64, states: *mut u64, n: usize);
                pub(super) fn $p12(ext: *const u64, int: *const u64, states: *mut u64, n: usize);
                pub(super) fn $p16(ext: *const u64, int: *const u64, states: *mut u64, n: usize);
                pub(super) fn $poseidon(constants: *const u64, states: *mut u64, n: usize);
            }
        }
    };
}

declare!(
    sve,
    aurum_sve_lanes,
    aurum_sve_add_slices,
    aurum_sve_sub_slices,
    aurum_sve_mul_slices,
    aurum_sve_poseidon2_plonky3_w8,
    aurum_sve_poseidon2_plonky3_w12,
    aurum_sve_poseidon2_plonky3_w16,
    aurum_sve_poseidon_plonky2_w12
);
declare!(
    sve2,
    aurum_sve2_lanes,
    aurum_sve2_add_slices,
    aurum_sve2_sub_slices,
    aurum_sve2_mul_slices,
    aurum_sve2_poseidon2_plonky3_w8,
    aurum_sve2_poseidon2_plonky3_w12,
    aurum_sve2_poseidon2_plonky3_w16,
    aurum_sve2_poseidon_plonky2_w12
);

/// 64-bit lanes per vector.
pub(crate) fn lanes(flavour: Flavour) -> usize {
    // SAFETY: a `Flavour` value is only made after run-time detection found that instruction
    // set (see `crate::detect`); the function reads the vector length and touches no memory.
    unsafe {
        match flavour {
            Flavour::Sve => sve::aurum_sve_lanes(),
            Flavour::Sve2 => sve2::aurum_sve2_lanes(),
        }
    }
}

/// An element-wise operation of `field.c`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Elementwise {
    Add,
    Sub,
    Mul,
}

/// `out[i] = a[i] op b[i]`.
///
/// # Panics
/// Unless the three slices have one length.
pub(crate) fn elementwise(
    flavour: Flavour,
    op: Elementwise,
    a: &[u64],
    b: &[u64],
    out: &mut [u64],
) {
    assert!(
        a.len() == out.len() && b.len() == out.len(),
        "slices of one length"
    );
    let (a, b, n, out) = (a.as_ptr(), b.as_ptr(), out.len(), out.as_mut_ptr());
    // SAFETY: detected instruction set (see `lanes`); the C loop reads `a[..n]`, `b[..n]` and
    // writes `out[..n]` with predicated loads and stores, all in bounds by the length check;
    // `out` is a distinct `&mut` borrow, so it aliases neither input.
    unsafe {
        match (flavour, op) {
            (Flavour::Sve, Elementwise::Add) => sve::aurum_sve_add_slices(a, b, out, n),
            (Flavour::Sve, Elementwise::Sub) => sve::aurum_sve_sub_slices(a, b, out, n),
            (Flavour::Sve, Elementwise::Mul) => sve::aurum_sve_mul_slices(a, b, out, n),
            (Flavour::Sve2, Elementwise::Add) => sve2::aurum_sve2_add_slices(a, b, out, n),
            (Flavour::Sve2, Elementwise::Sub) => sve2::aurum_sve2_sub_slices(a, b, out, n),
            (Flavour::Sve2, Elementwise::Mul) => sve2::aurum_sve2_mul_slices(a, b, out, n),
        }
    }
}

/// Poseidon2 (Plonky3's layers) on `states.len() / width` consecutive states.
///
/// # Panics
/// Unless `width` is 8, 12 or 16, `states.len()` a multiple of it, `external.len() == 8 · width`
/// and `internal.len() == 22`.
pub(crate) fn poseidon2_plonky3(
    flavour: Flavour,
    width: usize,
    external: &[u64],
    internal: &[u64],
    states: &mut [u64],
) {
    assert!(
        matches!(width, 8 | 12 | 16),
        "Poseidon2 kernels exist for widths 8, 12, 16"
    );
    assert_eq!(
        external.len(),
        8 * width,
        "8 external rounds of `width` constants"
    );
    assert_eq!(internal.len(), 22, "22 internal round constants");
    assert_eq!(states.len() % width, 0, "whole states");
    let n = states.len() / width;
    let (ext, int, st) = (external.as_ptr(), internal.as_ptr(), states.as_mut_ptr());
    // SAFETY: detected instruction set (see `lanes`); the C code reads `8 · width` external and
    // 22 internal constants (checked above) and gathers/scatters words `k · width + j` for
    // k < n, j < width of `states` under the active-lane predicate: all within
    // `states.len() = n · width`.
    unsafe {
        match (flavour, width) {
            (Flavour::Sve, 8) => sve::aurum_sve_poseidon2_plonky3_w8(ext, int, st, n),
            (Flavour::Sve, 12) => sve::aurum_sve_poseidon2_plonky3_w12(ext, int, st, n),
            (Flavour::Sve, _) => sve::aurum_sve_poseidon2_plonky3_w16(ext, int, st, n),
            (Flavour::Sve2, 8) => sve2::aurum_sve2_poseidon2_plonky3_w8(ext, int, st, n),
            (Flavour::Sve2, 12) => sve2::aurum_sve2_poseidon2_plonky3_w12(ext, int, st, n),
            (Flavour::Sve2, _) => sve2::aurum_sve2_poseidon2_plonky3_w16(ext, int, st, n),
        }
    }
}

/// plonky2's Poseidon (width 12) on `states.len() / 12` consecutive states.
///
/// # Panics
/// Unless `constants.len()` is [`crate::poseidon_table::LEN`] and `states.len()` a multiple
/// of 12.
pub(crate) fn poseidon_plonky2(flavour: Flavour, constants: &[u64], states: &mut [u64]) {
    assert_eq!(
        constants.len(),
        crate::poseidon_table::LEN,
        "the Poseidon constant table"
    );
    assert_eq!(states.len() % 12, 0, "whole states");
    let n = states.len() / 12;
    let (c, st) = (constants.as_ptr(), states.as_mut_ptr());
    // SAFETY: detected instruction set (see `lanes`); the C code reads the
    // `poseidon_table::LEN` constants of the table (checked above) at fixed offsets below that
    // length, and gathers/scatters words `12k + j` for k < n, j < 12 of `states` under the
    // active-lane predicate: all within `states.len() = 12n`.
    unsafe {
        match flavour {
            Flavour::Sve => sve::aurum_sve_poseidon_plonky2_w12(c, st, n),
            Flavour::Sve2 => sve2::aurum_sve2_poseidon_plonky2_w12(c, st, n),
        }
    }
}
