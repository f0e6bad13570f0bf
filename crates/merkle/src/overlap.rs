//! Reading and hashing at the same time: [`StreamingCommitter::push_overlapped`] runs the
//! code that produces rows (reading a file, decoding it) on a second thread while the calling
//! thread (and its rayon pool) hashes the rows produced before.
//!
//! Without it, a committer fed by a reader alternates: read a chunk, hash it, read the next.
//! On a machine whose cores are all hashing, the reading then adds its whole time to the
//! commitment's; overlapped, it fills the moments the hashing leaves a core idle (the tail of
//! each parallel pass) and the disk's read-ahead runs in parallel.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use aurum_goldilocks::Goldilocks;

use crate::config::MerkleConfig;
use crate::error::{OverlapError, Stopped};
use crate::layers::LayerSink;
use crate::stream::StreamingCommitter;

/// Chunks produced but not yet hashed: one being hashed, one ready, one being filled keeps
/// both sides busy; more would only hold memory.
const CHUNKS_IN_FLIGHT: usize = 2;

/// Where the producer of [`StreamingCommitter::push_overlapped`] puts its rows: copied into
/// chunk-sized buffers that are handed to the hashing thread as they fill (and recycled).
#[derive(Debug)]
pub struct RowSink {
    buffer: Vec<Goldilocks>,
    chunk_len: usize,
    full: SyncSender<Vec<Goldilocks>>,
    empty: Receiver<Vec<Goldilocks>>,
}

impl RowSink {
    /// Appends values (any number: the committer checks that the total is whole rows).
    ///
    /// # Errors
    /// [`Stopped`] once the committer has refused rows; the producer should then return
    /// (whatever it returns is ignored in favour of the committer's error).
    pub fn push(&mut self, mut values: &[Goldilocks]) -> Result<(), Stopped> {
        while !values.is_empty() {
            let take = (self.chunk_len - self.buffer.len()).min(values.len());
            self.buffer.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.buffer.len() == self.chunk_len {
                self.send()?;
            }
        }
        Ok(())
    }

    /// Hands the buffer over and takes a recycled (or new) one.
    fn send(&mut self) -> Result<(), Stopped> {
        let next = self
            .empty
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(self.chunk_len));
        let full = core::mem::replace(&mut self.buffer, next);
        self.full.send(full).map_err(|_| Stopped)?;
        self.buffer.clear();
        Ok(())
    }
}

impl<C: MerkleConfig, S: LayerSink> StreamingCommitter<'_, C, S> {
    /// Pushes the rows that `produce` writes to its [`RowSink`], produced on a scoped
    /// second thread while this thread hashes the earlier ones: the same commitment as
    /// pushing them with [`StreamingCommitter::push_rows`], in the time of the slower side
    /// rather than of both. At most a few chunks of rows (8 MiB each) are held at once.
    ///
    /// Call it inside the rayon pool that should do the hashing (`pool.install`); the
    /// producer runs on its own thread, outside the pool.
    ///
    /// # Errors
    /// [`OverlapError::Producer`] with the producer's error;
    /// [`OverlapError::Stream`] if the rows are refused (see
    /// [`StreamingCommitter::push_rows`]), in which case the producer's next push returns
    /// [`Stopped`]. The rows pushed before an error stay pushed.
    pub fn push_overlapped<E: Send>(
        &mut self,
        produce: impl FnOnce(&mut RowSink) -> Result<(), E> + Send,
    ) -> Result<(), OverlapError<E>> {
        // Whole chunks of the committer, so that each buffer is hashed without re-buffering.
        let chunk_len = self.chunk_len();
        let (full_tx, full_rx) = sync_channel::<Vec<Goldilocks>>(CHUNKS_IN_FLIGHT);
        let (empty_tx, empty_rx) = sync_channel::<Vec<Goldilocks>>(CHUNKS_IN_FLIGHT + 1);
        std::thread::scope(|scope| {
            let producer = scope.spawn(move || {
                let mut sink = RowSink {
                    buffer: Vec::with_capacity(chunk_len),
                    chunk_len,
                    full: full_tx,
                    empty: empty_rx,
                };
                let produced = produce(&mut sink);
                // The last, partial buffer; the channel closes when the sink is dropped.
                if produced.is_ok() && !sink.buffer.is_empty() {
                    let last = core::mem::take(&mut sink.buffer);
                    let _ = sink.full.send(last);
                }
                produced
            });
            let mut refused = None;
            for buffer in &full_rx {
                if let Err(e) = self.push_rows(&buffer) {
                    refused = Some(e);
                    break;
                }
                // Recycled if the producer wants it; dropped otherwise.
                let _ = empty_tx.try_send(buffer);
            }
            // Closing the channel makes the producer's next push return `Stopped`.
            drop(full_rx);
            let produced = match producer.join() {
                Ok(produced) => produced,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            match (refused, produced) {
                (Some(e), _) => Err(OverlapError::Stream(e)),
                (None, Err(e)) => Err(OverlapError::Producer(e)),
                (None, Ok(())) => Ok(()),
            }
        })
    }
}
