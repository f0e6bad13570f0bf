//! STARK configurations shared by the proof tests and the `keccak_prove` example: the
//! configuration of Plonky3's `prove_goldilocks_poseidon2` example (Poseidon2 `MerkleTreeMmcs`,
//! `ExtensionMmcs`, `DuplexChallenger`, `TwoAdicFriPcs` with `FriParameters::new_benchmark`)
//! built once from Plonky3's own components, once from Aurum's (hash, compression, DFT) and
//! once with Aurum's whole commitment scheme (`aurum_p3::FriPcs`), plus a small Fibonacci AIR.
// Each test binary and the example use a different part of this module.
#![allow(dead_code)]

use std::sync::Arc;

use aurum_poseidon2::{LinearLayers, Plonky3Layers};
use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_challenger::DuplexChallenger;
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::extension::BinomialExtensionField;
use p3_field::{Field, PrimeCharacteristicRing};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::CryptographicPermutation;
use p3_uni_stark::StarkConfig;
use rand::SeedableRng;
use rand::rngs::SmallRng;

pub type Val = p3_goldilocks::Goldilocks;
pub type Challenge = BinomialExtensionField<Val, 2>;
pub type ValPacking = <Val as Field>::Packing;

/// Digest elements (4 × 64 bits), as in Plonky3's example.
pub const DIGEST: usize = 4;

pub type ValMmcs<Hash, Compress> =
    MerkleTreeMmcs<ValPacking, ValPacking, Hash, Compress, 2, DIGEST>;
pub type ChallengeMmcs<Hash, Compress> = ExtensionMmcs<Val, Challenge, ValMmcs<Hash, Compress>>;
pub type Pcs<Hash, Compress, Dft> =
    TwoAdicFriPcs<Val, Dft, ValMmcs<Hash, Compress>, ChallengeMmcs<Hash, Compress>>;

/// The example's configuration over Poseidon2 of width `W`, sponge and challenger rate `RATE`.
pub type Config<Perm, Hash, Compress, Dft, const W: usize, const RATE: usize> =
    StarkConfig<Pcs<Hash, Compress, Dft>, Challenge, DuplexChallenger<Val, Perm, W, RATE>>;

pub type StockPerm<const W: usize> = p3_goldilocks::Poseidon2Goldilocks<W>;
pub type StockConfig<const W: usize, const RATE: usize> = Config<
    StockPerm<W>,
    p3_symmetric::PaddingFreeSponge<StockPerm<W>, W, RATE, DIGEST>,
    p3_symmetric::TruncatedPermutation<StockPerm<W>, 2, DIGEST, W>,
    Radix2DitParallel<Val>,
    W,
    RATE,
>;

pub type AurumPerm<const W: usize> = aurum_p3::Poseidon2Goldilocks<W>;
pub type AurumConfig<const W: usize, const RATE: usize> = Config<
    AurumPerm<W>,
    aurum_p3::PaddingFreeSponge<AurumPerm<W>, W, RATE, DIGEST>,
    aurum_p3::TruncatedPermutation<AurumPerm<W>, 2, DIGEST, W>,
    aurum_p3::NttDft,
    W,
    RATE,
>;

/// The configuration from its parts, wired as Plonky3's example does (cap height 0).
fn config<Perm, Hash, Compress, Dft, const W: usize, const RATE: usize>(
    perm: Perm,
    hash: Hash,
    compress: Compress,
    dft: Dft,
) -> Config<Perm, Hash, Compress, Dft, W, RATE>
where
    Perm: CryptographicPermutation<[Val; W]>,
    Hash: Clone,
    Compress: Clone,
    Dft: Clone,
{
    let val_mmcs = ValMmcs::new(hash, compress, 0);
    let fri_params = FriParameters::new_benchmark(ChallengeMmcs::new(val_mmcs.clone()));
    StarkConfig::new(
        Pcs::new(dft, val_mmcs, fri_params),
        DuplexChallenger::new(perm),
    )
}

