//! The commands: `commit`, `gen`, `open`, `verify`, `info` (`fri` is in its own module).

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_bench::microbench::FieldOp;
use aurum_goldilocks::{Backend, Goldilocks, selected_backend};
use aurum_merkle::{
    Commitment, Digest, Dimensions, Matrix, MerkleConfig, MerkleTree, OverlapError, Preset,
    RowSink, StoredTree, StoredTreeError, StoredTreeWriter, StreamError, StreamingCommitter,
    TreeShape, TreeSpec, root_from_cap,
};
use aurum_symmetric::Hasher;

use crate::args::{CommitArgs, GenArgs, MatrixArgs, OpenArgs, VerifyArgs};
use crate::files::{self, AtomicFile};
use crate::hex::{hex_digest, parse_digest};
use crate::input::{self, MatrixSource};
use crate::progress;
use crate::proof::{self, MAX_PROOF_BYTES, ProofFile};
use crate::report::{Report, TreeFileReport};
use crate::statement::{self, Statement, TrustedCommitment};
use aurum_bench::record::Stats;

/// The largest commitment file `aurum verify` reads (a cap of 2^24 digests is ~400 MiB of
/// JSON; real ones are a few KiB).
const MAX_COMMITMENT_BYTES: u64 = 1 << 30;

/// The most bytes of input rows `aurum open --tree` reads for one block (a tree file that
/// drops more levels than this allows is refused, whatever its header says).
const MAX_BLOCK_BYTES: usize = 1 << 30;

/// The columns without --cols.
const DEFAULT_COLS: u64 = 8;

/// The selected backend, or a clear error if `AURUM_BACKEND` is invalid.
pub(crate) fn checked_backend() -> Result<Backend, String> {
    selected_backend().map_err(|e| format!("{}: {e}", aurum_goldilocks::BACKEND_ENV))
}

/// A flag's value as `usize`.
fn to_usize(flag: &str, value: u64) -> Result<usize, String> {
    usize::try_from(value).map_err(|_| format!("{flag} {value} does not fit this machine"))
}

/// The worker pool of a `--threads` flag (all cores without it).
fn thread_pool(threads: Option<u64>) -> Result<rayon::ThreadPool, String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(to_usize("--threads", t)?);
    }
    builder
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))
}

impl MatrixArgs {
    pub(crate) fn threads(&self) -> Result<rayon::ThreadPool, String> {
        thread_pool(self.threads)
    }

    pub(crate) fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::Poseidon2W8)
    }

    fn source(&self) -> Result<MatrixSource, String> {
        self.source_with_cols(to_usize("--cols", self.cols.unwrap_or(DEFAULT_COLS))?)
    }

    fn source_with_cols(&self, cols: usize) -> Result<MatrixSource, String> {
        Ok(match (&self.input, &self.bytes) {
            (Some(path), _) => MatrixSource::U64File {
                path: path.clone(),
                cols,
            },
            (_, Some(path)) => MatrixSource::BytesFile {
                path: path.clone(),
                cols,
            },
            _ => MatrixSource::Random {
                rows: to_usize("--rows", self.rows)?,
                cols,
                seed: self.seed,
            },
        })
    }

    /// The files read, by flag: what no output may be.
    pub(crate) fn inputs(&self) -> Vec<(&'static str, &Path)> {
        let input = self.input.as_deref().map(|p| ("--input", p));
        let bytes = self.bytes.as_deref().map(|p| ("--bytes", p));
        input.into_iter().chain(bytes).collect()
    }

    pub(crate) fn cap_height(&self) -> Result<usize, String> {
        to_usize("--cap-height", self.cap_height.unwrap_or(0))
    }

    /// The source, its dimensions and the tree's shape, all checked before any work: a
    /// cap height the tree cannot have fails here, not after reading a whole file.
    pub(crate) fn plan(&self) -> Result<(MatrixSource, TreeShape), String> {
        let source = self.source()?;
        let dims = [Dimensions {
            width: source.cols(),
            height: source.rows()?,
        }];
        let shape = statement::checked_shape(&dims, self.cap_height()?)?;
        Ok((source, shape))
    }
}

