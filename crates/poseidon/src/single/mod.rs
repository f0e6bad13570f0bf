//! The single-state (latency) forms of the permutation: one state permuted on its own, as
//! `hash_no_pad`, `two_to_one` and a verifier call it, with the vector unit working across the
//! state's 12 words instead of across independent states.
//!
//! The form is chosen once, when a [`Poseidon`](crate::Poseidon) is built, from the backend
//! the field crate selected ([`aurum_goldilocks::backend`], so `AURUM_BACKEND` chooses it too),
//! and stored as a small `Copy` value; each call is one match on it. The bulk calls
//! (`permute_batch`, `permute_many`, the hash and compression layers) do not use it. Every form
//! computes the same field elements as the scalar one; only speed differs.

use aurum_goldilocks::{Backend, Goldilocks};

use crate::constants::WIDTH;
use crate::fast::FastConstants;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod words;
#[cfg(target_arch = "x86_64")]
mod ymm;

/// The single-state form a [`Poseidon`](crate::Poseidon) runs [`permute`](SingleState::permute)
/// with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SingleState(Form);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// The generic round code on one `Goldilocks` state.
    Scalar,
    /// Three 4-lane `ymm` registers (AVX2 with BMI2).
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2),
    /// The same three registers with AVX-512VL's mask registers (AVX-512F/VL).
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Avx512),
}

impl SingleState {
    /// The form for `backend`: its vector form where this crate has one and this CPU runs it,
    /// the scalar form otherwise (SVE and NEON keep the scalar form: one 12-word state does not
    /// fill their vectors better than the scalar code uses the core).
    #[must_use]
    pub(crate) fn for_backend(backend: Backend) -> Self {
        match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => match avx512::Avx512::detect() {
                Some(form) => Self(Form::Avx512(form)),
                None => Self::for_backend(Backend::Avx2),
            },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => {
                avx2::Avx2::detect().map_or(Self(Form::Scalar), |f| Self(Form::Avx2(f)))
            }
            _ => Self(Form::Scalar),
        }
    }

    /// The backend whose instructions this form uses ([`Backend::Scalar`] for the scalar form).
    #[must_use]
    pub(crate) fn backend(self) -> Backend {
        match self.0 {
            Form::Scalar => Backend::Scalar,
            #[cfg(target_arch = "x86_64")]
            Form::Avx2(_) => Backend::Avx2,
            #[cfg(target_arch = "x86_64")]
            Form::Avx512(_) => Backend::Avx512,
        }
    }

    /// Permutes `state` with this form and returns `true`, or returns `false` (leaving `state`
    /// alone) for the scalar form, which the caller runs itself.
    #[inline]
    pub(crate) fn permute(
        self,
        constants: &FastConstants,
        state: &mut [Goldilocks; WIDTH],
    ) -> bool {
        // Unused where this architecture has no vector form.
        let _ = (&constants, &state);
        match self.0 {
            Form::Scalar => false,
            #[cfg(target_arch = "x86_64")]
            Form::Avx2(form) => {
                form.permute(constants, state);
                true
            }
            #[cfg(target_arch = "x86_64")]
            Form::Avx512(form) => {
                form.permute(constants, state);
                true
            }
        }
    }
}
