//! The two machine-level primitives of the scalar field arithmetic (`crate::field`): an opaque
//! add-with-carry and a branch hint, written as inline `asm!` so that LLVM keeps the scalar
//! reductions as they are written. Here, beside the crate's other `unsafe` code.

#[cfg(not(target_arch = "x86_64"))]
use crate::field::arith::EPSILON;

/// Marks the enclosing branch as one to keep: an empty `asm!` that LLVM cannot hoist, so a
/// rarely taken fix-up stays a well-predicted branch instead of becoming a `cmov` on the
/// critical path.
#[inline(always)]
pub(crate) fn branch_hint() {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is empty: no instruction runs, no memory or flags change.
    unsafe {
        core::arch::asm!("", options(nomem, nostack, preserves_flags));
    }
}

/// `x`, opaque to LLVM: an empty `asm!` passes it through a register. LLVM still hoists it
/// out of loops (the `asm!` is pure), but cannot fold the constant into the instructions that
/// use it — what the SIMD backends need to keep a multiplication by `EPSILON` a
/// multiplication (see `avx512::opaque_epsilon`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn opaque_u64(mut x: u64) -> u64 {
    // SAFETY: the template is a comment: no instruction runs, no memory or flags change, and
    // the register leaves as it came.
    unsafe {
        core::arch::asm!("/* {x} */", x = inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// `x + y`, adding `EPSILON` back if the sum carried (no double carry may occur: true when
/// `y < p`, since a carried sum is then at most `2^64 − 2^32 − 1`). On x86-64 the add and the carry mask are one opaque `add; sbb`
/// pair, which also keeps LLVM from vectorising the surrounding scalar code.
#[inline(always)]
pub(crate) fn add_then_fold_carry(x: u64, y: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let sum: u64;
        let fold: u32;
        // SAFETY: pure register arithmetic (`add`, then `sbb` of a register with itself,
        // which yields 0 or 0xFFFF_FFFF = EPSILON from the carry flag); no memory access.
        unsafe {
            core::arch::asm!(
                "add {sum}, {y}",
                "sbb {fold:e}, {fold:e}",
                sum = inout(reg) x => sum,
                y = in(reg) y,
                fold = lateout(reg) fold,
                options(pure, nomem, nostack),
            );
        }
        sum.wrapping_add(u64::from(fold))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (sum, carry) = x.overflowing_add(y);
        sum + EPSILON * u64::from(carry)
    }
}