/// A finished commitment and what it cost.
struct Committed {
    shape: TreeShape,
    root: Digest,
    cap: Vec<Digest>,
    elapsed: Duration,
    permutations: usize,
    tree: Option<TreeFileReport>,
}

pub(crate) fn commit(args: CommitArgs) -> Result<ExitCode, String> {
    // Started by an MPI launcher (`mpirun`): the ranks split the commitment between them.
    #[cfg(feature = "mpi")]
    if crate::distributed::launched() {
        if args.tree.is_some() {
            return Err(
                "--tree is not supported under mpirun: each rank holds only its part of \
                        the tree (run `aurum commit --tree` in one process)"
                    .to_string(),
            );
        }
        return crate::distributed::commit(&args);
    }
    let backend = checked_backend()?;
    let pool = args.matrix.threads()?;
    let (source, shape) = args.matrix.plan()?;
    let cap_height = args.matrix.cap_height()?;
    let preset = args.matrix.preset();
    let show_progress = !args.json && progress::stderr_is_terminal();
    let tree = match &args.tree {
        Some(_) if matches!(source, MatrixSource::Random { .. }) => {
            return Err(
                "--tree needs --input or --bytes: `aurum open --tree` reads the rows of a \
                 block back from that file"
                    .to_string(),
            );
        }
        Some(_) => Some(to_usize("--tree-drop", args.tree_drop)?),
        None => None,
    };
    // The outputs, checked and their temporaries created before any work.
    let outputs: Vec<(&str, &Path)> = [("--out", &args.out), ("--tree", &args.tree)]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect();
    let mut prepared = files::prepare(&outputs, &args.matrix.inputs())?.into_iter();
    let out = args.out.as_ref().and_then(|_| prepared.next());
    let tree = tree.zip(prepared.next());
    let committed = pool.install(|| {
        with_preset!(preset, |config| match tree {
            Some((dropped, file)) => commit_to_tree_file(
                &config,
                &source,
                shape,
                cap_height,
                (file, dropped),
                show_progress
            ),
            None => commit_with(&config, &source, shape, cap_height, show_progress),
        })
    })?;
    if let Some(out) = out {
        let json = statement::commitment_json(
            preset,
            committed.shape.dims(),
            cap_height,
            &committed.root,
            &committed.cap,
        );
        out.write_and_commit(json.as_bytes())?;
    }
    Report {
        backend,
        threads: pool.current_num_threads(),
        preset: preset.name(),
        source: source.describe(),
        dims: committed.shape.dims().to_vec(),
        cap_height,
        root: committed.root,
        cap: committed.cap,
        elapsed: committed.elapsed,
        permutations: committed.permutations,
        tree: committed.tree,
        mpi: None,
    }
    .print(args.json);
    Ok(ExitCode::SUCCESS)
}

/// Commits to `values` (`cols` per row) held in memory: the root, the cap, and the time the
/// tree took (what `aurum commit` reports and `aurum bench` measures).
pub(crate) fn commit_in_memory<C: MerkleConfig>(
    config: &C,
    values: &[Goldilocks],
    cols: usize,
    cap_height: usize,
) -> Result<(Digest, Vec<Digest>, Duration), String> {
    let start = Instant::now();
    let matrix = Matrix::new(values, cols).map_err(|e| e.to_string())?;
    let tree = MerkleTree::new(config, vec![matrix]).map_err(|e| e.to_string())?;
    let cap = tree.cap(cap_height).map_err(|e| e.to_string())?;
    Ok((tree.root(), cap, start.elapsed()))
}

/// The producer of `push_overlapped`: reads and decodes `source` on the second thread,
/// drawing the progress bar as it goes.
fn reader<'a>(
    source: &'a MatrixSource,
    bar: &'a mut progress::Bar,
) -> impl FnOnce(&mut RowSink) -> Result<(), String> + Send + 'a {
    move |sink| {
        let read = source.stream_rows(|rows, bytes_done| {
            sink.push(rows).map_err(|e| e.to_string())?;
            bar.update(bytes_done);
            Ok(())
        });
        bar.finish();
        read
    }
}

