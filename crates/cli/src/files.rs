//! Output files: nothing lost, nothing planted, nothing truncated.
//!
//! Every file a command writes is *prepared* before the command does any work ([`prepare`]):
//!
//! * its destination is checked: refused when it is the same file as one of the command's
//!   inputs (device and inode, after resolving links: the same path, a hard link or a
//!   symbolic link to it) or as another of its outputs, a directory, or anything but a
//!   regular file (a device, a FIFO, a socket, or a link to one, such as `/dev/null`);
//! * its temporary file is created at once in the destination's directory — so a missing or
//!   unwritable directory fails in milliseconds, not after a 10-minute commit — exclusively
//!   (`O_CREAT | O_EXCL`: a link planted under its name is never followed) under an
//!   unpredictable name, `.aurum-tmp-PID-HOST-RANDOM` ([`temp_prefix`]), with the
//!   permissions of any new file (0666 less the umask);
//! * leftover temporaries of writers that no longer run are removed from that directory
//!   (see below).
//!
//! The output is written to its temporary file, which [`AtomicFile::commit`] syncs to disk
//! and renames over the destination only when complete: readers see the old file or the
//! whole new one, never a part. A symbolic link at the destination is replaced by the new
//! file, as `mv` would do; the file it pointed to is never written. Dropped without a commit
//! (an error, a panic), the temporary is deleted; [`remove_partial_outputs_on_interrupt`]
//! makes Ctrl-C (SIGINT, and SIGTERM) delete every registered temporary before exiting.
//!
//! **Leftovers of killed runs.** A run killed with SIGKILL (or by the OOM killer, or a power
//! cut) cannot remove its temporary. Its name says who wrote it: the writer's PID and a tag
//! of the machine and PID namespace it ran in (a hash of the kernel's boot id and of the PID
//! namespace). The next run that prepares an output in the same directory removes every such
//! regular file that has this run's tag and owner and whose PID no longer exists
//! (`/proc/PID`, on Linux). A temporary of a live process is never touched, nor one written
//! on another machine or in another container sharing the directory (another tag: their
//! PIDs mean nothing here); where `/proc` is missing nothing is removed.

use std::fs::{self, File, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use tempfile::NamedTempFile;

use crate::error::Error;
use crate::input::file_kind;

/// The start of every temporary file's name: `.aurum-tmp-PID-HOST-RANDOM`.
pub const TEMP_PREFIX: &str = ".aurum-tmp-";

/// Temporary files being written, deleted if the process is interrupted.
static PARTIAL: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

/// Installs the handler that deletes registered temporary files on Ctrl-C or SIGTERM and
/// exits with [`INTERRUPTED`]. Call once, at start-up; a second call is a no-op.
pub fn remove_partial_outputs_on_interrupt() {
    // An error means a handler is installed already (or signals cannot be handled here):
    // either way the run goes on, with the default behaviour in the latter case.
    let _ = ctrlc::set_handler(|| {
        let partial = PARTIAL.lock().map(|p| p.clone()).unwrap_or_default();
        for path in &partial {
            let _ = fs::remove_file(path);
        }
        eprintln!("error: interrupted; no output file was written");
        std::process::exit(INTERRUPTED);
    });
}

/// The exit status when standard output is closed under a running command (`aurum … | head`):
/// what a shell reports for a process that SIGPIPE ended (128 + 13).
pub const STDOUT_CLOSED: i32 = 141;

/// Makes a write to a closed standard output (the reader of a pipe gone, as in
/// `aurum … | head`) end the process quietly, like the SIGPIPE of other command-line tools:
/// the unfinished output files are removed and the exit status is [`STDOUT_CLOSED`], with no
/// panic message. Rust ignores SIGPIPE, so such a write fails, and `println!` panics on the
/// failure; this hook turns that one panic into the exit. Other panics keep the default hook.
pub fn exit_quietly_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload_as_str().unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            let partial = PARTIAL.lock().map(|p| p.clone()).unwrap_or_default();
            for path in &partial {
                let _ = fs::remove_file(path);
            }
            std::process::exit(STDOUT_CLOSED);
        }
        default(info);
    }));
}

/// Registers a temporary file for removal on interruption, until dropped.
#[derive(Debug)]
struct Registered(PathBuf);

impl Registered {
    fn new(path: &Path) -> Self {
        if let Ok(mut partial) = PARTIAL.lock() {
            partial.push(path.to_path_buf());
        }
        Self(path.to_path_buf())
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut partial) = PARTIAL.lock() {
            partial.retain(|p| p != &self.0);
        }
    }
}

