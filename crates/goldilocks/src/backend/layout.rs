//! Slice casts between `Goldilocks` lanes and packed vectors.
//!
//! All of them rest on the `PackedField` safety contract: an implementor has the layout of
//! `[Goldilocks; WIDTH]` (same size, alignment no larger than `Goldilocks`'s), and every
//! bit pattern is a valid `Goldilocks` (any `u64` represents its residue).

use crate::{Goldilocks, PackedField};

/// The lanes of one vector.
#[inline(always)]
pub(crate) fn lanes<P: PackedField>(p: &P) -> &[Goldilocks] {
    // SAFETY: `P` has the layout of `[Goldilocks; P::WIDTH]` (PackedField contract), so the
    // pointer is valid and aligned for `WIDTH` elements for the lifetime of the borrow.
    unsafe { core::slice::from_raw_parts((p as *const P).cast::<Goldilocks>(), P::WIDTH) }
}

/// The lanes of one vector, mutably.
#[inline(always)]
pub(crate) fn lanes_mut<P: PackedField>(p: &mut P) -> &mut [Goldilocks] {
    // SAFETY: as in `lanes`; the exclusive borrow of `p` is handed on to the slice, and any
    // `u64` written through it is a valid lane.
    unsafe { core::slice::from_raw_parts_mut((p as *mut P).cast::<Goldilocks>(), P::WIDTH) }
}

/// The first `len / WIDTH` whole vectors of a slice.
#[inline(always)]
pub(crate) fn pack<P: PackedField>(slice: &[Goldilocks]) -> &[P] {
    let n = slice.len() / P::WIDTH;
    // SAFETY: `n · WIDTH ≤ len` elements are in bounds; `P` is `[Goldilocks; WIDTH]` in
    // layout with no stricter alignment, so the cast pointer is valid and aligned.
    unsafe { core::slice::from_raw_parts(slice.as_ptr().cast::<P>(), n) }
}

/// The first `len / WIDTH` whole vectors of a mutable slice.
#[inline(always)]
pub(crate) fn pack_mut<P: PackedField>(slice: &mut [Goldilocks]) -> &mut [P] {
    let n = slice.len() / P::WIDTH;
    // SAFETY: as in `pack`; the exclusive borrow is handed on.
    unsafe { core::slice::from_raw_parts_mut(slice.as_mut_ptr().cast::<P>(), n) }
}

/// The lanes of a slice of vectors, in order.
#[inline(always)]
pub(crate) fn unpack<P: PackedField>(packed: &[P]) -> &[Goldilocks] {
    // SAFETY: `packed.len()` vectors are `len · WIDTH` contiguous `Goldilocks`.
    unsafe {
        core::slice::from_raw_parts(
            packed.as_ptr().cast::<Goldilocks>(),
            packed.len() * P::WIDTH,
        )
    }
}

/// The lanes of a mutable slice of vectors, in order.
#[inline(always)]
pub(crate) fn unpack_mut<P: PackedField>(packed: &mut [P]) -> &mut [Goldilocks] {
    // SAFETY: as in `unpack`; the exclusive borrow is handed on.
    unsafe {
        core::slice::from_raw_parts_mut(
            packed.as_mut_ptr().cast::<Goldilocks>(),
            packed.len() * P::WIDTH,
        )
    }
}

// `Goldilocks2` must be exactly two `Goldilocks` with no padding for the casts below.
const _: () = assert!(size_of::<crate::Goldilocks2>() == 2 * size_of::<Goldilocks>());
const _: () = assert!(align_of::<crate::Goldilocks2>() == align_of::<Goldilocks>());

/// The coefficients of extension elements, `[c0, c1]` per element, as base-field elements.
#[inline(always)]
pub(crate) fn ext_as_base(values: &[crate::Goldilocks2]) -> &[Goldilocks] {
    // SAFETY: `Goldilocks2` is `#[repr(C)]` over `[Goldilocks; 2]` (size and alignment
    // asserted above), so `len` elements are `2·len` contiguous, aligned `Goldilocks`.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<Goldilocks>(), 2 * values.len()) }
}

/// The coefficients of extension elements as mutable base-field elements.
#[inline(always)]
pub(crate) fn ext_as_base_mut(values: &mut [crate::Goldilocks2]) -> &mut [Goldilocks] {
    // SAFETY: as in `ext_as_base`; the exclusive borrow is handed on, and any `u64` written
    // through it is a valid coefficient.
    unsafe {
        core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<Goldilocks>(), 2 * values.len())
    }
}

/// The stored words of a slice of elements (`Goldilocks` is `#[repr(transparent)]` over `u64`).
#[inline(always)]
pub(crate) fn words(values: &[Goldilocks]) -> &[u64] {
    // SAFETY: `Goldilocks` is `#[repr(transparent)]` over `u64`: same size and alignment, so
    // `len` elements are `len` contiguous, aligned `u64`s for the lifetime of the borrow.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u64>(), values.len()) }
}

/// The stored words of a mutable slice of elements.
#[inline(always)]
pub(crate) fn words_mut(values: &mut [Goldilocks]) -> &mut [u64] {
    // SAFETY: as in `words`; the exclusive borrow is handed on, and every `u64` written through
    // it is a valid element (any `u64` represents its residue modulo p).
    unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u64>(), values.len()) }
}
