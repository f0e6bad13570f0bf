//! `pack_states` / `unpack_states`: a round trip through the lanes of every backend this CPU
//! runs, and a clear panic (in release builds too) for a slice that is not `P::WIDTH` states.

use aurum_goldilocks::{Backend, Goldilocks, Kernel, PackedField, dispatch, dispatch_on};
use aurum_symmetric::{pack_states, unpack_states};

type State = [Goldilocks; 3];

fn states(n: usize) -> Vec<State> {
    (0..n as u64)
        .map(|i| core::array::from_fn(|j| Goldilocks::from_u64(100 * i + j as u64)))
        .collect()
}

/// Packs `P::WIDTH` states, checks every lane, unpacks into fresh states.
struct RoundTrip;

impl Kernel for RoundTrip {
    type Output = (Vec<State>, Vec<State>);

    #[inline(always)]
    fn run<P: PackedField>(self) -> Self::Output {
        let input = states(P::WIDTH);
        let packed = pack_states::<P, 3>(&input);
        for (i, p) in packed.iter().enumerate() {
            for (lane, x) in p.as_slice().iter().enumerate() {
                assert_eq!(*x, input[lane][i], "{:?} word {i} lane {lane}", P::BACKEND);
            }
        }
        let mut output = vec![[Goldilocks::ONE; 3]; P::WIDTH];
        unpack_states(&packed, &mut output);
        (input, output)
    }
}

#[test]
fn pack_then_unpack_round_trips_on_every_backend() {
    for backend in Backend::supported() {
        let (input, output) = dispatch_on(backend, RoundTrip).unwrap();
        assert_eq!(output, input, "{backend}");
    }
}

/// Packs `count` states with the dispatched backend's packed type.
struct PackCount(usize);

impl Kernel for PackCount {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let _ = pack_states::<P, 3>(&states(self.0));
    }
}

/// Unpacks one packed state into `count` states.
struct UnpackCount(usize);

impl Kernel for UnpackCount {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let mut out = vec![[Goldilocks::ZERO; 3]; self.0];
        unpack_states(&[P::ONE; 3], &mut out);
    }
}

#[test]
#[should_panic(expected = "pack_states: need exactly P::WIDTH = 1 states")]
fn pack_states_rejects_too_few_states() {
    let _ = pack_states::<Goldilocks, 3>(&[]);
}

#[test]
#[should_panic(expected = "pack_states: need exactly P::WIDTH")]
fn pack_states_rejects_too_few_states_for_the_dispatched_backend() {
    let width = aurum_goldilocks::backend().lanes();
    dispatch(PackCount(width - 1));
}

#[test]
#[should_panic(expected = "pack_states: need exactly P::WIDTH")]
fn pack_states_rejects_too_many_states() {
    let width = aurum_goldilocks::backend().lanes();
    dispatch(PackCount(width + 1));
}

#[test]
#[should_panic(expected = "unpack_states: need exactly P::WIDTH")]
fn unpack_states_rejects_too_many_states() {
    let width = aurum_goldilocks::backend().lanes();
    dispatch(UnpackCount(width + 1));
}

#[test]
#[should_panic(expected = "unpack_states: need exactly P::WIDTH")]
fn unpack_states_rejects_too_few_states() {
    let width = aurum_goldilocks::backend().lanes();
    dispatch(UnpackCount(width - 1));
}
