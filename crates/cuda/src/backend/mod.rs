//! The device the rest of the crate runs on, chosen when the crate is built: the CUDA driver
//! ([`cuda`], through `cudarc`), or — built with the `emulator` feature, for testing on
//! machines without a GPU — the host emulator ([`emulator`]), which runs the same kernel source
//! compiled by the host's C++ compiler. Both offer the same [`Device`], [`Buffer`] and
//! [`Staging`]; NVRTC ([`nvrtc`]) is the same in both. These modules hold all of the crate's
//! `unsafe` (library probes, FFI, kernel launches), each block with its `// SAFETY:` line.

use aurum_merkle::Preset;

use crate::error::CudaError;

#[cfg(not(feature = "emulator"))]
mod cuda;
#[cfg(feature = "emulator")]
mod emulator;
mod nvrtc;

#[cfg(not(feature = "emulator"))]
pub(crate) use cuda::{Buffer, Device, Staging};
#[cfg(feature = "emulator")]
pub(crate) use emulator::{Buffer, Device, Staging};
pub(crate) use nvrtc::compile;

/// Words per staging slot (64 MiB): a chunk of rows staged at once, and hashed by one launch
/// (one thread per row), so it must hold enough rows to fill the GPU — 16 MiB slots held
/// 15 420 rows of 136 columns, four warps per SM of an H200, and a tree of such rows took 39 %
/// (`poseidon2-w8`) and 69 % (`plonky2`) longer streamed than hashed from device memory in one
/// launch; 64 MiB holds 61 680. Rows per chunk are capped at [`CHUNK_ROWS`] besides, so that
/// narrow matrices still come in several chunks, whose packing, copying and hashing overlap
/// (each copy moves only the words a chunk fills).
#[cfg(not(feature = "emulator"))]
pub const SLOT_WORDS: usize = 1 << 23;
/// The most rows staged and hashed as one chunk: 2048 blocks of 128 threads, more than the
/// blocks an H200's SMs hold at once.
#[cfg(not(feature = "emulator"))]
pub const CHUNK_ROWS: usize = 1 << 18;
/// Words per staging slot of the host emulator: the GPU's geometry scaled down 128 times, so
/// that its tests cross chunk and slot boundaries at sizes it hashes in moments.
#[cfg(feature = "emulator")]
pub const SLOT_WORDS: usize = 1 << 16;
/// The most rows per chunk of the host emulator (the GPU's, scaled as [`SLOT_WORDS`]).
#[cfg(feature = "emulator")]
pub const CHUNK_ROWS: usize = 1 << 11;
/// Staging slots (one being packed, one copied, one hashed).
pub(crate) const SLOTS: usize = 3;

/// Threads per block of the tree and permutation kernels (`TREE_THREADS` in
/// kernels/merkle.cu, which bounds them to it).
pub(super) const BLOCK: u32 = 128;

/// The kernels' names, loaded once when the device is opened.
pub(super) const KERNELS: &[&str] = &[
    "poseidon2_w8_packed_leaves",
    "poseidon2_w12_packed_leaves",
    "poseidon2_w16_packed_leaves",
    "plonky2_packed_leaves",
    "polygon_packed_leaves",
    "poseidon2_w8_leaves",
    "poseidon2_w8_compress",
    "poseidon2_w8_inject",
    "poseidon2_w12_leaves",
    "poseidon2_w12_compress",
    "poseidon2_w12_inject",
    "poseidon2_w16_leaves",
    "poseidon2_w16_compress",
    "poseidon2_w16_inject",
    "plonky2_leaves",
    "plonky2_compress",
    "plonky2_inject",
    "polygon_leaves",
    "polygon_compress",
    "polygon_inject",
    "poseidon2_w8_permute",
    "poseidon2_w12_permute",
    "poseidon2_w16_permute",
    "poseidon_permute_states",
    "ntt_pass",
    "powers",
    "fri_fold",
    "reduced_opening",
];

/// Threads per block of `ntt_pass` (`NTT_THREADS` in kernels/ntt.cuh).
pub(super) const NTT_THREADS: u32 = 256;

/// The kernels' name prefix of a preset.
pub(super) fn prefix(preset: Preset) -> &'static str {
    match preset {
        Preset::Poseidon2W8 => "poseidon2_w8",
        Preset::Poseidon2W12 => "poseidon2_w12",
        Preset::Poseidon2W16 => "poseidon2_w16",
        Preset::Plonky2 => "plonky2",
        Preset::Polygon => "polygon",
    }
}

