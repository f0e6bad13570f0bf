//! NEON backend (aarch64): two lanes in a `uint64x2_t`.
//!
//! NEON has unsigned 64-bit compares, so additions, subtractions and halvings are short
//! vector sequences. It has no 64×64-bit multiply, though: a vector product needs four
//! `umull` 32×32 partial products plus limb bookkeeping, while the scalar pipes do a full
//! 64×64 → 128 product in two instructions (`mul` + `umulh`). Both multiplications are
//! implemented and tested; [`MUL_STRATEGY`] picks the one measured faster (see "NEON
//! multiplication" in the crate docs, and `benches/field.rs`, group `neon_mul_strategy`).
//!
//! NEON is part of the aarch64 baseline (`target_feature = "neon"` is on for every aarch64
//! Linux target), so this backend needs no runtime check.

use core::arch::aarch64::*;
use core::mem::transmute;

use super::{impl_packed_ops, sum_deferred_in_passes};
use crate::backend_id::Backend;
use crate::field::arith::{EPSILON, HALF_P_PLUS_ONE, P};
use crate::field::{Canonical, Goldilocks};
use crate::packed::{DEFERRED_SUM_MAX_TERMS, Kernel, PackedField, check_block_len};

const WIDTH: usize = 2;

/// How `PackedNeon` multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulStrategy {
    /// Two interleaved scalar `mul`/`umulh` products and scalar reductions.
    InterleavedScalar,
    /// Four `umull` partial products and a vector reduction.
    Vector,
}

/// The multiplication `PackedNeon` uses.
pub const MUL_STRATEGY: MulStrategy = MulStrategy::InterleavedScalar;

/// Two Goldilocks elements processed with NEON instructions.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct PackedNeon(pub(crate) [Goldilocks; WIDTH]);

const _: () = assert!(size_of::<PackedNeon>() == size_of::<uint64x2_t>());

/// NEON is baseline on aarch64.
#[inline]
pub(crate) fn detected() -> bool {
    true
}

/// Runs `kernel` with `PackedNeon` (always available on aarch64).
#[inline]
pub(crate) fn run_kernel<K: Kernel>(kernel: K) -> Result<K::Output, K> {
    Ok(kernel.run::<PackedNeon>())
}

#[inline(always)]
fn set1(x: u64) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe { vdupq_n_u64(x) }
}

impl PackedNeon {
    #[inline(always)]
    fn to_vector(self) -> uint64x2_t {
        // SAFETY: `[Goldilocks; 2]` and `uint64x2_t` are both 16 plain bytes (asserted above).
        unsafe { transmute(self) }
    }

    #[inline(always)]
    fn from_vector(v: uint64x2_t) -> Self {
        // SAFETY: as in `to_vector`; every bit pattern is a valid lane.
        unsafe { transmute(v) }
    }

    #[inline(always)]
    fn add_impl(self, rhs: Self) -> Self {
        Self::from_vector(add(self.to_vector(), rhs.to_vector()))
    }

    #[inline(always)]
    fn sub_impl(self, rhs: Self) -> Self {
        Self::from_vector(sub(self.to_vector(), rhs.to_vector()))
    }

    #[inline(always)]
    fn mul_impl(self, rhs: Self) -> Self {
        match MUL_STRATEGY {
            MulStrategy::InterleavedScalar => self.mul_interleaved_scalar(rhs),
            MulStrategy::Vector => self.mul_vector(rhs),
        }
    }

    #[inline(always)]
    fn neg_impl(self) -> Self {
        Self::from_vector(neg(self.to_vector()))
    }

    /// Lane-wise product with two independent scalar `mul`/`umulh` chains.
    #[inline(always)]
    pub fn mul_interleaved_scalar(self, rhs: Self) -> Self {
        Self([self.0[0] * rhs.0[0], self.0[1] * rhs.0[1]])
    }

    /// Lane-wise product entirely in vector registers.
    #[inline(always)]
    pub fn mul_vector(self, rhs: Self) -> Self {
        Self::from_vector(mul_vector(self.to_vector(), rhs.to_vector()))
    }
}