fn commit_with<C: MerkleConfig>(
    config: &C,
    source: &MatrixSource,
    shape: TreeShape,
    cap_height: usize,
    show_progress: bool,
) -> Result<Committed, String> {
    let permutations = shape.permutations(|len| config.leaf().permutations(len));
    if let MatrixSource::Random { .. } = source {
        let values = source.load(shape.max_height())?;
        let (root, cap, elapsed) = commit_in_memory(config, &values, source.cols(), cap_height)?;
        return Ok(Committed {
            root,
            cap,
            elapsed,
            permutations,
            shape,
            tree: None,
        });
    }
    let start = Instant::now();
    let height = shape.max_height();
    // The height the file's size promised: a file that changes length while it is read is
    // an error naming the row, never the root of another matrix.
    let mut committer = StreamingCommitter::with_height(config, source.cols(), height, cap_height)
        .map_err(|e| e.to_string())?;
    let mut bar = progress::Bar::new(show_progress, source.total_bytes()?);
    let pushed = committer.push_overlapped(reader(source, &mut bar));
    let changed = |rows: usize| {
        format!(
            "{}: the file changed while it was read: {rows} rows where its size gave {height}",
            source.describe()
        )
    };
    match pushed {
        Ok(()) => {}
        Err(OverlapError::Producer(e)) => return Err(e),
        Err(OverlapError::Stream(StreamError::WrongRowCount { rows, .. })) => {
            return Err(changed(rows));
        }
        Err(OverlapError::Stream(e)) => return Err(format!("{}: {e}", source.describe())),
    }
    let cap = match committer.finish() {
        Ok(commitment) => commitment.cap,
        Err(StreamError::WrongRowCount { rows, .. }) => return Err(changed(rows)),
        Err(e) => return Err(format!("{}: {e}", source.describe())),
    };
    let root = root_from_cap(config, &shape, cap_height, &cap).map_err(|e| e.to_string())?;
    Ok(Committed {
        root,
        cap,
        elapsed: start.elapsed(),
        permutations,
        shape,
        tree: None,
    })
}

/// Commits a file with the streaming builder and writes the tree file `file` (without its
/// lowest `dropped` digest layers) as the layers are produced.
fn commit_to_tree_file<C: MerkleConfig>(
    config: &C,
    source: &MatrixSource,
    shape: TreeShape,
    cap_height: usize,
    (file, dropped): (AtomicFile, usize),
    show_progress: bool,
) -> Result<Committed, String> {
    let permutations = shape.permutations(|len| config.leaf().permutations(len));
    let source_len = source
        .total_bytes()?
        .ok_or("--tree needs --input or --bytes")?;
    let spec = TreeSpec {
        width: source.cols(),
        height: shape.max_height(),
        cap_height,
        dropped,
        source_len,
    };
    let path = file.path().to_path_buf();
    let path = path.as_path();
    let fail = |e: StoredTreeError| match e {
        // Rows that are not the file's announced ones: the input's fault.
        StoredTreeError::Stream(e) => format!("{}: {e}", source.describe()),
        e => format!("{}: {e}", path.display()),
    };
    let start = Instant::now();
    // The temporary stays registered (Ctrl-C removes it) while `destination` lives.
    let (temp, destination) = file.into_temp()?;
    let mut writer = StoredTreeWriter::create_in(config, spec, temp, path).map_err(fail)?;
    let mut bar = progress::Bar::new(show_progress, Some(source_len));
    let pushed = writer.push_overlapped(reader(source, &mut bar));
    match pushed {
        Ok(()) => {}
        Err(OverlapError::Producer(e)) => return Err(e),
        Err(OverlapError::Stream(e)) => return Err(fail(StoredTreeError::Stream(e))),
    }
    // The destination may have changed during the work: checked again before the rename.
    destination.check()?;
    let (commitment, stored) = writer.finish().map_err(fail)?;
    drop(destination);
    let tree = TreeFileReport {
        path: path.display().to_string(),
        bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
        dropped,
    };
    Ok(Committed {
        root: stored.root(),
        cap: commitment.cap,
        elapsed: start.elapsed(),
        permutations,
        shape,
        tree: Some(tree),
    })
}

