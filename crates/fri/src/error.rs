//! Every error type of the crate (re-exported at the crate root): parameters that cannot run
//! ([`ParamsError`]), bytes that are not an encoded proof ([`DecodeError`]), matrices that
//! cannot be committed to ([`CommitError`]), openings that cannot be served ([`OpenError`]),
//! and proofs the verifier rejects ([`VerifyError`], naming a proof of work by its
//! [`PowPhase`]).

use core::fmt;

use aurum_merkle::{BuildError, MatrixError};
use aurum_symmetric::challenger::{GrindError, MAX_BITS};

use crate::limits::{MAX_LOG_ARITY, MAX_LOG_BLOWUP, MAX_LOG_DOMAIN};

/// Parameters Aurum cannot run, or that prove nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// `log_blowup` outside `1..=`[`MAX_LOG_BLOWUP`] (0 is rate 1: every word is a codeword).
    Blowup {
        /// The value given.
        log_blowup: usize,
    },
    /// `max_log_arity` outside `1..=`[`MAX_LOG_ARITY`] (0 never folds).
    Arity {
        /// The value given.
        max_log_arity: usize,
    },
    /// No queries: nothing would be checked.
    ZeroQueries,
    /// `log_blowup + log_final_poly_len` above [`MAX_LOG_DOMAIN`]: no codeword is that long.
    FinalPolyTooLong {
        /// The value given.
        log_final_poly_len: usize,
    },
    /// A proof-of-work difficulty above 63 bits.
    PowBits {
        /// The difficulty given.
        bits: usize,
    },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::Blowup { log_blowup } => write!(
                f,
                "log_blowup {log_blowup} is not supported: it must be in 1..={MAX_LOG_BLOWUP}"
            ),
            ParamsError::Arity { max_log_arity } => write!(
                f,
                "max_log_arity {max_log_arity} is not supported: it must be in 1..={MAX_LOG_ARITY}"
            ),
            ParamsError::ZeroQueries => write!(f, "num_queries must be at least 1"),
            ParamsError::FinalPolyTooLong { log_final_poly_len } => write!(
                f,
                "log_final_poly_len {log_final_poly_len} plus log_blowup exceeds the largest \
                 domain 2^{MAX_LOG_DOMAIN}"
            ),
            ParamsError::PowBits { bits } => {
                write!(
                    f,
                    "{bits} proof-of-work bits: at most {MAX_BITS} are supported"
                )
            }
        }
    }
}

impl std::error::Error for ParamsError {}

