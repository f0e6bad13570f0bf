//! Zero-copy conversions between Plonky3's and Aurum's Goldilocks — the only module of this
//! crate with `unsafe` code.
//!
//! `p3_goldilocks::Goldilocks` and `aurum_goldilocks::Goldilocks` are both
//! `#[repr(transparent)]` over one `u64`, and both are **lazily reduced**: every `u64` is a
//! valid element, standing for its residue mod p (Plonky3 documents its field as "not
//! necessarily canonical", and its packed AVX2/AVX-512/NEON types accept arbitrary `u64`
//! lanes). Neither type has another invariant, so reinterpreting one as the other keeps the
//! field element and needs no canonicalisation — not on input, not on output. Everything
//! observable on either side (`==`, hashing, ordering, serde, Plonky3's byte encodings)
//! goes through the canonical value, which is why proofs serialise to the same bytes
//! whichever library computed an element and in which representation it was left.
//!
//! The functions here reinterpret slices, `Vec`s and values of any [`U64Repr`] type as
//! another of the same size: the two Goldilocks types, `u64`, and arrays of them (digests,
//! permutation states). Sizes and alignments are asserted at compile time for every pair a
//! program uses.
//!
//! ```
//! use aurum_p3::convert::{cast_slice, cast_vec};
//!
//! let theirs: Vec<p3_goldilocks::Goldilocks> =
//!     (0..8u64).map(p3_goldilocks::Goldilocks::new).collect();
//! let ours: &[aurum_goldilocks::Goldilocks] = cast_slice(&theirs);
//! assert_eq!(ours[7], aurum_goldilocks::Goldilocks::from_u64(7));
//! let digests: Vec<[aurum_goldilocks::Goldilocks; 4]> = cast_vec(vec![[theirs[1]; 4]; 2]);
//! assert_eq!(digests.len(), 2);
//! ```
#![allow(unsafe_code)]

use aurum_goldilocks::Goldilocks as AurumGoldilocks;
use p3_field::PrimeField64;
use p3_goldilocks::Goldilocks as P3Goldilocks;

mod sealed {
    pub trait Sealed {}
}

/// A type laid out as whole `u64` words in which every bit pattern is a valid value: `u64`,
/// both Goldilocks types and arrays of them. Sealed; the conversions of this module accept
/// exactly these.
///
/// # Safety
/// Implemented only in this module, for types with the size and alignment of `[u64; k]` for
/// some `k`, no padding, no interior mutability, no drop glue, and no invalid bit patterns.
pub unsafe trait U64Repr: sealed::Sealed + Copy + 'static {}

impl sealed::Sealed for u64 {}
// SAFETY: `u64` is one word and has no invalid bit patterns.
unsafe impl U64Repr for u64 {}

impl sealed::Sealed for AurumGoldilocks {}
// SAFETY: `#[repr(transparent)]` over a `u64` with no invariant (lazily reduced: every `u64`
// is an element; see `aurum_goldilocks::field`).
unsafe impl U64Repr for AurumGoldilocks {}

impl sealed::Sealed for P3Goldilocks {}
// SAFETY: `#[repr(transparent)]` over a `u64` that is "not necessarily canonical" (p3-goldilocks
// 0.8 accepts any `u64` as an element, in scalar and packed form).
unsafe impl U64Repr for P3Goldilocks {}

impl<T: U64Repr, const N: usize> sealed::Sealed for [T; N] {}
// SAFETY: an array of `N` word-sized values without padding is `N` words, valid whenever its
// elements are.
unsafe impl<T: U64Repr, const N: usize> U64Repr for [T; N] {}

// The two field types are one word each, with the alignment of `u64`.
const _: () = {
    assert!(size_of::<AurumGoldilocks>() == size_of::<u64>());
    assert!(size_of::<P3Goldilocks>() == size_of::<u64>());
    assert!(align_of::<AurumGoldilocks>() == align_of::<u64>());
    assert!(align_of::<P3Goldilocks>() == align_of::<u64>());
};

/// Compile-time proof that `A` and `B` have one layout (evaluated per pair used).
const fn same_layout<A, B>() {
    assert!(
        size_of::<A>() == size_of::<B>(),
        "the two types differ in size"
    );
    assert!(
        align_of::<A>() == align_of::<B>(),
        "the two types differ in alignment"
    );
}

/// `values` as a slice of `B`, without copying.
#[inline(always)]
#[must_use]
pub fn cast_slice<A: U64Repr, B: U64Repr>(values: &[A]) -> &[B] {
    const { same_layout::<A, B>() };
    // SAFETY: `A` and `B` have the same size and alignment (checked above) and every bit
    // pattern is a valid `B` (`U64Repr`), so the same memory holds `values.len()` valid `B`s;
    // the borrow keeps it alive and shared for the returned lifetime.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<B>(), values.len()) }
}

