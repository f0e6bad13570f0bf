//! [`SequentialReader`]: a file read once from start to end, with `O_DIRECT` where the file
//! system allows it.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::Error;
use crate::input::memory::zeroed_bytes;
use crate::input::regular::{OpenFailure, open_regular, open_regular_with};

/// Bytes per direct read: large, and a multiple of any device's block size.
pub(crate) const DIRECT_READ: usize = 4 << 20;

/// Alignment of direct reads' buffer, offset and length (the page size covers every block
/// size Linux uses).
const DIRECT_ALIGN: usize = 4096;

/// A file read once from start to end, bypassing the page cache where the system allows it
/// (`O_DIRECT`): a commitment of a file that is not cached then spends its kernel time on the
/// device's DMA rather than on filling and copying from the page cache (which, for a file
/// larger than memory, only evicts everything else). Where direct reads are refused (tmpfs,
/// some network file systems, other systems), it reads the ordinary way.
#[derive(Debug)]
pub struct SequentialReader {
    file: File,
    direct: bool,
    /// Backing store of the aligned buffer (its start is found at run time, without casts).
    storage: Vec<u8>,
    /// The aligned window of `storage` used for reads.
    window: core::ops::Range<usize>,
    /// Unconsumed bytes of the last direct read: `window.start + pos .. window.start + filled`.
    pos: usize,
    filled: usize,
    /// The file is read up to its end.
    at_end: bool,
}

impl SequentialReader {
    /// Opens `path`, a regular file (anything else is refused as [`open_regular`] refuses
    /// it).
    ///
    /// # Errors
    /// When the file cannot be opened or is not a regular file.
    pub fn open(path: &Path) -> Result<Self, Error> {
        #[cfg(target_os = "linux")]
        let direct = match open_regular_with(path, libc::O_DIRECT) {
            Ok(file) => Some(file),
            Err(OpenFailure::NotRegular(refusal)) => return Err(refusal),
            // Direct reads refused here (tmpfs, some network file systems): ordinary ones.
            Err(OpenFailure::Io(_)) => None,
        };
        #[cfg(not(target_os = "linux"))]
        let direct: Option<File> = None;
        let (file, direct) = match direct {
            Some(file) => (file, true),
            None => (open_regular(path)?, false),
        };
        let mut reader = Self {
            file,
            direct,
            storage: Vec::new(),
            window: 0..0,
            pos: 0,
            filled: 0,
            at_end: false,
        };
        if direct {
            reader.storage = zeroed_bytes(DIRECT_READ + DIRECT_ALIGN, "the read buffer")?;
            let start = reader.storage.as_ptr().align_offset(DIRECT_ALIGN);
            reader.window = start..start + DIRECT_READ;
        }
        Ok(reader)
    }

    /// Whether reads bypass the page cache.
    #[must_use]
    pub fn is_direct(&self) -> bool {
        self.direct
    }

    /// The next direct read into the aligned window. Returns false at the end of the file.
    fn refill(&mut self) -> std::io::Result<bool> {
        if self.at_end {
            return Ok(false);
        }
        let buf = &mut self.storage[self.window.clone()];
        // Every read but the last fills the window, so the file offset stays aligned; a
        // short read means the end of the file (the next read returns 0).
        let mut filled = 0;
        while filled < buf.len() {
            match self.file.read(&mut buf[filled..]) {
                Ok(0) => {
                    self.at_end = true;
                    break;
                }
                Ok(n) => {
                    filled += n;
                    if !filled.is_multiple_of(DIRECT_ALIGN) {
                        // Only the end of the file leaves an unaligned offset.
                        self.at_end = true;
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.pos = 0;
        self.filled = filled;
        Ok(filled > 0)
    }
}

impl Read for SequentialReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if !self.direct {
            return self.file.read(out);
        }
        if self.pos == self.filled && !self.refill()? {
            return Ok(0);
        }
        let available =
            &self.storage[self.window.start + self.pos..self.window.start + self.filled];
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod sequential_reader_tests {
    use super::*;

    /// Files whose lengths straddle the alignment and the read size come back byte for byte,
    /// whether or not this file system allows direct reads, in any read sizes.
    #[test]
    fn reads_every_byte_in_order() {
        let dir = std::env::temp_dir().join(format!("aurum-seqread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for len in [
            0,
            1,
            4095,
            4096,
            4097,
            DIRECT_READ - 8,
            DIRECT_READ,
            2 * DIRECT_READ + 12345,
        ] {
            let path = dir.join(format!("f{len}"));
            let data: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            std::fs::write(&path, &data).unwrap();
            for piece in [1000, 8192, 3 << 20] {
                let mut reader = SequentialReader::open(&path).unwrap();
                let mut back = Vec::new();
                let mut buf = vec![0u8; piece];
                loop {
                    let n = reader.read(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    back.extend_from_slice(&buf[..n]);
                }
                assert!(
                    back == data,
                    "length {len}, reads of {piece} (direct: {})",
                    reader.is_direct()
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
