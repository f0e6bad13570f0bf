#![doc = include_str!("../README.md")]

mod bitrev;
mod domain;
mod element;
mod error;
mod kernels;
mod lde;
mod narrow;
mod schedule;
mod stack_frame;
mod twiddles;

use aurum_goldilocks::{Backend, Goldilocks};
use rayon::prelude::*;

pub use crate::domain::{Domain, MAX_LOG_SIZE};
pub use crate::element::NttElement;
pub use crate::error::NttError;
use crate::kernels::{Flow, Powers, Rows, Source};
use crate::schedule::{Pass, Plan};
use crate::twiddles::twiddles;

/// The order of a transform's evaluations (row `i` holds the evaluation at `ω^i` in natural
/// order, at `ω^rev(i)` in bit-reversed order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// Row `i` ↔ point `ω^i` (`shift·ω^i` on a coset).
    #[default]
    Natural,
    /// Row `i` ↔ point `ω^rev(i)`, where `rev` reverses the `log2(height)` bits of `i`:
    /// what radix-2 DIF produces without a permutation, and how Merkle commitments of
    /// LDEs lay out their leaves.
    BitReversed,
}

/// The smallest and largest LDE blow-ups: `2^1 … 2^4`.
pub const ADDED_BITS: core::ops::RangeInclusive<usize> = 1..=4;

/// An NTT engine: a [`Domain`] and the SIMD backend to run on. Cheap to create and clone;
/// twiddles are cached process-wide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ntt {
    domain: Domain,
    /// `None`: the process-wide selection (`AURUM_BACKEND` or the best this CPU has).
    backend: Option<Backend>,
}

/// A validated matrix shape, in base-field elements.
#[derive(Clone, Copy, Debug)]
struct Shape {
    width: usize,
    log_height: usize,
}

fn shape<E: NttElement>(len: usize, width: usize) -> Result<Shape, NttError> {
    if width == 0 {
        return Err(NttError::ZeroWidth);
    }
    if !len.is_multiple_of(width) {
        return Err(NttError::LengthNotMultipleOfWidth { len, width });
    }
    let height = len / width;
    if !height.is_power_of_two() {
        return Err(NttError::HeightNotPowerOfTwo { height });
    }
    let log_height = height.trailing_zeros() as usize;
    if log_height > MAX_LOG_SIZE {
        return Err(NttError::TooLarge {
            log_size: log_height,
            max_log_size: MAX_LOG_SIZE,
        });
    }
    let base_width = width
        .checked_mul(E::DEGREE)
        .ok_or(NttError::LengthNotMultipleOfWidth { len, width })?;
    Ok(Shape {
        width: base_width,
        log_height,
    })
}

impl Ntt {
    /// An engine over `domain` on the process-wide backend.
    #[must_use]
    pub const fn new(domain: Domain) -> Ntt {
        Ntt {
            domain,
            backend: None,
        }
    }

    /// The Plonky3 domain (equal to `p3-dft` 0.8).
    #[must_use]
    pub const fn plonky3() -> Ntt {
        Ntt::new(Domain::PLONKY3)
    }

    /// The plonky2 domain (equal to plonky2's `fft` / `lde_onto_coset`).
    #[must_use]
    pub const fn plonky2() -> Ntt {
        Ntt::new(Domain::PLONKY2)
    }

    /// The same engine pinned to one backend (tests and benchmarks compare them).
    pub fn with_backend(self, backend: Backend) -> Result<Ntt, NttError> {
        if backend.is_supported() {
            Ok(Ntt {
                backend: Some(backend),
                ..self
            })
        } else {
            Err(NttError::Backend(
                aurum_goldilocks::BackendError::Unsupported(backend),
            ))
        }
    }

    /// The domain.
    #[must_use]
    pub const fn domain(&self) -> Domain {
        self.domain
    }

    /// The backend kernels run on: the one pinned by [`Ntt::with_backend`], else the
    /// process-wide [`aurum_goldilocks::backend()`] (which, like every infallible library
    /// call, falls back to the best supported backend with a warning if `AURUM_BACKEND` is
    /// invalid). Currently always `Ok`.
    pub fn backend(&self) -> Result<Backend, NttError> {
        Ok(self.backend.unwrap_or_else(aurum_goldilocks::backend))
    }

