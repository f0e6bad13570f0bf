//! Every Plonky3 trait the adapter implements, against the stock Plonky3 0.8 type on random
//! inputs: permutations (scalar and packed), the sponge (single messages of random lengths,
//! `hash_many`, packed), the compression (single, `compress_many`, packed), the DFT (every
//! method, random shapes, coset shifts and blow-ups, including the stored bit-reversed order),
//! and `MerkleTreeMmcs` commits, openings, multi-openings and verification over mixed-height
//! matrices at widths 8, 12 and 16.

use aurum_goldilocks::P;
use aurum_ntt::NttError;
use aurum_p3::{ConstantsError, NttDft};
use aurum_poseidon2::{LinearLayers, Plonky3Layers};
use p3_commit::{BatchOpeningRef, Mmcs};
use p3_dft::{Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::{Field, PackedValue, PrimeCharacteristicRing};
use p3_goldilocks::Goldilocks as Val;
use p3_matrix::Matrix;
use p3_matrix::bitrev::BitReversibleMatrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_poseidon2::ExternalLayerConstants;
use p3_symmetric::{
    CryptographicHasher, CryptographicPermutation, Permutation, PseudoCompressionFunction,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, RngExt, SeedableRng};

type ValPacking = <Val as Field>::Packing;
type StockPerm<const W: usize> = p3_goldilocks::Poseidon2Goldilocks<W>;
type AurumPerm<const W: usize> = aurum_p3::Poseidon2Goldilocks<W>;

/// Any `u64`, often a non-canonical one (both libraries accept every `u64` as an element).
fn raw() -> impl Strategy<Value = u64> {
    prop_oneof![4 => any::<u64>(), 1 => P..=u64::MAX, 1 => Just(P - 1), 1 => Just(0u64)]
}

fn elements(len: usize) -> impl Strategy<Value = Vec<Val>> {
    proptest::collection::vec(raw().prop_map(Val::new), len)
}

/// `lanes` packed values from `values` (lane `l` of element `k` is `values[l * len + k]`).
fn packed(values: &[Val], len: usize) -> Vec<ValPacking> {
    (0..len)
        .map(|k| ValPacking::from_fn(|lane| values[lane * len + k]))
        .collect()
}

/// Both permutations with constants drawn from one seed, as a prover draws them.
fn perms<const W: usize>(seed: u64) -> (StockPerm<W>, AurumPerm<W>)
where
    Plonky3Layers: LinearLayers<W>,
{
    let stock = StockPerm::<W>::new_from_rng_128(&mut SmallRng::seed_from_u64(seed));
    let aurum = AurumPerm::<W>::new_from_rng_128(&mut SmallRng::seed_from_u64(seed));
    (stock, aurum)
}

fn check_permutation<const W: usize>(seed: u64, values: &[Val])
where
    Plonky3Layers: LinearLayers<W>,
    StockPerm<W>: CryptographicPermutation<[Val; W]> + CryptographicPermutation<[ValPacking; W]>,
{
    let (stock, aurum) = perms::<W>(seed);
    let state: [Val; W] = values[..W].try_into().unwrap();
    assert_eq!(aurum.permute(state), stock.permute(state));
    let lanes = ValPacking::WIDTH;
    let state: [ValPacking; W] = packed(&values[..lanes * W], W).try_into().unwrap();
    assert_eq!(aurum.permute(state), stock.permute(state));
}

fn check_sponge<const W: usize, const RATE: usize>(seed: u64, rows: usize, len: usize, data: &[Val])
where
    Plonky3Layers: LinearLayers<W>,
    StockPerm<W>: CryptographicPermutation<[Val; W]> + CryptographicPermutation<[ValPacking; W]>,
    aurum_p3::PaddingFreeSponge<AurumPerm<W>, W, RATE, 4>:
        CryptographicHasher<Val, [Val; 4]> + CryptographicHasher<ValPacking, [ValPacking; 4]>,
{
    let (stock, aurum) = perms::<W>(seed);
    let stock = p3_symmetric::PaddingFreeSponge::<_, W, RATE, 4>::new(stock);
    let aurum = aurum_p3::PaddingFreeSponge::<_, W, RATE, 4>::new(aurum);
    let data = &data[..rows * len];
    let expected: Vec<[Val; 4]> = (0..rows)
        .map(|r| stock.hash_slice(&data[r * len..(r + 1) * len]))
        .collect();
    let mut batched = vec![[Val::ZERO; 4]; rows];
    aurum.hash_many(data, &mut batched);
    assert_eq!(batched, expected, "hash_many, {rows} rows of {len}");
    if let Some(first) = data.chunks(len.max(1)).next().filter(|_| rows > 0) {
        assert_eq!(aurum.hash_slice(first), expected[0]);
        assert_eq!(aurum.hash_iter(first.iter().copied()), expected[0]);
    }
    // Packed: lane `l` hashes row `l` (the rows are reused when there are fewer than lanes).
    let lanes = ValPacking::WIDTH;
    if rows >= lanes {
        let columns = packed(&data[..lanes * len], len);
        let digest: [ValPacking; 4] = aurum.hash_iter(columns.iter().copied());
        assert_eq!(digest, stock.hash_iter(columns));
        for (l, row_digest) in expected.iter().take(lanes).enumerate() {
            assert_eq!(digest.map(|p| p.as_slice()[l]), *row_digest);
        }
    }
}

fn check_compression<const W: usize>(seed: u64, pairs: usize, data: &[Val])
where
    Plonky3Layers: LinearLayers<W>,
    StockPerm<W>: CryptographicPermutation<[Val; W]> + CryptographicPermutation<[ValPacking; W]>,
    aurum_p3::TruncatedPermutation<AurumPerm<W>, 2, 4, W>:
        PseudoCompressionFunction<[Val; 4], 2> + PseudoCompressionFunction<[ValPacking; 4], 2>,
{
    let (stock, aurum) = perms::<W>(seed);
    let stock = p3_symmetric::TruncatedPermutation::<_, 2, 4, W>::new(stock);
    let aurum = aurum_p3::TruncatedPermutation::<_, 2, 4, W>::new(aurum);
    let groups: Vec<[[Val; 4]; 2]> = data[..pairs * 8]
        .chunks_exact(8)
        .map(|c| [c[..4].try_into().unwrap(), c[4..].try_into().unwrap()])
        .collect();
    let expected: Vec<[Val; 4]> = groups.iter().map(|g| stock.compress(*g)).collect();
    let mut batched = vec![[Val::ZERO; 4]; pairs];
    aurum.compress_many(&groups, &mut batched);
    assert_eq!(batched, expected, "compress_many, {pairs} pairs");
    for (group, digest) in groups.iter().zip(&expected) {
        assert_eq!(aurum.compress(*group), *digest);
    }
    let lanes = ValPacking::WIDTH;
    if pairs >= lanes {
        // Lane `l` compresses pair `l`.
        let input: [[ValPacking; 4]; 2] = core::array::from_fn(|side| {
            core::array::from_fn(|i| ValPacking::from_fn(|l| groups[l][side][i]))
        });
        let digest = aurum.compress(input);
        assert_eq!(digest, stock.compress(input));
        for (l, pair_digest) in expected.iter().take(lanes).enumerate() {
            assert_eq!(digest.map(|p| p.as_slice()[l]), *pair_digest);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn permutations_equal_plonky3(seed: u64, values in elements(16 * 16)) {
        check_permutation::<8>(seed, &values);
        check_permutation::<12>(seed, &values);
        check_permutation::<16>(seed, &values);
    }

    #[test]
    fn sponges_equal_plonky3(seed: u64, rows in 0usize..40, len in 0usize..30, data in elements(40 * 30)) {
        check_sponge::<8, 4>(seed, rows, len, &data);
        check_sponge::<12, 8>(seed, rows, len, &data);
        check_sponge::<16, 12>(seed, rows, len, &data);
    }

    #[test]
    fn compressions_equal_plonky3(seed: u64, pairs in 0usize..40, data in elements(40 * 8)) {
        check_compression::<8>(seed, pairs, &data);
        check_compression::<12>(seed, pairs, &data);
        check_compression::<16>(seed, pairs, &data);
    }
}

#[test]
fn new_is_plonky3s_fixed_instance() {
    let state: [Val; 16] = core::array::from_fn(|i| Val::new(i as u64 * 0x1234_5678_9abc));
    let w8: [Val; 8] = state[..8].try_into().unwrap();
    let w12: [Val; 12] = state[..12].try_into().unwrap();
    assert_eq!(
        AurumPerm::<8>::new().permute(w8),
        p3_goldilocks::default_goldilocks_poseidon2_8().permute(w8)
    );
    assert_eq!(
        AurumPerm::<12>::new().permute(w12),
        p3_goldilocks::default_goldilocks_poseidon2_12().permute(w12)
    );
    assert_eq!(
        AurumPerm::<16>::default().permute(state),
        p3_goldilocks::default_goldilocks_poseidon2_16().permute(state)
    );
}

/// Plonky3's constants drawn in `new_from_rng_128`'s order (external, then internal).
fn p3_constants<const W: usize>(
    rng: &mut SmallRng,
    internal_rounds: usize,
) -> (ExternalLayerConstants<Val, W>, Vec<Val>) {
    let external = ExternalLayerConstants::<Val, W>::new_from_rng(8, rng);
    let internal = (0..internal_rounds).map(|_| rng.random()).collect();
    (external, internal)
}

#[test]
fn plonky3_constants_give_plonky3_s_permutation() {
    let mut rng = SmallRng::seed_from_u64(7);
    let (external, internal) = p3_constants::<8>(&mut rng, 22);
    let aurum = AurumPerm::<8>::from_p3_constants(&external, &internal).unwrap();
    let stock = StockPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(7));
    let state: [Val; 8] = core::array::from_fn(|i| Val::new(u64::MAX - i as u64));
    assert_eq!(aurum.permute(state), stock.permute(state));
    // And the draw left the generator where Plonky3's constructor leaves it.
    let mut after = SmallRng::seed_from_u64(7);
    let _ = AurumPerm::<8>::new_from_rng_128(&mut after);
    assert_eq!(after.next_u64(), rng.next_u64());
}

#[test]
fn constants_of_the_wrong_shape_are_errors() {
    let mut rng = SmallRng::seed_from_u64(1);
    let (external, internal) = p3_constants::<8>(&mut rng, 21);
    assert_eq!(
        AurumPerm::<8>::from_p3_constants(&external, &internal).unwrap_err(),
        ConstantsError {
            rounds: "internal",
            expected: 22,
            found: 21
        }
    );
    let six_rounds = ExternalLayerConstants::<Val, 8>::new_from_rng(6, &mut rng);
    let err = AurumPerm::<8>::from_p3_constants(&six_rounds, &[Val::ONE; 22]).unwrap_err();
    assert_eq!(
        (err.rounds, err.expected, err.found),
        ("initial external", 4, 3)
    );
    assert!(err.to_string().contains("4 initial external rounds"));
}

/// A random matrix of `2^log_height` rows.
fn matrix(seed: u64, log_height: usize, width: usize) -> RowMajorMatrix<Val> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let values = (0..width << log_height)
        .map(|_| Val::new(rng.next_u64()))
        .collect();
    RowMajorMatrix::new(values, width)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn dft_methods_equal_radix2_dit_parallel(
        seed: u64,
        log_height in 0usize..11,
        width in 1usize..13,
        shift in (1u64..P).prop_map(Val::new),
        added_bits in 0usize..6,
    ) {
        let ours = NttDft::default();
        let theirs = Radix2DitParallel::<Val>::default();
        let m = || matrix(seed, log_height, width);
        // Forward transforms and LDEs: the same values in the same (bit-reversed) storage.
        let stored = |e: aurum_p3::Evaluations| e.bit_reverse_rows().values;
        prop_assert_eq!(stored(ours.dft_batch(m())), theirs.dft_batch(m()).bit_reverse_rows().values);
        prop_assert_eq!(
            stored(ours.coset_dft_batch(m(), shift)),
            theirs.coset_dft_batch(m(), shift).bit_reverse_rows().values
        );
        prop_assert_eq!(
            stored(ours.coset_lde_batch(m(), added_bits, shift)),
            theirs.coset_lde_batch(m(), added_bits, shift).bit_reverse_rows().values
        );
        prop_assert_eq!(
            ours.lde_batch(m(), added_bits).to_row_major_matrix(),
            theirs.lde_batch(m(), added_bits).to_row_major_matrix()
        );
        prop_assert_eq!(ours.idft_batch(m()), theirs.idft_batch(m()));
        prop_assert_eq!(ours.coset_idft_batch(m(), shift), theirs.coset_idft_batch(m(), shift));
        // A default method built on the ones above.
        let column = m().values[..1 << log_height].to_vec();
        prop_assert_eq!(ours.coset_lde(column.clone(), 1, shift), theirs.coset_lde(column, 1, shift));
    }
}

#[test]
fn bad_shapes_are_typed_errors() {
    let dft = NttDft::new();
    let three_rows = RowMajorMatrix::new(vec![Val::ONE; 6], 2);
    assert_eq!(
        dft.try_dft_batch(three_rows.clone()).unwrap_err(),
        NttError::HeightNotPowerOfTwo { height: 3 }
    );
    assert_eq!(
        dft.try_idft_batch(RowMajorMatrix::new(vec![], 0))
            .unwrap_err(),
        NttError::ZeroWidth
    );
    assert_eq!(
        dft.try_coset_lde_batch(matrix(1, 2, 2), 1, Val::ZERO)
            .unwrap_err(),
        NttError::ZeroShift
    );
    // Outside Aurum's LDE range (1..=4 added bits), a domain beyond 2^32 points.
    assert_eq!(
        dft.try_coset_lde_batch(matrix(1, 2, 2), 31, Val::ONE)
            .unwrap_err(),
        NttError::TooLarge {
            log_size: 33,
            max_log_size: 32
        }
    );
    let panic = std::panic::catch_unwind(|| dft.dft_batch(three_rows)).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.starts_with("NttDft::dft_batch: "), "{message}");
}

