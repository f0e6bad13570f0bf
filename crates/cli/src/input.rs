//! Where the committed matrix comes from: generated, a file of u64 values, or any file's bytes.
//!
//! The file formats are read by [`read_u64_rows`] and [`read_byte_rows`] from any reader, so
//! tests and fuzz targets drive exactly the code the commands run.

use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use aurum_goldilocks::{Goldilocks, P};
use rayon::prelude::*;

use crate::error::Error;

/// Elements read per step when streaming a file.
const READ_ELEMENTS: usize = 1 << 17;

/// Bytes per element in a `--bytes` file.
pub(crate) const BYTES_PER_ELEMENT: usize = 7;

/// The matrix to commit to.
#[derive(Clone, Debug)]
pub enum MatrixSource {
    /// Seeded pseudo-random values.
    Random {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Seed.
        seed: u64,
    },
    /// Little-endian u64 values, each below p, row-major.
    U64File {
        /// The file.
        path: PathBuf,
        /// Columns.
        cols: usize,
    },
    /// Any file: 7 bytes per element, then a 0x01 byte and zeros up to a whole row.
    BytesFile {
        /// The file.
        path: PathBuf,
        /// Columns.
        cols: usize,
    },
}

/// SplitMix64: a fast, seekable generator, so that element `i` can be computed in parallel.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A `rows × cols` matrix of pseudo-random canonical values derived from `seed`.
pub fn random_matrix(rows: usize, cols: usize, seed: u64) -> Result<Vec<Goldilocks>, Error> {
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| Error::Usage(format!("{rows} × {cols} elements overflow")))?;
    let mut values: Vec<Goldilocks> = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory("the matrix", len.saturating_mul(8)))?;
    (0..len)
        .into_par_iter()
        .map(random_element(seed))
        .collect_into_vec(&mut values);
    Ok(values)
}

/// Element `i` (row-major) of the matrix [`random_matrix`] generates for `seed`, whatever its
/// shape: any range of it can be generated on its own (by `aurum gen`, or by one process of
/// several).
pub fn random_element(seed: u64) -> impl Fn(usize) -> Goldilocks + Sync + Send {
    let base = splitmix64(seed);
    move |i| {
        Goldilocks::from_u64(splitmix64(base ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)) % P)
    }
}

/// Elements `range` (row-major positions) of the matrix [`random_matrix`] generates from
/// `seed`, without generating the others: a process committing some rows of it generates
/// only those.
pub fn random_elements(range: core::ops::Range<usize>, seed: u64) -> Vec<Goldilocks> {
    range.into_par_iter().map(random_element(seed)).collect()
}

/// Writes the `rows × cols` matrix of [`random_matrix`] for `seed` to `out` as little-endian
/// u64 values, row-major (the `--input` format), generating it a piece at a time so that
/// memory stays small whatever the size; `progress(bytes written)` after each piece.
pub fn write_random_matrix(
    rows: usize,
    cols: usize,
    seed: u64,
    out: &mut impl std::io::Write,
    mut progress: impl FnMut(u64),
) -> Result<(), Error> {
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| Error::Usage(format!("{rows} × {cols} elements overflow")))?;
    len.checked_mul(8)
        .ok_or_else(|| Error::Usage(format!("{rows} × {cols} u64 values overflow")))?;
    let element = random_element(seed);
    let mut bytes = vec![0u8; READ_ELEMENTS.min(len) * 8];
    let mut start = 0;
    while start < len {
        let n = READ_ELEMENTS.min(len - start);
        bytes[..n * 8]
            .par_chunks_mut(8)
            .enumerate()
            .for_each(|(k, word)| {
                word.copy_from_slice(&element(start + k).as_canonical_u64().to_le_bytes());
            });
        out.write_all(&bytes[..n * 8])
            .map_err(|e| Error::Output(e.to_string()))?;
        start += n;
        // start ≤ len and len · 8 does not overflow.
        progress(start as u64 * 8);
    }
    Ok(())
}

/// The one-line reason of an allocation that failed: `not enough memory for WHAT: needs N
/// MiB` (N rounded up), as the libraries' `OutOfMemory` errors say it.
#[must_use]
pub fn out_of_memory(what: &str, bytes: usize) -> Error {
    Error::OutOfMemory(format!(
        "not enough memory for {what}: needs {} MiB",
        bytes.div_ceil(1 << 20)
    ))
}

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
/// waited on: [`input::open_regular`]), refused when larger than `limit` bytes — by its size
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

/// Bytes per direct read: large, and a multiple of any device's block size.
const DIRECT_READ: usize = 4 << 20;

