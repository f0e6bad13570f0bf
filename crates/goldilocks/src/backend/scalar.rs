//! The portable backend: `Goldilocks` itself is a packed field of width 1.

use super::asm::add_then_fold_carry;
use crate::backend_id::Backend;
use crate::field::arith::{EPSILON, HALF_P_PLUS_ONE};
use crate::field::{Canonical, Goldilocks};
use crate::packed::{Kernel, PackedField};
use crate::small_coefficients::SmallCoefficients;

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
        // `halve_raw` with the parity as an unpredictable select: see `field::add`.
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
