//! Why a command did not succeed, typed: every function of the crate returns an [`Error`], and
//! only the edge ([`crate::run`]) turns one into its one-line message and exit status.

use core::fmt;

use crate::rejection::Rejection;

/// Why a command did not succeed. Every kind but [`Error::Invalid`] is exit status 2 with
/// `error: MESSAGE` on standard error; [`Error::Invalid`] is exit status 1 with
/// `INVALID: REASON` on standard output.
#[derive(Debug)]
pub enum Error {
    /// A flag's value, or flags together, that this machine or command cannot take.
    Usage(String),
    /// `AURUM_BACKEND` names no backend this machine runs, `AURUM_BATCH` no batch size, or
    /// `AURUM_HUGE_PAGES` no policy.
    Backend(String),
    /// A statement that cannot be: dimensions no tree has, a cap height beyond the tree's
    /// depth, a cap that does not lead to the stated root, FRI parameters or a height FRI
    /// cannot take.
    Statement(String),
    /// An input (a matrix, proof, commitment or tree file) that cannot be opened or read, is
    /// not a regular file, is malformed, or changed while it was read.
    Input(String),
    /// An output file that is refused, or that cannot be written.
    Output(String),
    /// Not enough memory (or address space) for a large buffer.
    OutOfMemory(String),
    /// A step of the computation failed: the worker threads, a library call, an MPI rank.
    Failed(String),
    /// A proof that does not prove the verifier's statement.
    Invalid(Rejection),
    /// `aurum bench` (its own messages).
    Bench(String),
}

impl Error {
    /// The exit status of the command that ends with this error.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            Error::Invalid(_) => 1,
            _ => 2,
        }
    }

    /// The same error with its message `prefix: MESSAGE` (the file or flag it concerns).
    #[must_use]
    pub fn context(self, prefix: impl fmt::Display) -> Self {
        self.map_message(|message| format!("{prefix}: {message}"))
    }

    /// The same kind of error with its message rewritten by `f` (a rejection is kept as it
    /// is).
    #[must_use]
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> Self {
        match self {
            Error::Usage(m) => Error::Usage(f(m)),
            Error::Backend(m) => Error::Backend(f(m)),
            Error::Statement(m) => Error::Statement(f(m)),
            Error::Input(m) => Error::Input(f(m)),
            Error::Output(m) => Error::Output(f(m)),
            Error::OutOfMemory(m) => Error::OutOfMemory(f(m)),
            Error::Failed(m) => Error::Failed(f(m)),
            Error::Bench(m) => Error::Bench(f(m)),
            Error::Invalid(rejection) => Error::Invalid(rejection),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m)
            | Error::Backend(m)
            | Error::Statement(m)
            | Error::Input(m)
            | Error::Output(m)
            | Error::OutOfMemory(m)
            | Error::Failed(m)
            | Error::Bench(m) => f.write_str(m),
            Error::Invalid(rejection) => write!(f, "{rejection}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<Rejection> for Error {
    fn from(rejection: Rejection) -> Self {
        Error::Invalid(rejection)
    }
}
