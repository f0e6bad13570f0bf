//! The batch size of a permutation's bulk calls, chosen by measurement on the machine that
//! runs them.
//!
//! How many packed states a bulk call interleaves (`B` = 1, 2 or 4, see
//! [`run_batched`](crate::run_batched)) trades instruction-level parallelism against register
//! pressure, and the best trade depends on the core: at width 8 on AVX-512, `B = 4` keeps 32
//! vector registers of state live, which one core spills and another does not. So no size is
//! built in. The first time a permutation type asks for its batch size on a backend
//! ([`BatchChoice::batch`]), it times every size on [`states_measured`] states (one untimed run
//! of each, then [`ROUNDS`] rounds in a rotating order, keeping each size's fastest round) and
//! uses the fastest: about 1–3 ms per permutation and backend. Every size computes the same
//! output; only the speed differs.
//!
//! A shared machine has slow stretches of a few milliseconds in which every size runs 15–30 %
//! slower and their differences vanish; a measurement that falls into one ranks the sizes by
//! noise. So the first bulk call at least [`REMEASURE_AFTER`] after the first measurement
//! measures once more, and the measurement whose fastest size ran faster (the less disturbed
//! one) decides for the rest of the process. A process that ends sooner keeps the first.
//!
//! The choice is made per process, not cached in a file: a measurement of a few milliseconds
//! needs no cache, and a file would need a key (CPU model, microcode, frequency policy, Aurum
//! version), invalidation, and trust in a file another process can write, while a fresh
//! measurement follows the machine as it is.
//!
//! # Forcing a size: `AURUM_BATCH`
//!
//! Unset, empty or `auto`: measure. `1`, `2` or `4`: that size for every permutation on every
//! backend, nothing measured (for benchmarks, and to rule the choice out when chasing a
//! difference). Any other value is a misconfiguration: library calls fall back to measuring
//! and print one warning on stderr; applications that refuse it call [`requested_batch`]
//! (the `aurum` CLI exits with status 2). A permutation built with an explicit size (such as
//! `Poseidon2::with_batch_size`) uses that size whatever the variable says.

use core::any::TypeId;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use aurum_goldilocks::{Backend, Goldilocks, P};

use crate::batch::{BATCH_SIZES, run_batched};
use crate::error::BatchEnvError;
use crate::permutation::Permutation;
use crate::permute_many::PermuteBatches;

/// The environment variable that forces a batch size.
pub const BATCH_ENV: &str = "AURUM_BATCH";

/// Timed rounds per batch size (after one untimed run of each), at least.
pub const ROUNDS: usize = 5;
/// Timed rounds at most, while the rounds disagree (a busy machine).
const MAX_ROUNDS: usize = 40;
/// Time after which no further round starts, while the rounds disagree.
const BUDGET: Duration = Duration::from_millis(4);
/// Two rounds of one size agree when they are this close (relative).
const AGREE: f64 = 0.02;
/// How long after the first measurement the second is taken (at the next bulk call).
pub const REMEASURE_AFTER: Duration = Duration::from_millis(200);

/// What [`BATCH_ENV`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchRequest {
    /// Measure each permutation's sizes on first use (the default).
    Measure,
    /// Use this size (1, 2 or 4) everywhere.
    Fixed(usize),
}

/// Parses a value of [`BATCH_ENV`].
///
/// # Errors
/// [`BatchEnvError`] for anything but an empty value, `auto`, `1`, `2` or `4`.
pub fn parse_batch_request(value: &str) -> Result<BatchRequest, BatchEnvError> {
    let value = value.trim();
    if value.is_empty() || value.eq_ignore_ascii_case("auto") {
        return Ok(BatchRequest::Measure);
    }
    match value.parse::<usize>() {
        Ok(b) if BATCH_SIZES.contains(&b) => Ok(BatchRequest::Fixed(b)),
        _ => Err(BatchEnvError {
            value: value.to_string(),
        }),
    }
}

fn request_from_env() -> Result<BatchRequest, BatchEnvError> {
    match std::env::var_os(BATCH_ENV) {
        None => Ok(BatchRequest::Measure),
        Some(raw) => match raw.to_str() {
            Some(value) => parse_batch_request(value),
            None => Err(BatchEnvError {
                value: raw.to_string_lossy().into_owned(),
            }),
        },
    }
}

/// What [`BATCH_ENV`] asks for, read once per process.
///
/// # Errors
/// The [`BatchEnvError`] if the variable holds anything but an empty value, `auto`, `1`, `2`
/// or `4` (bulk calls then measure, after one warning; see the module docs).
pub fn requested_batch() -> Result<BatchRequest, BatchEnvError> {
    static REQUEST: OnceLock<Result<BatchRequest, BatchEnvError>> = OnceLock::new();
    REQUEST.get_or_init(request_from_env).clone()
}

