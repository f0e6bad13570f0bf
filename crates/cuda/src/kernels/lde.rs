//! The coset LDE's launch sequence: which kernels run, in which order, with which arguments.
//!
//! The GPU path (`aurum_cuda::coset_lde`) launches these steps; the host check
//! (`tests/host_kernels.rs`) runs the same steps through the same kernel bodies compiled for
//! the host, so the plan — pass sizes, orders, tables — is checked against the CPU's LDE on
//! machines without a GPU too.
//!
//! An LDE of `2^log_n` rows by `2^added_bits`:
//! 1. tables: the powers of the larger domain's root `ω` (`ω^t`, `t < 2^(log_n + added − 1)`,
//!    the twiddles of both transforms; the inverse reads them negated and mirrored), and
//!    `shift^k / 2^log_n` for `k < 2^log_n`;
//! 2. the inverse transform of the input in place: decimation in frequency (natural order in,
//!    coefficients out in bit-reversed order), in passes of several layers;
//! 3. the forward transform into the output, in place: decimation in time (bit-reversed in,
//!    natural order out) or in frequency (natural in, bit-reversed out), as the caller's order
//!    asks. Its first pass reads its tiles through the spread — every coefficient scaled by its
//!    table entry, placed where the forward transform wants it, zeros between — straight from
//!    the inverse's output, reading no zeros: the spread has no pass of its own.

use aurum_goldilocks::Goldilocks;

/// Elements of a pass's tile in shared memory (`NTT_TILE` in `kernels/ntt.cuh`).
pub const TILE: usize = 4096;

/// The most lanes (consecutive elements of one tile row) a pass takes: 16 words, 128 bytes, so
/// each of a tile's rows is read and written as whole 32-byte sectors (`NTT_MAX_LANES`).
pub const MAX_LANES: u64 = 16;

/// A device buffer a step names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffer {
    /// The input, `2^log_n · width` words; the inverse transform overwrites it.
    Input,
    /// The output, `2^(log_n + added_bits) · width` words.
    Output,
    /// `ω^t` for `t < 2^(log_table − 1)`.
    Twiddles,
    /// `shift^k / 2^log_n` for `k < 2^log_n`.
    Scale,
}

impl Buffer {
    /// Its number, as the host check's requests name it.
    #[must_use]
    pub const fn index(self) -> u64 {
        match self {
            Buffer::Input => 0,
            Buffer::Output => 1,
            Buffer::Twiddles => 2,
            Buffer::Scale => 3,
        }
    }
}

/// One kernel launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `powers`: `out[t] = hi[t >> lo_bits] · lo[t mod 2^lo_bits]` for `t < count`.
    Powers {
        /// The table written.
        out: Buffer,
        /// Entries.
        count: u64,
        /// Bits of `t` that index `lo`.
        lo_bits: u32,
        /// The high factors (canonical).
        hi: Vec<u64>,
        /// The low factors (canonical).
        lo: Vec<u64>,
    },
    /// `ntt_pass`: layers `low .. low + layers` (spans `2^low …`) of a transform of `data`'s
    /// rows, `blocks` blocks of tiles of `2^layers × 2^lane_bits` elements; with `spread`, the
    /// tiles are read through the spread from [`Buffer::Input`] and [`Buffer::Scale`] (the
    /// forward transform's first pass) instead of from `data`.
    Pass {
        /// The buffer transformed in place.
        data: Buffer,
        /// The smallest span's bit.
        low: u32,
        /// Layers in this pass.
        layers: u32,
        /// Lanes per tile: `2^lane_bits`.
        lane_bits: u32,
        /// Blocks launched.
        blocks: u64,
        /// Decimation in time (else in frequency).
        dit: bool,
        /// The inverse root.
        inverse: bool,
        /// Read through the spread (natural order for decimation in time, bit-reversed in
        /// frequency).
        spread: bool,
    },
}

impl Step {
    /// The kernel's `flags` argument of a [`Step::Pass`]: bit 0 decimation in time, bit 1 the
    /// inverse root, bit 2 the spread.
    #[must_use]
    pub fn pass_flags(dit: bool, inverse: bool, spread: bool) -> u32 {
        u32::from(dit) | (u32::from(inverse) << 1) | (u32::from(spread) << 2)
    }
}

