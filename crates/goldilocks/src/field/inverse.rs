//! Inversion in the field: a binary extended GCD (variable time) and an addition chain
//! (constant time).

use super::Goldilocks;
use super::arith::P;

impl Goldilocks {
    /// The multiplicative inverse, or `None` for zero.
    ///
    /// A binary extended GCD in the style of Pornin's "optimized binary GCD": the loop runs
    /// on the 64-bit integers only, accumulating small update factors, and touches field
    /// arithmetic just once at the end. Its running time depends on the input (fine for the
    /// public data of hashing and proving); [`Goldilocks::try_inverse_constant_time`] is the
    /// constant-time alternative. `benches/field.rs` (`inverse/single`) compares them.
    #[must_use]
    pub fn try_inverse(self) -> Option<Self> {
        let x = self.as_canonical_u64();
        if x == 0 {
            return None;
        }
        // Invariant over a round of k steps: a·2^k = f0·A + g0·B and b·2^k = f1·A + g1·B,
        // where (A, B) are the round's inputs. B starts as p, so b·2^k ≡ f1·A (mod p).
        // Each step shortens len(a) + len(b) by at least one bit while a > 0, so two rounds of
        // 63 steps bring it from ≤ 128 down to ≤ 2: b = gcd = 1 and a ∈ {0, 1}.
        const STEPS: u32 = 63;
        let (mut a, mut b) = (x, P);
        let (f00, _, f10, _) = binary_gcd_round::<STEPS>(&mut a, &mut b);
        let (_, _, f11, g11) = binary_gcd_round::<STEPS>(&mut a, &mut b);
        debug_assert!(
            b == 1 && a <= 1,
            "binary GCD did not converge: a = {a}, b = {b}"
        );
        // 1·2^126 ≡ (f11·f00 + g11·f10)·x, and 2^-126 = 2^66 because 2^192 ≡ 1.
        let inv = gcd_factor(f11) * gcd_factor(f00) + gcd_factor(g11) * gcd_factor(f10);
        Some(inv.mul_2exp(66))
    }

    /// The multiplicative inverse in constant time, or `None` for zero.
    ///
    /// Computes `self^(p−2)` with a 73-multiplication addition chain (64 squarings and
    /// 9 multiplications) instead of the ~125 of plain square-and-multiply.
    #[must_use]
    pub const fn try_inverse_constant_time(self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        // p − 2 = (2^31 − 1)·2^33 + (2^32 − 1); t_k below is self^(2^k − 1).
        let t1 = self;
        let t2 = t1.square_const().mul_const(t1);
        let t3 = t2.square_const().mul_const(t1);
        let t6 = t3.exp_power_of_2(3).mul_const(t3);
        let t12 = t6.exp_power_of_2(6).mul_const(t6);
        let t24 = t12.exp_power_of_2(12).mul_const(t12);
        let t30 = t24.exp_power_of_2(6).mul_const(t6);
        let t31 = t30.square_const().mul_const(t1);
        let t32 = t31.square_const().mul_const(t1);
        Some(t31.exp_power_of_2(33).mul_const(t32))
    }

    /// The multiplicative inverse.
    ///
    /// # Panics
    /// Panics if `self` is zero; use [`Goldilocks::try_inverse`] to get an `Option`.
    #[must_use]
    pub fn inverse(self) -> Self {
        self.try_inverse()
            .expect("the inverse of zero does not exist in the Goldilocks field")
    }
}

/// `STEPS` steps of the binary GCD on `(a, b)` (`b` odd), returning the update factors
/// `(f0, g0, f1, g1)` with `a_out·2^STEPS = f0·a_in + g0·b_in` and
/// `b_out·2^STEPS = f1·a_in + g1·b_in`.
///
/// Each step subtracts the smaller odd value from the larger, then halves `a`; instead of
/// halving `a`'s factors, `b`'s are doubled, which is where the `2^STEPS` comes from. The
/// factors lie in `(−2^STEPS, 2^STEPS]`, so for `STEPS = 63` they fit an `i64` except for
/// `+2^63`, which wraps to `i64::MIN` and is read back by [`gcd_factor`].
#[inline]
fn binary_gcd_round<const STEPS: u32>(a: &mut u64, b: &mut u64) -> (i64, i64, i64, i64) {
    let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
    for _ in 0..STEPS {
        if *a & 1 == 1 {
            if *a < *b {
                core::mem::swap(a, b);
                core::mem::swap(&mut f0, &mut f1);
                core::mem::swap(&mut g0, &mut g1);
            }
            *a -= *b;
            f0 = f0.wrapping_sub(f1);
            g0 = g0.wrapping_sub(g1);
        }
        *a >>= 1;
        f1 = f1.wrapping_shl(1);
        g1 = g1.wrapping_shl(1);
    }
    (f0, g0, f1, g1)
}

/// A binary-GCD update factor as a field element (`i64::MIN` stands for `+2^63`).
#[inline]
fn gcd_factor(f: i64) -> Goldilocks {
    if f >= 0 || f == i64::MIN {
        Goldilocks::from_u64(f as u64)
    } else {
        Goldilocks::from_u64(P - f.unsigned_abs())
    }
}
