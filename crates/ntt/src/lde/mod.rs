//! The coset low-degree extension: [`Ntt::coset_lde`] and its variants, and the choice of the
//! way it runs — the plain one, the fused bit-reversed one ([`fused`]) or the natural-order one
//! ([`natural`]).

mod fused;
mod natural;
#[cfg(test)]
mod reference;

use aurum_goldilocks::{Backend, Goldilocks};
use rayon::prelude::*;

use crate::bitrev;
use crate::buffers::{checked_twiddles, try_zeroed};
use crate::butterflies::flow::Flow;
use crate::element::NttElement;
use crate::engine::{Ntt, Order};
use crate::error::NttError;
use crate::narrow;
use crate::passes::plan::{Pass, Plan, WORKING_SET};
use crate::scaling::Powers;
use crate::shape::{Shape, check_lde, shape};
use crate::source::{Rows, Source};

impl Ntt {
    /// Low-degree extension: each column holds the evaluations of a polynomial on `H`
    /// (natural order, `|H| = height`); returns its evaluations on `shift · H'`,
    /// `|H'| = 2^added_bits · |H|`, in `output` order, as a new `height << added_bits` row
    /// matrix. Equals `p3-dft`'s `coset_lde_batch` on [`Domain::PLONKY3`] and plonky2's
    /// `lde_onto_coset` on [`Domain::PLONKY2`] (with that domain's shift).
    ///
    /// [`Domain::PLONKY3`]: crate::Domain::PLONKY3
    /// [`Domain::PLONKY2`]: crate::Domain::PLONKY2
    pub fn coset_lde<E: NttElement>(
        &self,
        values: &[E],
        width: usize,
        added_bits: usize,
        shift: Goldilocks,
        output: Order,
    ) -> Result<Vec<E>, NttError> {
        let (shape, out_len, backend) =
            self.checked_lde::<E>(values.len(), width, added_bits, shift)?;
        // Allocated zeroed, not filled: the pages are first touched (faulted in, zeroed by the
        // kernel) by the threads that write them.
        let mut out = try_zeroed::<E>(out_len, LDE)?;
        self.lde_base(
            E::as_base_mut(&mut out),
            LdeInput::Slice(E::as_base(values)),
            shape,
            added_bits,
            shift,
            output,
            backend,
        )?;
        Ok(out)
    }

    /// [`Ntt::coset_lde`] consuming the input. In bit-reversed order it reuses the input's
    /// allocation for the output (as `p3-dft`'s `coset_lde_batch` does): growing it keeps the
    /// pages already touched, so only the new part of the output is fresh memory. In natural
    /// order the input becomes the coefficient buffer and the output is a new allocation
    /// (freed input included, the peak is the output plus the input).
    pub fn coset_lde_vec<E: NttElement>(
        &self,
        mut values: Vec<E>,
        width: usize,
        added_bits: usize,
        shift: Goldilocks,
        output: Order,
    ) -> Result<Vec<E>, NttError> {
        let (shape, out_len, backend) =
            self.checked_lde::<E>(values.len(), width, added_bits, shift)?;
        if output == Order::Natural {
            let mut out = try_zeroed::<E>(out_len, LDE)?;
            self.lde_base(
                E::as_base_mut(&mut out),
                LdeInput::Scratch(E::as_base_mut(&mut values)),
                shape,
                added_bits,
                shift,
                output,
                backend,
            )?;
            return Ok(out);
        }
        // Grown on huge pages: the new blocks are faulted in 2 MiB at a time (measured on
        // 2^16 × 256: 466 → 399 ms).
        let extra = out_len - values.len();
        aurum_goldilocks::raw::try_reserve_exact_huge(&mut values, extra).map_err(|e| {
            NttError::OutOfMemory {
                what: LDE,
                bytes: e.bytes,
            }
        })?;
        values.par_extend(rayon::iter::repeat_n(E::default(), extra));
        self.lde_base(
            E::as_base_mut(&mut values),
            LdeInput::FirstBlock,
            shape,
            added_bits,
            shift,
            output,
            backend,
        )?;
        Ok(values)
    }