/// Mixed heights on the `⌈max / 2^k⌉` ladder, with widths.
fn shapes() -> impl Strategy<Value = Vec<(usize, usize)>> {
    (
        1usize..70,
        proptest::collection::vec((0usize..5, 1usize..20), 1..5),
    )
        .prop_map(|(max, specs)| {
            specs
                .into_iter()
                .map(|(k, width)| (((max - 1) >> k) + 1, width))
                .collect()
        })
}

fn check_mmcs<const W: usize, const RATE: usize>(
    seed: u64,
    shape: &[(usize, usize)],
    cap_height: usize,
    queries: &[usize],
) where
    Plonky3Layers: LinearLayers<W>,
    StockPerm<W>: CryptographicPermutation<[Val; W]> + CryptographicPermutation<[ValPacking; W]>,
    aurum_p3::PaddingFreeSponge<AurumPerm<W>, W, RATE, 4>:
        CryptographicHasher<Val, [Val; 4]> + CryptographicHasher<ValPacking, [ValPacking; 4]>,
    aurum_p3::TruncatedPermutation<AurumPerm<W>, 2, 4, W>:
        PseudoCompressionFunction<[Val; 4], 2> + PseudoCompressionFunction<[ValPacking; 4], 2>,
{
    let (stock, aurum) = perms::<W>(seed);
    let stock = MerkleTreeMmcs::<ValPacking, ValPacking, _, _, 2, 4>::new(
        p3_symmetric::PaddingFreeSponge::<_, W, RATE, 4>::new(stock.clone()),
        p3_symmetric::TruncatedPermutation::<_, 2, 4, W>::new(stock),
        cap_height,
    );
    let aurum = MerkleTreeMmcs::<ValPacking, ValPacking, _, _, 2, 4>::new(
        aurum_p3::PaddingFreeSponge::<_, W, RATE, 4>::new(aurum.clone()),
        aurum_p3::TruncatedPermutation::<_, 2, 4, W>::new(aurum),
        cap_height,
    );
    let matrices: Vec<RowMajorMatrix<Val>> = shape
        .iter()
        .enumerate()
        .map(|(i, &(h, w))| {
            let mut rng = SmallRng::seed_from_u64(seed ^ i as u64);
            RowMajorMatrix::new((0..h * w).map(|_| Val::new(rng.next_u64())).collect(), w)
        })
        .collect();
    let dims: Vec<_> = matrices.iter().map(|m| m.dimensions()).collect();
    let (stock_cap, stock_data) = stock.commit(matrices.clone());
    let (aurum_cap, aurum_data) = aurum.commit(matrices);
    assert_eq!(aurum_cap, stock_cap, "commitment, shape {shape:?}");
    let max_height = shape.iter().map(|s| s.0).max().unwrap();
    let indices: Vec<usize> = queries.iter().map(|q| q % max_height).collect();
    for &index in &indices {
        let opening = aurum.open_batch(index, &aurum_data);
        let stock_opening = stock.open_batch(index, &stock_data);
        assert_eq!(opening.opened_values, stock_opening.opened_values);
        assert_eq!(opening.opening_proof, stock_opening.opening_proof);
        // The adapter's verifier hashes with Aurum; it accepts the opening and the stock one
        // accepts it too.
        aurum
            .verify_batch(&aurum_cap, &dims, index, (&opening).into())
            .unwrap();
        let as_stock = BatchOpeningRef::new(&opening.opened_values, &opening.opening_proof);
        stock
            .verify_batch(&stock_cap, &dims, index, as_stock)
            .unwrap();
        // A changed value in any matrix gets the stock verifier's verdict. (Plonky3 accepts
        // any row of a matrix that joins the tree above a cap, whose digests do not depend
        // on it; a tallest matrix is always below the cap, so a change there is rejected.)
        for m in 0..shape.len() {
            let mut tampered = opening.opened_values.clone();
            tampered[m][0] += Val::ONE;
            let ours = aurum.verify_batch(
                &aurum_cap,
                &dims,
                index,
                BatchOpeningRef::new(&tampered, &opening.opening_proof),
            );
            let theirs = stock.verify_batch(
                &stock_cap,
                &dims,
                index,
                BatchOpeningRef::new(&tampered, &opening.opening_proof),
            );
            assert_eq!(ours.is_ok(), theirs.is_ok());
            assert!(shape[m].0 < max_height || ours.is_err());
        }
    }
    let (values, proof) = aurum.open_multi_batch(&indices, &aurum_data);
    let (stock_values, stock_proof) = stock.open_multi_batch(&indices, &stock_data);
    assert_eq!(values, stock_values);
    assert_eq!(
        serde_json::to_string(&proof).unwrap(),
        serde_json::to_string(&stock_proof).unwrap()
    );
    aurum
        .verify_multi_batch(&aurum_cap, &dims, &indices, &values, &proof)
        .unwrap();
    let tallest = shape.iter().position(|s| s.0 == max_height).unwrap();
    let mut tampered = values.clone();
    tampered[0][tallest][0] += Val::ONE;
    assert!(
        aurum
            .verify_multi_batch(&aurum_cap, &dims, &indices, &tampered, &proof)
            .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn mmcs_equals_plonky3(
        seed: u64,
        shape in shapes(),
        cap_height in 0usize..3,
        queries in proptest::collection::vec(any::<usize>(), 1..6),
    ) {
        check_mmcs::<8, 4>(seed, &shape, cap_height, &queries);
        check_mmcs::<12, 8>(seed, &shape, cap_height, &queries);
        check_mmcs::<16, 12>(seed, &shape, cap_height, &queries);
    }
}

/// Tall enough for Plonky3's parallel batched levels (more than 1024 nodes per level) and
/// for Aurum's parallel bulk calls, with a matrix joining at a lower layer.
#[test]
fn large_mixed_commit_equals_plonky3() {
    check_mmcs::<8, 4>(3, &[(4100, 9), (1025, 3), (4100, 2)], 1, &[0, 4099, 2222]);
}
