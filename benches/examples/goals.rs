//! The speed goals side by side: every row runs Aurum and its Plonky3 peer alternately, round
//! after round in one process, and reports both medians and the median of the per-round
//! ratios (with their smallest and largest), so that a shared, noisy machine moves both sides
//! alike. The table is Markdown.
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=native" cargo run --release -p aurum-benches --example goals
//! cargo run --release -p aurum-benches --example goals -- --rounds 9 merkle lde
//! ```
//!
//! Arguments: `--rounds N` (default 7; the wide transforms and trees use at most 5) and words
//! selecting rows: a kind (`perm`, `latency`, `merkle`, `ntt`, `lde`) or part of a row name
//! (a shape such as `2^16x2633`). Trees and transforms run on a pool of 2 threads,
//! permutations on one.
//! Plonky3's packing is chosen at compile time: build with `-C target-cpu=native` to give it
//! its AVX2 / AVX-512 code (without it Plonky3's "packed" rows are scalar). Aurum uses the
//! backend it dispatches to at run time, with the batch size it uses in bulk calls.

use std::hint::black_box;
use std::time::{Duration, Instant};

use aurum_goldilocks::{Goldilocks, Kernel, PackedField, dispatch};
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{Matrix, MerkleTree};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon2::{LinearLayers, Plonky3Layers, Poseidon2Goldilocks};
use aurum_symmetric::Permutation;
use p3_commit::Mmcs;
use p3_dft::{Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::{Field, PackedValue};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, Permutation as P3Permutation, TruncatedPermutation};

type P3Packing = <P3 as Field>::Packing;

