//! The portable backend: `Goldilocks` itself is a packed field of width 1.

use crate::field::{EPSILON, HALF_P_PLUS_ONE};
use crate::backend_id::Backend;
use crate::packed::{Kernel, PackedField, SmallCoefficients};
use crate::{Canonical, Goldilocks};

// SAFETY: `Goldilocks` is `#[repr(transparent)]` over `u64`, i.e. the layout of
// `[Goldilocks; 1]`, and uses no CPU-specific instructions.
unsafe impl PackedField for Goldilocks {
    const WIDTH: usize = 1;
    const BACKEND: Backend = Backend::Scalar;
    const ZERO: Self = Goldilocks::ZERO;
    const ONE: Self = Goldilocks::ONE;

    #[inline(always)]
    fn broadcast(x: Goldilocks) -> Self {
        x
    }

    #[inline(always)]
    fn square(self) -> Self {
        Goldilocks::square(self)
    }

    #[inline(always)]
    fn double(self) -> Self {
        Goldilocks::double(self)
    }

    #[inline(always)]
    fn halve(self) -> Self {
        // `halve_raw` with the parity as an unpredictable select: see [`add`].
        let x = self.raw();
        Goldilocks::from_raw(
            (x >> 1) + core::hint::select_unpredictable(x & 1 == 1, HALF_P_PLUS_ONE, 0),
        )
    }

    #[inline(always)]
    fn mul_small(self, c: u32) -> Self {
        // A 64×32-bit product is below 2^96; the generic 128-bit reduction handles it.
        Goldilocks::from_u128(u128::from(self.raw()) * u128::from(c))
    }

    #[inline(always)]
    fn mul_2exp(self, exp: u64) -> Self {
        Goldilocks::mul_2exp(self, exp)
    }

    #[inline(always)]
    fn div_2exp(self, k: u64) -> Self {
        match k % 192 {
            // x = hi·2^k + lo and 2^-k ≡ 2^(32−k) − 2^(64−k): see the AVX2 backend.
            k @ 2..=32 => {
                let x = self.raw();
                let lo = x & ((1 << k) - 1);
                let a = (x >> k) + (lo << (32 - k));
                let (diff, borrow) = a.overflowing_sub(lo << (64 - k));
                // The wrapped difference is at least 2^32: taking EPSILON back cannot wrap.
                Goldilocks::from_raw(diff - core::hint::select_unpredictable(borrow, EPSILON, 0))
            }
            1 => PackedField::halve(self),
            0 => self,
            k => Goldilocks::mul_2exp(self, 192 - k),
        }
    }

    #[inline(always)]
    fn linear_combination_small<const N: usize>(xs: &[Self; N], cs: &SmallCoefficients<N>) -> Self {
        let mut acc = 0u128;
        for (x, &c) in xs.iter().zip(cs.get()) {
            acc += u128::from(x.raw()) * u128::from(c);
        }
        // acc < 2^64 · Σc < 2^95 (`SmallCoefficients` bounds Σc): the high word is below
        // 2^31, and 2^64 ≡ EPSILON.
        let (lo, hi) = (acc as u64, (acc >> 64) as u64);
        Goldilocks::from_raw(add_then_fold_carry(lo, hi * EPSILON))
    }

    #[inline(always)]
    fn sum_deferred(values: &[Self]) -> Self {
        values.iter().copied().sum()
    }

    #[inline(always)]
    fn canonicalize(self) -> Canonical<Self> {
        Canonical::new(self)
    }

    #[inline(always)]
    fn add_canonical(self, c: Canonical<Self>) -> Self {
        // A canonical operand cannot make the sum carry twice.
        Goldilocks::from_raw(add_then_fold_carry(self.raw(), c.get().raw()))
    }

    #[inline(always)]
    fn exp7(self) -> Self {
        // The runtime multiplication (rare fix-ups as branches), not the `const fn` chain:
        // the S-box sits on the critical path of Poseidon's partial rounds.
        let x2 = self * self;
        let x3 = x2 * self;
        let x4 = x2 * x2;
        x3 * x4
    }

    #[inline(always)]
    fn interleave(self, other: Self, block_len: usize) -> (Self, Self) {
        crate::packed::check_block_len(block_len, 1);
        (self, other)
    }

    #[inline(always)]
    fn sum_lanes(self) -> Goldilocks {
        self
    }
}

/// Runs a kernel on the scalar backend (always available).
#[inline]
pub(crate) fn run_kernel<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<Goldilocks>()
}

/// `a · b mod p` (possibly non-canonical) for the runtime `Mul` of `Goldilocks`.
///
/// Built on [`add_then_fold_carry`]: with `-C target-cpu=native`, LLVM's SLP vectoriser
/// otherwise moves independent scalar reductions into AVX-512 registers, which made scalar
/// multiplication 2.6× slower (`aurum info`: 0.57 vs 1.49 elements/ns on Zen 4).
#[inline(always)]
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    let prod = u128::from(a) * u128::from(b);
    let (lo, hi) = (prod as u64, (prod >> 64) as u64);
    // The same steps as `field::reduce128`, with the rare borrow (probability ~2^-32 for
    // random operands) as a predictable branch off the dependency chain, and an opaque
    // add-with-carry at the end.
    let (mut t0, borrow) = lo.overflowing_sub(hi >> 32);
    if borrow {
        branch_hint();
        t0 = t0.wrapping_sub(EPSILON);
    }
    let t1 = (hi & EPSILON) * EPSILON;
    add_then_fold_carry(t0, t1)
}

/// `a + b mod p` for any representations (the runtime `Add` of `Goldilocks`).
///
/// Same arithmetic as `field::add_raw`, but the second carry, which needs
/// `a + b > 2^65 − 2^32` and is therefore rare, is a predictable branch instead of a
/// data dependency: this shortens the latency chain (2.0 → 4.6 elements/ns in the
/// `throughput/add` benchmark). The first carry is a coin toss on random operands, so its
/// fix-up is a `select_unpredictable`: inside loops LLVM's x86 "cmov conversion" otherwise
/// turns the `cmov` into a branch that mispredicts half the time (it did in the rolled
/// round loops of scalar Poseidon2 W12/W16).
#[inline(always)]
pub(crate) fn add(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    let (mut sum, carry) = sum.overflowing_add(core::hint::select_unpredictable(carry, EPSILON, 0));
    if carry {
        branch_hint();
        sum += EPSILON;
    }
    sum
}

/// `a − b mod p` for any representations (the runtime `Sub` of `Goldilocks`); the rare
/// second borrow is a branch, as in [`add`].
#[inline(always)]
pub(crate) fn sub(a: u64, b: u64) -> u64 {
    let (diff, borrow) = a.overflowing_sub(b);
    let (mut diff, borrow) =
        diff.overflowing_sub(core::hint::select_unpredictable(borrow, EPSILON, 0));
    if borrow {
        branch_hint();
        diff -= EPSILON;
    }
    diff
}

/// Marks the enclosing branch as one to keep: an empty `asm!` that LLVM cannot hoist, so a
/// rarely taken fix-up stays a well-predicted branch instead of becoming a `cmov` on the
/// critical path.
#[inline(always)]
fn branch_hint() {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is empty: no instruction runs, no memory or flags change.
    unsafe {
        core::arch::asm!("", options(nomem, nostack, preserves_flags));
    }
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
