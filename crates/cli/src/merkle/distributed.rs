//! `mpirun -n K aurum commit`: one commitment split over the K ranks of an MPI job (the
//! `mpi` cargo feature, on rsmpi).
//!
//! Every rank reads the same flags and the same file (on storage all ranks can read), and
//! computes the same [`SplitPlan`] from the file's size, the cap height and `K`: contiguous,
//! power-of-two-aligned row ranges, one per rank. Each rank reads and commits only its rows
//! ([`crate::merkle::part::commit_part`], rayon inside the rank), then:
//!
//! 1. **Status exchange** (`all_gather`, 64 bytes from every rank): whether the rank's part
//!    succeeded, and what it planned (height, width, cap height, preset, slot length) with
//!    its time and peak memory. Every rank reaches this collective whatever happened to it —
//!    errors and even panics in its part are caught first — so a failure cannot leave the
//!    others waiting: all ranks see the same statuses and take the same branch. A failed rank
//!    prints its one-line reason, rank 0 names the failed ranks, and every rank exits
//!    non-zero; ranks that planned differently (they saw different files) are refused the
//!    same way.
//! 2. **Data gather** (`gather` to rank 0 of a fixed-size buffer): each rank's nodes,
//!    [`SplitPlan::slot_len`] digests of 32 bytes — one digest (its subtree root) unless the
//!    cap lies inside the ranks' blocks, and then its share of the cap. Rank 0 completes the
//!    top ([`SplitPlan::complete`]) and prints the report `aurum commit` prints (root, cap,
//!    and an `mpi` line with the volumes); the other ranks print nothing.
//!
//! Only `commit` is distributed, and only one matrix (what the CLI commits). A rank never
//! sends rows; the gathered volume is at most `max(K, 2^cap_height)` digests in all, which
//! is negligible at any `K` next to reading and hashing the rows.
//!
//! MPI is initialised only when a launcher started the process ([`launched`]), so a binary
//! built with the feature runs everything else, and `commit` outside `mpirun`, exactly as
//! without it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_goldilocks::{Backend, Goldilocks};
use aurum_merkle::{Digest, MerkleConfig, Preset, SplitPlan, TreeShape, ZERO_DIGEST};
use aurum_symmetric::Hasher;
use mpi::Threading;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::{CommunicatorCollectives, Root};

use crate::args::CommitArgs;
use crate::error::Error;
use crate::files::{self, AtomicFile};
use crate::flags::checked_backend;
use crate::input::MatrixSource;
use crate::merkle::report::{MpiSummary, Report};
use crate::merkle::statement;
use crate::report::peak_memory_bytes;

/// Environment variables that MPI launchers set in the processes they start: Open MPI's
/// `mpirun`, MPICH's Hydra (and Intel MPI), and PMIx launchers (`prterun`, `srun`).
const LAUNCHER_VARIABLES: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"];

/// Whether an MPI launcher started this process: only then does `commit` initialise MPI and
/// split the work (with one rank, the split is the whole matrix).
pub(crate) fn launched() -> bool {
    LAUNCHER_VARIABLES
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// Words of the status every rank sends every rank.
const STATUS_WORDS: usize = 8;

/// Exit code of a rank whose work panicked after the status exchange (cannot happen: every
/// step there returns errors), via `MPI_Abort` so that no rank waits.
const ABORT_CODE: i32 = 70;

/// What one rank did with its part.
struct Local {
    backend: Backend,
    threads: usize,
    source: MatrixSource,
    shape: TreeShape,
    plan: SplitPlan,
    permutations: usize,
    nodes: Vec<Digest>,
    /// Rank 0's `--out`, prepared before the work.
    out: Option<AtomicFile>,
}

/// Runs `aurum commit` as one rank of an MPI job (see the module documentation).
pub(crate) fn commit(args: &CommitArgs) -> Result<ExitCode, Error> {
    // Rayon's threads never call MPI: only the main thread does.
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| Error::Failed("MPI was already initialised".to_string()))?;
    let world = universe.world();
    match catch_unwind(AssertUnwindSafe(|| run_rank(args, &world))) {
        Ok(result) => result,
        Err(_) => world.abort(ABORT_CODE),
    }
    // `universe` is dropped here: MPI_Finalize, after every collective of every rank.
}