/// Plonky3's components, constants drawn from `rng` with `new_from_rng_128`.
pub fn stock_config<const W: usize, const RATE: usize>(rng: &mut SmallRng) -> StockConfig<W, RATE>
where
    StockPerm<W>: CryptographicPermutation<[Val; W]>,
{
    let perm = StockPerm::<W>::new_from_rng_128(rng);
    config(
        perm.clone(),
        p3_symmetric::PaddingFreeSponge::new(perm.clone()),
        p3_symmetric::TruncatedPermutation::new(perm),
        Radix2DitParallel::default(),
    )
}

/// Aurum's components, constants drawn from `rng` exactly as [`stock_config`] draws them.
pub fn aurum_config<const W: usize, const RATE: usize>(rng: &mut SmallRng) -> AurumConfig<W, RATE>
where
    Plonky3Layers: LinearLayers<W>,
{
    let perm = AurumPerm::<W>::new_from_rng_128(rng);
    config(
        perm.clone(),
        aurum_p3::PaddingFreeSponge::new(perm.clone()),
        aurum_p3::TruncatedPermutation::new(perm),
        aurum_p3::NttDft::default(),
    )
}

/// The third configuration: Aurum's permutation in the challenger and Aurum's whole
/// commitment scheme, `aurum_p3::FriPcs` (`aurum-fri`), in place of `TwoAdicFriPcs`.
pub type AurumFriPcs<const W: usize, const RATE: usize> = aurum_p3::FriPcs<AurumPerm<W>, W, RATE>;
pub type AurumFriConfig<const W: usize, const RATE: usize> =
    StarkConfig<AurumFriPcs<W, RATE>, Challenge, DuplexChallenger<Val, AurumPerm<W>, W, RATE>>;

/// Aurum's components with `aurum_p3::FriPcs`, constants drawn from `rng` as
/// [`stock_config`] draws them, and Plonky3's `FriParameters::new_benchmark`.
pub fn aurum_fri_config<const W: usize, const RATE: usize>(
    rng: &mut SmallRng,
) -> AurumFriConfig<W, RATE>
where
    Plonky3Layers: LinearLayers<W>,
{
    aurum_fri_config_of(AurumPerm::<W>::new_from_rng_128(rng), None)
}

/// [`aurum_fri_config`] over `perm`, with `engine` computing the commitments' LDEs and input
/// trees where given (it takes them for Plonky3's fixed constants only).
pub fn aurum_fri_config_of<const W: usize, const RATE: usize>(
    perm: AurumPerm<W>,
    engine: Option<Arc<dyn aurum_p3::CommitEngine>>,
) -> AurumFriConfig<W, RATE>
where
    Plonky3Layers: LinearLayers<W>,
{
    let val_mmcs = ValMmcs::new(
        aurum_p3::PaddingFreeSponge::new(perm.clone()),
        aurum_p3::TruncatedPermutation::new(perm.clone()),
        0,
    );
    let fri_params = FriParameters::new_benchmark(ChallengeMmcs::new(val_mmcs.clone()));
    let mut pcs = AurumFriPcs::from_p3_parameters(perm.clone(), &val_mmcs, &fri_params)
        .expect("aurum-fri runs Plonky3's benchmark parameters");
    if let Some(engine) = engine {
        pcs = pcs.with_engine(engine);
    }
    StarkConfig::new(pcs, DuplexChallenger::new(perm))
}

/// The three configurations of width 8 over Plonky3's fixed Poseidon2 constants
/// (`default_goldilocks_poseidon2_8`, which Aurum's presets — and so its GPU kernels —
/// compute) instead of drawn ones; `engine` computes the `aurum_p3::FriPcs` prover's LDEs and
/// input trees where given.
pub fn fixed_triple(
    engine: Option<Arc<dyn aurum_p3::CommitEngine>>,
) -> (StockConfig<8, 4>, AurumConfig<8, 4>, AurumFriConfig<8, 4>) {
    let stock_perm = p3_goldilocks::default_goldilocks_poseidon2_8();
    let stock = config(
        stock_perm.clone(),
        p3_symmetric::PaddingFreeSponge::new(stock_perm.clone()),
        p3_symmetric::TruncatedPermutation::new(stock_perm),
        Radix2DitParallel::default(),
    );
    let perm = AurumPerm::<8>::new();
    let aurum = config(
        perm.clone(),
        aurum_p3::PaddingFreeSponge::new(perm.clone()),
        aurum_p3::TruncatedPermutation::new(perm.clone()),
        aurum_p3::NttDft::default(),
    );
    (stock, aurum, aurum_fri_config_of(perm, engine))
}