impl_packed_ops!(PackedNeon);

// SAFETY: `PackedNeon` is `#[repr(transparent)]` over `[Goldilocks; 2]` and uses only
// baseline aarch64 instructions.
unsafe impl PackedField for PackedNeon {
    const WIDTH: usize = WIDTH;
    const BACKEND: Backend = Backend::Neon;
    const ZERO: Self = Self([Goldilocks::ZERO; WIDTH]);
    const ONE: Self = Self([Goldilocks::ONE; WIDTH]);

    #[inline(always)]
    fn broadcast(x: Goldilocks) -> Self {
        Self([x; WIDTH])
    }

    #[inline(always)]
    fn square(self) -> Self {
        match MUL_STRATEGY {
            MulStrategy::InterleavedScalar => Self([self.0[0].square(), self.0[1].square()]),
            MulStrategy::Vector => self.mul_vector(self),
        }
    }

    #[inline(always)]
    fn double(self) -> Self {
        let x = self.to_vector();
        Self::from_vector(add(x, x))
    }

    #[inline(always)]
    fn halve(self) -> Self {
        Self::from_vector(halve(self.to_vector()))
    }

    #[inline(always)]
    fn mul_small(self, c: u32) -> Self {
        let c = u128::from(c);
        Self([
            Goldilocks::from_u128(u128::from(self.0[0].raw()) * c),
            Goldilocks::from_u128(u128::from(self.0[1].raw()) * c),
        ])
    }

    #[inline(always)]
    fn sum_deferred(values: &[Self]) -> Self {
        sum_deferred_in_passes!(values, sum_deferred_one_pass)
    }

    #[inline(always)]
    fn canonicalize(self) -> Canonical<Self> {
        Canonical::new_unchecked(Self::from_vector(canonicalize(self.to_vector())))
    }

    #[inline(always)]
    fn add_canonical(self, c: Canonical<Self>) -> Self {
        // A canonical operand cannot make the sum carry twice.
        Self::from_vector(add_no_double_overflow(
            self.to_vector(),
            c.get().to_vector(),
        ))
    }

    #[inline(always)]
    fn interleave(self, other: Self, block_len: usize) -> (Self, Self) {
        check_block_len(block_len, WIDTH);
        if block_len == 1 {
            let (a, b) = (self.to_vector(), other.to_vector());
            // SAFETY: NEON is baseline on aarch64.
            let (x, y) = unsafe { (vzip1q_u64(a, b), vzip2q_u64(a, b)) };
            (Self::from_vector(x), Self::from_vector(y))
        } else {
            (self, other)
        }
    }
}

/// `Σ values` for at most [`DEFERRED_SUM_MAX_TERMS`] values: one unreduced sum and a carry
/// count, folded in at the end.
#[inline(always)]
fn sum_deferred_one_pass(values: &[PackedNeon]) -> PackedNeon {
    debug_assert!(values.len() <= DEFERRED_SUM_MAX_TERMS);
    let Some((first, rest)) = values.split_first() else {
        return PackedNeon::ZERO;
    };
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        let mut sum = first.to_vector();
        let mut carries = vdupq_n_u64(0);
        for x in rest {
            let x = x.to_vector();
            sum = vaddq_u64(sum, x);
            // The all-ones mask of a carry is −1: subtracting it counts the carry.
            carries = vsubq_u64(carries, vcltq_u64(sum, x));
        }
        // Each carry dropped 2^64 ≡ EPSILON; at most 2^32 − 2 carries (a pass of
        // DEFERRED_SUM_MAX_TERMS values) keep the fold < p and the count exact in 32 bits.
        let fold = vmull_u32(vmovn_u64(carries), vdup_n_u32(EPSILON as u32));
        PackedNeon::from_vector(add_no_double_overflow(sum, fold))
    }
}

/// `x mod p` for any u64.
#[inline(always)]
fn canonicalize(x: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe { vsubq_u64(x, vandq_u64(vcgeq_u64(x, set1(P)), set1(P))) }
}