    /// Forward NTT of every column, in place: row `j` holds the coefficient of `x^j`
    /// (natural order); afterwards the rows are the evaluations on `H = ⟨ω⟩`,
    /// `|H| = height`, in `output` order. Equals `p3-dft`'s `dft_batch` on [`Domain::PLONKY3`].
    pub fn forward<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        output: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let backend = self.backend()?;
        self.forward_base(E::as_base_mut(values), shape, output, backend, None)
    }

    /// Inverse NTT of every column, in place: the rows are evaluations on `H` in `input`
    /// order; afterwards row `j` holds the coefficient of `x^j`. Undoes [`Ntt::forward`].
    pub fn inverse<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        input: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let backend = self.backend()?;
        let inv_n = Goldilocks::ONE.div_2exp(shape.log_height as u64);
        self.inverse_base(E::as_base_mut(values), shape, input, Some(inv_n), backend)
    }

    /// Forward NTT onto the coset `shift · H`: coefficients in natural order in, evaluations
    /// at `shift·ω^i` in `output` order out.
    pub fn coset_forward<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        shift: Goldilocks,
        output: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        let backend = self.backend()?;
        // p(shift·x) has coefficients c_j·shift^j: scaled by the first pass of the DIF.
        let powers = Powers::new(Goldilocks::ONE, shift, shape.log_height);
        let source = Source {
            rows: Rows::InPlace,
            powers: Some(&powers),
        };
        self.forward_base(E::as_base_mut(values), shape, output, backend, Some(source))
    }

    /// Inverse of [`Ntt::coset_forward`]: evaluations on `shift · H` in `input` order in,
    /// coefficients in natural order out.
    pub fn coset_inverse<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        shift: Goldilocks,
        input: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let shift_inv = shift.try_inverse().ok_or(NttError::ZeroShift)?;
        let backend = self.backend()?;
        let base = E::as_base_mut(values);
        self.inverse_base(base, shape, input, None, backend)?;
        // Coefficient j of p(shift·x) is c_j·shift^j; undo it together with the 1/n.
        let inv_n = Goldilocks::ONE.div_2exp(shape.log_height as u64);
        schedule::scale_rows(base, None, shape.width, inv_n, shift_inv, backend);
        Ok(())
    }

    /// Low-degree extension: each column holds the evaluations of a polynomial on `H`
    /// (natural order, `|H| = height`); returns its evaluations on `shift · H'`,
    /// `|H'| = 2^added_bits · |H|`, in `output` order, as a new `height << added_bits` row
    /// matrix. Equals `p3-dft`'s `coset_lde_batch` on [`Domain::PLONKY3`] and plonky2's
    /// `lde_onto_coset` on [`Domain::PLONKY2`] (with that domain's shift).
    pub fn coset_lde<E: NttElement>(
        &self,
        values: &[E],
        width: usize,
        added_bits: usize,
        shift: Goldilocks,
        output: Order,
    ) -> Result<Vec<E>, NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let out_len = check_lde::<E>(values.len(), shape, added_bits)?;
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        let backend = self.backend()?;
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
        let shape = shape::<E>(values.len(), width)?;
        let out_len = check_lde::<E>(values.len(), shape, added_bits)?;
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        let backend = self.backend()?;
        if direct_natural(shape, added_bits, output, backend) {
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

    /// Permutes the rows of a matrix (height a power of two) into bit-reversed order; an
    /// involution.
    pub fn bit_reverse_rows<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        bitrev::bit_reverse_rows(E::as_base_mut(values), shape.width, shape.log_height);
        Ok(())
    }

    fn forward_base(
        &self,
        values: &mut [Goldilocks],
        shape: Shape,
        output: Order,
        backend: Backend,
        source: Option<Source<'_>>,
    ) -> Result<(), NttError> {
        let tw = checked_twiddles(self.domain.generator(), false, shape.log_height)?;
        narrow::transform(
            values,
            shape.width,
            shape.log_height,
            &tw,
            Flow::Dif,
            None,
            backend,
            source,
        )?;
        if output == Order::Natural {
            bitrev::bit_reverse_rows(values, shape.width, shape.log_height);
        }
        Ok(())
    }

    fn inverse_base(
        &self,
        values: &mut [Goldilocks],
        shape: Shape,
        input: Order,
        scale: Option<Goldilocks>,
        backend: Backend,
    ) -> Result<(), NttError> {
        let tw = checked_twiddles(self.domain.generator(), true, shape.log_height)?;
        match input {
            Order::BitReversed => narrow::transform(
                values,
                shape.width,
                shape.log_height,
                &tw,
                Flow::Dit,
                scale,
                backend,
                None,
            )?,
            Order::Natural => {
                narrow::transform(
                    values,
                    shape.width,
                    shape.log_height,
                    &tw,
                    Flow::Dif,
                    scale,
                    backend,
                    None,
                )?;
                bitrev::bit_reverse_rows(values, shape.width, shape.log_height);
            }
        }
        Ok(())
    }

    /// The LDE on base-field columns into `out` (`2^added_bits` blocks of the input's size).
    ///
    /// The `2^added_bits · n` points of `shift·H'` split into `2^added_bits` cosets of `H`:
    /// point `i + 2^a·m` is `shift·g^i·ω^m` (`g` generates `H'`, `ω = g^(2^a)`). In bit-reversed
    /// order, coset `i`'s evaluations (themselves bit-reversed) fill the contiguous block
    /// `rev_a(i)`. So: interpolate once (into the last block), then for each block run a
    /// size-`n` DIF from the coefficients scaled by powers of that coset's shift (and `1/n`):
    /// no zero padding is transformed, no separate scaling pass runs, and the output needs no
    /// permutation. Where the plan allows, the passes are fused further ([`lde::fused`]).
    /// Natural order has its own way without a permutation ([`lde::natural`]) unless the
    /// output rows are narrower than a vector.
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
            .domain
            .root_of_unity(log_n + added_bits)
            .expect("checked by check_lde");
        let inv_n = Goldilocks::ONE.div_2exp(log_n as u64);
        let inverse_tw = checked_twiddles(self.domain.generator(), true, log_n)?;
        let forward_tw = checked_twiddles(self.domain.generator(), false, log_n)?;
        // Coset `i` of H (its shift `shift·g^i`), scaled by `1/n` as well.
        let coset_powers = |i: usize| Powers::new(inv_n, shift * g.exp_u64(i as u64), log_n);
        if direct_natural(shape, added_bits, output, backend) {
            let powers: Vec<Powers> = (0..1usize << added_bits).map(coset_powers).collect();
            let natural = |out: &mut [Goldilocks], coefficients: &mut [Goldilocks], input| {
                lde::natural(
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
            };
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
        // Block k holds coset rev_a(k).
        let block_powers: Vec<Powers> = (0..1usize << added_bits)
            .map(|k| coset_powers(bitrev::reverse_bits(k, added_bits)))
            .collect();
        let plan = Plan::new(width, log_n, schedule::WORKING_SET);
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
            lde::fused(
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
        if output == Order::Natural {
            bitrev::bit_reverse_rows(out, width, log_n + added_bits);
        }
        Ok(())
    }
}

/// The twiddles of a transform, or [`NttError::OutOfMemory`].
fn checked_twiddles(
    generator: Goldilocks,
    inverse: bool,
    log_size: usize,
) -> Result<twiddles::Twiddles, NttError> {
    twiddles(generator, inverse, log_size).map_err(|bytes| NttError::OutOfMemory {
        what: "the NTT's twiddles",
        bytes,
    })
}

/// What an LDE's output is called in [`NttError::OutOfMemory`].
const LDE: &str = "the LDE";
/// What an LDE's scratch buffer of coefficients is called in [`NttError::OutOfMemory`].
const COEFFICIENTS: &str = "the LDE's coefficients";

/// `len` zero values, allocated zeroed, or [`NttError::OutOfMemory`] naming `what`.
pub(crate) fn try_zeroed<T: aurum_goldilocks::raw::ZeroedWords>(
    len: usize,
    what: &'static str,
) -> Result<Vec<T>, NttError> {
    aurum_goldilocks::raw::try_zeroed_vec(len).map_err(|e| NttError::OutOfMemory {
        what,
        bytes: e.bytes,
    })
}

/// Where an LDE's input evaluations are.
enum LdeInput<'a> {
    /// A slice the LDE leaves alone.
    Slice(&'a [Goldilocks]),
    /// The output's first block.
    FirstBlock,
    /// A buffer of the input's size the LDE may overwrite (a consumed input).
    Scratch(&'a mut [Goldilocks]),
}

/// Whether a natural-order LDE runs as one batched transform of all cosets ([`lde::natural`]):
/// when the `2^added_bits · width` columns fill at least a vector.
fn direct_natural(shape: Shape, added_bits: usize, output: Order, backend: Backend) -> bool {
    output == Order::Natural
        && shape.log_height >= 1
        && (shape.width << added_bits) >= backend.lanes()
}

/// Checks an LDE of `len` elements of shape `shape` by `added_bits` and returns its output
/// length, `len · 2^added_bits`.
fn check_lde<E: NttElement>(
    len: usize,
    shape: Shape,
    added_bits: usize,
) -> Result<usize, NttError> {
    if !ADDED_BITS.contains(&added_bits) {
        return Err(NttError::AddedBits { added_bits });
    }
    // Both terms are small now: log_height ≤ 32, added_bits ≤ 4.
    let log_size = shape.log_height + added_bits;
    if log_size > MAX_LOG_SIZE {
        return Err(NttError::TooLarge {
            log_size,
            max_log_size: MAX_LOG_SIZE,
        });
    }
    // The output must be a buffer that can exist (at most isize::MAX bytes): for inputs
    // above 1/16 of the address space (or of memory, on 32-bit targets) it cannot.
    len.checked_mul(1 << added_bits)
        .filter(|&out| {
            out.checked_mul(size_of::<E>())
                .is_some_and(|bytes| isize::try_from(bytes).is_ok())
        })
        .ok_or(NttError::OutputTooLarge { len, added_bits })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size limits, which no test can reach with real buffers (2^33 rows).
    #[test]
    fn sizes_beyond_two_to_the_32_are_refused() {
        assert!(matches!(
            shape::<Goldilocks>(1 << 33, 1),
            Err(NttError::TooLarge {
                log_size: 33,
                max_log_size: 32
            })
        ));
        assert!(shape::<Goldilocks>(1 << 32, 1).is_ok());
        let big = Shape {
            width: 1,
            log_height: 30,
        };
        assert_eq!(check_lde::<Goldilocks>(1 << 30, big, 2), Ok(1 << 32));
        assert_eq!(
            check_lde::<Goldilocks>(1 << 30, big, 3),
            Err(NttError::TooLarge {
                log_size: 33,
                max_log_size: 32
            })
        );
        for added_bits in [0, 5, 64, 65, usize::MAX] {
            assert_eq!(
                check_lde::<Goldilocks>(1 << 30, big, added_bits),
                Err(NttError::AddedBits { added_bits })
            );
        }
        assert_eq!(
            shape::<aurum_goldilocks::Goldilocks2>(usize::MAX, usize::MAX).unwrap_err(),
            NttError::LengthNotMultipleOfWidth {
                len: usize::MAX,
                width: usize::MAX
            }
        );
    }

    /// Buffers this large cannot be allocated in a test; the shape checks see only lengths.
    #[test]
    fn heights_beyond_two_to_the_32_are_refused_at_any_width() {
        for (len, width, log_size) in [
            (1usize << 33, 1, 33),
            (1 << 40, 1 << 7, 33),
            (1 << 63, 1, 63),
            (1 << 63, 1 << 20, 43),
        ] {
            assert_eq!(
                shape::<Goldilocks>(len, width).unwrap_err(),
                NttError::TooLarge {
                    log_size,
                    max_log_size: 32
                },
                "{len} / {width}"
            );
        }
        assert_eq!(
            shape::<Goldilocks>(usize::MAX, 1).unwrap_err(),
            NttError::HeightNotPowerOfTwo { height: usize::MAX }
        );
        // A 2^32-row matrix of any width is in range (as lengths).
        assert!(shape::<Goldilocks>(1 << 40, 1 << 8).is_ok());
    }

    /// LDE output lengths that overflow when shifted, or that no buffer can have, are errors.
    #[test]
    fn lde_outputs_beyond_the_address_space_are_refused() {
        let shape = Shape {
            width: 1 << 28,
            log_height: 28,
        };
        // 2^56 elements in: ×16 is 2^60 elements, 2^63 bytes, one more than isize::MAX.
        assert_eq!(
            check_lde::<Goldilocks>(1 << 56, shape, 4),
            Err(NttError::OutputTooLarge {
                len: 1 << 56,
                added_bits: 4
            })
        );
        assert_eq!(
            check_lde::<Goldilocks>(1 << 56, shape, 3),
            Ok(1 << 59),
            "2^62 bytes fit"
        );
        // Goldilocks2 elements are 16 bytes.
        assert_eq!(
            check_lde::<aurum_goldilocks::Goldilocks2>(1 << 56, shape, 3),
            Err(NttError::OutputTooLarge {
                len: 1 << 56,
                added_bits: 3
            })
        );
        // Element counts that overflow usize when shifted.
        for (len, added_bits) in [(1 << 61, 3), (1 << 63, 1), (usize::MAX, 1), (usize::MAX, 4)] {
            let err = check_lde::<Goldilocks>(len, shape, added_bits).unwrap_err();
            assert_eq!(err, NttError::OutputTooLarge { len, added_bits });
            assert!(err.to_string().contains(&len.to_string()), "{err}");
        }
    }
}
