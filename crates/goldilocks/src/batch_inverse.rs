//! Montgomery's batch inversion for any [`Field`] on one thread (3 multiplications per element
//! and one inversion), and [`Goldilocks::batch_inverse_in_place`], its scalar entry point.
//! The packed, parallel version is [`crate::kernels::batch_inverse`].

use crate::error::ZeroElement;
use crate::field::Goldilocks;
use crate::field_trait::Field;

impl Goldilocks {
    /// Replaces every element by its inverse (Montgomery's trick: 3 multiplications per
    /// element and one inversion), or reports the first zero and leaves `values` unchanged.
    pub fn batch_inverse_in_place(values: &mut [Self]) -> Result<(), ZeroElement> {
        batch_inverse_generic::<Self>(values)
    }
}

/// Scalar Montgomery batch inversion for any [`Field`]; the slice is unchanged on error.
pub(crate) fn batch_inverse_generic<F: Field>(values: &mut [F]) -> Result<(), ZeroElement> {
    if let Some(index) = values.iter().position(|x| x.is_zero()) {
        return Err(ZeroElement { index });
    }
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = F::ONE;
    for &x in values.iter() {
        prefix.push(acc);
        acc *= x;
    }
    let mut inv = acc
        .try_inverse()
        .expect("a product of non-zero field elements is non-zero");
    for (x, before) in values.iter_mut().zip(prefix).rev() {
        let original = *x;
        *x = inv * before;
        inv *= original;
    }
    Ok(())
}