/// Alignment of direct reads' buffer, offset and length (the page size covers every block
/// size Linux uses).
const DIRECT_ALIGN: usize = 4096;

/// A file read once from start to end, bypassing the page cache where the system allows it
/// (`O_DIRECT`): a commitment of a file that is not cached then spends its kernel time on the
/// device's DMA rather than on filling and copying from the page cache (which, for a file
/// larger than memory, only evicts everything else). Where direct reads are refused (tmpfs,
/// some network file systems, other systems), it reads the ordinary way.
#[derive(Debug)]
pub struct SequentialReader {
    file: File,
    direct: bool,
    /// Backing store of the aligned buffer (its start is found at run time, without casts).
    storage: Vec<u8>,
    /// The aligned window of `storage` used for reads.
    window: core::ops::Range<usize>,
    /// Unconsumed bytes of the last direct read: `window.start + pos .. window.start + filled`.
    pos: usize,
    filled: usize,
    /// The file is read up to its end.
    at_end: bool,
}

impl SequentialReader {
    /// Opens `path`, a regular file (anything else is refused as [`open_regular`] refuses
    /// it).
    ///
    /// # Errors
    /// When the file cannot be opened or is not a regular file.
    pub fn open(path: &Path) -> Result<Self, Error> {
        #[cfg(target_os = "linux")]
        let direct = match open_regular_with(path, libc::O_DIRECT) {
            Ok(file) => Some(file),
            Err(OpenFailure::NotRegular(refusal)) => return Err(refusal),
            // Direct reads refused here (tmpfs, some network file systems): ordinary ones.
            Err(OpenFailure::Io(_)) => None,
        };
        #[cfg(not(target_os = "linux"))]
        let direct: Option<File> = None;
        let (file, direct) = match direct {
            Some(file) => (file, true),
            None => (open_regular(path)?, false),
        };
        let mut reader = Self {
            file,
            direct,
            storage: Vec::new(),
            window: 0..0,
            pos: 0,
            filled: 0,
            at_end: false,
        };
        if direct {
            reader.storage = zeroed_bytes(DIRECT_READ + DIRECT_ALIGN, "the read buffer")?;
            let start = reader.storage.as_ptr().align_offset(DIRECT_ALIGN);
            reader.window = start..start + DIRECT_READ;
        }
        Ok(reader)
    }

    /// Whether reads bypass the page cache.
    #[must_use]
    pub fn is_direct(&self) -> bool {
        self.direct
    }

    /// The next direct read into the aligned window. Returns false at the end of the file.
    fn refill(&mut self) -> std::io::Result<bool> {
        if self.at_end {
            return Ok(false);
        }
        let buf = &mut self.storage[self.window.clone()];
        // Every read but the last fills the window, so the file offset stays aligned; a
        // short read means the end of the file (the next read returns 0).
        let mut filled = 0;
        while filled < buf.len() {
            match self.file.read(&mut buf[filled..]) {
                Ok(0) => {
                    self.at_end = true;
                    break;
                }
                Ok(n) => {
                    filled += n;
                    if !filled.is_multiple_of(DIRECT_ALIGN) {
                        // Only the end of the file leaves an unaligned offset.
                        self.at_end = true;
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.pos = 0;
        self.filled = filled;
        Ok(filled > 0)
    }
}

impl Read for SequentialReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if !self.direct {
            return self.file.read(out);
        }
        if self.pos == self.filled && !self.refill()? {
            return Ok(0);
        }
        let available =
            &self.storage[self.window.start + self.pos..self.window.start + self.filled];
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// `len` zero bytes, or [`out_of_memory`] naming `what`.
fn zeroed_bytes(len: usize, what: &str) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len))?;
    bytes.resize(len, 0);
    Ok(bytes)
}

/// An empty vector with room for `len` elements, or [`out_of_memory`] naming `what`.
fn elements_with_capacity(len: usize, what: &str) -> Result<Vec<Goldilocks>, Error> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len.saturating_mul(8)))?;
    Ok(values)
}

/// Reads as many bytes as fit `buf`, short only at the end of the input.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// `cols` elements of `bytes_per_element` bytes, or an error if that overflows.
fn row_bytes(cols: usize, bytes_per_element: usize) -> Result<usize, Error> {
    if cols == 0 {
        return Err(Error::Usage(
            "a matrix needs at least one column".to_string(),
        ));
    }
    cols.checked_mul(bytes_per_element)
        .ok_or_else(|| Error::Usage(format!("a row of {cols} columns overflows")))
}