/// `values` as a mutable slice of `B`, without copying.
#[inline(always)]
#[must_use]
pub fn cast_slice_mut<A: U64Repr, B: U64Repr>(values: &mut [A]) -> &mut [B] {
    const { same_layout::<A, B>() };
    // SAFETY: as in `cast_slice`; in addition every `A` is a valid bit pattern, so whatever
    // `B`s are written through the result read back as valid `A`s, and the exclusive borrow
    // is handed on, not duplicated.
    unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<B>(), values.len()) }
}

/// `value` as a `&mut B`, without copying (a permutation state, a digest).
#[inline(always)]
#[must_use]
pub fn cast_mut<A: U64Repr, B: U64Repr>(value: &mut A) -> &mut B {
    const { same_layout::<A, B>() };
    // SAFETY: same size and alignment, every bit pattern valid for both types (`U64Repr`);
    // the exclusive borrow is handed on.
    unsafe { &mut *core::ptr::from_mut(value).cast::<B>() }
}

/// `value` reinterpreted as a `B` (same bits).
#[inline(always)]
#[must_use]
pub fn cast<A: U64Repr, B: U64Repr>(value: A) -> B {
    let mut value = value;
    *cast_mut::<A, B>(&mut value)
}

/// `values` as a `Vec<B>` with the same allocation, without copying.
#[must_use]
pub fn cast_vec<A: U64Repr, B: U64Repr>(values: Vec<A>) -> Vec<B> {
    const { same_layout::<A, B>() };
    let mut values = core::mem::ManuallyDrop::new(values);
    let (ptr, len, capacity) = (values.as_mut_ptr(), values.len(), values.capacity());
    // SAFETY: the allocation came from the global allocator for `capacity` values of `A`, the
    // same layout as `capacity` values of `B` (same size and alignment), so freeing it as a
    // `Vec<B>` frees it with its original layout; its first `len` values are valid `B`s
    // (`U64Repr`); `ManuallyDrop` gives up the original `Vec`'s ownership.
    unsafe { Vec::from_raw_parts(ptr.cast::<B>(), len, capacity) }
}

/// One Plonky3 element as Aurum's (by its canonical value).
#[inline(always)]
#[must_use]
pub fn to_aurum(x: P3Goldilocks) -> AurumGoldilocks {
    AurumGoldilocks::from_u64(x.as_canonical_u64())
}

/// One Aurum element as Plonky3's (by its canonical value).
#[inline(always)]
pub fn to_p3(x: AurumGoldilocks) -> P3Goldilocks {
    P3Goldilocks::new(x.as_canonical_u64())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values that are the same element with two representations, and the extremes.
    const RAW: [u64; 6] = [
        0,
        1,
        aurum_goldilocks::P - 1,
        aurum_goldilocks::P,
        u64::MAX,
        1 << 63,
    ];

    #[test]
    fn slices_keep_every_element_including_non_canonical_ones() {
        let theirs: Vec<P3Goldilocks> = RAW.iter().map(|&x| P3Goldilocks::new(x)).collect();
        let ours: &[AurumGoldilocks] = cast_slice(&theirs);
        let expected: Vec<AurumGoldilocks> =
            RAW.iter().map(|&x| AurumGoldilocks::from_u64(x)).collect();
        assert_eq!(ours, expected.as_slice());
        let back: &[P3Goldilocks] = cast_slice(ours);
        assert_eq!(back, theirs.as_slice());
    }

    #[test]
    fn writes_through_a_mutable_view_land_in_the_original() {
        let mut theirs = vec![[P3Goldilocks::new(5); 4]; 3];
        let ours: &mut [[AurumGoldilocks; 4]] = cast_slice_mut(&mut theirs);
        ours[2][3] = AurumGoldilocks::from_u64(aurum_goldilocks::P + 9);
        assert_eq!(theirs[2][3], P3Goldilocks::new(9));
        let state: &mut [AurumGoldilocks; 4] = cast_mut(&mut theirs[0]);
        state[0] = AurumGoldilocks::from_u64(11);
        assert_eq!(theirs[0][0], P3Goldilocks::new(11));
    }

    #[test]
    fn vecs_keep_allocation_length_and_values() {
        let mut theirs: Vec<P3Goldilocks> = Vec::with_capacity(10);
        theirs.extend(RAW.iter().map(|&x| P3Goldilocks::new(x)));
        let ptr = theirs.as_ptr() as usize;
        let ours: Vec<AurumGoldilocks> = cast_vec(theirs);
        assert_eq!(
            (ours.as_ptr() as usize, ours.len(), ours.capacity()),
            (ptr, 6, 10)
        );
        assert_eq!(ours[4], AurumGoldilocks::from_u64(u64::MAX));
        let raw: Vec<u64> = cast_vec(ours);
        assert_eq!(raw, RAW);
    }

    #[test]
    fn single_elements_convert_by_value() {
        for x in RAW {
            let theirs = P3Goldilocks::new(x);
            assert_eq!(to_aurum(theirs), AurumGoldilocks::from_u64(x));
            assert_eq!(to_p3(to_aurum(theirs)), theirs);
            assert_eq!(
                cast::<P3Goldilocks, AurumGoldilocks>(theirs),
                to_aurum(theirs)
            );
        }
    }
}
