//! How the layers of a transform are grouped into passes that fit a working set ([`Plan`]).

use crate::butterflies::flow::Flow;

/// Elements in one task's working set (512 KiB: half of a Zen 4 / recent Intel L2, leaving
/// room for twiddles and the other hyperthread).
pub(crate) const WORKING_SET: usize = 1 << 16;

/// Shortest contiguous run (elements) a stripe pass reads per stripe: whole cache lines and
/// enough to keep the hardware prefetcher streaming.
const MIN_RUN: usize = 256;

/// Rows at least [`MIN_RUN`] elements long are "wide": their passes cut the columns into
/// ranges of at least this many (512 bytes, a run the prefetcher streams), so that a working
/// set holds many rows and every pass covers as many layers as it would for a narrow matrix.
const MIN_COLUMNS: usize = 64;

fn floor_log2(x: usize) -> usize {
    (usize::BITS - 1 - x.max(1).leading_zeros()) as usize
}

/// One pass over the matrix: a group of layers whose butterflies stay inside cache-sized
/// tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// The `log_block` layers with the smallest spans, on contiguous blocks of `2^log_block`
    /// rows, each an independent transform ([`BlockPass`]).
    Block { log_block: usize },
    /// The `r` layers with spans `2^log_unit … 2^(log_unit + r − 1)`, on tasks of `2^r`
    /// stripes ([`StripePass`]).
    Stripe { log_unit: usize, r: usize },
}

/// How the `log_n` layers of a transform of a `2^log_n × width` matrix are grouped into
/// passes that fit a working set (a generalisation of the "four-step" split):
///
/// * the **block pass** runs the `b` layers with the smallest spans: they stay inside
///   contiguous blocks of `2^b` rows, each an independent size-`2^b` transform (the twiddles of
///   a layer depend only on its span), so blocks go to rayon tasks;
/// * the remaining layers run in **stripe passes** of `r` layers each: for spans
///   `u, 2u, …, 2^(r−1)u` the butterflies only ever combine rows `t + i·u` (`i < 2^r`) of one
///   `2^r·u`-row group, so taking a few consecutive `t` at once gives tasks of `2^r`
///   contiguous runs that fit in cache.
///
/// Wide rows (at least [`MIN_RUN`] elements) have no block pass: a block of them would hold
/// few rows. Every pass is a stripe pass instead (the lowest with unit 1), and each task takes
/// a range of the columns, so a task holds `2^r` row pieces of [`MIN_COLUMNS`] or more.
///
/// DIF runs the passes largest spans first; DIT the reverse. Both flows of one shape use the
/// same passes, which lets an LDE fuse the inverse's last pass with the forward's first.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub width: usize,
    pub log_n: usize,
    /// Rows per stripe run.
    pub rows: usize,
    /// Columns per stripe task (`width`, or less for wide rows).
    pub columns: usize,
    /// The passes in DIF order (largest spans first).
    pub passes: Vec<Pass>,
}

impl Plan {
    pub(crate) fn new(width: usize, log_n: usize, working_set: usize) -> Plan {
        if width >= MIN_RUN && log_n > 0 {
            let max_r = floor_log2(working_set / MIN_COLUMNS).max(1);
            let passes = log_n.div_ceil(max_r);
            let largest = log_n.div_ceil(passes);
            let columns = (working_set >> largest).clamp(MIN_COLUMNS, width);
            let mut log_unit = log_n;
            let passes = (0..passes)
                .map(|p| {
                    let r = log_n / passes + usize::from(p < log_n % passes);
                    log_unit -= r;
                    Pass::Stripe { log_unit, r }
                })
                .collect();
            return Plan {
                width,
                log_n,
                rows: 1,
                columns,
                passes,
            };
        }
        // Block pass: as many of the smallest-span layers as fit a working set (at least one).
        let log_block = floor_log2(working_set / width).clamp(log_n.min(1), log_n);
        let upper = log_n - log_block;
        // Stripe passes: runs of `rows` rows per stripe, `2^r` stripes per task.
        let rows = (MIN_RUN.min(working_set) / width)
            .next_power_of_two()
            .min(1 << log_block)
            .max(1);
        let max_r = floor_log2(working_set / (rows * width)).max(1);
        let stripe_passes = upper.div_ceil(max_r);
        let mut log_unit = log_n;
        let mut passes: Vec<Pass> = (0..stripe_passes)
            .map(|p| {
                let r = upper / stripe_passes + usize::from(p < upper % stripe_passes);
                log_unit -= r;
                Pass::Stripe { log_unit, r }
            })
            .collect();
        passes.push(Pass::Block { log_block });
        Plan {
            width,
            log_n,
            rows,
            columns: width,
            passes,
        }
    }

    /// The passes in the order `flow` runs them.
    pub(crate) fn in_flow_order(&self, flow: Flow) -> Vec<Pass> {
        let mut passes = self.passes.clone();
        if flow == Flow::Dit {
            passes.reverse();
        }
        passes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wide rows: every pass is a stripe pass over column ranges, and the ranges cover every
    /// column once.
    #[test]
    fn wide_plans_cover_every_layer_with_stripe_passes() {
        for (width, log_n, working_set) in [
            (256, 16, WORKING_SET),
            (2633, 16, WORKING_SET),
            (300, 20, WORKING_SET),
            (256, 1, WORKING_SET),
            (1000, 7, 1),
        ] {
            let plan = Plan::new(width, log_n, working_set);
            assert!(plan.columns >= MIN_COLUMNS.min(width) && plan.columns <= width);
            let mut next_unit = log_n;
            for pass in &plan.passes {
                let Pass::Stripe { log_unit, r } = *pass else {
                    panic!("wide plan with a block pass: {plan:?}");
                };
                assert!(r >= 1);
                assert_eq!(log_unit + r, next_unit, "{plan:?}");
                assert!(
                    working_set == 1 || (plan.columns << r) <= working_set,
                    "{plan:?}"
                );
                next_unit = log_unit;
            }
            assert_eq!(next_unit, 0, "{plan:?}");
        }
        // The shapes of the wide LDE benchmarks take two passes, not four.
        assert_eq!(Plan::new(2633, 16, WORKING_SET).passes.len(), 2);
        assert_eq!(Plan::new(256, 16, WORKING_SET).passes.len(), 2);
    }
}