/// Rows of a u64 file of `len` bytes with `cols` columns: it must be a non-empty, whole
/// number of rows.
pub fn u64_file_rows(len: u64, cols: usize) -> Result<usize, Error> {
    let row = row_bytes(cols, 8)? as u64;
    if len == 0 {
        return Err(Error::Input("the file is empty".to_string()));
    }
    if !len.is_multiple_of(row) {
        return Err(Error::Input(format!(
            "{len} bytes are not a whole number of rows of {cols} u64 values ({row} bytes); \
             the last row has {} bytes",
            len % row
        )));
    }
    usize::try_from(len / row)
        .map_err(|_| Error::Input(format!("{} rows do not fit in memory", len / row)))
}

/// Rows of the matrix of a `--bytes` file of `len` bytes: its bytes and the end marker,
/// 7 per element, `cols` per row, the last row completed with zeros.
pub fn byte_file_rows(len: u64, cols: usize) -> Result<usize, Error> {
    let row = row_bytes(cols, BYTES_PER_ELEMENT)? as u64;
    let rows = (len + 1).div_ceil(row);
    usize::try_from(rows).map_err(|_| Error::Input(format!("{rows} rows do not fit in memory")))
}

/// Reads row-major little-endian u64 values, `cols` per row, and calls
/// `consume(whole rows, bytes read so far)` for successive pieces. A value ≥ p is an error
/// naming its row and column; so is input that ends inside a row.
pub fn read_u64_rows(
    mut reader: impl Read,
    cols: usize,
    mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), Error>,
) -> Result<(), Error> {
    let row = row_bytes(cols, 8)?;
    let rows_per_read = (READ_ELEMENTS / cols).max(1);
    let mut buf = zeroed_bytes(rows_per_read * row, "the read buffer")?;
    let mut values = elements_with_capacity(rows_per_read * cols, "the read buffer")?;
    let mut rows_done = 0usize;
    let mut bytes_done = 0u64;
    loop {
        let n = read_full(&mut reader, &mut buf).map_err(|e| {
            Error::Input(format!(
                "reading from row {rows_done} (byte {bytes_done}): {e}"
            ))
        })?;
        if n == 0 {
            return Ok(());
        }
        if !n.is_multiple_of(row) {
            return Err(Error::Input(format!(
                "the data ends inside row {}: {} bytes are not a whole number of rows of \
                 {cols} u64 values ({row} bytes)",
                rows_done + n / row,
                bytes_done + n as u64
            )));
        }
        values.clear();
        for (k, word) in buf[..n].chunks_exact(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let value = Goldilocks::from_canonical(u64::from_le_bytes(bytes)).map_err(|e| {
                Error::Input(format!(
                    "row {}, column {}: {e}",
                    rows_done + k / cols,
                    k % cols
                ))
            })?;
            values.push(value);
        }
        rows_done += n / row;
        bytes_done += n as u64;
        consume(&values, bytes_done)?;
    }
}

/// Reads any bytes as a matrix of `cols` columns: 7 bytes per element (little-endian), then
/// a 0x01 byte and zeros up to a whole row, so that different inputs never give the same
/// matrix. Calls `consume(whole rows, bytes read so far)` for successive pieces.
pub fn read_byte_rows(
    mut reader: impl Read,
    cols: usize,
    mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), Error>,
) -> Result<(), Error> {
    let row = row_bytes(cols, BYTES_PER_ELEMENT)?;
    let rows_per_read = (READ_ELEMENTS / cols).max(1);
    let mut buf = zeroed_bytes(rows_per_read * row, "the read buffer")?;
    let mut values = elements_with_capacity(rows_per_read * cols, "the read buffer")?;
    let mut bytes_done = 0u64;
    loop {
        let n = read_full(&mut reader, &mut buf).map_err(|e| {
            // Whole reads so far: the failed one starts at a row boundary.
            Error::Input(format!(
                "reading from row {} (byte {bytes_done}): {e}",
                bytes_done / row as u64
            ))
        })?;
        bytes_done += n as u64;
        values.clear();
        if n < buf.len() {
            // The end: mark it with 0x01, then zeros up to a whole row.
            let mut tail = buf[..n].to_vec();
            tail.push(1);
            tail.resize(tail.len().div_ceil(row) * row, 0);
            values.extend(tail.chunks_exact(BYTES_PER_ELEMENT).map(pack7));
            return consume(&values, bytes_done);
        }
        values.extend(buf.chunks_exact(BYTES_PER_ELEMENT).map(pack7));
        consume(&values, bytes_done)?;
    }
}

/// Seven little-endian bytes as a field element (< 2^56 < p).
fn pack7(bytes: &[u8]) -> Goldilocks {
    let mut word = [0u8; 8];
    word[..BYTES_PER_ELEMENT].copy_from_slice(bytes);
    Goldilocks::from_u64(u64::from_le_bytes(word))
}

