//! `AURUM_HUGE_PAGES`: valid values (any case, blanks around, empty) are used silently; an
//! invalid one makes the library use `auto` with exactly one warning on stderr, while
//! `selected_huge_pages` reports the error. Under every value the zeroed and grown buffers
//! hold the same values.
//!
//! The variable is read once per process, so each case runs this test binary again as a
//! child process with the variable set; [`CHILD_ENV`] tells `main` to run the child's checks.

use std::ffi::OsString;

use aurum_goldilocks::Goldilocks;
use aurum_goldilocks::raw::{
    HUGE_PAGES_ENV, HugePages, HugePagesError, huge_pages, selected_huge_pages,
    try_reserve_exact_huge, zeroed_vec,
};
use libtest_mimic::{Arguments, Failed, Trial};

/// Set in the child process: the index of the case it runs in [`CASES`].
const CHILD_ENV: &str = "AURUM_GOLDILOCKS_HUGE_PAGES_CHILD";
/// What the child prints on stdout when all its checks passed.
const CHILD_PASSED: &str = "child checks passed";

/// A case: the variable's value, what `selected_huge_pages` must return, and the value as
/// the warning must quote it (`None`: no warning).
struct Case {
    value: fn() -> OsString,
    selected: fn() -> Result<HugePages, HugePagesError>,
    quoted: Option<&'static str>,
}

const CASES: &[(&str, Case)] = &[
    (
        "auto",
        Case {
            value: || "auto".into(),
            selected: || Ok(HugePages::Auto),
            quoted: None,
        },
    ),
    (
        "on",
        Case {
            value: || "On".into(),
            selected: || Ok(HugePages::On),
            quoted: None,
        },
    ),
    (
        "off",
        Case {
            value: || " OFF ".into(),
            selected: || Ok(HugePages::Off),
            quoted: None,
        },
    ),
    (
        "empty",
        Case {
            value: || "".into(),
            selected: || Ok(HugePages::Auto),
            quoted: None,
        },
    ),
    (
        "unknown",
        Case {
            value: || "madvise".into(),
            selected: || Err(HugePagesError::Unknown("madvise".into())),
            quoted: Some("\"madvise\""),
        },
    ),
    #[cfg(unix)]
    (
        "not_unicode",
        Case {
            value: || {
                use std::os::unix::ffi::OsStringExt;
                OsString::from_vec(b"o\xffn".to_vec())
            },
            selected: || Err(HugePagesError::NotUnicode),
            quoted: Some("\"o\u{FFFD}n\""),
        },
    ),
];

/// The child's checks: the policy, then large allocations under it (from rayon threads
/// first, racing for the first read of the variable: still one warning).
fn child(case: &Case) {
    let expected = (case.selected)().unwrap_or(HugePages::Auto);
    let policies: Vec<HugePages> = rayon::broadcast(|_| huge_pages());
    assert!(policies.iter().all(|p| *p == expected), "{policies:?}");
    assert_eq!(selected_huge_pages(), (case.selected)());
    for len in [(4 << 20) / 8, (16 << 20) / 8 + 5] {
        let mut zeroed = zeroed_vec::<Goldilocks>(len);
        assert!(zeroed.iter().all(|x| x.as_canonical_u64() == 0));
        zeroed[len / 2] = Goldilocks::ONE;
        let values: Vec<Goldilocks> = (0..len as u64 / 3).map(Goldilocks::from_u64).collect();
        let mut grown = values.clone();
        try_reserve_exact_huge(&mut grown, len).unwrap();
        assert_eq!(grown, values);
        grown.resize(values.len() + len, Goldilocks::ONE);
        assert!(grown[values.len()..].iter().all(|x| *x == Goldilocks::ONE));
    }
    println!("{CHILD_PASSED} with {}", huge_pages());
}

/// Runs the child for a case and checks its exit status, output and warning.
fn check_case(name: &str, case: &Case) -> Result<(), Failed> {
    let output = aurum_testing::process::this_test_again()?
        .env(HUGE_PAGES_ENV, (case.value)())
        .env(CHILD_ENV, name)
        .output()
        .map_err(|e| format!("cannot start the child process: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!(
        "{name}: status {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    if !output.status.success() || !stdout.contains(CHILD_PASSED) || stderr.contains("panicked") {
        return Err(format!("the child did not pass: {context}").into());
    }
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(HUGE_PAGES_ENV))
        .collect();
    match case.quoted {
        None if warnings.is_empty() => Ok(()),
        None => Err(format!("a valid {HUGE_PAGES_ENV} printed a warning: {context}").into()),
        Some(_) if warnings.len() != 1 => Err(format!(
            "expected exactly one warning, got {}: {context}",
            warnings.len()
        )
        .into()),
        Some(quoted) => {
            for needle in ["warning", HUGE_PAGES_ENV, quoted, "using auto"] {
                if !warnings[0].contains(needle) {
                    return Err(format!("the warning does not say {needle:?}: {context}").into());
                }
            }
            Ok(())
        }
    }
}

fn main() {
    if let Some(name) = std::env::var_os(CHILD_ENV) {
        let (_, case) = CASES
            .iter()
            .find(|(n, _)| name == *n)
            .expect("a known case");
        child(case);
        return;
    }
    let args = Arguments::from_args();
    let trials = CASES
        .iter()
        .map(|(name, case)| {
            let test = match case.quoted {
                Some(_) => format!("{name}_huge_pages_env_falls_back_with_one_warning"),
                None => format!("{name}_huge_pages_env_is_used_silently"),
            };
            Trial::test(test, move || check_case(name, case))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
