//! insn-count: QEMU TCG plugin for plugin API v1 (QEMU 6.0 .. 8.x, e.g. Debian bookworm's 7.2)
//! that counts executed guest instructions and prints the total when the guest exits.
//!
//!   qemu-aarch64 -plugin ./libinsn_count.so[,mode=tb|inline|insn][,syms=N][,out=FILE] prog args
//!
//! mode=tb (default): a callback per executed translation block (TB) adds the TB's instruction
//!   count to the slot of the running vCPU (= guest thread); exact with any number of threads.
//! mode=inline: TCG adds the count inline into one global counter (no call). The add is not
//!   atomic: with several guest threads running at once, counts are lost. Single thread only.
//! mode=insn: inline +1 per instruction (same race); for cross-checking tb mode.
//! syms=N: also print the N symbols of the main binary with the most executed instructions
//!   ("?" = code outside its symbol table: ld.so, libc, vdso). Atomic adds, so slower.
//! Output: "insn-count: <total> (mode=..., threads=...)" on stderr (no `-d plugin` needed);
//!   with out=FILE the bare total is also written to FILE.
use qemu_plugin_sys::*;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

#[no_mangle]
pub static qemu_plugin_version: c_int = QEMU_PLUGIN_VERSION as c_int;

#[repr(align(64))] // one cache line per vCPU: no false sharing between threads
struct Slot(AtomicU64);
const SLOTS: usize = 1024;
static COUNTS: [Slot; SLOTS] = [const { Slot(AtomicU64::new(0)) }; SLOTS];
static OVERFLOW: AtomicU64 = AtomicU64::new(0); // vCPU index >= SLOTS (needs > 1024 live threads)
static INLINE: AtomicU64 = AtomicU64::new(0); // target of the inline adds
static THREADS: AtomicU64 = AtomicU64::new(0);
static MODE: AtomicU8 = AtomicU8::new(0); // 0 = tb, 1 = inline, 2 = insn
static SYMS: AtomicUsize = AtomicUsize::new(0);
static OUT: OnceLock<String> = OnceLock::new();
// symbol name pointer (static inside QEMU, null = unknown) -> (name, counter)
type SymTab = HashMap<usize, (String, &'static AtomicU64)>;
static SYMTAB: Mutex<Option<SymTab>> = Mutex::new(None);

unsafe extern "C" fn tb_exec(vcpu: c_uint, n: *mut c_void) {
    match COUNTS.get(vcpu as usize) {
        // A vCPU index belongs to one live thread, so a plain load+store is enough here;
        // fetch_add (lock xadd) made the callback about 3x slower.
        Some(s) => s.0.store(s.0.load(Relaxed) + n as u64, Relaxed),
        None => {
            OVERFLOW.fetch_add(n as u64, Relaxed);
        }
    }
}

unsafe extern "C" fn sym_exec(_vcpu: c_uint, u: *mut c_void) {
    let (n, ctr) = *(u as *const (u64, &'static AtomicU64));
    ctr.fetch_add(n, Relaxed);
}

unsafe fn sym_counter(p: *const c_char) -> &'static AtomicU64 {
    let mut g = SYMTAB.lock().unwrap();
    g.get_or_insert_with(HashMap::new)
        .entry(p as usize)
        .or_insert_with(|| {
            let name = if p.is_null() {
                "?".to_string()
            } else {
                format!(
                    "{:#}",
                    rustc_demangle::demangle(&CStr::from_ptr(p).to_string_lossy())
                )
            };
            (name, Box::leak(Box::new(AtomicU64::new(0))))
        })
        .1
}

unsafe extern "C" fn tb_trans(_id: qemu_plugin_id_t, tb: *mut qemu_plugin_tb) {
    let n = qemu_plugin_tb_n_insns(tb);
    let ctr = INLINE.as_ptr() as *mut c_void;
    let add = qemu_plugin_op::QEMU_PLUGIN_INLINE_ADD_U64;
    let no_regs = qemu_plugin_cb_flags::QEMU_PLUGIN_CB_NO_REGS;
    match MODE.load(Relaxed) {
        0 => qemu_plugin_register_vcpu_tb_exec_cb(tb, Some(tb_exec), no_regs, n as *mut c_void),
        1 => qemu_plugin_register_vcpu_tb_exec_inline(tb, add, ctr, n as u64),
        _ => {
            for i in 0..n {
                qemu_plugin_register_vcpu_insn_exec_inline(
                    qemu_plugin_tb_get_insn(tb, i),
                    add,
                    ctr,
                    1,
                )
            }
        }
    }
    if SYMS.load(Relaxed) > 0 {
        // one callback per run of instructions of the same symbol
        let mut i = 0;
        while i < n {
            let sym = qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, i));
            let mut j = i + 1;
            while j < n && qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, j)) == sym {
                j += 1;
            }
            let u = Box::leak(Box::new(((j - i) as u64, sym_counter(sym))));
            qemu_plugin_register_vcpu_tb_exec_cb(
                tb,
                Some(sym_exec),
                no_regs,
                u as *mut _ as *mut c_void,
            );
            i = j;
        }
    }
}

