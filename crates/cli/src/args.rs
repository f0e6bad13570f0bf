//! The command line.

use std::path::PathBuf;

use aurum_merkle::Preset;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand};

/// The largest cap height a flag accepts: a cap of 2^24 digests (512 MiB) is already far
/// beyond any use; the tree's own depth bounds it further.
pub const MAX_CAP_HEIGHT: u64 = 24;

/// The most digest layers `--tree-drop` leaves out: an opening then rebuilds a block of 2^24
/// rows (of `--cols` values each) from the input file.
pub const MAX_TREE_DROP: u64 = 24;

/// `aurum` and its options.
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
pub struct Cli {
    /// The subcommand (default: `commit`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the default `commit` job.
    #[command(flatten)]
    pub commit: CommitArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Commit to a matrix and print its root (the default).
    Commit(CommitArgs),
    /// Write a seeded pseudo-random matrix as a file of u64 values (for `--input`): the same
    /// matrix `aurum commit --rows R --cols C --seed S` generates, so both give one root.
    Gen(GenArgs),
    /// Open one leaf of a commitment and write the proof to a file.
    Open(OpenArgs),
    /// Check a proof file written by `aurum open` against a commitment you trust.
    Verify(VerifyArgs),
    /// Commit to a matrix with FRI (Plonky3's TwoAdicFriPcs), open it at random points,
    /// verify, and report each phase; `aurum fri verify` checks a saved proof.
    Fri(Box<FriArgs>),
    /// Measure this machine with the standard suite (about 2 minutes; --quick ~20 s), print
    /// the table and write its JSON record; `aurum bench compare` compares records.
    Bench(Box<BenchArgs>),
    /// Print the selected backend and field throughput on every backend this CPU has.
    Info {
        /// Milliseconds to spend per measurement (the median of 5 runs is shown).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        millis: u64,
    },
}

/// `--preset`: one of [`Preset::ALL`], listed in `--help`.
fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    PossibleValuesParser::new(Preset::ALL.map(Preset::name)).try_map(|name| name.parse::<Preset>())
}

/// What to commit to, and how.
#[derive(Args, Debug, Clone)]
pub struct MatrixArgs {
    /// Rows of the generated matrix (ignored with --input/--bytes).
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..=1 << 36))]
    pub rows: u64,
    /// Columns of the matrix (the row width of --input/--bytes files too) [default: 8; with
    /// `open --tree`, the tree file's width].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub cols: Option<u64>,
    /// Seed of the generated matrix.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Commit to a file of little-endian u64 values (each < p), row-major, --cols per row.
    #[arg(long, value_name = "FILE", conflicts_with = "bytes")]
    pub input: Option<PathBuf>,
    /// Commit to any file: bytes packed 7 per element (little-endian), then a 0x01 byte and
    /// zeros up to a whole row, so that different files never give the same matrix.
    #[arg(long, value_name = "FILE")]
    pub bytes: Option<PathBuf>,
    /// Tree configuration [default: poseidon2-w8; with `open --tree`, the tree file's].
    #[arg(long, value_parser = preset_parser())]
    pub preset: Option<Preset>,
    /// Height of the cap (0 = a single root; at most the tree's depth) [default: 0; with
    /// `open --tree`, the tree file's].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_CAP_HEIGHT))]
    pub cap_height: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
}

/// `aurum commit`.
#[derive(Args, Debug)]
pub struct CommitArgs {
    /// The matrix and the tree.
    #[command(flatten)]
    pub matrix: MatrixArgs,
    /// Print one JSON object instead of text (it includes everything `--out` writes).
    #[arg(long)]
    pub json: bool,
    /// Also write the commitment — preset, dimensions, cap height, root and cap: what a
    /// verifier needs — to this JSON file, for `aurum verify --commitment`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also keep the tree: write its digest layers, as they are produced, to this tree file
    /// (with --input or --bytes), for `aurum open --tree` to answer openings from.
    #[arg(long, value_name = "PATH")]
    pub tree: Option<PathBuf>,
    /// With --tree: leave out the lowest K digest layers (the file shrinks by about 2^-K;
    /// an opening rebuilds a block of 2^K rows from the input file).
    #[arg(long, value_name = "K", requires = "tree", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=MAX_TREE_DROP))]
    pub tree_drop: u64,
}

/// `aurum gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Rows.
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub rows: u64,
    /// Columns.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub cols: u64,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The file to write (replaced only once complete).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
}

