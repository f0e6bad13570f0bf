//! The same proof on every SIMD backend this CPU has: the packed kernels (evaluations,
//! row combinations, quotients, the proof-of-work search, hashing, NTTs) run on the backend
//! selected per process, so each backend runs as a child process with `AURUM_BACKEND` set
//! and prints its proof; it must equal the one this process makes on its default backend
//! (which the differential suite checks against Plonky3's). A backend this CPU lacks is
//! reported as ignored, not passed.
//!
//! And the same proof on every architecture: `proof_is_the_x86_64_known_answer` compares the
//! proof's Keccak-256 with the digest of the proof made on x86_64 (where the differential
//! suite checks this scheme against Plonky3's), so the aarch64 run under qemu
//! (`scripts/test-aarch64.sh`) checks that proofs made there equal those made on x86.

use aurum_fri::{Evaluations, FriParameters, FriPcs, OpeningRequest, codec};
use aurum_goldilocks::{BACKEND_ENV, Backend, Goldilocks};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};
use aurum_testing::backends::of_this_arch;
use aurum_testing::process::this_test_again;
use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// Set in the child process.
const CHILD_ENV: &str = "AURUM_FRI_BACKENDS_CHILD";
/// Prefix of the child's stdout line carrying the proof.
const PROOF_LINE: &str = "proof: ";

/// A proof exercising every kernel past one chunk and one vector: 2^13 rows of 13 columns
/// (a vector of 8 and a remainder) and 2^11 of 3, two points each, folding by up to 8, proof
/// of work at every phase.
fn proof_hex() -> String {
    let params = FriParameters {
        log_blowup: 1,
        log_final_poly_len: 1,
        max_log_arity: 3,
        num_queries: 12,
        batch_proof_of_work_bits: 6,
        commit_proof_of_work_bits: 4,
        query_proof_of_work_bits: 8,
    };
    let pcs = FriPcs::new(aurum_merkle::config::poseidon2_w8(), params).unwrap();
    let matrix = |rows: u64, cols: usize| {
        let values = (0..rows * cols as u64)
            .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        Evaluations::new(values, cols)
    };
    let (commitment, data) = pcs
        .commit(vec![matrix(1 << 13, 13), matrix(1 << 11, 3)])
        .unwrap();
    let mut challenger = DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    challenger.observe_slice(&commitment.cap.concat());
    let points: Vec<Vec<_>> = (0..2)
        .map(|_| (0..2).map(|_| challenger.sample_ext()).collect())
        .collect();
    let (_, proof) = pcs
        .open(
            &[OpeningRequest {
                data: &data,
                points: &points,
            }],
            &mut challenger,
        )
        .unwrap();
    codec::encode(&proof)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Keccak-256 of `proof_hex`'s bytes as made on x86_64 (every backend there gives it).
const X86_64_PROOF_KECCAK: &str =
    "d2ea39e950de2d687ea294bb4a261aad40011acec09471df81725e6e65c5e7f9";

fn proof_keccak(hex: &str) -> String {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits"))
        .collect();
    aurum_symmetric::keccak::keccak256(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn check(backend: Backend, expected: &str) -> Result<(), Failed> {
    // Under qemu user emulation a foreign binary cannot start another by itself.
    let mut command = this_test_again()?;
    let output = command
        .env(BACKEND_ENV, backend.name())
        .env(CHILD_ENV, "1")
        .output()
        .map_err(|e| format!("cannot start the child process: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("the {backend} child failed: {}\n{stderr}", output.status).into());
    }
    let proof = stdout
        .lines()
        .find_map(|line| line.strip_prefix(PROOF_LINE))
        .ok_or_else(|| format!("the {backend} child printed no proof:\n{stdout}\n{stderr}"))?;
    if proof == expected {
        Ok(())
    } else {
        Err(format!(
            "the {backend} proof differs from the {} one",
            aurum_goldilocks::backend()
        )
        .into())
    }
}

fn main() {
    if std::env::var_os(CHILD_ENV).is_some() {
        let selected = aurum_goldilocks::selected_backend().expect("a supported backend");
        assert_eq!(
            Some(selected.name()),
            std::env::var(BACKEND_ENV).ok().as_deref()
        );
        println!("{PROOF_LINE}{}", proof_hex());
        return;
    }
    let args = Arguments::from_args();
    let expected = std::sync::Arc::new(std::sync::OnceLock::new());
    let known_answer = {
        let expected = std::sync::Arc::clone(&expected);
        Trial::test("proof_is_the_x86_64_known_answer", move || {
            let digest = proof_keccak(expected.get_or_init(proof_hex));
            if digest == X86_64_PROOF_KECCAK {
                Ok(())
            } else {
                Err(format!(
                    "this {} proof's Keccak-256 is {digest}, x86_64's is {X86_64_PROOF_KECCAK}",
                    std::env::consts::ARCH
                )
                .into())
            }
        })
    };
    let trials = std::iter::once(known_answer)
        .chain(of_this_arch().into_iter().map(|backend| {
            let expected = std::sync::Arc::clone(&expected);
            Trial::ignorable_test(format!("same_proof_on_{backend}"), move || {
                if !backend.is_supported() {
                    return Ok(Completion::ignored_with(format!(
                        "this CPU cannot run the {backend} backend"
                    )));
                }
                check(backend, expected.get_or_init(proof_hex))?;
                Ok(Completion::Completed)
            })
        }))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