unsafe extern "C" fn vcpu_init(_id: qemu_plugin_id_t, _vcpu: c_uint) {
    THREADS.fetch_add(1, Relaxed);
}

unsafe extern "C" fn at_exit(_id: qemu_plugin_id_t, _udata: *mut c_void) {
    let total = INLINE.load(Relaxed)
        + OVERFLOW.load(Relaxed)
        + COUNTS.iter().map(|s| s.0.load(Relaxed)).sum::<u64>();
    let mode = ["tb", "inline", "insn"][MODE.load(Relaxed) as usize];
    eprintln!(
        "insn-count: {total} (mode={mode}, threads={})",
        THREADS.load(Relaxed)
    );
    if let Some(tab) = SYMTAB.lock().unwrap().as_ref() {
        let mut v: Vec<_> = tab.values().map(|(s, c)| (c.load(Relaxed), s)).collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        for (c, s) in v.iter().take(SYMS.load(Relaxed)) {
            eprintln!("insn-count: {c:>14} {s}");
        }
    }
    if let Some(path) = OUT.get() {
        if let Err(e) = std::fs::write(path, format!("{total}\n")) {
            eprintln!("insn-count: cannot write {path}: {e}");
        }
    }
}

/// # Safety
/// Called once by QEMU's plugin loader with valid `argv[0..argc]`.
#[no_mangle]
pub unsafe extern "C" fn qemu_plugin_install(
    id: qemu_plugin_id_t,
    _info: *const qemu_info_t,
    argc: c_int,
    argv: *mut *mut c_char,
) -> c_int {
    for i in 0..argc as usize {
        let arg = CStr::from_ptr(*argv.add(i)).to_string_lossy();
        match arg.split_once('=') {
            Some(("mode", "tb")) => MODE.store(0, Relaxed),
            Some(("mode", "inline")) => MODE.store(1, Relaxed),
            Some(("mode", "insn")) => MODE.store(2, Relaxed),
            Some(("syms", n)) if n.parse::<usize>().is_ok() => {
                SYMS.store(n.parse().unwrap(), Relaxed)
            }
            Some(("out", path)) => {
                let _ = OUT.set(path.to_string());
            }
            _ => {
                eprintln!(
                    "insn-count: unknown argument {arg:?} (mode=tb|inline|insn, syms=N, out=FILE)"
                );
                return -1;
            }
        }
    }
    qemu_plugin_register_vcpu_init_cb(id, Some(vcpu_init));
    qemu_plugin_register_vcpu_tb_trans_cb(id, Some(tb_trans));
    qemu_plugin_register_atexit_cb(id, Some(at_exit), std::ptr::null_mut());
    0
}