/// Why bytes are not an encoded proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The header is not `aFRI` version 1.
    BadHeader,
    /// The bytes end inside a value.
    Truncated {
        /// Where the value starts.
        offset: usize,
    },
    /// A varint longer than 64 bits.
    BadVarint {
        /// Where it starts.
        offset: usize,
    },
    /// A count larger than the bytes left could hold.
    LengthTooLarge {
        /// Where it starts.
        offset: usize,
        /// The count.
        len: u64,
    },
    /// A field element `≥ p`.
    NonCanonical {
        /// Where it starts.
        offset: usize,
    },
    /// Bytes after the proof.
    TrailingBytes {
        /// How many.
        count: usize,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadHeader => write!(f, "not an aurum FRI proof (bad header)"),
            DecodeError::Truncated { offset } => write!(f, "truncated at byte {offset}"),
            DecodeError::BadVarint { offset } => write!(f, "malformed length at byte {offset}"),
            DecodeError::LengthTooLarge { offset, len } => write!(
                f,
                "length {len} at byte {offset} exceeds what the remaining bytes can hold"
            ),
            DecodeError::NonCanonical { offset } => {
                write!(f, "field element at byte {offset} is not below p")
            }
            DecodeError::TrailingBytes { count } => {
                write!(f, "{count} bytes after the end of the proof")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Matrices that cannot be committed to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitError {
    /// No matrices.
    NoMatrices,
    /// Values that are not rows of the given width.
    NotAMatrix {
        /// The matrix (input position).
        matrix: usize,
        /// What is wrong.
        error: MatrixError,
    },
    /// A height that is not a power of two.
    HeightNotPowerOfTwo {
        /// The matrix.
        matrix: usize,
        /// Its height.
        height: usize,
    },
    /// An LDE given to [`FriPcs::commit_ldes`](crate::FriPcs::commit_ldes) with fewer rows than the blow-up (it would
    /// extend no trace row).
    LdeBelowBlowup {
        /// The matrix.
        matrix: usize,
        /// Its height.
        height: usize,
    },
    /// An LDE larger than the largest two-adic domain, `2^32` rows.
    TooTall {
        /// The matrix.
        matrix: usize,
        /// Its height.
        height: usize,
    },
    /// A zero coset shift.
    ZeroShift {
        /// The matrix.
        matrix: usize,
    },
    /// The tree could not be built, or the cap height would not commit to every matrix.
    Tree(BuildError),
    /// The configured cap lies below the layer where shorter matrices join, so it would not
    /// commit to them.
    CapBelowMatrices {
        /// The configured cap height.
        cap_height: usize,
        /// The largest cap height that commits to every matrix.
        max_cap_height: usize,
    },
    /// The memory for an LDE or the tree's digests could not be allocated.
    OutOfMemory {
        /// What could not be allocated.
        what: &'static str,
        /// The bytes asked for.
        bytes: usize,
    },
    /// The commit engine ([`FriPcs::with_engine`](crate::FriPcs::with_engine)) failed, or
    /// returned LDEs or digests of other shapes than asked for.
    Engine(String),
}

impl fmt::Display for CommitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommitError::NoMatrices => write!(f, "no matrices to commit to"),
            CommitError::NotAMatrix { matrix, error } => write!(f, "matrix {matrix}: {error}"),
            CommitError::LdeBelowBlowup { matrix, height } => write!(
                f,
                "LDE {matrix} has {height} rows, fewer than the blow-up factor"
            ),
            CommitError::HeightNotPowerOfTwo { matrix, height } => write!(
                f,
                "matrix {matrix} has height {height}, which is not a power of two"
            ),
            CommitError::TooTall { matrix, height } => write!(
                f,
                "matrix {matrix} has height {height}: its LDE would exceed 2^{MAX_LOG_DOMAIN} rows"
            ),
            CommitError::ZeroShift { matrix } => {
                write!(f, "matrix {matrix} is on a coset with shift 0")
            }
            CommitError::Tree(e) => e.fmt(f),
            CommitError::CapBelowMatrices {
                cap_height,
                max_cap_height,
            } => write!(
                f,
                "cap height {cap_height} lies below the layer where shorter matrices join (at \
                 most {max_cap_height} commits to all of them)"
            ),
            CommitError::OutOfMemory { what, bytes } => fmt_no_memory(f, what, *bytes),
            CommitError::Engine(message) => write!(f, "commit engine: {message}"),
        }
    }
}

impl From<NoMemory> for CommitError {
    fn from(NoMemory { what, bytes }: NoMemory) -> Self {
        CommitError::OutOfMemory { what, bytes }
    }
}

impl From<BuildError> for CommitError {
    fn from(e: BuildError) -> Self {
        match e {
            BuildError::OutOfMemory { what, bytes } => CommitError::OutOfMemory { what, bytes },
            e => CommitError::Tree(e),
        }
    }
}

impl std::error::Error for CommitError {}

