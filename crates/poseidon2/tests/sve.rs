//! The SVE Poseidon2 kernels (`aurum-sve`, Plonky3's layers at widths 8, 12, 16; the
//! permutation's [`Permutation::state_kernel`] for the SVE backend) against the scalar
//! permutation: random and danger states, state counts around the vector length (full vectors
//! and predicated tails), and the sponge and compression drivers built on them.
//!
//! Reported as **ignored** where SVE cannot run (other architectures, aarch64 cores without
//! SVE, builds without the C kernels): a `harness = false` binary on `libtest-mimic`.

use aurum_goldilocks::{Backend, Goldilocks, P};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{
    Compressor, Hasher, PaddingFreeSponge, Permutation, StateKernel, TruncatedPermutation,
};
use libtest_mimic::{Arguments, Trial};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const DANGER: [u64; 10] = [
    0,
    1,
    P - 1,
    P,
    P + 1,
    (1 << 32) - 1,
    1 << 32,
    1 << 63,
    u64::MAX,
    0xFFFF_FFFF_0000_0000,
];

fn random_states<const W: usize>(rng: &mut StdRng, n: usize) -> Vec<[Goldilocks; W]> {
    (0..n)
        .map(|_| {
            core::array::from_fn(|_| {
                Goldilocks::from_u64(if rng.random_bool(0.2) {
                    DANGER[rng.random_range(0..DANGER.len())]
                } else {
                    rng.random()
                })
            })
        })
        .collect()
}

fn permutation<const W: usize>() -> Result<(), String>
where
    aurum_poseidon2::Plonky3Layers: aurum_poseidon2::LinearLayers<W>,
{
    let perm = Poseidon2Goldilocks::<W>::new();
    let kernel = perm
        .state_kernel(Backend::Sve)
        .ok_or(format!("W{W}: no SVE kernel"))?;
    let mut rng = StdRng::seed_from_u64(W as u64);
    let mut counts: Vec<usize> = (0..=40).collect();
    counts.extend([63, 64, 65, 127, 128, 129, 300]);
    for n in counts {
        let mut states = random_states::<W>(&mut rng, n);
        // Every danger value in every word of some state.
        if n == 300 {
            for (k, state) in states.iter_mut().enumerate().take(DANGER.len() * W) {
                state[k % W] = Goldilocks::from_u64(DANGER[k / W % DANGER.len()]);
            }
        }
        let expected: Vec<[Goldilocks; W]> = states.iter().map(|s| perm.permuted(*s)).collect();
        kernel.permute_states(&mut states);
        if let Some(k) = (0..n).find(|&k| states[k] != expected[k]) {
            return Err(format!("W{W}, {n} states: state {k} differs"));
        }
    }
    Ok(())
}

fn sponge_and_compression() -> Result<(), String> {
    let perm = Poseidon2Goldilocks::<8>::new();
    // The sponge and the compression run their bulk calls on SVE on this kernel.
    if perm.state_kernel(Backend::Sve).is_none() {
        return Err("no SVE kernel".into());
    }
    let sponge = PaddingFreeSponge::<_, 8, 4, 4>::new(perm.clone());
    let compress = TruncatedPermutation::<_, 8, 4>::new(perm);
    let mut rng = StdRng::seed_from_u64(88);
    for row_len in [0, 1, 3, 4, 5, 8, 9, 17] {
        for rows in [1, 2, 63, 64, 65, 130] {
            let data: Vec<Goldilocks> = (0..rows * row_len)
                .map(|_| Goldilocks::from_u64(rng.random()))
                .collect();
            let mut digests = vec![[Goldilocks::ZERO; 4]; rows];
            sponge.hash_rows_on(Backend::Sve, &data, row_len, &mut digests);
            for r in 0..rows {
                if digests[r] != sponge.hash(&data[r * row_len..(r + 1) * row_len]) {
                    return Err(format!("hash of row {r} of {rows} × {row_len}"));
                }
            }
        }
    }
    for parents in [1, 2, 63, 64, 65, 200] {
        let children: Vec<[Goldilocks; 4]> = (0..2 * parents)
            .map(|_| core::array::from_fn(|_| Goldilocks::from_u64(rng.random())))
            .collect();
        let mut out = vec![[Goldilocks::ZERO; 4]; parents];
        compress.compress_layer_on(Backend::Sve, &children, &mut out);
        for i in 0..parents {
            if out[i] != compress.compress([children[2 * i], children[2 * i + 1]]) {
                return Err(format!("parent {i} of {parents}"));
            }
        }
    }
    Ok(())
}

/// Horizen Labs' layers have no SVE kernel: their bulk calls run the packed form on SVE too.
fn horizen_labs_declines() -> Result<(), String> {
    let perm = aurum_poseidon2::Poseidon2HorizenLabs::<8>::new();
    if perm.state_kernel(Backend::Sve).is_some() {
        return Err("Horizen Labs layers have an SVE kernel".into());
    }
    Ok(())
}

/// A test body: `Err` carries the failure message.
type Check = fn() -> Result<(), String>;

fn main() {
    let args = Arguments::from_args();
    let sve = aurum_sve::detect();
    let tests: [(&str, Check); 5] = [
        ("sve_poseidon2_w8_equals_scalar", permutation::<8>),
        ("sve_poseidon2_w12_equals_scalar", permutation::<12>),
        ("sve_poseidon2_w16_equals_scalar", permutation::<16>),
        (
            "sve_sponge_and_compression_equal_scalar",
            sponge_and_compression,
        ),
        ("sve_horizen_labs_declines", horizen_labs_declines),
    ];
    let trials = tests
        .into_iter()
        .map(|(name, f)| {
            Trial::test(name, move || f().map_err(Into::into)).with_ignored_flag(sve.is_none())
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
