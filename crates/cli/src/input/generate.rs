//! The generated matrix: seeded pseudo-random canonical values, any element or range of it on
//! its own, and the whole of it written as a u64 file (`aurum gen`).

use aurum_goldilocks::{Goldilocks, P};
use rayon::prelude::*;

use crate::error::Error;
use crate::input::memory::out_of_memory;
use crate::input::rows::READ_ELEMENTS;

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