/// An LDE's steps and buffer sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LdePlan {
    /// Rows in: `2^log_n`.
    pub log_n: u32,
    /// The blow-up: `2^added_bits`.
    pub added_bits: u32,
    /// Columns.
    pub width: u64,
    /// The twiddles' root has order `2^log_table` (`log_n + added_bits`).
    pub log_table: u32,
    /// The launches, in order.
    pub steps: Vec<Step>,
}

impl LdePlan {
    /// The LDE of `2^log_n` rows of `width` columns onto `shift · H'`, `|H'| = 2^(log_n +
    /// added_bits)`, where `root` generates `H'` (order `2^(log_n + added_bits)`), rows out in
    /// bit-reversed order when `bit_reversed`. `log_n + added_bits ≤ 32`, `added_bits ≥ 1`,
    /// `width ≥ 1`, `shift ≠ 0` (checked by the caller: `aurum_ntt::check_coset_lde`).
    #[must_use]
    pub fn new(
        log_n: u32,
        added_bits: u32,
        width: u64,
        root: Goldilocks,
        shift: Goldilocks,
        bit_reversed: bool,
    ) -> LdePlan {
        assert!(added_bits >= 1 && log_n + added_bits <= 32 && width >= 1);
        let log_table = log_n + added_bits;
        let n_inv = Goldilocks::from_u64(1u64 << log_n)
            .try_inverse()
            .expect("a power of two is invertible");
        let mut steps = vec![
            powers(
                Buffer::Twiddles,
                root,
                Goldilocks::ONE,
                1 << (log_table - 1),
            ),
            powers(Buffer::Scale, shift, n_inv, 1 << log_n),
        ];
        steps.extend(passes(Buffer::Input, log_n, width, false, true));
        let mut forward = passes(Buffer::Output, log_table, width, !bit_reversed, false);
        if let Some(Step::Pass { spread, .. }) = forward.first_mut() {
            *spread = true;
        }
        steps.extend(forward);
        LdePlan {
            log_n,
            added_bits,
            width,
            log_table,
            steps,
        }
    }

    /// Words of each buffer.
    #[must_use]
    pub fn len(&self, buffer: Buffer) -> usize {
        let rows = |log: u32| 1usize << log;
        let width = usize::try_from(self.width).expect("the width came from a usize");
        match buffer {
            Buffer::Input => rows(self.log_n) * width,
            Buffer::Output => rows(self.log_table) * width,
            Buffer::Twiddles => rows(self.log_table - 1),
            Buffer::Scale => rows(self.log_n),
        }
    }

    /// Words read and written by the launches (each pass reads and writes its matrix once;
    /// the spread pass reads only the inverse's output, a scale entry per row, and writes the
    /// output; the tables are written once), for the docs and the benchmark: what the plan
    /// moves through device memory, against the `(2^log_n + 2^log_table) · width` words of
    /// reading the input and writing the output once. Twiddle reads are left out (the tables
    /// are small against the matrices and mostly read from cache).
    #[must_use]
    pub fn traffic_words(&self) -> u64 {
        let rows = |log: u32| 1u64 << log;
        self.steps
            .iter()
            .map(|step| match step {
                Step::Powers { count, .. } => *count,
                Step::Pass { spread: true, .. } => {
                    rows(self.log_n) * (self.width + 1) + rows(self.log_table) * self.width
                }
                Step::Pass { data, .. } => {
                    let log = if *data == Buffer::Input {
                        self.log_n
                    } else {
                        self.log_table
                    };
                    2 * rows(log) * self.width
                }
            })
            .sum()
    }

    /// The passes' tile sizes, for the docs and the benchmark: `(layers, lanes)` of each.
    #[must_use]
    pub fn passes(&self) -> Vec<(u32, u32)> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Pass {
                    layers, lane_bits, ..
                } => Some((*layers, 1 << lane_bits)),
                _ => None,
            })
            .collect()
    }
}

/// `out[t] = factor · base^t` for `t < count`, as a launch from two short tables.
fn powers(out: Buffer, base: Goldilocks, factor: Goldilocks, count: u64) -> Step {
    let PowerTables { lo_bits, hi, lo } = PowerTables::new(base, factor, count);
    Step::Powers {
        out,
        count,
        lo_bits,
        hi,
        lo,
    }
}

