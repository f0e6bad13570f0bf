//! The cache-aware, parallel schedule of a batched transform (everything outside kernels).
//!
//! A size-`2^k` radix-2 network has `k` layers. Running them one at a time would stream the
//! whole matrix through memory `k` times; instead the layers are grouped into passes whose
//! working sets fit in the L2 cache (a generalisation of the "four-step" split):
//!
//! * the **block pass** runs the `b` layers with the smallest spans: they stay inside
//!   contiguous blocks of `2^b` rows, each an independent size-`2^b` transform (the twiddles of
//!   a layer depend only on its span), so blocks go to rayon tasks;
//! * the remaining `k − b` layers, with spans `≥ 2^b`, run in **stripe passes** of `r` layers
//!   each: for spans `u, 2u, …, 2^(r−1)u` the butterflies only ever combine rows `t + i·u`
//!   (`i < 2^r`) of one `2^r·u`-row group, so taking a few consecutive `t` at once gives tasks of
//!   `2^r` contiguous runs that fit in cache.
//!
//! DIF runs the stripe passes first (largest spans) and the block pass last; DIT the reverse.
//! All of it is safe Rust: tasks own disjoint `&mut` sub-slices built with `chunks_exact_mut`.

use aurum_goldilocks::{Backend, Goldilocks, Kernel, dispatch_on};
use rayon::prelude::*;

use crate::kernels::{BlockPass, Flow, ScaleRows, Source, StripePass};
use crate::twiddles::Twiddles;

/// Elements in one task's working set (512 KiB: half of a Zen 4 / recent Intel L2, leaving
/// room for twiddles and the other hyperthread).
const WORKING_SET: usize = 1 << 16;
/// Shortest contiguous run (elements) a stripe pass reads per stripe: whole cache lines and
/// enough to keep the hardware prefetcher streaming.
const MIN_RUN: usize = 256;
/// Below this many elements a transform runs on the calling thread.
const PARALLEL_THRESHOLD: usize = 1 << 14;

/// Runs a kernel on a backend the caller has checked is supported.
#[inline]
pub(crate) fn run<K: Kernel>(backend: Backend, kernel: K) -> K::Output {
    match dispatch_on(backend, kernel) {
        Ok(out) => out,
        Err(e) => unreachable!("backend support is checked before any kernel runs: {e}"),
    }
}

fn floor_log2(x: usize) -> usize {
    (usize::BITS - 1 - x.max(1).leading_zeros()) as usize
}

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
    // Only the first pass of a DIF reads a source (it is the first to touch every row).
    debug_assert!(source.is_none() || flow == Flow::Dif);
    let mut source = source;
    let parallel = values.len() >= PARALLEL_THRESHOLD;
    // Block pass: as many of the smallest-span layers as fit a working set (at least one).
    let log_block = floor_log2(working_set / width).clamp(log_n.min(1), log_n);
    let upper = log_n - log_block;
    // Stripe passes: runs of `rows` rows per stripe, `2^r` stripes per task.
    let rows = (MIN_RUN.min(working_set) / width)
        .next_power_of_two()
        .min(1 << log_block)
        .max(1);
    let max_r = floor_log2(working_set / (rows * width)).max(1);
    let passes = upper.div_ceil(max_r);
    let mut layer_counts: Vec<usize> = (0..passes)
        .map(|p| upper / passes + usize::from(p < upper % passes))
        .collect();

    let mut scale = scale;
    if flow == Flow::Dit {
        block_pass(
            values,
            width,
            log_block,
            twiddles,
            flow,
            scale.take(),
            backend,
            parallel,
            None,
        );
    }
    // Spans covered so far above the block (DIT) or from the top (DIF).
    let mut log_unit = match flow {
        Flow::Dif => log_n,
        Flow::Dit => log_block,
    };
    if flow == Flow::Dit {
        layer_counts.reverse();
    }
    for r in layer_counts {
        if flow == Flow::Dif {
            log_unit -= r;
        }
        stripe_pass(
            values,
            width,
            log_unit,
            r,
            rows,
            twiddles,
            flow,
            scale.take(),
            backend,
            parallel,
            source.take(),
        );
        if flow == Flow::Dit {
            log_unit += r;
        }
    }
    if flow == Flow::Dif {
        block_pass(
            values,
            width,
            log_block,
            twiddles,
            flow,
            scale.take(),
            backend,
            parallel,
            source.take(),
        );
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
            .for_each(|(k, block)| run(backend, kernel(block, k << log_block)));
    } else {
        run(backend, kernel(values, 0));
    }
}

#[allow(clippy::too_many_arguments)]
fn stripe_pass(
    values: &mut [Goldilocks],
    width: usize,
    log_unit: usize,
    r: usize,
    rows: usize,
    twiddles: &Twiddles,
    flow: Flow,
    scale: Option<Goldilocks>,
    backend: Backend,
    parallel: bool,
    source: Option<Source<'_>>,
) {
    let unit = 1usize << log_unit;
    let rows = rows.min(unit);
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
            tasks.push(StripePass {
                stripes,
                width,
                rows,
                t0: g * rows,
                log_unit,
                twiddles,
                flow,
                scale,
                source,
                row0: (group_index << (log_unit + r)) + g * rows,
            });
        }
    }
    if parallel {
        tasks.into_par_iter().for_each(|task| run(backend, task));
    } else {
        tasks.into_iter().for_each(|task| run(backend, task));
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
            self.source.load_rows::<P>(self.dst, self.width, self.row0);
        }
    }
    let rows_per_chunk = (SCALE_CHUNK / width).max(1);
    values
        .par_chunks_mut(rows_per_chunk * width)
        .enumerate()
        .for_each(|(k, dst)| {
            run(
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
                run(
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
            run(
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
mod tests {
    use super::*;
    use crate::twiddles::twiddles;

    fn random(len: usize, seed: u64) -> Vec<Goldilocks> {
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
            for (log_n, width) in [(10, 1), (9, 3), (8, 8), (7, 17), (11, 2), (6, 64)] {
                let tw = twiddles(domain.generator(), false, log_n);
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
                        for working_set in [1, 16, 64, 256, 4096] {
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
        use crate::kernels::Powers;
        let domain = crate::Domain::PLONKY3;
        let (c, s) = (Goldilocks::from_u64(3), Goldilocks::from_u64(0x1234_5678));
        for backend in Backend::supported() {
            for (log_n, width) in [(0, 1), (3, 2), (10, 1), (9, 3), (8, 8), (7, 17)] {
                let tw = twiddles(domain.generator(), false, log_n);
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
                for working_set in [1, 64, 4096, WORKING_SET] {
                    let mut values = vec![Goldilocks::ZERO; src.len()];
                    let source = Source {
                        src: Some(&src),
                        powers: &powers,
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
                        src: None,
                        powers: &powers,
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
                        src: Some(&src),
                        powers: &powers,
                    },
                    backend,
                );
                let mut scaled = vec![Goldilocks::ZERO; src.len()];
                scale_rows(&mut scaled, Some(&src), width, c, s, Backend::Scalar);
                assert_eq!(values, scaled, "{backend} load 2^{log_n}x{width}");
            }
        }
    }
}