/// This rank's part: everything up to the nodes it sends. Errors and panics become its
/// status, so that it still reaches the status exchange.
fn local_part(args: &CommitArgs, ranks: usize, rank: usize) -> Result<Local, Error> {
    let work = || -> Result<Local, Error> {
        let backend = checked_backend()?;
        let pool = args.matrix.threads()?;
        let (source, shape) = args.matrix.plan()?;
        let cap_height = args.matrix.cap_height()?;
        let plan = SplitPlan::new(shape.max_height(), cap_height, ranks)
            .map_err(|e| Error::Statement(e.to_string()))?;
        // Rank 0 writes `--out`: checked and its temporary created before any work.
        let out = match (&args.out, rank) {
            (Some(path), 0) => Some(files::prepare_one("--out", path, &args.matrix.inputs())?),
            _ => None,
        };
        let (nodes, permutations) = pool.install(|| {
            with_preset!(args.matrix.preset(), |config| {
                crate::merkle::part::commit_part(&config, &source, &plan, rank).map(|nodes| {
                    let permutations = shape.permutations(|len| config.leaf().permutations(len));
                    (nodes, permutations)
                })
            })
        })?;
        Ok(Local {
            backend,
            threads: pool.current_num_threads(),
            source,
            shape,
            plan,
            permutations,
            nodes,
            out,
        })
    };
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        Err(Error::Failed(format!("panicked: {message}")))
    })
}

/// The status words of a rank: `[failed, height, width, cap height, preset, slot length,
/// peak memory (u64::MAX if unknown), microseconds of its part]`.
fn status(local: &Result<Local, Error>, args: &CommitArgs, elapsed: Duration) -> [u64; 8] {
    let preset = Preset::ALL
        .iter()
        .position(|&p| p == args.matrix.preset())
        .unwrap_or(usize::MAX) as u64;
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    let peak = peak_memory_bytes().unwrap_or(u64::MAX);
    match local {
        Ok(l) => [
            0,
            l.plan.height() as u64,
            l.shape.dims()[0].width as u64,
            l.plan.cap_height() as u64,
            preset,
            l.plan.slot_len() as u64,
            peak,
            micros,
        ],
        Err(_) => [1, 0, 0, 0, preset, 0, peak, micros],
    }
}

/// The ranks, in order, whose statuses mark them failed.
fn failed_ranks(statuses: &[u64]) -> Vec<usize> {
    statuses
        .chunks_exact(STATUS_WORDS)
        .enumerate()
        .filter(|(_, s)| s[0] != 0)
        .map(|(rank, _)| rank)
        .collect()
}

/// `Some(reason)` when the ranks did not all plan the same commitment.
fn disagreement(statuses: &[u64]) -> Option<String> {
    let first = &statuses[..STATUS_WORDS];
    statuses
        .chunks_exact(STATUS_WORDS)
        .enumerate()
        .find(|(_, s)| s[1..6] != first[1..6])
        .map(|(rank, s)| {
            let preset = |i: u64| {
                usize::try_from(i)
                    .ok()
                    .and_then(|i| Preset::ALL.get(i))
                    .map_or("?", |p| p.name())
            };
            format!(
                "rank {rank} planned a {} × {} matrix with cap height {} ({}), rank 0 a \
                 {} × {} matrix with cap height {} ({}): every rank must read the same file \
                 with the same flags",
                s[1],
                s[2],
                s[3],
                preset(s[4]),
                first[1],
                first[2],
                first[3],
                preset(first[4])
            )
        })
}