/// `aurum gen`: the generated matrix as a u64 file, written atomically.
pub(crate) fn gen_file(args: &GenArgs) -> Result<ExitCode, String> {
    let rows = to_usize("--rows", args.rows)?;
    let cols = to_usize("--cols", args.cols)?;
    let bytes = rows
        .checked_mul(cols)
        .and_then(|n| n.checked_mul(8))
        .ok_or_else(|| format!("{rows} × {cols} u64 values overflow"))?;
    let pool = thread_pool(args.threads)?;
    let start = Instant::now();
    let mut file = files::prepare_one("--out", &args.out, &[])?;
    let mut bar = progress::Bar::new(progress::stderr_is_terminal(), Some(bytes as u64));
    pool.install(|| {
        input::write_random_matrix(rows, cols, args.seed, &mut file, |done| bar.update(done))
    })
    .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
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

pub(crate) fn open(args: OpenArgs) -> Result<ExitCode, String> {
    checked_backend()?;
    // The proof file, checked and its temporary created before any work.
    let mut inputs = args.matrix.inputs();
    inputs.extend(args.tree.as_deref().map(|p| ("--tree", p)));
    let out = files::prepare_one("--out", &args.out, &inputs)?;
    if let Some(tree) = &args.tree {
        return open_from_tree_file(&args, tree, out);
    }
    let (source, shape) = args.matrix.plan()?;
    let cap_height = args.matrix.cap_height()?;
    let index = to_usize("--index", args.index)?;
    if index >= shape.max_height() {
        return Err(format!(
            "leaf index {index} is out of range: the matrix has {} rows",
            shape.max_height()
        ));
    }
    let pool = args.matrix.threads()?;
    let file = pool.install(|| {
        with_preset!(args.matrix.preset(), |config| open_with(
            &config, &source, &shape, cap_height, index
        ))
    })?;
    write_proof(out, &file)?;
    Ok(ExitCode::SUCCESS)
}

fn write_proof(out: AtomicFile, file: &ProofFile) -> Result<(), String> {
    let path = out.path().to_path_buf();
    out.write_and_commit(file.to_json().as_bytes())?;
    println!(
        "wrote the opening of leaf {} ({} matrices, {} siblings) to {}",
        file.index,
        file.dims.len(),
        file.opening.siblings.len(),
        path.display()
    );
    Ok(())
}

/// `aurum open --tree`: the opening from the tree file and the leaf's block of rows, read
/// from their place in the input file. The preset, columns and cap height are the tree's
/// unless given (and then must agree); the input must have the tree's shape and length.
fn open_from_tree_file(args: &OpenArgs, path: &Path, out: AtomicFile) -> Result<ExitCode, String> {
    let start = Instant::now();
    let in_tree = |e: StoredTreeError| format!("{}: {e}", path.display());
    // Opened without blocking, and only if it is a regular file (not a FIFO, a device).
    let stored = StoredTree::from_open_file(input::open_regular(path)?).map_err(in_tree)?;
    let info = stored.info().clone();
    let preset: Preset = info.config_name.parse().map_err(|_| {
        format!(
            "{}: the tree was built with the configuration {:?}, which is not an aurum preset",
            path.display(),
            info.config_name
        )
    })?;
    let m = &args.matrix;
    let disagree = |flag: String, tree: String| {
        format!(
            "{flag} differs from the tree file {}, which has {tree}",
            path.display()
        )
    };
    if let Some(given) = m.preset
        && given != preset
    {
        return Err(disagree(
            format!("--preset {given}"),
            format!("preset {preset}"),
        ));
    }
    if let Some(cols) = m.cols
        && usize::try_from(cols) != Ok(info.width)
    {
        return Err(disagree(
            format!("--cols {cols}"),
            format!("{} columns", info.width),
        ));
    }
    if m.input.is_none() && m.bytes.is_none() {
        return Err(format!(
            "open --tree needs the --input (or --bytes) file the tree file {} was committed from",
            path.display()
        ));
    }
    let cap_height = match m.cap_height {
        Some(c) => to_usize("--cap-height", c)?,
        None => info.cap_height,
    };
    let source = m.source_with_cols(info.width)?;
    let rows = source.rows()?;
    let len = source.total_bytes()?.unwrap_or(0);
    if rows != info.height || len != info.source_len {
        return Err(format!(
            "{} does not match the tree file {}: {rows} rows of {} values ({len} bytes), \
             the tree was committed to {} rows ({} bytes)",
            source.describe(),
            path.display(),
            info.width,
            info.height,
            info.source_len
        ));
    }
    let index = to_usize("--index", args.index)?;
    let block_rows = stored.block_rows(index).map_err(in_tree)?;
    let block = source.read_rows(block_rows.clone(), MAX_BLOCK_BYTES)?;
    let pool = m.threads()?;
    let file = pool
        .install(|| {
            with_preset!(preset, |config| open_stored(
                &config, &stored, index, cap_height, &block
            ))
        })
        .map_err(|e| match e {
            StoredTreeError::InputMismatch { .. } => {
                format!("{}: {e} (tree file {})", source.describe(), path.display())
            }
            e => in_tree(e),
        })?;
    let elapsed = start.elapsed();
    write_proof(out, &file)?;
    println!(
        "from the tree file {} (rows {}..{} rebuilt, {} stored levels read) in {:.2} ms",
        path.display(),
        block_rows.start,
        block_rows.end,
        stored.shape().depth() - info.dropped,
        elapsed.as_secs_f64() * 1e3
    );
    Ok(ExitCode::SUCCESS)
}

/// The proof file of leaf `index` from a stored tree and the rows of the leaf's block.
fn open_stored<C: MerkleConfig>(
    config: &C,
    stored: &StoredTree,
    index: usize,
    cap_height: usize,
    block: &[Goldilocks],
) -> Result<ProofFile, StoredTreeError> {
    let opening = stored.open(config, index, cap_height, block)?;
    Ok(ProofFile {
        preset: config.name().to_string(),
        dims: stored.shape().dims().to_vec(),
        cap_height,
        index,
        commitment: Commitment {
            cap: stored.cap(cap_height)?,
        },
        opening,
    })
}

fn open_with<C: MerkleConfig>(
    config: &C,
    source: &MatrixSource,
    shape: &TreeShape,
    cap_height: usize,
    index: usize,
) -> Result<ProofFile, String> {
    // Exactly the rows the file's size gave: `aurum open` reads no further than `commit` does.
    let values = source.load(shape.max_height())?;
    let matrix = Matrix::new(&values, source.cols()).map_err(|e| e.to_string())?;
    if matrix.dimensions() != shape.dims()[0] {
        return Err(format!(
            "{}: the file changed while it was read",
            source.describe()
        ));
    }
    let tree = MerkleTree::new(config, vec![matrix]).map_err(|e| e.to_string())?;
    Ok(ProofFile {
        preset: config.name().to_string(),
        dims: tree.shape().dims().to_vec(),
        cap_height,
        index,
        commitment: tree.commitment(cap_height).map_err(|e| e.to_string())?,
        opening: tree.open(index, cap_height).map_err(|e| e.to_string())?,
    })
}

/// The contents of `path`, a regular file (anything else is refused without being read or
/// waited on: [`input::open_regular`]), refused when larger than `limit` bytes — by its size
/// before reading, and by what is read (a file that grows meanwhile).
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let too_large = || {
        format!(
            "{} is larger than {} MiB, more than any file aurum writes",
            path.display(),
            limit >> 20
        )
    };
    let file = input::open_regular_with(path, 0).map_err(|e| e.message(path, "read"))?;
    let len = file.metadata().map_err(fail)?.len();
    if len > limit {
        return Err(too_large());
    }
    let mut contents = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut contents)
        .map_err(fail)?;
    if contents.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(contents)
}

