//! `aurum fri`: commit (LDE and Merkle tree), open at points drawn from the transcript and
//! verify, timing every phase; and the same for `aurum bench` and for tests.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use aurum_fri::{
    Evaluations, FriParameters, FriPcs, OpeningRequest, ParamsError, Timings, claims, codec,
};
use aurum_goldilocks::Backend;
use aurum_merkle::{MerkleConfig, Preset, root_from_cap};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};

use crate::args::{FriProveArgs, FriStatementArgs};
use crate::error::Error;
use crate::files;
use crate::flags::{checked_device, thread_pool, to_usize};
use crate::fri::preset::{draw_points, with_fri_preset};
use crate::fri::proof_file::{FORMAT, FriProofFile};
use crate::fri::report::{Proved, print_report};
use crate::fri::statement::Statement;
use crate::hex::{hex_bytes, hex_digest, hex_words};
use crate::input::{MatrixSource, random_matrix};
use crate::progress;

/// Proves with `engine` computing the LDE and the input tree where it takes the job.
fn prove_with<C: MerkleConfig, Ch: Challenger>(
    config: C,
    new_challenger: impl Fn() -> Ch,
    statement: &Statement,
    values: Vec<aurum_goldilocks::Goldilocks>,
    engine: Option<&Arc<aurum_cuda::GpuCommitEngine>>,
    status: &mut progress::Status,
) -> Result<Proved, Error> {
    let mut pcs = FriPcs::new(config, statement.params)
        .map_err(|e| Error::Failed(e.to_string()))?
        .with_cap_height(statement.cap_height);
    if let Some(engine) = engine {
        pcs = pcs.with_engine(engine.clone());
    }
    let mut timings = Timings::default();
    status.show("committing (LDE, Merkle tree)");
    let (commitment, data) = pcs
        .commit_timed(vec![Evaluations::new(values, statement.cols)], &mut timings)
        .map_err(|e| Error::Failed(e.to_string()))?;
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
        .map_err(|e| Error::Failed(e.to_string()))?;
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
        .map_err(|e| Error::Failed(format!("the proof just made does not verify: {e}")))?;
    let verify = verify_start.elapsed();
    status.clear();
    let bytes = codec::encode(&proof);
    let root = root_from_cap(
        pcs.config(),
        &statement.lde_shape(),
        statement.cap_height,
        &commitment.cap,
    )
    .map_err(|e| Error::Failed(e.to_string()))?;
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
        proof: hex_bytes(&bytes),
    };
    let device = match engine {
        Some(engine) if engine.jobs() + engine.trees() + engine.folds() + engine.openings() > 0 => {
            let mut work = Vec::new();
            if engine.jobs() > 0 {
                work.push("LDE and Merkle tree".to_string());
            }
            if engine.trees() > 0 {
                work.push(format!("{} commit-phase trees", engine.trees()));
            }
            if engine.folds() > 0 {
                work.push(format!("{} folds", engine.folds()));
            }
            if engine.openings() > 0 {
                work.push("reduced openings".to_string());
            }
            format!("{} (CUDA): {}", engine.gpu().info().name, work.join(", "))
        }
        _ => "cpu".to_string(),
    };
    Ok(Proved {
        root,
        device,
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
) -> Result<(aurum_merkle::Digest, FriProofFile), Error> {
    let values = random_matrix(statement.rows, statement.cols, seed)?;
    let mut status = progress::Status::new(false);
    with_fri_preset!(statement.preset, |config, challenger| prove_with(
        config,
        challenger,
        statement,
        values,
        None,
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
) -> Result<Timings, Error> {
    params
        .validate()
        .map_err(|e: ParamsError| Error::Statement(format!("parameters: {e}")))?;
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
        return Err(Error::Statement(format!(
            "FRI cannot commit to {rows} rows with these parameters"
        )));
    }
    let mut status = progress::Status::new(false);
    with_fri_preset!(preset, |config, challenger| prove_with(
        config,
        challenger,
        &statement,
        values,
        None,
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
fn check_pow_bits(statement: &FriStatementArgs) -> Result<(), Error> {
    for (flag, bits) in [
        ("--batch-pow-bits", statement.batch_pow_bits),
        ("--commit-pow-bits", statement.commit_pow_bits),
        ("--query-pow-bits", statement.query_pow_bits),
    ] {
        if let Some(bits) = bits.filter(|&bits| bits > MAX_POW_BITS) {
            return Err(Error::Usage(format!(
                "{flag} {bits}: aurum fri grinds at most {MAX_POW_BITS} bits of proof of work \
                 per phase (2^{bits} permutations would not finish)"
            )));
        }
    }
    Ok(())
}

/// `aurum fri`.
pub(crate) fn prove(args: FriProveArgs, backend: Backend) -> Result<ExitCode, Error> {
    check_pow_bits(&args.statement)?;
    let pool = thread_pool(args.threads)?;
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
    let device = checked_device()?;
    let engine =
        aurum_cuda::GpuCommitEngine::for_job(device, statement.rows.saturating_mul(statement.cols))
            .map_err(|e| Error::Backend(format!("{}={device}: {e}", aurum_cuda::DEVICE_ENV)))?
            .map(Arc::new);
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
            engine.as_ref(),
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