/// A tag of this machine (its kernel's boot) and PID namespace: 16 hex digits, the same for
/// every process that sees the same PIDs; `None` where `/proc` cannot tell.
fn host_tag() -> Option<&'static str> {
    static TAG: OnceLock<Option<String>> = OnceLock::new();
    TAG.get_or_init(|| {
        let boot = fs::read("/proc/sys/kernel/random/boot_id").ok()?;
        let namespace = fs::read_link("/proc/self/ns/pid").ok()?;
        // FNV-1a: stable across builds and Rust versions, unlike std's hasher.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let bytes = boot
            .trim_ascii()
            .iter()
            .chain(b"/")
            .chain(namespace.as_os_str().as_encoded_bytes());
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        Some(format!("{hash:016x}"))
    })
    .as_deref()
}

/// The start of the names of the temporary files process `pid` creates:
/// `.aurum-tmp-PID-HOST-` (`HOST` is `unknown` where `/proc` cannot tell; such temporaries
/// are never removed by other runs).
#[must_use]
pub fn temp_prefix(pid: u32) -> String {
    format!("{TEMP_PREFIX}{pid}-{}-", host_tag().unwrap_or("unknown"))
}

/// The writer's PID of a temporary named `name` that carries `tag`; `None` for any other
/// name.
fn temp_writer(name: &str, tag: &str) -> Option<u32> {
    let (pid, rest) = name.strip_prefix(TEMP_PREFIX)?.split_once('-')?;
    let (name_tag, random) = rest.split_once('-')?;
    if name_tag != tag || random.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` may exist: only a missing `/proc/PID` says it does not.
fn process_exists(pid: u32) -> bool {
    !matches!(
        fs::symlink_metadata(format!("/proc/{pid}")),
        Err(e) if e.kind() == io::ErrorKind::NotFound
    )
}

/// Removes from `dir` the temporaries of writers of this machine and PID namespace that no
/// longer run, owned by `owner` (this process's user). Errors are ignored: cleaning up is
/// a courtesy, never a reason to fail.
fn remove_stale_temporaries(dir: &Path, owner: u32) {
    let Some(tag) = host_tag() else { return };
    if fs::symlink_metadata("/proc/self").is_err() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| temp_writer(n, tag)) else {
            continue;
        };
        if pid == std::process::id() || process_exists(pid) {
            continue;
        }
        // `DirEntry::metadata` does not follow links: only regular files are removed.
        if entry
            .metadata()
            .is_ok_and(|m| m.is_file() && m.uid() == owner)
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// An output's destination, named by its flag, and the inputs it must not be: checked when
/// prepared and again just before the rename.
#[derive(Debug)]
pub struct Destination {
    flag: String,
    path: PathBuf,
    inputs: Vec<(String, PathBuf)>,
    /// The temporary file, removed on interruption while this lives.
    _registered: Option<Registered>,
}

impl Destination {
    fn new(flag: &str, path: &Path, inputs: &[(&str, &Path)]) -> Self {
        Self {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            inputs: inputs
                .iter()
                .map(|&(f, p)| (f.to_string(), p.to_path_buf()))
                .collect(),
            _registered: None,
        }
    }

    /// The destination's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, why: impl std::fmt::Display) -> Error {
        Error::Output(format!(
            "cannot write {} {}: {why}",
            self.flag,
            self.path.display()
        ))
    }

    /// Refuses a destination that is not a file name, is a directory or a special file, or
    /// is the same file as one of the inputs. A destination that does not exist (or is a
    /// dangling link) is fine.
    ///
    /// # Errors
    /// The one-line reason.
    pub fn check(&self) -> Result<(), Error> {
        let path = &self.path;
        // `Path` ignores a trailing `/` or `/.` (`out/.` has the file name `out`), `rename`
        // does not.
        let bytes = path.as_os_str().as_encoded_bytes();
        if path.file_name().is_none()
            || bytes.ends_with(b"/")
            || bytes.ends_with(b"/.")
            || bytes == b"."
        {
            return Err(self.error("not a file name"));
        }
        let meta = match fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(self.error(e)),
        };
        if meta.is_dir() {
            return Err(self.error("it is a directory"));
        }
        if !meta.is_file() {
            return Err(self.error(format_args!(
                "not a regular file ({}), which aurum never writes to or replaces",
                file_kind(meta.file_type())
            )));
        }
        for (flag, input) in &self.inputs {
            if fs::metadata(input).is_ok_and(|i| same_file(&i, &meta)) {
                return Err(self.error(format_args!(
                    "it is the same file as {flag} {}, which would be lost",
                    input.display()
                )));
            }
        }
        Ok(())
    }

    /// The directory the temporary file goes to (the destination's).
    fn dir(&self) -> &Path {
        match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        }
    }

    /// Creates the temporary file beside the destination (see the module documentation),
    /// registered for removal on interruption, and removes stale temporaries there.
    fn create_temp(&mut self) -> Result<NamedTempFile, Error> {
        let dir = self.dir().to_path_buf();
        let temp = tempfile::Builder::new()
            .prefix(&temp_prefix(std::process::id()))
            .rand_bytes(12)
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(&dir)
            .map_err(|e| {
                let d = dir.display();
                self.error(match e.kind() {
                    io::ErrorKind::NotFound => format!("the directory {d} does not exist"),
                    io::ErrorKind::PermissionDenied => {
                        format!("no permission to create a file in {d}")
                    }
                    io::ErrorKind::NotADirectory => format!("{d} is not a directory"),
                    kind => format!("cannot create a file in {d}: {}", io::Error::from(kind)),
                })
            })?;
        self._registered = Some(Registered::new(temp.path()));
        if let Ok(meta) = temp.as_file().metadata() {
            remove_stale_temporaries(&dir, meta.uid());
        }
        Ok(temp)
    }

    /// Whether `self` and `other` name one file: one directory entry (whatever the
    /// spelling of the path), or two names of one existing file.
    fn same_as(&self, other: &Destination) -> bool {
        let entry = |d: &Destination| {
            let name = d.path.file_name()?;
            Some(fs::canonicalize(d.dir()).ok()?.join(name))
        };
        let same_entry = matches!((entry(self), entry(other)), (Some(a), Some(b)) if a == b);
        let same_existing = matches!(
            (fs::metadata(&self.path), fs::metadata(&other.path)),
            (Ok(a), Ok(b)) if same_file(&a, &b)
        );
        same_entry || same_existing
    }

    /// Syncs `temp` and renames it over the destination, checked once more.
    fn persist(&self, temp: NamedTempFile) -> Result<(), Error> {
        temp.as_file().sync_all().map_err(|e| self.error(e))?;
        self.check()?;
        temp.persist(&self.path).map_err(|e| self.error(e.error))?;
        // The rename itself is durable once the directory is synced (best effort).
        if let Ok(dir) = File::open(self.dir()) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// Prepares every output of a command before it starts working: each `(flag, path)` of
/// `outputs` is checked against the `inputs` (and the outputs before it) and gets its
/// temporary file (see the module documentation). Returns them in order.
///
/// # Errors
/// The first output refused, with its flag and the reason; nothing is left behind.
pub fn prepare(
    outputs: &[(&str, &Path)],
    inputs: &[(&str, &Path)],
) -> Result<Vec<AtomicFile>, Error> {
    let mut prepared: Vec<AtomicFile> = Vec::with_capacity(outputs.len());
    for &(flag, path) in outputs {
        let mut destination = Destination::new(flag, path, inputs);
        destination.check()?;
        let temp = destination.create_temp()?;
        if let Some(earlier) = prepared
            .iter()
            .find(|e| e.destination.same_as(&destination))
        {
            return Err(destination.error(format_args!(
                "it is the same file as {} {}",
                earlier.destination.flag,
                earlier.destination.path.display()
            )));
        }
        prepared.push(AtomicFile {
            writer: Some(BufWriter::with_capacity(1 << 20, temp)),
            destination,
        });
    }
    Ok(prepared)
}

/// Prepares one output (see [`prepare`]).
///
/// # Errors
/// As [`prepare`].
pub fn prepare_one(flag: &str, path: &Path, inputs: &[(&str, &Path)]) -> Result<AtomicFile, Error> {
    let mut prepared = prepare(&[(flag, path)], inputs)?;
    Ok(prepared.pop().expect("one output prepared"))
}

/// An output being written: buffered writes to its temporary file, which
/// [`AtomicFile::commit`] syncs and renames over the destination. Dropped without a commit
/// (an error, a panic) or interrupted (see [`remove_partial_outputs_on_interrupt`]), it
/// deletes the temporary file and leaves the destination as it was.
#[derive(Debug)]
pub struct AtomicFile {
    /// Dropped first: deletes the temporary file (unless persisted).
    writer: Option<BufWriter<NamedTempFile>>,
    /// Then unregisters it.
    destination: Destination,
}

impl AtomicFile {
    /// The destination.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.destination.path()
    }

    /// The temporary file being written.
    #[must_use]
    pub fn temp_path(&self) -> &Path {
        self.writer
            .as_ref()
            .expect("the writer lives until commit")
            .get_ref()
            .path()
    }

    /// Flushes, syncs and renames the file into place, after checking the destination
    /// once more (it may have changed during the work).
    ///
    /// # Errors
    /// Any I/O error or refusal, with the destination's name; the temporary file is then
    /// removed.
    pub fn commit(mut self) -> Result<(), Error> {
        let writer = self.writer.take().expect("only commit takes the writer");
        let temp = writer
            .into_inner()
            .map_err(|e| self.destination.error(e.error()))?;
        self.destination.persist(temp)
    }

    /// Writes `contents` and commits.
    ///
    /// # Errors
    /// As [`AtomicFile::commit`].
    pub fn write_and_commit(mut self, contents: &[u8]) -> Result<(), Error> {
        self.write_all(contents)
            .map_err(|e| self.destination.error(e))?;
        self.commit()
    }

    /// The empty temporary file itself, for a writer of its own (the tree file's), with the
    /// destination, which keeps it registered for removal on interruption and checks the
    /// destination again before the writer renames it.
    ///
    /// # Errors
    /// None in practice (nothing was written yet); an I/O error otherwise.
    pub fn into_temp(self) -> Result<(NamedTempFile, Destination), Error> {
        let AtomicFile {
            writer,
            destination,
        } = self;
        let writer = writer.expect("only commit takes the writer");
        let temp = writer
            .into_inner()
            .map_err(|e| destination.error(e.error()))?;
        Ok((temp, destination))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer
            .as_mut()
            .expect("the writer lives until commit")
            .write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer
            .as_mut()
            .expect("the writer lives until commit")
            .flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("aurum-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn registered(temp: &Path) -> bool {
        PARTIAL.lock().unwrap().iter().any(|p| p == temp)
    }

    #[test]
    fn an_uncommitted_file_leaves_nothing_and_a_committed_one_replaces() {
        let dir = fresh_dir("commit");
        let path = dir.join("out.bin");
        fs::write(&path, b"old").unwrap();
        let temp;
        {
            let mut file = prepare_one("--out", &path, &[]).unwrap();
            temp = file.temp_path().to_path_buf();
            file.write_all(b"partial").unwrap();
            assert!(registered(&temp));
            assert!(temp.exists());
            assert_eq!(temp.parent(), Some(dir.as_path()));
        }
        assert_eq!(
            fs::read(&path).unwrap(),
            b"old",
            "an abandoned write changes nothing"
        );
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file is left"
        );
        assert!(!registered(&temp));
        let file = prepare_one("--out", &path, &[]).unwrap();
        let temp = file.temp_path().to_path_buf();
        file.write_and_commit(b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        assert!(!registered(&temp));
        let unwritable = dir.join("missing").join("x");
        let err = prepare_one("--out", &unwritable, &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_are_unpredictable_and_carry_the_writer() {
        let dir = fresh_dir("names");
        let a = prepare_one("--out", &dir.join("a"), &[]).unwrap();
        let b = prepare_one("--out", &dir.join("a"), &[]).unwrap();
        let name = |f: &AtomicFile| {
            f.temp_path()
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_ne!(name(&a), name(&b));
        assert!(name(&a).starts_with(&temp_prefix(std::process::id())));
        if let Some(tag) = host_tag() {
            assert_eq!(temp_writer(&name(&a), tag), Some(std::process::id()));
        }
        drop((a, b));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_that_name_no_file_are_refused_before_anything_is_created() {
        let dir = fresh_dir("no-file-name");
        for name in ["", ".", "..", "new/", "new/.", "new/..", "/"] {
            let path = if name == "/" {
                PathBuf::from("/")
            } else {
                dir.join(name)
            };
            let err = prepare_one("--out", &path, &[]).unwrap_err().to_string();
            assert!(
                err.contains("not a file name") || err.contains("is a directory"),
                "{name:?}: {err}"
            );
        }
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_well_formed_names_of_this_host_name_a_writer() {
        let tag = "0123456789abcdef";
        assert_eq!(
            temp_writer(".aurum-tmp-42-0123456789abcdef-xYz", tag),
            Some(42)
        );
        for name in [
            ".aurum-tmp-42-0123456789abcdef-",
            ".aurum-tmp-42-fedcba9876543210-xYz",
            ".aurum-tmp-+42-0123456789abcdef-xYz",
            ".aurum-tmp--0123456789abcdef-xYz",
            ".aurum-tmp-99999999999-0123456789abcdef-xYz",
            ".aurum-tmp-42",
            "aurum-tmp-42-0123456789abcdef-xYz",
            ".out.bin.42.tmp",
        ] {
            assert_eq!(temp_writer(name, tag), None, "{name}");
        }
    }
}