impl MatrixSource {
    /// A one-line description for reports.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            MatrixSource::Random { seed, .. } => format!("pseudo-random (seed {seed})"),
            MatrixSource::U64File { path, .. } => format!("u64 values of {}", path.display()),
            MatrixSource::BytesFile { path, .. } => format!("bytes of {}", path.display()),
        }
    }

    /// Columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        match self {
            MatrixSource::Random { cols, .. }
            | MatrixSource::U64File { cols, .. }
            | MatrixSource::BytesFile { cols, .. } => *cols,
        }
    }

    /// Rows, known before reading anything (from the file's size), so that a request that
    /// does not fit the matrix fails before the work.
    pub fn rows(&self) -> Result<usize, Error> {
        let in_file = |path: &Path, rows: fn(u64, usize) -> Result<usize, Error>| {
            let (_, len) = open(path)?;
            rows(len, self.cols()).map_err(|e| e.context(path.display()))
        };
        match self {
            MatrixSource::Random { rows, .. } => Ok(*rows),
            MatrixSource::U64File { path, .. } => in_file(path, u64_file_rows),
            MatrixSource::BytesFile { path, .. } => in_file(path, byte_file_rows),
        }
    }

    /// File size, for progress.
    pub fn total_bytes(&self) -> Result<Option<u64>, Error> {
        match self {
            MatrixSource::Random { .. } => Ok(None),
            MatrixSource::U64File { path, .. } | MatrixSource::BytesFile { path, .. } => {
                Ok(Some(open(path)?.1))
            }
        }
    }

    /// Calls `consume(whole rows, bytes read so far)` for successive pieces of the matrix.
    pub fn stream_rows(
        &self,
        mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let with_path = |path: &Path, e: Error| e.context(path.display());
        match self {
            MatrixSource::Random { rows, cols, seed } => {
                let values = random_matrix(*rows, *cols, *seed)?;
                consume(&values, 0)
            }
            MatrixSource::U64File { path, cols } => {
                read_u64_rows(SequentialReader::open(path)?, *cols, consume)
                    .map_err(|e| with_path(path, e))
            }
            MatrixSource::BytesFile { path, cols } => {
                read_byte_rows(SequentialReader::open(path)?, *cols, consume)
                    .map_err(|e| with_path(path, e))
            }
        }
    }

    /// Rows `rows` of the matrix (`rows.end` at most the height from [`MatrixSource::rows`]),
    /// read from their place in the file — what `aurum open --tree` needs of the input. At
    /// most `limit` bytes are allocated: a larger range is an error.
    pub fn read_rows(&self, rows: Range<usize>, limit: usize) -> Result<Vec<Goldilocks>, Error> {
        let cols = self.cols();
        let count = rows
            .end
            .checked_sub(rows.start)
            .ok_or_else(|| Error::Usage("an empty range of rows".to_string()))?;
        let elements = count
            .checked_mul(cols)
            .filter(|&n| n.saturating_mul(8) <= limit)
            .ok_or_else(|| {
                Error::Input(format!(
                    "rows {}..{} of {cols} values are more than the {} MiB an opening may read",
                    rows.start,
                    rows.end,
                    limit >> 20
                ))
            })?;
        let read_at = |path: &Path, file: &File, buf: &mut [u8], at: u64| {
            file.read_exact_at(buf, at).map_err(|e| {
                Error::Input(format!(
                    "cannot read rows {}..{} of {}: {e}",
                    rows.start,
                    rows.end,
                    path.display()
                ))
            })
        };
        match self {
            MatrixSource::Random { .. } => Err(Error::Usage(
                "rows are read only from --input and --bytes files".to_string(),
            )),
            MatrixSource::U64File { path, .. } => {
                let (file, _) = open(path)?;
                // elements · 8 ≤ limit: no overflow, and the offset is below the file's length.
                let mut buf = zeroed_bytes(elements * 8, "the block's rows")?;
                read_at(path, &file, &mut buf, (rows.start * cols * 8) as u64)?;
                buf.chunks_exact(8)
                    .enumerate()
                    .map(|(k, word)| {
                        let value = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                        Goldilocks::from_canonical(value).map_err(|e| {
                            Error::Input(format!(
                                "{}: row {}, column {}: {e}",
                                path.display(),
                                rows.start + k / cols,
                                k % cols
                            ))
                        })
                    })
                    .collect()
            }
            MatrixSource::BytesFile { path, .. } => {
                let (file, len) = open(path)?;
                let row = cols * BYTES_PER_ELEMENT;
                let start = (rows.start * row) as u64;
                // The matrix's bytes: the file's, then 0x01, then zeros to a whole row.
                let mut buf = zeroed_bytes(elements * BYTES_PER_ELEMENT, "the block's rows")?;
                let in_file = len.saturating_sub(start).min(buf.len() as u64) as usize;
                read_at(path, &file, &mut buf[..in_file], start)?;
                if let Some(marker) = len.checked_sub(start).filter(|&m| m < buf.len() as u64) {
                    buf[marker as usize] = 1;
                }
                Ok(buf.chunks_exact(BYTES_PER_ELEMENT).map(pack7).collect())
            }
        }
    }

    /// The whole matrix in memory. A file's must have exactly `rows` rows, the height
    /// [`MatrixSource::rows`] gave from its size before the work: the memory is reserved
    /// first, reading stops as soon as the file goes past that height (one that grows while it
    /// is read), and a file that ends short is an error too — nothing beyond what the size
    /// implies is read or held.
    pub fn load(&self, rows: usize) -> Result<Vec<Goldilocks>, Error> {
        let cols = self.cols();
        if let MatrixSource::Random {
            rows: generated,
            seed,
            ..
        } = self
        {
            return random_matrix(*generated, cols, *seed);
        }
        let len = rows
            .checked_mul(cols)
            .ok_or_else(|| Error::Usage(format!("{rows} × {cols} elements overflow")))?;
        let mut all: Vec<Goldilocks> = Vec::new();
        all.try_reserve_exact(len)
            .map_err(|_| out_of_memory("the matrix", len.saturating_mul(8)))?;
        let changed = |found: &str| {
            Error::Input(format!(
                "the file changed while it was read: {found} rows where its size gave {rows}"
            ))
        };
        self.stream_rows(|piece, _| {
            if piece.len() > len - all.len() {
                return Err(changed(&format!("more than {rows}")));
            }
            all.extend_from_slice(piece);
            Ok(())
        })?;
        if all.len() != len {
            let path = match self {
                MatrixSource::U64File { path, .. } | MatrixSource::BytesFile { path, .. } => path,
                MatrixSource::Random { .. } => unreachable!("generated above"),
            };
            return Err(changed(&(all.len() / cols).to_string()).context(path.display()));
        }
        Ok(all)
    }
}