/// A list of ranks for messages: "1, 3".
fn list(ranks: &[usize]) -> String {
    ranks
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints `error: {message}` on stderr in one write, before MPI is finalised: a rank's
/// line is not interleaved with another's, and it is out before the launcher, seeing a
/// non-zero exit, ends the job.
fn say(message: &str) {
    use std::io::Write;
    let line = format!("error: {message}\n");
    // Nothing better to do if stderr is gone: the exit code still says it failed.
    let _ = std::io::stderr().write_all(line.as_bytes());
}

fn run_rank(args: &CommitArgs, world: &SimpleCommunicator) -> Result<ExitCode, Error> {
    // Ranks are non-negative and fewer than the size, which is positive.
    let rank = usize::try_from(world.rank()).expect("MPI ranks are non-negative");
    let ranks = usize::try_from(world.size()).expect("the MPI world size is positive");
    // Start together, so that rank 0's time is the job's.
    world.barrier();
    let start = Instant::now();
    let local = local_part(args, ranks, rank);
    let part_time = start.elapsed();

    // 1. Status exchange: every rank, whatever happened to its part.
    let mine = status(&local, args, part_time);
    let mut statuses = vec![0u64; STATUS_WORDS * ranks];
    world.all_gather_into(&mine[..], &mut statuses[..]);
    let failed = failed_ranks(&statuses);
    if !failed.is_empty() {
        match (local, rank) {
            (Err(reason), _) => say(&format!("rank {rank} of {ranks}: {reason}")),
            (Ok(_), 0) => say(&format!(
                "rank(s) {} of {ranks} failed (each printed its reason); no commitment was made",
                list(&failed)
            )),
            (Ok(_), _) => {}
        }
        return Ok(ExitCode::from(2));
    }
    let mut local = local.expect("no rank failed, this one included");
    if let Some(reason) = disagreement(&statuses) {
        if rank == 0 {
            say(&reason);
        }
        return Ok(ExitCode::from(2));
    }

    // 2. Data gather: a fixed slot of nodes from every rank to rank 0.
    let slot = local.plan.slot_len();
    let mut words = vec![0u64; 4 * slot];
    for (out, node) in words.chunks_exact_mut(4).zip(&local.nodes) {
        for (w, x) in out.iter_mut().zip(node) {
            *w = x.as_canonical_u64();
        }
    }
    let root_process = world.process_at_rank(0);
    if rank != 0 {
        root_process.gather_into(&words[..]);
        return Ok(ExitCode::SUCCESS);
    }
    let mut gathered = vec![0u64; 4 * slot * ranks];
    root_process.gather_into_root(&words[..], &mut gathered[..]);
    let slots = gathered
        .chunks_exact(4)
        .map(|w| {
            let mut digest = ZERO_DIGEST;
            for (d, &x) in digest.iter_mut().zip(w) {
                *d = Goldilocks::from_canonical(x).map_err(|e| {
                    Error::Failed(format!("a rank sent a node that is not a digest: {e}"))
                })?;
            }
            Ok(digest)
        })
        .collect::<Result<Vec<Digest>, Error>>()?;
    let (root, cap) = with_preset!(args.matrix.preset(), |config| local
        .plan
        .complete(&config, &slots)
        .map_err(|e| Error::Failed(e.to_string())))?;
    let elapsed = start.elapsed();

    let cap_height = local.plan.cap_height();
    if let Some(out) = local.out.take() {
        let json = statement::commitment_json(
            args.matrix.preset(),
            local.shape.dims(),
            cap_height,
            &root,
            &cap,
        );
        out.write_and_commit(json.as_bytes())?;
    }
    let peaks: Vec<u64> = statuses
        .chunks_exact(STATUS_WORDS)
        .map(|s| s[6])
        .filter(|&p| p != u64::MAX)
        .collect();
    let slowest = statuses
        .chunks_exact(STATUS_WORDS)
        .map(|s| s[7])
        .max()
        .unwrap_or(0);
    Report {
        device: "cpu".to_string(),
        backend: local.backend,
        threads: local.threads,
        preset: args.matrix.preset().name(),
        source: local.source.describe(),
        dims: local.shape.dims().to_vec(),
        cap_height,
        root,
        cap,
        elapsed,
        permutations: local.permutations,
        tree: None,
        mpi: Some(MpiSummary {
            ranks,
            ranks_with_rows: local.plan.used_parts(),
            rows_per_rank: local.plan.block_rows(),
            gathered_bytes_per_rank: 32 * slot,
            status_bytes_per_rank: 8 * STATUS_WORDS,
            slowest_part_seconds: slowest as f64 / 1e6,
            max_peak_memory_bytes: peaks.iter().copied().max().filter(|_| peaks.len() == ranks),
        }),
    }
    .print(args.json);
    Ok(ExitCode::SUCCESS)
}
