//! How far each kernel is from the arithmetic limit of this CPU: a lower bound in cycles
//! from the kernel's operation counts and the measured throughput of the packed field
//! primitives, against the measured cycles, per backend.
//!
//! ```text
//! cargo run --release -p aurum-benches --example limit            # no RUSTFLAGS
//! RUSTFLAGS="-C target-cpu=native" cargo run --release -p aurum-benches --example limit
//! ```
//!
//! * **Clock**: a dependent chain of 64-bit integer multiply-then-add steps (4 cycles each on
//!   Zen 4 and recent Intel cores), best of several runs: cycles = time × that estimate.
//! * **Primitives**: [`ThroughputProbe`] (eight independent accumulators) for `mul` and
//!   `add`: cycles per packed operation on each backend.
//! * **Operation counts per state** (the `OpCount` rows below, derived from the parameters):
//!   general field multiplications (squares included) and add-like operations (additions,
//!   subtractions, doublings, halvings, shifts by constants). Poseidon's full-round MDS uses
//!   small coefficients (products of 32-bit halves summed unreduced): those are not counted,
//!   so its bound is lower still than the work really needed.
//! * **Bound**: `max(muls · c_mul, adds · c_add) / lanes` assumes multiplies and adds issue on
//!   separate ports in parallel (a strict lower bound); the `serial` column, `(muls · c_mul +
//!   adds · c_add) / lanes`, assumes they share them.
//! * **Measured**, all on one thread (the distance per core; on a shared machine a second
//!   thread's time is not its own): permutations with states packed in lanes
//!   (`permute_batch` at the backend's batch size); forward NTT 2^20 × 8 and Merkle commits
//!   2^20 × 8 on a rayon pool of one thread. Every backend this CPU supports gets every row: the
//!   NTT is pinned with `Ntt::with_backend`; the Merkle trees take the process-wide backend,
//!   so for each backend other than this process's the example runs itself again with
//!   `AURUM_BACKEND` set and reads the child's times back.
//! * **Goal**: the last column compares `measured / serial` with the goal for the kernel:
//!   within 1.15× for the permutations, 1.5× for Merkle trees per leaf (none for the NTT).

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use aurum_bench::microbench::{FieldOp, LANES_IN_FLIGHT, ThroughputProbe};
use aurum_goldilocks::{BACKEND_ENV, Backend, Goldilocks, dispatch_on};
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{Matrix, MerkleTree};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon::Poseidon;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::Permutation;

/// Runs `f` `runs` times and returns the median duration.
fn median(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[runs / 2]
}

/// GHz from a dependent chain `x ← x² + 1` (a 64-bit multiply, 3 cycles, then an add, 1
/// cycle: nothing LLVM can shorten, unlike `x ← x·m`), best of five.
fn clock_ghz() -> f64 {
    const CHAIN: u64 = 200_000_000;
    const STEP_LATENCY: f64 = 4.0;
    (0..5)
        .map(|_| {
            let mut x = black_box(3u64);
            let start = Instant::now();
            for _ in 0..CHAIN {
                x = x.wrapping_mul(x).wrapping_add(1);
            }
            black_box(x);
            STEP_LATENCY * CHAIN as f64 / start.elapsed().as_nanos() as f64
        })
        .fold(0.0, f64::max)
}

/// Cycles per packed operation of `op` on `backend`.
fn primitive_cycles(backend: Backend, op: FieldOp, ghz: f64) -> f64 {
    const ITERS: u64 = 20_000_000;
    let t = median(5, || {
        dispatch_on(backend, ThroughputProbe { op, iters: ITERS })
            .expect("available backend")
            .elapsed
    });
    t.as_nanos() as f64 * ghz / (ITERS * LANES_IN_FLIGHT as u64) as f64
}

/// Cycles per state of `perm` on `backend` (one thread, the backend's batch size).
fn permutation_cycles<Perm: Permutation<W>, const W: usize>(
    perm: &Perm,
    backend: Backend,
    ghz: f64,
) -> f64 {
    const ITERS: u64 = 20_000;
    let batch = perm.batch_size(backend);
    let time = median(7, || {
        aurum_benches::time_packed(perm, backend, batch, ITERS).expect("available backend")
    });
    let states = ITERS * (batch * backend.lanes()) as u64;
    time.as_nanos() as f64 * ghz / states as f64
}

/// Operations per unit of work (one state, one butterfly).
#[derive(Clone, Copy)]
struct OpCount {
    muls: f64,
    adds: f64,
}

