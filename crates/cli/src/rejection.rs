//! Why a proof file does not prove the verifier's statement: the one reason `aurum verify` and
//! `aurum fri verify` give after `INVALID:` (exit status 1).

use core::fmt;

/// Why a proof does not prove the verifier's statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// A claim of the proof file differs from the verifier's statement (for FRI also: its cap
    /// does not lead to the trusted root, or its opened values do not have the statement's
    /// shape).
    Claim {
        /// The proof file's field, e.g. `dims[0].height` or `opened_values[1]`.
        field: String,
        /// What the proof says and what the verifier states.
        reason: String,
    },
    /// The Merkle opening itself does not verify (`aurum verify`).
    Opening(aurum_merkle::VerifyError),
    /// The FRI proof does not verify (`aurum fri verify`).
    Proof(aurum_fri::VerifyError),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Claim { field, reason } => write!(f, "proof field `{field}`: {reason}"),
            Rejection::Opening(e) => write!(f, "opening: {e}"),
            Rejection::Proof(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Rejection {}

/// A [`Rejection::Claim`] of the proof file's `field`.
pub(crate) fn claim(field: impl Into<String>, reason: String) -> Rejection {
    Rejection::Claim {
        field: field.into(),
        reason,
    }
}

/// `Ok` when the proof file's `claimed` value of `field` is the `stated` one; otherwise the
/// [`Rejection::Claim`] whose reason `reason(claimed, stated)` words.
pub(crate) fn same_claim<T: PartialEq>(
    field: &str,
    claimed: T,
    stated: T,
    reason: impl FnOnce(T, T) -> String,
) -> Result<(), Rejection> {
    if claimed == stated {
        Ok(())
    } else {
        Err(claim(field, reason(claimed, stated)))
    }
}
