//! `AURUM_BACKEND` naming something this machine cannot run: the infallible library calls
//! (`backend`, `dispatch`, the bulk kernels) fall back to the best supported backend, print
//! exactly one warning on stderr, compute the same results and never panic;
//! `selected_backend` still reports the error, and explicit requests still fail.
//!
//! The variable is read once per process, so each case runs this test binary again as a
//! child process with the variable set; [`CHILD_ENV`] tells `main` to run the child's checks
//! instead of the test harness.

use std::ffi::OsString;

use aurum_goldilocks::{
    BACKEND_ENV, Backend, BackendError, Goldilocks, Kernel, PackedField, backend, dispatch,
    dispatch_on, kernels, parse_supported_backend, selected_backend,
};
use libtest_mimic::{Arguments, Failed, Trial};

/// Set in the child process: which case it runs (see [`Case::name`]).
const CHILD_ENV: &str = "AURUM_GOLDILOCKS_ENV_FALLBACK_CHILD";
/// What the child prints on stdout when all its checks passed.
const CHILD_PASSED: &str = "child checks passed";

/// A real backend that this build cannot run, whatever the CPU.
#[cfg(target_arch = "x86_64")]
const FOREIGN_BACKEND: Backend = Backend::Neon;
#[cfg(not(target_arch = "x86_64"))]
const FOREIGN_BACKEND: Backend = Backend::Avx512;

#[derive(Clone, Copy, Debug)]
enum Case {
    /// `AURUM_BACKEND=bogus`.
    Unknown,
    /// `AURUM_BACKEND` names a backend of another architecture.
    Unsupported,
    /// `AURUM_BACKEND` is not UTF-8.
    #[cfg(unix)]
    NotUnicode,
    /// `AURUM_BACKEND=Scalar`: valid (names are case-insensitive), so no fallback.
    Valid,
    /// `AURUM_BACKEND=` (empty): the same as unset.
    Empty,
}

impl Case {
    const ALL: &[Case] = &[
        Case::Unknown,
        Case::Unsupported,
        #[cfg(unix)]
        Case::NotUnicode,
        Case::Valid,
        Case::Empty,
    ];

    fn name(self) -> &'static str {
        match self {
            Case::Unknown => "unknown",
            Case::Unsupported => "unsupported",
            #[cfg(unix)]
            Case::NotUnicode => "not_unicode",
            Case::Valid => "valid",
            Case::Empty => "empty",
        }
    }

    fn value(self) -> OsString {
        match self {
            Case::Unknown => "bogus".into(),
            Case::Unsupported => FOREIGN_BACKEND.name().into(),
            #[cfg(unix)]
            Case::NotUnicode => {
                use std::os::unix::ffi::OsStringExt;
                OsString::from_vec(b"bo\xffgus".to_vec())
            }
            Case::Valid => "Scalar".into(),
            Case::Empty => "".into(),
        }
    }

    /// The backend the library must use.
    fn effective(self) -> Backend {
        match self {
            Case::Valid => Backend::Scalar,
            _ => Backend::best_supported(),
        }
    }

    /// What `selected_backend` must return.
    fn selected(self) -> Result<Backend, BackendError> {
        match self {
            Case::Unknown => Err(BackendError::Unknown("bogus".into())),
            Case::Unsupported => Err(BackendError::Unsupported(FOREIGN_BACKEND)),
            #[cfg(unix)]
            Case::NotUnicode => Err(BackendError::NotUnicode),
            Case::Valid => Ok(Backend::Scalar),
            Case::Empty => Ok(Backend::best_supported()),
        }
    }

    /// The value as the warning must quote it (`None`: no warning expected).
    fn quoted_in_warning(self) -> Option<String> {
        match self {
            Case::Unknown => Some("\"bogus\"".into()),
            Case::Unsupported => Some(format!("{:?}", FOREIGN_BACKEND.name())),
            #[cfg(unix)]
            Case::NotUnicode => Some("\"bo\u{FFFD}gus\"".into()),
            Case::Valid | Case::Empty => None,
        }
    }
}

/// The packed type a dispatched kernel runs with.
struct WhichBackend;

impl Kernel for WhichBackend {
    type Output = Backend;

    #[inline(always)]
    fn run<P: PackedField>(self) -> Backend {
        P::BACKEND
    }
}

