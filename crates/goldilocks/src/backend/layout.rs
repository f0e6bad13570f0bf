//! Slice casts between `Goldilocks` lanes and packed vectors.
//!
//! All of them rest on the `PackedField` safety contract (here the [`Lanes`] contract): an
//! implementor has the layout of `[Goldilocks; WIDTH]` (same size, alignment no larger than
//! `Goldilocks`'s), and every bit pattern is a valid `Goldilocks` (any `u64` represents its
//! residue).

use crate::error::AllocError;
use crate::field::Goldilocks;
use crate::huge_pages::HugePages;

/// A type with the layout of `[Goldilocks; LANES]`: what the casts below need. Every
/// [`PackedField`](crate::PackedField) is one (implemented for them in `backend/mod.rs`); a
/// trait of its own so that this module, which the packed trait's slice methods use, does not
/// import the packed trait back.
///
/// # Safety
/// Implementors must have the layout of `[Goldilocks; LANES]`: the same size, and alignment no
/// larger than `Goldilocks`'s.
pub(crate) unsafe trait Lanes: Sized {
    /// The number of `Goldilocks` in one value.
    const LANES: usize;
}

/// The lanes of one vector.
#[inline(always)]
pub(crate) fn lanes<P: Lanes>(p: &P) -> &[Goldilocks] {
    // SAFETY: `P` has the layout of `[Goldilocks; P::LANES]` (the `Lanes` contract), so the
    // pointer is valid and aligned for `WIDTH` elements for the lifetime of the borrow.
    unsafe { core::slice::from_raw_parts((p as *const P).cast::<Goldilocks>(), P::LANES) }
}

/// The lanes of one vector, mutably.
#[inline(always)]
pub(crate) fn lanes_mut<P: Lanes>(p: &mut P) -> &mut [Goldilocks] {
    // SAFETY: as in `lanes`; the exclusive borrow of `p` is handed on to the slice, and any
    // `u64` written through it is a valid lane.
    unsafe { core::slice::from_raw_parts_mut((p as *mut P).cast::<Goldilocks>(), P::LANES) }
}

/// The first `len / WIDTH` whole vectors of a slice.
#[inline(always)]
pub(crate) fn pack<P: Lanes>(slice: &[Goldilocks]) -> &[P] {
    let n = slice.len() / P::LANES;
    // SAFETY: `n · WIDTH ≤ len` elements are in bounds; `P` is `[Goldilocks; WIDTH]` in
    // layout with no stricter alignment, so the cast pointer is valid and aligned.
    unsafe { core::slice::from_raw_parts(slice.as_ptr().cast::<P>(), n) }
}

/// The first `len / WIDTH` whole vectors of a mutable slice.
#[inline(always)]
pub(crate) fn pack_mut<P: Lanes>(slice: &mut [Goldilocks]) -> &mut [P] {
    let n = slice.len() / P::LANES;
    // SAFETY: as in `pack`; the exclusive borrow is handed on.
    unsafe { core::slice::from_raw_parts_mut(slice.as_mut_ptr().cast::<P>(), n) }
}

/// The lanes of a slice of vectors, in order.
#[inline(always)]
pub(crate) fn unpack<P: Lanes>(packed: &[P]) -> &[Goldilocks] {
    // SAFETY: `packed.len()` vectors are `len · WIDTH` contiguous `Goldilocks`.
    unsafe {
        core::slice::from_raw_parts(
            packed.as_ptr().cast::<Goldilocks>(),
            packed.len() * P::LANES,
        )
    }
}

