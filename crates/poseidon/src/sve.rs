//! The SVE backend of Poseidon: the whole-permutation kernel of `aurum-sve` (plonky2's
//! Poseidon, width 12), run by bulk calls on [`Backend::Sve`](aurum_goldilocks::Backend::Sve).

use std::sync::OnceLock;

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::StateKernel;

use crate::FastConstants;
use crate::constants::WIDTH;

/// plonky2's Poseidon on SVE: its constants in the kernel's layout (see
/// [`aurum_sve::poseidon_table`]). A [`Poseidon`](crate::Poseidon) uses one where this CPU
/// runs SVE, and its bulk calls on the SVE backend run it (see
/// [`aurum_symmetric::Permutation::state_kernel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SveKernel {
    constants: aurum_sve::PoseidonConstants,
}

impl SveKernel {
    /// The kernel, built once per process from [`FastConstants::get`] where this CPU runs SVE.
    pub(crate) fn get() -> Option<&'static Self> {
        static KERNEL: OnceLock<Option<SveKernel>> = OnceLock::new();
        aurum_sve::detect()?;
        KERNEL
            .get_or_init(|| {
                let constants =
                    aurum_sve::PoseidonConstants::new(&sve_table(FastConstants::get())).ok()?;
                Some(Self { constants })
            })
            .as_ref()
    }
}

impl StateKernel<WIDTH> for SveKernel {
    fn permute_states(&self, states: &mut [[Goldilocks; WIDTH]]) {
        let ran = aurum_sve::poseidon_plonky2(
            &self.constants,
            aurum_goldilocks::raw::words_mut(states.as_flattened_mut()),
        );
        assert!(ran, "an SVE kernel exists only where SVE runs");
    }
}

/// The constants laid out as [`aurum_sve::poseidon_table`] describes: the full rounds', the
/// partial constants, the first partial matrix, the partial rows, the partial columns.
fn sve_table(c: &FastConstants) -> Vec<u64> {
    use aurum_sve::poseidon_table as layout;
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
    debug_assert_eq!(table.len(), layout::LEN);
    debug_assert_eq!(
        table[layout::PARTIAL_COLS],
        c.partial_cols[0][0].as_canonical_u64()
    );
    table
}
