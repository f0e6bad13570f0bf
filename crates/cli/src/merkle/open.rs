//! `aurum open`: one leaf's opening, from the matrix or from a tree file kept on disk
//! (`--tree`), written to a proof file.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{
    Commitment, Matrix, MerkleConfig, MerkleTree, Preset, StoredTree, StoredTreeError, TreeShape,
};

use crate::args::OpenArgs;
use crate::error::Error;
use crate::files::{self, AtomicFile};
use crate::flags::{checked_backend, to_usize};
use crate::input::{self, MatrixSource};
use crate::merkle::proof::ProofFile;

/// The most bytes of input rows `aurum open --tree` reads for one block (a tree file that
/// drops more levels than this allows is refused, whatever its header says).
const MAX_BLOCK_BYTES: usize = 1 << 30;

pub(crate) fn open(args: OpenArgs) -> Result<ExitCode, Error> {
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
        return Err(Error::Usage(format!(
            "leaf index {index} is out of range: the matrix has {} rows",
            shape.max_height()
        )));
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

fn write_proof(out: AtomicFile, file: &ProofFile) -> Result<(), Error> {
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
fn open_from_tree_file(args: &OpenArgs, path: &Path, out: AtomicFile) -> Result<ExitCode, Error> {
    let start = Instant::now();
    let in_tree = |e: StoredTreeError| Error::Input(format!("{}: {e}", path.display()));
    // Opened without blocking, and only if it is a regular file (not a FIFO, a device).
    let stored = StoredTree::from_open_file(input::open_regular(path)?).map_err(in_tree)?;
    let info = stored.info().clone();
    let preset: Preset = info.config_name.parse().map_err(|_| {
        Error::Input(format!(
            "{}: the tree was built with the configuration {:?}, which is not an aurum preset",
            path.display(),
            info.config_name
        ))
    })?;
    let m = &args.matrix;
    let disagree = |flag: String, tree: String| {
        Error::Usage(format!(
            "{flag} differs from the tree file {}, which has {tree}",
            path.display()
        ))
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
        return Err(Error::Usage(format!(
            "open --tree needs the --input (or --bytes) file the tree file {} was committed from",
            path.display()
        )));
    }
    let cap_height = match m.cap_height {
        Some(c) => to_usize("--cap-height", c)?,
        None => info.cap_height,
    };
    let source = m.source_with_cols(info.width)?;
    let rows = source.rows()?;
    let len = source.total_bytes()?.unwrap_or(0);
    if rows != info.height || len != info.source_len {
        return Err(Error::Input(format!(
            "{} does not match the tree file {}: {rows} rows of {} values ({len} bytes), \
             the tree was committed to {} rows ({} bytes)",
            source.describe(),
            path.display(),
            info.width,
            info.height,
            info.source_len
        )));
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
            StoredTreeError::InputMismatch { .. } => Error::Input(format!(
                "{}: {e} (tree file {})",
                source.describe(),
                path.display()
            )),
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
) -> Result<ProofFile, Error> {
    // Exactly the rows the file's size gave: `aurum open` reads no further than `commit` does.
    let values = source.load(shape.max_height())?;
    let matrix = Matrix::new(&values, source.cols()).map_err(|e| Error::Failed(e.to_string()))?;
    if matrix.dimensions() != shape.dims()[0] {
        return Err(Error::Input(format!(
            "{}: the file changed while it was read",
            source.describe()
        )));
    }
    let tree = MerkleTree::new(config, vec![matrix]).map_err(|e| Error::Failed(e.to_string()))?;
    Ok(ProofFile {
        preset: config.name().to_string(),
        dims: tree.shape().dims().to_vec(),
        cap_height,
        index,
        commitment: tree
            .commitment(cap_height)
            .map_err(|e| Error::Failed(e.to_string()))?,
        opening: tree
            .open(index, cap_height)
            .map_err(|e| Error::Failed(e.to_string()))?,
    })
}