/// An opening request that cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// Nothing to open.
    NoRequests,
    /// Prover data committed with another blow-up than this scheme's.
    BlowupMismatch {
        /// The request.
        batch: usize,
        /// The data's blow-up (log).
        log_blowup: usize,
    },
    /// Prover data committed with another cap height than this scheme's.
    CapHeightMismatch {
        /// The request.
        batch: usize,
        /// The data's cap height.
        cap_height: usize,
    },
    /// A request with a number of point lists other than its matrix count.
    PointListCount {
        /// The request.
        batch: usize,
        /// Matrices committed.
        expected: usize,
        /// Point lists given.
        found: usize,
    },
    /// A matrix opened at no point (its width could not be checked).
    NoPoints {
        /// The request.
        batch: usize,
        /// The matrix.
        matrix: usize,
    },
    /// A point of the matrix's LDE domain (the quotient there is undefined).
    PointInDomain {
        /// The request.
        batch: usize,
        /// The matrix.
        matrix: usize,
        /// The point's position.
        point: usize,
    },
    /// An LDE not above the final height (with `log_final_poly_len > 0`, every input must be
    /// folded at least once).
    TooShort {
        /// The request.
        batch: usize,
        /// The matrix.
        matrix: usize,
        /// Its LDE height (log).
        log_height: usize,
        /// The final height (log).
        log_final_height: usize,
    },
    /// Proof-of-work search failed.
    Grind(GrindError),
    /// The memory for a codeword, its tree's digests or the rows of an opening could not be
    /// allocated.
    OutOfMemory {
        /// What could not be allocated.
        what: &'static str,
        /// The bytes asked for.
        bytes: usize,
    },
    /// The commit engine ([`FriPcs::with_engine`](crate::FriPcs::with_engine)) failed on a
    /// folded codeword's tree or on a fold, or returned digest layers of another shape or a
    /// fold of another length.
    Engine(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::NoRequests => write!(f, "no commitments to open"),
            OpenError::BlowupMismatch { batch, log_blowup } => write!(
                f,
                "request {batch} was committed with log_blowup {log_blowup}, not this scheme's"
            ),
            OpenError::CapHeightMismatch { batch, cap_height } => write!(
                f,
                "request {batch} was committed with cap height {cap_height}, not this scheme's"
            ),
            OpenError::PointListCount {
                batch,
                expected,
                found,
            } => write!(
                f,
                "request {batch}: {found} point lists for {expected} committed matrices"
            ),
            OpenError::NoPoints { batch, matrix } => {
                write!(f, "request {batch}: matrix {matrix} is opened at no point")
            }
            OpenError::PointInDomain {
                batch,
                matrix,
                point,
            } => write!(
                f,
                "request {batch}, matrix {matrix}: point {point} lies in the evaluation domain"
            ),
            OpenError::TooShort {
                batch,
                matrix,
                log_height,
                log_final_height,
            } => write!(
                f,
                "request {batch}, matrix {matrix}: an LDE of 2^{log_height} rows is not above the \
                 final height 2^{log_final_height}"
            ),
            OpenError::Grind(e) => e.fmt(f),
            OpenError::OutOfMemory { what, bytes } => fmt_no_memory(f, what, *bytes),
            OpenError::Engine(message) => write!(f, "commit engine: {message}"),
        }
    }
}

/// A multi-opening of a committed tree that failed: only memory can be missing (the indices
/// are below the tree's height and the cap height was checked at commit).
pub(crate) fn open_multi_error(e: aurum_merkle::OpenError) -> OpenError {
    match e {
        aurum_merkle::OpenError::OutOfMemory { what, bytes } => {
            OpenError::OutOfMemory { what, bytes }
        }
        e => unreachable!("indices below the batch height, cap checked at commit: {e}"),
    }
}

impl From<NoMemory> for OpenError {
    fn from(NoMemory { what, bytes }: NoMemory) -> Self {
        OpenError::OutOfMemory { what, bytes }
    }
}

impl std::error::Error for OpenError {}

impl From<GrindError> for OpenError {
    fn from(e: GrindError) -> Self {
        OpenError::Grind(e)
    }
}

/// Which proof of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowPhase {
    /// Before α.
    Batch,
    /// Before the folding challenge of this round.
    Commit(usize),
    /// Before the query indices.
    Query,
}

impl fmt::Display for PowPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PowPhase::Batch => write!(f, "batching"),
            PowPhase::Commit(round) => write!(f, "commit round {round}"),
            PowPhase::Query => write!(f, "query"),
        }
    }
}