/// The child's checks: library calls under the bad variable, against plain scalar loops.
fn child(case: Case) {
    // The first selection happens on rayon threads, racing: still one warning.
    let n = kernels::PARALLEL_THRESHOLD * 4 + 3;
    let a: Vec<Goldilocks> = (0..n as u64)
        .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1))
        .collect();
    let b: Vec<Goldilocks> = (0..n as u64).map(|i| Goldilocks::from_u64(!i)).collect();
    let mut product = vec![Goldilocks::ZERO; n];
    kernels::mul_slices(&mut product, &a, &b).unwrap();
    assert!(
        product
            .iter()
            .zip(a.iter().zip(&b))
            .all(|(p, (x, y))| *p == *x * *y)
    );
    assert_eq!(
        kernels::dot_product(&a, &b).unwrap(),
        a.iter()
            .zip(&b)
            .fold(Goldilocks::ZERO, |acc, (x, y)| acc + *x * *y)
    );
    assert_eq!(
        kernels::sum(&a),
        a.iter().fold(Goldilocks::ZERO, |acc, x| acc + *x)
    );
    let mut inverses = a.clone();
    kernels::batch_inverse(&mut inverses).unwrap();
    assert!(
        inverses
            .iter()
            .zip(&a)
            .all(|(i, x)| *i * *x == Goldilocks::ONE)
    );

    assert_eq!(backend(), case.effective(), "backend()");
    // Generic kernels run on the packed type of the effective backend (NEON's for SVE).
    assert_eq!(
        dispatch(WhichBackend),
        case.effective().packed(),
        "dispatch"
    );
    assert_eq!(selected_backend(), case.selected(), "selected_backend()");
    // Explicit requests never fall back.
    assert_eq!(
        dispatch_on(FOREIGN_BACKEND, WhichBackend),
        Err(BackendError::Unsupported(FOREIGN_BACKEND))
    );
    assert!(parse_supported_backend("bogus").is_err());
    assert!(parse_supported_backend(FOREIGN_BACKEND.name()).is_err());
    println!("{CHILD_PASSED} on {}", backend());
}

/// Runs the child for `case` and checks its exit status, output and warning.
fn check_case(case: Case) -> Result<(), Failed> {
    // Under qemu user emulation (scripts/test-aarch64.sh) the child runs under the emulator.
    let mut command = aurum_testing::process::this_test_again()?;
    let output = command
        .env(BACKEND_ENV, case.value())
        .env(CHILD_ENV, case.name())
        .output()
        .map_err(|e| format!("cannot start the child process: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!(
        "{case:?}: status {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    if !output.status.success() || !stdout.contains(CHILD_PASSED) {
        return Err(format!("the child did not pass: {context}").into());
    }
    if stderr.contains("panicked") {
        return Err(format!("the child panicked: {context}").into());
    }
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains(BACKEND_ENV)).collect();
    match case.quoted_in_warning() {
        None if warnings.is_empty() => Ok(()),
        None => Err(format!("a valid {BACKEND_ENV} printed a warning: {context}").into()),
        Some(quoted) => {
            if warnings.len() != 1 {
                return Err(format!(
                    "expected exactly one warning, got {}: {context}",
                    warnings.len()
                )
                .into());
            }
            let warning = warnings[0];
            let used = format!("using the {} backend", Backend::best_supported());
            for needle in ["warning", BACKEND_ENV, quoted.as_str(), used.as_str()] {
                if !warning.contains(needle) {
                    return Err(format!("the warning does not say {needle:?}: {context}").into());
                }
            }
            Ok(())
        }
    }
}

fn main() {
    if let Some(name) = std::env::var_os(CHILD_ENV) {
        let case = Case::ALL
            .iter()
            .copied()
            .find(|c| name == c.name())
            .expect("a known case name");
        child(case);
        return;
    }
    let args = Arguments::from_args();
    let trials = Case::ALL
        .iter()
        .map(|&case| {
            let name = match case.quoted_in_warning() {
                Some(_) => format!("{}_backend_env_falls_back_with_one_warning", case.name()),
                None => format!("{}_backend_env_is_used_silently", case.name()),
            };
            Trial::test(name, move || check_case(case))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
