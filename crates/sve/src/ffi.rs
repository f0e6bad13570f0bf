//! The C kernels' symbols and the only `unsafe` code of this crate: each wrapper checks what
//! the C code relies on (lengths, the CPU's SVE support) before calling it.

#![allow(unsafe_code)]

use crate::Flavour;

/// Declares one flavour's symbols (`aurum_sve_*` or `aurum_sve2_*`, the same C compiled with
/// `+sve` or `+sve2`).
macro_rules! declare {
    ($module:ident, $lanes:ident, $add:ident, $sub:ident, $mul:ident) => {
        mod $module {
            unsafe extern "C" {
                pub(super) fn $lanes() -> usize;
                pub(super) fn $add(a: *const u64, b: *const u64, out: *mut u64, n: usize);
                pub(super) fn $sub(a: *const u64, b: *const u64, out: *mut u64, n: usize);
                pub(super) fn $mul(a: *const u64, b: *const u64, out: *mut u64, n: usize);
            }
        }
    };
}

declare!(
    sve,
    aurum_sve_lanes,
    aurum_sve_add_slices,
    aurum_sve_sub_slices,
    aurum_sve_mul_slices
);
declare!(
    sve2,
    aurum_sve2_lanes,
    aurum_sve2_add_slices,
    aurum_sve2_sub_slices,
    aurum_sve2_mul_slices
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