/// Why a proof was rejected (or the claims were inconsistent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The claims name no matrix at all.
    NoCommittedMatrices,
    /// A claimed matrix with no points: nothing fixes its width.
    NoPoints {
        /// The commitment.
        batch: usize,
        /// The matrix.
        matrix: usize,
    },
    /// Points of one matrix claiming different numbers of values.
    ValueCount {
        /// The commitment.
        batch: usize,
        /// The matrix.
        matrix: usize,
        /// The point.
        point: usize,
        /// Values at its first point.
        expected: usize,
        /// Values at this one.
        found: usize,
    },
    /// A claimed matrix whose LDE would exceed `2^32` rows.
    ClaimTooTall {
        /// The commitment.
        batch: usize,
        /// The matrix.
        matrix: usize,
        /// Its claimed trace height (log).
        log_height: usize,
    },
    /// Not one commit-phase commitment per round of the folding schedule.
    CommitRoundCount {
        /// Rounds.
        expected: usize,
        /// Commitments.
        found: usize,
    },
    /// A commit-phase commitment whose cap has the wrong number of digests.
    CommitCapLength {
        /// The round.
        round: usize,
        /// Digests a cap of the configured height has.
        expected: usize,
        /// Digests given.
        found: usize,
    },
    /// Not one commit-phase proof-of-work witness per round.
    CommitPowWitnessCount {
        /// Rounds.
        expected: usize,
        /// Witnesses.
        found: usize,
    },
    /// Not one commit-phase opening per round.
    CommitPhaseOpeningCount {
        /// Rounds.
        expected: usize,
        /// Openings.
        found: usize,
    },
    /// A round's openings for another number of queries.
    CommitPhaseQueryCount {
        /// The round.
        round: usize,
        /// Queries.
        expected: usize,
        /// Sibling-value lists.
        found: usize,
    },
    /// A query's sibling values in a round, other than `arity − 1` of them.
    SiblingValueCount {
        /// The round.
        round: usize,
        /// The query.
        query: usize,
        /// `arity − 1`.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A final polynomial of the wrong length.
    FinalPolyLength {
        /// `2^log_final_poly_len`.
        expected: usize,
        /// Coefficients given.
        found: usize,
    },
    /// Not one input opening per claimed commitment.
    InputOpeningCount {
        /// Commitments.
        expected: usize,
        /// Openings.
        found: usize,
    },
    /// A witness other than zero where no proof of work is asked (it would be unbound).
    NonCanonicalPowWitness {
        /// Which one.
        phase: PowPhase,
    },
    /// A witness that does not meet the difficulty.
    InvalidPowWitness {
        /// Which one.
        phase: PowPhase,
    },
    /// An input opening that does not verify against its commitment.
    InputOpening {
        /// The commitment.
        batch: usize,
        /// Why.
        error: aurum_merkle::VerifyError,
    },
    /// A query point equal to an opening point (the quotient is undefined there).
    PointMatchesQuery {
        /// The query.
        query: usize,
        /// The commitment.
        batch: usize,
        /// The matrix.
        matrix: usize,
        /// The point.
        point: usize,
    },
    /// The reduced opening of a one-row matrix (a constant) is not zero.
    ConstantQuotientNotZero {
        /// The query.
        query: usize,
    },
    /// A commit-phase opening that does not verify against its round's commitment.
    CommitPhaseOpening {
        /// The round.
        round: usize,
        /// Why.
        error: aurum_merkle::VerifyError,
    },
    /// Inputs below the final height, never folded in.
    UnconsumedInput {
        /// Their LDE height (log).
        log_height: usize,
    },
    /// A query's folded value differs from the final polynomial's value there.
    FinalPolyMismatch {
        /// The query.
        query: usize,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use VerifyError as E;
        match self {
            E::NoCommittedMatrices => write!(f, "the claims name no committed matrix"),
            E::NoPoints { batch, matrix } => write!(
                f,
                "claim {batch}, matrix {matrix}: no opening points, so no width to check"
            ),
            E::ValueCount {
                batch,
                matrix,
                point,
                expected,
                found,
            } => write!(
                f,
                "claim {batch}, matrix {matrix}, point {point}: {found} values, the first point \
                 has {expected}"
            ),
            E::ClaimTooTall {
                batch,
                matrix,
                log_height,
            } => write!(
                f,
                "claim {batch}, matrix {matrix}: a trace of 2^{log_height} rows has an LDE beyond \
                 2^{MAX_LOG_DOMAIN}"
            ),
            E::CommitRoundCount { expected, found } => write!(
                f,
                "{found} commit-phase commitments, the folding schedule has {expected} rounds"
            ),
            E::CommitCapLength {
                round,
                expected,
                found,
            } => write!(
                f,
                "commit round {round}: the cap has {found} digests, expected {expected}"
            ),
            E::CommitPowWitnessCount { expected, found } => write!(
                f,
                "{found} commit-phase proof-of-work witnesses for {expected} rounds"
            ),
            E::CommitPhaseOpeningCount { expected, found } => {
                write!(f, "{found} commit-phase openings for {expected} rounds")
            }
            E::CommitPhaseQueryCount {
                round,
                expected,
                found,
            } => write!(
                f,
                "commit round {round}: openings for {found} queries, expected {expected}"
            ),
            E::SiblingValueCount {
                round,
                query,
                expected,
                found,
            } => write!(
                f,
                "commit round {round}, query {query}: {found} sibling values, expected {expected}"
            ),
            E::FinalPolyLength { expected, found } => write!(
                f,
                "final polynomial has {found} coefficients, expected {expected}"
            ),
            E::InputOpeningCount { expected, found } => {
                write!(f, "{found} input openings for {expected} commitments")
            }
            E::NonCanonicalPowWitness { phase } => write!(
                f,
                "{phase} proof-of-work witness is not zero although no work is asked"
            ),
            E::InvalidPowWitness { phase } => {
                write!(
                    f,
                    "{phase} proof-of-work witness does not meet the difficulty"
                )
            }
            E::InputOpening { batch, error } => {
                write!(f, "input opening of commitment {batch}: {error}")
            }
            E::PointMatchesQuery {
                query,
                batch,
                matrix,
                point,
            } => write!(
                f,
                "query {query} lands on point {point} of claim {batch}, matrix {matrix}"
            ),
            E::ConstantQuotientNotZero { query } => write!(
                f,
                "query {query}: the quotient of a constant matrix is not zero"
            ),
            E::CommitPhaseOpening { round, error } => {
                write!(f, "commit round {round} opening: {error}")
            }
            E::UnconsumedInput { log_height } => write!(
                f,
                "an input of 2^{log_height} rows lies below the final height and is never folded in"
            ),
            E::FinalPolyMismatch { query } => write!(
                f,
                "query {query}: the folded value differs from the final polynomial's"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Memory the prover could not allocate: what and how many bytes (the public errors carry it
/// as `OutOfMemory`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NoMemory {
    pub(crate) what: &'static str,
    pub(crate) bytes: usize,
}

/// `len` zero extension elements, allocated zeroed, or [`NoMemory`] naming `what`.
pub(crate) fn try_zeroed_ext(
    len: usize,
    what: &'static str,
) -> Result<Vec<aurum_goldilocks::Goldilocks2>, NoMemory> {
    aurum_goldilocks::raw::try_zeroed_vec(len).map_err(|e| NoMemory {
        what,
        bytes: e.bytes,
    })
}

/// `not enough memory for WHAT: needs N MiB` (N rounded up).
fn fmt_no_memory(f: &mut core::fmt::Formatter<'_>, what: &str, bytes: usize) -> core::fmt::Result {
    write!(
        f,
        "not enough memory for {what}: needs {} MiB",
        bytes.div_ceil(1 << 20)
    )
}
