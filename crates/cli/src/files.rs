//! Writing output files so that an interrupted run never leaves a truncated one.
//!
//! Every output goes to a temporary file beside its destination and is renamed over it only
//! when complete. Large outputs written piece by piece ([`AtomicFile`]) register their
//! temporary file, and [`remove_partial_outputs_on_interrupt`] makes Ctrl-C (SIGINT, and
//! SIGTERM) delete them before exiting: an interrupted `aurum gen` leaves neither a partial
//! file nor its temporary.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

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

/// A temporary file written by someone else (a library writer that removes it itself on
/// error): also removed on interruption while this guard lives.
#[derive(Debug)]
pub struct PartialOutput(Option<PathBuf>);

impl PartialOutput {
    /// Registers `temp` (if any) until the guard is dropped.
    #[must_use]
    pub fn register(temp: Option<&Path>) -> Self {
        if let Some(temp) = temp {
            register(temp);
        }
        Self(temp.map(Path::to_path_buf))
    }
}

impl Drop for PartialOutput {
    fn drop(&mut self) {
        if let Some(temp) = &self.0 {
            unregister(temp);
        }
    }
}

fn register(path: &Path) {
    if let Ok(mut partial) = PARTIAL.lock() {
        partial.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut partial) = PARTIAL.lock() {
        partial.retain(|p| p != path);
    }
}

/// The temporary file beside `path`: `.NAME.PID.tmp` in the same directory, so that the
/// final rename stays on one file system.
fn temp_path(path: &Path) -> Result<PathBuf, String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("cannot write {}: not a file name", path.display()))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    Ok(path.with_file_name(temp_name))
}

/// Writes `contents` to `path` through a temporary file in the same directory, flushed to
/// disk and then renamed over `path`: readers see the old file or the whole new one, never
/// a part.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    file.commit()
}

/// A large output written piece by piece: buffered writes to a temporary file, which
/// [`AtomicFile::commit`] syncs and renames over the destination. Dropped without a commit
/// (an error, a panic) or interrupted (see [`remove_partial_outputs_on_interrupt`]), it
/// deletes the temporary file and leaves the destination as it was.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing the file that will become `path`.
    ///
    /// # Errors
    /// When `path` has no file name or the temporary file cannot be created.
    pub fn create(path: &Path) -> Result<Self, String> {
        let temp = temp_path(path)?;
        // Registered before it exists, so that no interruption can miss it.
        register(&temp);
        match File::create(&temp) {
            Ok(file) => Ok(Self {
                path: path.to_path_buf(),
                temp,
                writer: Some(BufWriter::with_capacity(1 << 20, file)),
            }),
            Err(e) => {
                unregister(&temp);
                Err(format!("cannot write {}: {e}", path.display()))
            }
        }
    }

    /// The destination.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the file into place.
    ///
    /// # Errors
    /// Any I/O error, with the destination's name; the temporary file is then removed.
    pub fn commit(mut self) -> Result<(), String> {
        let result = (|| {
            let file = self
                .writer
                .take()
                .expect("only commit takes the writer")
                .into_inner()
                .map_err(std::io::IntoInnerError::into_error)?;
            file.sync_all()?;
            fs::rename(&self.temp, &self.path)
        })();
        // Renamed or about to be removed by `drop`: no longer a partial output either way.
        result.map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer
            .as_mut()
            .expect("the writer lives until commit")
            .write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer
            .as_mut()
            .expect("the writer lives until commit")
            .flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // After a successful commit the temporary name no longer exists: nothing is removed.
        drop(self.writer.take());
        let _ = fs::remove_file(&self.temp);
        unregister(&self.temp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uncommitted_file_leaves_nothing_and_a_committed_one_replaces() {
        let dir = std::env::temp_dir().join(format!("aurum-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.bin");
        fs::write(&path, b"old").unwrap();
        // Other tests may write files concurrently: look for this file's temporary only.
        let registered = |temp: &Path| PARTIAL.lock().unwrap().iter().any(|p| p == temp);
        let temp = temp_path(&path).unwrap();
        {
            let mut file = AtomicFile::create(&path).unwrap();
            file.write_all(b"partial").unwrap();
            assert!(registered(&temp));
            assert!(temp.exists());
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
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        assert!(!registered(&temp));
        let unwritable = dir.join("missing").join("x");
        assert!(AtomicFile::create(&unwritable).is_err());
        assert!(!registered(&temp_path(&unwritable).unwrap()));
        fs::remove_dir_all(&dir).unwrap();
    }
}
