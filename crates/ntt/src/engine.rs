//! The [`Ntt`] engine: a domain and a backend, with the transforms in place.

use aurum_goldilocks::{Backend, Goldilocks};

use crate::bitrev;
use crate::buffers::checked_twiddles;
use crate::butterflies::flow::Flow;
use crate::domain::Domain;
use crate::element::NttElement;
use crate::error::NttError;
use crate::narrow;
use crate::passes::tasks;
use crate::scaling::Powers;
use crate::shape::{Shape, shape};
use crate::source::{Rows, Source};

/// The order of a transform's evaluations (row `i` holds the evaluation at `ω^i` in natural
/// order, at `ω^rev(i)` in bit-reversed order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// Row `i` ↔ point `ω^i` (`shift·ω^i` on a coset).
    #[default]
    Natural,
    /// Row `i` ↔ point `ω^rev(i)`, where `rev` reverses the `log2(height)` bits of `i`:
    /// what radix-2 DIF produces without a permutation, and how Merkle commitments of
    /// LDEs lay out their leaves.
    BitReversed,
}

/// An NTT engine: a [`Domain`] and the SIMD backend to run on. Cheap to create and clone;
/// twiddles are cached process-wide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ntt {
    domain: Domain,
    /// `None`: the process-wide selection (`AURUM_BACKEND` or the best this CPU has).
    backend: Option<Backend>,
}

impl Ntt {
    /// An engine over `domain` on the process-wide backend.
    #[must_use]
    pub const fn new(domain: Domain) -> Ntt {
        Ntt {
            domain,
            backend: None,
        }
    }

    /// The Plonky3 domain (equal to `p3-dft` 0.8).
    #[must_use]
    pub const fn plonky3() -> Ntt {
        Ntt::new(Domain::PLONKY3)
    }

    /// The plonky2 domain (equal to plonky2's `fft` / `lde_onto_coset`).
    #[must_use]
    pub const fn plonky2() -> Ntt {
        Ntt::new(Domain::PLONKY2)
    }

    /// The same engine pinned to one backend (tests and benchmarks compare them).
    pub fn with_backend(self, backend: Backend) -> Result<Ntt, NttError> {
        if backend.is_supported() {
            Ok(Ntt {
                backend: Some(backend),
                ..self
            })
        } else {
            Err(NttError::Backend(
                aurum_goldilocks::BackendError::Unsupported(backend),
            ))
        }
    }

    /// The domain.
    #[must_use]
    pub const fn domain(&self) -> Domain {
        self.domain
    }

    /// The backend kernels run on: the one pinned by [`Ntt::with_backend`], else the
    /// process-wide [`aurum_goldilocks::backend()`] (which, like every infallible library
    /// call, falls back to the best supported backend with a warning if `AURUM_BACKEND` is
    /// invalid). Currently always `Ok`.
    pub fn backend(&self) -> Result<Backend, NttError> {
        Ok(self.backend.unwrap_or_else(aurum_goldilocks::backend))
    }

    /// Forward NTT of every column, in place: row `j` holds the coefficient of `x^j`
    /// (natural order); afterwards the rows are the evaluations on `H = ⟨ω⟩`,
    /// `|H| = height`, in `output` order. Equals `p3-dft`'s `dft_batch` on [`Domain::PLONKY3`].
    pub fn forward<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        output: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let backend = self.backend()?;
        self.forward_base(E::as_base_mut(values), shape, output, backend, None)
    }

    /// Inverse NTT of every column, in place: the rows are evaluations on `H` in `input`
    /// order; afterwards row `j` holds the coefficient of `x^j`. Undoes [`Ntt::forward`].
    pub fn inverse<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        input: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let backend = self.backend()?;
        let inv_n = Goldilocks::ONE.div_2exp(shape.log_height as u64);
        self.inverse_base(E::as_base_mut(values), shape, input, Some(inv_n), backend)
    }

    /// Forward NTT onto the coset `shift · H`: coefficients in natural order in, evaluations
    /// at `shift·ω^i` in `output` order out.
    pub fn coset_forward<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        shift: Goldilocks,
        output: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        if shift.is_zero() {
            return Err(NttError::ZeroShift);
        }
        let backend = self.backend()?;
        // p(shift·x) has coefficients c_j·shift^j: scaled by the first pass of the DIF.
        let powers = Powers::new(Goldilocks::ONE, shift, shape.log_height);
        let source = Source {
            rows: Rows::InPlace,
            powers: Some(&powers),
        };
        self.forward_base(E::as_base_mut(values), shape, output, backend, Some(source))
    }

    /// Inverse of [`Ntt::coset_forward`]: evaluations on `shift · H` in `input` order in,
    /// coefficients in natural order out.
    pub fn coset_inverse<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
        shift: Goldilocks,
        input: Order,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        let shift_inv = shift.try_inverse().ok_or(NttError::ZeroShift)?;
        let backend = self.backend()?;
        let base = E::as_base_mut(values);
        self.inverse_base(base, shape, input, None, backend)?;
        // Coefficient j of p(shift·x) is c_j·shift^j; undo it together with the 1/n.
        let inv_n = Goldilocks::ONE.div_2exp(shape.log_height as u64);
        tasks::scale_rows(base, None, shape.width, inv_n, shift_inv, backend);
        Ok(())
    }

    /// Permutes the rows of a matrix (height a power of two) into bit-reversed order; an
    /// involution.
    pub fn bit_reverse_rows<E: NttElement>(
        &self,
        values: &mut [E],
        width: usize,
    ) -> Result<(), NttError> {
        let shape = shape::<E>(values.len(), width)?;
        bitrev::bit_reverse_rows(E::as_base_mut(values), shape.width, shape.log_height);
        Ok(())
    }

    fn forward_base(
        &self,
        values: &mut [Goldilocks],
        shape: Shape,
        output: Order,
        backend: Backend,
        source: Option<Source<'_>>,
    ) -> Result<(), NttError> {
        let tw = checked_twiddles(self.domain.generator(), false, shape.log_height)?;
        narrow::transform(
            values,
            shape.width,
            shape.log_height,
            &tw,
            Flow::Dif,
            None,
            backend,
            source,
        )?;
        if output == Order::Natural {
            bitrev::bit_reverse_rows(values, shape.width, shape.log_height);
        }
        Ok(())
    }

    pub(crate) fn inverse_base(
        &self,
        values: &mut [Goldilocks],
        shape: Shape,
        input: Order,
        scale: Option<Goldilocks>,
        backend: Backend,
    ) -> Result<(), NttError> {
        let tw = checked_twiddles(self.domain.generator(), true, shape.log_height)?;
        match input {
            Order::BitReversed => narrow::transform(
                values,
                shape.width,
                shape.log_height,
                &tw,
                Flow::Dit,
                scale,
                backend,
                None,
            )?,
            Order::Natural => {
                narrow::transform(
                    values,
                    shape.width,
                    shape.log_height,
                    &tw,
                    Flow::Dif,
                    scale,
                    backend,
                    None,
                )?;
                bitrev::bit_reverse_rows(values, shape.width, shape.log_height);
            }
        }
        Ok(())
    }
}
