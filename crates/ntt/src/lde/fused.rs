//! The fused coset LDE: three kinds of pass over memory instead of five.
//!
//! The plain LDE (in [`crate::Ntt`]'s `lde_base`) gathers the input into bit-reversed order,
//! runs the inverse transform's passes, then every coset block's forward passes, the first of
//! which reads the coefficients. Here, for a plan of at least two passes with a stripe pass on
//! top (see [`Plan`]):
//!
//! 1. **Head**: the inverse (DIT) passes except its last, the first of them loading its rows
//!    from the input in bit-reversed order (no separate gather; rows shorter than a cache
//!    line are gathered separately first, a row at a time would waste most of each line);
//! 2. **Middle** ([`tasks::fused_top_pass`]): the inverse's last pass and every coset
//!    block's first forward pass are the same stripe pass (the top layers), so one task does
//!    both while the rows are in cache: the coefficients are read from memory once and each
//!    coset block is written once;
//! 3. **Tail**: each coset block's remaining forward (DIF) passes.
//!
//! For a two-pass plan (most shapes) and blow-up 2 the matrix crosses memory 9 times (in
//! units of the input size) instead of 14: gather 2, inverse 4, forward 2 × 4.

use aurum_goldilocks::{Backend, Goldilocks};

use crate::bitrev;
use crate::butterflies::flow::Flow;
use crate::passes::plan::Plan;
use crate::passes::tasks;
use crate::scaling::Powers;
use crate::source::{Rows, Source};
use crate::twiddles::Twiddles;

/// Rows shorter than this many elements (one 64-byte cache line) are gathered into
/// bit-reversed order by a pass of their own rather than row by row in the first pass.
const MIN_GATHER_ROW: usize = 64;

/// The fused LDE. `coeffs` is the last block of the output and `others` the blocks before it;
/// `powers[k]` scales block `k`'s coefficients (`1/n` and its coset's shift). The input
/// evaluations are `input`, or (`None`) `others`' first block.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fused(
    others: &mut [Goldilocks],
    coeffs: &mut [Goldilocks],
    input: Option<&[Goldilocks]>,
    plan: &Plan,
    powers: &[Powers],
    inverse_twiddles: &Twiddles,
    forward_twiddles: &Twiddles,
    backend: Backend,
) {
    let (width, log_n) = (plan.width, plan.log_n);
    let block_len = coeffs.len();
    let passes = plan.in_flow_order(Flow::Dit);
    let (head, _top) = passes.split_at(passes.len() - 1);
    {
        let input = input.unwrap_or(&others[..block_len]);
        let source = if width >= MIN_GATHER_ROW {
            Source {
                rows: Rows::BitReversed {
                    src: input,
                    stride: width,
                    log_n,
                },
                powers: None,
            }
        } else {
            bitrev::gather_bit_reversed(input, coeffs, width, log_n);
            Source {
                rows: Rows::InPlace,
                powers: None,
            }
        };
        tasks::run_passes(
            coeffs,
            plan,
            head,
            inverse_twiddles,
            Flow::Dit,
            None,
            backend,
            Some(source),
        );
    }
    let (last_powers, other_powers) = powers.split_last().expect("at least two blocks");
    let cosets = others
        .chunks_exact_mut(block_len)
        .zip(other_powers)
        .collect();
    tasks::fused_top_pass(
        coeffs,
        cosets,
        last_powers,
        plan,
        inverse_twiddles,
        forward_twiddles,
        backend,
    );
    let tail = &plan.passes[1..];
    for block in others.chunks_exact_mut(block_len).chain([coeffs]) {
        tasks::run_passes(
            block,
            plan,
            tail,
            forward_twiddles,
            Flow::Dif,
            None,
            backend,
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Domain;
    use crate::lde::reference::plain;
    use crate::passes::tasks::tests::random;
    use crate::twiddles::twiddles;

    /// The fused passes equal the plain LDE for every plan shape (narrow and wide, two to many
    /// passes), every blow-up, on every backend, with the input given separately or in the
    /// first block, and rows short enough to be gathered by a pass of their own.
    #[test]
    fn fused_lde_equals_the_plain_one() {
        let domain = Domain::PLONKY3;
        for backend in Backend::supported() {
            for (log_n, width) in [
                (6, 4),
                (7, 8),
                (6, 9),
                (5, 64),
                (4, 256),
                (5, 300),
                (3, 520),
            ] {
                let inv = twiddles(domain.generator(), true, log_n).unwrap();
                let fwd = twiddles(domain.generator(), false, log_n).unwrap();
                let input = random(width << log_n, (log_n * 131 + width) as u64);
                for added_bits in 1..=3 {
                    let powers: Vec<Powers> = (0..1u64 << added_bits)
                        .map(|k| {
                            Powers::new(
                                Goldilocks::from_u64(5 + k),
                                Goldilocks::from_u64(7 + 3 * k),
                                log_n,
                            )
                        })
                        .collect();
                    let expected = plain(&input, width, log_n, &powers);
                    for working_set in [1, 16, 64, 256, 1024, 4096] {
                        let plan = Plan::new(width, log_n, working_set);
                        if plan.passes.len() < 2 {
                            continue;
                        }
                        let block_len = input.len();
                        for separate in [true, false] {
                            let mut out = vec![Goldilocks::ZERO; block_len << added_bits];
                            if !separate {
                                out[..block_len].copy_from_slice(&input);
                            }
                            let split = out.len() - block_len;
                            let (others, coeffs) = out.split_at_mut(split);
                            fused(
                                others,
                                coeffs,
                                separate.then_some(&input[..]),
                                &plan,
                                &powers,
                                &inv,
                                &fwd,
                                backend,
                            );
                            assert_eq!(
                                out, expected,
                                "{backend} 2^{log_n}x{width} +{added_bits} ws {working_set} \
                                 separate {separate}"
                            );
                        }
                    }
                }
            }
        }
    }
}
