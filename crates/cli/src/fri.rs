//! `aurum fri`: the FRI polynomial commitment end to end — commit (LDE and Merkle tree), open
//! at points drawn from the transcript, verify — with the time of every phase; and
//! `aurum fri verify`, which checks a saved proof against a statement the verifier gives
//! itself (shape, parameters, number of points, trusted root). Like `aurum verify`, a proof
//! file's own claims about the statement (root included) are only compared with the
//! verifier's, field by field; only the cap (checked against the trusted root), the opened
//! values (exactly one per column at each point the verifier draws) and the proof are taken
//! from it. The verifier's claims are built from the statement: the file sizes nothing.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_fri::{
    CommitmentClaim, Evaluations, FriParameters, FriPcs, FriProof, MatrixClaim, OpeningRequest,
    ParamsError, PointClaim, Timings, claims, codec,
};
use aurum_goldilocks::{Backend, Goldilocks2};
use aurum_merkle::{Commitment, Dimensions, MerkleConfig, Preset, TreeShape, root_from_cap};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};
use serde::{Deserialize, Serialize};

use crate::args::{FriPreset, FriProveArgs, FriStatementArgs, FriVerifyArgs};
use crate::files;
use crate::hex::{hex_digest, hex_words, parse_cap, parse_digest};
use crate::input::{MatrixSource, random_matrix};
use crate::progress;
use crate::report::peak_memory_bytes;

/// The largest proof file `aurum fri verify` reads (real ones are a few hundred KiB).
const MAX_FRI_PROOF_BYTES: u64 = 256 << 20;

/// The proof file's `format` value.
const FORMAT: &str = "aurum-fri-proof";

/// What a FRI proof is about, from the verifier's (or the prover's) flags: made by
/// [`FriStatementArgs::statement`], which checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    preset: Preset,
    rows: usize,
    cols: usize,
    params: FriParameters,
    points: usize,
    cap_height: usize,
}

fn to_usize(flag: &str, value: u64) -> Result<usize, String> {
    usize::try_from(value).map_err(|_| format!("{flag} {value} does not fit this machine"))
}

impl FriStatementArgs {
    /// The statement, checked: valid parameters, a power-of-two height whose LDE fits the
    /// largest domain, a cap height no greater than the LDE tree's depth. `rows` replaces
    /// `--rows` (a file's row count).
    pub fn statement(&self, rows: Option<usize>) -> Result<Statement, String> {
        let mut params = match self.params {
            FriPreset::Benchmark => FriParameters::benchmark(),
            FriPreset::HighArity => FriParameters::benchmark_high_arity(),
            FriPreset::Testing => FriParameters::testing(0),
        };
        let overrides = [
            ("--log-blowup", self.log_blowup, &mut params.log_blowup),
            (
                "--log-final-poly-len",
                self.log_final_poly_len,
                &mut params.log_final_poly_len,
            ),
            (
                "--max-log-arity",
                self.max_log_arity,
                &mut params.max_log_arity,
            ),
            ("--num-queries", self.num_queries, &mut params.num_queries),
            (
                "--batch-pow-bits",
                self.batch_pow_bits,
                &mut params.batch_proof_of_work_bits,
            ),
            (
                "--commit-pow-bits",
                self.commit_pow_bits,
                &mut params.commit_proof_of_work_bits,
            ),
            (
                "--query-pow-bits",
                self.query_pow_bits,
                &mut params.query_proof_of_work_bits,
            ),
        ];
        for (flag, value, field) in overrides {
            if let Some(value) = value {
                *field = to_usize(flag, value)?;
            }
        }
        params
            .validate()
            .map_err(|e: ParamsError| format!("parameters: {e}"))?;
        let rows = match rows {
            Some(rows) => rows,
            None => to_usize("--rows", self.rows)?,
        };
        if !rows.is_power_of_two() {
            return Err(format!(
                "the matrix has {rows} rows: FRI needs a power of two"
            ));
        }
        let log_lde = rows.trailing_zeros() as usize + params.log_blowup;
        if log_lde > aurum_fri::MAX_LOG_DOMAIN {
            return Err(format!(
                "{rows} rows with blow-up 2^{} exceed the largest domain, 2^{}",
                params.log_blowup,
                aurum_fri::MAX_LOG_DOMAIN
            ));
        }
        // With a final polynomial longer than a constant, the codeword must fold at least once.
        if params.log_final_poly_len > 0 && log_lde <= params.log_final_height() {
            return Err(format!(
                "{rows} rows are too few for a final polynomial of 2^{} coefficients",
                params.log_final_poly_len
            ));
        }
        let statement = Statement {
            preset: self.preset,
            rows,
            cols: to_usize("--cols", self.cols)?,
            params,
            points: to_usize("--points", self.points)?,
            cap_height: to_usize("--cap-height", self.cap_height)?,
        };
        // `aurum commit`'s rule: the cap is a layer of the committed tree (here the LDE's).
        let lde = Dimensions {
            width: statement.cols,
            height: rows << statement.params.log_blowup,
        };
        crate::statement::checked_shape(&[lde], statement.cap_height).map_err(|e| {
            format!(
                "{e} (the LDE of {rows} rows with blow-up 2^{})",
                statement.params.log_blowup
            )
        })?;
        Ok(statement)
    }
}

