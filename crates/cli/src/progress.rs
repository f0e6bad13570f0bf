//! A progress bar on stderr, for long runs on a terminal only.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Whether stderr is a terminal.
pub(crate) fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Draws `[=====>    ] 42%` at most ten times a second.
pub(crate) struct Bar {
    enabled: bool,
    total: Option<u64>,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Bar {
    pub(crate) fn new(enabled: bool, total: Option<u64>) -> Self {
        Self {
            enabled: enabled && total.is_some_and(|t| t > 0),
            total,
            started: Instant::now(),
            last_draw: None,
        }
    }

    pub(crate) fn update(&mut self, done: u64) {
        if !self.enabled || self.started.elapsed() < Duration::from_millis(500) {
            return;
        }
        if self
            .last_draw
            .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last_draw = Some(Instant::now());
        let total = self.total.unwrap_or(1).max(1);
        let fraction = done as f64 / total as f64;
        draw_bar(
            fraction,
            &format!(
                "{:3.0}% {:.1}/{:.1} MiB",
                fraction.min(1.0) * 100.0,
                done as f64 / 1048576.0,
                total as f64 / 1048576.0
            ),
        );
    }

    pub(crate) fn finish(&mut self) {
        if self.enabled && self.last_draw.is_some() {
            clear_line();
        }
    }
}

/// The width of a drawn line, cleared with spaces when done.
const LINE_CHARS: usize = 78;

/// Draws `[=====>    ] text` over the current line.
fn draw_bar(fraction: f64, text: &str) {
    let filled = (fraction.clamp(0.0, 1.0) * 30.0) as usize;
    let bar = format!("{}{}", "=".repeat(filled), " ".repeat(30 - filled));
    let line: String = format!("[{bar}] {text}").chars().take(LINE_CHARS).collect();
    let mut err = std::io::stderr();
    let _ = write!(err, "\r{:<LINE_CHARS$}\r{line}", "");
    let _ = err.flush();
}

fn clear_line() {
    let mut err = std::io::stderr();
    let _ = write!(err, "\r{:<LINE_CHARS$}\r", "");
    let _ = err.flush();
}

/// A bar over a known number of steps, naming the step running: `[===>   ] 12/58 what`.
pub(crate) struct Steps {
    enabled: bool,
    total: usize,
    done: usize,
}

impl Steps {
    pub(crate) fn new(enabled: bool, total: usize) -> Self {
        Self {
            enabled: enabled && total > 0,
            total,
            done: 0,
        }
    }

    /// Shows that the next step, `what`, is running.
    pub(crate) fn next(&mut self, what: &str) {
        self.done += 1;
        if self.enabled {
            let fraction = (self.done - 1) as f64 / self.total as f64;
            draw_bar(fraction, &format!("{}/{} {what}", self.done, self.total));
        }
    }

    pub(crate) fn finish(&mut self) {
        if self.enabled {
            clear_line();
        }
    }
}

/// One line naming the phase running, on stderr, for terminals only; cleared when done.
pub(crate) struct Status {
    enabled: bool,
    shown: bool,
}

impl Status {
    pub(crate) fn new(enabled: bool) -> Self {
        Self {
            enabled,
            shown: false,
        }
    }

    pub(crate) fn show(&mut self, phase: &str) {
        if !self.enabled {
            return;
        }
        let mut err = std::io::stderr();
        let _ = write!(err, "\r{:<60}\r{phase}…", "");
        let _ = err.flush();
        self.shown = true;
    }

    pub(crate) fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r{:<60}\r", "");
            let _ = err.flush();
            self.shown = false;
        }
    }
}