/// One NTT pass's launch arguments (see `kernels::lde::Step::Pass`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NttPass {
    pub(crate) low: u32,
    pub(crate) layers: u32,
    pub(crate) width: u64,
    pub(crate) lane_bits: u32,
    pub(crate) blocks: u64,
    pub(crate) flags: u32,
}

impl NttPass {
    /// Checks that the pass stays inside its buffers — `data` and `table` words long, with
    /// the spread flag `(src, scale, log_n)`: `src` and `scale` words long, `2^log_n` input
    /// rows — as the kernel's launch relies on (see the CUDA backend's `ntt_pass`), and
    /// returns its grid's blocks.
    pub(super) fn checked_grid(
        &self,
        data: usize,
        table: usize,
        log_table: u32,
        spread: Option<(usize, usize, u32)>,
    ) -> Result<u32, CudaError> {
        let Self {
            low,
            layers,
            width,
            lane_bits,
            blocks,
            flags,
        } = *self;
        let span_rows = 1u64 << (low + layers);
        let rows = blocks / (width << low).div_ceil(1 << lane_bits) * span_rows;
        assert!(
            1usize << (layers + lane_bits) <= crate::kernels::lde::TILE
                && 1 << lane_bits <= crate::kernels::lde::MAX_LANES
                && rows * width <= data as u64
                && log_table > low + layers - 1
                && table as u64 >= 1 << (log_table - 1)
        );
        assert_eq!(spread.is_some(), flags & 4 != 0);
        if let Some((src, scale, log_n)) = spread {
            assert!(
                log_n < log_table
                    && src as u64 >= width << log_n
                    && scale as u64 >= 1 << log_n
                    && rows == 1 << log_table
            );
        }
        u32::try_from(blocks).map_err(|_| CudaError::Driver {
            what: "launching an NTT pass",
            message: format!("{blocks} blocks exceed the grid"),
        })
    }
}

/// Checks a leaf launch over matrices of `lens` words and `widths` columns, rows
/// `first..first + rows`, into `out` words: every row inside every matrix, a digest's room per
/// row.
pub(super) fn check_leaves(
    lens: &[usize],
    widths: &[usize],
    first: usize,
    rows: usize,
    out: usize,
) {
    assert_eq!(lens.len(), widths.len());
    assert!(out >= 4 * rows);
    for (&len, &w) in lens.iter().zip(widths) {
        assert!(len >= (first + rows) * w, "the rows lie inside each matrix");
    }
}

/// Checks a fold launch (kernels/fold.cu) over a codeword of `codeword` words holding `rows`
/// groups of `2^log_arity` extension elements, with a `half` table and `out` words, and
/// returns `log n`: an arity the kernel holds, a power-of-two codeword of at most 2^32
/// elements, a table of `n/2` entries, room for `rows` elements.
pub(super) fn check_fold(
    codeword: usize,
    rows: usize,
    log_arity: u32,
    half: usize,
    out: usize,
) -> u32 {
    assert!(log_arity as usize <= aurum_fri::MAX_LOG_ARITY);
    let n = rows << log_arity;
    assert!(
        aurum_fri::foldable(n, log_arity as usize)
            && codeword >= 2 * n
            && half >= n / 2
            && out >= 2 * rows
    );
    n.trailing_zeros()
}

/// One matrix's reduced-opening launch (kernels/open.cu): an LDE of `2^log_n` rows of `width`
/// words in `lde` words, the points table, `2 · width` coefficient words, six words per term
/// and two output words per row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpeningLaunch {
    pub(crate) width: u64,
    pub(crate) log_n: u32,
    pub(crate) terms: u32,
}

impl OpeningLaunch {
    /// Checks that the launch stays inside buffers of these lengths (in words), as the
    /// kernel's reads and writes rely on, and returns its rows.
    pub(super) fn checked_rows(
        &self,
        lde: usize,
        points: usize,
        coefficients: usize,
        terms: usize,
        out: usize,
    ) -> u64 {
        let rows = 1u64 << self.log_n;
        assert!(
            self.log_n as usize <= aurum_fri::MAX_LOG_DOMAIN
                && lde as u64 >= rows * self.width
                && points as u64 >= rows
                && coefficients as u64 >= 2 * self.width
                && terms as u64 >= 6 * u64::from(self.terms)
                && out as u64 >= 2 * rows
        );
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block sizes the launches use are the ones the kernels are written and bounded for.
    #[test]
    fn block_sizes_match_the_kernels() {
        let source = crate::kernels::device_source();
        for (define, threads) in [("TREE_THREADS", BLOCK), ("NTT_THREADS", NTT_THREADS)] {
            assert!(
                source.contains(&format!("#define {define} {threads}\n")),
                "{define} is not {threads}"
            );
        }
    }
}
