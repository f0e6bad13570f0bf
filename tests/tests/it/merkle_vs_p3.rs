//! Merkle roots and caps against `p3-merkle-tree` 0.8's `MerkleTreeMmcs` with the same
//! Poseidon2 sponge and compression, over random shapes with mixed (and non-power-of-two)
//! heights; Plonky3's opening proofs verify with our verifier; multi-openings (pruned paths)
//! equal Plonky3's.

use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{Commitment, Matrix, MerkleTree, Opening, verify, verify_multi};
use p3_commit::Mmcs;
use p3_field::{Field, PrimeField64};
use p3_goldilocks::Goldilocks as P3;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use proptest::prelude::*;

type P3Packing = <P3 as Field>::Packing;

fn to_ours(d: &[P3; 4]) -> [Goldilocks; 4] {
    d.map(|x| Goldilocks::from_u64(x.as_canonical_u64()))
}

fn raw() -> impl Strategy<Value = u64> {
    prop_oneof![5 => any::<u64>(), 1 => P..=u64::MAX]
}

/// (height, width) per matrix on the `⌈max / 2^k⌉` ladder, plus a flat data pool.
fn shapes() -> impl Strategy<Value = (Vec<(usize, usize)>, Vec<u64>)> {
    (
        1usize..90,
        proptest::collection::vec((0usize..5, 1usize..14), 1..5),
    )
        .prop_flat_map(|(max, specs)| {
            let shape: Vec<(usize, usize)> = specs
                .into_iter()
                .map(|(k, width)| (((max - 1) >> k) + 1, width))
                .collect();
            let total: usize = shape.iter().map(|(h, w)| h * w).sum();
            (Just(shape), proptest::collection::vec(raw(), total))
        })
}

macro_rules! check_width {
    ($name:ident, $w:literal, $rate:literal, $ours:expr, $p3perm:expr) => {
        fn $name(shape: &[(usize, usize)], pool: &[u64], cap_height: usize) {
            let perm = $p3perm;
            let mmcs = MerkleTreeMmcs::<P3Packing, P3Packing, _, _, 2, 4>::new(
                PaddingFreeSponge::<_, $w, $rate, 4>::new(perm.clone()),
                TruncatedPermutation::<_, 2, 4, $w>::new(perm),
                cap_height,
            );
            let mut offset = 0;
            let mut ours_data = Vec::new();
            let mut theirs = Vec::new();
            for &(h, w) in shape {
                let chunk = &pool[offset..offset + h * w];
                offset += h * w;
                ours_data.push(
                    chunk
                        .iter()
                        .map(|&x| Goldilocks::from_u64(x))
                        .collect::<Vec<_>>(),
                );
                theirs.push(RowMajorMatrix::new(
                    chunk.iter().map(|&x| P3::new(x)).collect(),
                    w,
                ));
            }
            let (p3_cap, p3_data) = mmcs.commit(theirs);
            let config = $ours;
            let matrices: Vec<Matrix<'_>> = ours_data
                .iter()
                .zip(shape)
                .map(|(v, &(_, w))| Matrix::new(v, w).unwrap())
                .collect();
            let tree = MerkleTree::new(&config, matrices).unwrap();
            let ours_cap = tree.cap(cap_height).unwrap();
            let expected: Vec<[Goldilocks; 4]> = p3_cap.roots().iter().map(to_ours).collect();
            assert_eq!(
                ours_cap,
                expected,
                "{} shape {:?} cap {}",
                config.name(),
                shape,
                cap_height
            );
            // Plonky3's openings are valid openings of our commitment, and ours equal theirs.
            let max = tree.shape().max_height();
            for index in [0, max / 3, max - 1] {
                let p3_opening = mmcs.open_batch(index, &p3_data);
                let opening = Opening {
                    rows: p3_opening
                        .opened_values
                        .iter()
                        .map(|row| {
                            row.iter()
                                .map(|x| Goldilocks::from_u64(x.as_canonical_u64()))
                                .collect()
                        })
                        .collect(),
                    siblings: p3_opening.opening_proof.iter().map(to_ours).collect(),
                };
                let commitment = Commitment {
                    cap: ours_cap.clone(),
                };
                assert_eq!(
                    verify(&config, &commitment, tree.shape().dims(), index, &opening),
                    Ok(())
                );
                assert_eq!(tree.open(index, cap_height).unwrap(), opening);
            }
            // Multi-openings (with a repeated index) equal Plonky3's pruned ones and verify.
            let indices: Vec<usize> = pool
                .iter()
                .take(7)
                .map(|&x| (x as usize) % max)
                .chain([max - 1, 0, max - 1])
                .collect();
            let (p3_rows, p3_proof) = mmcs.open_multi_batch(&indices, &p3_data);
            let multi = tree.open_multi(&indices, cap_height).unwrap();
            let rows: Vec<Vec<Vec<Goldilocks>>> = p3_rows
                .iter()
                .map(|query| {
                    query
                        .iter()
                        .map(|row| {
                            row.iter()
                                .map(|x| Goldilocks::from_u64(x.as_canonical_u64()))
                                .collect()
                        })
                        .collect()
                })
                .collect();
            assert_eq!(multi.rows, rows);
            let siblings: Vec<[Goldilocks; 4]> =
                p3_proof.sibling_hashes.iter().map(to_ours).collect();
            assert_eq!(
                multi.siblings, siblings,
                "shape {:?} cap {}",
                shape, cap_height
            );
            let commitment = Commitment {
                cap: ours_cap.clone(),
            };
            assert_eq!(
                verify_multi(&config, &commitment, tree.shape().dims(), &indices, &multi),
                Ok(())
            );
        }
    };
}

