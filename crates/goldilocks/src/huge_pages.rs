//! Whether large buffers ask for transparent huge pages: `AURUM_HUGE_PAGES`, read once per
//! process. Why and how: the crate README's "Large buffers and huge pages"; the advice itself
//! and the `auto` walk are in `backend/layout.rs`.

use core::fmt;
use core::str::FromStr;
use std::sync::OnceLock;

use crate::error::HugePagesError;

/// The environment variable that chooses the huge-page policy.
pub const HUGE_PAGES_ENV: &str = "AURUM_HUGE_PAGES";

/// Whether large zeroed buffers ask for transparent huge pages (`AURUM_HUGE_PAGES`; see the
/// [crate docs](crate#large-buffers-and-huge-pages)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HugePages {
    /// Advise huge pages and fault the buffer in at once, in parallel; a thread whose huge
    /// page was slow to fault (none at hand) withdraws the advice for the rest of its range,
    /// which then takes small pages.
    #[default]
    Auto,
    /// Advise huge pages; they are faulted in where the buffer is first written.
    On,
    /// Never advise huge pages (the system's own setting applies).
    Off,
}

impl HugePages {
    /// Every policy, in the order `auto`, `on`, `off`.
    pub const ALL: [HugePages; 3] = [HugePages::Auto, HugePages::On, HugePages::Off];

    /// The name accepted by `AURUM_HUGE_PAGES`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HugePages::Auto => "auto",
            HugePages::On => "on",
            HugePages::Off => "off",
        }
    }
}

impl fmt::Display for HugePages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HugePages {
    type Err = HugePagesError;

    /// `auto`, `on` or `off`, case-insensitive, surrounding blanks ignored.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let trimmed = name.trim();
        HugePages::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| HugePagesError::Unknown(name.to_owned()))
    }
}

/// What `AURUM_HUGE_PAGES` asked for, and its value as written (lossily decoded).
struct EnvSelection {
    result: Result<HugePages, HugePagesError>,
    value: String,
}

fn env_selection() -> &'static EnvSelection {
    static SELECTION: OnceLock<EnvSelection> = OnceLock::new();
    SELECTION.get_or_init(|| match std::env::var_os(HUGE_PAGES_ENV) {
        None => EnvSelection {
            result: Ok(HugePages::Auto),
            value: String::new(),
        },
        Some(raw) => EnvSelection {
            result: match raw.to_str() {
                None => Err(HugePagesError::NotUnicode),
                Some(name) if name.trim().is_empty() => Ok(HugePages::Auto),
                Some(name) => name.parse(),
            },
            value: raw.to_string_lossy().into_owned(),
        },
    })
}

/// The policy `AURUM_HUGE_PAGES` selects ([`HugePages::Auto`] when unset or empty). Decided
/// once per process.
///
/// # Errors
/// [`HugePagesError`] if the variable is set to something else than `auto`, `on` or `off`, or
/// is not UTF-8: for applications that refuse a misconfigured environment up front.
pub fn selected_huge_pages() -> Result<HugePages, HugePagesError> {
    env_selection().result.clone()
}

/// The policy the allocations use: [`selected_huge_pages`] if it is valid, else
/// [`HugePages::Auto`]. Never panics; an invalid value prints one warning on stderr, at the
/// first call.
#[must_use]
pub fn huge_pages() -> HugePages {
    static EFFECTIVE: OnceLock<HugePages> = OnceLock::new();
    *EFFECTIVE.get_or_init(|| {
        let selection = env_selection();
        selection.result.clone().unwrap_or_else(|e| {
            eprintln!(
                "warning: {HUGE_PAGES_ENV}={:?} ignored, using {} instead: {e}",
                selection.value,
                HugePages::Auto
            );
            HugePages::Auto
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_case_insensitively_and_nothing_else_does() {
        for policy in HugePages::ALL {
            assert_eq!(policy.name().parse(), Ok(policy));
            assert_eq!(policy.name().to_uppercase().parse(), Ok(policy));
            assert_eq!(format!(" {policy}\n").parse(), Ok(policy));
        }
        for bad in ["", "yes", "1", "never", "madvise", "o n"] {
            assert_eq!(
                bad.parse::<HugePages>(),
                Err(HugePagesError::Unknown(bad.to_owned()))
            );
        }
        assert_eq!(HugePages::default(), HugePages::Auto);
    }
}
