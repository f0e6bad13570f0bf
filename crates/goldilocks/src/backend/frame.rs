//! Cache-line-aligned stack frames for the x86 entry points.
//!
//! The packed types keep the alignment of `[Goldilocks; WIDTH]` (8 bytes: the slice casts of
//! the `PackedField` contract need it), so nothing asks LLVM to align a kernel's stack frame
//! beyond the ABI's 16 bytes. The 32- and 64-byte vectors a kernel spills, and its local
//! arrays of packed states, then sit wherever the caller's stack pointer happens to leave
//! them: on some call paths a quarter or half of them straddle two cache lines, on others
//! none. The same kernel ran up to 17 % slower or faster depending on the stack's position
//! (the depth of the call, the length of the environment, address randomisation), so a
//! batch size measured on one call path was wrong on another.
//!
//! [`align_frame`] gives the entry point a 64-byte-aligned local, which makes LLVM realign the
//! whole frame (`and rsp, -64`): every spill slot and local array then has the same position
//! relative to cache lines on every call, and vector spill slots their natural alignment.

/// A cache line's worth of bytes, cache-line aligned.
#[repr(C, align(64))]
struct CacheLine([u8; 64]);

/// Realigns the stack frame of the function this is inlined into to 64 bytes (see the module
/// docs). Costs one aligned 64-byte store per call.
#[inline(always)]
pub(crate) fn align_frame() {
    let line = CacheLine([0; 64]);
    // Opaque use, so the aligned local (and with it the realignment) is kept.
    core::hint::black_box(&line);
}