/// The verifier's statement, from `--commitment` or from `--root` and its flags.
fn trusted_statement(args: &VerifyArgs) -> Result<Statement, String> {
    if let Some(path) = &args.commitment {
        let text = read_limited(path, MAX_COMMITMENT_BYTES)?;
        let text = String::from_utf8(text)
            .map_err(|_| format!("{} is not a commitment file (not UTF-8)", path.display()))?;
        return Statement::from_commitment_json(&text)
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    let missing = |flag: &str| format!("--root needs {flag}: the verifier states the tree");
    let root = parse_digest(args.root.as_deref().ok_or_else(|| {
        "verify needs the trusted commitment: --commitment FILE, or --root with --preset, \
         --rows and --cols"
            .to_string()
    })?)
    .map_err(|e| format!("--root: {e}"))?;
    let preset = args.preset.ok_or_else(|| missing("--preset"))?;
    let dims = [Dimensions {
        width: to_usize("--cols", args.cols.ok_or_else(|| missing("--cols"))?)?,
        height: to_usize("--rows", args.rows.ok_or_else(|| missing("--rows"))?)?,
    }];
    let cap_height = to_usize("--cap-height", args.cap_height.unwrap_or(0))?;
    Statement::with_root(preset, &dims, cap_height, root)
}

pub(crate) fn verify(args: VerifyArgs) -> Result<ExitCode, String> {
    let statement = trusted_statement(&args)?;
    let text = read_limited(&args.proof, MAX_PROOF_BYTES)?;
    let file = ProofFile::parse(&text)
        .map_err(|e| format!("{} is not a valid proof file: {e}", args.proof.display()))?;
    let index = args.index.map(|i| to_usize("--index", i)).transpose()?;
    let verified = match proof::check(&statement, &file, index) {
        Ok(verified) => verified,
        Err(rejection) => {
            println!("INVALID: {rejection}");
            return Ok(ExitCode::from(1));
        }
    };
    let commitment = match statement.commitment() {
        TrustedCommitment::Root(root) => format!("root {}", hex_digest(root)),
        TrustedCommitment::Cap(cap) if cap.len() == 1 => format!("root {}", hex_digest(&cap[0])),
        TrustedCommitment::Cap(cap) => format!(
            "cap of height {} ({} digests)",
            statement.cap_height(),
            cap.len()
        ),
    };
    println!(
        "valid: leaf {} of the {} commitment with {commitment}",
        verified.index,
        statement.preset()
    );
    for row in &verified.rows {
        let d = statement.dims()[row.matrix];
        let values: Vec<String> = row
            .values
            .iter()
            .map(|x| x.as_canonical_u64().to_string())
            .collect();
        println!(
            "matrix {} ({} × {}), row {}: [{}]",
            row.matrix,
            d.height,
            d.width,
            row.row,
            values.join(", ")
        );
    }
    if index.is_none() {
        println!(
            "note: leaf {} is the one the proof file names; pass --index to ask about a \
             particular leaf",
            verified.index
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Median elements/ns of `op` on `backend`, measuring for about `budget` per run.
fn measure(backend: Backend, op: FieldOp, budget: Duration) -> Result<f64, String> {
    let (_, rates) =
        aurum_bench::measure::field_op_rates(backend, op, budget, 5).map_err(|e| e.to_string())?;
    Ok(Stats::of(&rates).map_or(0.0, |s| s.median) / 1e9)
}

pub(crate) fn info(budget: Duration) -> Result<ExitCode, String> {
    let selected = checked_backend()?;
    let supported = Backend::supported();
    println!("backend: {}", selected.describe());
    match (aurum_sve::cpu_has_sve(), aurum_sve::detect()) {
        (_, Some(sve)) => println!(
            "sve: {}, {}-bit vectors ({} lanes); selected by default: {}",
            sve.flavour,
            sve.vector_bits(),
            sve.lanes,
            if aurum_goldilocks::dispatch::sve_preferred() {
                "yes"
            } else {
                "no"
            }
        ),
        (true, None) => println!("sve: the CPU has it, but this build has no SVE kernels"),
        (false, None) => {}
    }
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
