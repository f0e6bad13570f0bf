//! Backend selection: compile-time alias and run-time dispatch.
//!
//! # The pattern every bulk kernel in Aurum follows
//!
//! 1. Write the work once as a [`Kernel`]: `run::<P: PackedField>(self)`, marked
//!    `#[inline(always)]`, calling only `#[inline(always)]` generic code.
//! 2. Call [`dispatch()`] (or [`dispatch_on`] for a chosen backend). It looks up the backend
//!    once per process (CPU detection, or `AURUM_BACKEND`), then enters the kernel through
//!    a per-backend function marked `#[target_feature(enable = "...")]`. Because the kernel
//!    is inlined into that function, its body is compiled *with* AVX2 / AVX-512 even in a
//!    plain `cargo build --release` — this is what makes Aurum fast without RUSTFLAGS.
//! 3. Parallelise *outside* the kernel: split the work with rayon, and dispatch once per
//!    chunk. A rayon closure is a separate function the entry point cannot inline, so a
//!    kernel must never spawn parallel work from inside `run`.
//!
//! If a kernel's body is not inlined (a missing `#[inline(always)]`), it still computes the
//! right answer, only slowly: the benchmarks compare dispatched and `target-cpu=native`
//! builds to catch that. Closures (`core::array::from_fn`, `map`) inside a kernel are the
//! usual way to lose the inlining: a closure LLVM declines to inline is its own function,
//! compiled without the backend's target features.
//!
//! # Choosing the backend: `AURUM_BACKEND`
//!
//! Unset or empty, the process uses the fastest backend this CPU supports
//! ([`Backend::best_supported`]). Set to `scalar`, `avx2`, `avx512`, `neon` or `sve`
//! (case-insensitive), it forces that backend. The variable is read once per process.
//!
//! An unknown name, a backend this machine cannot run, or a value that is not UTF-8 is a
//! misconfiguration, and the two kinds of callers treat it differently:
//!
//! * **Infallible library calls** ([`backend()`], [`dispatch()`], and everything built on
//!   them: bulk kernels, `permute_many`, Merkle trees, NTTs) never panic because of the
//!   environment. They **fall back** to the best supported backend and print one warning on
//!   stderr per process, naming the variable, the bad value and the backend used instead.
//!   Every backend computes bit-identical results, so the fallback changes speed, never
//!   output.
//! * **Applications that want to refuse a misconfiguration** call [`selected_backend`] up
//!   front: it returns the [`BackendError`] (the `aurum` CLI does this and exits with
//!   status 2).
//!
//! Explicit requests are not environment: [`dispatch_on`] and [`parse_supported_backend`]
//! return a [`BackendError`] for a backend this machine cannot run, and never fall back.

use core::fmt;
use core::str::FromStr;
use std::sync::OnceLock;

use crate::backend as backends;
pub use crate::backend_id::Backend;
pub use crate::error::BackendError;
pub use crate::packed::Kernel;

impl Backend {
    /// Every backend, in the order used for display.
    pub const ALL: [Backend; 5] = [
        Backend::Scalar,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Neon,
        Backend::Sve,
    ];

    /// The name accepted by `AURUM_BACKEND` and printed by the CLI.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
            Backend::Sve => "sve",
        }
    }

    /// Lanes of the packed type generic kernels run with on this backend (for [`Backend::Sve`]
    /// that is NEON's 2; its own kernels use [`aurum_sve::Sve::lanes`], see [`Backend::sve`]).
    #[must_use]
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Scalar => 1,
            Backend::Avx2 => 4,
            Backend::Avx512 => 8,
            Backend::Neon | Backend::Sve => 2,
        }
    }

    /// The backend whose packed type runs the generic kernels ([`Kernel`]) on this one: itself,
    /// except NEON for [`Backend::Sve`] (SVE vectors have no size known at compile time, so
    /// they cannot be a [`PackedField`](crate::PackedField)).
    #[must_use]
    pub const fn packed(self) -> Backend {
        match self {
            Backend::Sve => Backend::Neon,
            b => b,
        }
    }

    /// For [`Backend::Sve`], the SVE flavour and vector length this CPU runs (`None` where it
    /// cannot); `None` for every other backend.
    #[must_use]
    pub fn sve(self) -> Option<aurum_sve::Sve> {
        match self {
            Backend::Sve => aurum_sve::detect(),
            _ => None,
        }
    }

    /// A one-line description for reports: the name, and for SVE the flavour and vector
    /// length (`"sve (sve2, 256-bit vectors)"`).
    #[must_use]
    pub fn describe(self) -> String {
        match self.sve() {
            Some(sve) => format!(
                "{self} ({}, {}-bit vectors)",
                sve.flavour,
                sve.vector_bits()
            ),
            None => format!("{self} ({} lanes)", self.lanes()),
        }
    }

    /// Whether this build and this CPU can run the backend.
    #[must_use]
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => backends::avx2::detected(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => backends::avx512::detected(),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => backends::neon::detected(),
            #[cfg(target_arch = "aarch64")]
            Backend::Sve => backends::neon::detected() && aurum_sve::detect().is_some(),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The backends this machine can run, from slowest to fastest.
    #[must_use]
    pub fn supported() -> Vec<Backend> {
        [
            Backend::Scalar,
            Backend::Neon,
            Backend::Sve,
            Backend::Avx2,
            Backend::Avx512,
        ]
        .into_iter()
        .filter(|b| b.is_supported())
        .collect()
    }

    /// The fastest backend this machine can run: the last of [`Backend::supported`], except
    /// that SVE is chosen over NEON only where it executes fewer instructions (see
    /// [`sve_preferred`]).
    #[must_use]
    pub fn best_supported() -> Backend {
        Self::supported()
            .into_iter()
            .rfind(|&b| b != Backend::Sve || sve_preferred())
            .expect("the scalar backend is always supported")
    }
}

