//! aurum-poseidon against plonky2 1.1: all 360 round constants, the sparse partial-round
//! tables aurum derives (against plonky2's precomputed ones), and a differential proptest of
//! the permutation, `hash_no_pad`, `hash_or_noop` and `two_to_one` — scalar and bulk (whose
//! lanes run on the backend this CPU selects), and the `Plonky2` Merkle preset against
//! plonky2's `MerkleTree::new` (caps of every height, proofs verified by aurum's verifier).

use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::config as merkle_config;
use aurum_merkle::{Matrix, MerkleTree, Opening, verify};
use aurum_oracle_plonky2::{canonical, to_aurum, to_plonky2};
use aurum_poseidon::constants::{PARTIAL_ROUNDS, ROUND_CONSTANTS};
use aurum_poseidon::{Digest, HashMode, Poseidon, TwoToOne, hash_many};
use aurum_symmetric::{Permutation, permute_many};
use plonky2::field::goldilocks_field::GoldilocksField as F;
use plonky2::hash::hash_types::HashOut;
use plonky2::hash::merkle_tree::MerkleTree as PlonkyMerkleTree;
use plonky2::hash::poseidon::{ALL_ROUND_CONSTANTS, Poseidon as PlonkyPoseidon, PoseidonHash};
use plonky2::plonk::config::Hasher;
use proptest::prelude::*;

#[test]
fn all_360_round_constants_equal_plonky2s() {
    assert_eq!(ALL_ROUND_CONSTANTS.len(), ROUND_CONSTANTS.len());
    assert_eq!(ALL_ROUND_CONSTANTS, ROUND_CONSTANTS);
}

#[test]
fn derived_sparse_tables_equal_plonky2s() {
    let ours = Poseidon::new().fast_constants();
    let canon = |x: Goldilocks| x.as_canonical_u64();
    // plonky2 stores the initial matrix transposed (its loop reads [row][col] as
    // result[col] += state[row]·T[row][col]).
    for r in 0..11 {
        for c in 0..11 {
            assert_eq!(
                <F as PlonkyPoseidon>::FAST_PARTIAL_ROUND_INITIAL_MATRIX[r][c],
                canon(ours.initial_matrix[c][r]),
                "initial matrix [{r}][{c}]"
            );
        }
    }
    for j in 0..PARTIAL_ROUNDS {
        assert_eq!(
            <F as PlonkyPoseidon>::FAST_PARTIAL_ROUND_W_HATS[j],
            ours.partial_rows[j].map(canon),
            "row (ŵ) of partial round {j}"
        );
        assert_eq!(
            <F as PlonkyPoseidon>::FAST_PARTIAL_ROUND_VS[j],
            ours.partial_cols[j].map(canon),
            "column (v) of partial round {j}"
        );
    }
    // The constants differ by design: plonky2 moves them backwards (a 12-vector before the
    // partial rounds, one scalar after each S-box), aurum forwards (one scalar before each
    // S-box, the leftover merged into round 26's constants).
}

fn raw() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => any::<u64>(),
        1 => proptest::sample::select(vec![0, 1, P - 1, P, P + 1, u64::MAX, 1 << 63, (1 << 32) - 1]),
        1 => P..=u64::MAX,
    ]
}

fn digest_u64(h: HashOut<F>) -> [u64; 4] {
    h.elements.map(canonical)
}

