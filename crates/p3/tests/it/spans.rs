//! The `tracing` spans of a proof carry Plonky3's names on every route: the same statement
//! proven with stock Plonky3, with Aurum's hooks (`NttDft`, the Merkle hash and compression)
//! and with `aurum_p3::FriPcs` (`aurum-fri`), each under a subscriber that records every span
//! as its path of names from the root. Each expected path must appear in the stock proof (so
//! the list is checked against Plonky3 0.8 itself) and in both Aurum proofs; `aurum-fri`'s own
//! span must appear in the `FriPcs` proof; and every span name of the stock proof must appear
//! in the `FriPcs` proof or be one of the Plonky3 internals documented (crates/p3/README.md,
//! "Tracing") as having no counterpart.

use crate::common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use common::{FibonacciAir, config_triple, fibonacci_trace, on_one_thread};
use p3_uni_stark::prove;
use rusty_fork::rusty_fork_test;
use tracing::Subscriber;
use tracing::span::{Attributes, Id};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::{LookupSpan, Registry};

/// The prover's spans down to the PCS.
const PROVE: &str = "prove > prove_with_preprocessed";

/// Paths (below [`PROVE`]) every route's proof must have: the LDEs and trees of both
/// commitments, the evaluations, and the FRI prover's phases.
const EXPECTED: &[&str] = &[
    "quotient_values",
    "commit to trace data > coset_lde_batch_with_transform",
    "commit to trace data > build merkle tree",
    "commit to quotient poly chunks > coset_lde_batch_with_transform",
    "commit to quotient poly chunks > build merkle tree",
    "open > evaluate matrix",
    "open > FRI prover",
    "open > FRI prover > commit phase",
    "open > FRI prover > commit phase > build merkle tree",
    "open > FRI prover > commit phase > fold_matrix",
    "open > FRI prover > commit phase > idft final poly",
    "open > FRI prover > grind for proof-of-work witness",
    "open > FRI prover > query phase",
];

/// Paths (below [`PROVE`]) of `aurum-fri`'s own spans in a `FriPcs` proof.
const AURUM_ONLY: &[&str] = &["open > reduced openings"];

/// Span names of a stock proof that a `FriPcs` proof does not have: Plonky3's internals of
/// work Aurum does another way (the README's list).
const PLONKY3_ONLY: &[&str] = &[
    // Inside `Radix2DitParallel`'s LDE (`p3-dft`'s `radix_2_dit_parallel.rs`).
    "coset_dft",
    "coset_dft_oop",
    "first_half",
    "first_half_general",
    "first_half_general_oop",
    "second_half",
    "second_half_general",
    "reserve_exact",
    "reverse_matrix_index_bits",
    // Inside `MerkleTree::new`.
    "first digest layer",
    // `TwoAdicFriPcs::open`'s evaluations and reduced openings.
    "compute_inverse_denominators",
    "compute opened values with Lagrange interpolation",
    "columnwise_dot_product",
    "reduce matrix quotient",
    "compress mat",
];

/// Every span opened, as the names from the root down (`a > b > c`).
#[derive(Clone, Default)]
struct Paths(Arc<Mutex<BTreeSet<String>>>);

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Paths {
    fn on_new_span(&self, _: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let names: Vec<&str> = span.scope().from_root().map(|s| s.name()).collect();
        let mut paths = self.0.lock().unwrap_or_else(|e| e.into_inner());
        paths.insert(names.join(" > "));
    }
}

/// Runs `prove` under a subscriber that records every span's path, on one rayon thread whose
/// default subscriber it is (every span of the proof opens there), and returns the paths.
fn span_paths(prove: impl FnOnce() + Send) -> BTreeSet<String> {
    let paths = Paths::default();
    let subscriber = Registry::default().with(paths.clone());
    on_one_thread(|| tracing::subscriber::with_default(subscriber, prove));
    let paths = paths.0.lock().unwrap_or_else(|e| e.into_inner());
    paths.clone()
}

/// The span paths of a proof of the Fibonacci AIR with `$config`.
macro_rules! fibonacci_span_paths {
    ($config:expr) => {{
        let (trace, public) = fibonacci_trace(1 << 6);
        span_paths(|| {
            prove($config, &FibonacciAir, trace, &public).expect("the prover succeeds");
        })
    }};
}

fn names(paths: &BTreeSet<String>) -> BTreeSet<&str> {
    paths
        .iter()
        .map(|p| p.rsplit(" > ").next().expect("a name"))
        .collect()
}

// In a process of its own: `tracing` caches, per span call site, whether any subscriber wants
// it, and a call site first reached by another test's proof (no subscriber on its thread) while
// this test's subscriber is being registered can keep "no" for good — the span then never opens
// here (seen as a missing `query phase` about once in a few dozen workspace runs). Alone in its
// process, every call site is first reached under this test's subscriber.
rusty_fork_test! {
    #[test]
    fn every_route_has_plonky3s_span_names_where_the_work_is_the_same() {
        let (stock, hooks, fri_pcs, _) = config_triple::<8, 4>(7);
        let routes = [
            ("stock Plonky3", fibonacci_span_paths!(&stock)),
            ("the hooks", fibonacci_span_paths!(&hooks)),
            ("FriPcs", fibonacci_span_paths!(&fri_pcs)),
        ];
        for expected in EXPECTED {
            let path = format!("{PROVE} > {expected}");
            for (route, paths) in &routes {
                assert!(
                    paths.contains(&path),
                    "no span `{path}` in the proof with {route}; its spans:\n{}",
                    paths.iter().cloned().collect::<Vec<_>>().join("\n")
                );
            }
        }
        for expected in AURUM_ONLY {
            let path = format!("{PROVE} > {expected}");
            assert!(routes[2].1.contains(&path), "no span `{path}` with FriPcs");
        }
        let fri_names = names(&routes[2].1);
        let unexplained: Vec<&str> = names(&routes[0].1)
            .into_iter()
            .filter(|name| !fri_names.contains(name) && !PLONKY3_ONLY.contains(name))
            .collect();
        assert!(
            unexplained.is_empty(),
            "span names of the stock proof neither in the FriPcs proof nor in PLONKY3_ONLY: \
             {unexplained:?}"
        );
    }
}
