//! `aurum fri`: the FRI polynomial commitment end to end — commit (LDE and Merkle tree), open
//! at points drawn from the transcript, verify — with the time of every phase; and
//! `aurum fri verify`, which checks a saved proof against a statement the verifier gives
//! itself (shape, parameters, number of points, trusted root). Like `aurum verify`, a proof
//! file's own claims about the statement are only compared with the verifier's, field by
//! field; only the cap (checked against the trusted root), the opened values and the proof
//! are taken from it.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_fri::{
    Evaluations, FriParameters, FriPcs, FriProof, OpeningRequest, ParamsError, Timings, claims,
    codec,
};
use aurum_goldilocks::{Backend, Goldilocks2};
use aurum_merkle::{Commitment, Dimensions, MerkleConfig, Preset, TreeShape, root_from_cap};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};
use serde::{Deserialize, Serialize};

use crate::args::{FriPreset, FriProveArgs, FriStatementArgs, FriVerifyArgs};
use crate::files::write_atomically;
use crate::hex::{hex_digest, hex_words, parse_cap, parse_digest};
use crate::input::{MatrixSource, random_matrix};
use crate::progress;
use crate::report::peak_memory_bytes;

/// The largest proof file `aurum fri verify` reads (real ones are a few hundred KiB).
const MAX_FRI_PROOF_BYTES: u64 = 256 << 20;

/// The proof file's `format` value.
const FORMAT: &str = "aurum-fri-proof";

/// What a FRI proof is about, from the verifier's (or the prover's) flags.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Statement {
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
    /// largest domain. `rows` replaces `--rows` (a file's row count).
    fn statement(&self, rows: Option<usize>) -> Result<Statement, String> {
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
        Ok(Statement {
            preset: self.preset,
            rows,
            cols: to_usize("--cols", self.cols)?,
            params,
            points: to_usize("--points", self.points)?,
            cap_height: to_usize("--cap-height", self.cap_height)?,
        })
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
        statement.cap_height.min(statement.lde_shape().depth()),
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
    if let Some(out) = &args.out {
        let json = serde_json::to_string_pretty(&proved.file).expect("plain data serialises");
        write_atomically(out, json.as_bytes())?;
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
    /// A claim of the file differs from the statement.
    Claim {
        /// The file's field.
        field: &'static str,
        /// What the file says and what the verifier states.
        reason: String,
    },
    /// The file's cap does not lead to the trusted root.
    Cap(String),
    /// The proof does not verify.
    Proof(aurum_fri::VerifyError),
}

impl core::fmt::Display for Rejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Rejection::Claim { field, reason } => write!(f, "proof field `{field}`: {reason}"),
            Rejection::Cap(reason) => write!(f, "cap: {reason}"),
            Rejection::Proof(e) => write!(f, "{e}"),
        }
    }
}

/// Compares the file's claims with the statement.
fn check_claims(statement: &Statement, file: &FriProofFile) -> Result<(), Rejection> {
    let differ = |field: &'static str, claimed: String, stated: String| {
        if claimed == stated {
            Ok(())
        } else {
            Err(Rejection::Claim {
                field,
                reason: format!("the file says {claimed}, the verifier states {stated}"),
            })
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
    Ok(())
}

/// Verifies `file` against `statement` and the trusted `root`.
fn check<C: MerkleConfig, Ch: Challenger>(
    config: C,
    new_challenger: impl Fn() -> Ch,
    statement: &Statement,
    root: &aurum_merkle::Digest,
    file: &FriProofFile,
    proof: &FriProof,
) -> Result<Result<(), Rejection>, String> {
    if let Err(rejection) = check_claims(statement, file) {
        return Ok(Err(rejection));
    }
    let cap = parse_cap(&file.cap)?;
    let shape = statement.lde_shape();
    let cap_height = statement.cap_height.min(shape.depth());
    match root_from_cap(&config, &shape, cap_height, &cap) {
        Ok(r) if r == *root => {}
        Ok(r) => {
            return Ok(Err(Rejection::Cap(format!(
                "it hashes to {}, not the trusted root",
                hex_digest(&r)
            ))));
        }
        Err(e) => return Ok(Err(Rejection::Cap(e.to_string()))),
    }
    let commitment = Commitment { cap };
    let pcs = FriPcs::new(config, statement.params)
        .map_err(|e| e.to_string())?
        .with_cap_height(statement.cap_height);
    let mut challenger = new_challenger();
    let points = vec![draw_points(&mut challenger, &commitment, statement.points)];
    let values = vec![vec![file.opened_values.clone()]];
    let claims = claims(
        &[commitment],
        &[vec![statement.log_rows()]],
        &[points],
        &values,
    );
    Ok(pcs
        .verify(&claims, proof, &mut challenger)
        .map_err(Rejection::Proof))
}

/// Reads and parses a proof file (malformed files are errors, exit status 2).
fn read_file(path: &Path) -> Result<(FriProofFile, FriProof), String> {
    let text = crate::commands::read_limited(path, MAX_FRI_PROOF_BYTES)?;
    let file: FriProofFile = serde_json::from_slice(&text)
        .map_err(|e| format!("{} is not a proof file of `aurum fri`: {e}", path.display()))?;
    if file.format != FORMAT || file.version != 1 {
        return Err(format!(
            "{} is not a proof file of `aurum fri` version 1",
            path.display()
        ));
    }
    let bytes = from_hex(&file.proof).map_err(|e| format!("{}: proof: {e}", path.display()))?;
    let proof = codec::decode(&bytes).map_err(|e| format!("{}: proof: {e}", path.display()))?;
    Ok((file, proof))
}

/// `aurum fri verify`.
pub(crate) fn verify(args: FriVerifyArgs) -> Result<ExitCode, String> {
    let statement = args.statement.statement(None)?;
    let root = parse_digest(&args.root).map_err(|e| format!("--root: {e}"))?;
    let (file, proof) = read_file(&args.proof)?;
    let start = Instant::now();
    let result = with_fri_preset!(statement.preset, |config, challenger| check(
        config, challenger, &statement, &root, &file, &proof
    ))?;
    let elapsed = start.elapsed();
    match result {
        Ok(()) => {
            if args.json {
                let report = serde_json::json!({
                    "valid": true,
                    "root": hex_digest(&root),
                    "rows": statement.rows,
                    "cols": statement.cols,
                    "points": statement.points,
                    "opened_values": file.opened_values,
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
