#![doc = include_str!("../README.md")]

use core::fmt;
use std::sync::OnceLock;

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
mod ffi;

/// Which instruction set the kernels run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// SVE (e.g. Graviton3, A64FX).
    Sve,
    /// SVE2 (e.g. Graviton4, Axion, Neoverse N2/V2).
    Sve2,
}

impl Flavour {
    /// `"sve"` or `"sve2"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Flavour::Sve => "sve",
            Flavour::Sve2 => "sve2",
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether this CPU implements SVE (whether or not this build has the kernels).
#[must_use]
pub fn cpu_has_sve() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("sve")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// Whether this build contains the SVE kernels (aarch64 with an SVE-capable C compiler).
#[must_use]
pub const fn kernels_built() -> bool {
    cfg!(all(target_arch = "aarch64", aurum_sve_kernels))
}

/// The SVE state of this process, detected once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sve {
    /// The instruction set the kernels run with (SVE2 where the CPU has it).
    pub flavour: Flavour,
    /// 64-bit lanes per vector (`cntd`): 2 at 128 bits … 32 at 2048 bits.
    pub lanes: usize,
}

impl Sve {
    /// The vector length in bits.
    #[must_use]
    pub const fn vector_bits(self) -> usize {
        self.lanes * 64
    }
}

/// The SVE kernels this process can run, or `None` (no SVE, not aarch64, or not built).
#[must_use]
pub fn detect() -> Option<Sve> {
    static DETECTED: OnceLock<Option<Sve>> = OnceLock::new();
    *DETECTED.get_or_init(detect_uncached)
}

#[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
fn detect_uncached() -> Option<Sve> {
    let flavour = if std::arch::is_aarch64_feature_detected!("sve2") {
        Flavour::Sve2
    } else if std::arch::is_aarch64_feature_detected!("sve") {
        Flavour::Sve
    } else {
        return None;
    };
    Some(Sve {
        flavour,
        lanes: ffi::lanes(flavour),
    })
}

#[cfg(not(all(target_arch = "aarch64", aurum_sve_kernels)))]
fn detect_uncached() -> Option<Sve> {
    None
}

/// An element-wise field operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `a + b`
    Add,
    /// `a − b`
    Sub,
    /// `a · b`
    Mul,
}

/// `out[i] = a[i] op b[i]` in the Goldilocks field (canonical results) with SVE; `false`, with
/// nothing written, where SVE cannot run.
///
/// # Panics
/// Unless the three slices have the same length.
pub fn elementwise(op: Op, a: &[u64], b: &[u64], out: &mut [u64]) -> bool {
    assert!(
        a.len() == out.len() && b.len() == out.len(),
        "elementwise: slices of different lengths ({}, {}, {})",
        a.len(),
        b.len(),
        out.len()
    );
    #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
    if let Some(sve) = detect() {
        let op = match op {
            Op::Add => ffi::Elementwise::Add,
            Op::Sub => ffi::Elementwise::Sub,
            Op::Mul => ffi::Elementwise::Mul,
        };
        ffi::elementwise(sve.flavour, op, a, b, out);
        return true;
    }
    let _ = op;
    false
}

/// The round constants of a Poseidon2 instance with Plonky3's linear layers, in the layout the
/// kernels read: canonical values, the 8 external rounds' `width` constants each (4 initial,
/// then 4 terminal) and the 22 internal ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Constants {
    width: usize,
    external: Vec<u64>,
    internal: Vec<u64>,
}

/// Why a constant table cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstantsError {
    /// No kernel for this width.
    Width(usize),
    /// A table has the wrong number of entries.
    Length {
        /// Which table.
        table: &'static str,
        /// Entries required.
        expected: usize,
        /// Entries given.
        found: usize,
    },
    /// A constant is not canonical (`≥ p`).
    NonCanonical(u64),
}

impl fmt::Display for ConstantsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstantsError::Width(w) => write!(f, "no SVE Poseidon2 kernel for width {w}"),
            ConstantsError::Length {
                table,
                expected,
                found,
            } => write!(f, "{table}: expected {expected} constants, found {found}"),
            ConstantsError::NonCanonical(x) => write!(f, "constant {x:#x} is not canonical"),
        }
    }
}

impl std::error::Error for ConstantsError {}

/// The Goldilocks modulus.
const P: u64 = 0xFFFF_FFFF_0000_0001;

impl Poseidon2Constants {
    /// Checks and stores the constants of width `width` (8, 12 or 16).
    ///
    /// # Errors
    /// A [`ConstantsError`] for another width, wrong table lengths or a non-canonical value.
    pub fn new(width: usize, external: &[u64], internal: &[u64]) -> Result<Self, ConstantsError> {
        if !matches!(width, 8 | 12 | 16) {
            return Err(ConstantsError::Width(width));
        }
        for (table, expected, found) in [
            ("external", 8 * width, external.len()),
            ("internal", 22, internal.len()),
        ] {
            if expected != found {
                return Err(ConstantsError::Length {
                    table,
                    expected,
                    found,
                });
            }
        }
        if let Some(&x) = external.iter().chain(internal).find(|&&x| x >= P) {
            return Err(ConstantsError::NonCanonical(x));
        }
        Ok(Self {
            width,
            external: external.to_vec(),
            internal: internal.to_vec(),
        })
    }