impl OpCount {
    /// Plonky3's Poseidon2 at width `w`: 8 full rounds (S-box `x^7` = 4 multiplications per
    /// word), 22 partial rounds (one S-box), 9 external layers (`M4`: 9 additions and 2
    /// doublings per four words; column sums: `w − 4` additions, then `w` to add them back),
    /// internal layers of additions, doublings and halvings only (`w − 1` for the sum, about
    /// two per word for `D_i·s_i + sum`), one constant per word per full round, one per
    /// partial round.
    fn poseidon2(w: f64) -> OpCount {
        let external = 11.0 * w / 4.0 + (w - 4.0) + w;
        let internal = (w - 1.0) + 2.0 * w;
        OpCount {
            muls: 8.0 * 4.0 * w + 22.0 * 4.0,
            adds: 9.0 * external + 22.0 * (internal + 1.0) + 8.0 * w,
        }
    }

    /// plonky2's Poseidon W12 in the fast form: 8 full rounds of 12 S-boxes, the dense
    /// 11 × 12 layer in front of the partial rounds, 22 sparse partial rounds (S-box, an
    /// 11-term row, 11 column products); additions: one per product plus constants. The
    /// full rounds' small-coefficient MDS products are not counted (see the module docs).
    fn poseidon() -> OpCount {
        let muls = 8.0 * 12.0 * 4.0 + 11.0 * 12.0 + 22.0 * (4.0 + 11.0 + 11.0);
        let adds = 8.0 * 12.0 + 11.0 * 12.0 + 22.0 * (11.0 + 11.0 + 2.0) + 7.0 * 12.0 * 12.0;
        OpCount { muls, adds }
    }

    /// A butterfly as `aurum-ntt` runs it: layers go in radix-4 steps of four butterflies
    /// with three twiddle products, one product by the fourth root of unity `±2^48` (shifts
    /// and a reduction, counted as half a multiplication), four additions and four
    /// subtractions.
    fn butterfly() -> OpCount {
        OpCount {
            muls: 0.875,
            adds: 2.0,
        }
    }

    fn scaled(self, k: f64) -> OpCount {
        OpCount {
            muls: self.muls * k,
            adds: self.adds * k,
        }
    }
}

/// One row of the table.
struct Row {
    kernel: String,
    backend: String,
    ops: OpCount,
    lanes: f64,
    c_mul: f64,
    c_add: f64,
    measured: f64,
    /// The goal for `measured / serial`, if the kernel has one.
    goal: Option<f64>,
}

impl Row {
    fn print(&self) {
        let mul = self.ops.muls * self.c_mul / self.lanes;
        let add = self.ops.adds * self.c_add / self.lanes;
        let bound = mul.max(add);
        let serial = mul + add;
        let distance = self.measured / serial;
        let goal = match self.goal {
            Some(g) if distance <= g => format!("≤ {g:.2}×: met"),
            Some(g) => format!("≤ {g:.2}×: not met"),
            None => "—".to_string(),
        };
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× | {goal} |",
            self.kernel,
            self.backend,
            self.ops.muls,
            self.ops.adds,
            bound,
            serial,
            self.measured,
            self.measured / bound,
            distance,
        );
    }
}

/// Nanoseconds per leaf of a Merkle commit of `rows × cols` on the process-wide backend, on
/// the current rayon pool (one thread, see `main`).
fn merkle_ns_per_leaf<C: MerkleConfig>(config: &C, rows: usize, cols: usize) -> f64 {
    let values: Vec<Goldilocks> = (0..rows * cols)
        .map(|i| Goldilocks::from_u64(i as u64 * 0x9E37_79B9 + 7))
        .collect();
    let time = median(5, || {
        let start = Instant::now();
        let tree = MerkleTree::new(config, vec![Matrix::new(&values, cols).expect("shape")])
            .expect("tree");
        black_box(tree.root());
        start.elapsed()
    });
    time.as_nanos() as f64 / rows as f64
}

/// The Merkle rows' leaves: 2^20 × 8.
const MERKLE_ROWS: usize = 1 << 20;
const MERKLE_COLS: usize = 8;

/// Set in the child runs that measure the Merkle trees on one backend.
const CHILD_ENV: &str = "AURUM_LIMIT_MERKLE_CHILD";

/// Nanoseconds per leaf of the poseidon2-w8 and plonky2 trees on the
/// process-wide backend.
fn merkle_ns_here() -> [f64; 2] {
    [
        merkle_ns_per_leaf(&config::poseidon2_w8(), MERKLE_ROWS, MERKLE_COLS),
        merkle_ns_per_leaf(&config::plonky2(), MERKLE_ROWS, MERKLE_COLS),
    ]
}

