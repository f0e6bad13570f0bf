//! The natural-order coset LDE without a permutation pass ([`natural`]).

use aurum_goldilocks::{Backend, Goldilocks};

use crate::butterflies::flow::Flow;
use crate::error::NttError;
use crate::narrow;
use crate::passes::{plan, tasks};
use crate::scaling::Powers;
use crate::source::{Rows, Source};
use crate::twiddles::Twiddles;

/// The natural-order LDE without a permutation pass.
///
/// Natural order puts the LDE's point `i + 2^a·j` at row `i + 2^a·j`, and that point is
/// `shift·g^i·ω^j`: row `j` of coset `i`'s natural-order evaluations. So the output, read as
/// a `2^log_n × 2^a·width` matrix, holds coset `i` in its `i`-th block of columns, and the
/// forward transforms of all cosets are one batched transform of that matrix. Its input,
/// bit-reversed as a DIT wants it, is exactly what an inverse DIF leaves: the coefficients in
/// bit-reversed order. So: inverse DIF of `coefficients` (which holds the input evaluations,
/// or receives them from `input` in its first pass), then a DIT of `out` whose first pass
/// loads each row from the coefficients, scaled per coset by `powers` (natural coset order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn natural(
    out: &mut [Goldilocks],
    coefficients: &mut [Goldilocks],
    input: Option<&[Goldilocks]>,
    width: usize,
    log_n: usize,
    powers: &[Powers],
    inverse_twiddles: &Twiddles,
    forward_twiddles: &Twiddles,
    backend: Backend,
) -> Result<(), NttError> {
    natural_with(
        out,
        coefficients,
        input,
        width,
        log_n,
        powers,
        inverse_twiddles,
        forward_twiddles,
        backend,
        plan::WORKING_SET,
    )
}

/// [`natural`] with the forward transform planned for `working_set` (tests shrink it).
#[allow(clippy::too_many_arguments)]
fn natural_with(
    out: &mut [Goldilocks],
    coefficients: &mut [Goldilocks],
    input: Option<&[Goldilocks]>,
    width: usize,
    log_n: usize,
    powers: &[Powers],
    inverse_twiddles: &Twiddles,
    forward_twiddles: &Twiddles,
    backend: Backend,
    working_set: usize,
) -> Result<(), NttError> {
    interpolate_bit_reversed(coefficients, input, width, log_n, inverse_twiddles, backend)?;
    let cosets = Source {
        rows: Rows::Cosets {
            coefficients,
            width,
            powers,
            log_n,
        },
        powers: None,
    };
    tasks::transform_with(
        out,
        width * powers.len(),
        log_n,
        forward_twiddles,
        Flow::Dit,
        None,
        backend,
        working_set,
        Some(cosets),
    );
    Ok(())
}

/// The natural-order LDE of outputs narrower than a vector (`2^a · width < lanes`, e.g. one
/// column), where [`natural`]'s batched transform would leave lanes empty: one forward DIT of
/// the whole domain `shift·H'` instead.
///
/// That transform's bit-reversed input is the zero-padded coefficients in the larger domain's
/// bit-reversed order: coefficient `j < n` sits at row `rev(j)·2^a` (`rev` over `log_n`
/// bits), every other row is zero. The inverse DIF leaves exactly the coefficients in
/// `log_n`-bit bit-reversed order, so the DIT's first pass spreads them out, scaled by
/// `powers` (`c·shift^j` in bit-reversed order, [`Powers::bit_reversed`]); no permutation pass
/// runs and the output is in natural order. `forward_twiddles` are the larger domain's.
#[allow(clippy::too_many_arguments)]
pub(crate) fn spread(
    out: &mut [Goldilocks],
    coefficients: &mut [Goldilocks],
    input: Option<&[Goldilocks]>,
    width: usize,
    log_n: usize,
    added_bits: usize,
    powers: &Powers,
    inverse_twiddles: &Twiddles,
    forward_twiddles: &Twiddles,
    backend: Backend,
) -> Result<(), NttError> {
    interpolate_bit_reversed(coefficients, input, width, log_n, inverse_twiddles, backend)?;
    let spread = Source {
        rows: Rows::Spread {
            coefficients,
            width,
            added_bits,
            powers,
        },
        powers: None,
    };
    narrow::transform(
        out,
        width,
        log_n + added_bits,
        forward_twiddles,
        Flow::Dit,
        None,
        backend,
        Some(spread),
    )
}

