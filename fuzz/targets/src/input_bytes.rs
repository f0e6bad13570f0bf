//! The `--bytes` reader: 7 bytes per element, a 0x01 end marker, zeros to a whole row. It
//! never fails on any input, returns exactly the rows `byte_file_rows` announces, and the
//! packing is injective (the bytes are recovered from the elements).
//!
//! Input: one byte for the column count (1..=256), then the file.

use aurum_cli::input::{byte_file_rows, read_byte_rows};

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let Some((&c, file)) = data.split_first() else {
        return;
    };
    let cols = usize::from(c) + 1;
    let mut values = Vec::new();
    read_byte_rows(file, cols, |rows, _| {
        assert_eq!(rows.len() % cols, 0, "a piece of partial rows");
        values.extend_from_slice(rows);
        Ok(())
    })
    .unwrap();
    assert_eq!(
        values.len(),
        byte_file_rows(file.len() as u64, cols).unwrap() * cols
    );
    let mut bytes: Vec<u8> = values
        .iter()
        .flat_map(|x| {
            let word = x.as_canonical_u64();
            assert!(word < 1 << 56);
            word.to_le_bytes()[..7].to_vec()
        })
        .collect();
    // Strip the zero fill and the end marker: what is left is the file.
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    assert_eq!(bytes.pop(), Some(1));
    assert_eq!(bytes, file);
}
