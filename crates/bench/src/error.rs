//! The errors of `aurum-bench`: [`BenchError`] for a command or the suite, [`RecordError`]
//! for a record that cannot be read, [`ValueError`] for one value out of range. Each
//! displays as the one line `aurum` prints (exit status 2).

use std::fmt;
use std::path::PathBuf;

use crate::SCHEMA;

/// Why a value is refused, in words (the caller names the value: a field, a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ValueError {}

/// Why a record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Not JSON, or not the schema's shape (the JSON reader's message: missing and unknown
    /// fields are named).
    Malformed(String),
    /// Another schema (or none).
    Schema(String),
    /// A field out of range.
    Invalid {
        /// The field.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Malformed(e) => write!(f, "not an {SCHEMA} record: {e}"),
            RecordError::Schema(found) => write!(
                f,
                "schema {found} is not one this aurum reads (it reads {SCHEMA}; a record of \
                 another version needs the aurum that wrote it)"
            ),
            RecordError::Invalid { field, reason } => write!(f, "field `{field}`: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Why `aurum bench`, `bench compare` or `bench import-insn` stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// A flag's value refused; the message names the flag.
    Argument(String),
    /// A file that is not a valid record.
    Record {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: RecordError,
    },
    /// A file that is not UTF-8 text.
    NotText {
        /// The file.
        path: PathBuf,
        /// What it should have been (`a record`, or empty for text in general).
        expected: &'static str,
    },
    /// A `counts.csv` that cannot be imported; the message names the line or column.
    Counts(String),
    /// A record made here that breaks the schema (a bug): its context and the error.
    Made {
        /// Which record.
        what: String,
        /// What is wrong with it.
        error: RecordError,
    },
    /// Records that cannot be compared (two with one label, one figure in two units).
    Incomparable(String),
    /// The chart could not be drawn.
    Chart(String),
    /// A measurement could not be made (the CPU lacks the backend, no memory, no threads).
    Measurement(String),
    /// What the program running the suite reported (its files, its workloads), as it said it.
    Host(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Argument(message)
            | BenchError::Counts(message)
            | BenchError::Incomparable(message)
            | BenchError::Measurement(message)
            | BenchError::Host(message) => f.write_str(message),
            BenchError::Record { path, error } => write!(f, "{}: {error}", path.display()),
            BenchError::NotText { path, expected: "" } => {
                write!(f, "{}: not UTF-8 text", path.display())
            }
            BenchError::NotText { path, expected } => {
                write!(f, "{}: not {expected} (not UTF-8)", path.display())
            }
            BenchError::Made { what, error } => write!(f, "{what}: {error}"),
            BenchError::Chart(e) => write!(f, "cannot draw the chart: {e}"),
        }
    }
}

impl std::error::Error for BenchError {}