/// The request bulk calls follow, decided once per process.
static EFFECTIVE: OnceLock<BatchRequest> = OnceLock::new();

/// Decides the request for this process before any bulk call has read [`BATCH_ENV`]: what an
/// application does that must not depend on timing (an instruction-count workload), instead
/// of setting the variable. Returns `false`, changing nothing, if the request was decided
/// already.
pub fn set_batch_request(request: BatchRequest) -> bool {
    EFFECTIVE.set(request).is_ok()
}

/// The request bulk calls follow: [`set_batch_request`]'s, else [`requested_batch`], or
/// [`BatchRequest::Measure`] after one warning if the variable is invalid.
fn effective_request() -> BatchRequest {
    *EFFECTIVE.get_or_init(|| {
        requested_batch().unwrap_or_else(|e| {
            eprintln!("warning: {e}; measuring the batch sizes instead");
            BatchRequest::Measure
        })
    })
}

/// How a permutation's batch size on one backend was decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchMeasurement {
    /// The size bulk calls use.
    pub batch: usize,
    /// `true` if [`BATCH_ENV`] forced it (then nothing was timed).
    pub forced: bool,
    /// Nanoseconds per state at each of [`BATCH_SIZES`] (the fastest round); zero if forced.
    pub ns_per_state: [f64; BATCH_SIZES.len()],
    /// What the measurement cost (zero if forced).
    pub took: Duration,
}

impl BatchMeasurement {
    /// The fastest size's nanoseconds per state.
    fn best_ns(&self) -> f64 {
        self.ns_per_state
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    }
}

/// Of two measurements of the same sizes, the one whose fastest size ran faster: the one a
/// slow stretch of the machine disturbed less (`first` on a tie).
#[must_use]
pub fn less_disturbed(first: BatchMeasurement, second: BatchMeasurement) -> BatchMeasurement {
    if second.best_ns() < first.best_ns() {
        second
    } else {
        first
    }
}

/// One permutation type's decision on one backend: the first measurement (and when it was
/// taken), and the one that decides once the second has been taken.
#[derive(Debug, Default)]
struct Decision {
    first: OnceLock<(BatchMeasurement, Instant)>,
    kept: OnceLock<BatchMeasurement>,
}

/// The batch sizes of one permutation type, one per backend, each decided on first use in the
/// process and checked once later (see the module docs). Get a type's with
/// [`BatchChoice::of`].
#[derive(Debug, Default)]
pub struct BatchChoice {
    /// Indexed like [`Backend::ALL`].
    per_backend: [Decision; Backend::ALL.len()],
}

impl BatchChoice {
    /// The choice of the permutation type `T` (shared by every value of that type in the
    /// process: their speed does not depend on their constants).
    #[must_use]
    pub fn of<T: 'static>() -> &'static BatchChoice {
        static CHOICES: Mutex<Vec<(TypeId, &'static BatchChoice)>> = Mutex::new(Vec::new());
        let id = TypeId::of::<T>();
        // Entries are pushed whole, so a poisoned lock holds nothing half-written.
        let mut choices = CHOICES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, choice)) = choices.iter().find(|(t, _)| *t == id) {
            return choice;
        }
        // One per permutation type for the life of the process: leaked on purpose.
        let choice: &'static BatchChoice = Box::leak(Box::default());
        choices.push((id, choice));
        choice
    }

    /// The batch size `perm`'s bulk calls use on `backend`: measured on first use (or forced
    /// by [`BATCH_ENV`]).
    ///
    /// `backend` must be one this machine runs (as for [`run_batched`]).
    pub fn batch<Perm: Permutation<W>, const W: usize>(
        &self,
        perm: &Perm,
        backend: Backend,
    ) -> usize {
        self.measurement(perm, backend).batch
    }

    /// How [`BatchChoice::batch`] decides now: the first measurement (taken now if there is
    /// none yet), or, from the first call at least [`REMEASURE_AFTER`] later on, the less
    /// disturbed of it and a second one taken then ([`less_disturbed`]).
    pub fn measurement<Perm: Permutation<W>, const W: usize>(
        &self,
        perm: &Perm,
        backend: Backend,
    ) -> &BatchMeasurement {
        let decision = &self.per_backend[index(backend)];
        if let Some(kept) = decision.kept.get() {
            return kept;
        }
        let (first, at) = decision.first.get_or_init(|| {
            let m = match effective_request() {
                BatchRequest::Fixed(batch) => BatchMeasurement {
                    batch,
                    forced: true,
                    ns_per_state: [0.0; BATCH_SIZES.len()],
                    took: Duration::ZERO,
                },
                BatchRequest::Measure => measure_batch_sizes(perm, backend),
            };
            (m, Instant::now())
        });
        if first.forced {
            return decision.kept.get_or_init(|| *first);
        }
        if at.elapsed() < REMEASURE_AFTER {
            return first;
        }
        decision
            .kept
            .get_or_init(|| less_disturbed(*first, measure_batch_sizes(perm, backend)))
    }

    /// The decision on `backend` as it stands, if one has been made in this process.
    #[must_use]
    pub fn decided(&self, backend: Backend) -> Option<&BatchMeasurement> {
        let decision = &self.per_backend[index(backend)];
        decision
            .kept
            .get()
            .or_else(|| decision.first.get().map(|(m, _)| m))
    }
}

