//! FRI's parameters: Plonky3's `FriParameters` (without the commitment scheme, which
//! [`crate::FriPcs`] holds), its presets, the conjectured soundness, and what Aurum supports.

use aurum_symmetric::challenger::MAX_BITS;
use serde::{Deserialize, Serialize};

use crate::error::ParamsError;
use crate::limits::{MAX_LOG_ARITY, MAX_LOG_BLOWUP, MAX_LOG_DOMAIN};

/// The parameters of one FRI instance, field for field Plonky3's `FriParameters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FriParameters {
    /// Rate `2^-log_blowup`: committed LDEs are `2^log_blowup` times their trace's height.
    pub log_blowup: usize,
    /// Folding stops at `2^log_final_poly_len` coefficients, sent in full.
    pub log_final_poly_len: usize,
    /// Each round folds by at most `2^max_log_arity` (less where an input joins or the final
    /// height is near).
    pub max_log_arity: usize,
    /// Query repetitions.
    pub num_queries: usize,
    /// Proof-of-work bits before the challenge that batches the openings (α).
    pub batch_proof_of_work_bits: usize,
    /// Proof-of-work bits before each folding challenge (β).
    pub commit_proof_of_work_bits: usize,
    /// Proof-of-work bits before the query indices.
    pub query_proof_of_work_bits: usize,
}

impl FriParameters {
    /// Plonky3's `new_testing`: blow-up 4, binary folding, 2 queries, 1 bit of commit and
    /// query proof of work.
    #[must_use]
    pub const fn testing(log_final_poly_len: usize) -> Self {
        Self {
            log_blowup: 2,
            log_final_poly_len,
            max_log_arity: 1,
            num_queries: 2,
            batch_proof_of_work_bits: 0,
            commit_proof_of_work_bits: 1,
            query_proof_of_work_bits: 1,
        }
    }

    /// Plonky3's `new_benchmark`: blow-up 2, binary folding, 100 queries, 16 query PoW bits.
    #[must_use]
    pub const fn benchmark() -> Self {
        Self {
            log_blowup: 1,
            log_final_poly_len: 0,
            max_log_arity: 1,
            num_queries: 100,
            batch_proof_of_work_bits: 0,
            commit_proof_of_work_bits: 0,
            query_proof_of_work_bits: 16,
        }
    }

    /// Plonky3's `new_benchmark_high_arity`: as [`FriParameters::benchmark`], folding by up
    /// to 8, with 10 bits of batch proof of work.
    #[must_use]
    pub const fn benchmark_high_arity() -> Self {
        Self {
            log_blowup: 1,
            log_final_poly_len: 0,
            max_log_arity: 3,
            num_queries: 100,
            batch_proof_of_work_bits: 10,
            commit_proof_of_work_bits: 0,
            query_proof_of_work_bits: 16,
        }
    }

    /// Checks that Aurum can run these parameters and that they prove something.
    pub fn validate(&self) -> Result<(), ParamsError> {
        if !(1..=MAX_LOG_BLOWUP).contains(&self.log_blowup) {
            return Err(ParamsError::Blowup {
                log_blowup: self.log_blowup,
            });
        }
        if !(1..=MAX_LOG_ARITY).contains(&self.max_log_arity) {
            return Err(ParamsError::Arity {
                max_log_arity: self.max_log_arity,
            });
        }
        if self.num_queries == 0 {
            return Err(ParamsError::ZeroQueries);
        }
        if self.log_final_poly_len > MAX_LOG_DOMAIN - self.log_blowup {
            return Err(ParamsError::FinalPolyTooLong {
                log_final_poly_len: self.log_final_poly_len,
            });
        }
        for bits in [
            self.batch_proof_of_work_bits,
            self.commit_proof_of_work_bits,
            self.query_proof_of_work_bits,
        ] {
            if bits > MAX_BITS {
                return Err(ParamsError::PowBits { bits });
            }
        }
        Ok(())
    }

    /// `2^log_blowup`.
    #[must_use]
    pub const fn blowup(&self) -> usize {
        1 << self.log_blowup
    }

    /// Coefficients of the final polynomial: `2^log_final_poly_len` (valid parameters only).
    #[must_use]
    pub const fn final_poly_len(&self) -> usize {
        1 << self.log_final_poly_len
    }

    /// Where folding stops: codewords of `2^(log_blowup + log_final_poly_len)` points.
    #[must_use]
    pub const fn log_final_height(&self) -> usize {
        self.log_blowup + self.log_final_poly_len
    }

    /// Conjectured security in bits under the ethSTARK conjecture, as Plonky3 reports it:
    /// `log_blowup · num_queries + query_proof_of_work_bits` (saturating).
    #[must_use]
    pub const fn conjectured_soundness_bits(&self) -> usize {
        self.log_blowup
            .saturating_mul(self.num_queries)
            .saturating_add(self.query_proof_of_work_bits)
    }
}

/// The cap height a tree of this shape commits with: the configured one, lowered to the
/// tree's depth for small trees (as Plonky3 does).
pub(crate) fn effective_cap_height(cap_height: usize, depth: usize) -> usize {
    cap_height.min(depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_plonky3s_and_valid() {
        let b = FriParameters::benchmark();
        assert_eq!(b.conjectured_soundness_bits(), 116);
        assert_eq!(FriParameters::benchmark_high_arity().max_log_arity, 3);
        for p in [
            FriParameters::testing(0),
            FriParameters::testing(3),
            b,
            FriParameters::benchmark_high_arity(),
        ] {
            assert_eq!(p.validate(), Ok(()));
        }
    }

    #[test]
    fn bad_parameters_are_typed_errors() {
        let ok = FriParameters::benchmark();
        let cases = [
            (
                FriParameters {
                    log_blowup: 0,
                    ..ok
                },
                ParamsError::Blowup { log_blowup: 0 },
            ),
            (
                FriParameters {
                    log_blowup: 5,
                    ..ok
                },
                ParamsError::Blowup { log_blowup: 5 },
            ),
            (
                FriParameters {
                    max_log_arity: 0,
                    ..ok
                },
                ParamsError::Arity { max_log_arity: 0 },
            ),
            (
                FriParameters {
                    max_log_arity: 5,
                    ..ok
                },
                ParamsError::Arity { max_log_arity: 5 },
            ),
            (
                FriParameters {
                    num_queries: 0,
                    ..ok
                },
                ParamsError::ZeroQueries,
            ),
            (
                FriParameters {
                    log_final_poly_len: 32,
                    ..ok
                },
                ParamsError::FinalPolyTooLong {
                    log_final_poly_len: 32,
                },
            ),
            (
                FriParameters {
                    log_final_poly_len: usize::MAX,
                    ..ok
                },
                ParamsError::FinalPolyTooLong {
                    log_final_poly_len: usize::MAX,
                },
            ),
            (
                FriParameters {
                    query_proof_of_work_bits: 64,
                    ..ok
                },
                ParamsError::PowBits { bits: 64 },
            ),
            (
                FriParameters {
                    batch_proof_of_work_bits: 99,
                    ..ok
                },
                ParamsError::PowBits { bits: 99 },
            ),
        ];
        for (params, error) in cases {
            assert_eq!(params.validate(), Err(error), "{params:?}");
        }
        let huge = FriParameters {
            num_queries: usize::MAX,
            ..ok
        };
        assert_eq!(huge.conjectured_soundness_bits(), usize::MAX);
    }
}
