//! `permute_many`: the runtime-dispatched, rayon-parallel bulk permutation.

use aurum_goldilocks::{Goldilocks, Kernel, PackedField, backend};
use rayon::prelude::*;

use crate::batch::{BatchedKernel, run_batched};
use crate::lanes::{pack_states, unpack_states};
use crate::permutation::{Permutation, StateKernel};

/// Below this many states `permute_many` stays on the calling thread.
pub const PERMUTE_MANY_PARALLEL_THRESHOLD: usize = 512;
/// States per rayon task (a multiple of every backend's `WIDTH · B`).
const CHUNK_STATES: usize = 256;

/// Permutes `states` on one thread with packed type `P` (see [`permute_many`]): a [`Kernel`]
/// to run the packed form on a chosen backend (`dispatch_on`), at a chosen batch size.
#[derive(Debug)]
pub struct PermuteMany<'a, Perm, const W: usize> {
    /// The permutation.
    pub perm: &'a Perm,
    /// The states, permuted in place.
    pub states: &'a mut [[Goldilocks; W]],
    /// Batch size to use instead of the permutation's own choice (benchmarks compare them).
    pub batch: Option<usize>,
}

impl<Perm: Permutation<W>, const W: usize> Kernel for PermuteMany<'_, Perm, W> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField>(self) {
        let Self {
            perm,
            states,
            batch,
        } = self;
        let batch = batch.unwrap_or_else(|| perm.batch_size(P::BACKEND));
        run_batched(P::BACKEND, batch, PermuteBatches { perm, states });
    }
}

/// The packed form on `states`, `B` packed states at a time.
pub(crate) struct PermuteBatches<'a, Perm, const W: usize> {
    pub(crate) perm: &'a Perm,
    pub(crate) states: &'a mut [[Goldilocks; W]],
}

impl<Perm: Permutation<W>, const W: usize> BatchedKernel for PermuteBatches<'_, Perm, W> {
    type Output = ();

    #[inline(always)]
    fn run<P: PackedField, const B: usize>(self) {
        permute_in_batches::<P, Perm, W, B>(self.perm, self.states);
    }
}

/// Packs `B · WIDTH` states at a time into lanes and runs the batched permutation; the last
/// partial group goes through one packed state at a time, its missing lanes zero-filled.
#[inline(always)]
fn permute_in_batches<P: PackedField, Perm: Permutation<W>, const W: usize, const B: usize>(
    perm: &Perm,
    states: &mut [[Goldilocks; W]],
) {
    let mut groups = states.chunks_exact_mut(P::WIDTH * B);
    for group in &mut groups {
        let mut packed = [[P::ZERO; W]; B];
        for (b, p) in packed.iter_mut().enumerate() {
            *p = pack_states::<P, W>(&group[b * P::WIDTH..(b + 1) * P::WIDTH]);
        }
        perm.permute_batch::<P, B>(&mut packed);
        for (b, p) in packed.iter().enumerate() {
            unpack_states(p, &mut group[b * P::WIDTH..(b + 1) * P::WIDTH]);
        }
    }
    for tail in groups.into_remainder().chunks_mut(P::WIDTH) {
        let mut packed = [[P::ZERO; W]; 1];
        for (lane, state) in tail.iter().enumerate() {
            for (p, x) in packed[0].iter_mut().zip(state) {
                p.as_slice_mut()[lane] = *x;
            }
        }
        perm.permute_batch::<P, 1>(&mut packed);
        for (i, p) in packed[0].iter().enumerate() {
            for (state, x) in tail.iter_mut().zip(p.as_slice()) {
                state[i] = *x;
            }
        }
    }
}

/// Permutes every state in place: states are packed into the lanes of the backend selected at
/// run time (fast without RUSTFLAGS), grouped by the permutation's preferred batch size, and
/// spread over rayon's threads above [`PERMUTE_MANY_PARALLEL_THRESHOLD`] states.
///
/// Where the permutation has a whole-permutation kernel for the selected backend (SVE, see
/// [`Permutation::state_kernel`]), each chunk runs that instead.
pub fn permute_many<Perm: Permutation<W>, const W: usize>(
    perm: &Perm,
    states: &mut [[Goldilocks; W]],
) {
    let backend = backend();
    match perm.state_kernel(backend) {
        Some(kernel) => in_chunks(states, |states| kernel.permute_states(states)),
        None => {
            let batch = perm.batch_size(backend);
            in_chunks(states, |states| {
                run_batched(backend, batch, PermuteBatches { perm, states });
            });
        }
    }
}

/// Runs `run` on all `states` on this thread, or on chunks of them over rayon's threads above
/// [`PERMUTE_MANY_PARALLEL_THRESHOLD`] states.
fn in_chunks<const W: usize>(
    states: &mut [[Goldilocks; W]],
    run: impl Fn(&mut [[Goldilocks; W]]) + Send + Sync,
) {
    if states.len() < PERMUTE_MANY_PARALLEL_THRESHOLD {
        run(states);
    } else {
        states.par_chunks_mut(CHUNK_STATES).for_each(run);
    }
}