/// The inverse DIF both ways start with: `coefficients` (holding the input evaluations, or
/// receiving them from `input` in the first pass) become the coefficients in bit-reversed
/// order, not yet scaled by `1/n` (the callers' powers carry it).
fn interpolate_bit_reversed(
    coefficients: &mut [Goldilocks],
    input: Option<&[Goldilocks]>,
    width: usize,
    log_n: usize,
    inverse_twiddles: &Twiddles,
    backend: Backend,
) -> Result<(), NttError> {
    let source = input.map(|src| Source {
        rows: Rows::Copy { src, stride: width },
        powers: None,
    });
    narrow::transform(
        coefficients,
        width,
        log_n,
        inverse_twiddles,
        Flow::Dif,
        None,
        backend,
        source,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Domain;
    use crate::bitrev;
    use crate::lde::reference::plain;
    use crate::passes::tasks::tests::random;
    use crate::twiddles::twiddles;

    /// The natural-order LDE as one transform of all cosets equals the plain LDE's blocks
    /// interleaved row by row (block `k` is coset `rev(k)`, bit-reversed inside), for narrow
    /// and wide outputs, several blow-ups and plans, input given or already in place.
    #[test]
    fn natural_lde_equals_the_plain_one_in_natural_order() {
        let domain = Domain::PLONKY3;
        for backend in Backend::supported() {
            for (log_n, width) in [(1, 2), (6, 4), (7, 8), (5, 9), (4, 128), (5, 300)] {
                let inv = twiddles(domain.generator(), true, log_n).unwrap();
                let fwd = twiddles(domain.generator(), false, log_n).unwrap();
                let input = random(width << log_n, (log_n * 17 + width) as u64);
                for added_bits in 1..=3 {
                    let cosets = 1usize << added_bits;
                    let powers: Vec<Powers> = (0..cosets as u64)
                        .map(|c| {
                            Powers::new(
                                Goldilocks::from_u64(3 + c),
                                Goldilocks::from_u64(11 + 5 * c),
                                log_n,
                            )
                        })
                        .collect();
                    let blocks = plain(&input, width, log_n, &powers);
                    // Row i + 2^a·j of the natural LDE is row rev(j) of coset i's block.
                    let n = 1usize << log_n;
                    let mut expected = vec![Goldilocks::ZERO; blocks.len()];
                    for j in 0..n {
                        for i in 0..cosets {
                            let src = (i * n + bitrev::reverse_bits(j, log_n)) * width;
                            let dst = (i + cosets * j) * width;
                            expected[dst..dst + width].copy_from_slice(&blocks[src..src + width]);
                        }
                    }
                    for working_set in [1, 64, 1024, plan::WORKING_SET] {
                        for given in [true, false] {
                            let mut out = vec![Goldilocks::ZERO; blocks.len()];
                            let mut coefficients = if given {
                                vec![Goldilocks::ZERO; input.len()]
                            } else {
                                input.clone()
                            };
                            natural_with(
                                &mut out,
                                &mut coefficients,
                                given.then_some(&input[..]),
                                width,
                                log_n,
                                &powers,
                                &inv,
                                &fwd,
                                backend,
                                working_set,
                            )
                            .unwrap();
                            assert_eq!(
                                out, expected,
                                "{backend} 2^{log_n}x{width} +{added_bits} ws {working_set} \
                                 given {given}"
                            );
                        }
                    }
                }
            }
        }
    }
}
