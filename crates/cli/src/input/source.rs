//! [`MatrixSource`]: the matrix to commit to — generated, a u64 file or any file's bytes — with
//! its shape known before the work, streamed, read by ranges of rows, or loaded whole.

use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use aurum_goldilocks::Goldilocks;

use crate::error::Error;
use crate::input::generate::random_matrix;
use crate::input::memory::{out_of_memory, zeroed_bytes};
use crate::input::regular::open;
use crate::input::rows::{
    BYTES_PER_ELEMENT, byte_file_rows, pack7, read_byte_rows, read_u64_rows, u64_file_rows,
};
use crate::input::sequential::SequentialReader;

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
