//! The report of `aurum fri`: the time of every phase, the proof size, the soundness, as text
//! or JSON.

use std::time::Duration;

use aurum_fri::{FriParameters, Timings};
use aurum_goldilocks::Backend;
use serde::Serialize;

use crate::args::FriProveArgs;
use crate::fri::proof_file::FriProofFile;
use crate::fri::statement::Statement;
use crate::hex::hex_digest;
use crate::input::MatrixSource;
use crate::report::{RunJson, peak_memory_bytes, peak_memory_text, print_json};

/// What `aurum fri` measured.
pub(crate) struct Proved {
    pub(crate) root: aurum_merkle::Digest,
    /// Where the LDE and the input tree were computed (`cpu`, or the GPU's name).
    pub(crate) device: String,
    pub(crate) timings: Timings,
    pub(crate) verify: Duration,
    pub(crate) proof_bytes: usize,
    pub(crate) file: FriProofFile,
}

/// The JSON report of `aurum fri`.
#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    run: RunJson,
    device: &'a str,
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

pub(crate) fn print_report(
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
            run: RunJson::new(backend, threads),
            device: &proved.device,
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
        print_json(&report);
        return;
    }
    let ms = |d: Duration| format!("{:9.1} ms", d.as_secs_f64() * 1e3);
    println!("backend:      {}", backend.describe());
    println!("device:       {}", proved.device);
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
    println!("peak memory:  {}", peak_memory_text(peak));
    if let Some(out) = &args.out {
        println!("proof file:   {}", out.display());
    }
}
