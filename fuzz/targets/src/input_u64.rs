//! The `--input` reader: little-endian u64 values, `cols` per row, each below p. Whatever the
//! bytes, it returns whole rows of canonical values equal to the file's words, or an error.
//!
//! Input: one byte for the column count (1..=256), then the file.

use aurum_cli::input::{read_u64_rows, u64_file_rows};
use aurum_goldilocks::P;

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let Some((&c, file)) = data.split_first() else {
        return;
    };
    let cols = usize::from(c) + 1;
    let mut read = Vec::new();
    let result = read_u64_rows(file, cols, |rows, _| {
        assert_eq!(rows.len() % cols, 0, "a piece of partial rows");
        read.extend_from_slice(rows);
        Ok(())
    });
    let words: Vec<u64> = file
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let whole_rows = file.len() % (cols * 8) == 0;
    let all_canonical = words.iter().all(|&w| w < P);
    assert_eq!(result.is_ok(), whole_rows && all_canonical, "{result:?}");
    if result.is_ok() {
        let values: Vec<u64> = read.iter().map(|x| x.as_canonical_u64()).collect();
        assert_eq!(values, words);
        // The row count known up front agrees (an empty file is refused up front).
        match u64_file_rows(file.len() as u64, cols) {
            Ok(rows) => assert_eq!(rows * cols, words.len()),
            Err(_) => assert!(file.is_empty()),
        }
    }
}
