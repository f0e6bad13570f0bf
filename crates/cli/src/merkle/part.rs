//! One process's share of a split commitment ([`aurum_merkle::split`]): reading only its
//! rows of the matrix source and committing them to the nodes it sends.
//!
//! Independent of MPI, so that the reading of row ranges — seeks into `--input` files, the
//! end marker of `--bytes` files, generated rows — is tested in every build; the `mpi`
//! feature's `distributed` module only moves the nodes between processes.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Digest, MerkleConfig, PartCommitter, SplitPlan};

use crate::error::Error;
use crate::input::{self, BYTES_PER_ELEMENT, MatrixSource};

/// Elements generated per step for a part of a generated matrix.
const GENERATE_ELEMENTS: usize = 1 << 17;

/// Calls `consume(whole rows)` for successive pieces of rows `rows` of `source`, a matrix of
/// `height` rows (its height as planned), reading nothing outside them.
///
/// * u64 files: the part starts at byte `rows.start × cols × 8`; values are checked as
///   everywhere else (a value ≥ p is an error naming the row, counted from the part's start).
/// * `--bytes` files: rows are at fixed offsets (`cols × 7` bytes each); only the last row
///   of the matrix holds the end marker, so only the part that ends at `height` reads to the
///   end of the file and marks it.
/// * Generated matrices: only the part's elements are generated, a piece at a time.
///
/// # Errors
/// Unreadable files, values ≥ p, and a file that holds fewer rows than planned (it changed
/// since its size was read): a one-line message naming the file and the part's rows.
pub fn stream_part(
    source: &MatrixSource,
    height: usize,
    rows: Range<usize>,
    mut consume: impl FnMut(&[Goldilocks]) -> Result<(), Error>,
) -> Result<(), Error> {
    if rows.is_empty() {
        return Ok(());
    }
    if rows.end > height {
        return Err(Error::Usage(format!(
            "rows {}..{} are outside a matrix of {height} rows",
            rows.start, rows.end
        )));
    }
    let cols = source.cols();
    let expected = rows.len();
    let mut got = 0usize;
    // Whole rows only, and never more than the part has: the rows a reader produces past the
    // part (the end marker row of a `--bytes` reader that stops inside the file) are not
    // the part's.
    let mut take = |values: &[Goldilocks]| -> Result<(), Error> {
        let n = (values.len() / cols).min(expected - got);
        got += n;
        consume(&values[..n * cols])
    };
    let describe = |path: &Path| {
        format!(
            "{}, rows {}..{} (this process's part; a row below counts from {})",
            path.display(),
            rows.start,
            rows.end,
            rows.start
        )
    };
    match source {
        MatrixSource::Random { seed, .. } => {
            let step = (GENERATE_ELEMENTS / cols).max(1);
            let mut row = rows.start;
            while row < rows.end {
                let next = (row + step).min(rows.end);
                // rows.end ≤ height and height × cols elements were checked to fit memory
                // by the plan; checked anyway, as sizes from flags.
                let first = row
                    .checked_mul(cols)
                    .ok_or_else(|| Error::Usage("row offset overflows".to_string()))?;
                let last = next
                    .checked_mul(cols)
                    .ok_or_else(|| Error::Usage("row offset overflows".to_string()))?;
                take(&input::random_elements(first..last, *seed))?;
                row = next;
            }
        }
        MatrixSource::U64File { path, .. } => {
            let (file, _) = input::open(path)?;
            let row_bytes = row_len(cols, 8)?;
            let reader = seek_to(file, path, rows.start, row_bytes, rows.len())?;
            input::read_u64_rows(BufReader::new(reader), cols, |values, _| take(values))
                .map_err(|e| e.context(describe(path)))?;
        }
        MatrixSource::BytesFile { path, .. } => {
            let (file, len) = input::open(path)?;
            let row_bytes = row_len(cols, BYTES_PER_ELEMENT)?;
            // A part that ends before the last row must find all its bytes in the file (its
            // reader would otherwise mark a premature end as if it were the file's), and the
            // last part a file that still has the planned height.
            let changed = if rows.end == height {
                input::byte_file_rows(len, cols)? != height
            } else {
                len < offset(rows.end, row_bytes)?
            };
            if changed {
                return Err(Error::Input(format!(
                    "{}: the file is {len} bytes now, which is not the {height}-row matrix \
                     planned: it changed since its size was read",
                    describe(path)
                )));
            }
            let reader = if rows.end == height {
                // The last part: to the end of the file, which read_byte_rows marks.
                let start = offset(rows.start, row_bytes)?;
                let mut file = file;
                file.seek(SeekFrom::Start(start))
                    .map_err(|e| Error::Input(format!("cannot seek in {}: {e}", path.display())))?;
                file.take(len.saturating_sub(start))
            } else {
                seek_to(file, path, rows.start, row_bytes, rows.len())?
            };
            input::read_byte_rows(BufReader::new(reader), cols, |values, _| take(values))
                .map_err(|e| e.context(describe(path)))?;
        }
    }
    if got != expected {
        let path = match source {
            MatrixSource::U64File { path, .. } | MatrixSource::BytesFile { path, .. } => {
                describe(path)
            }
            MatrixSource::Random { .. } => "the generated matrix".to_string(),
        };
        return Err(Error::Input(format!(
            "{path}: only {got} of the part's {expected} rows could be read: the file is \
             shorter than when its size was read"
        )));
    }
    Ok(())
}