    /// The checks of [`Ntt::coset_lde`] and [`Ntt::coset_lde_vec`], in order — the shape, the
    /// output's length, the shift — then the backend; returns the shape, the output length and
    /// the backend.
    fn checked_lde<E: NttElement>(
        &self,
        len: usize,
        width: usize,
        added_bits: usize,
        shift: Goldilocks,
    ) -> Result<(Shape, usize, Backend), NttError> {
        let shape = shape::<E>(len, width)?;
        let out_len = check_lde::<E>(len, shape, added_bits)?;
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        Ok((shape, out_len, self.backend()?))
    }

    /// [`Ntt::coset_lde`] into a caller-provided buffer of exactly `values.len() << added_bits`
    /// elements (no allocation besides twiddles).
    pub fn coset_lde_into<E: NttElement>(
        &self,
        values: &[E],
        width: usize,
        added_bits: usize,
        shift: Goldilocks,
        out: &mut [E],
        output: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let expected = check_lde::<E>(values.len(), shape, added_bits)?;
        if out.len() != expected {
            return Err(NttError::OutputLength {
                expected,
                found: out.len(),
            });
        }
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        let backend = self.backend()?;
        self.lde_base(
            E::as_base_mut(out),
            LdeInput::Slice(E::as_base(values)),
            shape,
            added_bits,
            shift,
            output,
            backend,
        )
    }

