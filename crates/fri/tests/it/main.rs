//! aurum-fri's integration tests, one binary (every test binary monomorphises the whole FRI
//! stack again, for every preset and backend it reaches): `engine` checks the commit-engine
//! interface, `tampering` the verifier against mutated proofs and hostile inputs. The
//! per-backend suite is `tests/backends.rs`, a harness of its own (it reports missing backends
//! as ignored).

mod engine;
mod tampering;