impl Statement {
    fn log_rows(&self) -> usize {
        self.rows.trailing_zeros() as usize
    }

    /// The committed tree: one LDE of `rows · blowup` rows.
    fn lde_shape(&self) -> TreeShape {
        TreeShape::new(&[Dimensions {
            width: self.cols,
            height: self.rows << self.params.log_blowup,
        }])
        .expect("checked when the statement was made")
    }
}

/// Runs `$body` with `$config` and `$challenger` (a constructor of a fresh transcript) for a
/// Poseidon2 preset.
macro_rules! with_fri_preset {
    ($preset:expr, |$config:ident, $challenger:ident| $body:expr) => {
        match $preset {
            Preset::Poseidon2W8 => {
                let $config = aurum_merkle::config::poseidon2_w8();
                let $challenger =
                    || DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
                $body
            }
            Preset::Poseidon2W12 => {
                let $config = aurum_merkle::config::poseidon2_w12();
                let $challenger =
                    || DuplexChallenger::<_, 12, 8>::new(Poseidon2Goldilocks::<12>::new());
                $body
            }
            Preset::Poseidon2W16 => {
                let $config = aurum_merkle::config::poseidon2_w16();
                let $challenger =
                    || DuplexChallenger::<_, 16, 12>::new(Poseidon2Goldilocks::<16>::new());
                $body
            }
            other => Err(format!("FRI runs with the Poseidon2 presets, not {other}")),
        }
    };
}

/// The proof file: the prover's claims about the statement (compared, never used), the cap,
/// the opened values and the proof (compact binary, in hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FriProofFile {
    /// `aurum-fri-proof`.
    pub format: String,
    /// 1.
    pub version: u32,
    /// The Merkle preset.
    pub preset: String,
    /// Rows of the committed matrix.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// FRI parameters.
    pub params: FriParameters,
    /// Opening points drawn.
    pub points: usize,
    /// Cap height.
    pub cap_height: usize,
    /// The root, `0x…,0x…,0x…,0x…`.
    pub root: String,
    /// The cap, each digest as four hex words.
    pub cap: Vec<Vec<String>>,
    /// `opened_values[k][j]`: column `j` at point `k`.
    pub opened_values: Vec<Vec<Goldilocks2>>,
    /// The proof's compact binary encoding, in hex.
    pub proof: String,
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err("odd number of hex digits".to_string());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| format!("not hex at position {i}"))
        })
        .collect()
}

/// Draws the opening points after absorbing the commitment: what both sides do.
fn draw_points<Ch: Challenger>(
    challenger: &mut Ch,
    commitment: &Commitment,
    n: usize,
) -> Vec<Goldilocks2> {
    for digest in &commitment.cap {
        challenger.observe_slice(digest);
    }
    (0..n).map(|_| challenger.sample_ext()).collect()
}

