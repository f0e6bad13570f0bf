//! plonky2 1.1's `Poseidon::poseidon` latency against each of Aurum's single-state forms
//! (`Poseidon::permute` on the scalar, AVX2 and AVX-512 forms this CPU runs), alternating in one
//! process so that a shared machine slows every side alike: each round times a chain of
//! permutations (each output the next input) on every side in turn; printed are each side's
//! median ns per permutation and the median of the per-round ratios (plonky2 time / Aurum
//! time, above 1 when Aurum is faster) with their range.
//!
//! `cargo run --release --example latency -- [ROUNDS] [CHAIN]` in `oracles/plonky2` (or
//! `scripts/oracle-plonky2.sh latency`).

use std::hint::black_box;
use std::time::Instant;

use aurum_goldilocks::{Backend, Goldilocks};
use aurum_oracle_plonky2::{to_aurum, to_plonky2};
use aurum_poseidon::Poseidon;
use aurum_symmetric::Permutation;
use plonky2::field::goldilocks_field::GoldilocksField as F;
use plonky2::hash::poseidon::Poseidon as PlonkyPoseidon;

fn plonky2_chain(n: usize) -> f64 {
    let mut state: [F; 12] = core::array::from_fn(|i| to_plonky2(i as u64 + 1));
    let start = Instant::now();
    for _ in 0..n {
        state = <F as PlonkyPoseidon>::poseidon(black_box(state));
    }
    black_box(state);
    start.elapsed().as_nanos() as f64 / n as f64
}

fn aurum_chain(perm: &Poseidon, n: usize) -> f64 {
    let mut state: [Goldilocks; 12] = core::array::from_fn(|i| to_aurum(i as u64 + 1));
    let start = Instant::now();
    for _ in 0..n {
        perm.permute(black_box(&mut state));
    }
    black_box(state);
    start.elapsed().as_nanos() as f64 / n as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(41, |a| a.parse().expect("ROUNDS"));
    let chain: usize = args.next().map_or(4000, |a| a.parse().expect("CHAIN"));
    // Each form this CPU runs, once (a backend it cannot run falls back to another form).
    let forms: Vec<Poseidon> = [Backend::Scalar, Backend::Avx2, Backend::Avx512]
        .into_iter()
        .map(|b| Poseidon::new().with_single_state_backend(b))
        .zip([Backend::Scalar, Backend::Avx2, Backend::Avx512])
        .filter(|(p, b)| p.single_state_backend() == *b)
        .map(|(p, _)| p)
        .collect();
    // Warm-up.
    plonky2_chain(chain);
    for f in &forms {
        aurum_chain(f, chain);
    }
    let mut theirs = Vec::new();
    let mut ours = vec![Vec::new(); forms.len()];
    for _ in 0..rounds {
        theirs.push(plonky2_chain(chain));
        for (f, times) in forms.iter().zip(&mut ours) {
            times.push(aurum_chain(f, chain));
        }
    }
    println!(
        "plonky2 1.1 Poseidon::poseidon: {:.0} ns (median of {rounds} rounds of {chain})",
        median(&mut theirs.clone())
    );
    for (f, times) in forms.iter().zip(&ours) {
        let mut ratios: Vec<f64> = theirs.iter().zip(times).map(|(t, o)| t / o).collect();
        let r = median(&mut ratios);
        println!(
            "aurum {} form: {:.0} ns; plonky2 / aurum {:.2}x ({:.2}-{:.2})",
            f.single_state_backend(),
            median(&mut times.clone()),
            r,
            ratios[0],
            ratios[ratios.len() - 1]
        );
    }
}