/// Whether runtime selection prefers SVE over NEON on this CPU.
///
/// Decided by executed-instruction counts under qemu (`scripts/arm-instructions.sh`; the
/// figures are in the `aurum-sve` crate docs): SVE2 executes fewer instructions per
/// permutation than NEON at every vector length, 128 bits included, and so does SVE without
/// SVE2.
#[must_use]
pub fn sve_preferred() -> bool {
    aurum_sve::detect().is_some()
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// The message lists the backends this machine supports, which only this module knows, so the
// `Display` of `BackendError` (defined with the crate's other errors) is here.
impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let supported: Vec<&str> = Backend::supported().iter().map(|b| b.name()).collect();
        match self {
            BackendError::Unknown(name) => write!(
                f,
                "unknown backend {name:?}: expected one of scalar, avx2, avx512, neon, sve \
                 (this machine supports: {})",
                supported.join(", ")
            ),
            BackendError::Unsupported(b) => write!(
                f,
                "backend {b} is not supported on this machine (supported: {})",
                supported.join(", ")
            ),
            BackendError::NotUnicode => write!(f, "{BACKEND_ENV} is not valid UTF-8"),
        }
    }
}

impl FromStr for Backend {
    type Err = BackendError;

    /// Parses a backend name (case-insensitive). Does not check CPU support.
    fn from_str(s: &str) -> Result<Self, BackendError> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| BackendError::Unknown(s.to_string()))
    }
}

/// The environment variable that forces a backend.
pub const BACKEND_ENV: &str = "AURUM_BACKEND";

/// Parses a requested backend name and checks that this machine runs it (an explicit
/// request: no fallback).
pub fn parse_supported_backend(name: &str) -> Result<Backend, BackendError> {
    let backend: Backend = name.parse()?;
    if backend.is_supported() {
        Ok(backend)
    } else {
        Err(BackendError::Unsupported(backend))
    }
}

/// What `AURUM_BACKEND` asked for, read once per process.
struct EnvSelection {
    /// The backend it names, or why it names none this machine can run.
    result: Result<Backend, BackendError>,
    /// The variable's value as written (lossily decoded if it is not UTF-8), for the warning.
    value: String,
}

fn select_from_env() -> EnvSelection {
    match std::env::var_os(BACKEND_ENV) {
        None => EnvSelection {
            result: Ok(Backend::best_supported()),
            value: String::new(),
        },
        Some(raw) => {
            let value = raw.to_string_lossy().into_owned();
            let result = match raw.to_str() {
                None => Err(BackendError::NotUnicode),
                Some(name) if name.trim().is_empty() => Ok(Backend::best_supported()),
                Some(name) => parse_supported_backend(name),
            };
            EnvSelection { result, value }
        }
    }
}

fn env_selection() -> &'static EnvSelection {
    static SELECTION: OnceLock<EnvSelection> = OnceLock::new();
    SELECTION.get_or_init(select_from_env)
}

/// The backend `AURUM_BACKEND` selects: the named backend if set, else the fastest this CPU
/// supports. Decided once per process.
///
/// # Errors
/// The [`BackendError`] if `AURUM_BACKEND` names an unknown backend or one this machine
/// cannot run, or is not UTF-8. Applications that refuse a misconfigured environment check
/// this up front; [`backend()`] and [`dispatch()`] fall back instead (see the
/// [module docs](self#choosing-the-backend-aurum_backend)).
pub fn selected_backend() -> Result<Backend, BackendError> {
    env_selection().result.clone()
}