/// What `aurum fri` measured.
struct Proved {
    root: aurum_merkle::Digest,
    timings: Timings,
    verify: Duration,
    proof_bytes: usize,
    file: FriProofFile,
}

fn prove_with<C: MerkleConfig, Ch: Challenger>(
    config: C,
    new_challenger: impl Fn() -> Ch,
    statement: &Statement,
    values: Vec<aurum_goldilocks::Goldilocks>,
    status: &mut progress::Status,
) -> Result<Proved, String> {
    let pcs = FriPcs::new(config, statement.params)
        .map_err(|e| e.to_string())?
        .with_cap_height(statement.cap_height);
    let mut timings = Timings::default();
    status.show("committing (LDE, Merkle tree)");
    let (commitment, data) = pcs
        .commit_timed(vec![Evaluations::new(values, statement.cols)], &mut timings)
        .map_err(|e| e.to_string())?;
    status.show("opening (evaluations, quotients, FRI, queries)");
    let mut challenger = new_challenger();
    let points = vec![draw_points(&mut challenger, &commitment, statement.points)];
    let (values, proof) = pcs
        .open_timed(
            &[OpeningRequest {
                data: &data,
                points: &points,
            }],
            &mut challenger,
            &mut timings,
        )
        .map_err(|e| e.to_string())?;
    drop(data);
    status.show("verifying");
    let verify_start = Instant::now();
    let mut challenger = new_challenger();
    let points = vec![draw_points(&mut challenger, &commitment, statement.points)];
    let claims = claims(
        std::slice::from_ref(&commitment),
        &[vec![statement.log_rows()]],
        &[points],
        &values,
    );
    pcs.verify(&claims, &proof, &mut challenger)
        .map_err(|e| format!("the proof just made does not verify: {e}"))?;
    let verify = verify_start.elapsed();
    status.clear();
    let bytes = codec::encode(&proof);
    let root = root_from_cap(
        pcs.config(),
        &statement.lde_shape(),
        statement.cap_height,
        &commitment.cap,
    )
    .map_err(|e| e.to_string())?;
    let file = FriProofFile {
        format: FORMAT.to_string(),
        version: 1,
        preset: statement.preset.name().to_string(),
        rows: statement.rows,
        cols: statement.cols,
        params: statement.params,
        points: statement.points,
        cap_height: statement.cap_height,
        root: hex_digest(&root),
        cap: commitment.cap.iter().map(hex_words).collect(),
        opened_values: values.into_iter().flatten().flatten().collect(),
        proof: to_hex(&bytes),
    };
    Ok(Proved {
        root,
        timings,
        verify,
        proof_bytes: bytes.len(),
        file,
    })
}

/// The proof file `aurum fri --seed SEED --out FILE` writes for `statement` (the generated
/// matrix of that seed), with its root: a genuine proof, for tests and fuzz targets.
pub fn prove_generated(
    statement: &Statement,
    seed: u64,
) -> Result<(aurum_merkle::Digest, FriProofFile), String> {
    let values = random_matrix(statement.rows, statement.cols, seed)?;
    let mut status = progress::Status::new(false);
    with_fri_preset!(statement.preset, |config, challenger| prove_with(
        config,
        challenger,
        statement,
        values,
        &mut status
    ))
    .map(|proved| (proved.root, proved.file))
}

/// Commits to `values` (a `rows × cols` matrix, `rows` a power of two) with FRI under
/// `params`, opens it at two points drawn from the transcript and verifies, as `aurum fri`
/// does; returns the time of each phase of the commitment and the opening (what `aurum bench`
/// measures).
pub(crate) fn commit_and_open(
    preset: Preset,
    cols: usize,
    params: FriParameters,
    values: Vec<aurum_goldilocks::Goldilocks>,
) -> Result<Timings, String> {
    params
        .validate()
        .map_err(|e: ParamsError| format!("parameters: {e}"))?;
    let rows = values.len().checked_div(cols).unwrap_or(0);
    let statement = Statement {
        preset,
        rows,
        cols,
        params,
        points: 2,
        cap_height: 0,
    };
    if !rows.is_power_of_two()
        || rows.trailing_zeros() as usize + params.log_blowup > aurum_fri::MAX_LOG_DOMAIN
    {
        return Err(format!(
            "FRI cannot commit to {rows} rows with these parameters"
        ));
    }
    let mut status = progress::Status::new(false);
    with_fri_preset!(preset, |config, challenger| prove_with(
        config,
        challenger,
        &statement,
        values,
        &mut status
    ))
    .map(|proved| proved.timings)
}