/// Bytes per row.
fn row_len(cols: usize, bytes_per_element: usize) -> Result<u64, Error> {
    cols.checked_mul(bytes_per_element)
        .map(|b| b as u64)
        .ok_or_else(|| Error::Usage(format!("a row of {cols} columns overflows")))
}

/// Byte offset of row `row`.
fn offset(row: usize, row_bytes: u64) -> Result<u64, Error> {
    (row as u64)
        .checked_mul(row_bytes)
        .ok_or_else(|| Error::Usage(format!("the offset of row {row} overflows")))
}

/// `file` positioned at row `first`, limited to `count` rows.
fn seek_to(
    mut file: File,
    path: &Path,
    first: usize,
    row_bytes: u64,
    count: usize,
) -> Result<std::io::Take<File>, Error> {
    let start = offset(first, row_bytes)?;
    let len = offset(count, row_bytes)?;
    file.seek(SeekFrom::Start(start))
        .map_err(|e| Error::Input(format!("cannot seek in {}: {e}", path.display())))?;
    Ok(file.take(len))
}

/// Reads part `part` of `plan` from `source` and commits it: the nodes that part sends
/// ([`SplitPlan::nodes_of`] digests).
///
/// # Errors
/// What [`stream_part`] reports, and a part the plan does not have.
pub fn commit_part<C: MerkleConfig>(
    config: &C,
    source: &MatrixSource,
    plan: &SplitPlan,
    part: usize,
) -> Result<Vec<Digest>, Error> {
    let failed = |e: &dyn std::fmt::Display| Error::Failed(e.to_string());
    let rows = plan.rows(part).map_err(|e| failed(&e))?;
    let mut committer =
        PartCommitter::new(config, plan, part, source.cols()).map_err(|e| failed(&e))?;
    stream_part(source, plan.height(), rows, |values| {
        committer.push_rows(values).map_err(|e| failed(&e))
    })?;
    committer.finish().map_err(|e| failed(&e))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use aurum_merkle::{Matrix, MerkleTree, ZERO_DIGEST, config};

    use super::*;

    fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
        let path = std::env::temp_dir().join(format!("aurum-part-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        path
    }

    fn read_part(source: &MatrixSource, height: usize, rows: Range<usize>) -> Vec<Goldilocks> {
        let mut out = Vec::new();
        stream_part(source, height, rows, |v| {
            out.extend_from_slice(v);
            Ok(())
        })
        .unwrap();
        out
    }

    /// Every plan's parts, read one by one and concatenated, are the whole matrix; and the
    /// parts' nodes complete to the in-memory tree's root and cap.
    fn check_source(source: &MatrixSource) {
        let height = source.rows().unwrap();
        let whole = source.load(height).unwrap();
        let cols = source.cols();
        assert_eq!(whole.len(), height * cols);
        let config = config::poseidon2_w8();
        let tree = MerkleTree::new(&config, vec![Matrix::new(&whole, cols).unwrap()]).unwrap();
        for parts in 1..=6 {
            for cap_height in [0, tree.shape().depth()] {
                let plan = SplitPlan::new(height, cap_height, parts).unwrap();
                let mut joined = Vec::new();
                let slot = plan.slot_len();
                let mut slots = vec![ZERO_DIGEST; parts * slot];
                for part in 0..parts {
                    let rows = plan.rows(part).unwrap();
                    joined.extend(read_part(source, height, rows));
                    let nodes = commit_part(&config, source, &plan, part).unwrap();
                    slots[part * slot..part * slot + nodes.len()].copy_from_slice(&nodes);
                }
                assert_eq!(joined, whole, "{parts} parts of {}", source.describe());
                let (root, cap) = plan.complete(&config, &slots).unwrap();
                assert_eq!(root, tree.root());
                assert_eq!(cap, tree.cap(cap_height).unwrap());
            }
        }
    }

    #[test]
    fn parts_of_u64_files_bytes_files_and_generated_matrices_are_the_matrix() {
        check_source(&MatrixSource::Random {
            rows: 37,
            cols: 3,
            seed: 9,
        });
        let values: Vec<u8> = (0..21u64 * 2)
            .flat_map(|v| (v * 1_000_003).to_le_bytes())
            .collect();
        let u64_path = temp_file("u64", &values);
        check_source(&MatrixSource::U64File {
            path: u64_path.clone(),
            cols: 2,
        });
        // Bytes files whose end marker starts a row, ends one, or sits inside one; an empty
        // file is one marker row.
        for len in [0usize, 1, 20, 21, 22, 27, 28, 29, 300] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 5) as u8).collect();
            let path = temp_file(&format!("bytes{len}"), &bytes);
            check_source(&MatrixSource::BytesFile {
                path: path.clone(),
                cols: 3,
            });
            std::fs::remove_file(path).unwrap();
        }
        std::fs::remove_file(u64_path).unwrap();
    }

    #[test]
    fn bad_parts_are_one_line_errors() {
        // 4 rows of 2 values; the value in row 3 is p.
        let mut values: Vec<u64> = (0..8).collect();
        values[7] = aurum_goldilocks::P;
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let path = temp_file("bad", &bytes);
        let source = MatrixSource::U64File {
            path: path.clone(),
            cols: 2,
        };
        // The first half reads fine; the second names the file, the part and the value.
        read_part(&source, 4, 0..2);
        let err = stream_part(&source, 4, 2..4, |_| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("rows 2..4") && err.contains("row 1, column 1"),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
        // Rows past the planned height, and a file shorter than planned.
        let err = stream_part(&source, 4, 3..5, |_| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside a matrix of 4 rows"), "{err}");
        let err = stream_part(&source, 6, 4..6, |_| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("only 0 of the part's 2 rows"), "{err}");
        // A bytes file shortened to exactly 3 rows of 2 elements (42 bytes) after a 5-row
        // plan: the middle part would read a whole row of end marker, the last part no rows.
        let short = temp_file("short", &[7u8; 42]);
        let bytes = MatrixSource::BytesFile {
            path: short.clone(),
            cols: 2,
        };
        assert_eq!(bytes.rows().unwrap(), 4);
        for (height, rows) in [(6, 2..4), (6, 4..6), (5, 4..5)] {
            let err = stream_part(&bytes, height, rows, |_| Ok(()))
                .unwrap_err()
                .to_string();
            assert!(err.contains("changed since its size was read"), "{err}");
        }
        assert_eq!(read_part(&bytes, 4, 2..4).len(), 4);
        std::fs::remove_file(short).unwrap();
        std::fs::remove_file(&path).unwrap();
        let err = stream_part(&source, 4, 0..2, |_| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot open"), "{err}");
    }
}