fn index(backend: Backend) -> usize {
    Backend::ALL.iter().position(|b| *b == backend).unwrap_or(0)
}

/// States timed per run on `backend`: 16 packed states (four groups at the largest batch
/// size; 128 states on AVX-512): tens of microseconds per run, enough to reach the steady
/// state, few enough to keep the whole measurement near a millisecond and in L1.
#[must_use]
pub const fn states_measured(backend: Backend) -> usize {
    16 * backend.lanes()
}

/// Times `perm` at every batch size on `backend` and picks the fastest (the measurement
/// [`BatchChoice`] makes once; also usable on its own, e.g. by a benchmark).
///
/// `backend` must be one this machine runs (as for [`run_batched`]).
pub fn measure_batch_sizes<Perm: Permutation<W>, const W: usize>(
    perm: &Perm,
    backend: Backend,
) -> BatchMeasurement {
    let start = Instant::now();
    let n = states_measured(backend);
    let mut states: Vec<[Goldilocks; W]> = (0..n)
        .map(|i| {
            core::array::from_fn(|j| {
                Goldilocks::from_u64(
                    0x9E37_79B9_7F4A_7C15u64.wrapping_mul((i * W + j) as u64 + 1) % P,
                )
            })
        })
        .collect();
    let mut run = |batch: usize| {
        let t = Instant::now();
        run_batched(
            backend,
            batch,
            PermuteBatches {
                perm,
                states: &mut states,
            },
        );
        t.elapsed()
    };
    for &batch in &BATCH_SIZES {
        run(batch);
    }
    // Each size's fastest round, and how many rounds came within `AGREE` of it.
    let mut best = [Duration::MAX; BATCH_SIZES.len()];
    let mut times: Vec<[Duration; BATCH_SIZES.len()]> = Vec::with_capacity(MAX_ROUNDS);
    let agreed = |times: &[[Duration; BATCH_SIZES.len()]], best: &[Duration], i: usize| {
        times
            .iter()
            .filter(|t| t[i].as_secs_f64() <= best[i].as_secs_f64() * (1.0 + AGREE))
            .count()
    };
    for round in 0..MAX_ROUNDS {
        let mut t = [Duration::ZERO; BATCH_SIZES.len()];
        // A rotating order, so that no size always runs first (or right after another).
        for k in 0..BATCH_SIZES.len() {
            let i = (k + round) % BATCH_SIZES.len();
            t[i] = run(BATCH_SIZES[i]);
            best[i] = best[i].min(t[i]);
        }
        times.push(t);
        // Enough once every size's fastest round has been matched by another: a round that
        // an interruption slowed cannot be the one that decides. On a busy machine, more
        // rounds, within the time budget.
        let settled = (0..BATCH_SIZES.len()).all(|i| agreed(&times, &best, i) >= 2);
        if (times.len() >= ROUNDS && settled) || start.elapsed() >= BUDGET {
            break;
        }
    }
    let fastest = (0..BATCH_SIZES.len()).min_by_key(|&i| best[i]).unwrap_or(0);
    BatchMeasurement {
        batch: BATCH_SIZES[fastest],
        forced: false,
        ns_per_state: best.map(|d| d.as_secs_f64() * 1e9 / n as f64),
        took: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(batch: usize, ns_per_state: [f64; BATCH_SIZES.len()]) -> BatchMeasurement {
        BatchMeasurement {
            batch,
            forced: false,
            ns_per_state,
            took: Duration::from_millis(1),
        }
    }

    /// The measurement whose fastest size ran faster decides; a disturbed one (every size
    /// slower, their order changed) loses whichever came first, and a tie keeps the first.
    #[test]
    fn the_less_disturbed_measurement_decides() {
        let clean = measured(4, [518.0, 510.0, 505.0]);
        let disturbed = measured(1, [591.0, 602.0, 627.0]);
        assert_eq!(less_disturbed(disturbed, clean), clean);
        assert_eq!(less_disturbed(clean, disturbed), clean);
        let same_speed = measured(2, [520.0, 505.0, 507.0]);
        assert_eq!(less_disturbed(clean, same_speed), clean);
        assert_eq!(less_disturbed(same_speed, clean), same_speed);
    }
}
