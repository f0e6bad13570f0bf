//! Backend trials: one `libtest-mimic` trial per check and backend of this target
//! architecture, reported as ignored (with the reason) where this CPU cannot run the backend,
//! never as passed.

use aurum_goldilocks::Backend;
use libtest_mimic::{Completion, Trial};

/// The `expect` message of a dispatch inside a trial that checked support first.
pub const SUPPORTED: &str = "the trial runs only on a backend this CPU supports";

/// The backends of this target architecture: every one of them gets the suite, run or
/// reported as ignored.
#[must_use]
pub fn of_this_arch() -> Vec<Backend> {
    let mut backends = vec![Backend::Scalar];
    #[cfg(target_arch = "x86_64")]
    backends.extend([Backend::Avx2, Backend::Avx512]);
    #[cfg(target_arch = "aarch64")]
    backends.push(Backend::Neon);
    backends
}

/// A named check of one backend.
pub type BackendTest = (&'static str, fn(Backend));

/// A check of one backend, named `<backend>::<name>`; ignored (with the reason) if this CPU
/// cannot run the backend.
#[must_use]
pub fn on_backend(backend: Backend, name: &str, test: fn(Backend)) -> Trial {
    Trial::ignorable_test(format!("{backend}::{name}"), move || {
        if !backend.is_supported() {
            return Ok(Completion::ignored_with(format!(
                "this CPU cannot run the {backend} backend"
            )));
        }
        test(backend);
        Ok(Completion::Completed)
    })
}

/// Every check of `tests` on `backend` (see [`on_backend`]).
#[must_use]
pub fn suite(backend: Backend, tests: &[BackendTest]) -> Vec<Trial> {
    tests
        .iter()
        .map(|&(name, test)| on_backend(backend, name, test))
        .collect()
}
