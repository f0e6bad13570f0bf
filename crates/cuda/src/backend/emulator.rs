//! The host emulator (the `emulator` feature): a [`Device`] whose kernels are the same CUDA
//! source the GPU runs (`kernels/*.cuh`, `merkle.cu`, `ntt.cu`), compiled by the host's C++
//! compiler into a shared library and loaded with `dlopen`, so every part of this crate that
//! drives a device — trees streamed through the staging slots, layers, caps, mixed heights,
//! LDE plans, the commit engine — runs and is checked against the CPU on a machine without a
//! GPU (`cargo test -p aurum-cuda --features emulator`).
//!
//! A launch runs every block of its grid (in parallel over rayon's threads), each block's
//! threads one after another; the NTT kernel's body loops over its threads itself between its
//! synchronisation points (see `kernels/ntt.cuh`), so it is called once per block. "Device
//! memory" is host memory, counted against [`EMULATED_MEMORY`]; a buffer allocated unset starts
//! as a poison pattern, as in the host check, so a word read before it is written spoils the
//! result. Copies and launches run when queued: what this cannot check is the GPU's own
//! ordering of streams (copies overlapping kernels), its timing and its compiler.

use std::collections::HashMap;
use std::ops::RangeBounds;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aurum_merkle::Preset;
use libloading::Library;
use rayon::prelude::*;

use super::{
    BLOCK, KERNELS, NTT_THREADS, NttPass, OpeningLaunch, check_fold, check_leaves, prefix,
};
use crate::error::CudaError;
use crate::info::DeviceInfo;
use crate::kernels::{KernelTuning, Poseidon2Constants, emulator_source_with};

/// The "device memory" the emulator reports and allocates from.
pub(crate) const EMULATED_MEMORY: usize = 8 << 30;

/// What an unset buffer starts as: not canonical, so a read before a write shows.
const POISON: u64 = 0xFFFF_FFFF_DEAD_BEEF;

/// The C++ compiler, `c++` unless `CXX` names another.
fn compiler() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".into())
}

/// Bytes of emulated device memory in use, shared by a device and its buffers.
#[derive(Debug)]
struct Held {
    bytes: usize,
    used: Arc<AtomicUsize>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.used.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// A buffer of 64-bit words in emulated device memory.
#[derive(Debug)]
pub(crate) struct Buffer {
    words: Vec<u64>,
    _held: Held,
}

impl Buffer {
    /// Words.
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    /// A view of `range` of the buffer, as cudarc's `slice_mut`.
    pub(crate) fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> ViewMut<'_> {
        let range = (range.start_bound().cloned(), range.end_bound().cloned());
        ViewMut(&mut self.words[range])
    }
}

/// A part of a [`Buffer`] a kernel writes.
pub(crate) struct ViewMut<'a>(&'a mut [u64]);

impl ViewMut<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// The staging slots of the CUDA backend's `Staging`, in host memory: filled, then "sent"
/// (copied into the slot's device buffer at once).
pub(crate) struct Staging {
    pinned: Vec<Vec<u64>>,
    device: Vec<Buffer>,
    /// Words per read-back chunk.
    readback: usize,
}

impl Staging {
    /// Words per slot.
    pub(crate) fn slot_len(&self) -> usize {
        self.pinned[0].len()
    }

    /// Slots.
    pub(crate) fn slots(&self) -> usize {
        self.pinned.len()
    }
}

type LeavesFn = unsafe extern "C" fn(*const u64, u32, u64, u64, u64, *mut u64);
type PackedLeavesFn = unsafe extern "C" fn(*const u64, u64, u64, *mut u64);
type CompressFn = unsafe extern "C" fn(*const u64, u64, *mut u64);
type InjectFn = unsafe extern "C" fn(*mut u64, *const u64, u64, u64);
type PermuteFn = unsafe extern "C" fn(*mut u64, u64, u32);
type PowersFn = unsafe extern "C" fn(*mut u64, *const u64, *const u64, u32, u64);
type NttPassFn = unsafe extern "C" fn(
    *mut u64,
    *const u64,
    u32,
    u32,
    u32,
    u64,
    u32,
    u32,
    *const u64,
    *const u64,
    u32,
);
type FoldFn = unsafe extern "C" fn(*const u64, u64, u32, u32, u64, u64, *const u64, *mut u64);
type OpeningFn =
    unsafe extern "C" fn(*const u64, u64, u32, *const u64, *const u64, *const u64, u32, *mut u64);