/// The backend bulk kernels use: [`selected_backend`] if it is valid, else the fastest this
/// CPU supports.
///
/// Never panics. If `AURUM_BACKEND` is invalid, the first call prints one warning on stderr
/// naming the variable, its value and the backend used instead; later calls stay silent.
#[must_use]
pub fn backend() -> Backend {
    static EFFECTIVE: OnceLock<Backend> = OnceLock::new();
    *EFFECTIVE.get_or_init(|| {
        let selection = env_selection();
        match &selection.result {
            Ok(b) => *b,
            Err(e) => {
                let fallback = Backend::best_supported();
                eprintln!(
                    "warning: {BACKEND_ENV}={:?} ignored, using the {fallback} backend instead: {e}",
                    selection.value
                );
                fallback
            }
        }
    })
}

/// Runs a kernel on the backend [`backend()`] reports: the one `AURUM_BACKEND` selects, or the
/// fastest this CPU supports (also when `AURUM_BACKEND` is invalid; see the
/// [module docs](self#choosing-the-backend-aurum_backend)).
#[inline]
pub fn dispatch<K: Kernel>(kernel: K) -> K::Output {
    match enter(backend(), kernel) {
        Ok(out) => out,
        // `backend()` only returns supported backends; stay correct regardless.
        Err(kernel) => backends::scalar::run_kernel(kernel),
    }
}

/// Runs a kernel on a chosen backend, or reports that this machine cannot run it (no
/// fallback: the request is explicit).
///
/// # Errors
/// [`BackendError::Unsupported`] if this build or CPU cannot run `backend`.
#[inline]
pub fn dispatch_on<K: Kernel>(backend: Backend, kernel: K) -> Result<K::Output, BackendError> {
    enter(backend, kernel).map_err(|_| BackendError::Unsupported(backend))
}

/// Runs `kernel` on `backend` through that backend's `#[target_feature]` entry point — a real
/// call, so the kernel's body gets a stack frame of its own.
///
/// For bulk kernels that choose among several inlined bodies at run time (a batch size, an NTT
/// pass): optimised, the copies cost nothing, but unoptimised (a dependent's `dev` or `test`
/// build) every inlined copy keeps its own stack slots in the caller's frame, and together
/// they outgrow a 2 MiB thread stack. Running the chosen body through this function keeps one
/// body's frame on the stack at a time; the code inside is the same.
///
/// # Panics
/// If this machine cannot run `backend`. Callers pass the backend a running kernel was entered
/// on (`P::BACKEND` of its packed type) or one checked with [`dispatch_on`] before.
#[inline(always)]
pub fn in_own_frame<K: Kernel>(backend: Backend, kernel: K) -> K::Output {
    match enter(backend, kernel) {
        Ok(out) => out,
        Err(_) => never_entered(backend),
    }
}

/// [`in_own_frame`]'s failure, out of line: the inlined entry keeps no formatting code or
/// stack slots for it (what it exists to save, in unoptimised builds).
#[cold]
#[inline(never)]
fn never_entered(backend: Backend) -> ! {
    panic!("in_own_frame: backend {backend:?} was never entered on this machine")
}

#[inline]
fn enter<K: Kernel>(b: Backend, kernel: K) -> Result<K::Output, K> {
    match b {
        Backend::Scalar => Ok(backends::scalar::run_kernel(kernel)),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => backends::avx2::run_kernel(kernel),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => backends::avx512::run_kernel(kernel),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => backends::neon::run_kernel(kernel),
        // Generic kernels run on NEON where SVE is selected (see `Backend::packed`).
        #[cfg(target_arch = "aarch64")]
        Backend::Sve if Backend::Sve.is_supported() => backends::neon::run_kernel(kernel),
        #[allow(unreachable_patterns)]
        _ => Err(kernel),
    }
}

cfg_if::cfg_if! {
    if #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))] {
        /// The best packed type this build enables statically (here AVX-512, 8 lanes).
        pub type PackedGoldilocks = crate::backend::avx512::PackedAvx512;
    } else if #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))] {
        /// The best packed type this build enables statically (here AVX2, 4 lanes).
        pub type PackedGoldilocks = crate::backend::avx2::PackedAvx2;
    } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
        /// The best packed type this build enables statically (here NEON, 2 lanes).
        pub type PackedGoldilocks = crate::backend::neon::PackedNeon;
    } else {
        /// The best packed type this build enables statically (here none: scalar).
        pub type PackedGoldilocks = crate::Goldilocks;
    }
}
