//! What the prover reports about its work: the wall time of each phase ([`Timings`]) and the
//! matrix shapes its spans show, as Plonky3's do.

use core::fmt;
use std::time::{Duration, Instant};

use aurum_merkle::Dimensions;

/// Wall time of each phase of [`FriPcs::commit_timed`](crate::FriPcs::commit_timed) and [`FriPcs::open_timed`](crate::FriPcs::open_timed) (added to,
/// so one value can collect several calls).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    /// Low-degree extensions.
    pub lde: Duration,
    /// Merkle trees of the LDEs.
    pub merkle: Duration,
    /// Evaluations at the opening points.
    pub evaluation: Duration,
    /// The reduced-opening codewords.
    pub quotients: Duration,
    /// Folding and committing the codewords (proof of work excluded).
    pub commit_phase: Duration,
    /// Every proof-of-work search.
    pub grinding: Duration,
    /// The final polynomial, the query indices and every opening.
    pub queries: Duration,
}

impl Timings {
    /// The sum of the phases.
    #[must_use]
    pub fn total(&self) -> Duration {
        self.lde
            + self.merkle
            + self.evaluation
            + self.quotients
            + self.commit_phase
            + self.grinding
            + self.queries
    }
}

/// Matrix shapes as Plonky3's spans show them: `[width x height, …]` (`[8x64, 2x32]`).
pub(crate) struct Shapes<'a>(pub(crate) &'a [Dimensions]);

impl fmt::Display for Shapes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{}x{}", d.width, d.height)?;
        }
        f.write_str("]")
    }
}

/// Runs `f` and adds its wall time to `slot`.
pub(crate) fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    *slot += start.elapsed();
    out
}
