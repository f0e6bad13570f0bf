//! A matrix's width and height, as trees, openings and verifiers describe matrices.

/// A matrix's width and height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dimensions {
    /// Elements per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}