/// [`merkle_ns_here`] on `backend`: in this process if it runs on `backend`, else in a child
/// run of this example with `AURUM_BACKEND` set.
fn merkle_ns_on(backend: Backend) -> [f64; 2] {
    if backend == aurum_goldilocks::backend() {
        return merkle_ns_here();
    }
    let exe = std::env::current_exe().expect("path of this example");
    let out = Command::new(exe)
        .env(BACKEND_ENV, backend.name())
        .env(CHILD_ENV, "1")
        .output()
        .expect("child run");
    assert!(
        out.status.success(),
        "child run on {backend} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let values: Vec<f64> = text
        .split_whitespace()
        .map(|v| v.parse().expect("a number"))
        .collect();
    [values[0], values[1]]
}

fn main() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the global rayon pool, before any use");
    if std::env::var_os(CHILD_ENV).is_some() {
        let [w8, plonky2] = merkle_ns_here();
        println!("{w8} {plonky2}");
        return;
    }
    let ghz = clock_ghz();
    println!("clock ≈ {ghz:.2} GHz (dependent multiply-add chain), one thread\n");
    println!("| backend | lanes | mul (cycles/vector) | add (cycles/vector) |");
    println!("|---|---:|---:|---:|");
    let backends: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| b.is_supported() && b.packed() == *b)
        .collect();
    let mut primitives = Vec::new();
    for &backend in &backends {
        let c_mul = primitive_cycles(backend, FieldOp::Mul, ghz);
        let c_add = primitive_cycles(backend, FieldOp::Add, ghz);
        println!(
            "| {backend} | {} | {c_mul:.2} | {c_add:.2} |",
            backend.lanes()
        );
        primitives.push((backend, c_mul, c_add));
    }
    println!(
        "\n| kernel | backend | muls | adds | bound (cycles) | serial bound | measured (cycles) | measured / bound | measured / serial | goal |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
    let row = |kernel: &str, backend: Backend, ops: OpCount, measured: f64, goal: Option<f64>| {
        let &(_, c_mul, c_add) = primitives
            .iter()
            .find(|(b, _, _)| *b == backend)
            .expect("measured backend");
        Row {
            kernel: kernel.to_string(),
            backend: backend.name().to_string(),
            ops,
            lanes: backend.lanes() as f64,
            c_mul,
            c_add,
            measured,
            goal,
        }
        .print();
    };
    const PERMUTATION_GOAL: Option<f64> = Some(1.15);
    const MERKLE_GOAL: Option<f64> = Some(1.5);
    for &backend in &backends {
        row(
            "Poseidon2 W8, per state",
            backend,
            OpCount::poseidon2(8.0),
            permutation_cycles(&Poseidon2Goldilocks::<8>::new(), backend, ghz),
            PERMUTATION_GOAL,
        );
        row(
            "Poseidon2 W12, per state",
            backend,
            OpCount::poseidon2(12.0),
            permutation_cycles(&Poseidon2Goldilocks::<12>::new(), backend, ghz),
            PERMUTATION_GOAL,
        );
        row(
            "Poseidon2 W16, per state",
            backend,
            OpCount::poseidon2(16.0),
            permutation_cycles(&Poseidon2Goldilocks::<16>::new(), backend, ghz),
            PERMUTATION_GOAL,
        );
        row(
            "Poseidon W12, per state",
            backend,
            OpCount::poseidon(),
            permutation_cycles(&Poseidon::new(), backend, ghz),
            PERMUTATION_GOAL,
        );
    }

    // Forward NTT 2^20 × 8, bit-reversed output: 8 · 2^19 · 20 butterflies.
    let (log_n, width) = (20usize, 8usize);
    let input: Vec<Goldilocks> = (0..width << log_n)
        .map(|i| Goldilocks::from_u64(i as u64 * 31 + 5))
        .collect();
    let butterflies = (width << (log_n - 1)) * log_n;
    for &backend in &backends {
        let ntt = Ntt::plonky3()
            .with_backend(backend)
            .expect("supported backend");
        let time = median(7, || {
            let mut values = input.clone();
            let start = Instant::now();
            ntt.forward(&mut values, width, Order::BitReversed)
                .expect("shape");
            let t = start.elapsed();
            black_box(values);
            t
        });
        row(
            "forward NTT 2^20 × 8, per butterfly",
            backend,
            OpCount::butterfly(),
            time.as_nanos() as f64 * ghz / butterflies as f64,
            None,
        );
    }

    // Merkle 2^20 × 8: poseidon2-w8 hashes a leaf in 2 permutations (rate 4) and compresses
    // in 1 per node; plonky2 hashes 8 elements in 1 and compresses in 1.
    for &backend in &backends {
        let [w8, plonky2] = merkle_ns_on(backend);
        row(
            "Merkle poseidon2-w8 2^20 × 8, per leaf (3 perms)",
            backend,
            OpCount::poseidon2(8.0).scaled(3.0),
            w8 * ghz,
            MERKLE_GOAL,
        );
        row(
            "Merkle plonky2 2^20 × 8, per leaf (2 perms)",
            backend,
            OpCount::poseidon().scaled(2.0),
            plonky2 * ghz,
            MERKLE_GOAL,
        );
    }
}
