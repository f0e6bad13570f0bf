//! `aurum gen`: the generated matrix as a file of u64 values, for `--input`.

use std::process::ExitCode;
use std::time::Instant;

use crate::args::GenArgs;
use crate::error::Error;
use crate::files;
use crate::flags::{thread_pool, to_usize};
use crate::input;
use crate::progress;

/// `aurum gen`: the generated matrix as a u64 file, written atomically.
pub(crate) fn gen_file(args: &GenArgs) -> Result<ExitCode, Error> {
    let rows = to_usize("--rows", args.rows)?;
    let cols = to_usize("--cols", args.cols)?;
    let bytes = rows
        .checked_mul(cols)
        .and_then(|n| n.checked_mul(8))
        .ok_or_else(|| Error::Usage(format!("{rows} × {cols} u64 values overflow")))?;
    let pool = thread_pool(args.threads)?;
    let start = Instant::now();
    let mut file = files::prepare_one("--out", &args.out, &[])?;
    let mut bar = progress::Bar::new(progress::stderr_is_terminal(), Some(bytes as u64));
    pool.install(|| {
        input::write_random_matrix(rows, cols, args.seed, &mut file, |done| bar.update(done))
    })
    .map_err(|e| e.context(format_args!("cannot write {}", args.out.display())))?;
    bar.finish();
    file.commit()?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "wrote {rows} × {cols} u64 values (seed {}, {:.1} MiB) to {} in {seconds:.2} s \
         ({:.0} MB/s)",
        args.seed,
        bytes as f64 / 1048576.0,
        args.out.display(),
        bytes as f64 / seconds / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
