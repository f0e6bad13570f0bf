//! Differential tests live in `tests/tests/`: Aurum against Plonky3 (and, in the sibling
//! nightly crate, plonky2), on random and edge-case inputs.
