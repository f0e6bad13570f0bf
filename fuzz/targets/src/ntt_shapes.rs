//! Every `aurum-ntt` entry point with arbitrary buffer lengths, widths, orders, blow-ups and
//! shifts (buffers stay small; the sizes claimed may be anything): a typed error or a result
//! of the right length, never a panic. Successful transforms are checked by a round trip.

use arbitrary::Arbitrary;
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_ntt::{Ntt, Order};

#[derive(Arbitrary, Debug)]
pub struct Input {
    len: u16,
    width: usize,
    added_bits: usize,
    shift: u64,
    extension: bool,
    bit_reversed: bool,
    out_len: u16,
    plonky2: bool,
}

fn run_on<E: aurum_ntt::NttElement + PartialEq + core::fmt::Debug>(
    input: &Input,
    make: impl Fn(u64) -> E,
) {
    let ntt = if input.plonky2 {
        Ntt::plonky2()
    } else {
        Ntt::plonky3()
    };
    let order = if input.bit_reversed {
        Order::BitReversed
    } else {
        Order::Natural
    };
    let len = usize::from(input.len) % 4096;
    let values: Vec<E> = (0..len as u64).map(|i| make(i * 7 + 1)).collect();
    let width = input.width;
    let shift = Goldilocks::from_u64(input.shift);

    let mut v = values.clone();
    if ntt.forward(&mut v, width, order).is_ok() {
        ntt.inverse(&mut v, width, order).unwrap();
        assert_eq!(v, values);
    }
    let mut v = values.clone();
    if ntt.coset_forward(&mut v, width, shift, order).is_ok() {
        ntt.coset_inverse(&mut v, width, shift, order).unwrap();
        assert_eq!(v, values);
    }
    let mut v = values.clone();
    let _ = ntt.coset_inverse(&mut v, width, shift, order);
    if let Ok(lde) = ntt.coset_lde(&values, width, input.added_bits, shift, order) {
        assert_eq!(lde.len(), values.len() << input.added_bits);
        let vec = ntt
            .coset_lde_vec(values.clone(), width, input.added_bits, shift, order)
            .unwrap();
        assert_eq!(vec, lde);
    } else {
        assert!(
            ntt.coset_lde_vec(values.clone(), width, input.added_bits, shift, order)
                .is_err()
        );
    }
    let mut out: Vec<E> = (0..usize::from(input.out_len) % 65536)
        .map(|_| make(0))
        .collect();
    let _ = ntt.coset_lde_into(&values, width, input.added_bits, shift, &mut out, order);
    let mut v = values.clone();
    let _ = ntt.bit_reverse_rows(&mut v, width);
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(input: Input) {
    if input.extension {
        run_on(&input, |i| {
            Goldilocks2::new(Goldilocks::from_u64(i), Goldilocks::from_u64(!i))
        });
    } else {
        run_on(&input, Goldilocks::from_u64);
    }
}
