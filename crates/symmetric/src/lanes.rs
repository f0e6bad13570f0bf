//! Moving states and digests in and out of the lanes of a packed type.

use aurum_goldilocks::{Goldilocks, PackedField};

/// Gathers `P::WIDTH` states (lane `l` = `states[l]`) into packed form.
///
/// # Panics
/// Panics with both lengths unless `states.len() == P::WIDTH`: a shorter slice would leave
/// lanes silently zero. (A fixed-size `&[_; P::WIDTH]` parameter would make this a type error,
/// but stable Rust cannot name that array type in generic code.) The check is one compare
/// per `W · P::WIDTH` elements copied.
#[inline(always)]
pub fn pack_states<P: PackedField, const W: usize>(states: &[[Goldilocks; W]]) -> [P; W] {
    assert_eq!(
        states.len(),
        P::WIDTH,
        "pack_states: need exactly P::WIDTH = {} states",
        P::WIDTH
    );
    // Plain loops rather than `core::array::from_fn` inside kernels: see `aurum_goldilocks::dispatch`.
    let mut packed = [P::ZERO; W];
    for (lane, state) in states.iter().enumerate() {
        for (p, x) in packed.iter_mut().zip(state) {
            p.as_slice_mut()[lane] = *x;
        }
    }
    packed
}

/// Scatters a packed state back to `P::WIDTH` states (the inverse of [`pack_states`]).
///
/// # Panics
/// Panics with both lengths unless `states.len() == P::WIDTH`: a longer slice would keep
/// stale states past the lanes (see [`pack_states`] for why this is not a type).
#[inline(always)]
pub fn unpack_states<P: PackedField, const W: usize>(
    packed: &[P; W],
    states: &mut [[Goldilocks; W]],
) {
    assert_eq!(
        states.len(),
        P::WIDTH,
        "unpack_states: need exactly P::WIDTH = {} states",
        P::WIDTH
    );
    for (i, p) in packed.iter().enumerate() {
        for (lane, x) in p.as_slice().iter().enumerate() {
            states[lane][i] = *x;
        }
    }
}

/// The first `OUT` elements of each state (plain loops, not `core::array::from_fn`, inside
/// kernels: see `aurum_goldilocks::dispatch`).
#[inline(always)]
pub fn truncate_states<P: PackedField, const W: usize, const OUT: usize, const B: usize>(
    states: &[[P; W]; B],
) -> [[P; OUT]; B] {
    let mut out = [[P::ZERO; OUT]; B];
    for (o, s) in out.iter_mut().zip(states) {
        o.copy_from_slice(&s[..OUT]);
    }
    out
}

/// Writes packed digests back to per-lane digests: `out[b · WIDTH + lane] = digests[b][·][lane]`.
#[inline(always)]
pub fn unpack_digests<P: PackedField, const OUT: usize, const B: usize>(
    digests: &[[P; OUT]; B],
    out: &mut [[Goldilocks; OUT]],
) {
    for (b, digest) in digests.iter().enumerate() {
        for (i, p) in digest.iter().enumerate() {
            for (lane, x) in p.as_slice().iter().enumerate() {
                out[b * P::WIDTH + lane][i] = *x;
            }
        }
    }
}
