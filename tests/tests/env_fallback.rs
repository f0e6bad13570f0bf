//! `AURUM_BACKEND=bogus` across the crates: `permute_many`, `MerkleTree::new` and the NTT
//! (its default engine follows the process-wide backend) fall back to the best supported
//! backend, print exactly one warning on stderr, never panic, and compute what they compute
//! without the variable.
//!
//! The variable is read once per process, so the test runs this binary again as a child
//! process with it set; [`CHILD_ENV`] tells `main` to run the child's work instead of the
//! test harness. The child prints the Merkle root; the parent compares it with the root it
//! computes itself, without the variable.

use aurum_goldilocks::{BACKEND_ENV, Backend, Goldilocks};
use aurum_merkle::{Matrix, MerkleTree, config};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Permutation, permute_many};
use aurum_testing::process::this_test_again;
use libtest_mimic::{Arguments, Failed, Trial};

/// Set in the child process.
const CHILD_ENV: &str = "AURUM_TESTS_ENV_FALLBACK_CHILD";
/// Prefix of the child's stdout line carrying the Merkle root.
const ROOT_LINE: &str = "merkle root: ";

fn matrix_values() -> Vec<Goldilocks> {
    (0..4096u64 * 8)
        .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
        .collect()
}

/// Commits to a 4096 × 8 matrix (parallel leaf hashing and compression).
fn merkle_root() -> String {
    let values = matrix_values();
    let config = config::poseidon2_w8();
    let tree = MerkleTree::new(&config, vec![Matrix::new(&values, 8).unwrap()]).unwrap();
    format!("{:?}", tree.root())
}

/// The child's work, with `AURUM_BACKEND` set to a bad value.
fn child() {
    // Bulk permutation (rayon-parallel above 512 states) against the scalar permutation.
    let perm = Poseidon2Goldilocks::<12>::new();
    let states: Vec<[Goldilocks; 12]> = (0..1500u64)
        .map(|i| core::array::from_fn(|j| Goldilocks::from_u64(i * 12 + j as u64)))
        .collect();
    let mut bulk = states.clone();
    permute_many(&perm, &mut bulk);
    assert!(
        bulk.iter()
            .zip(&states)
            .all(|(b, s)| *b == perm.permuted(*s)),
        "permute_many"
    );

    // The default NTT engine follows the process-wide backend; compare with a scalar one.
    let ntt = Ntt::plonky3();
    assert_eq!(ntt.backend().unwrap(), Backend::best_supported());
    let mut values = matrix_values();
    ntt.forward(&mut values, 8, Order::BitReversed).unwrap();
    let mut expected = matrix_values();
    Ntt::plonky3()
        .with_backend(Backend::Scalar)
        .unwrap()
        .forward(&mut expected, 8, Order::BitReversed)
        .unwrap();
    assert_eq!(values, expected, "NTT");
    // An explicit request for a backend this machine cannot run is still an error.
    let foreign = if cfg!(target_arch = "x86_64") {
        Backend::Neon
    } else {
        Backend::Avx512
    };
    assert!(Ntt::plonky3().with_backend(foreign).is_err());

    println!("{ROOT_LINE}{}", merkle_root());
    assert_eq!(aurum_goldilocks::backend(), Backend::best_supported());
    assert!(aurum_goldilocks::selected_backend().is_err());
}

fn check_bogus_backend() -> Result<(), Failed> {
    // Under qemu user emulation (scripts/test-aarch64.sh) a foreign binary cannot start
    // another by itself.
    let mut command = this_test_again()?;
    let output = command
        .env(BACKEND_ENV, "bogus")
        .env(CHILD_ENV, "1")
        .output()
        .map_err(|e| format!("cannot start the child process: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!(
        "status {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    if !output.status.success() || stderr.contains("panicked") {
        return Err(format!("the child failed: {context}").into());
    }
    let root = stdout
        .lines()
        .find_map(|line| line.strip_prefix(ROOT_LINE))
        .ok_or_else(|| format!("the child printed no root: {context}"))?;
    if root != merkle_root() {
        return Err(format!("root {root}, expected {}: {context}", merkle_root()).into());
    }
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains(BACKEND_ENV))
        .collect();
    let used = format!("using the {} backend", Backend::best_supported());
    if warnings.len() != 1 || !warnings[0].contains("\"bogus\"") || !warnings[0].contains(&used) {
        return Err(
            format!("expected one warning naming \"bogus\" and {used:?}: {context}").into(),
        );
    }
    Ok(())
}

fn main() {
    if std::env::var_os(CHILD_ENV).is_some() {
        child();
        return;
    }
    let args = Arguments::from_args();
    let trials = vec![Trial::test(
        "bogus_backend_env_falls_back_in_every_crate_with_one_warning",
        check_bogus_backend,
    )];
    libtest_mimic::run(&args, trials).exit();
}
