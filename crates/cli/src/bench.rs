//! `aurum bench` and its subcommands: the arguments, converted for `aurum_bench`, which does
//! the work; [`CommandLine`] gives it this tool's files and the jobs it measures.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use aurum_bench::{BenchError, CompareOptions, Host, ImportInsnOptions, RunOptions, record::Mode};
use aurum_fri::{FriParameters, Timings};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{MerkleConfig, Preset};

use crate::args::{BenchArgs, BenchCommand, BenchRunArgs, CompareArgs, ImportInsnArgs};
use crate::error::Error;
use crate::flags::{checked_backend, checked_device, gpu_for};
use crate::{files, fri, input, merkle, progress};

/// `aurum bench` and its subcommands. Only the run computes: it alone refuses an invalid
/// `AURUM_BACKEND`; `compare` and `import-insn` read files and ignore it.
pub(crate) fn command(args: BenchArgs) -> Result<ExitCode, Error> {
    let host = CommandLine;
    match args.command {
        Some(BenchCommand::Compare(args)) => aurum_bench::compare(&host, &compare_options(args)),
        Some(BenchCommand::ImportInsn(args)) => {
            aurum_bench::import_insn(&host, &import_insn_options(args))
        }
        None => {
            let backend = checked_backend()?;
            // A GPU is measured beside the CPU where AURUM_DEVICE takes one (auto: any that
            // opens; the suite's jobs count as large).
            let gpu = gpu_for(checked_device()?, usize::MAX)?;
            aurum_bench::run(&host, &run_options(args.run, gpu), backend)
        }
    }
    .map_err(|e| Error::Bench(e.to_string()))
}

/// A failure of this tool's own code, as aurum-bench reports it (the same one-line message).
fn host_error(e: Error) -> BenchError {
    BenchError::Host(e.to_string())
}

fn run_options(args: BenchRunArgs, gpu: Option<&'static aurum_cuda::Gpu>) -> RunOptions {
    let mode = if args.quick {
        Mode::Quick
    } else if args.full {
        Mode::Full
    } else if args.smoke {
        Mode::Smoke
    } else {
        Mode::Default
    };
    RunOptions {
        mode,
        out: args.out,
        label: args.label,
        threads: args.threads,
        emulated: args.emulated,
        clock_ghz: args.clock_ghz,
        gpu,
    }
}

fn compare_options(args: CompareArgs) -> CompareOptions {
    CompareOptions {
        records: args.records,
        prices: args.prices,
        json: args.json,
        svg: args.svg,
        all: args.all,
    }
}

fn import_insn_options(args: ImportInsnArgs) -> ImportInsnOptions {
    ImportInsnOptions {
        counts: args.counts,
        table: args.table,
        out_dir: args.out_dir,
        columns: args.columns,
        date: args.date,
    }
}

/// The command line as `aurum_bench`'s host: its checked files (see [`files`]), the tree
/// building of `aurum commit`, the commit and open of `aurum fri`, its generated matrices and
/// its progress bar.
struct CommandLine;

impl aurum_bench::Steps for progress::Steps {
    fn next(&mut self, what: &str) {
        progress::Steps::next(self, what);
    }

    fn finish(&mut self) {
        progress::Steps::finish(self);
    }
}

impl Host for CommandLine {
    type Output = files::AtomicFile;
    type Steps = progress::Steps;

    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, BenchError> {
        input::read_limited(path, limit).map_err(host_error)
    }

    fn prepare(
        &self,
        outputs: &[(&str, &Path)],
        inputs: &[(&str, &Path)],
    ) -> Result<Vec<files::AtomicFile>, BenchError> {
        files::prepare(outputs, inputs).map_err(host_error)
    }

    fn write(&self, output: files::AtomicFile, contents: &[u8]) -> Result<(), BenchError> {
        output.write_and_commit(contents).map_err(host_error)
    }

    fn steps(&self, total: usize) -> progress::Steps {
        progress::Steps::new(progress::stderr_is_terminal(), total)
    }

    fn random_matrix(
        &self,
        rows: usize,
        cols: usize,
        seed: u64,
    ) -> Result<Vec<Goldilocks>, BenchError> {
        input::random_matrix(rows, cols, seed).map_err(host_error)
    }

    fn merkle_commit<C: MerkleConfig>(
        &self,
        config: &C,
        values: &[Goldilocks],
        cols: usize,
    ) -> Result<Duration, BenchError> {
        merkle::commit_in_memory(config, values, cols, 0)
            .map(|(_, _, elapsed)| elapsed)
            .map_err(host_error)
    }

    fn fri_commit_and_open(
        &self,
        preset: Preset,
        cols: usize,
        params: FriParameters,
        values: Vec<Goldilocks>,
    ) -> Result<Timings, BenchError> {
        fri::commit_and_open(preset, cols, params, values).map_err(host_error)
    }
}