    /// The LDE on base-field columns into `out` (`2^added_bits` blocks of the input's size).
    ///
    /// The `2^added_bits · n` points of `shift·H'` split into `2^added_bits` cosets of `H`:
    /// point `i + 2^a·m` is `shift·g^i·ω^m` (`g` generates `H'`, `ω = g^(2^a)`). In bit-reversed
    /// order, coset `i`'s evaluations (themselves bit-reversed) fill the contiguous block
    /// `rev_a(i)`. So: interpolate once (into the last block), then for each block run a
    /// size-`n` DIF from the coefficients scaled by powers of that coset's shift (and `1/n`):
    /// no zero padding is transformed, no separate scaling pass runs, and the output needs no
    /// permutation. Where the plan allows, the passes are fused further ([`fused::fused`]).
    /// Natural order has its own ways without a permutation: one batched transform of the
    /// cosets ([`natural::natural`]), or, for output rows narrower than a vector, one
    /// transform of the whole domain ([`natural::spread`]).
    #[allow(clippy::too_many_arguments)]
    fn lde_base(
        &self,
        out: &mut [Goldilocks],
        input: LdeInput<'_>,
        shape: Shape,
        added_bits: usize,
        shift: Goldilocks,
        output: Order,
        backend: Backend,
    ) -> Result<(), NttError> {
        let (width, log_n) = (shape.width, shape.log_height);
        let block_len = out.len() >> added_bits;
        let g = self
            .domain()
            .root_of_unity(log_n + added_bits)
            .expect("checked by check_lde");
        let inv_n = Goldilocks::ONE.div_2exp(log_n as u64);
        let inverse_tw = checked_twiddles(self.domain().generator(), true, log_n)?;
        // Coset `i` of H (its shift `shift·g^i`), scaled by `1/n` as well.
        let coset_powers = |i: usize| Powers::new(inv_n, shift * g.exp_u64(i as u64), log_n);
        if output == Order::Natural {
            let natural = |out: &mut [Goldilocks], coefficients: &mut [Goldilocks], input| {
                if direct_natural(shape, added_bits, backend) {
                    let powers: Vec<Powers> = (0..1usize << added_bits).map(coset_powers).collect();
                    let forward_tw = checked_twiddles(self.domain().generator(), false, log_n)?;
                    natural::natural(
                        out,
                        coefficients,
                        input,
                        width,
                        log_n,
                        &powers,
                        &inverse_tw,
                        &forward_tw,
                        backend,
                    )
                } else {
                    // Narrower than a vector: one transform of the whole domain.
                    let powers = Powers::bit_reversed(inv_n, shift, log_n);
                    let whole_tw =
                        checked_twiddles(self.domain().generator(), false, log_n + added_bits)?;
                    natural::spread(
                        out,
                        coefficients,
                        input,
                        width,
                        log_n,
                        added_bits,
                        &powers,
                        &inverse_tw,
                        &whole_tw,
                        backend,
                    )
                }
            };
            // Both ways need the input's size of scratch for the coefficients (a consumed
            // input is that scratch).
            return match input {
                LdeInput::Scratch(coefficients) => natural(out, coefficients, None),
                LdeInput::Slice(src) => {
                    let mut coefficients = try_zeroed(block_len, COEFFICIENTS)?;
                    natural(out, &mut coefficients, Some(src))
                }
                LdeInput::FirstBlock => {
                    let mut coefficients = try_zeroed(block_len, COEFFICIENTS)?;
                    coefficients.copy_from_slice(&out[..block_len]);
                    natural(out, &mut coefficients, None)
                }
            };
        }
        let forward_tw = checked_twiddles(self.domain().generator(), false, log_n)?;
        // Block k holds coset rev_a(k).
        let block_powers: Vec<Powers> = (0..1usize << added_bits)
            .map(|k| coset_powers(bitrev::reverse_bits(k, added_bits)))
            .collect();
        let plan = Plan::new(width, log_n, WORKING_SET);
        let lanes = backend.lanes();
        let narrow = width > 1 && width < lanes && (1usize << log_n) >= 2 * lanes;
        let fusable = !narrow
            && plan.passes.len() >= 2
            && matches!(plan.passes.first(), Some(Pass::Stripe { .. }));
        let (others, coeffs) = out.split_at_mut(out.len() - block_len);
        let input = match input {
            LdeInput::Slice(src) => Some(src),
            LdeInput::Scratch(src) => Some(&*src),
            LdeInput::FirstBlock => None,
        };
        if fusable {
            fused::fused(
                others,
                coeffs,
                input,
                &plan,
                &block_powers,
                &inverse_tw,
                &forward_tw,
                backend,
            );
        } else {
            // Interpolate into the last block: the bit-reversing copy (parallel, line-sized
            // gathers) lets the DIT flow produce natural-order coefficients with no in-place
            // permutation; the 1/n joins the coset scaling below.
            let input = input.unwrap_or(&others[..block_len]);
            bitrev::gather_bit_reversed(input, coeffs, width, log_n);
            self.inverse_base(coeffs, shape, Order::BitReversed, None, backend)?;
            for (block, powers) in others.chunks_exact_mut(block_len).zip(&block_powers) {
                let source = Source {
                    rows: Rows::Copy {
                        src: coeffs,
                        stride: width,
                    },
                    powers: Some(powers),
                };
                narrow::transform(
                    block,
                    width,
                    log_n,
                    &forward_tw,
                    Flow::Dif,
                    None,
                    backend,
                    Some(source),
                )?;
            }
            // The last block holds the coefficients: scaled in place by its first pass, last.
            let in_place = Source {
                rows: Rows::InPlace,
                powers: block_powers.last(),
            };
            narrow::transform(
                coeffs,
                width,
                log_n,
                &forward_tw,
                Flow::Dif,
                None,
                backend,
                Some(in_place),
            )?;
        }
        Ok(())
    }
}

/// What an LDE's output is called in [`NttError::OutOfMemory`].
const LDE: &str = "the LDE";

/// What an LDE's scratch buffer of coefficients is called in [`NttError::OutOfMemory`].
const COEFFICIENTS: &str = "the LDE's coefficients";

/// Where an LDE's input evaluations are.
enum LdeInput<'a> {
    /// A slice the LDE leaves alone.
    Slice(&'a [Goldilocks]),
    /// The output's first block.
    FirstBlock,
    /// A buffer of the input's size the LDE may overwrite (a consumed input).
    Scratch(&'a mut [Goldilocks]),
}

/// Whether a natural-order LDE runs as one batched transform of all cosets ([`natural::natural`]):
/// when the `2^added_bits · width` columns fill at least a vector (else [`natural::spread`]).
fn direct_natural(shape: Shape, added_bits: usize, backend: Backend) -> bool {
    shape.log_height >= 1 && (shape.width << added_bits) >= backend.lanes()
}
