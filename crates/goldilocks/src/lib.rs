#![doc = include_str!("../README.md")]
//!
//! [dispatch module]: mod@dispatch

mod backend;
mod backend_id;
mod batch_inverse;
pub mod dispatch;
mod distributions;
mod error;
mod extension;
pub mod field;
mod field_trait;
mod huge_pages;
pub mod kernels;
mod packed;
#[cfg(feature = "serde")]
mod serde_impl;
mod small_coefficients;

pub use backend_id::Backend;
pub use dispatch::{
    BACKEND_ENV, PackedGoldilocks, backend, dispatch, dispatch_on, in_own_frame,
    parse_supported_backend, selected_backend,
};
pub use error::{
    AllocError, BackendError, CoefficientSumTooLarge, LengthError, LengthMismatch, NonCanonical,
    ZeroElement,
};
pub use extension::Goldilocks2;
pub use field::{Canonical, Goldilocks, P};
pub use field_trait::Field;
pub use packed::{Kernel, PackedField};
pub use small_coefficients::SmallCoefficients;

/// The stored words of element slices, for kernels outside this crate that work on `u64`
/// (the SVE backend's C kernels in `aurum-sve`).
///
/// Elements are stored lazily reduced (see [`field`]): a word read here may be the
/// non-canonical representation `x + p` of a value `x < 2^32 − 1`. Every `u64` written is a
/// valid element. Nothing else in the public API exposes the representation.
pub mod raw {
    use crate::Goldilocks;

    /// The stored words of `values`, in order.
    #[must_use]
    pub fn words(values: &[Goldilocks]) -> &[u64] {
        crate::backend::layout::words(values)
    }

    /// The stored words of `values`, writable (any `u64` is a valid element).
    #[must_use]
    pub fn words_mut(values: &mut [Goldilocks]) -> &mut [u64] {
        crate::backend::layout::words_mut(values)
    }

    /// `len` arrays of `N` zeros, allocated already zeroed (`calloc`) rather than filled.
    ///
    /// For large buffers that are about to be overwritten in parallel, such as a Merkle
    /// tree's digest layers: the kernel supplies zero pages on first touch, in the threads
    /// that write them, where `vec![[Goldilocks::ZERO; N]; len]` would first fill every byte on
    /// one thread. The result is the same vector.
    ///
    /// # Panics
    /// If `len · N` elements overflow the address space, as `vec!` does.
    #[must_use]
    pub fn zeroed<const N: usize>(len: usize) -> Vec<[Goldilocks; N]> {
        crate::backend::layout::zeroed_arrays(len)
    }

    /// `len` zero values (`Goldilocks`, `Goldilocks2` or arrays of `Goldilocks`), allocated
    /// already zeroed like [`zeroed`], large buffers on transparent huge pages where they are
    /// at hand ([`huge_pages`]; see the crate docs' "Large buffers and huge pages"): for outputs
    /// that are about to be written in parallel (an LDE's).
    ///
    /// # Panics
    /// If the buffer overflows the address space, as `vec!` does.
    #[must_use]
    pub fn zeroed_vec<T: ZeroedWords>(len: usize) -> Vec<T> {
        crate::backend::layout::zeroed_vec(len)
    }

    /// [`zeroed`], or an error where the memory cannot be had (the allocator has none left, or
    /// the size overflows the address space), instead of an abort: for buffers whose size
    /// comes from the caller's input.
    ///
    /// # Errors
    /// [`AllocError`] with the bytes asked for.
    pub fn try_zeroed<const N: usize>(len: usize) -> Result<Vec<[Goldilocks; N]>, AllocError> {
        crate::backend::layout::try_zeroed_vec(len)
    }

    /// [`zeroed_vec`], or an error where the memory cannot be had, instead of an abort.
    ///
    /// # Errors
    /// [`AllocError`] with the bytes asked for.
    pub fn try_zeroed_vec<T: ZeroedWords>(len: usize) -> Result<Vec<T>, AllocError> {
        crate::backend::layout::try_zeroed_vec(len)
    }

    /// `v.reserve_exact(additional)`, with the new part of the allocation advised onto
    /// transparent huge pages where the system supports it (Linux): a large buffer grown and
    /// then written in parallel takes far fewer page faults.
    pub fn reserve_exact_huge<T>(v: &mut Vec<T>, additional: usize) {
        crate::backend::layout::reserve_exact_huge(v, additional);
    }

    /// [`reserve_exact_huge`], or an error (the bytes of the whole buffer asked for) where the
    /// memory cannot be had, instead of an abort; `v` is unchanged then.
    ///
    /// # Errors
    /// [`AllocError`] with the bytes of `v.len() + additional` values.
    pub fn try_reserve_exact_huge<T>(v: &mut Vec<T>, additional: usize) -> Result<(), AllocError> {
        crate::backend::layout::try_reserve_exact_huge(v, additional)
    }

    pub use crate::backend::layout::ZeroedWords;
    pub use crate::error::{AllocError, HugePagesError};
    pub use crate::huge_pages::{HUGE_PAGES_ENV, HugePages, huge_pages, selected_huge_pages};
}

/// NEON multiplication strategies, public so benchmarks can compare them.
#[cfg(target_arch = "aarch64")]
pub mod neon {
    pub use crate::backend::neon::{MUL_STRATEGY, MulStrategy};
}