check_width!(
    check_w8,
    8,
    4,
    config::poseidon2_w8(),
    p3_goldilocks::default_goldilocks_poseidon2_8()
);
check_width!(
    check_w12,
    12,
    8,
    config::poseidon2_w12(),
    p3_goldilocks::default_goldilocks_poseidon2_12()
);
check_width!(
    check_w16,
    16,
    12,
    config::poseidon2_w16(),
    p3_goldilocks::default_goldilocks_poseidon2_16()
);

/// The largest cap height ≤ `pick` whose layer holds at least `2^cap_height` digests:
/// Plonky3 0.8 panics on a shorter (non-power-of-two) cap, which Aurum returns whole.
fn cap_for(shape: &[(usize, usize)], pick: usize) -> usize {
    let dims: Vec<aurum_merkle::Dimensions> = shape
        .iter()
        .map(|&(height, width)| aurum_merkle::Dimensions { width, height })
        .collect();
    let tree_shape = aurum_merkle::TreeShape::new(&dims).unwrap();
    // Plonky3 also accepts caps below the layer where shorter matrices join (they would not
    // commit to those matrices); Aurum refuses them.
    let mut cap = pick.min(tree_shape.max_cap_height());
    while cap > 0 && tree_shape.cap_size(cap) != Some(1 << cap) {
        cap -= 1;
    }
    cap
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn poseidon2_w8_roots_match_plonky3((shape, pool) in shapes(), pick in 0usize..8) {
        check_w8(&shape, &pool, cap_for(&shape, pick));
    }

    #[test]
    fn poseidon2_w12_roots_match_plonky3((shape, pool) in shapes(), pick in 0usize..8) {
        check_w12(&shape, &pool, cap_for(&shape, pick));
    }

    #[test]
    fn poseidon2_w16_roots_match_plonky3((shape, pool) in shapes(), pick in 0usize..8) {
        check_w16(&shape, &pool, cap_for(&shape, pick));
    }
}

#[test]
fn large_single_matrix_matches_plonky3() {
    // Big enough for the parallel and packed paths on both sides.
    let (h, w) = (5000, 8);
    let pool: Vec<u64> = (0..(h * w) as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    check_w8(&[(h, w)], &pool, cap_for(&[(h, w)], 3));
    check_w8(&[(4096, w)], &pool[..4096 * w], 4);
}

/// Plonky3 0.8 commits with a cap below the layer where a shorter matrix joins, and its
/// verifier then accepts any values for that matrix's row: such a cap does not depend on them.
/// Aurum refuses that cap height (`TreeShape::max_cap_height`).
#[test]
fn caps_below_a_joining_matrix_bind_nothing_in_plonky3_and_are_refused_here() {
    use p3_commit::BatchOpeningRef;
    let perm = p3_goldilocks::default_goldilocks_poseidon2_8();
    // Heights 8 and 2: the short matrix joins at digest layer 2; a cap of height 2 is layer 1.
    let cap_height = 2;
    let mmcs = MerkleTreeMmcs::<P3Packing, P3Packing, _, _, 2, 4>::new(
        PaddingFreeSponge::<_, 8, 4, 4>::new(perm.clone()),
        TruncatedPermutation::<_, 2, 4, 8>::new(perm),
        cap_height,
    );
    let tall: Vec<P3> = (0..16u64).map(P3::new).collect();
    let short: Vec<P3> = (100..106u64).map(P3::new).collect();
    let dims = [
        p3_matrix::Dimensions {
            width: 2,
            height: 8,
        },
        p3_matrix::Dimensions {
            width: 3,
            height: 2,
        },
    ];
    let (cap, data) = mmcs.commit(vec![
        RowMajorMatrix::new(tall.clone(), 2),
        RowMajorMatrix::new(short.clone(), 3),
    ]);
    let opening = mmcs.open_batch(5, &data);
    let mut forged = opening.opened_values.clone();
    forged[1] = vec![P3::new(7); 3];
    assert_ne!(forged, opening.opened_values);
    let accepted = mmcs.verify_batch(
        &cap,
        &dims,
        5,
        BatchOpeningRef::new(&forged, &opening.opening_proof),
    );
    assert!(accepted.is_ok(), "Plonky3 now rejects it: {accepted:?}");

    let tall: Vec<Goldilocks> = (0..16u64).map(Goldilocks::from_u64).collect();
    let short: Vec<Goldilocks> = (100..106u64).map(Goldilocks::from_u64).collect();
    let config = config::poseidon2_w8();
    let tree = MerkleTree::new(
        &config,
        vec![
            Matrix::new(&tall, 2).unwrap(),
            Matrix::new(&short, 3).unwrap(),
        ],
    )
    .unwrap();
    assert_eq!(tree.shape().max_cap_height(), 1);
    assert!(tree.cap(cap_height).is_err());
    assert!(tree.open(5, cap_height).is_err());
}
