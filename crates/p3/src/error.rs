//! Every error type of the crate (re-exported at the crate root and, for the scheme's, in
//! [`crate::pcs`]): a Plonky3 configuration [`FriPcs::from_p3_parameters`](crate::FriPcs::from_p3_parameters) cannot take
//! ([`ConfigError`], naming the MMCS by its [`MmcsRole`]), a commitment or opening that
//! failed ([`ProverError`]), and round constants that do not fit Poseidon2 over Goldilocks
//! ([`ConstantsError`]).
//!
//! [`FriPcs::from_p3_parameters`](crate::FriPcs::from_p3_parameters): crate::FriPcs::from_p3_parameters

use core::fmt;

use aurum_fri::{CommitError, OpenError, ParamsError};

use crate::params::MAX_CAP_HEIGHT;

/// Which MMCS of a Plonky3 configuration [`ConfigError::MmcsMismatch`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmcsRole {
    /// The input MMCS (`TwoAdicFriPcs::new`'s `mmcs`): the committed matrices' trees.
    Input,
    /// The commit-phase MMCS (`FriParameters::mmcs`): the folded codewords' trees.
    CommitPhase,
}

impl fmt::Display for MmcsRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MmcsRole::Input => "input MMCS",
            MmcsRole::CommitPhase => "commit-phase MMCS (FriParameters::mmcs)",
        })
    }
}

/// Why [`FriPcs::from_p3_parameters`](crate::FriPcs::from_p3_parameters) cannot make the scheme a Plonky3 configuration
/// describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// Parameters `aurum-fri` does not run.
    Params(ParamsError),
    /// A cap height above [`MAX_CAP_HEIGHT`].
    CapHeight {
        /// The input MMCS's cap height.
        cap_height: usize,
    },
    /// An MMCS commits differently from the trees `FriPcs` builds with the permutation and
    /// the input MMCS's cap height: other round constants, or (the commit-phase MMCS) another
    /// cap height.
    MmcsMismatch {
        /// Which MMCS.
        mmcs: MmcsRole,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Params(e) => write!(f, "FRI parameters: {e}"),
            ConfigError::CapHeight { cap_height } => write!(
                f,
                "cap height {cap_height} is above the {MAX_CAP_HEIGHT} FriPcs::from_p3_parameters takes"
            ),
            ConfigError::MmcsMismatch { mmcs } => write!(
                f,
                "the {mmcs} commits differently from FriPcs's trees (other Poseidon2 \
                 constants than the permutation given, or another cap height than the input \
                 MMCS's)"
            ),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Params(e) => Some(e),
            _ => None,
        }
    }
}

/// Why [`FriPcs`](crate::FriPcs) could not commit or open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProverError {
    /// A matrix whose height is not the size of the domain it was given with.
    DomainHeight {
        /// The matrix (input position).
        matrix: usize,
        /// The domain's size.
        domain_size: usize,
        /// The matrix's height.
        height: usize,
    },
    /// `aurum-fri` refused to commit.
    Commit(CommitError),
    /// `aurum-fri` refused to open.
    Open(OpenError),
}

impl fmt::Display for ProverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProverError::DomainHeight {
                matrix,
                domain_size,
                height,
            } => write!(
                f,
                "matrix {matrix} has {height} rows for a domain of {domain_size} points"
            ),
            ProverError::Commit(e) => write!(f, "commit: {e}"),
            ProverError::Open(e) => write!(f, "open: {e}"),
        }
    }
}

impl std::error::Error for ProverError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProverError::DomainHeight { .. } => None,
            ProverError::Commit(e) => Some(e),
            ProverError::Open(e) => Some(e),
        }
    }
}

impl From<CommitError> for ProverError {
    fn from(e: CommitError) -> Self {
        ProverError::Commit(e)
    }
}

impl From<OpenError> for ProverError {
    fn from(e: OpenError) -> Self {
        ProverError::Open(e)
    }
}

/// Round constants in Plonky3's form that do not fit Poseidon2 over Goldilocks (4 initial and
/// 4 terminal external rounds, 22 internal rounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantsError {
    /// Which constants: `"initial external"`, `"terminal external"` or `"internal"`.
    pub rounds: &'static str,
    /// How many rounds this permutation has there.
    pub expected: usize,
    /// How many rounds of constants were given.
    pub found: usize,
}

impl fmt::Display for ConstantsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Poseidon2 over Goldilocks has {} {} rounds, but constants for {} were given",
            self.expected, self.rounds, self.found
        )
    }
}

impl std::error::Error for ConstantsError {}