/// The most proof-of-work bits `aurum fri` grinds in one phase. A search for `b` bits takes
/// about `2^b` permutations: 2^32 is about 13 minutes on one core (and the search runs on
/// every thread); each bit more doubles that, and 63 — which the library and Plonky3's
/// verifier accept — would grind for tens of thousands of years (docs/cli.md). `aurum fri
/// verify` checks a witness with one permutation, so it accepts what the library does.
pub const MAX_POW_BITS: u64 = 32;

/// Refuses proof of work that would not finish (see [`MAX_POW_BITS`]), before any work.
fn check_pow_bits(statement: &FriStatementArgs) -> Result<(), String> {
    for (flag, bits) in [
        ("--batch-pow-bits", statement.batch_pow_bits),
        ("--commit-pow-bits", statement.commit_pow_bits),
        ("--query-pow-bits", statement.query_pow_bits),
    ] {
        if let Some(bits) = bits.filter(|&bits| bits > MAX_POW_BITS) {
            return Err(format!(
                "{flag} {bits}: aurum fri grinds at most {MAX_POW_BITS} bits of proof of work \
                 per phase (2^{bits} permutations would not finish)"
            ));
        }
    }
    Ok(())
}

/// `aurum fri`.
pub(crate) fn prove(args: FriProveArgs, backend: Backend) -> Result<ExitCode, String> {
    check_pow_bits(&args.statement)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(to_usize("--threads", t)?);
    }
    let pool = builder
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    let cols = to_usize("--cols", args.statement.cols)?;
    let (source, rows) = match &args.input {
        Some(path) => {
            let source = MatrixSource::U64File {
                path: path.clone(),
                cols,
            };
            let rows = source.rows()?;
            (source, Some(rows))
        }
        None => {
            let rows = to_usize("--rows", args.statement.rows)?;
            (
                MatrixSource::Random {
                    rows,
                    cols,
                    seed: args.seed,
                },
                None,
            )
        }
    };
    let statement = args.statement.statement(rows)?;
    // The proof file, checked and its temporary created before any work.
    let inputs: Vec<(&str, &Path)> = args
        .input
        .iter()
        .map(|p| ("--input", p.as_path()))
        .collect();
    let out = args
        .out
        .as_deref()
        .map(|path| files::prepare_one("--out", path, &inputs))
        .transpose()?;
    let mut status = progress::Status::new(!args.json && progress::stderr_is_terminal());
    let proved = pool.install(|| {
        let values = match &source {
            MatrixSource::Random { rows, cols, seed } => random_matrix(*rows, *cols, *seed)?,
            other => other.load(statement.rows)?,
        };
        with_fri_preset!(statement.preset, |config, challenger| prove_with(
            config,
            challenger,
            &statement,
            values,
            &mut status
        ))
    })?;
    if let Some(out) = out {
        let json = serde_json::to_string_pretty(&proved.file).expect("plain data serialises");
        out.write_and_commit(json.as_bytes())?;
    }
    print_report(
        &args,
        &statement,
        &source,
        backend,
        pool.current_num_threads(),
        &proved,
    );
    Ok(ExitCode::SUCCESS)
}

/// The JSON report of `aurum fri`.
#[derive(Serialize)]
struct JsonReport<'a> {
    backend: &'a str,
    /// The SVE vector length in bits when the backend is SVE (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    sve_vector_bits: Option<usize>,
    threads: usize,
    preset: &'a str,
    source: String,
    rows: usize,
    cols: usize,
    params: FriParameters,
    conjectured_soundness_bits: usize,
    points: usize,
    cap_height: usize,
    root: String,
    seconds: JsonSeconds,
    proof_bytes: usize,
    peak_memory_bytes: Option<u64>,
}

