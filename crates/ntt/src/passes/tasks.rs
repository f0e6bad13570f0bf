//! Runs the passes of a [`Plan`]: each pass cut into independent rayon tasks (disjoint `&mut`
//! sub-slices built with `chunks_exact_mut`), each task a pass kernel entered through runtime
//! dispatch; and the parallel row loads and scalings outside transforms.

use aurum_goldilocks::{Backend, Goldilocks, Kernel, in_own_frame};
use rayon::prelude::*;

use crate::butterflies::flow::Flow;
use crate::passes::block::BlockPass;
use crate::passes::plan::{Pass, Plan, WORKING_SET};
use crate::passes::stripe::{FusedTopPass, StripeLayers, StripePass};
use crate::scaling::{Powers, ScaleRows};
use crate::source::Source;
use crate::twiddles::Twiddles;

/// Below this many elements a transform runs on the calling thread.
const PARALLEL_THRESHOLD: usize = 1 << 14;

/// The transform (DIF or DIT) of every column of a row-major `2^log_n × width` matrix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn transform(
    values: &mut [Goldilocks],
    width: usize,
    log_n: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    source: Option<Source<'_>>,
) {
    transform_with(
        values,
        width,
        log_n,
        twiddles,
        flow,
        scale,
        backend,
        WORKING_SET,
        source,
    );
}

/// [`transform`] with a given working-set size (elements); tests shrink it to exercise
/// many passes on small matrices.
#[allow(clippy::too_many_arguments)]
pub(crate) fn transform_with(
    values: &mut [Goldilocks],
    width: usize,
    log_n: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    working_set: usize,
    source: Option<Source<'_>>,
) {
    // The shape is derived from the buffer and checked at every public entry (`shape`), so
    // this holds for any caller input; it guards the crate's own calls.
    debug_assert_eq!(values.len(), width << log_n);
    let plan = Plan::new(width, log_n, working_set);
    let passes = plan.in_flow_order(flow);
    run_passes(
        values, &plan, &passes, twiddles, flow, scale, backend, source,
    );
}

