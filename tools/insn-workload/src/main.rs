//! `insn-workload KERNEL ITERS`: a fixed amount of deterministic work, for counting executed
//! instructions under qemu (`scripts/arm-instructions.sh`).
//!
//! Runs `ITERS` iterations of one kernel on the backend `aurum_goldilocks` selects at run time
//! (`AURUM_BACKEND`, or the best this CPU has) and prints a checksum of the result on stdout.
//! The instruction count of one iteration is the difference between two runs, `ITERS = 2k` and
//! `ITERS = k`: everything else (process start, setup, the first call's one-time work such as
//! twiddle tables and round constants, printing) is the same in both. For that the two runs
//! must be identical apart from the iteration count:
//!
//! * inputs come from a fixed-seed generator; nothing depends on time, the OS's randomness or
//!   hash-map seeds;
//! * pass `ITERS` zero-padded to equal length (`0004`, `0008`): every character of argv (and of
//!   the environment, so run under `env -i`) shifts the count by a few instructions. The
//!   count is echoed exactly as given, so the output has the same length too, and the checksum
//!   is printed at a fixed width.
//!
//! KERNEL (one iteration, and the unit the table divides by):
//!
//! | kernel | one iteration | unit |
//! |---|---|---|
//! | `p2w8`, `p2w12`, `p2w16` | `permute_many` of 256 states, Poseidon2 (Plonky3's parameters) | state |
//! | `poseidon12` | `permute_many` of 256 states, plonky2's Poseidon (width 12) | state |
//! | `merkle-p2w8` | commit a 2^16 × 8 matrix, preset `poseidon2-w8` | leaf |
//! | `merkle-plonky2` | commit a 2^16 × 8 matrix, preset `plonky2` | leaf |
//! | `ntt` | forward NTT of 2^16 × 8 (Plonky3 domain, bit-reversed output, in place) | butterfly: 2^15 · 16 · 8 |
//! | `none` | nothing (setup and printing only) | - |
//!
//! 256 states stay below `PERMUTE_MANY_PARALLEL_THRESHOLD`, so the permutations run on the
//! calling thread; the Merkle trees and the NTT use rayon (count with `RAYON_NUM_THREADS=1`).
//!
//! stderr: one line with the backend, the SVE vector length (aarch64 with SVE) and the unit,
//! e.g. `insn-workload: kernel=p2w8 iters=0004 backend=neon sve=512 sve2=yes unit=state units_per_iter=256`.
//! An `AURUM_BACKEND` this build or CPU cannot run is an error (exit status 2), never a
//! silent fallback: a count must belong to the backend it is reported for.

use std::process::ExitCode;

use aurum_goldilocks::{Backend, Goldilocks};
use aurum_merkle::{Matrix, MerkleConfig, MerkleTree, Preset, config};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon::Poseidon;
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{BatchRequest, Permutation, permute_many};

/// States per `permute_many` call.
const STATES: usize = 256;
/// log2 of the rows of the Merkle and NTT matrices.
const LOG_ROWS: usize = 16;
/// Columns of the Merkle and NTT matrices.
const COLS: usize = 8;
const ROWS: usize = 1 << LOG_ROWS;

/// The kernels: name, unit, units per iteration.
const KERNELS: [(&str, &str, usize); 8] = [
    ("p2w8", "state", STATES),
    ("p2w12", "state", STATES),
    ("p2w16", "state", STATES),
    ("poseidon12", "state", STATES),
    ("merkle-p2w8", "leaf", ROWS),
    ("merkle-plonky2", "leaf", ROWS),
    // A radix-2 transform of 2^n points has n layers of 2^(n-1) butterflies, per column.
    ("ntt", "butterfly", ROWS / 2 * LOG_ROWS * COLS),
    ("none", "-", 0),
];

fn usage() -> ExitCode {
    let names: Vec<&str> = KERNELS.iter().map(|k| k.0).collect();
    eprintln!(
        "usage: insn-workload KERNEL ITERS\n  KERNEL: {}\n  ITERS: decimal digits, zero-padded to a \
         fixed width (0004) so that runs differ in nothing but the count",
        names.join(" | ")
    );
    ExitCode::from(2)
}

