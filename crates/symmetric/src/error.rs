//! The crate's error type: [`LengthError`], inputs whose lengths do not fit together (the
//! field crate's, which this crate's bulk entry points return too).

pub use aurum_goldilocks::LengthError;

/// `Ok` if `found == expected`, else the [`LengthError`] of `what`.
pub(crate) fn expect_len(
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), LengthError> {
    if expected == found {
        Ok(())
    } else {
        Err(LengthError {
            what,
            expected,
            found,
        })
    }
}