/// The two short tables the `powers` kernel multiplies into `factor · base^t`, `t < count`:
/// `out[t] = hi[t >> lo_bits] · lo[t mod 2^lo_bits]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PowerTables {
    pub(crate) lo_bits: u32,
    /// `factor · base^(k · 2^lo_bits)`, canonical.
    pub(crate) hi: Vec<u64>,
    /// `base^j`, `j < 2^lo_bits`, canonical.
    pub(crate) lo: Vec<u64>,
}

impl PowerTables {
    pub(crate) fn new(base: Goldilocks, factor: Goldilocks, count: u64) -> Self {
        let lo_bits = count.trailing_zeros().min(12);
        let lo_len = 1u64 << lo_bits;
        let mut lo = Vec::with_capacity(lo_len as usize);
        let mut x = Goldilocks::ONE;
        for _ in 0..lo_len {
            lo.push(x.as_canonical_u64());
            x *= base;
        }
        // x = base^(2^lo_bits) now.
        let mut hi = Vec::with_capacity((count >> lo_bits) as usize);
        let mut y = factor;
        for _ in 0..count >> lo_bits {
            hi.push(y.as_canonical_u64());
            y *= x;
        }
        Self { lo_bits, hi, lo }
    }
}

/// The most layers a tile of `lanes` lanes holds.
fn capacity(lanes: u64) -> u32 {
    (TILE as u64 / lanes).ilog2()
}

/// A tile's lanes where a row of the pass's matrix holds `2^low · width`: the whole row up to
/// [`MAX_LANES`], a power of two (the last tile of a row may be partly empty).
fn lanes_at(width: u64, low: u32) -> u64 {
    (width << low).next_power_of_two().min(MAX_LANES)
}

/// The passes of a transform of `2^log_n` rows of `data`: layers cut from the smallest span
/// up into as few passes as the tiles allow (the bottom pass's tile is as wide as a row, up to
/// [`MAX_LANES`]; narrow rows leave room for more layers), the layers spread evenly over them
/// where that needs no more passes; run smallest span first for decimation in time, largest
/// first in frequency.
fn passes(data: Buffer, log_n: u32, width: u64, dit: bool, inverse: bool) -> Vec<Step> {
    let greedy = cut(log_n, width, |_, cap, rest| cap.min(rest));
    let count = greedy.len() as u32;
    let even = cut(log_n, width, |done, cap, rest| {
        cap.min(rest.div_ceil(count.saturating_sub(done).max(1)))
    });
    let layers = if even.len() == greedy.len() {
        even
    } else {
        greedy
    };
    let mut steps: Vec<Step> = layers
        .into_iter()
        .map(|(low, layers)| {
            let lanes = lanes_at(width, low);
            let tiles = (width << low).div_ceil(lanes);
            Step::Pass {
                data,
                low,
                layers,
                lane_bits: lanes.trailing_zeros(),
                blocks: (1u64 << (log_n - low - layers)) * tiles,
                dit,
                inverse,
                spread: false,
            }
        })
        .collect();
    if !dit {
        steps.reverse();
    }
    steps
}

