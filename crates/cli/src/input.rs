//! Where the committed matrix comes from: generated, a file of u64 values, or any file's bytes.
//!
//! The file formats are read by [`read_u64_rows`] and [`read_byte_rows`] from any reader, so
//! tests and fuzz targets drive exactly the code the commands run.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use aurum_goldilocks::{Goldilocks, P};
use rayon::prelude::*;

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
pub fn random_matrix(rows: usize, cols: usize, seed: u64) -> Result<Vec<Goldilocks>, String> {
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| format!("{rows} × {cols} elements overflow"))?;
    let mut values: Vec<Goldilocks> = Vec::new();
    values.try_reserve_exact(len).map_err(|_| {
        format!(
            "cannot allocate {rows} × {cols} elements ({} MiB)",
            len.saturating_mul(8) >> 20
        )
    })?;
    let base = splitmix64(seed);
    (0..len)
        .into_par_iter()
        .map(|i| random_element(base, i))
        .collect_into_vec(&mut values);
    Ok(values)
}

/// Element `i` (row-major) of the pseudo-random matrix whose generator base is
/// `splitmix64(seed)`.
fn random_element(base: u64, i: usize) -> Goldilocks {
    Goldilocks::from_u64(splitmix64(base ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)) % P)
}

/// Elements `range` (row-major positions) of the matrix [`random_matrix`] generates from
/// `seed`, without generating the others: a process committing some rows of it generates
/// only those.
pub fn random_elements(range: core::ops::Range<usize>, seed: u64) -> Vec<Goldilocks> {
    let base = splitmix64(seed);
    range
        .into_par_iter()
        .map(|i| random_element(base, i))
        .collect()
}

pub(crate) fn open(path: &Path) -> Result<(File, u64), String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    Ok((file, len))
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
fn row_bytes(cols: usize, bytes_per_element: usize) -> Result<usize, String> {
    if cols == 0 {
        return Err("a matrix needs at least one column".to_string());
    }
    cols.checked_mul(bytes_per_element)
        .ok_or_else(|| format!("a row of {cols} columns overflows"))
}

/// Rows of a u64 file of `len` bytes with `cols` columns: it must be a non-empty, whole
/// number of rows.
pub fn u64_file_rows(len: u64, cols: usize) -> Result<usize, String> {
    let row = row_bytes(cols, 8)? as u64;
    if len == 0 {
        return Err("the file is empty".to_string());
    }
    if !len.is_multiple_of(row) {
        return Err(format!(
            "{len} bytes are not a whole number of rows of {cols} u64 values ({row} bytes); \
             the last row has {} bytes",
            len % row
        ));
    }
    usize::try_from(len / row).map_err(|_| format!("{} rows do not fit in memory", len / row))
}

/// Rows of the matrix of a `--bytes` file of `len` bytes: its bytes and the end marker,
/// 7 per element, `cols` per row, the last row completed with zeros.
pub fn byte_file_rows(len: u64, cols: usize) -> Result<usize, String> {
    let row = row_bytes(cols, BYTES_PER_ELEMENT)? as u64;
    let rows = (len + 1).div_ceil(row);
    usize::try_from(rows).map_err(|_| format!("{rows} rows do not fit in memory"))
}

/// Reads row-major little-endian u64 values, `cols` per row, and calls
/// `consume(whole rows, bytes read so far)` for successive pieces. A value ≥ p is an error
/// naming its row and column; so is input that ends inside a row.
pub fn read_u64_rows(
    mut reader: impl Read,
    cols: usize,
    mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), String>,
) -> Result<(), String> {
    let row = row_bytes(cols, 8)?;
    let rows_per_read = (READ_ELEMENTS / cols).max(1);
    let mut buf = vec![0u8; rows_per_read * row];
    let mut values = Vec::with_capacity(rows_per_read * cols);
    let mut rows_done = 0usize;
    let mut bytes_done = 0u64;
    loop {
        let n = read_full(&mut reader, &mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(());
        }
        if !n.is_multiple_of(row) {
            return Err(format!(
                "the data ends inside row {}: {} bytes are not a whole number of rows of \
                 {cols} u64 values ({row} bytes)",
                rows_done + n / row,
                bytes_done + n as u64
            ));
        }
        values.clear();
        for (k, word) in buf[..n].chunks_exact(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            let value = Goldilocks::from_canonical(u64::from_le_bytes(bytes))
                .map_err(|e| format!("row {}, column {}: {e}", rows_done + k / cols, k % cols))?;
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
    mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), String>,
) -> Result<(), String> {
    let row = row_bytes(cols, BYTES_PER_ELEMENT)?;
    let rows_per_read = (READ_ELEMENTS / cols).max(1);
    let mut buf = vec![0u8; rows_per_read * row];
    let mut values = Vec::with_capacity(rows_per_read * cols);
    let mut bytes_done = 0u64;
    loop {
        let n = read_full(&mut reader, &mut buf).map_err(|e| e.to_string())?;
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
    pub fn rows(&self) -> Result<usize, String> {
        let in_file = |path: &Path, rows: fn(u64, usize) -> Result<usize, String>| {
            let (_, len) = open(path)?;
            rows(len, self.cols()).map_err(|e| format!("{}: {e}", path.display()))
        };
        match self {
            MatrixSource::Random { rows, .. } => Ok(*rows),
            MatrixSource::U64File { path, .. } => in_file(path, u64_file_rows),
            MatrixSource::BytesFile { path, .. } => in_file(path, byte_file_rows),
        }
    }

    /// File size, for progress.
    pub fn total_bytes(&self) -> Result<Option<u64>, String> {
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
        mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), String>,
    ) -> Result<(), String> {
        let with_path = |path: &Path, e: String| format!("{}: {e}", path.display());
        match self {
            MatrixSource::Random { rows, cols, seed } => {
                let values = random_matrix(*rows, *cols, *seed)?;
                consume(&values, 0)
            }
            MatrixSource::U64File { path, cols } => {
                let (file, _) = open(path)?;
                read_u64_rows(BufReader::new(file), *cols, consume).map_err(|e| with_path(path, e))
            }
            MatrixSource::BytesFile { path, cols } => {
                let (file, _) = open(path)?;
                read_byte_rows(BufReader::new(file), *cols, consume).map_err(|e| with_path(path, e))
            }
        }
    }

    /// The whole matrix in memory.
    pub fn load(&self) -> Result<Vec<Goldilocks>, String> {
        if let MatrixSource::Random { rows, cols, seed } = self {
            return random_matrix(*rows, *cols, *seed);
        }
        let mut all = Vec::new();
        self.stream_rows(|rows, _| {
            all.try_reserve(rows.len())
                .map_err(|_| "not enough memory to hold the matrix".to_string())?;
            all.extend_from_slice(rows);
            Ok(())
        })?;
        Ok(all)
    }
}