    /// The state width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }
}

/// Permutes `states.len() / width` consecutive states (state `k` at
/// `states[k·width..(k+1)·width]`) with Poseidon2 (Plonky3's linear layers) on SVE, leaving
/// canonical values; `false`, with nothing written, where SVE cannot run.
///
/// # Panics
/// Unless `states.len()` is a multiple of the width.
pub fn poseidon2_plonky3(constants: &Poseidon2Constants, states: &mut [u64]) -> bool {
    assert_eq!(
        states.len() % constants.width,
        0,
        "poseidon2_plonky3: {} words are not whole width-{} states",
        states.len(),
        constants.width
    );
    #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
    if let Some(sve) = detect() {
        ffi::poseidon2_plonky3(
            sve.flavour,
            constants.width,
            &constants.external,
            &constants.internal,
            states,
        );
        return true;
    }
    false
}

/// The layout of the constant table of plonky2's Poseidon kernel (`csrc/poseidon.c`): offsets
/// into one flat table of canonical values, taken from `aurum_poseidon::FastConstants`.
pub mod poseidon_table {
    /// State width.
    pub const WIDTH: usize = 12;
    /// Partial rounds.
    pub const PARTIAL_ROUNDS: usize = 22;
    /// The round constants of the 8 full rounds (0–3, then 26–29), `WIDTH` each:
    /// `FastConstants::full`.
    pub const FULL: usize = 0;
    /// The 22 constants added to `state[0]` before the partial rounds' S-boxes:
    /// `FastConstants::partial`.
    pub const PARTIAL: usize = FULL + 8 * WIDTH;
    /// Rows 1–11 of the linear layer of round 3, `WIDTH` each:
    /// `FastConstants::first_partial_matrix`.
    pub const FIRST_PARTIAL_MATRIX: usize = PARTIAL + PARTIAL_ROUNDS;
    /// Per partial round, the 11-element row over `state[1..]`: `FastConstants::partial_rows`.
    pub const PARTIAL_ROWS: usize = FIRST_PARTIAL_MATRIX + (WIDTH - 1) * WIDTH;
    /// Per partial round, the 11-element column added to `state[1..]`:
    /// `FastConstants::partial_cols`.
    pub const PARTIAL_COLS: usize = PARTIAL_ROWS + PARTIAL_ROUNDS * (WIDTH - 1);
    /// The table's length (734).
    pub const LEN: usize = PARTIAL_COLS + PARTIAL_ROUNDS * (WIDTH - 1);
}

// The offsets the C kernel has compiled in (`PC_*` in csrc/poseidon.c).
const _: () = assert!(
    poseidon_table::PARTIAL == 96
        && poseidon_table::FIRST_PARTIAL_MATRIX == 118
        && poseidon_table::PARTIAL_ROWS == 250
        && poseidon_table::PARTIAL_COLS == 492
        && poseidon_table::LEN == 734
);

/// The constants of plonky2's Poseidon (width 12) in the layout of the kernel, see
/// [`poseidon_table`]: checked to have the right length and canonical values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoseidonConstants {
    table: Vec<u64>,
}

impl PoseidonConstants {
    /// Checks and stores a table laid out as [`poseidon_table`] describes.
    ///
    /// # Errors
    /// [`ConstantsError::Length`] unless the table has [`poseidon_table::LEN`] entries,
    /// [`ConstantsError::NonCanonical`] for a value `≥ p`.
    pub fn new(table: &[u64]) -> Result<Self, ConstantsError> {
        if table.len() != poseidon_table::LEN {
            return Err(ConstantsError::Length {
                table: "poseidon",
                expected: poseidon_table::LEN,
                found: table.len(),
            });
        }
        if let Some(&x) = table.iter().find(|&&x| x >= P) {
            return Err(ConstantsError::NonCanonical(x));
        }
        Ok(Self {
            table: table.to_vec(),
        })
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &[u64] {
        &self.table
    }
}

/// Permutes `states.len() / 12` consecutive states (state `k` at `states[12k..12k + 12]`)
/// with plonky2's Poseidon on SVE, leaving canonical values; `false`, with nothing written,
/// where SVE cannot run.
///
/// # Panics
/// Unless `states.len()` is a multiple of 12.
pub fn poseidon_plonky2(constants: &PoseidonConstants, states: &mut [u64]) -> bool {
    assert_eq!(
        states.len() % poseidon_table::WIDTH,
        0,
        "poseidon_plonky2: {} words are not whole width-12 states",
        states.len()
    );
    #[cfg(all(target_arch = "aarch64", aurum_sve_kernels))]
    if let Some(sve) = detect() {
        ffi::poseidon_plonky2(sve.flavour, &constants.table, states);
        return true;
    }
    let _ = constants;
    false
}