/// The lanes of a mutable slice of vectors, in order.
#[inline(always)]
pub(crate) fn unpack_mut<P: Lanes>(packed: &mut [P]) -> &mut [Goldilocks] {
    // SAFETY: as in `unpack`; the exclusive borrow is handed on.
    unsafe {
        core::slice::from_raw_parts_mut(
            packed.as_mut_ptr().cast::<Goldilocks>(),
            packed.len() * P::LANES,
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

// The public face of the two casts above (on `Goldilocks2` itself, defined here so that the
// extension field's module needs no `unsafe` code and this module no back-reference).
impl crate::Goldilocks2 {
    /// Views extension elements as their coefficients `[c0, c1, c0, c1, …]` (`2·len` base
    /// elements), without copying: base-field-linear maps (NTTs) process an extension column
    /// as two base columns this way.
    #[inline]
    #[must_use]
    pub fn as_base_slice(values: &[Self]) -> &[Goldilocks] {
        ext_as_base(values)
    }

    /// Views extension elements as their coefficients, mutably (see [`Self::as_base_slice`]).
    #[inline]
    #[must_use]
    pub fn as_base_slice_mut(values: &mut [Self]) -> &mut [Goldilocks] {
        ext_as_base_mut(values)
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

/// Values made of whole `Goldilocks` words with no padding, for which the all-zero bit pattern
/// is a valid value (zero): what [`crate::raw::zeroed_vec`] may allocate.
///
/// Sealed: implemented for `Goldilocks`, `Goldilocks2` and arrays of `Goldilocks` only.
///
/// # Safety
/// Implementors must have size `8 · k` for some `k`, alignment 8 (no stricter), no padding,
/// and accept every bit pattern of zeros as a valid value.
pub unsafe trait ZeroedWords: sealed::Sealed + Copy + 'static {
    /// The zero value (all words zero).
    const ZERO: Self;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::Goldilocks {}
    impl Sealed for crate::Goldilocks2 {}
    impl<const N: usize> Sealed for [crate::Goldilocks; N] {}
}

// SAFETY: `#[repr(transparent)]` over `u64`; the zero word is the element 0.
unsafe impl ZeroedWords for Goldilocks {
    const ZERO: Self = Goldilocks::ZERO;
}

// SAFETY: `#[repr(C)]` over `[Goldilocks; 2]` (size and alignment asserted above); zero
// words are the element 0.
unsafe impl ZeroedWords for crate::Goldilocks2 {
    const ZERO: Self = crate::Goldilocks2::ZERO;
}

// SAFETY: an array of `Goldilocks` is `N` words with no padding.
unsafe impl<const N: usize> ZeroedWords for [Goldilocks; N] {
    const ZERO: Self = [Goldilocks::ZERO; N];
}

/// `len` zero values, allocated already zeroed (`calloc`: fresh pages come zeroed from the
/// kernel) instead of being filled: a 2 GiB buffer then costs its page faults, spread over the
/// threads that first write it, not a single-threaded memset. Large buffers are advised onto
/// transparent huge pages. An allocation failure is an error, not an abort.
pub(crate) fn try_zeroed_vec<T: ZeroedWords>(len: usize) -> Result<Vec<T>, AllocError> {
    let bytes = len
        .checked_mul(size_of::<T>())
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .ok_or(AllocError { bytes: usize::MAX })?;
    if bytes == 0 {
        // Nothing to allocate: no values, or values of size zero (`[Goldilocks; 0]`).
        return Ok(vec![T::ZERO; len]);
    }
    let layout = std::alloc::Layout::array::<u64>(bytes / 8).map_err(|_| AllocError { bytes })?;
    // SAFETY: `layout` has a non-zero size (`bytes > 0`, a multiple of 8 by the `ZeroedWords`
    // contract).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(AllocError { bytes });
    }
    advise_huge_pages(ptr, bytes);
    // SAFETY: `ptr` comes from the global allocator for `bytes / 8` `u64`s (size `bytes`,
    // alignment 8). `T` has alignment 8 and size `8 · k` with no padding (`ZeroedWords`
    // contract), so `len` values occupy exactly that allocation (`len · size_of::<T>() =
    // bytes`), as `Vec::from_raw_parts` requires of its pointer, length and capacity; all
    // `len` are initialised (zero words are a valid value); nothing else owns the memory.
    Ok(unsafe { Vec::from_raw_parts(ptr.cast::<T>(), len, len) })
}

/// [`try_zeroed_vec`], aborting (or panicking on a capacity overflow) as `vec!` does when the
/// memory cannot be had.
pub(crate) fn zeroed_vec<T: ZeroedWords>(len: usize) -> Vec<T> {
    // The failed allocation is asked of `vec!` again, which reports it as it always does.
    try_zeroed_vec(len).unwrap_or_else(|_| vec![T::ZERO; len])
}

/// `len` arrays of `N` zero elements, allocated already zeroed (see [`zeroed_vec`]).
pub(crate) fn zeroed_arrays<const N: usize>(len: usize) -> Vec<[Goldilocks; N]> {
    zeroed_vec(len)
}

/// `v.reserve_exact(additional)`, with the new, not yet touched part of the allocation advised
/// onto transparent huge pages (see [`zeroed_vec`]): growing a large buffer then costs a few
/// thousand times fewer page faults when it is written.
pub(crate) fn reserve_exact_huge<T>(v: &mut Vec<T>, additional: usize) {
    v.reserve_exact(additional);
    let spare = v.spare_capacity_mut();
    advise_huge_pages(spare.as_mut_ptr().cast(), size_of_val(spare));
}

/// [`reserve_exact_huge`], with an allocation failure reported as an error (the bytes of the
/// whole buffer asked for) instead of an abort; `v` is unchanged then.
pub(crate) fn try_reserve_exact_huge<T>(
    v: &mut Vec<T>,
    additional: usize,
) -> Result<(), AllocError> {
    v.try_reserve_exact(additional).map_err(|_| AllocError {
        bytes: v
            .len()
            .checked_add(additional)
            .and_then(|n| n.checked_mul(size_of::<T>()))
            .unwrap_or(usize::MAX),
    })?;
    let spare = v.spare_capacity_mut();
    advise_huge_pages(spare.as_mut_ptr().cast(), size_of_val(spare));
    Ok(())
}

/// Asks Linux to back the whole 2 MiB pages of a large, not yet touched buffer with
/// transparent huge pages, where the system leaves that to `madvise` (the default of many
/// distributions): a 4 GiB tree then takes 2 thousand page faults instead of a million, which
/// cost more than a tenth of its hashing time. Advice only: failure changes nothing. Follows
/// the process's policy ([`crate::huge_pages::huge_pages`], `AURUM_HUGE_PAGES`).
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    advise_huge_pages_as(crate::huge_pages::huge_pages(), start, bytes);
}

/// The size of a transparent huge page (x86-64, and aarch64 with 4 KiB pages).
const HUGE: usize = 2 << 20;

/// The longest a huge page's first fault may take under [`HugePages::Auto`] before the advice
/// is withdrawn for the rest of the range being faulted in: about what the 512 small-page faults of the same
/// 2 MiB cost (1–4 µs each). A huge page at hand faults in 0.2–0.4 ms (zeroing 2 MiB at
/// 5–10 GB/s); one that needs direct compaction, or that a hypervisor must back again after
/// free page reporting, takes 4–10 ms.
const SLOW_HUGE_FAULT: std::time::Duration = std::time::Duration::from_micros(1500);

/// A pointer into a buffer whose disjoint huge pages threads fault in.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy)]
struct PagesPtr(*mut u8);

#[cfg(target_os = "linux")]
impl PagesPtr {
    /// The pointer (a method, so that closures capture the whole `Sync` wrapper).
    fn get(self) -> *mut u8 {
        self.0
    }
}

// SAFETY: the threads of `fault_in_while_fast` each write only inside their own range of huge
// pages of the buffer, through this pointer, while the caller holds exclusive access to it.
#[cfg(target_os = "linux")]
unsafe impl Send for PagesPtr {}
// SAFETY: as for `Send`: shared only to reach disjoint ranges.
#[cfg(target_os = "linux")]
unsafe impl Sync for PagesPtr {}

/// Faults in the `pages` huge pages from `base` (advised, not yet touched), in parallel, each
/// thread walking a contiguous range of them in order; a thread whose fault took longer than
/// [`SLOW_HUGE_FAULT`] (no huge page at hand) withdraws the advice for the rest of its range,
/// which then faults in small pages when it is written.
#[cfg(target_os = "linux")]
fn fault_in_while_fast(base: *mut u8, pages: usize) {
    use rayon::prelude::*;
    let ranges = rayon::current_num_threads().clamp(1, pages.max(1));
    let base = PagesPtr(base);
    (0..ranges).into_par_iter().for_each(|range| {
        let (lo, hi) = (pages * range / ranges, pages * (range + 1) / ranges);
        for page in lo..hi {
            // SAFETY: `page < pages`, so the byte lies inside the buffer the caller owns
            // exclusively, and no other thread writes in this range. The byte written is a
            // zero: the memory is either freshly zeroed (it stays the same) or spare capacity
            // that holds no value yet.
            let at = unsafe { base.get().add(page * HUGE) };
            let fault = std::time::Instant::now();
            // SAFETY: see above.
            unsafe { at.write_volatile(0) };
            if fault.elapsed() > SLOW_HUGE_FAULT {
                if page + 1 < hi {
                    // SAFETY: the rest of this range lies inside the buffer (above);
                    // MADV_NOHUGEPAGE only changes how its pages are backed, never their
                    // contents.
                    unsafe {
                        libc::madvise(
                            at.add(HUGE).cast::<libc::c_void>(),
                            (hi - page - 1) * HUGE,
                            libc::MADV_NOHUGEPAGE,
                        );
                    }
                }
                break;
            }
        }
    });
}

/// [`advise_huge_pages`] under a given policy (the tests run every one).
fn advise_huge_pages_as(policy: HugePages, start: *mut u8, bytes: usize) {
    if bytes < 2 * HUGE || policy == HugePages::Off {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let addr = start as usize;
        // Whole huge pages inside the buffer; addr + bytes is the end of an allocation, so
        // neither sum overflows.
        let first = addr.next_multiple_of(HUGE);
        let last = (addr + bytes) / HUGE * HUGE;
        if last <= first {
            return;
        }
        // SAFETY: `first..last` lies inside one live allocation that this function's caller
        // owns; MADV_HUGEPAGE only changes how its pages are backed, never their contents
        // (untouched pages stay zero), so no Rust value is affected.
        let advised = unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            )
        } == 0;
        if advised && policy == HugePages::Auto {
            // SAFETY: `first - addr < bytes` (a whole huge page lies inside the buffer).
            let base = unsafe { start.add(first - addr) };
            fault_in_while_fast(base, (last - first) / HUGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = start;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_arrays_equal_filled_ones() {
        for len in [0, 1, 3, 1000, 1 << 20] {
            let mut zeroed = zeroed_arrays::<4>(len);
            assert_eq!(zeroed, vec![[Goldilocks::ZERO; 4]; len]);
            assert!(zeroed.iter().flatten().all(|x| x.as_canonical_u64() == 0));
            // The vector owns its memory: it can be written, grown and dropped.
            if let Some(last) = zeroed.last_mut() {
                last[3] = Goldilocks::ONE;
            }
            zeroed.push([Goldilocks::ONE; 4]);
            assert_eq!(zeroed.len(), len + 1);
        }
        assert_eq!(zeroed_arrays::<0>(5).len(), 5);
        assert_eq!(zeroed_arrays::<1>(7), vec![[Goldilocks::ZERO; 1]; 7]);
    }

    #[test]
    fn zeroed_elements_and_extension_elements_equal_filled_ones() {
        for len in [0, 1, 5, 1 << 19] {
            let mut base = zeroed_vec::<Goldilocks>(len);
            assert_eq!(base, vec![Goldilocks::ZERO; len]);
            base.push(Goldilocks::ONE);
            let mut ext = zeroed_vec::<crate::Goldilocks2>(len);
            assert_eq!(ext, vec![crate::Goldilocks2::ZERO; len]);
            ext.push(crate::Goldilocks2::ONE);
            assert_eq!((base.len(), ext.len()), (len + 1, len + 1));
        }
    }

    /// Every huge-page policy leaves a fresh zeroed buffer zero and a grown vector's values
    /// unchanged (the `auto` probe writes into the buffer), whatever the alignment.
    #[test]
    fn every_huge_page_policy_keeps_the_values() {
        for policy in HugePages::ALL {
            for len in [(4 << 20) / 8, (8 << 20) / 8 + 1, (6 << 20) / 8 - 3] {
                let mut zeroed = vec![Goldilocks::ZERO; len];
                let bytes = size_of_val(zeroed.as_slice());
                advise_huge_pages_as(policy, zeroed.as_mut_ptr().cast(), bytes);
                assert!(zeroed.iter().all(|x| x.as_canonical_u64() == 0), "{policy}");
                zeroed[len - 1] = Goldilocks::ONE;
                assert_eq!(zeroed.iter().filter(|x| **x == Goldilocks::ONE).count(), 1);

                let values: Vec<Goldilocks> = (0..1000).map(Goldilocks::from_u64).collect();
                let mut grown = values.clone();
                grown.reserve_exact(len);
                let spare = grown.spare_capacity_mut();
                advise_huge_pages_as(policy, spare.as_mut_ptr().cast(), size_of_val(spare));
                assert_eq!(grown, values, "{policy}");
                grown.resize(1000 + len, Goldilocks::ONE);
                assert_eq!(grown[..1000], values[..]);
                assert!(grown[1000..].iter().all(|x| *x == Goldilocks::ONE));
            }
        }
    }

    /// The fallible allocations give the same vectors, and report what cannot be had (more
    /// than the address space, or an overflowing size) instead of aborting.
    #[test]
    fn fallible_allocations_equal_the_others_and_report_failure() {
        for len in [0, 1, 7, 1 << 20] {
            let mut zeroed = try_zeroed_vec::<[Goldilocks; 4]>(len).unwrap();
            assert_eq!(zeroed, vec![[Goldilocks::ZERO; 4]; len]);
            zeroed.push([Goldilocks::ONE; 4]);
            let ext = try_zeroed_vec::<crate::Goldilocks2>(len).unwrap();
            assert_eq!(ext, vec![crate::Goldilocks2::ZERO; len]);
        }
        assert_eq!(try_zeroed_vec::<[Goldilocks; 0]>(5).unwrap().len(), 5);
        // 2^62 bytes: beyond any address space (x86-64 and aarch64 have at most 2^57).
        assert_eq!(
            try_zeroed_vec::<[Goldilocks; 4]>(1 << 57),
            Err(AllocError { bytes: 1 << 62 })
        );
        assert_eq!(
            try_zeroed_vec::<[Goldilocks; 4]>(usize::MAX / 8),
            Err(AllocError { bytes: usize::MAX })
        );
        let mut v = vec![Goldilocks::ONE; 3];
        try_reserve_exact_huge(&mut v, 1 << 20).unwrap();
        assert!(v.capacity() >= 3 + (1 << 20));
        assert_eq!(
            try_reserve_exact_huge(&mut v, 1 << 59),
            Err(AllocError {
                bytes: (3 + (1 << 59)) * 8
            })
        );
        assert_eq!(v, vec![Goldilocks::ONE; 3]);
    }
}