#[derive(Serialize)]
struct JsonSeconds {
    lde: f64,
    merkle: f64,
    evaluation: f64,
    quotients: f64,
    commit_phase: f64,
    grinding: f64,
    queries: f64,
    commit_and_open: f64,
    verify: f64,
}

fn print_report(
    args: &FriProveArgs,
    statement: &Statement,
    source: &MatrixSource,
    backend: Backend,
    threads: usize,
    proved: &Proved,
) {
    let t = &proved.timings;
    let params = &statement.params;
    let peak = peak_memory_bytes();
    if args.json {
        let report = JsonReport {
            backend: backend.name(),
            sve_vector_bits: backend.sve().map(|sve| sve.vector_bits()),
            threads,
            preset: statement.preset.name(),
            source: source.describe(),
            rows: statement.rows,
            cols: statement.cols,
            params: *params,
            conjectured_soundness_bits: params.conjectured_soundness_bits(),
            points: statement.points,
            cap_height: statement.cap_height,
            root: hex_digest(&proved.root),
            seconds: JsonSeconds {
                lde: t.lde.as_secs_f64(),
                merkle: t.merkle.as_secs_f64(),
                evaluation: t.evaluation.as_secs_f64(),
                quotients: t.quotients.as_secs_f64(),
                commit_phase: t.commit_phase.as_secs_f64(),
                grinding: t.grinding.as_secs_f64(),
                queries: t.queries.as_secs_f64(),
                commit_and_open: t.total().as_secs_f64(),
                verify: proved.verify.as_secs_f64(),
            },
            proof_bytes: proved.proof_bytes,
            peak_memory_bytes: peak,
        };
        println!(
            "{}",
            serde_json::to_string(&report).expect("plain data serialises")
        );
        return;
    }
    let ms = |d: Duration| format!("{:9.1} ms", d.as_secs_f64() * 1e3);
    println!("backend:      {}", backend.describe());
    println!("threads:      {threads}");
    println!(
        "matrix:       {} rows × {} columns, {}",
        statement.rows,
        statement.cols,
        source.describe()
    );
    println!("preset:       {}", statement.preset);
    println!(
        "parameters:   log_blowup {}, log_final_poly_len {}, max_log_arity {}, {} queries, \
         proof-of-work bits {} batch / {} commit / {} query",
        params.log_blowup,
        params.log_final_poly_len,
        params.max_log_arity,
        params.num_queries,
        params.batch_proof_of_work_bits,
        params.commit_proof_of_work_bits,
        params.query_proof_of_work_bits
    );
    println!(
        "soundness:    {} bits (conjectured)",
        params.conjectured_soundness_bits()
    );
    println!("points:       {}", statement.points);
    println!("root:         {}", hex_digest(&proved.root));
    println!("LDE:          {}", ms(t.lde));
    println!("Merkle tree:  {}", ms(t.merkle));
    println!("evaluation:   {}", ms(t.evaluation));
    println!("quotients:    {}", ms(t.quotients));
    println!("commit phase: {}", ms(t.commit_phase));
    println!("grinding:     {}", ms(t.grinding));
    println!("queries:      {}", ms(t.queries));
    println!("total:        {}  (commit + open)", ms(t.total()));
    println!("verify:       {}", ms(proved.verify));
    println!("proof size:   {} bytes", proved.proof_bytes);
    match peak {
        Some(b) => println!("peak memory:  {:.1} MiB", b as f64 / 1048576.0),
        None => println!("peak memory:  unknown"),
    }
    if let Some(out) = &args.out {
        println!("proof file:   {}", out.display());
    }
}

/// Why a proof file does not prove the verifier's statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// A claim of the file differs from the statement (or its cap does not lead to the
    /// trusted root, or its opened values do not have the statement's shape).
    Claim {
        /// The file's field, e.g. `root` or `opened_values[1]`.
        field: String,
        /// What the file says and what the verifier states.
        reason: String,
    },
    /// The proof does not verify.
    Proof(aurum_fri::VerifyError),
}

