//! Validated matrix shapes: the checks every public call makes on its lengths and widths
//! before any kernel runs.

use aurum_goldilocks::Goldilocks;

use crate::domain::MAX_LOG_SIZE;
use crate::element::NttElement;
use crate::error::NttError;

/// The smallest and largest LDE blow-ups: `2^1 … 2^4`.
pub const ADDED_BITS: core::ops::RangeInclusive<usize> = 1..=4;

/// A validated matrix shape, in base-field elements.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub(crate) width: usize,
    pub(crate) log_height: usize,
}

pub(crate) fn shape<E: NttElement>(len: usize, width: usize) -> Result<Shape, NttError> {
    if width == 0 {
        return Err(NttError::ZeroWidth);
    }
    if !len.is_multiple_of(width) {
        return Err(NttError::LengthNotMultipleOfWidth { len, width });
    }
    let height = len / width;
    if !height.is_power_of_two() {
        return Err(NttError::HeightNotPowerOfTwo { height });
    }
    let log_height = height.trailing_zeros() as usize;
    if log_height > MAX_LOG_SIZE {
        return Err(NttError::TooLarge {
            log_size: log_height,
            max_log_size: MAX_LOG_SIZE,
        });
    }
    let base_width = width
        .checked_mul(E::DEGREE)
        .ok_or(NttError::LengthNotMultipleOfWidth { len, width })?;
    Ok(Shape {
        width: base_width,
        log_height,
    })
}

/// Checks an LDE of `len` elements of shape `shape` by `added_bits` and returns its output
/// length, `len · 2^added_bits`.
pub(crate) fn check_lde<E: NttElement>(
    len: usize,
    shape: Shape,
    added_bits: usize,
) -> Result<usize, NttError> {
    if !ADDED_BITS.contains(&added_bits) {
        return Err(NttError::AddedBits { added_bits });
    }
    // Both terms are small now: log_height ≤ 32, added_bits ≤ 4.
    let log_size = shape.log_height + added_bits;
    if log_size > MAX_LOG_SIZE {
        return Err(NttError::TooLarge {
            log_size,
            max_log_size: MAX_LOG_SIZE,
        });
    }
    // The output must be a buffer that can exist (at most isize::MAX bytes): for inputs
    // above 1/16 of the address space (or of memory, on 32-bit targets) it cannot.
    len.checked_mul(1 << added_bits)
        .filter(|&out| {
            out.checked_mul(size_of::<E>())
                .is_some_and(|bytes| isize::try_from(bytes).is_ok())
        })
        .ok_or(NttError::OutputTooLarge { len, added_bits })
}

/// The checks [`Ntt::coset_lde`](crate::Ntt::coset_lde) makes on a request, in its order — the
/// shape (`len` base-field elements in rows of `width`), the blow-up, the output's size, the
/// shift — for other engines of the same LDE (the GPU's, in `aurum-cuda`): the rows' base-2
/// logarithm and the output's length in elements, or the same [`NttError`] the CPU gives.
pub fn check_coset_lde(
    len: usize,
    width: usize,
    added_bits: usize,
    shift: Goldilocks,
) -> Result<(usize, usize), NttError> {
    let shape = shape::<Goldilocks>(len, width)?;
    let out_len = check_lde::<Goldilocks>(len, shape, added_bits)?;
    if shift.is_zero() {
        return Err(NttError::ZeroShift);
    }
    Ok((shape.log_height, out_len))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size limits, which no test can reach with real buffers (2^33 rows).
    #[test]
    fn sizes_beyond_two_to_the_32_are_refused() {
        assert!(matches!(
            shape::<Goldilocks>(1 << 33, 1),
            Err(NttError::TooLarge {
                log_size: 33,
                max_log_size: 32
            })
        ));
        assert!(shape::<Goldilocks>(1 << 32, 1).is_ok());
        let big = Shape {
            width: 1,
            log_height: 30,
        };
        assert_eq!(check_lde::<Goldilocks>(1 << 30, big, 2), Ok(1 << 32));
        assert_eq!(
            check_lde::<Goldilocks>(1 << 30, big, 3),
            Err(NttError::TooLarge {
                log_size: 33,
                max_log_size: 32
            })
        );
        for added_bits in [0, 5, 64, 65, usize::MAX] {
            assert_eq!(
                check_lde::<Goldilocks>(1 << 30, big, added_bits),
                Err(NttError::AddedBits { added_bits })
            );
        }
        assert_eq!(
            shape::<aurum_goldilocks::Goldilocks2>(usize::MAX, usize::MAX).unwrap_err(),
            NttError::LengthNotMultipleOfWidth {
                len: usize::MAX,
                width: usize::MAX
            }
        );
    }

    /// Buffers this large cannot be allocated in a test; the shape checks see only lengths.
    #[test]
    fn heights_beyond_two_to_the_32_are_refused_at_any_width() {
        for (len, width, log_size) in [
            (1usize << 33, 1, 33),
            (1 << 40, 1 << 7, 33),
            (1 << 63, 1, 63),
            (1 << 63, 1 << 20, 43),
        ] {
            assert_eq!(
                shape::<Goldilocks>(len, width).unwrap_err(),
                NttError::TooLarge {
                    log_size,
                    max_log_size: 32
                },
                "{len} / {width}"
            );
        }
        assert_eq!(
            shape::<Goldilocks>(usize::MAX, 1).unwrap_err(),
            NttError::HeightNotPowerOfTwo { height: usize::MAX }
        );
        // A 2^32-row matrix of any width is in range (as lengths).
        assert!(shape::<Goldilocks>(1 << 40, 1 << 8).is_ok());
    }

    /// LDE output lengths that overflow when shifted, or that no buffer can have, are errors.
    #[test]
    fn lde_outputs_beyond_the_address_space_are_refused() {
        let shape = Shape {
            width: 1 << 28,
            log_height: 28,
        };
        // 2^56 elements in: ×16 is 2^60 elements, 2^63 bytes, one more than isize::MAX.
        assert_eq!(
            check_lde::<Goldilocks>(1 << 56, shape, 4),
            Err(NttError::OutputTooLarge {
                len: 1 << 56,
                added_bits: 4
            })
        );
        assert_eq!(
            check_lde::<Goldilocks>(1 << 56, shape, 3),
            Ok(1 << 59),
            "2^62 bytes fit"
        );
        // Goldilocks2 elements are 16 bytes.
        assert_eq!(
            check_lde::<aurum_goldilocks::Goldilocks2>(1 << 56, shape, 3),
            Err(NttError::OutputTooLarge {
                len: 1 << 56,
                added_bits: 3
            })
        );
        // Element counts that overflow usize when shifted.
        for (len, added_bits) in [(1 << 61, 3), (1 << 63, 1), (usize::MAX, 1), (usize::MAX, 4)] {
            let err = check_lde::<Goldilocks>(len, shape, added_bits).unwrap_err();
            assert_eq!(err, NttError::OutputTooLarge { len, added_bits });
            assert!(err.to_string().contains(&len.to_string()), "{err}");
        }
    }
}
