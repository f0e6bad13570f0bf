//! The matrices a tree commits to: row-major, borrowed from the caller.

use aurum_goldilocks::Goldilocks;

use crate::error::MatrixError;
use crate::shape::Dimensions;

/// A row-major matrix borrowed from the caller (no copy is made).
#[derive(Clone, Copy, Debug)]
pub struct Matrix<'a> {
    values: &'a [Goldilocks],
    width: usize,
}

impl<'a> Matrix<'a> {
    /// `values` as rows of `width` elements.
    pub fn new(values: &'a [Goldilocks], width: usize) -> Result<Self, MatrixError> {
        if width == 0 {
            return Err(MatrixError::ZeroWidth);
        }
        if !values.len().is_multiple_of(width) {
            return Err(MatrixError::RaggedLength {
                len: values.len(),
                width,
            });
        }
        Ok(Self { values, width })
    }

    /// Elements per row.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    #[must_use]
    pub fn height(&self) -> usize {
        self.values.len() / self.width
    }

    /// Width and height.
    #[must_use]
    pub fn dimensions(&self) -> Dimensions {
        Dimensions {
            width: self.width,
            height: self.height(),
        }
    }

    /// Every element, row after row.
    #[must_use]
    pub fn values(&self) -> &'a [Goldilocks] {
        self.values
    }

    /// Row `i`, or `None` if `i ≥ height`.
    #[must_use]
    pub fn row(&self, i: usize) -> Option<&'a [Goldilocks]> {
        // Below the height, (i + 1) · width ≤ len: no product can overflow.
        (i < self.height()).then(|| self.row_at(i))
    }

    /// Row `i < height` (the tree's own indices, which the shape keeps in range).
    pub(crate) fn row_at(&self, i: usize) -> &'a [Goldilocks] {
        &self.values[i * self.width..(i + 1) * self.width]
    }

    /// Rows `start..end` (`end ≤ height`) as one slice.
    pub(crate) fn rows(&self, start: usize, end: usize) -> &'a [Goldilocks] {
        &self.values[start * self.width..end * self.width]
    }
}
