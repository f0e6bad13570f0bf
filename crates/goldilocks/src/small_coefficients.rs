//! [`SmallCoefficients`]: the coefficients of
//! [`PackedField::linear_combination_small`](crate::PackedField::linear_combination_small),
//! whose sum is bounded so that the products can be added up unreduced.

use crate::error::CoefficientSumTooLarge;

/// Coefficients for
/// [`PackedField::linear_combination_small`](crate::PackedField::linear_combination_small):
/// `N` values whose sum is below [`SmallCoefficients::SUM_BOUND`] (`2^31`), so that the SIMD
/// backends can add up the products unreduced (each sum of `c·x` halves then stays below `2^63`).
///
/// Build constant coefficients with [`SmallCoefficients::new`] in a `const`, where a sum that
/// is too large is a compile-time error; build run-time values with
/// [`SmallCoefficients::try_new`].
///
/// ```
/// use aurum_goldilocks::{Goldilocks, PackedField, SmallCoefficients};
///
/// const ROW: SmallCoefficients<3> = SmallCoefficients::new([17, 15, 41]);
/// let xs = [Goldilocks::from(1u32), Goldilocks::from(2u32), Goldilocks::from(3u32)];
/// assert_eq!(
///     Goldilocks::linear_combination_small(&xs, &ROW),
///     Goldilocks::from(17u32 + 2 * 15 + 3 * 41)
/// );
/// assert!(SmallCoefficients::try_new([1 << 30, 1 << 30]).is_err());
/// ```
///
/// A constant whose coefficients sum to `2^31` or more does not compile:
///
/// ```compile_fail,E0080
/// use aurum_goldilocks::SmallCoefficients;
///
/// const TOO_LARGE: SmallCoefficients<2> = SmallCoefficients::new([1 << 30, 1 << 30]);
/// let _ = TOO_LARGE;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallCoefficients<const N: usize>([u32; N]);

impl<const N: usize> SmallCoefficients<N> {
    /// The coefficients' sum must be below this (`2^31`).
    pub const SUM_BOUND: u64 = 1 << 31;

    /// The coefficients, or the error naming their sum if it is not below
    /// [`SUM_BOUND`](Self::SUM_BOUND).
    ///
    /// # Errors
    /// [`CoefficientSumTooLarge`] if `Σ cs ≥ 2^31`.
    pub const fn try_new(cs: [u32; N]) -> Result<Self, CoefficientSumTooLarge> {
        let mut sum = 0u64;
        let mut i = 0;
        while i < N {
            sum = sum.saturating_add(cs[i] as u64);
            i += 1;
        }
        if sum < Self::SUM_BOUND {
            Ok(Self(cs))
        } else {
            Err(CoefficientSumTooLarge { sum })
        }
    }

    /// The coefficients, for constants.
    ///
    /// # Panics
    /// Panics if `Σ cs ≥ 2^31`: at compile time when evaluated in a `const`.
    #[must_use]
    pub const fn new(cs: [u32; N]) -> Self {
        match Self::try_new(cs) {
            Ok(coefficients) => coefficients,
            Err(_) => panic!("SmallCoefficients: the coefficients must sum to less than 2^31"),
        }
    }

    /// The coefficients.
    #[must_use]
    pub const fn get(&self) -> &[u32; N] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CoefficientSumTooLarge;

    #[test]
    fn small_coefficients_accept_exactly_sums_below_2_31() {
        let largest = SmallCoefficients::try_new([(1 << 31) - 2, 1]).unwrap();
        assert_eq!(largest.get(), &[(1 << 31) - 2, 1]);
        assert_eq!(
            SmallCoefficients::try_new([1 << 30, 1 << 30]),
            Err(CoefficientSumTooLarge { sum: 1 << 31 })
        );
        assert_eq!(
            SmallCoefficients::try_new([u32::MAX; 3]),
            Err(CoefficientSumTooLarge {
                sum: 3 * u64::from(u32::MAX)
            })
        );
        let err = SmallCoefficients::try_new([u32::MAX]).unwrap_err();
        assert!(err.to_string().contains("2^31"), "{err}");
        assert!(SmallCoefficients::<0>::try_new([]).is_ok());
    }

    #[test]
    #[should_panic(expected = "must sum to less than 2^31")]
    fn small_coefficients_new_panics_at_run_time_too() {
        let too_large = core::hint::black_box([1u32 << 31]);
        let _ = SmallCoefficients::new(too_large);
    }
}
