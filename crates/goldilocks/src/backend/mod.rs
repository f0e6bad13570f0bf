//! One module per backend, kept apart behind the dispatch in
//! [`crate::dispatch`](mod@crate::dispatch) (the way the BLAKE3 crate keeps `portable`, `avx2`, `avx512` and `neon` behind `platform.rs`).
//!
//! This directory is the only place in the workspace with `unsafe` code or intrinsics.
//!
//! Each SIMD module provides
//! * a packed type `#[repr(transparent)]` over `[Goldilocks; WIDTH]` implementing
//!   [`PackedField`](crate::PackedField);
//! * `detected()`: whether this CPU can run it;
//! * `run_kernel(kernel)`: checks `detected()` and runs `kernel.run::<PackedX>()` inside a
//!   `#[target_feature(enable = "...")]` function, so that a build without `RUSTFLAGS`
//!   still compiles the kernel body with the backend's instructions (the kernel must be
//!   `#[inline(always)]` down to the arithmetic for this to reach the hot loop; see
//!   [`crate::Kernel`]).
//!
//! Beside the backends, helpers that code below them uses, so they import no backend and
//! no dispatch: `asm.rs`, the scalar field's two inline-`asm!` primitives, and `layout.rs`,
//! the slice casts (over the [`layout::Lanes`] contract, which every packed field meets) and
//! the zeroed, huge-page allocations behind [`crate::raw`]; and, for the x86 entry points,
//! `frame.rs`, which aligns their stack frames to cache lines.

pub(crate) mod asm;
pub(crate) mod layout;
pub(crate) mod scalar;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
mod frame;

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;

// SAFETY: the `PackedField` contract (the layout of `[Goldilocks; WIDTH]`, alignment no larger
// than `Goldilocks`'s) is the `Lanes` contract, with `LANES = WIDTH`.
unsafe impl<P: crate::packed::PackedField> layout::Lanes for P {
    const LANES: usize = P::WIDTH;
}

/// Implements the operator traits of a packed type from its inherent
/// `add_impl`/`sub_impl`/`mul_impl`/`neg_impl` and `broadcast`.
macro_rules! impl_packed_ops {
    ($t:ty) => {
        impl From<$crate::Goldilocks> for $t {
            #[inline(always)]
            fn from(x: $crate::Goldilocks) -> Self {
                <$t as $crate::PackedField>::broadcast(x)
            }
        }
        impl core::ops::Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.add_impl(rhs)
            }
        }
        impl core::ops::Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.sub_impl(rhs)
            }
        }
        impl core::ops::Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.mul_impl(rhs)
            }
        }
        impl core::ops::Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                self.neg_impl()
            }
        }
        impl core::ops::Add<$crate::Goldilocks> for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: $crate::Goldilocks) -> Self {
                self.add_impl(<$t>::from(rhs))
            }
        }
        impl core::ops::Sub<$crate::Goldilocks> for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: $crate::Goldilocks) -> Self {
                self.sub_impl(<$t>::from(rhs))
            }
        }
        impl core::ops::Mul<$crate::Goldilocks> for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: $crate::Goldilocks) -> Self {
                self.mul_impl(<$t>::from(rhs))
            }
        }
        impl core::ops::AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: Self) {
                *self = self.add_impl(rhs);
            }
        }
        impl core::ops::SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: Self) {
                *self = self.sub_impl(rhs);
            }
        }
        impl core::ops::MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: Self) {
                *self = self.mul_impl(rhs);
            }
        }
        impl core::ops::AddAssign<$crate::Goldilocks> for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: $crate::Goldilocks) {
                *self = self.add_impl(<$t>::from(rhs));
            }
        }
        impl core::ops::SubAssign<$crate::Goldilocks> for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: $crate::Goldilocks) {
                *self = self.sub_impl(<$t>::from(rhs));
            }
        }
        impl core::ops::MulAssign<$crate::Goldilocks> for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: $crate::Goldilocks) {
                *self = self.mul_impl(<$t>::from(rhs));
            }
        }
        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use impl_packed_ops;

/// The body of a SIMD `sum_deferred`: `$one_pass` (a carry-counting sum of at most
/// `DEFERRED_SUM_MAX_TERMS` vectors) over the whole slice, or over passes of that many added
/// with field additions. For the lengths real code uses the length test is one compare, folded
/// away when the length is a constant.
///
/// A macro, not a generic function taking `$one_pass`: a function value is called through a
/// shim compiled without the backend's target features, which would turn every intrinsic
/// inside into a call (3-6x slower Poseidon and Poseidon2 when this was tried).
macro_rules! sum_deferred_in_passes {
    ($values:expr, $one_pass:ident) => {{
        let values = $values;
        if values.len() <= DEFERRED_SUM_MAX_TERMS {
            $one_pass(values)
        } else {
            let mut total = <Self as $crate::PackedField>::ZERO;
            for pass in values.chunks(DEFERRED_SUM_MAX_TERMS) {
                total += $one_pass(pass);
            }
            total
        }
    }};
}
#[allow(unused_imports)]
pub(crate) use sum_deferred_in_passes;