fn ours_u64(d: Digest) -> [u64; 4] {
    d.map(|x| x.as_canonical_u64())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn permutation(inputs in proptest::collection::vec(proptest::array::uniform12(raw()), 1..40)) {
        let perm = Poseidon::new();
        let mut bulk: Vec<[Goldilocks; 12]> = inputs.iter().map(|s| s.map(to_aurum)).collect();
        permute_many(&perm, &mut bulk);
        for (input, bulk_out) in inputs.iter().zip(&bulk) {
            let expected = <F as PlonkyPoseidon>::poseidon(input.map(to_plonky2)).map(canonical);
            let scalar = perm.permuted(input.map(to_aurum)).map(|x| x.as_canonical_u64());
            prop_assert_eq!(scalar, expected, "scalar, input {:x?}", input);
            prop_assert_eq!(bulk_out.map(|x| x.as_canonical_u64()), expected, "bulk");
        }
    }

    #[test]
    fn hash_no_pad_and_hash_or_noop(
        (len, rows) in (0usize..30).prop_flat_map(|len| (Just(len), proptest::collection::vec(proptest::collection::vec(raw(), len), 1..20))),
    ) {
        let perm = Poseidon::new();
        let data: Vec<Goldilocks> = rows.iter().flatten().map(|&x| to_aurum(x)).collect();
        let mut no_pad = vec![[Goldilocks::ZERO; 4]; rows.len()];
        let mut or_noop = no_pad.clone();
        hash_many(HashMode::NoPad, &data, len, &mut no_pad).unwrap();
        hash_many(HashMode::OrNoop, &data, len, &mut or_noop).unwrap();
        for (r, row) in rows.iter().enumerate() {
            let theirs: Vec<F> = row.iter().map(|&x| to_plonky2(x)).collect();
            let ours: Vec<Goldilocks> = row.iter().map(|&x| to_aurum(x)).collect();
            let expected = digest_u64(PoseidonHash::hash_no_pad(&theirs));
            prop_assert_eq!(ours_u64(perm.hash_no_pad(&ours)), expected, "hash_no_pad len {}", len);
            prop_assert_eq!(ours_u64(no_pad[r]), expected, "bulk hash_no_pad len {}", len);
            let expected = digest_u64(PoseidonHash::hash_or_noop(&theirs));
            prop_assert_eq!(ours_u64(perm.hash_or_noop(&ours)), expected, "hash_or_noop len {}", len);
            prop_assert_eq!(ours_u64(or_noop[r]), expected, "bulk hash_or_noop len {}", len);
        }
    }

    #[test]
    fn two_to_one(pairs in proptest::collection::vec(proptest::array::uniform4(raw()), 2..40)) {
        let perm = Poseidon::new();
        let children: Vec<Digest> = pairs[..pairs.len() / 2 * 2].iter().map(|d| d.map(to_aurum)).collect();
        let mut parents = vec![[Goldilocks::ZERO; 4]; children.len() / 2];
        TwoToOne::new(perm).compress_layer(&children, &mut parents).unwrap();
        for (j, parent) in parents.iter().enumerate() {
            let l = HashOut { elements: pairs[2 * j].map(to_plonky2) };
            let r = HashOut { elements: pairs[2 * j + 1].map(to_plonky2) };
            let expected = digest_u64(PoseidonHash::two_to_one(l, r));
            prop_assert_eq!(ours_u64(perm.two_to_one(children[2 * j], children[2 * j + 1])), expected);
            prop_assert_eq!(ours_u64(*parent), expected, "bulk");
        }
    }
}

// The `Plonky2` Merkle preset: root, cap and proofs equal plonky2's `MerkleTree::new`.
proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn merkle_tree_root_cap_and_proofs_equal_plonky2s(
        log_leaves in 0usize..9,
        leaf_len in 1usize..30,
        cap_pick in 0usize..10,
        seed in any::<u64>(),
    ) {
        let leaves = 1usize << log_leaves;
        let cap_height = cap_pick.min(log_leaves);
        let raw: Vec<u64> = (0..(leaves * leaf_len) as u64)
            .map(|i| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed)
            .collect();
        let theirs: Vec<Vec<F>> = raw.chunks(leaf_len).map(|r| r.iter().map(|&x| to_plonky2(x)).collect()).collect();
        let ours: Vec<Goldilocks> = raw.iter().map(|&x| to_aurum(x)).collect();

        let reference = PlonkyMerkleTree::<F, PoseidonHash>::new(theirs, cap_height);
        let config = merkle_config::plonky2();
        let tree = MerkleTree::new(&config, vec![Matrix::new(&ours, leaf_len).unwrap()]).unwrap();
        let cap: Vec<[u64; 4]> = tree.cap(cap_height).unwrap().into_iter().map(ours_u64).collect();
        let expected: Vec<[u64; 4]> = reference.cap.0.iter().map(|&h| digest_u64(h)).collect();
        prop_assert_eq!(cap, expected);

        // plonky2's proofs verify under our verifier, and ours carry the same siblings.
        let commitment = tree.commitment(cap_height).unwrap();
        for index in (0..leaves).step_by((leaves / 5).max(1)) {
            let proof = reference.prove(index);
            let opening = Opening {
                rows: vec![ours[index * leaf_len..(index + 1) * leaf_len].to_vec()],
                siblings: proof.siblings.iter().map(|h| h.elements.map(|x| to_aurum(canonical(x)))).collect(),
            };
            prop_assert_eq!(&opening, &tree.open(index, cap_height).unwrap());
            prop_assert_eq!(verify(&config, &commitment, &tree.shape().dims(), index, &opening), Ok(()));
        }
    }
}