/// `x + y` where the sum cannot carry twice (true when `y` is canonical).
#[inline(always)]
fn add_no_double_overflow(x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        let sum = vaddq_u64(x, y);
        let carry = vcltq_u64(sum, y);
        // A carry dropped 2^64 ≡ EPSILON = all-ones >> 32 (shift-right-and-accumulate).
        vsraq_n_u64::<32>(sum, carry)
    }
}

#[inline(always)]
fn add(x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
    add_no_double_overflow(x, canonicalize(y))
}

#[inline(always)]
fn sub(x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        let y = canonicalize(y);
        let diff = vsubq_u64(x, y);
        let borrow = vcltq_u64(x, y);
        // A borrow added 2^64 ≡ EPSILON; with y canonical the difference is ≥ 2^32 then.
        vsubq_u64(diff, vshrq_n_u64::<32>(borrow))
    }
}

#[inline(always)]
fn neg(y: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe { vsubq_u64(set1(P), canonicalize(y)) }
}

#[inline(always)]
fn halve(x: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        // Odd x: (x + p) / 2 = (x >> 1) + (p + 1) / 2, which cannot overflow.
        let odd = vtstq_u64(x, set1(1));
        vaddq_u64(vshrq_n_u64::<1>(x), vandq_u64(odd, set1(HALF_P_PLUS_ONE)))
    }
}

/// Vector 64×64 → 128 products from four `umull` partial products, then the Goldilocks
/// reduction `lo − hi_hi + hi_lo·(2^32 − 1)`.
#[inline(always)]
fn mul_vector(x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is baseline on aarch64.
    unsafe {
        let x_lo = vmovn_u64(x);
        let x_hi = vshrn_n_u64::<32>(x);
        let y_lo = vmovn_u64(y);
        let y_hi = vshrn_n_u64::<32>(y);
        let ll = vmull_u32(x_lo, y_lo);
        let lh = vmull_u32(x_lo, y_hi);
        let hl = vmull_u32(x_hi, y_lo);
        let hh = vmull_u32(x_hi, y_hi);
        let mid0 = vsraq_n_u64::<32>(hl, ll);
        let mid1 = vaddq_u64(lh, vandq_u64(mid0, set1(EPSILON)));
        let hi = vsraq_n_u64::<32>(vsraq_n_u64::<32>(hh, mid0), mid1);
        // Low word: low half of ll, high half = low half of mid1 (shift-left-and-insert).
        let lo = vsliq_n_u64::<32>(ll, mid1);

        let hi_hi = vshrq_n_u64::<32>(hi);
        let borrow = vcltq_u64(lo, hi_hi);
        let t0 = vsubq_u64(vsubq_u64(lo, hi_hi), vshrq_n_u64::<32>(borrow));
        let t1 = vmull_u32(vmovn_u64(hi), vdup_n_u32(EPSILON as u32));
        add_no_double_overflow(t0, t1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both multiplication strategies agree (whichever `MUL_STRATEGY` selects is also covered
    /// by the generic backend suite).
    #[test]
    fn vector_and_interleaved_scalar_mul_agree() {
        let danger = [
            0,
            1,
            2,
            P - 1,
            P,
            P + 1,
            EPSILON,
            1 << 32,
            1 << 63,
            u64::MAX,
            u64::MAX - 1,
            0xFFFF_FFFF_0000_0000,
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut values: Vec<u64> = danger.to_vec();
        for _ in 0..2000 {
            // xorshift64*: deterministic pseudo-random lanes.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            values.push(state.wrapping_mul(0x2545_F491_4F6C_DD1D));
        }
        for pair in values.windows(4) {
            let x = PackedNeon([Goldilocks::from_u64(pair[0]), Goldilocks::from_u64(pair[1])]);
            let y = PackedNeon([Goldilocks::from_u64(pair[2]), Goldilocks::from_u64(pair[3])]);
            assert_eq!(x.mul_vector(y), x.mul_interleaved_scalar(y), "{pair:?}");
            assert_eq!(x.mul_vector(x), x.mul_interleaved_scalar(x), "{pair:?}");
        }
    }
}
