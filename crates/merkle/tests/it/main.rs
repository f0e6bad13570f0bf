//! The integration tests, one module per file, in one test binary: each test binary links
//! and monomorphises again every kernel it reaches, so one binary builds several times faster
//! than one per file.

mod hostile;
mod merkle;
mod multi;
mod split;
mod stored;
mod tampering;
