//! Whole STARK proofs with Plonky3's `p3-uni-stark` prover: stock Plonky3 components and
//! Aurum's through the adapter, same constants, same seeds, produce byte-identical proofs,
//! and the stock verifier accepts Aurum's. Plonky3's Keccak AIR (Plonky3's own
//! `prove_goldilocks_poseidon2` configuration, at 32 rows), and a Fibonacci AIR at Poseidon2
//! widths 8, 12 and 16.

mod common;

use common::{FibonacciAir, StockConfig, Val, config_pair, fibonacci_trace, on_one_thread};
use p3_keccak_air::{KeccakAir, generate_trace_rows};
use p3_uni_stark::{Proof, prove, verify};
use rand::RngExt;

/// Proves `$air` on `$trace` with both configurations of width `$w` (rate `$rate`), asserts
/// the serialised proofs are identical and that the stock verifier accepts Aurum's proof,
/// read back as a proof of the stock configuration.
macro_rules! assert_identical_proofs {
    ($w:literal, $rate:literal, $seed:expr, $air:expr, $trace:expr, $public:expr) => {{
        let (stock, aurum, _) = config_pair::<$w, $rate>($seed);
        let (air, trace, public) = ($air, $trace, $public);
        let stock_proof = on_one_thread(|| prove(&stock, &air, trace.clone(), &public))
            .expect("stock Plonky3 proves");
        let aurum_proof =
            on_one_thread(|| prove(&aurum, &air, trace, &public)).expect("Aurum proves");
        let stock_bytes = serde_json::to_string(&stock_proof).expect("serialisable");
        let aurum_bytes = serde_json::to_string(&aurum_proof).expect("serialisable");
        // Compared as a boolean: a failure should not print two proofs.
        assert!(
            stock_bytes == aurum_bytes,
            "the proofs differ ({} and {} bytes)",
            stock_bytes.len(),
            aurum_bytes.len()
        );
        let read_back: Proof<StockConfig<$w, $rate>> =
            serde_json::from_str(&aurum_bytes).expect("a stock proof");
        verify(&stock, &air, &read_back, &public).expect("the stock verifier accepts");
        verify(&aurum, &air, &aurum_proof, &public).expect("Aurum's configuration verifies");
    }};
}

#[test]
fn keccak_proofs_are_byte_identical() {
    // One Keccak-f permutation: 24 rows, padded to 32, 2633 columns.
    let (_, _, mut rng) = config_pair::<8, 4>(1);
    let inputs = vec![rng.random::<[u64; 25]>()];
    let trace = generate_trace_rows::<Val>(inputs, 1);
    assert_identical_proofs!(8, 4, 1, KeccakAir {}, trace, Vec::<Val>::new());
}

#[test]
fn fibonacci_proofs_are_byte_identical_at_every_width() {
    let (trace, public) = fibonacci_trace(1 << 6);
    assert_identical_proofs!(8, 4, 2, FibonacciAir, trace.clone(), public.clone());
    assert_identical_proofs!(12, 8, 3, FibonacciAir, trace.clone(), public.clone());
    assert_identical_proofs!(16, 12, 4, FibonacciAir, trace, public);
}

#[test]
fn a_wrong_public_value_is_rejected_for_both() {
    let (stock, aurum, _) = config_pair::<8, 4>(5);
    let (trace, mut public) = fibonacci_trace(1 << 5);
    let stock_proof = prove(&stock, &FibonacciAir, trace.clone(), &public).unwrap();
    let aurum_proof = prove(&aurum, &FibonacciAir, trace, &public).unwrap();
    public[2] += Val::new(1);
    assert!(verify(&stock, &FibonacciAir, &stock_proof, &public).is_err());
    assert!(verify(&aurum, &FibonacciAir, &aurum_proof, &public).is_err());
}
