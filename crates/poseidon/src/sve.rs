//! The SVE backend of Poseidon: the whole-permutation kernel of `csrc/poseidon.c` (plonky2's
//! Poseidon, width 12, on `aurum-sve`'s field header), run by bulk calls on
//! [`Backend::Sve`](aurum_goldilocks::Backend::Sve). The C code's symbols and the only `unsafe`
//! code of this crate are here.

use std::sync::OnceLock;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::StateKernel;

use crate::FastConstants;
use crate::constants::WIDTH;

/// The layout of the kernel's constant table: offsets into one flat table of canonical values,
/// taken from [`FastConstants`].
mod layout {
    use crate::constants::{PARTIAL_ROUNDS, WIDTH};

    /// The round constants of the 8 full rounds (0–3, then 26–29), `WIDTH` each:
    /// `FastConstants::full`.
    pub(super) const FULL: usize = 0;
    /// The 22 constants added to `state[0]` before the partial rounds' S-boxes:
    /// `FastConstants::partial`.
    pub(super) const PARTIAL: usize = FULL + 8 * WIDTH;
    /// Rows 1–11 of the linear layer of round 3, `WIDTH` each:
    /// `FastConstants::first_partial_matrix`.
    pub(super) const FIRST_PARTIAL_MATRIX: usize = PARTIAL + PARTIAL_ROUNDS;
    /// Per partial round, the 11-element row over `state[1..]`: `FastConstants::partial_rows`.
    pub(super) const PARTIAL_ROWS: usize = FIRST_PARTIAL_MATRIX + (WIDTH - 1) * WIDTH;
    /// Per partial round, the 11-element column added to `state[1..]`:
    /// `FastConstants::partial_cols`.
    pub(super) const PARTIAL_COLS: usize = PARTIAL_ROWS + PARTIAL_ROUNDS * (WIDTH - 1);
    /// The table's length (734).
    pub(super) const LEN: usize = PARTIAL_COLS + PARTIAL_ROUNDS * (WIDTH - 1);

    // The offsets the C kernel has compiled in (`PC_*` in csrc/poseidon.c).
    const _: () = assert!(
        PARTIAL == 96
            && FIRST_PARTIAL_MATRIX == 118
            && PARTIAL_ROWS == 250
            && PARTIAL_COLS == 492
            && LEN == 734
    );
}

/// plonky2's Poseidon on SVE: its constants in the kernel's layout (the full rounds', the
/// partial constants, the first partial matrix, the partial rows, the partial columns, as
/// `csrc/poseidon.c` describes). A [`Poseidon`](crate::Poseidon) uses one where this CPU runs
/// SVE, and its bulk calls on the SVE backend run it (see
/// [`aurum_symmetric::Permutation::state_kernel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SveKernel {
    /// The instruction set this CPU runs the kernel with.
    flavour: aurum_sve::Flavour,
    table: Vec<u64>,
}

impl SveKernel {
    /// The kernel, built once per process from [`FastConstants::get`] where this build has the
    /// kernel and this CPU runs SVE.
    pub(crate) fn get() -> Option<&'static Self> {
        static KERNEL: OnceLock<Option<SveKernel>> = OnceLock::new();
        if !cfg!(all(target_arch = "aarch64", aurum_sve_kernels)) {
            return None;
        }
        let flavour = aurum_sve::detect()?.flavour;
        KERNEL
            .get_or_init(|| {
                Some(Self {
                    flavour,
                    table: table(FastConstants::get()),
                })
            })
            .as_ref()
    }
}

impl StateKernel<WIDTH> for SveKernel {
    fn permute_states(&self, states: &mut [[Goldilocks; WIDTH]]) {
        let states = aurum_goldilocks::raw::words_mut(states.as_flattened_mut());
        #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
        ffi::poseidon_plonky2(self.flavour, &self.table, states);
        #[cfg(not(all(target_arch = "aarch64", aurum_sve_kernels)))]
        {
            let _ = (self.flavour, &self.table, states);
            unreachable!("`SveKernel::get` makes none in a build without the kernel");
        }
    }
}

/// The constants laid out as [`layout`] describes: the full rounds', the partial constants,
/// the first partial matrix, the partial rows, the partial columns.
fn table(c: &FastConstants) -> Vec<u64> {
    let table: Vec<u64> = c
        .full
        .iter()
        .flatten()
        .chain(&c.partial)
        .chain(c.first_partial_matrix.iter().flatten())
        .chain(c.partial_rows.iter().flatten())
        .chain(c.partial_cols.iter().flatten())
        .map(|x| x.as_canonical_u64())
        .collect();
    assert_eq!(table.len(), layout::LEN, "the kernel's constant table");
    debug_assert_eq!(
        table[layout::PARTIAL_COLS],
        c.partial_cols[0][0].as_canonical_u64()
    );
    table
}

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
mod ffi {
    use aurum_sve::Flavour;

    use super::layout;

    mod sve {
        unsafe extern "C" {
            pub(super) fn aurum_sve_poseidon_plonky2_w12(c: *const u64, st: *mut u64, n: usize);
        }
    }

    mod sve2 {
        unsafe extern "C" {
            pub(super) fn aurum_sve2_poseidon_plonky2_w12(c: *const u64, st: *mut u64, n: usize);
        }
    }

    /// plonky2's Poseidon (width 12) on `states.len() / 12` consecutive states.
    ///
    /// # Panics
    /// Unless `constants.len()` is `layout::LEN` and `states.len()` a multiple of 12.
    pub(super) fn poseidon_plonky2(flavour: Flavour, constants: &[u64], states: &mut [u64]) {
        assert_eq!(constants.len(), layout::LEN, "the Poseidon constant table");
        assert_eq!(states.len() % 12, 0, "whole states");
        let n = states.len() / 12;
        let (c, st) = (constants.as_ptr(), states.as_mut_ptr());
        // SAFETY: a `Flavour` value is only made after run-time detection found that
        // instruction set (`aurum_sve::detect`); the C code reads the `layout::LEN` constants
        // of the table (checked above) at fixed offsets below that length, and
        // gathers/scatters words `12k + j` for k < n, j < 12 of `states` under the active-lane
        // predicate: all within `states.len() = 12n`.
        unsafe {
            match flavour {
                Flavour::Sve => sve::aurum_sve_poseidon_plonky2_w12(c, st, n),
                Flavour::Sve2 => sve2::aurum_sve2_poseidon_plonky2_w12(c, st, n),
            }
        }
    }
}
