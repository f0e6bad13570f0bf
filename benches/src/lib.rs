//! Criterion benchmarks for Aurum (see `benches/`) and `bench-table`, which prints their
//! medians side by side with the peer libraries and the ratios.
