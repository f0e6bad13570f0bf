//! `aurum`: Merkle commitments over Goldilocks from the command line.
//!
//! With no arguments it commits a seeded pseudo-random 2^20 × 8 matrix with the
//! `poseidon2-w8` preset and reports the root, the time and the throughput (`aurum commit`).

mod input;
mod progress;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_goldilocks::microbench::{FieldOp, ThroughputProbe};
use aurum_goldilocks::{Backend, dispatch_on, selected_backend};
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{
    Commitment, Dimensions, Matrix, MerkleTree, Opening, Preset, StreamingCommitter, verify,
};
use aurum_symmetric::Hasher;
use clap::{Args, Parser, Subcommand};
use serde::{Deserialize, Serialize};

use crate::input::MatrixSource;
use crate::report::{Report, hex_digest};

#[derive(Parser, Debug)]
#[command(
    name = "aurum",
    version,
    about = "Fast Goldilocks Merkle commitments for STARK provers",
    long_about = "Fast Goldilocks Merkle commitments for STARK provers.\n\nWithout a subcommand, \
                  `aurum [OPTIONS]` is `aurum commit [OPTIONS]`: by default it commits a seeded \
                  pseudo-random 2^20 × 8 matrix with the poseidon2-w8 preset.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Options of the default `commit` job.
    #[command(flatten)]
    commit: CommitArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Commit to a matrix and print its root (the default).
    Commit(CommitArgs),
    /// Open one leaf of a commitment and write the proof to a file.
    Open(OpenArgs),
    /// Check a proof file written by `aurum open`.
    Verify(VerifyArgs),
    /// Print the selected backend and field throughput on every backend this CPU has.
    Info {
        /// Milliseconds to spend per measurement (the median of 5 runs is shown).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        millis: u64,
    },
}

/// What to commit to, and how.
#[derive(Args, Debug, Clone)]
struct MatrixArgs {
    /// Rows of the generated matrix (ignored with --input/--bytes).
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..=1 << 36))]
    rows: u64,
    /// Columns of the matrix (the row width of --input/--bytes files too).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    cols: u64,
    /// Seed of the generated matrix.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Commit to a file of little-endian u64 values (each < p), row-major, --cols per row.
    #[arg(long, value_name = "FILE", conflicts_with = "bytes")]
    input: Option<PathBuf>,
    /// Commit to any file: bytes packed 7 per element (little-endian), then a 0x01 byte and
    /// zeros up to a whole row, so that different files never give the same matrix.
    #[arg(long, value_name = "FILE")]
    bytes: Option<PathBuf>,
    /// Tree configuration: poseidon2-w8, poseidon2-w12, poseidon2-w16.
    #[arg(long, default_value = "poseidon2-w8")]
    preset: Preset,
    /// Height of the cap (0 = a single root).
    #[arg(long, default_value_t = 0)]
    cap_height: usize,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    threads: Option<u64>,
}