/// Sets the calling thread's `blockIdx.x`, `threadIdx.x` and `blockDim.x`.
type ThreadFn = unsafe extern "C" fn(u32, u32, u32);

/// The emulated device: the compiled kernels and the memory count.
pub(crate) struct Device {
    /// Kept loaded while the device lives: `symbols` point into it.
    _library: Library,
    /// Each kernel's address in `library`, found when it was loaded.
    symbols: HashMap<&'static str, usize>,
    thread: ThreadFn,
    used: Arc<AtomicUsize>,
    pub(crate) info: DeviceInfo,
}

/// A device address as a plain number, so launches can share it across rayon's threads.
fn address(words: &[u64]) -> usize {
    words.as_ptr() as usize
}

/// A writable device address as a plain number.
fn address_mut(words: &mut [u64]) -> usize {
    words.as_mut_ptr() as usize
}

impl Device {
    /// The emulator with the kernels compiled by the host's C++ compiler with the Poseidon2
    /// round constants `constants` and `tuning`'s definitions.
    pub(crate) fn open(
        constants: &Poseidon2Constants,
        tuning: KernelTuning,
    ) -> Result<Self, CudaError> {
        Self::open_edited(constants, tuning, None)
    }

    /// [`Device::open`] with the source edited first: the one occurrence of `edit.0` replaced
    /// by `edit.1` (a fault put into a kernel, for the tests of the known-answer check). Text
    /// that is not in the source exactly once is [`CudaError::Compile`].
    pub(crate) fn open_edited(
        constants: &Poseidon2Constants,
        tuning: KernelTuning,
        edit: Option<(&str, &str)>,
    ) -> Result<Self, CudaError> {
        static OPENED: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "aurum-cuda-emulator-{}-{}",
            std::process::id(),
            OPENED.fetch_add(1, Ordering::Relaxed)
        ));
        let start = Instant::now();
        let mut source = emulator_source_with(constants);
        if let Some((replace, with)) = edit {
            if source.matches(replace).count() != 1 {
                return Err(CudaError::Compile(format!(
                    "the edit's text is not in the emulator's source exactly once: {replace}"
                )));
            }
            source = source.replacen(replace, with, 1);
        }
        let compiled = build(&dir, &source, tuning);
        let compile_time = start.elapsed();
        let start = Instant::now();
        let loaded = compiled.and_then(|library| load(&library));
        // Loaded (or not): the file is no longer needed.
        let _ = std::fs::remove_dir_all(&dir);
        let (library, symbols, thread) = loaded?;
        Ok(Self {
            _library: library,
            symbols,
            thread,
            used: Arc::new(AtomicUsize::new(0)),
            info: DeviceInfo {
                name: format!("host emulator ({} -O2)", compiler()),
                memory: EMULATED_MEMORY,
                multiprocessors: u32::try_from(rayon::current_num_threads()).unwrap_or(u32::MAX),
                compute_capability: (0, 0),
                compile_time,
                load_time: start.elapsed(),
                check_time: Duration::ZERO,
            },
        })
    }

    /// Kernel `name`'s entry point, as the function type `F` (its signature in the source).
    fn kernel<F: Copy>(&self, name: &str) -> F {
        let address = *self
            .symbols
            .get(name)
            .expect("every kernel in KERNELS is found when the emulator is opened");
        assert_eq!(size_of::<F>(), size_of::<usize>());
        // SAFETY: `address` is the address of the `extern "C"` function `name` in `library`,
        // which this device keeps loaded; every caller names `F` as that function's signature
        // in kernels/merkle.cu and ntt.cu (a function pointer, the size of an address,
        // asserted).
        unsafe { core::mem::transmute_copy::<usize, F>(&address) }
    }

    /// Runs `thread` for every thread of `ceil(threads / BLOCK)` blocks of [`BLOCK`] (the CUDA
    /// backend's grid), the blocks in parallel; the kernel's own bound check skips the threads
    /// past `threads`, as on the GPU.
    fn grid(&self, threads: u64, thread: impl Fn() + Sync) -> Result<(), CudaError> {
        let blocks =
            u32::try_from(threads.div_ceil(u64::from(BLOCK))).map_err(|_| CudaError::Driver {
                what: "launching a kernel",
                message: format!("{threads} threads exceed the grid"),
            })?;
        let set = self.thread;
        (0..blocks).into_par_iter().for_each(|block| {
            for t in 0..BLOCK {
                // SAFETY: `set` only writes the calling thread's thread-local indices.
                unsafe { set(block, t, BLOCK) };
                thread();
            }
        });
        Ok(())
    }

    /// Registers and spilled bytes per kernel: the emulator has neither.
    pub(crate) fn kernel_resources(&self) -> Result<Vec<(&'static str, i32, i32)>, CudaError> {
        Err(CudaError::Driver {
            what: "reading a kernel's attributes",
            message: "the host emulator's kernels have no registers to report".into(),
        })
    }

    /// Bytes of emulated memory not in use.
    pub(crate) fn free_memory(&self) -> Result<usize, CudaError> {
        Ok(EMULATED_MEMORY.saturating_sub(self.used.load(Ordering::Relaxed)))
    }

    /// A buffer of `len` words (at least one, as the CUDA backend's), each `fill`.
    fn alloc(&self, len: usize, fill: u64) -> Result<Buffer, CudaError> {
        let len = len.max(1);
        let bytes = len * 8;
        let used = self.used.fetch_add(bytes, Ordering::Relaxed) + bytes;
        let held = Held {
            bytes,
            used: Arc::clone(&self.used),
        };
        if used > EMULATED_MEMORY {
            return Err(CudaError::Driver {
                what: "allocating device memory",
                message: format!(
                    "out of memory ({bytes} bytes; the emulator has {EMULATED_MEMORY})"
                ),
            });
        }
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|e| CudaError::Driver {
                what: "allocating device memory",
                message: e.to_string(),
            })?;
        words.resize(len, fill);
        Ok(Buffer { words, _held: held })
    }

    /// A copy of `words` on the device.
    pub(crate) fn upload(&self, words: &[u64]) -> Result<Buffer, CudaError> {
        let mut buffer = self.alloc(words.len(), 0)?;
        buffer.words[..words.len()].copy_from_slice(words);
        Ok(buffer)
    }

    /// `len` words whose values are unset: the poison pattern.
    pub(crate) fn unset(&self, len: usize) -> Result<Buffer, CudaError> {
        self.alloc(len, POISON)
    }

    /// `len` zero words.
    pub(crate) fn zeros(&self, len: usize) -> Result<Buffer, CudaError> {
        self.alloc(len, 0)
    }

    /// The first `len` words of `buffer`, copied back.
    pub(crate) fn download(&self, buffer: &Buffer, len: usize) -> Result<Vec<u64>, CudaError> {
        Ok(buffer.words[..len].to_vec())
    }

    /// Staging buffers of `slots` × `words`.
    pub(crate) fn staging(&self, words: usize, slots: usize) -> Result<Staging, CudaError> {
        let mut device = Vec::with_capacity(slots);
        for _ in 0..slots {
            device.push(self.zeros(words)?);
        }
        Ok(Staging {
            pinned: vec![vec![0; words]; slots],
            device,
            readback: words,
        })
    }

    /// Copies the first `dst.len()` words of `buffer` into `dst`, a read-back chunk at a time.
    pub(crate) fn read_back(
        &self,
        staging: &mut Staging,
        buffer: &Buffer,
        dst: &mut [u64],
    ) -> Result<(), CudaError> {
        let source = &buffer.words[..dst.len()];
        for (d, s) in dst
            .chunks_mut(staging.readback)
            .zip(source.chunks(staging.readback))
        {
            d.copy_from_slice(s);
        }
        Ok(())
    }

    /// Fills staging slot `slot`'s first `len` words with `fill`, then sends them.
    pub(crate) fn stage(
        &self,
        staging: &mut Staging,
        slot: usize,
        len: usize,
        fill: impl FnOnce(&mut [u64]),
    ) -> Result<(), CudaError> {
        fill(&mut Self::slot_mut(staging, slot)?[..len]);
        self.send(staging, slot, len)
    }

    /// Staging slot `slot`'s host words.
    pub(crate) fn slot_mut(staging: &mut Staging, slot: usize) -> Result<&mut [u64], CudaError> {
        Ok(&mut staging.pinned[slot])
    }

    /// Copies staging slot `slot`'s first `len` words to its device slot, whose other words
    /// become the poison pattern: a kernel that reads past what was sent gets it.
    pub(crate) fn send(
        &self,
        staging: &mut Staging,
        slot: usize,
        len: usize,
    ) -> Result<(), CudaError> {
        let Staging { pinned, device, .. } = staging;
        let (sent, rest) = device[slot].words.split_at_mut(len);
        sent.copy_from_slice(&pinned[slot][..len]);
        rest.fill(POISON);
        Ok(())
    }

    /// `out[4i..]` = leaf digest of row `i` of the `rows` × `width` matrix in staging slot
    /// `slot`, for `i < rows`.
    pub(crate) fn packed_leaves(
        &self,
        preset: Preset,
        staging: &Staging,
        slot: usize,
        width: usize,
        rows: usize,
        out: &mut ViewMut<'_>,
    ) -> Result<(), CudaError> {
        assert!(rows * width <= staging.slot_len() && out.len() >= 4 * rows);
        if rows == 0 {
            return Ok(());
        }
        let f: PackedLeavesFn = self.kernel(&format!("{}_packed_leaves", prefix(preset)));
        let (data, out) = (address(&staging.device[slot].words), address_mut(out.0));
        let (w, n) = (width as u64, rows as u64);
        self.grid(n, || {
            // SAFETY: (data, width, rows, out) is the kernel's signature; thread i < rows reads
            // words i·width..(i + 1)·width of the slot (rows · width ≤ its length, asserted)
            // and writes 4i..4i + 4 of `out` (4 · rows ≤ its length, asserted): the threads
            // write disjoint words.
            unsafe { f(data as *const u64, w, n, out as *mut u64) }
        })
    }

    /// Every launch runs when it is queued: nothing to wait for.
    pub(crate) fn synchronize(&self) -> Result<(), CudaError> {
        Ok(())
    }

    /// `out[i]` = leaf digest of row `first + i` of `matrices` (rows concatenated), for
    /// `i < rows`; `widths[m]` is matrix `m`'s width and `out` holds at least `4 · rows` words.
    pub(crate) fn leaves(
        &self,
        preset: Preset,
        matrices: &[&Buffer],
        widths: &[usize],
        first: usize,
        rows: usize,
        out: &mut ViewMut<'_>,
    ) -> Result<(), CudaError> {
        let lens: Vec<usize> = matrices.iter().map(|m| m.len()).collect();
        check_leaves(&lens, widths, first, rows, out.len());
        if rows == 0 {
            return Ok(());
        }
        // Descriptor pairs: each matrix's address and width.
        let mut desc = Vec::with_capacity(2 * matrices.len());
        for (m, &w) in matrices.iter().zip(widths) {
            desc.push(address(&m.words) as u64);
            desc.push(w as u64);
        }
        let desc = self.upload(&desc)?;
        let n_mats = u32::try_from(matrices.len()).expect("the shape bounds the matrix count");
        let total: u64 = widths.iter().map(|&w| w as u64).sum();
        let (first, rows) = (first as u64, rows as u64);
        let f: LeavesFn = self.kernel(&format!("{}_leaves", prefix(preset)));
        let (d, out) = (address(&desc.words), address_mut(out.0));
        self.grid(rows, || {
            // SAFETY: (desc, n_mats, first, rows, total, out) is the kernel's signature; every
            // matrix address in `desc` is a live buffer of at least (first + rows) · width
            // words (`check_leaves` asserted) and `out` holds 4 · rows words; thread i writes
            // 4i..4i + 4.
            unsafe { f(d as *const u64, n_mats, first, rows, total, out as *mut u64) }
        })
    }

    /// `parents[i] = compress(children[2i], children[2i + 1])` for `i < count`.
    pub(crate) fn compress(
        &self,
        preset: Preset,
        children: &Buffer,
        count: usize,
        parents: &mut Buffer,
    ) -> Result<(), CudaError> {
        assert!(children.len() >= 8 * count && parents.len() >= 4 * count);
        if count == 0 {
            return Ok(());
        }
        let f: CompressFn = self.kernel(&format!("{}_compress", prefix(preset)));
        let (c, p) = (address(&children.words), address_mut(&mut parents.words));
        let n = count as u64;
        self.grid(n, || {
            // SAFETY: (children, count, parents) is the kernel's signature; thread i < count
            // reads words 8i..8i + 8 of children and writes 4i..4i + 4 of parents, inside
            // both (asserted).
            unsafe { f(c as *const u64, n, p as *mut u64) }
        })
    }

    /// `parents[i] = compress(parents[i], injected[i])` for `i < real`, with a zero digest for
    /// `i ≥ rows`.
    pub(crate) fn inject(
        &self,
        preset: Preset,
        parents: &mut Buffer,
        injected: &Buffer,
        rows: usize,
        real: usize,
    ) -> Result<(), CudaError> {
        assert!(parents.len() >= 4 * real && injected.len() >= 4 * rows && rows <= real);
        if real == 0 {
            return Ok(());
        }
        let f: InjectFn = self.kernel(&format!("{}_inject", prefix(preset)));
        let (p, i) = (address_mut(&mut parents.words), address(&injected.words));
        let (rows, real) = (rows as u64, real as u64);
        self.grid(real, || {
            // SAFETY: (parents, injected, rows, real) is the kernel's signature; thread
            // i < real reads and writes parents' words 4i..4i + 4 and, when i < rows, reads
            // injected's — inside both (asserted).
            unsafe { f(p as *mut u64, i as *const u64, rows, real) }
        })
    }

    /// Permutes each of the `count` states of `width` words in `states` `rounds` times.
    pub(crate) fn permute(
        &self,
        kernel: &'static str,
        width: usize,
        states: &mut Buffer,
        count: usize,
        rounds: u32,
    ) -> Result<(), CudaError> {
        assert!(states.len() >= width * count);
        if count == 0 {
            return Ok(());
        }
        let f: PermuteFn = self.kernel(kernel);
        let s = address_mut(&mut states.words);
        let n = count as u64;
        self.grid(n, || {
            // SAFETY: (states, count, rounds) is the kernel's signature; thread i < count
            // reads and writes words width·i..width·(i + 1) of states, inside it (asserted;
            // `kernel` is the permutation of that width).
            unsafe { f(s as *mut u64, n, rounds) }
        })
    }

    /// `out[t] = hi[t >> lo_bits] · lo[t mod 2^lo_bits]` for `t < count`.
    pub(crate) fn powers(
        &self,
        out: &mut Buffer,
        count: u64,
        lo_bits: u32,
        hi: &[u64],
        lo: &[u64],
    ) -> Result<(), CudaError> {
        let hi_len = usize::try_from(count >> lo_bits).expect("a table that fits in memory");
        assert!(out.len() as u64 >= count && hi.len() >= hi_len && lo.len() >= 1 << lo_bits);
        if count == 0 {
            return Ok(());
        }
        let hi = self.upload(hi)?;
        let lo = self.upload(lo)?;
        let f: PowersFn = self.kernel("powers");
        let (o, h, l) = (
            address_mut(&mut out.words),
            address(&hi.words),
            address(&lo.words),
        );
        self.grid(count, || {
            // SAFETY: (out, hi, lo, lo_bits, count) is the kernel's signature; thread
            // t < count writes out[t] and reads hi[t >> lo_bits] and lo[t mod 2^lo_bits],
            // inside all three (asserted).
            unsafe {
                f(
                    o as *mut u64,
                    h as *const u64,
                    l as *const u64,
                    lo_bits,
                    count,
                )
            }
        })
    }

    /// One pass of an NTT over `data`'s rows (see the CUDA backend's `ntt_pass`): each of the
    /// `blocks` blocks runs once, its body looping over its threads.
    pub(crate) fn ntt_pass(
        &self,
        data: &mut Buffer,
        table: &Buffer,
        log_table: u32,
        pass: NttPass,
        spread: Option<(&Buffer, &Buffer, u32)>,
    ) -> Result<(), CudaError> {
        let NttPass {
            low,
            layers,
            width,
            lane_bits,
            blocks: _,
            flags,
        } = pass;
        let grid = pass.checked_grid(
            data.len(),
            table.len(),
            log_table,
            spread.map(|(src, scale, log_n)| (src.len(), scale.len(), log_n)),
        )?;
        let (src, scale, log_n) = spread.unwrap_or((table, table, 0));
        let f: NttPassFn = self.kernel("ntt_pass");
        let set = self.thread;
        let (d, t, s, c) = (
            address_mut(&mut data.words),
            address(&table.words),
            address(&src.words),
            address(&scale.words),
        );
        (0..grid).into_par_iter().for_each(|block| {
            // SAFETY: `set` writes the calling thread's indices; (data, table, log_table, low,
            // layers, width, lane_bits, flags, src, scale, log_n) is the kernel's signature and
            // block k reads and writes only rows of its own span inside data's first
            // rows · width words, its twiddles inside table and, with the spread flag, src and
            // scale entries below 2^log_n (the CUDA backend's argument, `NttPass::checked_grid`
            // asserted);
            // its tile and lanes are this thread's own (thread-local "shared" arrays).
            unsafe {
                set(block, 0, NTT_THREADS);
                f(
                    d as *mut u64,
                    t as *const u64,
                    log_table,
                    low,
                    layers,
                    width,
                    lane_bits,
                    flags,
                    s as *const u64,
                    c as *const u64,
                    log_n,
                );
            }
        });
        Ok(())
    }

    /// The FRI fold of `codeword` (`rows · 2^log_arity` extension elements, word pairs) by
    /// `2^log_arity` with `beta` into `out` (`rows` elements), `half` the table of
    /// `ω_n^−k / 2` (kernels/fold.cu).
    pub(crate) fn fri_fold(
        &self,
        codeword: &Buffer,
        rows: usize,
        log_arity: u32,
        beta: [u64; 2],
        half: &Buffer,
        out: &mut Buffer,
    ) -> Result<(), CudaError> {
        let log_n = check_fold(codeword.len(), rows, log_arity, half.len(), out.len());
        let f: FoldFn = self.kernel("fri_fold");
        let (c, h, o) = (
            address(&codeword.words),
            address(&half.words),
            address_mut(&mut out.words),
        );
        let n = rows as u64;
        self.grid(n, || {
            // SAFETY: (codeword, rows, log_arity, log_n, b0, b1, half, out) is the kernel's
            // signature; thread i < rows reads its group of codeword and entries below
            // 2^(log_n − 1) of half and writes words 2i, 2i + 1 of out — inside all three, and
            // 2^log_arity within the kernel's arrays (`check_fold` asserted).
            unsafe {
                f(
                    c as *const u64,
                    n,
                    log_arity,
                    log_n,
                    beta[0],
                    beta[1],
                    h as *const u64,
                    o as *mut u64,
                );
            }
        })
    }

    /// Adds one matrix's reduced-opening terms to `out` (see the CUDA backend's
    /// `reduced_opening`).
    pub(crate) fn reduced_opening(
        &self,
        lde: &Buffer,
        launch: OpeningLaunch,
        points: &Buffer,
        coefficients: &Buffer,
        terms: &Buffer,
        out: &mut Buffer,
    ) -> Result<(), CudaError> {
        let rows = launch.checked_rows(
            lde.len(),
            points.len(),
            coefficients.len(),
            terms.len(),
            out.len(),
        );
        let OpeningLaunch {
            width,
            log_n,
            terms: n_terms,
        } = launch;
        let f: OpeningFn = self.kernel("reduced_opening");
        let (l, p, c, t, o) = (
            address(&lde.words),
            address(&points.words),
            address(&coefficients.words),
            address(&terms.words),
            address_mut(&mut out.words),
        );
        self.grid(rows, || {
            // SAFETY: (lde, width, log_n, points, coefficients, terms, n_terms, out) is the
            // kernel's signature; thread i < 2^log_n reads row i of lde, points[rev(i)],
            // 2 · width coefficient words and 6 · n_terms term words, and reads and writes words
            // 2i, 2i + 1 of out — inside all five (`OpeningLaunch::checked_rows` asserted): the
            // threads write disjoint words.
            unsafe {
                f(
                    l as *const u64,
                    width,
                    log_n,
                    p as *const u64,
                    c as *const u64,
                    t as *const u64,
                    n_terms,
                    o as *mut u64,
                );
            }
        })
    }

    /// A copy of `words` into the first words of `buffer`.
    pub(crate) fn upload_into(&self, words: &[u64], buffer: &mut Buffer) -> Result<(), CudaError> {
        assert!(words.len() <= buffer.len());
        buffer.words[..words.len()].copy_from_slice(words);
        Ok(())
    }

    /// Wall time of `f`.
    pub(crate) fn timed<T>(
        &self,
        f: impl FnOnce() -> Result<T, CudaError>,
    ) -> Result<(T, Duration), CudaError> {
        let start = Instant::now();
        let out = f()?;
        Ok((out, start.elapsed()))
    }
}

