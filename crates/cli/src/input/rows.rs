//! The two file formats, read from any reader: little-endian u64 values ([`read_u64_rows`])
//! and any bytes, 7 per element ([`read_byte_rows`]); and the number of rows a file of a given
//! length holds in each.

use std::io::Read;

use aurum_goldilocks::Goldilocks;

use crate::error::Error;
use crate::input::memory::{elements_with_capacity, zeroed_bytes};

/// Elements read per step when streaming a file.
pub(crate) const READ_ELEMENTS: usize = 1 << 17;

/// Bytes per element in a `--bytes` file.
pub(crate) const BYTES_PER_ELEMENT: usize = 7;

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
pub(crate) fn pack7(bytes: &[u8]) -> Goldilocks {
    let mut word = [0u8; 8];
    word[..BYTES_PER_ELEMENT].copy_from_slice(bytes);
    Goldilocks::from_u64(u64::from_le_bytes(word))
}