impl core::fmt::Display for Rejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Rejection::Claim { field, reason } => write!(f, "proof field `{field}`: {reason}"),
            Rejection::Proof(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Rejection {}

fn claim(field: impl Into<String>, reason: String) -> Rejection {
    Rejection::Claim {
        field: field.into(),
        reason,
    }
}

/// A proof file, parsed: its claims, and the cap, root and proof decoded (a file whose
/// values cannot be decoded is malformed, not merely invalid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedProofFile {
    /// The file as written.
    pub file: FriProofFile,
    /// Its `root` claim.
    pub root: aurum_merkle::Digest,
    /// Its cap.
    pub cap: Vec<aurum_merkle::Digest>,
    /// Its proof.
    pub proof: FriProof,
}

/// Parses a proof file written by `aurum fri --out`: JSON without unknown fields (at any
/// depth), format `aurum-fri-proof` version 1, a root and a cap of canonical digests, and a
/// proof in the compact encoding. The errors are the CLI's exit-status-2 messages (without
/// the file's name).
pub fn parse_proof_file(text: &[u8]) -> Result<ParsedProofFile, String> {
    let file: FriProofFile = serde_json::from_slice(text)
        .map_err(|e| format!("not a proof file of `aurum fri`: {e}"))?;
    if file.format != FORMAT || file.version != 1 {
        return Err("not a proof file of `aurum fri` version 1".to_string());
    }
    let root = parse_digest(&file.root).map_err(|e| format!("root: {e}"))?;
    let cap = parse_cap(&file.cap)?;
    let bytes = from_hex(&file.proof).map_err(|e| format!("proof: {e}"))?;
    let proof = codec::decode(&bytes).map_err(|e| format!("proof: {e}"))?;
    Ok(ParsedProofFile {
        file,
        root,
        cap,
        proof,
    })
}

/// What a verified proof file proves: the committed matrix takes `values[k]` (one value per
/// column) at `points[k]`, the points the verifier drew itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The opening points, drawn from the transcript after the trusted commitment.
    pub points: Vec<Goldilocks2>,
    /// `values[k][j]`: column `j` at `points[k]`.
    pub values: Vec<Vec<Goldilocks2>>,
}

/// Compares every claim of the file with the statement and the trusted root: the shape,
/// parameters, point count and cap height, the root, the cap (it must hash to the root) and
/// the opened values (exactly one value per column at each point).
fn check_claims(
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<(), Rejection> {
    let file = &parsed.file;
    let differ = |field: &'static str, claimed: String, stated: String| {
        if claimed == stated {
            Ok(())
        } else {
            Err(claim(
                field,
                format!("the file says {claimed}, the verifier states {stated}"),
            ))
        }
    };
    differ(
        "preset",
        file.preset.clone(),
        statement.preset.name().to_string(),
    )?;
    differ("rows", file.rows.to_string(), statement.rows.to_string())?;
    differ("cols", file.cols.to_string(), statement.cols.to_string())?;
    differ(
        "params",
        format!("{:?}", file.params),
        format!("{:?}", statement.params),
    )?;
    differ(
        "points",
        file.points.to_string(),
        statement.points.to_string(),
    )?;
    differ(
        "cap_height",
        file.cap_height.to_string(),
        statement.cap_height.to_string(),
    )?;
    differ("root", hex_digest(&parsed.root), hex_digest(root))?;
    let values = &file.opened_values;
    if values.len() != statement.points {
        return Err(claim(
            "opened_values",
            format!(
                "the file has values at {} points, the verifier draws {}",
                values.len(),
                statement.points
            ),
        ));
    }
    for (k, at_point) in values.iter().enumerate() {
        if at_point.len() != statement.cols {
            return Err(claim(
                format!("opened_values[{k}]"),
                format!(
                    "the file has {} values, the verifier states {} columns",
                    at_point.len(),
                    statement.cols
                ),
            ));
        }
    }
    Ok(())
}

