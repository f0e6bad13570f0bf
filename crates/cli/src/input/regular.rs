//! Opening inputs: only regular files (links followed), checked before and after the open,
//! which never blocks; reading a small file whole, up to a limit.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// What a file that is not a regular one is, for messages.
pub(crate) fn file_kind(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// `Ok` for a regular file; otherwise the one-line refusal naming `path` and what it is.
fn check_regular(path: &Path, metadata: &std::fs::Metadata) -> Result<(), Error> {
    if metadata.is_file() {
        Ok(())
    } else {
        Err(Error::Input(format!(
            "{} is {}, not a regular file",
            path.display(),
            file_kind(metadata.file_type())
        )))
    }
}

/// `path` opened for reading with `flags` added, never blocking in `open()` itself
/// (`O_NONBLOCK`, which reads of a regular file ignore).
fn open_nonblocking(path: &Path, flags: i32) -> std::io::Result<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | flags)
            .open(path)
    }
    #[cfg(not(target_os = "linux"))]
    {
        // Elsewhere the type checked before opening is the guard.
        let _ = flags;
        File::open(path)
    }
}

/// Opens an input (a matrix, proof, commitment, tree file, record) for reading: only a regular
/// file (links followed) is one. A FIFO, a directory or a device is refused with one line
/// naming the path and what it is — checked before opening, so that nothing waits for a FIFO's
/// writer or reads a device without end, and again on the opened file (`fstat`), so that
/// nothing swapped in between is read either; the open itself never blocks (`O_NONBLOCK`).
/// Standard input is not an input: every reader needs the size or a seekable file.
///
/// # Errors
/// A file that cannot be opened, or is not a regular file.
pub fn open_regular(path: &Path) -> Result<File, Error> {
    open_regular_with(path, 0).map_err(|e| e.into_error(path, "open"))
}

/// Why [`open_regular_with`] gave no file.
#[derive(Debug)]
pub(crate) enum OpenFailure {
    /// Not a regular file: the refusal.
    NotRegular(Error),
    /// The file could not be examined or opened.
    Io(std::io::Error),
}

impl OpenFailure {
    /// The error: the refusal, or `cannot VERB PATH: REASON`.
    pub(crate) fn into_error(self, path: &Path, verb: &str) -> Error {
        match self {
            OpenFailure::NotRegular(refusal) => refusal,
            OpenFailure::Io(e) => Error::Input(format!("cannot {verb} {}: {e}", path.display())),
        }
    }
}

/// [`open_regular`] with `flags` added to the open.
pub(crate) fn open_regular_with(path: &Path, flags: i32) -> Result<File, OpenFailure> {
    let before = std::fs::metadata(path).map_err(OpenFailure::Io)?;
    check_regular(path, &before).map_err(OpenFailure::NotRegular)?;
    let file = open_nonblocking(path, flags).map_err(OpenFailure::Io)?;
    let opened = file.metadata().map_err(OpenFailure::Io)?;
    check_regular(path, &opened).map_err(OpenFailure::NotRegular)?;
    Ok(file)
}

/// The contents of `path`, a regular file (anything else is refused without being read or
/// waited on: [`open_regular`]), refused when larger than `limit` bytes — by its size
/// before reading, and by what is read (a file that grows meanwhile).
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, Error> {
    let fail = |e: std::io::Error| Error::Input(format!("cannot read {}: {e}", path.display()));
    let too_large = || {
        Error::Input(format!(
            "{} is larger than {} MiB, more than any file aurum writes",
            path.display(),
            limit >> 20
        ))
    };
    let file = open_regular_with(path, 0).map_err(|e| e.into_error(path, "read"))?;
    let len = file.metadata().map_err(fail)?.len();
    if len > limit {
        return Err(too_large());
    }
    let mut contents = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut contents)
        .map_err(fail)?;
    if contents.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(contents)
}

pub(crate) fn open(path: &Path) -> Result<(File, u64), Error> {
    let file = open_regular(path)?;
    let len = file
        .metadata()
        .map_err(|e| Error::Input(format!("cannot read {}: {e}", path.display())))?
        .len();
    Ok((file, len))
}