/// Runs `passes` of `plan` in the given order; the first one executed applies `scale` and
/// loads its rows from `source`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_passes(
    values: &mut [Goldilocks],
    plan: &Plan,
    passes: &[Pass],
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    source: Option<Source<'_>>,
) {
    let parallel = values.len() >= PARALLEL_THRESHOLD;
    let (mut scale, mut source) = (scale, source);
    for &pass in passes {
        match pass {
            Pass::Block { log_block } => block_pass(
                values,
                plan.width,
                log_block,
                twiddles,
                flow,
                scale.take(),
                backend,
                parallel,
                source.take(),
            ),
            Pass::Stripe { log_unit, r } => {
                let (scale, source) = (scale.take(), source.take());
                let tasks: Vec<StripePass<'_>> = stripe_tasks(values, plan, log_unit, r)
                    .into_iter()
                    .map(|task| StripePass {
                        layers: StripeLayers {
                            width: task.columns,
                            rows: plan.rows.min(1 << log_unit),
                            t0: task.t0,
                            log_unit,
                            twiddles,
                            flow,
                        },
                        stripes: task.stripes,
                        scale,
                        source,
                        row0: task.row0,
                        col0: task.col0,
                    })
                    .collect();
                run_tasks(tasks, parallel, backend);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn block_pass(
    values: &mut [Goldilocks],
    width: usize,
    log_block: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    parallel: bool,
    source: Option<Source<'_>>,
) {
    let block_len = width << log_block;
    let kernel = |values, row0| BlockPass {
        values,
        width,
        log_block,
        twiddles,
        flow,
        scale,
        source,
        row0,
    };
    if parallel && values.len() > block_len {
        values
            .par_chunks_mut(block_len)
            .enumerate()
            .for_each(|(k, block)| in_own_frame(backend, kernel(block, k << log_block)));
    } else {
        in_own_frame(backend, kernel(values, 0));
    }
}

/// The stripes of one stripe-pass task.
struct StripeTask<'a> {
    stripes: Vec<&'a mut [Goldilocks]>,
    /// Columns in each stripe row.
    columns: usize,
    /// Offset of the task's first row inside its stripe (`t0` of [`StripeLayers`]).
    t0: usize,
    /// Matrix row of stripe 0's first row.
    row0: usize,
    /// Matrix column of the stripe rows' first element.
    col0: usize,
}

/// The tasks of the stripe pass with spans `2^log_unit … 2^(log_unit + r − 1)`, always in the
/// same order for the same plan (the fused LDE pairs the tasks of several blocks by it). Tasks
/// own disjoint `&mut` sub-slices.
fn stripe_tasks<'a>(
    values: &'a mut [Goldilocks],
    plan: &Plan,
    log_unit: usize,
    r: usize,
) -> Vec<StripeTask<'a>> {
    let width = plan.width;
    let unit = 1usize << log_unit;
    let rows = plan.rows.min(unit);
    let group_len = width << (log_unit + r);
    let mut tasks = Vec::new();
    for (group_index, group) in values.chunks_exact_mut(group_len).enumerate() {
        let mut runs: Vec<_> = group
            .chunks_exact_mut(unit * width)
            .map(|stripe| stripe.chunks_exact_mut(rows * width))
            .collect();
        for g in 0..unit / rows {
            let stripes: Vec<&mut [Goldilocks]> = runs
                .iter_mut()
                .map(|run| run.next().expect("each stripe has unit / rows runs"))
                .collect();
            let row0 = (group_index << (log_unit + r)) + g * rows;
            let t0 = g * rows;
            if plan.columns >= width {
                tasks.push(StripeTask {
                    stripes,
                    columns: width,
                    t0,
                    row0,
                    col0: 0,
                });
                continue;
            }
            // Wide rows (one row per run): each column range is a task of its own.
            debug_assert_eq!(rows, 1);
            let mut pieces: Vec<_> = stripes
                .into_iter()
                .map(|stripe| stripe.chunks_mut(plan.columns))
                .collect();
            for col0 in (0..width).step_by(plan.columns) {
                let stripes: Vec<&mut [Goldilocks]> = pieces
                    .iter_mut()
                    .map(|p| p.next().expect("each row has the same column ranges"))
                    .collect();
                tasks.push(StripeTask {
                    columns: stripes[0].len(),
                    stripes,
                    t0,
                    row0,
                    col0,
                });
            }
        }
    }
    tasks
}

/// The middle pass of a fused coset LDE (see [`FusedTopPass`]): the top pass of `plan` as
/// the inverse's last pass over `coefficients`, then as each coset block's first forward pass.
/// `cosets` are the other blocks (same shape as `coefficients`) with their scalings.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fused_top_pass(
    coefficients: &mut [Goldilocks],
    cosets: Vec<(&mut [Goldilocks], &Powers)>,
    last_powers: &Powers,
    plan: &Plan,
    inverse_twiddles: &Twiddles,
    forward_twiddles: &Twiddles,
    backend: Backend,
) {
    let Some(&Pass::Stripe { log_unit, r }) = plan.passes.first() else {
        unreachable!("a fused LDE is planned only with a stripe pass on top");
    };
    let rows = plan.rows.min(1 << log_unit);
    let parallel = coefficients.len() >= PARALLEL_THRESHOLD;
    let mut coset_tasks: Vec<_> = cosets
        .into_iter()
        .map(|(block, powers)| (stripe_tasks(block, plan, log_unit, r).into_iter(), powers))
        .collect();
    let tasks: Vec<FusedTopPass<'_>> = stripe_tasks(coefficients, plan, log_unit, r)
        .into_iter()
        .map(|task| {
            let inverse = StripeLayers {
                width: task.columns,
                rows,
                t0: task.t0,
                log_unit,
                twiddles: inverse_twiddles,
                flow: Flow::Dit,
            };
            let cosets = coset_tasks
                .iter_mut()
                .map(|(tasks, powers)| {
                    let twin = tasks.next().expect("every block has the same tasks");
                    (twin.stripes, *powers)
                })
                .collect();
            FusedTopPass {
                coefficients: task.stripes,
                cosets,
                last_powers,
                forward: StripeLayers {
                    twiddles: forward_twiddles,
                    flow: Flow::Dif,
                    ..inverse
                },
                inverse,
                row0: task.row0,
            }
        })
        .collect();
    run_tasks(tasks, parallel, backend);
}

/// Runs the tasks of a pass, each a kernel entered on `backend`, on rayon's threads when
/// `parallel`.
fn run_tasks<K: Kernel<Output = ()> + Send>(tasks: Vec<K>, parallel: bool, backend: Backend) {
    if parallel {
        tasks
            .into_par_iter()
            .for_each(|task| in_own_frame(backend, task));
    } else {
        tasks
            .into_iter()
            .for_each(|task| in_own_frame(backend, task));
    }
}

