//! Property tests run from a `harness = false` test binary, where the `proptest!` macro does
//! not fit: proptest's `TestRunner` driven directly.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestRunner};

/// Runs a property over `cases` random inputs; a failure panics with the shrunk input.
///
/// No `.proptest-regressions` file is written (it stores RNG seeds, which silently replay a
/// different input once a strategy changes): replay a failure as a named test with its values.
pub fn check_property<S>(cases: u32, strategy: S, property: impl Fn(S::Value))
where
    S: Strategy,
    S::Value: core::fmt::Debug,
{
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = runner.run(&strategy, |value| {
        property(value);
        Ok(())
    }) {
        panic!("{e}");
    }
}