/// Writes the emulator's source into `dir` and compiles it into a shared library there.
fn build(dir: &Path, source: &str, tuning: KernelTuning) -> Result<std::path::PathBuf, CudaError> {
    let failed =
        |what: &str, e: std::io::Error| CudaError::NoDevice(format!("host emulator: {what}: {e}"));
    std::fs::create_dir_all(dir).map_err(|e| failed("creating its folder", e))?;
    let path = dir.join("emulator.cpp");
    std::fs::write(&path, source).map_err(|e| failed("writing its source", e))?;
    let library = dir.join("libaurum_emulator.so");
    let output = Command::new(compiler())
        .args([
            "-O2",
            "-std=c++17",
            "-shared",
            "-fPIC",
            "-Wall",
            "-Werror",
            "-Wno-unknown-pragmas",
        ])
        .args(tuning.nvrtc_options())
        .arg("-o")
        .arg(&library)
        .arg(&path)
        .output()
        .map_err(|e| failed(&format!("running the C++ compiler `{}`", compiler()), e))?;
    if !output.status.success() {
        return Err(CudaError::Compile(
            String::from_utf8_lossy(&output.stderr).into_owned(),
        ));
    }
    Ok(library)
}

/// Loads the compiled library and finds every kernel and the thread setter in it.
fn load(path: &Path) -> Result<(Library, HashMap<&'static str, usize>, ThreadFn), CudaError> {
    let failed = |e: libloading::Error| CudaError::Driver {
        what: "loading the emulated kernels",
        message: e.to_string(),
    };
    // SAFETY: the library is the one `build` just compiled from the kernels' source: loading
    // it runs only the static initialisers of that source (none besides constant tables).
    let library = unsafe { Library::new(path) }.map_err(failed)?;
    let mut symbols = HashMap::new();
    for &name in KERNELS {
        // SAFETY: only the address is read (the type given is a plain pointer); calls cast it
        // to the kernel's signature (`Device::kernel`).
        let symbol = unsafe { library.get::<*const ()>(name.as_bytes()) }.map_err(failed)?;
        symbols.insert(name, *symbol as usize);
    }
    // SAFETY: `aurum_emulator_thread` is defined in the emulator's prelude with this signature
    // (kernels.rs, EMULATOR_PRELUDE).
    let thread = *unsafe { library.get::<ThreadFn>(b"aurum_emulator_thread") }.map_err(failed)?;
    Ok((library, symbols, thread))
}