/// `(low, layers)` of each pass from the bottom, `take(passes so far, capacity, layers left)`
/// choosing each pass's layers.
fn cut(log_n: u32, width: u64, take: impl Fn(u32, u32, u32) -> u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut low = 0;
    while low < log_n {
        let cap = capacity(lanes_at(width, low));
        let layers = take(out.len() as u32, cap, log_n - low).max(1);
        out.push((low, layers));
        low += layers;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(plan: &LdePlan) -> Vec<(u32, u32)> {
        plan.passes()
    }

    /// Each transform's passes cover its layers exactly once, their tiles fit, and every
    /// block index maps into the buffer.
    #[test]
    fn passes_cover_every_layer_once() {
        for log_n in 0..=26 {
            for width in [1, 2, 3, 7, 8, 16, 100, 256, 2633] {
                for bit_reversed in [false, true] {
                    let plan = LdePlan::new(
                        log_n,
                        1,
                        width,
                        Goldilocks::NEG_ONE,
                        Goldilocks::ONE,
                        bit_reversed,
                    );
                    // Exactly one pass reads through the spread: the forward transform's first.
                    let spreads: Vec<usize> = plan
                        .steps
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| matches!(s, Step::Pass { spread: true, .. }))
                        .map(|(i, _)| i)
                        .collect();
                    let first_forward = plan
                        .steps
                        .iter()
                        .position(|s| {
                            matches!(
                                s,
                                Step::Pass {
                                    data: Buffer::Output,
                                    ..
                                }
                            )
                        })
                        .expect("a forward pass");
                    assert_eq!(spreads, vec![first_forward], "{log_n} {width}");
                    for (buffer, log) in [(Buffer::Input, log_n), (Buffer::Output, log_n + 1)] {
                        let mut covered = vec![0; log as usize];
                        for step in &plan.steps {
                            if let Step::Pass {
                                data,
                                low,
                                layers,
                                lane_bits,
                                blocks,
                                ..
                            } = step
                                && *data == buffer
                            {
                                assert!(1usize << (layers + lane_bits) <= TILE);
                                assert!(1 << lane_bits <= MAX_LANES);
                                for l in *low..low + layers {
                                    covered[l as usize] += 1;
                                }
                                let tiles = (width << low).div_ceil(1 << lane_bits);
                                assert_eq!(*blocks, (1 << (log - low - layers)) * tiles);
                            }
                        }
                        assert!(
                            covered.iter().all(|&c| c == 1),
                            "{log_n} {width}: {covered:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn pass_counts() {
        let plan =
            |log_n, width| LdePlan::new(log_n, 1, width, Goldilocks::ONE, Goldilocks::ONE, true);
        // 2^24 × 8 by 2: the inverse in three passes, the forward (25 layers) in three.
        assert_eq!(layers(&plan(24, 8)).len(), 6);
        // 2^20 × 256: 20 and 21 layers, three passes each.
        assert_eq!(layers(&plan(20, 256)).len(), 6);
        // One column: the inverse's bottom pass takes 12 layers (a tile of one lane), the
        // forward's three passes take 7 each (spread evenly: the greedy cut also needs three).
        assert_eq!(
            layers(&plan(20, 1)),
            vec![(8, 16), (12, 1), (7, 16), (7, 16), (7, 1)]
        );
    }

    /// What the plans move, in units of the matrix's input (`2^log_n · width` words): reading
    /// the input and writing the output once is 3 of them at blow-up 2.
    #[test]
    fn traffic() {
        let ratio = |log_n: u32, width: u64| {
            let plan = LdePlan::new(log_n, 1, width, Goldilocks::ONE, Goldilocks::ONE, true);
            plan.traffic_words() as f64 / (width << log_n) as f64
        };
        // 2^24 × 8: the inverse's three passes 6, the spread pass 1 + 2, the forward's other
        // two 8, the tables and the scale's reads 3/8 — 17.375 (with the spread as a launch of
        // its own, reading the coefficients and writing the zero-padded output before the
        // forward's first pass read that back, it was 21.375).
        assert_eq!(ratio(24, 8), 17.375);
        // 2^20 × 256: the same passes, tables negligible.
        let r = ratio(20, 256);
        assert!((17.0..17.02).contains(&r), "{r}");
    }

    #[test]
    fn powers_tables() {
        let base = Goldilocks::from_u64(5);
        let factor = Goldilocks::from_u64(3);
        for count in [1u64, 2, 64, 4096, 1 << 14] {
            let Step::Powers {
                count: c,
                lo_bits,
                hi,
                lo,
                ..
            } = powers(Buffer::Scale, base, factor, count)
            else {
                unreachable!()
            };
            assert_eq!(c, count);
            for t in [0, 1, count / 2, count - 1]
                .into_iter()
                .filter(|&t| t < count)
            {
                let got = Goldilocks::from_u64(hi[(t >> lo_bits) as usize])
                    * Goldilocks::from_u64(lo[(t & ((1 << lo_bits) - 1)) as usize]);
                assert_eq!(got, factor * base.exp_u64(t), "{count} {t}");
            }
        }
    }
}