#[derive(Args, Debug)]
struct CommitArgs {
    #[command(flatten)]
    matrix: MatrixArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct OpenArgs {
    #[command(flatten)]
    matrix: MatrixArgs,
    /// Leaf (row) to open.
    #[arg(long)]
    index: usize,
    /// Where to write the proof (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// Proof file written by `aurum open`.
    #[arg(long, value_name = "FILE")]
    proof: PathBuf,
    /// The trusted commitment, as printed by `aurum commit --json` (a file), to check the
    /// proof against instead of the commitment recorded in the proof file.
    #[arg(long, value_name = "FILE", conflicts_with = "root")]
    commitment: Option<PathBuf>,
    /// The trusted root: four comma-separated hex words, as `aurum commit` prints it.
    #[arg(long, value_name = "HEX")]
    root: Option<String>,
}

/// The proof file of `aurum open` / `aurum verify`.
#[derive(Serialize, Deserialize, Debug)]
struct ProofFile {
    preset: String,
    dims: Vec<Dimensions>,
    index: usize,
    commitment: Commitment,
    opening: Opening,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Commit(cli.commit));
    let result = match command {
        Command::Commit(args) => commit(args),
        Command::Open(args) => open(args),
        Command::Verify(args) => verify_proof(args),
        Command::Info { millis } => info(Duration::from_millis(millis)),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

impl MatrixArgs {
    fn threads(&self) -> Result<rayon::ThreadPool, String> {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(t) = self.threads {
            builder = builder.num_threads(t as usize);
        }
        builder
            .build()
            .map_err(|e| format!("cannot start the worker threads: {e}"))
    }

    fn source(&self) -> MatrixSource {
        let cols = self.cols as usize;
        match (&self.input, &self.bytes) {
            (Some(path), _) => MatrixSource::U64File {
                path: path.clone(),
                cols,
            },
            (_, Some(path)) => MatrixSource::BytesFile {
                path: path.clone(),
                cols,
            },
            _ => MatrixSource::Random {
                rows: self.rows as usize,
                cols,
                seed: self.seed,
            },
        }
    }
}

/// The selected backend, or a clear error if `AURUM_BACKEND` is invalid.
fn checked_backend() -> Result<Backend, String> {
    selected_backend().map_err(|e| format!("{}: {e}", aurum_goldilocks::BACKEND_ENV))
}

/// Runs `f` with the configuration of `preset`.
macro_rules! with_preset {
    ($preset:expr, |$config:ident| $body:expr) => {
        match $preset {
            Preset::Poseidon2W8 => {
                let $config = config::poseidon2_w8();
                $body
            }
            Preset::Poseidon2W12 => {
                let $config = config::poseidon2_w12();
                $body
            }
            Preset::Poseidon2W16 => {
                let $config = config::poseidon2_w16();
                $body
            }
            Preset::Plonky2 => {
                let $config = config::plonky2();
                $body
            }
            Preset::Polygon => {
                let $config = config::polygon();
                $body
            }
        }
    };
}

fn commit(args: CommitArgs) -> Result<ExitCode, String> {
    let backend = checked_backend()?;
    let pool = args.matrix.threads()?;
    let report = pool.install(|| {
        with_preset!(args.matrix.preset, |config| commit_with(
            &config,
            &args.matrix,
            args.json
        ))
    })?;
    let mut report = report;
    report.backend = backend;
    report.threads = pool.current_num_threads();
    report.print(args.json);
    Ok(ExitCode::SUCCESS)
}

fn commit_with<C: MerkleConfig>(
    config: &C,
    args: &MatrixArgs,
    json: bool,
) -> Result<Report, String> {
    let source = args.source();
    let show_progress = !json && progress::stderr_is_terminal();
    let start = Instant::now();
    let (commitment, dims, permutations) = match &source {
        MatrixSource::Random { rows, cols, seed } => {
            let values = input::random_matrix(*rows, *cols, *seed)?;
            let start = Instant::now();
            let tree = MerkleTree::new(
                config,
                vec![Matrix::new(&values, *cols).map_err(|e| e.to_string())?],
            )
            .map_err(|e| e.to_string())?;
            let commitment = tree
                .commitment(args.cap_height)
                .map_err(|e| e.to_string())?;
            let permutations = tree
                .shape()
                .permutations(|len| config.leaf().permutations(len));
            let elapsed = start.elapsed();
            let dims = tree.shape().dims().to_vec();
            return Ok(Report::new(
                config.name(),
                source.describe(),
                dims,
                args.cap_height,
                commitment,
                elapsed,
                permutations,
            ));
        }
        _ => {
            let cols = args.cols as usize;
            let mut committer = StreamingCommitter::new(config, cols, args.cap_height)
                .map_err(|e| e.to_string())?;
            let mut bar = progress::Bar::new(show_progress, source.total_bytes()?);
            source.stream_rows(|rows, bytes_done| {
                committer.push_rows(rows).map_err(|e| e.to_string())?;
                bar.update(bytes_done);
                Ok(())
            })?;
            bar.finish();
            let rows = committer.rows();
            let commitment = committer.finish().map_err(|e| e.to_string())?;
            let dims = vec![Dimensions {
                width: cols,
                height: rows,
            }];
            let shape = aurum_merkle::TreeShape::new(&dims).map_err(|e| e.to_string())?;
            (
                commitment,
                dims,
                shape.permutations(|len| config.leaf().permutations(len)),
            )
        }
    };
    Ok(Report::new(
        config.name(),
        source.describe(),
        dims,
        args.cap_height,
        commitment,
        start.elapsed(),
        permutations,
    ))
}

fn open(args: OpenArgs) -> Result<ExitCode, String> {
    checked_backend()?;
    let pool = args.matrix.threads()?;
    let file =
        pool.install(|| with_preset!(args.matrix.preset, |config| open_with(&config, &args)))?;
    let json =
        serde_json::to_string_pretty(&file).map_err(|e| format!("cannot encode the proof: {e}"))?;
    std::fs::write(&args.out, json)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "wrote the opening of leaf {} ({} matrices, {} siblings) to {}",
        file.index,
        file.dims.len(),
        file.opening.siblings.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn open_with<C: MerkleConfig>(config: &C, args: &OpenArgs) -> Result<ProofFile, String> {
    let (values, cols) = args.matrix.source().load()?;
    let matrix = Matrix::new(&values, cols).map_err(|e| e.to_string())?;
    let tree = MerkleTree::new(config, vec![matrix]).map_err(|e| e.to_string())?;
    let commitment = tree
        .commitment(args.matrix.cap_height)
        .map_err(|e| e.to_string())?;
    let opening = tree
        .open(args.index, args.matrix.cap_height)
        .map_err(|e| e.to_string())?;
    Ok(ProofFile {
        preset: config.name().to_string(),
        dims: tree.shape().dims().to_vec(),
        index: args.index,
        commitment,
        opening,
    })
}

fn verify_proof(args: VerifyArgs) -> Result<ExitCode, String> {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let file: ProofFile = serde_json::from_str(&read(&args.proof)?)
        .map_err(|e| format!("{} is not a valid proof file: {e}", args.proof.display()))?;
    let preset: Preset = file
        .preset
        .parse()
        .map_err(|e| format!("proof file: {e}"))?;
    let trusted = match (&args.commitment, &args.root) {
        (Some(path), _) => Some(
            report::read_commitment(&read(path)?)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        (_, Some(hex)) => Some(Commitment {
            cap: vec![report::parse_digest(hex)?],
        }),
        _ => None,
    };
    if let Some(trusted) = &trusted
        && trusted != &file.commitment
    {
        println!("INVALID: the proof is for a different commitment than the trusted one");
        return Ok(ExitCode::from(1));
    }
    let result = with_preset!(preset, |config| verify(
        &config,
        &file.commitment,
        &file.dims,
        file.index,
        &file.opening
    ));
    match result {
        Ok(()) => {
            println!(
                "valid: leaf {} of the {} commitment {}",
                file.index,
                preset,
                file.commitment
                    .cap
                    .iter()
                    .map(hex_digest)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            if trusted.is_none() {
                println!(
                    "note: checked against the commitment recorded in the proof file; pass --root or --commitment to check it against a trusted one"
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("INVALID: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// Median elements/ns of `op` on `backend`, measuring for about `budget` per run.
fn measure(backend: Backend, op: FieldOp, budget: Duration) -> Result<f64, String> {
    let run =
        |iters| dispatch_on(backend, ThroughputProbe { op, iters }).map_err(|e| e.to_string());
    let mut iters = 1u64 << 10;
    loop {
        let t = run(iters)?;
        if t.elapsed >= budget / 4 || iters >= 1 << 40 {
            let scale = budget.as_secs_f64() / t.elapsed.as_secs_f64().max(1e-9);
            iters = ((iters as f64 * scale) as u64).max(1);
            break;
        }
        iters *= 4;
    }
    let mut rates = Vec::with_capacity(5);
    for _ in 0..5 {
        rates.push(run(iters)?.elements_per_ns());
    }
    rates.sort_by(f64::total_cmp);
    Ok(rates[rates.len() / 2])
}

fn info(budget: Duration) -> Result<ExitCode, String> {
    let selected = checked_backend()?;
    let supported = Backend::supported();
    println!("backend: {selected} ({} lanes)", selected.lanes());
    let names: Vec<&str> = supported.iter().map(|b| b.name()).collect();
    println!("supported here: {}", names.join(", "));
    println!("threads: {}", rayon::current_num_threads());
    println!();
    println!("field throughput, elements per ns (single thread, median of 5):");
    print!("{:<8}", "backend");
    for op in FieldOp::ALL {
        print!("{:>10}", op.name());
    }
    println!("{:>16}", "mul vs scalar");
    let scalar_mul = measure(Backend::Scalar, FieldOp::Mul, budget)?;
    for backend in supported {
        print!("{:<8}", backend.name());
        let mut mul = 0.0;
        for op in FieldOp::ALL {
            let rate = measure(backend, op, budget)?;
            if op == FieldOp::Mul {
                mul = rate;
            }
            print!("{rate:>10.3}");
        }
        println!("{:>15.2}x", mul / scalar_mul);
    }
    Ok(ExitCode::SUCCESS)
}