/// `values` = the source rows, scaled (when the transform cannot fuse the load).
pub(crate) fn load(values: &mut [Goldilocks], width: usize, source: Source<'_>, backend: Backend) {
    struct Load<'a> {
        dst: &'a mut [Goldilocks],
        width: usize,
        row0: usize,
        source: Source<'a>,
    }
    impl Kernel for Load<'_> {
        type Output = ();
        #[inline(always)]
        fn run<P: aurum_goldilocks::PackedField>(self) {
            self.source
                .load_rows::<P>(self.dst, self.width, self.row0, 0);
        }
    }
    let rows_per_chunk = (SCALE_CHUNK / width).max(1);
    values
        .par_chunks_mut(rows_per_chunk * width)
        .enumerate()
        .for_each(|(k, dst)| {
            in_own_frame(
                backend,
                Load {
                    dst,
                    width,
                    row0: k * rows_per_chunk,
                    source,
                },
            );
        });
}

/// Rows per parallel scaling task (in elements).
const SCALE_CHUNK: usize = 1 << 13;

/// `dst[row j] = src[row j] · c·s^j` (in place when `src` is `None`), parallel over rows.
pub(crate) fn scale_rows(
    dst: &mut [Goldilocks],
    src: Option<&[Goldilocks]>,
    width: usize,
    c: Goldilocks,
    s: Goldilocks,
    backend: Backend,
) {
    let rows_per_chunk = (SCALE_CHUNK / width).max(1);
    let chunk = rows_per_chunk * width;
    let first = |k: usize| c * s.exp_u64((k * rows_per_chunk) as u64);
    match src {
        Some(src) => dst
            .par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .enumerate()
            .for_each(|(k, (dst, src))| {
                in_own_frame(
                    backend,
                    ScaleRows {
                        dst,
                        src: Some(src),
                        width,
                        first: first(k),
                        ratio: s,
                    },
                );
            }),
        None => dst.par_chunks_mut(chunk).enumerate().for_each(|(k, dst)| {
            in_own_frame(
                backend,
                ScaleRows {
                    dst,
                    src: None,
                    width,
                    first: first(k),
                    ratio: s,
                },
            );
        }),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::source::Rows;
    use crate::twiddles::twiddles;

    /// Pseudo-random field elements (xorshift), shared by the crate's unit tests.
    pub(crate) fn random(len: usize, seed: u64) -> Vec<Goldilocks> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Goldilocks::from_u64(x)
            })
            .collect()
    }

    /// Many stripe passes (tiny working sets) give the same result as one block pass, for
    /// both flows, with and without a scale, on every backend.
    #[test]
    fn multi_pass_schedules_equal_single_block() {
        let domain = crate::Domain::PLONKY3;
        for backend in Backend::supported() {
            // Widths of 1, 2 and 4 vectors on every backend take the fixed-row kernels.
            for (log_n, width) in [
                (10, 1),
                (9, 3),
                (9, 4),
                (8, 8),
                (7, 16),
                (7, 32),
                (7, 17),
                (11, 2),
                (6, 64),
                (5, 256),
                (6, 300),
                (3, 520),
            ] {
                let tw = twiddles(domain.generator(), false, log_n).unwrap();
                for flow in [Flow::Dif, Flow::Dit] {
                    for scale in [None, Some(Goldilocks::from_u64(12345))] {
                        let input = random(width << log_n, (log_n * 31 + width) as u64);
                        let mut expected = input.clone();
                        transform_with(
                            &mut expected,
                            width,
                            log_n,
                            &tw,
                            flow,
                            scale,
                            Backend::Scalar,
                            usize::MAX,
                            None,
                        );
                        for working_set in [1, 16, 64, 256, 1024, 4096, WORKING_SET] {
                            let mut values = input.clone();
                            transform_with(
                                &mut values,
                                width,
                                log_n,
                                &tw,
                                flow,
                                scale,
                                backend,
                                working_set,
                                None,
                            );
                            assert_eq!(
                                values, expected,
                                "{backend} 2^{log_n}x{width} {flow:?} {scale:?} ws {working_set}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A DIF whose first pass loads scaled rows from a source equals scaling, then the DIF.
    #[test]
    fn fused_source_load_equals_separate_scaling() {
        use crate::scaling::Powers;
        let domain = crate::Domain::PLONKY3;
        let (c, s) = (Goldilocks::from_u64(3), Goldilocks::from_u64(0x1234_5678));
        for backend in Backend::supported() {
            for (log_n, width) in [
                (0, 1),
                (3, 2),
                (10, 1),
                (9, 3),
                (8, 8),
                (7, 17),
                (5, 256),
                (4, 300),
            ] {
                let tw = twiddles(domain.generator(), false, log_n).unwrap();
                let src = random(width << log_n, 99 + log_n as u64);
                let mut expected = vec![Goldilocks::ZERO; src.len()];
                scale_rows(&mut expected, Some(&src), width, c, s, Backend::Scalar);
                transform_with(
                    &mut expected,
                    width,
                    log_n,
                    &tw,
                    Flow::Dif,
                    None,
                    Backend::Scalar,
                    usize::MAX,
                    None,
                );
                let powers = Powers::new(c, s, log_n);
                for working_set in [1, 64, 1024, 4096, WORKING_SET] {
                    let mut values = vec![Goldilocks::ZERO; src.len()];
                    let source = Source {
                        rows: Rows::Copy {
                            src: &src,
                            stride: width,
                        },
                        powers: Some(&powers),
                    };
                    transform_with(
                        &mut values,
                        width,
                        log_n,
                        &tw,
                        Flow::Dif,
                        None,
                        backend,
                        working_set,
                        Some(source),
                    );
                    assert_eq!(
                        values, expected,
                        "{backend} 2^{log_n}x{width} ws {working_set}"
                    );
                    // In place: the rows are scaled where they are.
                    let mut values = src.clone();
                    let in_place = Source {
                        rows: Rows::InPlace,
                        powers: Some(&powers),
                    };
                    transform_with(
                        &mut values,
                        width,
                        log_n,
                        &tw,
                        Flow::Dif,
                        None,
                        backend,
                        working_set,
                        Some(in_place),
                    );
                    assert_eq!(
                        values, expected,
                        "{backend} in place 2^{log_n}x{width} ws {working_set}"
                    );
                }
                let mut values = vec![Goldilocks::ZERO; src.len()];
                load(
                    &mut values,
                    width,
                    Source {
                        rows: Rows::Copy {
                            src: &src,
                            stride: width,
                        },
                        powers: Some(&powers),
                    },
                    backend,
                );
                let mut scaled = vec![Goldilocks::ZERO; src.len()];
                scale_rows(&mut scaled, Some(&src), width, c, s, Backend::Scalar);
                assert_eq!(values, scaled, "{backend} load 2^{log_n}x{width}");
            }
        }
    }

    /// A DIT whose first pass loads its rows in bit-reversed order from a source (any column
    /// ranges) equals the bit-reversal permutation, then the DIT.
    #[test]
    fn bit_reversed_source_load_equals_permutation_then_dit() {
        let domain = crate::Domain::PLONKY3;
        for backend in Backend::supported() {
            for (log_n, width) in [(0, 8), (3, 8), (9, 8), (8, 9), (6, 64), (5, 256), (4, 300)] {
                let tw = twiddles(domain.generator(), true, log_n).unwrap();
                let src = random(width << log_n, 7 + log_n as u64);
                let mut expected = src.clone();
                crate::bitrev::bit_reverse_rows(&mut expected, width, log_n);
                transform_with(
                    &mut expected,
                    width,
                    log_n,
                    &tw,
                    Flow::Dit,
                    None,
                    Backend::Scalar,
                    usize::MAX,
                    None,
                );
                for working_set in [1, 64, 1024, 4096, WORKING_SET] {
                    let mut values = vec![Goldilocks::ZERO; src.len()];
                    let source = Source {
                        rows: Rows::BitReversed {
                            src: &src,
                            stride: width,
                            log_n,
                        },
                        powers: None,
                    };
                    transform_with(
                        &mut values,
                        width,
                        log_n,
                        &tw,
                        Flow::Dit,
                        None,
                        backend,
                        working_set,
                        Some(source),
                    );
                    assert_eq!(
                        values, expected,
                        "{backend} 2^{log_n}x{width} ws {working_set}"
                    );
                }
            }
        }
    }
}
