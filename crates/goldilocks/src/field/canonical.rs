//! [`Canonical`]: a value whose every lane is known to be stored canonically.

use super::Goldilocks;

/// A value whose every lane is stored canonically (`< p`): a `Goldilocks` or a packed vector.
///
/// `+` must canonicalise an arbitrary operand before adding; an operand known to be canonical
/// skips that ([`crate::PackedField::add_canonical`]). Round constants are kept as
/// `Canonical<Goldilocks>` and broadcast; a sum added to many elements is canonicalised once
/// ([`crate::PackedField::canonicalize`]). The wrapper can only be built canonical.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Canonical<T = Goldilocks>(T);

impl Canonical<Goldilocks> {
    /// `x`, reduced to its canonical representation.
    #[inline]
    #[must_use]
    pub const fn new(x: Goldilocks) -> Self {
        Self(Goldilocks::from_raw(x.as_canonical_u64()))
    }
}

impl<T: Copy> Canonical<T> {
    /// The value.
    #[inline(always)]
    #[must_use]
    pub const fn get(self) -> T {
        self.0
    }

    /// Wraps a value the caller has just made canonical (backends only).
    #[inline(always)]
    pub(crate) const fn new_unchecked(value: T) -> Self {
        Self(value)
    }
}

impl From<Goldilocks> for Canonical<Goldilocks> {
    fn from(x: Goldilocks) -> Self {
        Self::new(x)
    }
}