/// `aurum open`.
#[derive(Args, Debug)]
pub struct OpenArgs {
    /// The matrix and the tree.
    #[command(flatten)]
    pub matrix: MatrixArgs,
    /// Leaf (row) to open.
    #[arg(long)]
    pub index: u64,
    /// Open from the tree file `aurum commit --tree` wrote for this --input (or --bytes)
    /// file: reads only the leaf's path and its block of rows; the preset, columns and cap
    /// height default to the tree's.
    #[arg(long, value_name = "PATH")]
    pub tree: Option<PathBuf>,
    /// Where to write the proof (JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `aurum verify`: the statement comes from the verifier, either a commitment file or a root
/// with the tree's preset and shape.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("trusted").required(true).args(["commitment", "root"])))]
pub struct VerifyArgs {
    /// Proof file written by `aurum open`.
    #[arg(long, value_name = "FILE")]
    pub proof: PathBuf,
    /// The trusted commitment: a file written by `aurum commit --out` (or its `--json`
    /// output). Preset, dimensions, cap height and cap are taken from it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["root", "preset", "rows", "cols", "cap_height"])]
    pub commitment: Option<PathBuf>,
    /// The trusted root: four comma-separated hex words, as `aurum commit` prints it. Needs
    /// --preset, --rows and --cols (and --cap-height if the proof was made with a cap).
    #[arg(long, value_name = "HEX", requires_all = ["preset", "rows", "cols"])]
    pub root: Option<String>,
    /// The committed tree's configuration (with --root).
    #[arg(long, value_parser = preset_parser())]
    pub preset: Option<Preset>,
    /// Rows of the committed matrix (with --root).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub rows: Option<u64>,
    /// Columns of the committed matrix (with --root).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub cols: Option<u64>,
    /// Cap height the proof was made with (with --root; default 0).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_CAP_HEIGHT))]
    pub cap_height: Option<u64>,
    /// The leaf to check. Without it, the proof file's leaf is checked and reported.
    #[arg(long)]
    pub index: Option<u64>,
}

/// The Merkle presets FRI runs with: Plonky3's Poseidon2 trees, whose duplex challenger of the
/// same width (rate `width − 4`) drives the transcript.
pub const FRI_PRESETS: [Preset; 3] = [
    Preset::Poseidon2W8,
    Preset::Poseidon2W12,
    Preset::Poseidon2W16,
];

/// `--preset` of `aurum fri`: one of [`FRI_PRESETS`].
fn fri_preset_parser() -> impl TypedValueParser<Value = Preset> {
    PossibleValuesParser::new(FRI_PRESETS.map(Preset::name)).try_map(|name| name.parse::<Preset>())
}

/// Plonky3's FRI parameter presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FriPreset {
    /// Blow-up 2, binary folding, 100 queries, 16 query proof-of-work bits.
    Benchmark,
    /// As `benchmark`, folding by up to 8, 10 batch proof-of-work bits.
    HighArity,
    /// Blow-up 4, binary folding, 2 queries, 1 bit of commit and query proof of work.
    Testing,
}

/// What a FRI statement is about: the matrix's shape, the scheme, and the points. The
/// verifier gives these itself (`aurum fri verify`); the prover uses the same flags.
#[derive(Args, Debug, Clone)]
pub struct FriStatementArgs {
    /// Rows of the matrix (a power of two; ignored by `aurum fri` with --input, which reads
    /// whole rows of --cols values).
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(1..=1 << 31))]
    pub rows: u64,
    /// Columns of the matrix.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub cols: u64,
    /// Merkle tree and challenger width.
    #[arg(long, default_value = "poseidon2-w8", value_parser = fri_preset_parser())]
    pub preset: Preset,
    /// FRI parameter preset (each parameter can be overridden below).
    #[arg(long, value_enum, default_value_t = FriPreset::Benchmark)]
    pub params: FriPreset,
    /// Override: the LDE blow-up, as log2 (1..=4).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub log_blowup: Option<u64>,
    /// Override: the final polynomial's length, as log2.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub log_final_poly_len: Option<u64>,
    /// Override: the largest folding arity, as log2 (1..=4).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub max_log_arity: Option<u64>,
    /// Override: query repetitions.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1 << 16))]
    pub num_queries: Option<u64>,
    /// Override: proof-of-work bits before the batching challenge.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub batch_pow_bits: Option<u64>,
    /// Override: proof-of-work bits before each folding challenge.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub commit_pow_bits: Option<u64>,
    /// Override: proof-of-work bits before the query indices.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub query_pow_bits: Option<u64>,
    /// Opening points, drawn from the transcript after the commitment.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub points: u64,
    /// Height of the cap (0 = a single root).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_CAP_HEIGHT))]
    pub cap_height: u64,
}

