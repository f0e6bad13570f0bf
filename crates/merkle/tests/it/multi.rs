//! Multi-openings: they open what single openings open, verify, and every mutation of the
//! rows, the digests, the indices or the counts is rejected with its error.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::poseidon2_w8;
use aurum_merkle::{Matrix, MerkleTree, VerifyError, verify_multi};
use aurum_testing::shapes::height_ladder;
use proptest::prelude::*;

/// (height, width) per matrix on the `⌈max / 2^k⌉` ladder.
fn shapes() -> impl Strategy<Value = Vec<(usize, usize)>> {
    height_ladder(4, 1..6, 1..4)
}

fn data_for(shape: &[(usize, usize)]) -> Vec<Vec<Goldilocks>> {
    shape
        .iter()
        .enumerate()
        .map(|(m, &(h, w))| {
            (0..h * w)
                .map(|i| Goldilocks::from_u64((m * 1000 + i) as u64 * 0x9E37_79B9))
                .collect()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn multi_openings_verify_and_every_mutation_is_rejected(
        shape in shapes(),
        picks in proptest::collection::vec(any::<usize>(), 0..9),
        cap_pick in 0usize..4,
    ) {
        let config = poseidon2_w8();
        let data = data_for(&shape);
        let matrices: Vec<Matrix<'_>> =
            data.iter().zip(&shape).map(|(v, &(_, w))| Matrix::new(v, w).unwrap()).collect();
        let tree = MerkleTree::new(&config, matrices).unwrap();
        let cap_height = cap_pick.min(tree.shape().max_cap_height());
        let commitment = tree.commitment(cap_height).unwrap();
        let max = tree.shape().max_height();
        let dims = tree.shape().dims().to_vec();
        let indices: Vec<usize> = picks.iter().map(|p| p % max).collect();
        let opening = tree.open_multi(&indices, cap_height).unwrap();
        assert_eq!(verify_multi(&config, &commitment, &dims, &indices, &opening), Ok(()));
        // The rows are what single openings give, and no more digests than their paths.
        let singles: Vec<_> = indices.iter().map(|&i| tree.open(i, cap_height).unwrap()).collect();
        for (rows, single) in opening.rows.iter().zip(&singles) {
            assert_eq!(rows, &single.rows);
        }
        assert!(opening.siblings.len() <= singles.iter().map(|s| s.siblings.len()).sum::<usize>());

        // Every sibling digest matters.
        for s in 0..opening.siblings.len() {
            let mut bad = opening.clone();
            bad.siblings[s][s % 4] += Goldilocks::ONE;
            assert!(matches!(
                verify_multi(&config, &commitment, &dims, &indices, &bad),
                Err(VerifyError::RootMismatch { .. })
            ));
        }
        // Every opened value matters.
        for q in 0..indices.len() {
            for m in 0..dims.len() {
                let mut bad = opening.clone();
                bad.rows[q][m][0] += Goldilocks::ONE;
                assert!(matches!(
                    verify_multi(&config, &commitment, &dims, &indices, &bad),
                    Err(VerifyError::RootMismatch { .. }
                        | VerifyError::InconsistentDuplicate { .. }
                        | VerifyError::InconsistentSharedRow { .. })
                ), "query {} matrix {}", q, m);
                let mut wide = opening.clone();
                wide.rows[q][m].push(Goldilocks::ZERO);
                assert!(matches!(
                    verify_multi(&config, &commitment, &dims, &indices, &wide),
                    Err(VerifyError::WrongRowWidth { .. })
                ));
            }
        }
        // Counts.
        let mut extra = opening.clone();
        extra.siblings.push([Goldilocks::ZERO; 4]);
        assert!(matches!(
            verify_multi(&config, &commitment, &dims, &indices, &extra),
            Err(VerifyError::WrongSiblingCount { .. })
        ));
        if !opening.siblings.is_empty() {
            let mut fewer = opening.clone();
            fewer.siblings.pop();
            assert!(matches!(
                verify_multi(&config, &commitment, &dims, &indices, &fewer),
                Err(VerifyError::WrongSiblingCount { .. })
            ));
        }
        let mut more_queries = indices.clone();
        more_queries.push(0);
        assert!(matches!(
            verify_multi(&config, &commitment, &dims, &more_queries, &opening),
            Err(VerifyError::WrongNumberOfQueries { .. })
        ));
        if let Some(first) = indices.first() {
            let mut moved = indices.clone();
            moved[0] = max;
            assert!(matches!(
                verify_multi(&config, &commitment, &dims, &moved, &opening),
                Err(VerifyError::IndexOutOfRange { .. })
            ));
            // Another leaf, with this one's rows: rejected (unless it opens the same rows).
            let other = (first + 1) % max;
            let mut shifted = indices.clone();
            shifted[0] = other;
            let result = verify_multi(&config, &commitment, &dims, &shifted, &opening);
            let same_rows = tree.open(other, cap_height).unwrap().rows == opening.rows[0];
            assert!(result.is_err() || same_rows);
        }
    }
}

#[test]
fn a_duplicate_query_with_other_rows_is_rejected() {
    let config = poseidon2_w8();
    let values: Vec<Goldilocks> = (0..64u64).map(Goldilocks::from_u64).collect();
    let tree = MerkleTree::new(&config, vec![Matrix::new(&values, 4).unwrap()]).unwrap();
    let commitment = tree.commitment(0).unwrap();
    let indices = [3, 9, 3];
    let mut opening = tree.open_multi(&indices, 0).unwrap();
    opening.rows[2][0][1] += Goldilocks::ONE;
    assert_eq!(
        verify_multi(
            &config,
            &commitment,
            tree.shape().dims(),
            &indices,
            &opening
        ),
        Err(VerifyError::InconsistentDuplicate { query: 2 })
    );
}

#[test]
fn detached_digests_reattach_to_their_matrices_only() {
    let config = poseidon2_w8();
    let values: Vec<Goldilocks> = (0..64u64).map(Goldilocks::from_u64).collect();
    let tree = MerkleTree::new(&config, vec![Matrix::new(&values, 4).unwrap()]).unwrap();
    let root = tree.root();
    let opening = tree.open(5, 0).unwrap();
    let digests = tree.into_digests();
    let wrong = MerkleTree::from_digests(&config, vec![Matrix::new(&values, 8).unwrap()], &digests);
    assert!(wrong.is_err());
    let tree = MerkleTree::from_digests(&config, vec![Matrix::new(&values, 4).unwrap()], &digests)
        .unwrap();
    assert_eq!(tree.root(), root);
    assert_eq!(tree.open(5, 0).unwrap(), opening);
}
