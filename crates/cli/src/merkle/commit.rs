//! `aurum commit` in one process: a generated matrix in memory, a file with the streaming
//! builder (reading overlapped with hashing), and the tree file of `--tree`.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{
    Digest, Matrix, MerkleConfig, MerkleTree, OverlapError, RowSink, StoredTreeError,
    StoredTreeWriter, StreamError, StreamingCommitter, TreeShape, TreeSpec, root_from_cap,
};
use aurum_symmetric::Hasher;

use crate::args::CommitArgs;
use crate::error::Error;
use crate::files::{self, AtomicFile};
use crate::flags::{checked_backend, checked_device, gpu_for, to_usize};
use crate::input::MatrixSource;
use crate::merkle::report::{Report, TreeFileReport};
use crate::merkle::statement;
use crate::progress;

/// A finished commitment and what it cost.
struct Committed {
    shape: TreeShape,
    root: Digest,
    cap: Vec<Digest>,
    elapsed: Duration,
    permutations: usize,
    tree: Option<TreeFileReport>,
    /// "cpu", or the GPU's name.
    device: String,
}

pub(crate) fn commit(args: CommitArgs) -> Result<ExitCode, Error> {
    // Started by an MPI launcher (`mpirun`): the ranks split the commitment between them.
    #[cfg(feature = "mpi")]
    if crate::merkle::distributed::launched() {
        if args.tree.is_some() {
            return Err(Error::Usage(
                "--tree is not supported under mpirun: each rank holds only its part of \
                        the tree (run `aurum commit --tree` in one process)"
                    .to_string(),
            ));
        }
        return crate::merkle::distributed::commit(&args);
    }
    let backend = checked_backend()?;
    let device = checked_device()?;
    let pool = args.matrix.threads()?;
    let (source, shape) = args.matrix.plan()?;
    let gpu = commit_gpu(device, &args, &source, &shape)?;
    let cap_height = args.matrix.cap_height()?;
    let preset = args.matrix.preset();
    let show_progress = !args.json && progress::stderr_is_terminal();
    let tree = match &args.tree {
        Some(_) if matches!(source, MatrixSource::Random { .. }) => {
            return Err(Error::Usage(
                "--tree needs --input or --bytes: `aurum open --tree` reads the rows of a \
                 block back from that file"
                    .to_string(),
            ));
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
        with_preset!(preset, |config| match (tree, gpu) {
            (None, Some(gpu)) => commit_on_gpu(gpu, preset, &config, &source, shape, cap_height),
            (Some((dropped, file)), _) => commit_to_tree_file(
                &config,
                &source,
                shape,
                cap_height,
                (file, dropped),
                show_progress
            ),
            (None, None) => commit_with(&config, &source, shape, cap_height, show_progress),
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
        device: committed.device,
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

/// The GPU `aurum commit` runs on (`None`: the CPU). `AURUM_DEVICE=cuda` takes it for every
/// input (a file streams through page-locked buffers as it is read) and fails where there is
/// none; `auto` takes it for a
/// generated matrix from [`aurum_cuda::AUTO_MIN_ELEMENTS`] elements on, where one opens. A
/// file stays on the CPU's streaming builder under `auto` (it reads overlapped with hashing
/// in bounded memory), and `--tree` always does (it writes the layers as they are built).
fn commit_gpu(
    device: aurum_cuda::DeviceChoice,
    args: &CommitArgs,
    source: &MatrixSource,
    shape: &TreeShape,
) -> Result<Option<&'static aurum_cuda::Gpu>, Error> {
    use aurum_cuda::DeviceChoice;
    let generated = matches!(source, MatrixSource::Random { .. });
    match device {
        DeviceChoice::Cuda if args.tree.is_some() => Err(Error::Usage(format!(
            "--tree is written by the CPU's streaming builder: run it with {}=cpu or auto",
            aurum_cuda::DEVICE_ENV
        ))),
        DeviceChoice::Auto if args.tree.is_some() || !generated => Ok(None),
        _ => {
            let elements = shape.max_height().saturating_mul(source.cols());
            let Some(gpu) = gpu_for(device, elements)? else {
                return Ok(None);
            };
            let usable = gpu.kernel_usable(aurum_cuda::GpuKernel::Tree(args.matrix.preset()));
            Ok(takes_preset(device, usable)?.then_some(gpu))
        }
    }
}

/// Whether the GPU takes the commitment, given whether the preset's tree kernels passed its
/// known-answer check (`usable`): a refused preset stays on the CPU under auto, and under cuda
/// the refusal is the error.
fn takes_preset(
    device: aurum_cuda::DeviceChoice,
    usable: Result<(), aurum_cuda::CudaError>,
) -> Result<bool, Error> {
    match usable {
        Ok(()) => Ok(true),
        Err(e) if device == aurum_cuda::DeviceChoice::Cuda => Err(Error::Backend(format!(
            "{}=cuda: {e}",
            aurum_cuda::DEVICE_ENV
        ))),
        Err(_) => Ok(false),
    }
}

/// Commits on the GPU: a generated matrix from memory, a file streamed as it is read (never
/// whole in memory), the layers left on the device, only the cap and root copied back.
fn commit_on_gpu<C: MerkleConfig>(
    gpu: &aurum_cuda::Gpu,
    preset: aurum_merkle::Preset,
    config: &C,
    source: &MatrixSource,
    shape: TreeShape,
    cap_height: usize,
) -> Result<Committed, Error> {
    let permutations = shape.permutations(|len| config.leaf().permutations(len));
    let failed = |e: &dyn std::fmt::Display| Error::Failed(format!("GPU: {e}"));
    let gpu_error = |e: aurum_cuda::CommitError| match e {
        aurum_cuda::CommitError::Cuda(e @ aurum_cuda::CudaError::OutOfMemory { .. }) => {
            Error::OutOfMemory(format!("GPU: {e}"))
        }
        e => failed(&e),
    };
    let start = Instant::now();
    let tree = if let MatrixSource::Random { .. } = source {
        let values = source.load(shape.max_height())?;
        let matrix = Matrix::new(&values, source.cols()).map_err(|e| failed(&e))?;
        aurum_cuda::commit_on_device(gpu, preset, &[matrix]).map_err(gpu_error)?
    } else {
        // A file streams through the page-locked buffers as it is read: never whole in memory.
        let mut stream =
            aurum_cuda::StreamingCommit::new(gpu, preset, shape.max_height(), source.cols())
                .map_err(gpu_error)?;
        let mut pushed: Result<(), aurum_cuda::CommitError> = Ok(());
        source
            .stream_rows(|piece, _| {
                pushed = stream.push(piece);
                match &pushed {
                    Ok(()) => Ok(()),
                    // Stop reading; the GPU's error is reported below.
                    Err(_) => Err(Error::Failed(String::new())),
                }
            })
            .or_else(|e| if pushed.is_err() { Ok(()) } else { Err(e) })?;
        let stream_error = |e| match e {
            aurum_cuda::CommitError::RowCount {
                announced,
                received,
            } => Error::Input(format!(
                "the file changed while it was read: {received} rows where its size gave \
                 {announced}"
            )),
            e => gpu_error(e),
        };
        pushed.map_err(stream_error)?;
        stream.finish().map_err(stream_error)?
    };
    let cap = tree.cap(cap_height).map_err(|e| failed(&e))?;
    let root = tree.root().map_err(|e| failed(&e))?;
    Ok(Committed {
        root,
        cap,
        elapsed: start.elapsed(),
        permutations,
        shape,
        tree: None,
        device: format!("{} (CUDA)", gpu.info().name),
    })
}

/// Commits to `values` (`cols` per row) held in memory: the root, the cap, and the time the
/// tree took (what `aurum commit` reports and `aurum bench` measures).
pub(crate) fn commit_in_memory<C: MerkleConfig>(
    config: &C,
    values: &[Goldilocks],
    cols: usize,
    cap_height: usize,
) -> Result<(Digest, Vec<Digest>, Duration), Error> {
    let start = Instant::now();
    let failed = |e: &dyn std::fmt::Display| Error::Failed(e.to_string());
    let matrix = Matrix::new(values, cols).map_err(|e| failed(&e))?;
    let tree = MerkleTree::new(config, vec![matrix]).map_err(|e| failed(&e))?;
    let cap = tree.cap(cap_height).map_err(|e| failed(&e))?;
    Ok((tree.root(), cap, start.elapsed()))
}

/// The producer of `push_overlapped`: reads and decodes `source` on the second thread,
/// drawing the progress bar as it goes.
fn reader<'a>(
    source: &'a MatrixSource,
    bar: &'a mut progress::Bar,
) -> impl FnOnce(&mut RowSink) -> Result<(), Error> + Send + 'a {
    move |sink| {
        let read = source.stream_rows(|rows, bytes_done| {
            sink.push(rows).map_err(|e| Error::Input(e.to_string()))?;
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
) -> Result<Committed, Error> {
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
            device: "cpu".to_string(),
        });
    }
    let start = Instant::now();
    let height = shape.max_height();
    // The height the file's size promised: a file that changes length while it is read is
    // an error naming the row, never the root of another matrix.
    let mut committer = StreamingCommitter::with_height(config, source.cols(), height, cap_height)
        .map_err(|e| Error::Failed(e.to_string()))?;
    let mut bar = progress::Bar::new(show_progress, source.total_bytes()?);
    let pushed = committer.push_overlapped(reader(source, &mut bar));
    let changed = |rows: usize| {
        Error::Input(format!(
            "{}: the file changed while it was read: {rows} rows where its size gave {height}",
            source.describe()
        ))
    };
    let in_source = |e: StreamError| Error::Input(format!("{}: {e}", source.describe()));
    match pushed {
        Ok(()) => {}
        Err(OverlapError::Producer(e)) => return Err(e),
        Err(OverlapError::Stream(StreamError::WrongRowCount { rows, .. })) => {
            return Err(changed(rows));
        }
        Err(OverlapError::Stream(e)) => return Err(in_source(e)),
    }
    let cap = match committer.finish() {
        Ok(commitment) => commitment.cap,
        Err(StreamError::WrongRowCount { rows, .. }) => return Err(changed(rows)),
        Err(e) => return Err(in_source(e)),
    };
    let root = root_from_cap(config, &shape, cap_height, &cap)
        .map_err(|e| Error::Failed(e.to_string()))?;
    Ok(Committed {
        root,
        cap,
        elapsed: start.elapsed(),
        permutations,
        shape,
        tree: None,
        device: "cpu".to_string(),
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
) -> Result<Committed, Error> {
    let permutations = shape.permutations(|len| config.leaf().permutations(len));
    let source_len = source
        .total_bytes()?
        .ok_or_else(|| Error::Usage("--tree needs --input or --bytes".to_string()))?;
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
        StoredTreeError::Stream(e) => Error::Input(format!("{}: {e}", source.describe())),
        e => Error::Output(format!("{}: {e}", path.display())),
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
        device: "cpu".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use aurum_cuda::{CudaError, DeviceChoice, GpuKernel};
    use aurum_merkle::Preset;

    use super::*;

    /// A preset whose tree kernels the GPU refused: the CPU under auto, the refusal (a backend
    /// error, exit status 2) under cuda; an accepted one runs on the GPU under both.
    #[test]
    fn a_refused_preset_stays_on_the_cpu_under_auto_and_fails_under_cuda() {
        let refused = || {
            Err(CudaError::KnownAnswer {
                kernel: GpuKernel::Tree(Preset::Plonky2),
                reason: "1 of 64 values differ".into(),
            })
        };
        assert!(!takes_preset(DeviceChoice::Auto, refused()).unwrap());
        match takes_preset(DeviceChoice::Cuda, refused()) {
            Err(e @ Error::Backend(_)) => {
                let m = e.to_string();
                assert!(
                    m.starts_with("AURUM_DEVICE=cuda: the GPU's plonky2 tree"),
                    "{m}"
                );
                assert!(m.contains("1 of 64 values differ"), "{m}");
                assert_eq!(e.exit_status(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(takes_preset(DeviceChoice::Auto, Ok(())).unwrap());
        assert!(takes_preset(DeviceChoice::Cuda, Ok(())).unwrap());
    }
}
