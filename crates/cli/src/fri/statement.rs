//! What a FRI proof is about — shape, parameters, number of points, cap height — from the
//! verifier's (or the prover's) flags, checked before any work.

use aurum_fri::{FriParameters, ParamsError};
use aurum_merkle::{Dimensions, Preset, TreeShape};

use crate::args::{FriPreset, FriStatementArgs};
use crate::error::Error;
use crate::flags::to_usize;

/// What a FRI proof is about, from the verifier's (or the prover's) flags: made by
/// [`FriStatementArgs::statement`], which checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub(crate) preset: Preset,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) params: FriParameters,
    pub(crate) points: usize,
    pub(crate) cap_height: usize,
}

impl FriStatementArgs {
    /// The statement, checked: valid parameters, a power-of-two height whose LDE fits the
    /// largest domain, a cap height no greater than the LDE tree's depth. `rows` replaces
    /// `--rows` (a file's row count).
    pub fn statement(&self, rows: Option<usize>) -> Result<Statement, Error> {
        let mut params = match self.params {
            FriPreset::Benchmark => FriParameters::benchmark(),
            FriPreset::HighArity => FriParameters::benchmark_high_arity(),
            FriPreset::Testing => FriParameters::testing(0),
        };
        let overrides = [
            ("--log-blowup", self.log_blowup, &mut params.log_blowup),
            (
                "--log-final-poly-len",
                self.log_final_poly_len,
                &mut params.log_final_poly_len,
            ),
            (
                "--max-log-arity",
                self.max_log_arity,
                &mut params.max_log_arity,
            ),
            ("--num-queries", self.num_queries, &mut params.num_queries),
            (
                "--batch-pow-bits",
                self.batch_pow_bits,
                &mut params.batch_proof_of_work_bits,
            ),
            (
                "--commit-pow-bits",
                self.commit_pow_bits,
                &mut params.commit_proof_of_work_bits,
            ),
            (
                "--query-pow-bits",
                self.query_pow_bits,
                &mut params.query_proof_of_work_bits,
            ),
        ];
        for (flag, value, field) in overrides {
            if let Some(value) = value {
                *field = to_usize(flag, value)?;
            }
        }
        params
            .validate()
            .map_err(|e: ParamsError| Error::Statement(format!("parameters: {e}")))?;
        let rows = match rows {
            Some(rows) => rows,
            None => to_usize("--rows", self.rows)?,
        };
        if !rows.is_power_of_two() {
            return Err(Error::Statement(format!(
                "the matrix has {rows} rows: FRI needs a power of two"
            )));
        }
        let log_lde = rows.trailing_zeros() as usize + params.log_blowup;
        if log_lde > aurum_fri::MAX_LOG_DOMAIN {
            return Err(Error::Statement(format!(
                "{rows} rows with blow-up 2^{} exceed the largest domain, 2^{}",
                params.log_blowup,
                aurum_fri::MAX_LOG_DOMAIN
            )));
        }
        // With a final polynomial longer than a constant, the codeword must fold at least once.
        if params.log_final_poly_len > 0 && log_lde <= params.log_final_height() {
            return Err(Error::Statement(format!(
                "{rows} rows are too few for a final polynomial of 2^{} coefficients",
                params.log_final_poly_len
            )));
        }
        let statement = Statement {
            preset: self.preset,
            rows,
            cols: to_usize("--cols", self.cols)?,
            params,
            points: to_usize("--points", self.points)?,
            cap_height: to_usize("--cap-height", self.cap_height)?,
        };
        // `aurum commit`'s rule: the cap is a layer of the committed tree (here the LDE's).
        let lde = Dimensions {
            width: statement.cols,
            height: rows << statement.params.log_blowup,
        };
        crate::merkle::statement::checked_shape(&[lde], statement.cap_height).map_err(|e| {
            e.map_message(|m| {
                format!(
                    "{m} (the LDE of {rows} rows with blow-up 2^{})",
                    statement.params.log_blowup
                )
            })
        })?;
        Ok(statement)
    }
}

impl Statement {
    pub(crate) fn log_rows(&self) -> usize {
        self.rows.trailing_zeros() as usize
    }

    /// The committed tree: one LDE of `rows · blowup` rows.
    pub(crate) fn lde_shape(&self) -> TreeShape {
        TreeShape::new(&[Dimensions {
            width: self.cols,
            height: self.rows << self.params.log_blowup,
        }])
        .expect("checked when the statement was made")
    }
}
