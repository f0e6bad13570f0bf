//! The CUDA driver through `cudarc`: the device, its memory and the kernel launches.
//!
//! The driver and NVRTC are loaded with `dlopen` at first use. cudarc's own loader panics when
//! a library is missing, so [`Device::open`] probes for each one first and returns a typed
//! error instead: a machine without CUDA never reaches cudarc's loader.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aurum_merkle::Preset;
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, CudaViewMut, DevicePtr,
    DevicePtrMut, DriverError, LaunchConfig, PinnedHostSlice, PushKernelArg,
};

use super::{
    BLOCK, KERNELS, NTT_THREADS, NttPass, OpeningLaunch, check_fold, check_leaves, compile, prefix,
};
use crate::error::CudaError;
use crate::info::DeviceInfo;
use crate::kernels::{KernelTuning, Poseidon2Constants};

/// A buffer of 64-bit words on the device.
pub(crate) type Buffer = CudaSlice<u64>;

fn driver(what: &'static str) -> impl FnOnce(DriverError) -> CudaError {
    move |e| CudaError::Driver {
        what,
        message: e.to_string(),
    }
}

/// Whether the CUDA driver library can be loaded.
fn driver_present() -> bool {
    // SAFETY: the probe dlopens each candidate name of the driver library and drops the handle
    // again; loading the NVIDIA driver library runs no code that could break this process.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Page-locked host buffers and device buffers of equal size, used round-robin to stream
/// input to the device: the host fills slot k while slot k − 1 is being copied (on the copy
/// stream) and slot k − 2 hashed (on the compute stream). A copy moves only the words filled
/// (a chunk of narrow rows fills a quarter of a slot, a small tree's one chunk far less), so
/// it is queued from a plain slice of the page-locked memory, which cudarc does not track:
/// each slot's `sent` event, recorded after its copy, is what filling the slot again waits
/// for. cudarc's tracking orders the rest: a copy into a device slot waits for the kernel
/// still reading it, and a kernel waits for its slot's copy.
pub(crate) struct Staging {
    pinned: Vec<PinnedHostSlice<u64>>,
    device: Vec<Buffer>,
    /// Per slot, recorded on the copy stream after the slot's last copy.
    sent: Vec<CudaEvent>,
    copy: Arc<CudaStream>,
    /// A page-locked buffer (not write-combined: the host reads it) for copies back.
    readback: PinnedHostSlice<u64>,
}

impl Drop for Staging {
    fn drop(&mut self) {
        // The page-locked slots must outlive the copies out of them (their own drop waits
        // only for the copies cudarc tracked, and these are not).
        let _ = self.copy.synchronize();
    }
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

/// An opened device: its context, one stream, and the loaded kernels.
pub(crate) struct Device {
    stream: Arc<CudaStream>,
    functions: HashMap<&'static str, CudaFunction>,
    pub(crate) info: DeviceInfo,
}

impl Device {
    /// Device 0, with the kernels compiled for it with the Poseidon2 round constants
    /// `constants` and `tuning`.
    pub(crate) fn open(
        constants: &Poseidon2Constants,
        tuning: KernelTuning,
    ) -> Result<Self, CudaError> {
        if !driver_present() {
            return Err(CudaError::NoDriver);
        }
        let count = CudaContext::device_count().map_err(|e| CudaError::NoDevice(e.to_string()))?;
        if count < 1 {
            return Err(CudaError::NoDevice("the driver reports 0 devices".into()));
        }
        let ctx = CudaContext::new(0).map_err(|e| CudaError::NoDevice(e.to_string()))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(driver("reading the compute capability"))?;
        let name = ctx.name().map_err(driver("reading the device name"))?;
        let memory = ctx.total_mem().map_err(driver("reading the memory size"))?;
        let multiprocessors = ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(driver("reading the multiprocessor count"))?;
        let start = Instant::now();
        let ptx = compile(&format!("{major}{minor}"), constants, tuning)?;
        let compiled = start.elapsed();
        let module = ctx
            .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
            .map_err(driver("loading the kernels"))?;
        let mut functions = HashMap::new();
        for &kernel in KERNELS {
            let f = module
                .load_function(kernel)
                .map_err(driver("finding a kernel"))?;
            functions.insert(kernel, f);
        }
        let loaded = start.elapsed() - compiled;
        Ok(Self {
            stream: ctx.default_stream(),
            functions,
            info: DeviceInfo {
                name,
                memory,
                multiprocessors: u32::try_from(multiprocessors).unwrap_or(0),
                compute_capability: (major, minor),
                compile_time: compiled,
                load_time: loaded,
                check_time: Duration::ZERO,
            },
        })
    }

    fn function(&self, name: &str) -> &CudaFunction {
        self.functions
            .get(name)
            .expect("every kernel in KERNELS is loaded when the device is opened")
    }

    /// Registers per thread and local (spilled) bytes per thread of every kernel, as the
    /// driver loaded them.
    pub(crate) fn kernel_resources(&self) -> Result<Vec<(&'static str, i32, i32)>, CudaError> {
        use cudarc::driver::sys::CUfunction_attribute;
        let mut out = Vec::with_capacity(KERNELS.len());
        for &name in KERNELS {
            let f = self.function(name).cu_function();
            let attribute = |a| {
                // SAFETY: `f` is a function of the module this device holds loaded (it lives
                // as long as `self`), and cuFuncGetAttribute only reads it.
                unsafe { cudarc::driver::result::function::get_function_attribute(f, a) }
                    .map_err(driver("reading a kernel's attributes"))
            };
            out.push((
                name,
                attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
                attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            ));
        }
        Ok(out)
    }

    /// Bytes free on the device.
    pub(crate) fn free_memory(&self) -> Result<usize, CudaError> {
        self.stream
            .context()
            .mem_get_info()
            .map(|(free, _)| free)
            .map_err(driver("reading the free memory"))
    }

    /// A copy of `words` on the device.
    pub(crate) fn upload(&self, words: &[u64]) -> Result<Buffer, CudaError> {
        self.stream
            .clone_htod(words)
            .map_err(driver("copying to the device"))
    }

    /// `len` words on the device whose values are unset, for a buffer the caller's kernels
    /// write whole before anything reads it (no memset: the LDE's buffers are gigabytes).
    pub(crate) fn unset(&self, len: usize) -> Result<Buffer, CudaError> {
        // SAFETY: cudarc marks this unsafe because the memory is not initialised; its words are
        // `u64`, for which every bit pattern is a value, so reading one before it is written
        // gives a wrong number, never undefined behaviour — and the callers write every word
        // first (the host check runs their plans on buffers filled with a poison pattern).
        unsafe { self.stream.alloc::<u64>(len.max(1)) }.map_err(driver("allocating device memory"))
    }

    /// `len` zero words on the device.
    pub(crate) fn zeros(&self, len: usize) -> Result<Buffer, CudaError> {
        self.stream
            .alloc_zeros(len.max(1))
            .map_err(driver("allocating device memory"))
    }

    /// The first `len` words of `buffer`, copied back. The destination's pages are touched
    /// in parallel first: faulting them in one by one inside the driver's copy made it run
    /// at about 1.5 GB/s.
    pub(crate) fn download(&self, buffer: &Buffer, len: usize) -> Result<Vec<u64>, CudaError> {
        use rayon::prelude::*;
        let mut out = vec![0u64; len];
        out.par_chunks_mut(1 << 16).for_each(|c| c.fill(0));
        self.stream
            .memcpy_dtoh(&buffer.slice(..len), &mut out[..])
            .map_err(driver("copying from the device"))?;
        self.synchronize()?;
        Ok(out)
    }

    /// Staging buffers of `slots` × `words` (page-locked host memory and device memory).
    pub(crate) fn staging(&self, words: usize, slots: usize) -> Result<Staging, CudaError> {
        let ctx = self.stream.context();
        let mut pinned = Vec::with_capacity(slots);
        let mut device = Vec::with_capacity(slots);
        for _ in 0..slots {
            // SAFETY: the host buffer starts uninitialised and is zeroed right below, before
            // any other use (so no uninitialised word is ever read or copied).
            let mut slot = unsafe { ctx.alloc_pinned::<u64>(words) }
                .map_err(driver("allocating page-locked memory"))?;
            slot.as_mut_slice()
                .map_err(driver("allocating page-locked memory"))?
                .fill(0);
            pinned.push(slot);
            device.push(self.zeros(words)?);
        }
        // SAFETY: as above: zeroed before any other use.
        let mut readback = unsafe { ctx.alloc_pinned_with_flags::<u64>(words, 0) }
            .map_err(driver("allocating page-locked memory"))?;
        readback
            .as_mut_slice()
            .map_err(driver("allocating page-locked memory"))?
            .fill(0);
        let copy = ctx.new_stream().map_err(driver("creating a stream"))?;
        let sent = (0..slots)
            .map(|_| ctx.new_event(None))
            .collect::<Result<Vec<_>, _>>()
            .map_err(driver("creating an event"))?;
        Ok(Staging {
            pinned,
            device,
            sent,
            copy,
            readback,
        })
    }

    /// Copies the first `dst.len()` words of `buffer` into `dst` through the page-locked
    /// read-back buffer, a chunk at a time: each chunk's copy runs at the bus's speed (a copy
    /// into pageable memory ran at about 1.5 GB/s) and is then moved into `dst` in parallel.
    pub(crate) fn read_back(
        &self,
        staging: &mut Staging,
        buffer: &Buffer,
        dst: &mut [u64],
    ) -> Result<(), CudaError> {
        use rayon::prelude::*;
        let chunk = staging.readback.len();
        for start in (0..dst.len()).step_by(chunk) {
            let len = chunk.min(dst.len() - start);
            let host = staging
                .readback
                .as_mut_slice()
                .map_err(driver("waiting for the read-back buffer"))?;
            // A plain slice as the destination: exactly `len` words are copied, and cudarc
            // waits for the copy before returning.
            self.stream
                .memcpy_dtoh(&buffer.slice(start..start + len), &mut host[..len])
                .map_err(driver("copying from the device"))?;
            self.synchronize()?;
            dst[start..start + len]
                .par_chunks_mut(1 << 15)
                .zip(host[..len].par_chunks(1 << 15))
                .for_each(|(d, s)| d.copy_from_slice(s));
        }
        Ok(())
    }

    /// Fills staging slot `slot`'s first `len` words with `fill` (after its previous copy has
    /// finished), then queues their copy to the device slot.
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

    /// Staging slot `slot`'s page-locked words, once its previous copy has finished.
    pub(crate) fn slot_mut(staging: &mut Staging, slot: usize) -> Result<&mut [u64], CudaError> {
        staging.sent[slot]
            .synchronize()
            .map_err(driver("waiting for a staging buffer"))?;
        staging.pinned[slot]
            .as_mut_slice()
            .map_err(driver("waiting for a staging buffer"))
    }

    /// Queues the copy of staging slot `slot`'s first `len` words to its device slot (on the
    /// copy stream; the kernels that read the device slot wait for it).
    pub(crate) fn send(
        &self,
        staging: &mut Staging,
        slot: usize,
        len: usize,
    ) -> Result<(), CudaError> {
        let Staging {
            pinned,
            device,
            sent,
            copy,
            ..
        } = staging;
        if len == 0 {
            return Ok(());
        }
        let host = pinned[slot]
            .as_slice()
            .map_err(driver("waiting for a staging buffer"))?;
        let host = &host[..len];
        // cudarc's own calls make the context current on the calling thread; the raw copy
        // below does not.
        copy.context()
            .bind_to_thread()
            .map_err(driver("binding the context"))?;
        let mut view = device[slot].slice_mut(..len);
        // The copy stream waits for kernels still reading the device slot; `written` records
        // this copy as the slot's last write (kernels reading it wait for that) when dropped.
        let (dst, written) = view.device_ptr_mut(copy);
        // SAFETY: `dst` is `len` words of device memory (the view) and `host` `len` words of
        // page-locked memory. The copy runs after this returns: nothing writes `host` before it
        // has finished (`slot_mut`, the only way to the slot's words, waits for `sent[slot]`,
        // recorded right after it) or frees it before (Staging's drop waits for the copy
        // stream).
        unsafe { cudarc::driver::result::memcpy_htod_async(dst, host, copy.cu_stream()) }
            .map_err(driver("copying to the device"))?;
        drop(written);
        sent[slot].record(copy).map_err(driver("recording a copy"))
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
        out: &mut CudaViewMut<'_, u64>,
    ) -> Result<(), CudaError> {
        assert!(rows * width <= staging.slot_len() && out.len() >= 4 * rows);
        if rows == 0 {
            return Ok(());
        }
        let (w, n) = (width as u64, rows as u64);
        let f = self.function(&format!("{}_packed_leaves", prefix(preset)));
        let mut launch = self.stream.launch_builder(f);
        launch.arg(&staging.device[slot]).arg(&w).arg(&n).arg(out);
        // SAFETY: (data, width: u64, rows: u64, out) is the kernel's signature; thread i < rows
        // reads words i·width..(i + 1)·width of the slot (rows · width ≤ its length, asserted)
        // and writes 4i..4i + 4 of `out` (4 · rows ≤ its length, asserted).
        unsafe { launch.launch(Self::config(n)?) }.map_err(driver("launching leaves"))?;
        Ok(())
    }

    /// Waits for every launch and copy so far.
    pub(crate) fn synchronize(&self) -> Result<(), CudaError> {
        self.stream
            .synchronize()
            .map_err(driver("waiting for the device"))
    }

    fn config(threads: u64) -> Result<LaunchConfig, CudaError> {
        let blocks =
            u32::try_from(threads.div_ceil(u64::from(BLOCK))).map_err(|_| CudaError::Driver {
                what: "launching a kernel",
                message: format!("{threads} threads exceed the grid"),
            })?;
        Ok(LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        })
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
        out: &mut CudaViewMut<'_, u64>,
    ) -> Result<(), CudaError> {
        let lens: Vec<usize> = matrices.iter().map(|m| m.len()).collect();
        check_leaves(&lens, widths, first, rows, out.len());
        if rows == 0 {
            return Ok(());
        }
        // Descriptor pairs: each matrix's device address and width.
        let mut desc = Vec::with_capacity(2 * matrices.len());
        let mut guards = Vec::with_capacity(matrices.len());
        for (m, &w) in matrices.iter().zip(widths) {
            let (ptr, guard) = m.device_ptr(&self.stream);
            desc.push(ptr);
            desc.push(w as u64);
            guards.push(guard);
        }
        let desc = self.upload(&desc)?;
        let n_mats = u32::try_from(matrices.len()).expect("the shape bounds the matrix count");
        let total: u64 = widths.iter().map(|&w| w as u64).sum();
        let (first, rows) = (first as u64, rows as u64);
        let f = self.function(&format!("{}_leaves", prefix(preset)));
        let mut launch = self.stream.launch_builder(f);
        launch
            .arg(&desc)
            .arg(&n_mats)
            .arg(&first)
            .arg(&rows)
            .arg(&total)
            .arg(out);
        // SAFETY: the arguments match the kernel's signature (desc, n_mats: u32, first, rows,
        // total: u64, out); every matrix address in `desc` is a live buffer of at least
        // (first + rows) · width words (`check_leaves` asserted) and `out` holds 4 · rows
        // words, so the kernel's reads and writes stay inside them. `guards` keeps the
        // matrices' stream ordering records alive until the launch is queued.
        unsafe { launch.launch(Self::config(rows)?) }.map_err(driver("launching leaves"))?;
        drop(guards);
        Ok(())
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
        let n = count as u64;
        let f = self.function(&format!("{}_compress", prefix(preset)));
        let mut launch = self.stream.launch_builder(f);
        launch.arg(children).arg(&n).arg(parents);
        // SAFETY: (children, count: u64, parents) is the kernel's signature; thread i < count
        // reads words 8i..8i+8 of children and writes 4i..4i+4 of parents, inside both
        // (asserted above).
        unsafe { launch.launch(Self::config(n)?) }.map_err(driver("launching compress"))?;
        Ok(())
    }

    /// `parents[i] = compress(parents[i], injected[i])` for `i < real`, with a zero digest for
    /// `i ≥ rows` (`injected` holds `rows` digests).
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
        let (rows, real) = (rows as u64, real as u64);
        let f = self.function(&format!("{}_inject", prefix(preset)));
        let mut launch = self.stream.launch_builder(f);
        launch.arg(parents).arg(injected).arg(&rows).arg(&real);
        // SAFETY: (parents, injected, rows: u64, real: u64) is the kernel's signature; thread
        // i < real reads and writes parents' words 4i..4i+4 and, when i < rows, reads
        // injected's — inside both (asserted above).
        unsafe { launch.launch(Self::config(real)?) }.map_err(driver("launching inject"))?;
        Ok(())
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
        let n = count as u64;
        let f = self.function(kernel);
        let mut launch = self.stream.launch_builder(f);
        launch.arg(states).arg(&n).arg(&rounds);
        // SAFETY: (states, count: u64, rounds: u32) is the kernel's signature; thread
        // i < count reads and writes words width·i.. width·(i + 1) of states, inside it
        // (asserted above; `kernel` is the permutation of that width).
        unsafe { launch.launch(Self::config(n)?) }.map_err(driver("launching permute"))?;
        Ok(())
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
        let f = self.function("powers");
        let mut launch = self.stream.launch_builder(f);
        launch.arg(out).arg(&hi).arg(&lo).arg(&lo_bits).arg(&count);
        // SAFETY: (out, hi, lo, lo_bits: u32, count: u64) is the kernel's signature; thread
        // t < count writes out[t] (count ≤ out's length) and reads hi[t >> lo_bits] and
        // lo[t mod 2^lo_bits], inside both (asserted above).
        unsafe { launch.launch(Self::config(count)?) }.map_err(driver("launching powers"))?;
        Ok(())
    }

    /// One pass of an NTT over `data`'s rows: `layers` layers from span `2^low`, in `blocks`
    /// tiles of `2^layers × 2^lane_bits` words (see kernels/ntt.cuh); `spread` (the LDE's
    /// forward transform's first pass, with the spread flag): its tiles read through the
    /// spread from `src` (`2^log_n` rows) and `scale` (`2^log_n` entries) instead.
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
        // Unread without the spread flag: any valid device pointers.
        let (src, scale, log_n) = spread.unwrap_or((table, table, 0));
        let f = self.function("ntt_pass");
        let mut launch = self.stream.launch_builder(f);
        launch
            .arg(data)
            .arg(table)
            .arg(&log_table)
            .arg(&low)
            .arg(&layers)
            .arg(&width)
            .arg(&lane_bits)
            .arg(&flags)
            .arg(src)
            .arg(scale)
            .arg(&log_n);
        let config = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (NTT_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: (data, table, log_table, low, layers: u32, width: u64, lane_bits, flags: u32,
        // src, scale, log_n: u32) is the kernel's signature; what is asserted here,
        // `NttPass::checked_grid` asserted above. Block k reads and writes the
        // elements of rows hi·2^(low+layers) .. (hi + 1)·2^(low+layers) for hi = k / tiles, so
        // the `blocks` blocks stay inside the first `rows · width` words of data (asserted);
        // its tile, 2^(layers + lane_bits) words, and its lanes fit the kernel's shared arrays
        // (asserted); twiddle indices are below 2^(log_table − 1) (log_table > the highest
        // layer, asserted), inside table. With the spread flag (set exactly when `spread` is
        // given, asserted) a block reads, for each of its rows below 2^log_table (the whole
        // output, asserted), one src row below 2^log_n (row >> added, or the bit reversal of a
        // row below 2^log_n) and one scale entry below 2^log_n: inside both (asserted).
        unsafe { launch.launch(config) }.map_err(driver("launching an NTT pass"))?;
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
        let f = self.function("fri_fold");
        let n = rows as u64;
        let mut launch = self.stream.launch_builder(f);
        launch
            .arg(codeword)
            .arg(&n)
            .arg(&log_arity)
            .arg(&log_n)
            .arg(&beta[0])
            .arg(&beta[1])
            .arg(half)
            .arg(out);
        // SAFETY: (codeword, rows: u64, log_arity, log_n: u32, b0, b1: u64, half, out) is the
        // kernel's signature; thread i < rows reads words 2i·2^log_arity .. 2(i + 1)·2^log_arity
        // of codeword, entries below 2^(log_n − 1) of half and writes words 2i, 2i + 1 of out —
        // inside all three, and 2^log_arity within the kernel's arrays (`check_fold` asserted).
        unsafe { launch.launch(Self::config(n)?) }.map_err(driver("launching a fold"))?;
        Ok(())
    }

    /// Adds one matrix's reduced-opening terms to `out` (kernels/open.cu): `lde` holds
    /// `2^log_n` rows of `width` words, `points` the domain's points in natural order,
    /// `coefficients` the row combination's `width` extension elements and `terms` six words per
    /// term.
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
        let f = self.function("reduced_opening");
        let mut launch = self.stream.launch_builder(f);
        launch
            .arg(lde)
            .arg(&width)
            .arg(&log_n)
            .arg(points)
            .arg(coefficients)
            .arg(terms)
            .arg(&n_terms)
            .arg(out);
        // SAFETY: (lde, width: u64, log_n: u32, points, coefficients, terms, n_terms: u32, out)
        // is the kernel's signature; thread i < 2^log_n reads row i of lde (2^log_n · width
        // words), points[rev(i)] (2^log_n entries), 2 · width coefficient words and 6 · n_terms
        // term words, and reads and writes words 2i, 2i + 1 of out — inside all five
        // (`OpeningLaunch::checked_rows` asserted).
        unsafe { launch.launch(Self::config(rows)?) }
            .map_err(driver("launching a reduced opening"))?;
        Ok(())
    }

    /// A copy of `words` into the first words of `buffer`.
    pub(crate) fn upload_into(&self, words: &[u64], buffer: &mut Buffer) -> Result<(), CudaError> {
        assert!(words.len() <= buffer.len());
        if words.is_empty() {
            return Ok(());
        }
        self.stream
            .memcpy_htod(words, &mut buffer.slice_mut(..words.len()))
            .map_err(driver("copying to the device"))
    }

    /// Wall time of `f` with the device idle before and after it.
    pub(crate) fn timed<T>(
        &self,
        f: impl FnOnce() -> Result<T, CudaError>,
    ) -> Result<(T, Duration), CudaError> {
        self.synchronize()?;
        let start = Instant::now();
        let out = f()?;
        self.synchronize()?;
        Ok((out, start.elapsed()))
    }
}
