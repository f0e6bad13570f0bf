//! The coset LDE computed one step at a time, the reference of the fused and natural LDEs'
//! tests.

use aurum_goldilocks::{Backend, Goldilocks};

use crate::Domain;
use crate::bitrev;
use crate::butterflies::flow::Flow;
use crate::passes::tasks;
use crate::scaling::Powers;
use crate::source::{Rows, Source};
use crate::twiddles::twiddles;

/// The LDE computed one step at a time on the scalar backend, every transform a single
/// block: gather, inverse DIT, then each block's DIF from its scaled copy.
pub(crate) fn plain(
    input: &[Goldilocks],
    width: usize,
    log_n: usize,
    powers: &[Powers],
) -> Vec<Goldilocks> {
    let domain = Domain::PLONKY3;
    let inv = twiddles(domain.generator(), true, log_n).unwrap();
    let fwd = twiddles(domain.generator(), false, log_n).unwrap();
    let mut coeffs = vec![Goldilocks::ZERO; input.len()];
    bitrev::gather_bit_reversed(input, &mut coeffs, width, log_n);
    let single = |values: &mut [Goldilocks], tw, flow, source| {
        tasks::transform_with(
            values,
            width,
            log_n,
            tw,
            flow,
            None,
            Backend::Scalar,
            usize::MAX,
            source,
        );
    };
    single(&mut coeffs, &inv, Flow::Dit, None);
    let mut out = Vec::new();
    for p in powers {
        let mut block = vec![Goldilocks::ZERO; input.len()];
        let source = Source {
            rows: Rows::Copy {
                src: &coeffs,
                stride: width,
            },
            powers: Some(p),
        };
        single(&mut block, &fwd, Flow::Dif, Some(source));
        out.extend(block);
    }
    out
}