#[cfg(test)]
mod load_tests {
    use super::*;

    /// `load` holds exactly the rows the size gave: a file that grew or shrank since (here: a
    /// height other than its own) is an error, read no further than one piece past it.
    #[test]
    fn load_reads_exactly_the_planned_rows() {
        let dir = std::env::temp_dir().join(format!("aurum-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ten-rows.bin");
        let words: Vec<u8> = (0..30u64).flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(&path, words).unwrap();
        let source = MatrixSource::U64File {
            path: path.clone(),
            cols: 3,
        };
        assert_eq!(source.rows().unwrap(), 10);
        let values = source.load(10).unwrap();
        assert_eq!(values.len(), 30);
        assert_eq!(values[29].as_canonical_u64(), 29);
        let grew = source.load(4).unwrap_err().to_string();
        assert!(
            grew.contains("more than 4 rows where its size gave 4"),
            "{grew}"
        );
        let shrank = source.load(12).unwrap_err().to_string();
        assert!(
            shrank.contains("10 rows where its size gave 12"),
            "{shrank}"
        );
        let bytes = MatrixSource::BytesFile { path, cols: 1 };
        // 240 bytes and the end marker: 35 elements of 7 bytes.
        assert_eq!(bytes.load(35).unwrap().len(), 35);
        assert!(bytes.load(34).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod sequential_reader_tests {
    use super::*;

    /// Files whose lengths straddle the alignment and the read size come back byte for byte,
    /// whether or not this file system allows direct reads, in any read sizes.
    #[test]
    fn reads_every_byte_in_order() {
        let dir = std::env::temp_dir().join(format!("aurum-seqread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for len in [
            0,
            1,
            4095,
            4096,
            4097,
            DIRECT_READ - 8,
            DIRECT_READ,
            2 * DIRECT_READ + 12345,
        ] {
            let path = dir.join(format!("f{len}"));
            let data: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            std::fs::write(&path, &data).unwrap();
            for piece in [1000, 8192, 3 << 20] {
                let mut reader = SequentialReader::open(&path).unwrap();
                let mut back = Vec::new();
                let mut buf = vec![0u8; piece];
                loop {
                    let n = reader.read(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    back.extend_from_slice(&buf[..n]);
                }
                assert!(
                    back == data,
                    "length {len}, reads of {piece} (direct: {})",
                    reader.is_direct()
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