/// `aurum fri`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct FriArgs {
    /// `verify` (default: commit, open and verify).
    #[command(subcommand)]
    pub command: Option<FriCommand>,
    /// The statement and the run.
    #[command(flatten)]
    pub prove: FriProveArgs,
}

/// `aurum fri` subcommands.
#[derive(Subcommand, Debug)]
pub enum FriCommand {
    /// Check a proof file written by `aurum fri --out` against a root you trust; the
    /// matrix's shape, the parameters and the points come from these flags, not the file.
    Verify(FriVerifyArgs),
}

/// `aurum fri` (commit, open, verify).
#[derive(Args, Debug)]
pub struct FriProveArgs {
    /// The statement.
    #[command(flatten)]
    pub statement: FriStatementArgs,
    /// Seed of the generated matrix.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Commit to a file of little-endian u64 values (each < p), row-major, --cols per row;
    /// its row count must be a power of two.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the proof file (commitment, opened values, proof) for `aurum fri verify`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `aurum fri verify`.
#[derive(Args, Debug)]
pub struct FriVerifyArgs {
    /// Proof file written by `aurum fri --out`.
    #[arg(long, value_name = "FILE")]
    pub proof: PathBuf,
    /// The trusted root: four comma-separated hex words, as `aurum fri` prints it.
    #[arg(long, value_name = "HEX")]
    pub root: String,
    /// The statement.
    #[command(flatten)]
    pub statement: FriStatementArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `aurum bench`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    /// `compare` or `import-insn` (default: run the suite).
    #[command(subcommand)]
    pub command: Option<BenchCommand>,
    /// The run.
    #[command(flatten)]
    pub run: BenchRunArgs,
}

/// `aurum bench` subcommands.
#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Compare records of several machines: a markdown table (or --json), costs with
    /// --price, a chart with --svg.
    Compare(CompareArgs),
    /// Make records of executed instructions from the counts of scripts/arm-instructions.sh
    /// (one per emulated CPU model).
    ImportInsn(ImportInsnArgs),
}

/// `aurum bench` (the run).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("size").args(["quick", "full", "smoke"])))]
pub struct BenchRunArgs {
    /// About 20 seconds: 3 repetitions, matrices a quarter of the standard size.
    #[arg(long)]
    pub quick: bool,
    /// Longer: 11 repetitions of longer runs at the standard sizes.
    #[arg(long)]
    pub full: bool,
    /// Tiny sizes for tests of the suite itself (its figures mean nothing).
    #[arg(long, hide = true)]
    pub smoke: bool,
    /// Where to write the JSON record (default: bench-LABEL.json).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The machine's name in comparisons (default: the host name).
    #[arg(long)]
    pub label: Option<String>,
    /// Threads of the all-threads measurements (default: all logical CPUs).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
    /// Mark the run as emulated (e.g. `qemu-aarch64-sve2-256`): its wall times then describe
    /// the emulator; also set by the AURUM_EMULATED environment variable.
    #[arg(long, value_name = "NAME")]
    pub emulated: Option<String>,
    /// The CPU clock in GHz, where the OS does not report it (for per-GHz figures).
    #[arg(long, value_name = "GHZ")]
    pub clock_ghz: Option<f64>,
}

/// `aurum bench compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Records written by `aurum bench` or `aurum bench import-insn`; ratios are to the
    /// first that has each figure.
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
    /// The hourly price of a machine, by its label (repeatable): adds the cost of a million
    /// permutations and of a 2^24 × 136 plonky2 commitment (extrapolated).
    #[arg(long = "price", value_name = "LABEL=USD_PER_HOUR")]
    pub prices: Vec<String>,
    /// Print the comparison as JSON instead of markdown.
    #[arg(long)]
    pub json: bool,
    /// Also draw the chart (permutations per second per thread, cost, instructions) as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Include the per-backend and per-batch-size details.
    #[arg(long)]
    pub all: bool,
}

/// `aurum bench import-insn`.
#[derive(Args, Debug)]
pub struct ImportInsnArgs {
    /// The counts.csv written by scripts/arm-instructions.sh.
    #[arg(value_name = "COUNTS_CSV")]
    pub counts: PathBuf,
    /// The table.md written with it, whose heading (qemu version, commit, compilers) becomes
    /// the records' source (default: table.md next to COUNTS_CSV, if there).
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Directory to write the records to, one ARCH-qemu-COLUMN.json per column.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out_dir: PathBuf,
    /// Only these columns (comma-separated, e.g. neon,sve2-128).
    #[arg(long, value_delimiter = ',')]
    pub columns: Vec<String>,
    /// The records' date, YYYY-MM-DDTHH:MM:SSZ (default: now).
    #[arg(long)]
    pub date: Option<String>,
}
