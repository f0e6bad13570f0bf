//! The multi-pass path of the SIMD backends' `sum_deferred` (`DEFERRED_SUM_MAX_TERMS` is 3 in
//! unit tests), on every backend this CPU runs.

use crate::{Backend, Goldilocks, Kernel, P, PackedField, dispatch_on};

/// `sum_deferred` over 8-lane rows, on one backend.
struct SumDeferred<'a> {
    values: &'a [[Goldilocks; 8]],
}

impl Kernel for SumDeferred<'_> {
    type Output = [Goldilocks; 8];

    #[inline(always)]
    fn run<P: PackedField>(self) -> [Goldilocks; 8] {
        let mut out = [Goldilocks::ZERO; 8];
        for start in (0..8).step_by(P::WIDTH) {
            let vectors: Vec<P> = self
                .values
                .iter()
                .map(|v| P::load(&v[start..start + P::WIDTH]))
                .collect();
            P::sum_deferred(&vectors).store(&mut out[start..start + P::WIDTH]);
        }
        out
    }
}

/// More values than one carry-counting pass takes (`DEFERRED_SUM_MAX_TERMS` is 3 in unit
/// tests), on every backend this CPU runs, with values that carry on most additions.
#[test]
fn deferred_sums_longer_than_a_pass_equal_field_sums() {
    let lanes = [
        u64::MAX,
        P - 1,
        P,
        1 << 63,
        0,
        1,
        u64::MAX - 1,
        0xFFFF_FFFF_0000_0000,
    ];
    let values: Vec<[Goldilocks; 8]> = (0..37)
        .map(|i| core::array::from_fn(|l| Goldilocks::from_u64(lanes[(i + l) % 8])))
        .collect();
    let all_max = vec![[Goldilocks::from_u64(u64::MAX); 8]; 37];
    for backend in Backend::supported() {
        for values in [&values, &all_max] {
            for len in 0..=values.len() {
                let values = &values[..len];
                let expected: [Goldilocks; 8] = core::array::from_fn(|lane| {
                    values.iter().fold(Goldilocks::ZERO, |acc, v| acc + v[lane])
                });
                let got = dispatch_on(backend, SumDeferred { values }).unwrap();
                assert_eq!(got, expected, "{backend}: sum of {len} vectors");
            }
        }
    }
}