/// Verifies `parsed` against `statement` and the trusted `root`.
fn check<C: MerkleConfig, Ch: Challenger>(
    config: C,
    new_challenger: impl Fn() -> Ch,
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<Result<Verified, Rejection>, String> {
    if let Err(rejection) = check_claims(statement, root, parsed) {
        return Ok(Err(rejection));
    }
    let shape = statement.lde_shape();
    match root_from_cap(&config, &shape, statement.cap_height, &parsed.cap) {
        Ok(r) if r == *root => {}
        Ok(r) => {
            return Ok(Err(claim(
                "cap",
                format!("it hashes to {}, not the trusted root", hex_digest(&r)),
            )));
        }
        Err(e) => return Ok(Err(claim("cap", e.to_string()))),
    }
    let commitment = Commitment {
        cap: parsed.cap.clone(),
    };
    let pcs = FriPcs::new(config, statement.params)
        .map_err(|e| e.to_string())?
        .with_cap_height(statement.cap_height);
    let mut challenger = new_challenger();
    let points = draw_points(&mut challenger, &commitment, statement.points);
    // The verifier's claims, shaped by the statement alone: one matrix of `log_rows`, the
    // points drawn here, and (checked above) one value per column at each of them. The
    // library takes every width and count from these claims.
    let claims = [CommitmentClaim {
        commitment,
        matrices: vec![MatrixClaim {
            log_height: statement.log_rows(),
            points: points
                .iter()
                .zip(&parsed.file.opened_values)
                .map(|(&point, values)| PointClaim {
                    point,
                    values: values.clone(),
                })
                .collect(),
        }],
    }];
    if let Err(e) = pcs.verify(&claims, &parsed.proof, &mut challenger) {
        return Ok(Err(Rejection::Proof(e)));
    }
    let [claim] = claims;
    let (points, values) = claim
        .matrices
        .into_iter()
        .flat_map(|m| m.points)
        .map(|p| (p.point, p.values))
        .unzip();
    Ok(Ok(Verified { points, values }))
}

/// Checks a parsed proof file against the verifier's `statement` and trusted `root`, as
/// `aurum fri verify` does: `Ok(Ok(verified))` for a proof of the statement, `Ok(Err(_))` for
/// a file that is not one (exit status 1), `Err(_)` for a statement the verifier cannot run.
pub fn check_proof_file(
    statement: &Statement,
    root: &aurum_merkle::Digest,
    parsed: &ParsedProofFile,
) -> Result<Result<Verified, Rejection>, String> {
    with_fri_preset!(statement.preset, |config, challenger| check(
        config, challenger, statement, root, parsed
    ))
}

/// Reads and parses a proof file (malformed files are errors, exit status 2).
fn read_file(path: &Path) -> Result<ParsedProofFile, String> {
    let text = crate::commands::read_limited(path, MAX_FRI_PROOF_BYTES)?;
    parse_proof_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `aurum fri verify`.
pub(crate) fn verify(args: FriVerifyArgs) -> Result<ExitCode, String> {
    let statement = args.statement.statement(None)?;
    let root = parse_digest(&args.root).map_err(|e| format!("--root: {e}"))?;
    let parsed = read_file(&args.proof)?;
    let start = Instant::now();
    let result = check_proof_file(&statement, &root, &parsed)?;
    let elapsed = start.elapsed();
    match result {
        Ok(verified) => {
            if args.json {
                // Only what was verified: the verifier's own statement, the points it drew
                // and the values the proof bound there.
                let report = serde_json::json!({
                    "valid": true,
                    "preset": statement.preset.name(),
                    "rows": statement.rows,
                    "cols": statement.cols,
                    "params": statement.params,
                    "cap_height": statement.cap_height,
                    "root": hex_digest(&root),
                    "points": statement.points,
                    "opening_points": verified.points,
                    "opened_values": verified.values,
                    "seconds": elapsed.as_secs_f64(),
                });
                println!("{report}");
            } else {
                println!(
                    "valid: the {} × {} matrix committed to in root {} takes the claimed values \
                     at the {} points the transcript draws ({:.1} ms)",
                    statement.rows,
                    statement.cols,
                    hex_digest(&root),
                    statement.points,
                    elapsed.as_secs_f64() * 1e3
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(rejection) => {
            println!("INVALID: {rejection}");
            Ok(ExitCode::from(1))
        }
    }
}
