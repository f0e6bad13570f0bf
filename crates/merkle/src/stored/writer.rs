//! Writing a stored tree: the rows stream in, the digest levels go to memory or to a tree
//! file as they are produced.

use std::fs::{File, Permissions};
use std::io;
use std::os::unix::fs::{FileExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use aurum_goldilocks::Goldilocks;

use crate::commitment::Commitment;
use crate::config::MerkleConfig;
use crate::digest::Digest;
use crate::error::{OverlapError, StoredTreeError, io_error};
use crate::layers::LayerSink;
use crate::overlap::RowSink;
use crate::shape::TreeShape;
use crate::stream::StreamingCommitter;

use super::checksum::Checksum;
use super::format::{
    BUFFER_DIGESTS, DIGEST_BYTES, Layout, NAME_BYTES, TREE_FILE_MAGIC, TREE_FILE_VERSION,
    decode_digest, encode_digest,
};
use super::reader::{Storage, StoredTree};
use super::spec::{StoredTreeInfo, TreeSpec, check_spec};

/// The header's bytes.
fn encode_header(info: &StoredTreeInfo, layout: &Layout, checksums: &[u64]) -> Vec<u8> {
    let mut h = Vec::with_capacity(layout.header_len);
    h.extend_from_slice(&TREE_FILE_MAGIC);
    h.extend_from_slice(&TREE_FILE_VERSION.to_le_bytes());
    h.extend_from_slice(&(layout.header_len as u32).to_le_bytes());
    let mut name = [0u8; NAME_BYTES];
    name[..info.config_name.len()].copy_from_slice(info.config_name.as_bytes());
    h.extend_from_slice(&name);
    for value in [
        info.width as u64,
        info.height as u64,
        info.cap_height as u64,
        info.dropped as u64,
        info.source_len,
    ] {
        h.extend_from_slice(&value.to_le_bytes());
    }
    encode_digest(&info.root, &mut h);
    h.extend_from_slice(&layout.file_len.to_le_bytes());
    h.extend_from_slice(&(layout.lens.len() as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    for (len, checksum) in layout.lens.iter().zip(checksums) {
        h.extend_from_slice(&len.to_le_bytes());
        h.extend_from_slice(&checksum.to_le_bytes());
    }
    let mut sum = Checksum::new();
    sum.bytes(&h);
    h.extend_from_slice(&sum.0.to_le_bytes());
    debug_assert_eq!(h.len(), layout.header_len);
    h
}

/// One level being written: its place, a buffer, its checksum so far.
#[derive(Debug)]
struct LevelWriter {
    offset: u64,
    len: u64,
    /// Digests written to the file so far (the buffer holds the next ones).
    flushed: u64,
    buffer: Vec<u8>,
    checksum: Checksum,
}

/// The layers being written to a file.
#[derive(Debug)]
struct FileLayers {
    /// The temporary file written (removed when dropped unless renamed into place).
    temp: NamedTempFile,
    /// Where it goes when complete.
    path: PathBuf,
    levels: Vec<LevelWriter>,
    dropped: usize,
    /// The first write error; everything after it is ignored.
    error: Option<io::Error>,
}

impl FileLayers {
    fn flush(file: &File, level: &mut LevelWriter) -> io::Result<()> {
        if level.buffer.is_empty() {
            return Ok(());
        }
        let at = level.offset + level.flushed * DIGEST_BYTES as u64;
        file.write_all_at(&level.buffer, at)?;
        level.flushed += (level.buffer.len() / DIGEST_BYTES) as u64;
        level.buffer.clear();
        Ok(())
    }

    fn push(&mut self, level: usize, nodes: &[Digest]) -> io::Result<()> {
        let Some(i) = level.checked_sub(self.dropped) else {
            return Ok(());
        };
        let Some(writer) = self.levels.get_mut(i) else {
            return Err(io::Error::other(format!(
                "digest level {level} is above the tree's root"
            )));
        };
        let buffered = (writer.buffer.len() / DIGEST_BYTES) as u64;
        if writer.flushed + buffered + nodes.len() as u64 > writer.len {
            return Err(io::Error::other(format!(
                "more digests for level {level} than its {}",
                writer.len
            )));
        }
        if writer.buffer.capacity() == 0 {
            // At most 64 KiB, and no more than the level needs.
            let digests = writer.len.min(BUFFER_DIGESTS as u64) as usize;
            writer.buffer.reserve_exact(digests * DIGEST_BYTES);
        }
        for node in nodes {
            let start = writer.buffer.len();
            encode_digest(node, &mut writer.buffer);
            writer.checksum.bytes(&writer.buffer[start..]);
            if writer.buffer.len() == writer.buffer.capacity() {
                Self::flush(self.temp.as_file(), writer)?;
            }
        }
        Ok(())
    }
}

/// Where the layers go while streaming.
#[derive(Debug)]
enum LayerStore {
    /// Levels `dropped..`, in memory.
    Memory {
        levels: Vec<Vec<Digest>>,
        dropped: usize,
    },
    /// Levels `dropped..`, in a file.
    File(Box<FileLayers>),
}

impl LayerSink for LayerStore {
    fn push(&mut self, level: usize, nodes: &[Digest]) {
        match self {
            LayerStore::Memory { levels, dropped } => {
                if let Some(stored) = level.checked_sub(*dropped).and_then(|i| levels.get_mut(i)) {
                    stored.extend_from_slice(nodes);
                }
            }
            LayerStore::File(file) => {
                if file.error.is_none()
                    && let Err(e) = file.push(level, nodes)
                {
                    file.error = Some(e);
                }
            }
        }
    }
}

/// Commits to a single matrix whose rows arrive in order (a [`StreamingCommitter`] inside)
/// and stores its digest layers `dropped..` — in memory, or in a tree file written as they
/// are produced — for a [`StoredTree`] to open later.
#[derive(Debug)]
pub struct StoredTreeWriter<'c, C: MerkleConfig> {
    committer: StreamingCommitter<'c, C, LayerStore>,
    config_name: &'static str,
    spec: TreeSpec,
    layout: Layout,
    shape: TreeShape,
}

impl<'c, C: MerkleConfig> StoredTreeWriter<'c, C> {
    /// A writer that keeps the stored layers in memory (`2^-k · 64` bytes per row).
    ///
    /// # Errors
    /// [`StoredTreeError::Shape`] for a width or height out of range;
    /// [`StoredTreeError::CapNotStored`] when `cap_height + dropped` exceeds the depth;
    /// [`StoredTreeError::BadConfigName`] for a configuration name a tree file cannot hold
    /// (so that any stored tree can be written to a file).
    pub fn in_memory(config: &'c C, spec: TreeSpec) -> Result<Self, StoredTreeError> {
        let (shape, layout) = check_spec(config.name(), &spec)?;
        let store = LayerStore::Memory {
            levels: vec![Vec::new(); layout.lens.len()],
            dropped: spec.dropped,
        };
        Self::with_store(config, spec, shape, layout, store)
    }

    /// A writer of the tree file `path`. The file is written to a temporary file in the same
    /// directory, created exclusively (never through an existing file or link) under an
    /// unpredictable name, `.aurum-tmp-PID-RANDOM`, and then as [`StoredTreeWriter::create_in`]
    /// says.
    ///
    /// # Errors
    /// As [`StoredTreeWriter::in_memory`], and [`StoredTreeError::Io`] when the file cannot
    /// be created.
    pub fn create_file(
        config: &'c C,
        spec: TreeSpec,
        path: &Path,
    ) -> Result<Self, StoredTreeError> {
        check_spec(config.name(), &spec)?;
        let creating = io_error("creating the tree file");
        if path.file_name().is_none() {
            return Err(creating(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path has no file name",
            )));
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(&format!(".aurum-tmp-{}-", std::process::id()))
            .rand_bytes(12)
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(creating)?;
        Self::create_in(config, spec, temp, path)
    }

    /// A writer of the tree file `path` that writes into `temp`, an empty temporary file the
    /// caller created in `path`'s directory (the CLI creates it before any work, to check
    /// the directory). `temp` is set to the file's full length now; levels are written into
    /// it as they are produced, through one buffer of at most 64 KiB per level, and
    /// [`StoredTreeWriter::finish`] syncs it and renames it to `path` once complete (a link
    /// at `path` is replaced, never followed). If the writer is dropped before, or `finish`
    /// fails, `temp` is removed; a process killed meanwhile leaves only `temp`, never a
    /// partial file at `path`.
    ///
    /// # Errors
    /// As [`StoredTreeWriter::in_memory`], and [`StoredTreeError::Io`] when `temp` cannot be
    /// extended.
    pub fn create_in(
        config: &'c C,
        spec: TreeSpec,
        temp: NamedTempFile,
        path: &Path,
    ) -> Result<Self, StoredTreeError> {
        let (shape, layout) = check_spec(config.name(), &spec)?;
        temp.as_file()
            .set_len(layout.file_len)
            .map_err(io_error("creating the tree file"))?;
        let levels = layout
            .lens
            .iter()
            .zip(&layout.offsets)
            .map(|(&len, &offset)| LevelWriter {
                offset,
                len,
                flushed: 0,
                buffer: Vec::new(),
                checksum: Checksum::new(),
            })
            .collect();
        let store = LayerStore::File(Box::new(FileLayers {
            temp,
            path: path.to_path_buf(),
            levels,
            dropped: spec.dropped,
            error: None,
        }));
        Self::with_store(config, spec, shape, layout, store)
    }

    fn with_store(
        config: &'c C,
        spec: TreeSpec,
        shape: TreeShape,
        layout: Layout,
        store: LayerStore,
    ) -> Result<Self, StoredTreeError> {
        let committer =
            StreamingCommitter::with_sink(config, spec.width, spec.height, spec.cap_height, store)?;
        Ok(Self {
            committer,
            config_name: config.name(),
            spec,
            layout,
            shape,
        })
    }

    /// The spec being written.
    #[must_use]
    pub fn spec(&self) -> &TreeSpec {
        &self.spec
    }

    /// Rows consumed so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.committer.rows()
    }

    /// Appends whole rows (see [`StreamingCommitter::push_rows`]).
    ///
    /// # Errors
    /// [`StoredTreeError::Stream`] for rows the committer refuses (nothing is consumed);
    /// [`StoredTreeError::Io`] once writing the tree file has failed.
    pub fn push_rows(&mut self, values: &[Goldilocks]) -> Result<(), StoredTreeError> {
        self.committer.push_rows(values)?;
        if let LayerStore::File(file) = self.committer.sink()
            && let Some(e) = &file.error
        {
            return Err(StoredTreeError::Io {
                action: "writing the tree file",
                source: io::Error::new(e.kind(), e.to_string()),
            });
        }
        Ok(())
    }

    /// Pushes the rows `produce` writes to its sink, read on a second thread while this one
    /// hashes (see [`StreamingCommitter::push_overlapped`]). An error writing the tree file
    /// meanwhile is reported by [`StoredTreeWriter::finish`].
    ///
    /// # Errors
    /// As [`StreamingCommitter::push_overlapped`].
    pub fn push_overlapped<E: Send>(
        &mut self,
        produce: impl FnOnce(&mut RowSink) -> Result<(), E> + Send,
    ) -> Result<(), OverlapError<E>> {
        self.committer.push_overlapped(produce)
    }

    /// The temporary file being written (renamed to its path by
    /// [`StoredTreeWriter::finish`]), for callers that remove it when interrupted; `None` for
    /// a tree kept in memory.
    #[must_use]
    pub fn temp_path(&self) -> Option<&Path> {
        match self.committer.sink() {
            LayerStore::File(file) => Some(file.temp.path()),
            LayerStore::Memory { .. } => None,
        }
    }

    /// Finishes the tree: the commitment and the stored tree (for a file: the header written,
    /// the file synced and renamed to its path, then read back as [`StoredTree::from_file`]
    /// does).
    ///
    /// # Errors
    /// [`StoredTreeError::Stream`] for fewer rows than declared; [`StoredTreeError::Io`] when
    /// writing failed; any error of [`StoredTree::from_file`].
    pub fn finish(self) -> Result<(Commitment, StoredTree), StoredTreeError> {
        let StoredTreeWriter {
            committer,
            config_name,
            spec,
            layout,
            shape,
        } = self;
        let info = |root| StoredTreeInfo::new(config_name.to_string(), &spec, root);
        let (commitment, store) = committer.finish_with_sink()?;
        let root = match &store {
            LayerStore::Memory { levels, .. } => levels.last().and_then(|l| l.first()).copied(),
            LayerStore::File(_) => None,
        };
        match store {
            LayerStore::Memory { levels, dropped } => {
                let lens_match = levels
                    .iter()
                    .zip(&layout.lens)
                    .all(|(l, &len)| l.len() as u64 == len);
                let root = root
                    .filter(|_| lens_match)
                    .ok_or_else(|| StoredTreeError::Io {
                        action: "storing the tree",
                        source: io::Error::other("the committer did not deliver every layer"),
                    })?;
                let info = info(root);
                debug_assert_eq!(dropped, info.dropped);
                let tree = StoredTree {
                    info,
                    shape,
                    layout,
                    checksums: Vec::new(),
                    storage: Storage::Memory(levels),
                };
                Ok((commitment, tree))
            }
            LayerStore::File(mut file) => {
                if let Some(source) = file.error.take() {
                    return Err(StoredTreeError::Io {
                        action: "writing the tree file",
                        source,
                    });
                }
                let write = io_error("writing the tree file");
                let mut checksums = Vec::with_capacity(file.levels.len());
                for level in &mut file.levels {
                    FileLayers::flush(file.temp.as_file(), level)
                        .map_err(io_error("writing the tree file"))?;
                    if level.flushed != level.len {
                        return Err(write(io::Error::other(
                            "the committer did not deliver every layer",
                        )));
                    }
                    checksums.push(level.checksum.0);
                }
                let top = layout.offsets.last().copied().unwrap_or_default();
                let mut bytes = [0u8; DIGEST_BYTES];
                let FileLayers { temp, path, .. } = *file;
                temp.as_file()
                    .read_exact_at(&mut bytes, top)
                    .map_err(io_error("reading back the tree file"))?;
                let root = decode_digest(&bytes).ok_or_else(|| StoredTreeError::CorruptLevel {
                    level: shape.depth(),
                })?;
                let info = info(root);
                let header = encode_header(&info, &layout, &checksums);
                temp.as_file()
                    .write_all_at(&header, 0)
                    .map_err(io_error("writing the tree file"))?;
                temp.as_file()
                    .sync_all()
                    .map_err(io_error("writing the tree file"))?;
                // A rename: a link at `path` is replaced, not followed. On failure `temp` is
                // dropped, and removed, with the error.
                temp.persist(&path).map_err(|e| StoredTreeError::Io {
                    action: "renaming the tree file into place",
                    source: e.error,
                })?;
                Ok((commitment, StoredTree::from_file(&path)?))
            }
        }
    }
}