/// The batch size each kernel is counted at on `backend` (Poseidon2: 1 on scalar, 4 on AVX2,
/// 2 on AVX-512 and NEON; plonky2's Poseidon: 2 on NEON, 4 elsewhere). SVE runs whole-state
/// kernels, which have no batch size.
fn counted_batch(kernel: &str, backend: Backend) -> usize {
    let poseidon = matches!(kernel, "poseidon12" | "merkle-plonky2");
    match (backend.packed(), poseidon) {
        (Backend::Neon, _) | (Backend::Avx512, false) => 2,
        (Backend::Scalar, false) => 1,
        _ => 4,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kernel, iters_arg] = args.as_slice() else {
        return usage();
    };
    let Some(&(name, unit, units)) = KERNELS.iter().find(|k| k.0 == kernel) else {
        eprintln!("insn-workload: unknown kernel {kernel:?}");
        return usage();
    };
    let iters = match iters_arg.parse::<u64>() {
        Ok(n) if iters_arg.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => {
            eprintln!("insn-workload: ITERS {iters_arg:?} is not a decimal number");
            return usage();
        }
    };
    // Refuse a misconfigured AURUM_BACKEND: the library would fall back to another backend.
    let backend = match aurum_goldilocks::selected_backend() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("insn-workload: AURUM_BACKEND: {e}");
            return ExitCode::from(2);
        }
    };
    // A fixed batch size, not the one measured at run time: a count must not depend on
    // timing (the sizes the bands in scripts/insn-bands.txt were counted with).
    aurum_symmetric::set_batch_request(BatchRequest::Fixed(counted_batch(name, backend)));
    eprintln!(
        "insn-workload: kernel={name} iters={iters_arg} backend={backend} {} unit={unit} \
         units_per_iter={units}",
        sve_description()
    );

    let checksum = match name {
        "p2w8" => permutations(&Poseidon2Goldilocks::<8>::new(), iters),
        "p2w12" => permutations(&Poseidon2Goldilocks::<12>::new(), iters),
        "p2w16" => permutations(&Poseidon2Goldilocks::<16>::new(), iters),
        "poseidon12" => permutations(&Poseidon::new(), iters),
        "merkle-p2w8" | "merkle-plonky2" => {
            let preset: Preset = match name {
                "merkle-p2w8" => "poseidon2-w8",
                _ => "plonky2",
            }
            .parse()
            .expect("a preset name");
            match preset {
                Preset::Poseidon2W8 => merkle(&config::poseidon2_w8(), iters),
                Preset::Plonky2 => merkle(&config::plonky2(), iters),
                other => unreachable!("no kernel uses preset {other}"),
            }
        }
        "ntt" => ntt(iters),
        "none" => 0,
        _ => unreachable!("every kernel in KERNELS is matched"),
    };
    println!("{name} checksum {checksum:016x}");
    ExitCode::SUCCESS
}

/// `ITERS` times `permute_many` over the same 256 states (each call permutes them again).
fn permutations<Perm: Permutation<W>, const W: usize>(perm: &Perm, iters: u64) -> u64 {
    let mut rng = SplitMix64(1);
    let mut states: Vec<[Goldilocks; W]> = (0..STATES)
        .map(|_| core::array::from_fn(|_| rng.element()))
        .collect();
    for _ in 0..iters {
        permute_many(perm, &mut states);
    }
    fold(states.iter().flatten())
}

/// `ITERS` commitments to the same seeded 2^16 × 8 matrix; the checksum is the last root's.
fn merkle<C: MerkleConfig>(config: &C, iters: u64) -> u64 {
    let values = seeded(ROWS * COLS, 2);
    let mut checksum = 0;
    for _ in 0..iters {
        let matrix = Matrix::new(&values, COLS).expect("a 2^16 x 8 matrix");
        let tree = MerkleTree::new(config, vec![matrix]).expect("a valid tree");
        checksum = fold(tree.root().iter());
    }
    checksum
}

/// `ITERS` forward NTTs of a seeded 2^16 × 8 matrix, in place (each transforms the previous
/// output again).
fn ntt(iters: u64) -> u64 {
    let mut values = seeded(ROWS * COLS, 3);
    let ntt = Ntt::plonky3();
    for _ in 0..iters {
        ntt.forward(&mut values, COLS, Order::BitReversed)
            .expect("a 2^16 x 8 matrix");
    }
    fold(values.iter())
}

fn seeded(len: usize, seed: u64) -> Vec<Goldilocks> {
    let mut rng = SplitMix64(seed);
    (0..len).map(|_| rng.element()).collect()
}

/// A order-dependent 64-bit checksum (FNV-1a style over the canonical values).
fn fold<'a>(values: impl Iterator<Item = &'a Goldilocks>) -> u64 {
    values.fold(0xcbf2_9ce4_8422_2325, |h, x| {
        (h ^ x.as_canonical_u64()).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// SplitMix64: a fixed-seed generator (no OS randomness, so every run does the same work).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn element(&mut self) -> Goldilocks {
        Goldilocks::from_u64(self.next())
    }
}

/// `sve=<bits> sve2=yes|no` where the SVE backend can run, else `sve=none`.
fn sve_description() -> String {
    match aurum_sve::detect() {
        Some(sve) => format!(
            "sve={} sve2={}",
            sve.vector_bits(),
            if sve.flavour == aurum_sve::Flavour::Sve2 {
                "yes"
            } else {
                "no"
            }
        ),
        None => "sve=none".to_string(),
    }
}
