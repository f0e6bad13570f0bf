//! The SVE backend of Poseidon2: the whole-permutation kernels of `csrc/poseidon2.c`
//! (Plonky3's layers at widths 8, 12 and 16, on `aurum-sve`'s field header), run by bulk calls
//! on [`Backend::Sve`](aurum_goldilocks::Backend::Sve). The C code's symbols and the only
//! `unsafe` code of this crate are here.

use aurum_goldilocks::Goldilocks;
use aurum_symmetric::StateKernel;

use crate::{HALF_EXTERNAL_ROUNDS, INTERNAL_ROUNDS, RoundConstants};

/// Poseidon2 with Plonky3's layers on SVE: the round constants in the kernel's layout
/// (canonical values, the 8 external rounds' `W` constants each, 4 initial then 4 terminal,
/// and the 22 internal ones). A [`Poseidon2`](crate::Poseidon2) builds one where this CPU runs
/// SVE, and its bulk calls on the SVE backend run it (see
/// [`aurum_symmetric::Permutation::state_kernel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SveKernel<const W: usize> {
    /// The instruction set this CPU runs the kernel with.
    flavour: aurum_sve::Flavour,
    external: Vec<u64>,
    internal: Vec<u64>,
}

impl<const W: usize> SveKernel<W> {
    /// The kernel for these constants of Plonky3's layers, where this build has the kernels,
    /// this CPU runs SVE and there is a kernel of width `W`.
    pub(crate) fn new(constants: &RoundConstants<W>) -> Option<Self> {
        if !(cfg!(all(target_arch = "aarch64", aurum_sve_kernels)) && matches!(W, 8 | 12 | 16)) {
            return None;
        }
        let flavour = aurum_sve::detect()?.flavour;
        let words = |c: &Goldilocks| c.as_canonical_u64();
        let external: Vec<u64> = constants
            .initial
            .iter()
            .chain(&constants.terminal)
            .flatten()
            .map(words)
            .collect();
        let internal: Vec<u64> = constants.internal.iter().map(words).collect();
        debug_assert_eq!(external.len(), 2 * HALF_EXTERNAL_ROUNDS * W);
        debug_assert_eq!(internal.len(), INTERNAL_ROUNDS);
        Some(Self {
            flavour,
            external,
            internal,
        })
    }
}

impl<const W: usize> StateKernel<W> for SveKernel<W> {
    fn permute_states(&self, states: &mut [[Goldilocks; W]]) {
        let states = aurum_goldilocks::raw::words_mut(states.as_flattened_mut());
        #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
        ffi::poseidon2_plonky3(self.flavour, W, &self.external, &self.internal, states);
        #[cfg(not(all(target_arch = "aarch64", aurum_sve_kernels)))]
        {
            let _ = (self.flavour, &self.external, &self.internal, states);
            unreachable!("`SveKernel::new` makes none in a build without the kernels");
        }
    }
}

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
mod ffi {
    use aurum_sve::Flavour;

    /// Declares one flavour's symbols (`aurum_sve_*` or `aurum_sve2_*`, the same C compiled
    /// with `+sve` or `+sve2`).
    macro_rules! declare {
        ($module:ident, $p8:ident, $p12:ident, $p16:ident) => {
            mod $module {
                unsafe extern "C" {
                    pub(super) fn $p8(ext: *const u64, int: *const u64, st: *mut u64, n: usize);
                    pub(super) fn $p12(ext: *const u64, int: *const u64, st: *mut u64, n: usize);
                    pub(super) fn $p16(ext: *const u64, int: *const u64, st: *mut u64, n: usize);
                }
            }
        };
    }

    declare!(
        sve,
        aurum_sve_poseidon2_plonky3_w8,
        aurum_sve_poseidon2_plonky3_w12,
        aurum_sve_poseidon2_plonky3_w16
    );
    declare!(
        sve2,
        aurum_sve2_poseidon2_plonky3_w8,
        aurum_sve2_poseidon2_plonky3_w12,
        aurum_sve2_poseidon2_plonky3_w16
    );

    /// Poseidon2 (Plonky3's layers) on `states.len() / width` consecutive states.
    ///
    /// # Panics
    /// Unless `width` is 8, 12 or 16, `states.len()` a multiple of it,
    /// `external.len() == 8 · width` and `internal.len() == 22`.
    pub(super) fn poseidon2_plonky3(
        flavour: Flavour,
        width: usize,
        external: &[u64],
        internal: &[u64],
        states: &mut [u64],
    ) {
        assert!(
            matches!(width, 8 | 12 | 16),
            "Poseidon2 kernels exist for widths 8, 12, 16"
        );
        assert_eq!(
            external.len(),
            8 * width,
            "8 external rounds of `width` constants"
        );
        assert_eq!(internal.len(), 22, "22 internal round constants");
        assert_eq!(states.len() % width, 0, "whole states");
        let n = states.len() / width;
        let (ext, int, st) = (external.as_ptr(), internal.as_ptr(), states.as_mut_ptr());
        // SAFETY: a `Flavour` value is only made after run-time detection found that
        // instruction set (`aurum_sve::detect`); the C code reads `8 · width` external and 22
        // internal constants (checked above) and gathers/scatters words `k · width + j` for
        // k < n, j < width of `states` under the active-lane predicate: all within
        // `states.len() = n · width`.
        unsafe {
            match (flavour, width) {
                (Flavour::Sve, 8) => sve::aurum_sve_poseidon2_plonky3_w8(ext, int, st, n),
                (Flavour::Sve, 12) => sve::aurum_sve_poseidon2_plonky3_w12(ext, int, st, n),
                (Flavour::Sve, _) => sve::aurum_sve_poseidon2_plonky3_w16(ext, int, st, n),
                (Flavour::Sve2, 8) => sve2::aurum_sve2_poseidon2_plonky3_w8(ext, int, st, n),
                (Flavour::Sve2, 12) => sve2::aurum_sve2_poseidon2_plonky3_w12(ext, int, st, n),
                (Flavour::Sve2, _) => sve2::aurum_sve2_poseidon2_plonky3_w16(ext, int, st, n),
            }
        }
    }
}
