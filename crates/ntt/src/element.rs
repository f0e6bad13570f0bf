//! Column element types: the base field and its quadratic extension.

use aurum_goldilocks::{Goldilocks, Goldilocks2};

mod sealed {
    pub trait Sealed {}
    impl Sealed for aurum_goldilocks::Goldilocks {}
    impl Sealed for aurum_goldilocks::Goldilocks2 {}
}

/// An element type whose columns the NTT can transform.
///
/// NTTs are linear over the base field, so an extension column is transformed as its
/// `DEGREE` coefficient columns: a row-major matrix of width `w` over `Goldilocks2` is viewed,
/// without copying, as one of width `2w` over `Goldilocks`.
pub trait NttElement:
    sealed::Sealed + aurum_goldilocks::raw::ZeroedWords + Copy + Default + Send + Sync + 'static
{
    /// Base-field coefficients per element.
    const DEGREE: usize;
    /// The elements as base-field coefficients.
    fn as_base(values: &[Self]) -> &[Goldilocks];
    /// The elements as mutable base-field coefficients.
    fn as_base_mut(values: &mut [Self]) -> &mut [Goldilocks];
}

impl NttElement for Goldilocks {
    const DEGREE: usize = 1;
    #[inline]
    fn as_base(values: &[Self]) -> &[Goldilocks] {
        values
    }
    #[inline]
    fn as_base_mut(values: &mut [Self]) -> &mut [Goldilocks] {
        values
    }
}

impl NttElement for Goldilocks2 {
    const DEGREE: usize = 2;
    #[inline]
    fn as_base(values: &[Self]) -> &[Goldilocks] {
        Goldilocks2::as_base_slice(values)
    }
    #[inline]
    fn as_base_mut(values: &mut [Self]) -> &mut [Goldilocks] {
        Goldilocks2::as_base_slice_mut(values)
    }
}
