//! Where the committed matrix comes from: generated, a file of u64 values, or any file's bytes.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use aurum_goldilocks::{Goldilocks, P};
use rayon::prelude::*;

/// Elements read per step when streaming a file.
const READ_ELEMENTS: usize = 1 << 17;

/// The matrix to commit to.
#[derive(Clone, Debug)]
pub(crate) enum MatrixSource {
    /// Seeded pseudo-random values.
    Random { rows: usize, cols: usize, seed: u64 },
    /// Little-endian u64 values, each below p, row-major.
    U64File { path: PathBuf, cols: usize },
    /// Any file: 7 bytes per element, then a 0x01 byte and zeros up to a whole row.
    BytesFile { path: PathBuf, cols: usize },
}

/// SplitMix64: a fast, seekable generator, so that element `i` can be computed in parallel.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A `rows × cols` matrix of pseudo-random canonical values derived from `seed`.
pub(crate) fn random_matrix(
    rows: usize,
    cols: usize,
    seed: u64,
) -> Result<Vec<Goldilocks>, String> {
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| format!("{rows} × {cols} elements overflow"))?;
    let mut values: Vec<Goldilocks> = Vec::new();
    values.try_reserve_exact(len).map_err(|_| {
        format!(
            "cannot allocate {rows} × {cols} elements ({} MiB)",
            (len * 8) >> 20
        )
    })?;
    let base = splitmix64(seed);
    (0..len)
        .into_par_iter()
        .map(|i| {
            Goldilocks::from_u64(
                splitmix64(base ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)) % P,
            )
        })
        .collect_into_vec(&mut values);
    Ok(values)
}

fn open(path: &Path) -> Result<(File, u64), String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    Ok((file, len))
}

/// Reads as many bytes as fit `buf`, short only at the end of the file.
fn read_full(reader: &mut impl Read, buf: &mut [u8], path: &Path) -> Result<usize, String> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    Ok(filled)
}

impl MatrixSource {
    /// A one-line description for reports.
    pub(crate) fn describe(&self) -> String {
        match self {
            MatrixSource::Random { seed, .. } => format!("pseudo-random (seed {seed})"),
            MatrixSource::U64File { path, .. } => format!("u64 values of {}", path.display()),
            MatrixSource::BytesFile { path, .. } => format!("bytes of {}", path.display()),
        }
    }

    /// File size, for progress.
    pub(crate) fn total_bytes(&self) -> Result<Option<u64>, String> {
        match self {
            MatrixSource::Random { .. } => Ok(None),
            MatrixSource::U64File { path, .. } | MatrixSource::BytesFile { path, .. } => {
                Ok(Some(open(path)?.1))
            }
        }
    }

    /// Calls `consume(whole rows, bytes read so far)` for successive pieces of the file.
    pub(crate) fn stream_rows(
        &self,
        mut consume: impl FnMut(&[Goldilocks], u64) -> Result<(), String>,
    ) -> Result<(), String> {
        match self {
            MatrixSource::Random { rows, cols, seed } => {
                let values = random_matrix(*rows, *cols, *seed)?;
                consume(&values, 0)
            }
            MatrixSource::U64File { path, cols } => {
                let (file, len) = open(path)?;
                let row_bytes = (cols * 8) as u64;
                if len == 0 {
                    return Err(format!("{} is empty", path.display()));
                }
                if len % row_bytes != 0 {
                    return Err(format!(
                        "{} has {len} bytes, which is not a whole number of rows of {cols} u64 values \
                         ({row_bytes} bytes); the last row has {} bytes",
                        path.display(),
                        len % row_bytes
                    ));
                }
                let mut reader = BufReader::new(file);
                let rows_per_read = (READ_ELEMENTS / cols).max(1);
                let mut buf = vec![0u8; rows_per_read * cols * 8];
                let mut values = Vec::with_capacity(rows_per_read * cols);
                let mut row = 0usize;
                let mut done = 0u64;
                loop {
                    let n = read_full(&mut reader, &mut buf, path)?;
                    if n == 0 {
                        return Ok(());
                    }
                    values.clear();
                    for (k, word) in buf[..n].chunks_exact(8).enumerate() {
                        let x = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                        let value = Goldilocks::from_canonical(x).map_err(|e| {
                            format!(
                                "{}: row {}, column {}: {e}",
                                path.display(),
                                row + k / cols,
                                k % cols
                            )
                        })?;
                        values.push(value);
                    }
                    row += n / (cols * 8);
                    done += n as u64;
                    consume(&values, done)?;
                }
            }
            MatrixSource::BytesFile { path, cols } => {
                let (file, _) = open(path)?;
                let mut reader = BufReader::new(file);
                let rows_per_read = (READ_ELEMENTS / cols).max(1);
                let mut buf = vec![0u8; rows_per_read * cols * 7];
                let mut values = Vec::with_capacity(rows_per_read * cols);
                let mut done = 0u64;
                loop {
                    let n = read_full(&mut reader, &mut buf, path)?;
                    done += n as u64;
                    values.clear();
                    if n < buf.len() {
                        // The end: mark it with 0x01, then zeros up to a whole row.
                        let mut tail = buf[..n].to_vec();
                        tail.push(1);
                        let row_bytes = cols * 7;
                        tail.resize(tail.len().div_ceil(row_bytes) * row_bytes, 0);
                        values.extend(tail.chunks_exact(7).map(pack7));
                        return consume(&values, done);
                    }
                    values.extend(buf.chunks_exact(7).map(pack7));
                    consume(&values, done)?;
                }
            }
        }
    }

    /// The whole matrix in memory, with its width.
    pub(crate) fn load(&self) -> Result<(Vec<Goldilocks>, usize), String> {
        let cols = match self {
            MatrixSource::Random { cols, .. }
            | MatrixSource::U64File { cols, .. }
            | MatrixSource::BytesFile { cols, .. } => *cols,
        };
        let mut all = Vec::new();
        self.stream_rows(|rows, _| {
            all.try_reserve(rows.len())
                .map_err(|_| "not enough memory to hold the matrix".to_string())?;
            all.extend_from_slice(rows);
            Ok(())
        })?;
        Ok((all, cols))
    }
}

/// Seven little-endian bytes as a field element (< 2^56 < p).
fn pack7(bytes: &[u8]) -> Goldilocks {
    let mut word = [0u8; 8];
    word[..7].copy_from_slice(bytes);
    Goldilocks::from_u64(u64::from_le_bytes(word))
}