/// All three configurations from one seed (see [`config_pair`]).
pub fn config_triple<const W: usize, const RATE: usize>(
    seed: u64,
) -> (
    StockConfig<W, RATE>,
    AurumConfig<W, RATE>,
    AurumFriConfig<W, RATE>,
    SmallRng,
)
where
    StockPerm<W>: CryptographicPermutation<[Val; W]>,
    Plonky3Layers: LinearLayers<W>,
{
    let (stock, aurum, rng) = config_pair::<W, RATE>(seed);
    let aurum_fri = aurum_fri_config(&mut SmallRng::seed_from_u64(seed));
    (stock, aurum, aurum_fri, rng)
}

/// Both configurations from one seed, and the generator after either drew its constants
/// (asserted to be in the same state: the adapter draws exactly what Plonky3 draws).
pub fn config_pair<const W: usize, const RATE: usize>(
    seed: u64,
) -> (StockConfig<W, RATE>, AurumConfig<W, RATE>, SmallRng)
where
    StockPerm<W>: CryptographicPermutation<[Val; W]>,
    Plonky3Layers: LinearLayers<W>,
{
    let mut stock_rng = SmallRng::seed_from_u64(seed);
    let mut aurum_rng = SmallRng::seed_from_u64(seed);
    let stock = stock_config(&mut stock_rng);
    let aurum = aurum_config(&mut aurum_rng);
    assert_eq!(
        rand::Rng::next_u64(&mut stock_rng.clone()),
        rand::Rng::next_u64(&mut aurum_rng.clone()),
        "new_from_rng_128 must consume exactly what Plonky3's does"
    );
    (stock, aurum, stock_rng)
}

/// Runs `f` on a one-thread rayon pool. Plonky3's proof-of-work search
/// (`DuplexChallenger::grind`) returns whichever valid witness a thread finds first, so with
/// several threads two runs of the same prover can pick different witnesses (and then
/// different query indices); on one thread it always finds the smallest, and proofs are
/// reproducible byte for byte.
pub fn on_one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread rayon pool")
        .install(f)
}

/// `a, b` with `a' = b, b' = a + b`; public values: the first row and the last `b`.
#[derive(Clone, Copy, Debug)]
pub struct FibonacciAir;

pub const FIBONACCI_WIDTH: usize = 2;

impl<F> BaseAir<F> for FibonacciAir {
    fn width(&self) -> usize {
        FIBONACCI_WIDTH
    }

    fn num_public_values(&self) -> usize {
        3
    }
}

impl<AB: AirBuilder> Air<AB> for FibonacciAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let public = builder.public_values();
        let (first_a, first_b, last_b) = (public[0], public[1], public[2]);
        let local: &[AB::Var] = main.current_slice();
        let next: &[AB::Var] = main.next_slice();
        let mut first = builder.when_first_row();
        first.assert_eq(local[0], first_a);
        first.assert_eq(local[1], first_b);
        let mut transition = builder.when_transition();
        transition.assert_eq(next[0], local[1]);
        transition.assert_eq(next[1], local[0] + local[1]);
        builder.when_last_row().assert_eq(local[1], last_b);
    }
}

/// `rows` rows of the Fibonacci AIR from `(0, 1)`, and its public values.
pub fn fibonacci_trace(rows: usize) -> (RowMajorMatrix<Val>, Vec<Val>) {
    let mut values = Vec::with_capacity(rows * FIBONACCI_WIDTH);
    let (mut a, mut b) = (Val::ZERO, Val::ONE);
    for _ in 0..rows {
        values.extend([a, b]);
        (a, b) = (b, a + b);
    }
    let last_b = values[values.len() - 1];
    (
        RowMajorMatrix::new(values, FIBONACCI_WIDTH),
        vec![Val::ZERO, Val::ONE, last_b],
    )
}
