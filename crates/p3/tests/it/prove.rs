//! Whole STARK proofs with Plonky3's `p3-uni-stark` prover: stock Plonky3 components,
//! Aurum's through the adapter, and Aurum's whole commitment scheme (`aurum_p3::FriPcs`),
//! same constants, same seeds, produce byte-identical proofs; the stock verifier accepts
//! Aurum's, `FriPcs`'s verifier accepts the stock proof, and rejects tampered ones. Plonky3's Keccak AIR (Plonky3's own
//! `prove_goldilocks_poseidon2` configuration, at 32 rows), and a Fibonacci AIR at Poseidon2
//! widths 8, 12 and 16.

use crate::common;

use common::{
    AurumFriConfig, Challenge, FibonacciAir, StockConfig, Val, config_pair, config_triple,
    fibonacci_trace, fixed_triple, on_one_thread,
};
use p3_field::PrimeCharacteristicRing;
use p3_keccak_air::{KeccakAir, generate_trace_rows};
use p3_merkle_tree::MerkleCap;
use p3_uni_stark::{Proof, prove, verify};
use rand::RngExt;

/// Proves `$air` on `$trace` with the three configurations of width `$w` (rate `$rate`):
/// stock, Aurum's hooks, and Aurum's commitment scheme. Asserts the serialised proofs are
/// identical, that the stock verifier accepts both Aurum proofs read back as proofs of the
/// stock configuration, and that `aurum_p3::FriPcs`'s verifier accepts the stock proof.
macro_rules! assert_identical_proofs {
    ($w:literal, $rate:literal, $seed:expr, $air:expr, $trace:expr, $public:expr) => {{
        let (stock, aurum, aurum_fri, _) = config_triple::<$w, $rate>($seed);
        assert_identical_proofs!(@with (stock, aurum, aurum_fri), $w, $rate, $air, $trace, $public)
    }};
    (@with $triple:expr, $w:literal, $rate:literal, $air:expr, $trace:expr, $public:expr) => {{
        let (stock, aurum, aurum_fri) = $triple;
        let (air, trace, public) = ($air, $trace, $public);
        let stock_proof = on_one_thread(|| prove(&stock, &air, trace.clone(), &public))
            .expect("stock Plonky3 proves");
        let aurum_proof =
            on_one_thread(|| prove(&aurum, &air, trace.clone(), &public)).expect("Aurum proves");
        let aurum_fri_proof =
            on_one_thread(|| prove(&aurum_fri, &air, trace, &public)).expect("aurum-fri proves");
        let stock_bytes = serde_json::to_string(&stock_proof).expect("serialisable");
        let aurum_bytes = serde_json::to_string(&aurum_proof).expect("serialisable");
        let aurum_fri_bytes = serde_json::to_string(&aurum_fri_proof).expect("serialisable");
        // Compared as booleans: a failure should not print two proofs.
        assert!(
            stock_bytes == aurum_bytes,
            "the proofs differ ({} and {} bytes)",
            stock_bytes.len(),
            aurum_bytes.len()
        );
        assert!(
            stock_bytes == aurum_fri_bytes,
            "the aurum-fri proof differs ({} and {} bytes)",
            stock_bytes.len(),
            aurum_fri_bytes.len()
        );
        for bytes in [&aurum_bytes, &aurum_fri_bytes] {
            let read_back: Proof<StockConfig<$w, $rate>> =
                serde_json::from_str(bytes).expect("a stock proof");
            verify(&stock, &air, &read_back, &public).expect("the stock verifier accepts");
        }
        verify(&aurum, &air, &aurum_proof, &public).expect("Aurum's configuration verifies");
        verify(&aurum_fri, &air, &aurum_fri_proof, &public).expect("aurum-fri verifies");
        let stock_read_back: Proof<AurumFriConfig<$w, $rate>> =
            serde_json::from_str(&stock_bytes).expect("a proof of the aurum-fri configuration");
        verify(&aurum_fri, &air, &stock_read_back, &public)
            .expect("aurum-fri's verifier accepts the stock proof");
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

/// Over Plonky3's fixed constants (what the GPU's commit engine computes) too.
#[test]
fn proofs_over_the_fixed_constants_are_byte_identical() {
    let (trace, public) = fibonacci_trace(1 << 6);
    assert_identical_proofs!(@with fixed_triple(None), 8, 4, FibonacciAir, trace, public);
}

#[test]
fn fibonacci_proofs_are_byte_identical_at_every_width() {
    let (trace, public) = fibonacci_trace(1 << 6);
    assert_identical_proofs!(8, 4, 2, FibonacciAir, trace.clone(), public.clone());
    assert_identical_proofs!(12, 8, 3, FibonacciAir, trace.clone(), public.clone());
    assert_identical_proofs!(16, 12, 4, FibonacciAir, trace, public);
}

#[test]
fn a_wrong_public_value_is_rejected_by_all_three() {
    let (stock, aurum, aurum_fri, _) = config_triple::<8, 4>(5);
    let (trace, mut public) = fibonacci_trace(1 << 5);
    let stock_proof = prove(&stock, &FibonacciAir, trace.clone(), &public).unwrap();
    let aurum_proof = prove(&aurum, &FibonacciAir, trace.clone(), &public).unwrap();
    let aurum_fri_proof = prove(&aurum_fri, &FibonacciAir, trace, &public).unwrap();
    verify(&aurum_fri, &FibonacciAir, &aurum_fri_proof, &public).expect("the honest statement");
    public[2] += Val::new(1);
    assert!(verify(&stock, &FibonacciAir, &stock_proof, &public).is_err());
    assert!(verify(&aurum, &FibonacciAir, &aurum_proof, &public).is_err());
    assert!(verify(&aurum_fri, &FibonacciAir, &aurum_fri_proof, &public).is_err());
}

/// Every kind of change to the opening proof (and an opened value) makes
/// `aurum_p3::FriPcs`'s verifier return an error, as it does the stock verifier's.
#[test]
fn tampered_proofs_are_rejected_with_errors() {
    type Fri = AurumFriConfig<8, 4>;
    type Tamper = fn(&mut Proof<Fri>);
    let (stock, _, aurum_fri, _) = config_triple::<8, 4>(6);
    let (trace, public) = fibonacci_trace(1 << 6);
    let proof = prove(&aurum_fri, &FibonacciAir, trace, &public).unwrap();
    verify(&aurum_fri, &FibonacciAir, &proof, &public).expect("the untampered proof");
    let tampers: Vec<(&str, Tamper)> = vec![
        ("an opened trace value", |p| {
            p.opened_values.trace_local[0] += Challenge::ONE;
        }),
        ("the final polynomial", |p| {
            p.opening_proof.final_poly[0] += Challenge::ONE;
        }),
        ("a longer final polynomial", |p| {
            p.opening_proof.final_poly.push(Challenge::ONE);
        }),
        ("a commit-phase commitment", |p| {
            let mut roots = p.opening_proof.commit_phase_commits[0].roots().to_vec();
            roots[0][0] += Val::new(1);
            p.opening_proof.commit_phase_commits[0] = MerkleCap::new(roots);
        }),
        ("a missing commit round", |p| {
            p.opening_proof.commit_phase_commits.pop();
        }),
        ("the query proof of work", |p| {
            p.opening_proof.query_pow_witness += Val::new(1);
        }),
        ("an opened input row", |p| {
            p.opening_proof.input_openings[0].opened_values[0][0][0] += Val::new(1);
        }),
        ("a shorter opened input row", |p| {
            p.opening_proof.input_openings[0].opened_values[0][0].pop();
        }),
        ("an input sibling digest", |p| {
            p.opening_proof.input_openings[1]
                .opening_proof
                .sibling_hashes[0][3] += Val::new(1);
        }),
        ("a missing input opening", |p| {
            p.opening_proof.input_openings.pop();
        }),
        ("a commit-phase sibling value", |p| {
            p.opening_proof.commit_phase_openings[0].sibling_values[0][0] += Challenge::ONE;
        }),
        ("a commit-phase sibling digest", |p| {
            p.opening_proof.commit_phase_openings[0]
                .opening_proof
                .sibling_hashes[0][0] += Val::new(1);
        }),
        ("a missing commit-phase opening", |p| {
            p.opening_proof.commit_phase_openings.pop();
        }),
    ];
    // `Proof` is not `Clone`: copies are read back from its serialisation.
    let proof_bytes = serde_json::to_string(&proof).unwrap();
    for (what, tamper) in tampers {
        let mut tampered: Proof<Fri> = serde_json::from_str(&proof_bytes).unwrap();
        tamper(&mut tampered);
        let result = verify(&aurum_fri, &FibonacciAir, &tampered, &public);
        assert!(
            result.is_err(),
            "aurum-fri accepts a proof with {what} changed"
        );
        // The stock verifier agrees (read back through serde, as a stock proof).
        let bytes = serde_json::to_string(&tampered).unwrap();
        let as_stock: Proof<StockConfig<8, 4>> = serde_json::from_str(&bytes).unwrap();
        assert!(
            verify(&stock, &FibonacciAir, &as_stock, &public).is_err(),
            "the stock verifier accepts a proof with {what} changed"
        );
    }
}