/// One measured row: the two implementations' times per round.
struct Row {
    name: String,
    unit: &'static str,
    ours: Vec<f64>,
    peer: Vec<f64>,
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

impl Row {
    fn print(&self) {
        // Peer time / our time per round: above 1 means Aurum is faster.
        let ratios: Vec<f64> = self
            .ours
            .iter()
            .zip(&self.peer)
            .map(|(o, p)| p / o)
            .collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        println!(
            "| {} | {} {u} | {} {u} | {:.2}× | {:.2}–{:.2} |",
            self.name,
            fmt(median(&self.ours)),
            fmt(median(&self.peer)),
            median(&ratios),
            lo,
            hi,
            u = self.unit,
        );
    }
}

fn fmt(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// Runs `ours` and `peer` alternately `rounds` times (after one warm-up each).
fn compare(
    name: String,
    unit: &'static str,
    rounds: usize,
    mut ours: impl FnMut() -> f64,
    mut peer: impl FnMut() -> f64,
) -> Row {
    ours();
    peer();
    let (mut o, mut p) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        o.push(ours());
        p.push(peer());
    }
    let row = Row {
        name,
        unit,
        ours: o,
        peer: p,
    };
    row.print();
    row
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn random_u64s(len: usize, seed: u64) -> Vec<u64> {
    (0..len as u64)
        .map(|i| {
            (i ^ seed)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(17)
                % aurum_goldilocks::P
        })
        .collect()
}

/// Nanoseconds per state of Aurum's packed permutation (states kept in lanes, the backend's
/// bulk batch size), over about `STATES` states per call.
struct PackedAurum<'a, const W: usize> {
    perm: &'a Poseidon2Goldilocks<W>,
}

const STATES: usize = 1 << 14;

impl<const W: usize> Kernel for PackedAurum<'_, W>
where
    Plonky3Layers: LinearLayers<W>,
{
    type Output = f64;

    #[inline(always)]
    fn run<P: PackedField>(self) -> f64 {
        match self.perm.batch_size(P::BACKEND) {
            4 => packed_rounds::<P, W, 4>(self.perm),
            2 => packed_rounds::<P, W, 2>(self.perm),
            _ => packed_rounds::<P, W, 1>(self.perm),
        }
    }
}

#[inline(always)]
fn packed_rounds<P: PackedField, const W: usize, const B: usize>(
    perm: &Poseidon2Goldilocks<W>,
) -> f64
where
    Plonky3Layers: LinearLayers<W>,
{
    // 64 states in flight (L1-resident), permuted again and again.
    let groups = (64 / (P::WIDTH * B)).max(1);
    let mut states: Vec<[[P; W]; B]> = (0..groups)
        .map(|g| {
            core::array::from_fn(|b| {
                core::array::from_fn(|i| {
                    P::from_fn(|l| aurum_benches::seed(((g * B + b) * W + i) * 8 + l))
                })
            })
        })
        .collect();
    let per_round = groups * B * P::WIDTH;
    let iters = STATES.div_ceil(per_round);
    let start = Instant::now();
    for _ in 0..iters {
        for s in &mut states {
            perm.permute_batch::<P, B>(s);
        }
    }
    black_box(&states);
    start.elapsed().as_nanos() as f64 / (iters * per_round) as f64
}

fn packed_peer<const W: usize>(p3: &impl P3Permutation<[P3Packing; W]>) -> f64 {
    let lanes = <P3Packing as PackedValue>::WIDTH;
    let groups = (64 / lanes).max(1);
    let mut states: Vec<[P3Packing; W]> = (0..groups)
        .map(|g| {
            core::array::from_fn(|i| {
                let v: Vec<P3> = (0..lanes)
                    .map(|l| P3::new(aurum_benches::seed((g * W + i) * 8 + l).as_canonical_u64()))
                    .collect();
                *P3Packing::from_slice(&v)
            })
        })
        .collect();
    let iters = STATES.div_ceil(groups * lanes);
    let start = Instant::now();
    for _ in 0..iters {
        for s in &mut states {
            p3.permute_mut(s);
        }
    }
    black_box(&states);
    start.elapsed().as_nanos() as f64 / (iters * groups * lanes) as f64
}

const CHAIN: usize = 1 << 12;

fn latency_ours<const W: usize>(perm: &Poseidon2Goldilocks<W>) -> f64
where
    Plonky3Layers: LinearLayers<W>,
{
    let mut state: [Goldilocks; W] = core::array::from_fn(aurum_benches::seed);
    let start = Instant::now();
    for _ in 0..CHAIN {
        perm.permute(black_box(&mut state));
    }
    black_box(&state);
    start.elapsed().as_nanos() as f64 / CHAIN as f64
}

fn latency_peer<const W: usize>(p3: &impl P3Permutation<[P3; W]>) -> f64 {
    let mut state: [P3; W] =
        core::array::from_fn(|i| P3::new(aurum_benches::seed(i).as_canonical_u64()));
    let start = Instant::now();
    for _ in 0..CHAIN {
        p3.permute_mut(black_box(&mut state));
    }
    black_box(&state);
    start.elapsed().as_nanos() as f64 / CHAIN as f64
}

fn permutation_rows<const W: usize>(
    p3: &(impl P3Permutation<[P3Packing; W]> + P3Permutation<[P3; W]>),
    selected: &dyn Fn(&str, &str) -> bool,
    rounds: usize,
    rows: &mut Vec<Row>,
) where
    Plonky3Layers: LinearLayers<W>,
{
    let perm = Poseidon2Goldilocks::<W>::new();
    let name = format!(
        "Poseidon2 W{W} packed ({} vs p3 {} lanes)",
        aurum_goldilocks::backend(),
        <P3Packing as PackedValue>::WIDTH
    );
    if selected("perm", &name) {
        rows.push(compare(
            name,
            "ns/state",
            rounds * 3,
            || dispatch(PackedAurum { perm: &perm }),
            || packed_peer::<W>(p3),
        ));
    }
    let name = format!("Poseidon2 W{W} scalar latency");
    if selected("latency", &name) {
        rows.push(compare(
            name,
            "ns",
            rounds * 3,
            || latency_ours(&perm),
            || latency_peer::<W>(p3),
        ));
    }
}

type P3Mmcs<const W: usize, const RATE: usize> = MerkleTreeMmcs<
    P3Packing,
    P3Packing,
    PaddingFreeSponge<p3_goldilocks::Poseidon2Goldilocks<W>, W, RATE, 4>,
    TruncatedPermutation<p3_goldilocks::Poseidon2Goldilocks<W>, 2, 4, W>,
    2,
    4,
>;

fn merkle_row<C: MerkleConfig, M: Mmcs<P3> + Sync>(
    name: &str,
    config: &C,
    p3: &M,
    log_rows: usize,
    cols: usize,
    rounds: usize,
    pool: &rayon::ThreadPool,
) -> Row {
    let raw = random_u64s(cols << log_rows, 1);
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
    let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
    drop(raw);
    compare(
        format!("Merkle {name} 2^{log_rows} × {cols}"),
        "ms",
        rounds,
        || {
            pool.install(|| {
                let start = Instant::now();
                let tree = MerkleTree::new(config, vec![Matrix::new(&ours, cols).unwrap()]);
                black_box(tree.unwrap().root());
                ms(start.elapsed())
            })
        },
        || {
            // Plonky3's commit takes its matrix by value: the copy is made before the clock.
            let matrix = vec![RowMajorMatrix::new(theirs.clone(), cols)];
            pool.install(|| {
                let start = Instant::now();
                black_box(p3.commit(matrix).0);
                ms(start.elapsed())
            })
        },
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Transform {
    Forward,
    Lde,
}

fn transform_row(
    kind: Transform,
    order: Order,
    log_rows: usize,
    width: usize,
    rounds: usize,
    pool: &rayon::ThreadPool,
) -> Row {
    let raw = random_u64s(width << log_rows, 2);
    let ours: Vec<Goldilocks> = raw.iter().map(|&x| Goldilocks::from_u64(x)).collect();
    let theirs: Vec<P3> = raw.iter().map(|&x| P3::new(x)).collect();
    drop(raw);
    let ntt = Ntt::plonky3();
    let dit = Radix2DitParallel::<P3>::default();
    let small = Radix2DFTSmallBatch::<P3>::new(1 << (log_rows + 1));
    let (what, peer_name) = match (kind, order) {
        (Transform::Forward, Order::BitReversed) => ("forward NTT", "Radix2DitParallel"),
        (Transform::Forward, Order::Natural) => ("forward NTT", "Radix2DFTSmallBatch"),
        (Transform::Lde, Order::BitReversed) => ("coset LDE +1", "Radix2DitParallel"),
        (Transform::Lde, Order::Natural) => ("coset LDE +1", "Radix2DFTSmallBatch"),
    };
    let order_name = match order {
        Order::BitReversed => "bit-reversed",
        Order::Natural => "natural",
    };
    // Both sides consume their input (as `coset_lde_batch` does); the copies are made before
    // the clock, and the outputs are dropped inside it (each side frees what it allocated).
    compare(
        format!("{what} 2^{log_rows} × {width}, {order_name} vs {peer_name}"),
        "ms",
        rounds,
        || {
            let mut values = ours.clone();
            pool.install(|| {
                let start = Instant::now();
                match kind {
                    Transform::Forward => {
                        ntt.forward(&mut values, width, order).unwrap();
                        drop(values);
                    }
                    Transform::Lde => drop(
                        ntt.coset_lde_vec(values, width, 1, ntt.domain().shift(), order)
                            .unwrap(),
                    ),
                }
                ms(start.elapsed())
            })
        },
        || {
            let mat = RowMajorMatrix::new(theirs.clone(), width);
            pool.install(|| {
                let start = Instant::now();
                let shift = P3::new(7);
                match (kind, order) {
                    (Transform::Forward, Order::BitReversed) => drop(dit.dft_batch(mat)),
                    (Transform::Forward, Order::Natural) => drop(small.dft_batch(mat)),
                    (Transform::Lde, Order::BitReversed) => {
                        drop(dit.coset_lde_batch(mat, 1, shift));
                    }
                    (Transform::Lde, Order::Natural) => {
                        drop(small.coset_lde_batch(mat, 1, shift));
                    }
                }
                ms(start.elapsed())
            })
        },
    )
}

fn main() {
    let mut rounds = 7;
    let mut words = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--rounds" {
            rounds = args
                .next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| {
                    eprintln!("goals: --rounds needs a positive number");
                    std::process::exit(2)
                });
        } else {
            words.push(arg);
        }
    }
    // A row runs when no word is given, when a word is its kind (`perm`, `latency`,
    // `merkle`, `ntt`, `lde`), or when its name contains a word.
    let selected = |kind: &str, name: &str| {
        let name = name.to_lowercase().replace(' ', "");
        words.is_empty()
            || words.iter().any(|w| {
                let w = w.to_lowercase();
                w == kind || name.contains(&w.replace(' ', ""))
            })
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("thread pool");
    println!(
        "Aurum backend {}, Plonky3 packing {} lanes, {rounds} rounds (fewer for the largest \
         shapes), 2 threads for trees and transforms\n",
        aurum_goldilocks::backend(),
        <P3Packing as PackedValue>::WIDTH,
    );
    println!("| row | Aurum | Plonky3 | ratio (median) | ratio range |");
    println!("|---|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    permutation_rows::<8>(
        &p3_goldilocks::default_goldilocks_poseidon2_8(),
        &selected,
        rounds,
        &mut rows,
    );
    permutation_rows::<12>(
        &p3_goldilocks::default_goldilocks_poseidon2_12(),
        &selected,
        rounds,
        &mut rows,
    );
    permutation_rows::<16>(
        &p3_goldilocks::default_goldilocks_poseidon2_16(),
        &selected,
        rounds,
        &mut rows,
    );

    let p8 = p3_goldilocks::default_goldilocks_poseidon2_8();
    let mmcs8 = P3Mmcs::<8, 4>::new(
        PaddingFreeSponge::new(p8.clone()),
        TruncatedPermutation::new(p8),
        0,
    );
    let p12 = p3_goldilocks::default_goldilocks_poseidon2_12();
    let mmcs12 = P3Mmcs::<12, 8>::new(
        PaddingFreeSponge::new(p12.clone()),
        TruncatedPermutation::new(p12),
        0,
    );
    for (log_rows, cols) in [(20, 8), (18, 256), (16, 2633)] {
        let shape_rounds = if cols > 8 { rounds.min(5) } else { rounds };
        let pick =
            |preset: &str| selected("merkle", &format!("Merkle {preset} 2^{log_rows}x{cols}"));
        if pick("poseidon2-w8") {
            rows.push(merkle_row(
                "poseidon2-w8",
                &config::poseidon2_w8(),
                &mmcs8,
                log_rows,
                cols,
                shape_rounds,
                &pool,
            ));
        }
        if pick("poseidon2-w12") {
            rows.push(merkle_row(
                "poseidon2-w12",
                &config::poseidon2_w12(),
                &mmcs12,
                log_rows,
                cols,
                shape_rounds,
                &pool,
            ));
        }
    }

    for kind in [Transform::Forward, Transform::Lde] {
        for (log_rows, width) in [(20, 1), (20, 8), (16, 256), (16, 2633)] {
            for order in [Order::BitReversed, Order::Natural] {
                let what = if kind == Transform::Forward {
                    "ntt"
                } else {
                    "lde"
                };
                if !selected(what, &format!("{what} 2^{log_rows}x{width}")) {
                    continue;
                }
                let shape_rounds = if width > 8 { rounds.min(5) } else { rounds };
                rows.push(transform_row(
                    kind,
                    order,
                    log_rows,
                    width,
                    shape_rounds,
                    &pool,
                ));
            }
        }
    }
    if rows.is_empty() {
        eprintln!("goals: no row matches {words:?}");
        std::process::exit(2);
    }
}
