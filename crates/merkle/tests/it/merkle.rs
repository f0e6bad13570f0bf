//! Trees: openings verify, every tampering is rejected with the right error, streaming and
//! dropped-layer trees equal the in-memory tree, and a naive recursive definition agrees.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::{self, Poseidon2W8};
use aurum_merkle::{
    Commitment, Digest, Dimensions, Matrix, MerkleConfig, MerkleTree, OpenError, OverlapError,
    Stopped, StreamError, StreamingCommitter, VerifyError, ZERO_DIGEST, root_from_cap, verify,
};
use aurum_symmetric::{Compressor, Hasher};
use aurum_testing::shapes::height_ladder;
use aurum_testing::values::seeded;
use proptest::prelude::*;

/// Matrices on the height ladder `⌈max / 2^k⌉`, in a shuffled order, with random widths.
fn shapes() -> impl Strategy<Value = Vec<(usize, usize)>> {
    height_ladder(4, 1..12, 1..5)
}

fn build<'a>(data: &'a [Vec<Goldilocks>], shape: &[(usize, usize)]) -> Vec<Matrix<'a>> {
    data.iter()
        .zip(shape)
        .map(|(v, &(_, w))| Matrix::new(v, w).unwrap())
        .collect()
}

fn data_for(shape: &[(usize, usize)]) -> Vec<Vec<Goldilocks>> {
    shape
        .iter()
        .enumerate()
        .map(|(m, &(h, w))| seeded(h * w, m as u64))
        .collect()
}

/// The tree by its definition (shape docs), with scalar hashing and recursion only.
fn naive_root<C: MerkleConfig>(
    config: &C,
    data: &[Vec<Goldilocks>],
    shape: &[(usize, usize)],
) -> Digest {
    let max = shape.iter().map(|s| s.0).max().unwrap();
    let mut order: Vec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&m| core::cmp::Reverse(shape[m].0));
    let row = |m: usize, i: usize| &data[m][i * shape[m].1..(i + 1) * shape[m].1];
    let hash_rows = |ms: &[usize], i: usize| -> Digest {
        let concat: Vec<Goldilocks> = ms.iter().flat_map(|&m| row(m, i).to_vec()).collect();
        config.leaf().hash(&concat)
    };
    let tallest: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&m| shape[m].0 == max)
        .collect();
    let mut rest: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&m| shape[m].0 != max)
        .collect();
    let mut layer: Vec<Digest> = (0..max).map(|i| hash_rows(&tallest, i)).collect();
    if layer.len() > 1 && layer.len() % 2 == 1 {
        layer.push(ZERO_DIGEST);
    }
    while layer.len() > 1 {
        let raw = layer.len() / 2;
        let target = raw.next_power_of_two();
        let injected: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&m| shape[m].0.next_power_of_two() == target)
            .collect();
        rest.retain(|m| !injected.contains(m));
        let mut next: Vec<Digest> = (0..raw)
            .map(|i| {
                let parent = config.node().compress([layer[2 * i], layer[2 * i + 1]]);
                if injected.is_empty() {
                    parent
                } else if i < shape[injected[0]].0 {
                    config.node().compress([parent, hash_rows(&injected, i)])
                } else {
                    config.node().compress([parent, ZERO_DIGEST])
                }
            })
            .collect();
        if next.len() > 1 && next.len() % 2 == 1 {
            next.push(ZERO_DIGEST);
        }
        layer = next;
    }
    assert!(rest.is_empty());
    layer[0]
}

/// The tree under `config` equals the naive definition, its openings verify, and dropping
/// layers changes nothing observable.
fn check_tree<C: MerkleConfig>(
    config: &C,
    shape: &[(usize, usize)],
    cap_pick: usize,
) -> Result<(), TestCaseError> {
    let data = data_for(shape);
    let tree = MerkleTree::new(config, build(&data, shape)).unwrap();
    prop_assert_eq!(tree.root(), naive_root(config, &data, shape));
    let cap_height = cap_pick.min(tree.shape().max_cap_height());
    let commitment = tree.commitment(cap_height).unwrap();
    let dims = tree.shape().dims().to_vec();
    let max = tree.shape().max_height();
    for index in (0..max).step_by((max / 7).max(1)) {
        let opening = tree.open(index, cap_height).unwrap();
        for (m, row) in opening.rows.iter().enumerate() {
            let (h, w) = shape[m];
            let r = index
                >> (max.next_power_of_two().trailing_zeros()
                    - h.next_power_of_two().trailing_zeros());
            prop_assert_eq!(row.as_slice(), &data[m][r * w..(r + 1) * w]);
        }
        prop_assert_eq!(verify(config, &commitment, &dims, index, &opening), Ok(()));
    }
    // A matrix's rows affect the layers from the one where it joins up: changing one value
    // of each matrix in turn finds that layer independently of `TreeShape`. A cap commits to
    // every matrix exactly when it lies at or above all of those layers.
    let depth = tree.shape().depth();
    let mut highest_join = 0;
    for m in 0..shape.len() {
        let mut changed = data.clone();
        changed[m][0] += Goldilocks::ONE;
        let other = MerkleTree::new(config, build(&changed, shape)).unwrap();
        let join = (0..=depth)
            .find(|&j| other.layer(j) != tree.layer(j))
            .unwrap();
        highest_join = highest_join.max(join);
    }
    prop_assert_eq!(tree.shape().max_cap_height(), depth - highest_join);
    // Every cap that commits to all matrices leads back to the root; a lower one is refused
    // by the tree, `root_from_cap` and `verify`.
    for h in 0..=depth {
        let layer = tree.layer(depth - h).unwrap().to_vec();
        if h <= tree.shape().max_cap_height() {
            let cap = tree.cap(h).unwrap();
            prop_assert_eq!(&cap, &layer);
            prop_assert_eq!(
                root_from_cap(config, tree.shape(), h, &cap),
                Ok(tree.root())
            );
            let mut longer = cap.clone();
            longer.push(ZERO_DIGEST);
            prop_assert!(root_from_cap(config, tree.shape(), h, &longer).is_err());
        } else {
            let below = OpenError::CapBelowMatrices {
                cap_height: h,
                max_cap_height: tree.shape().max_cap_height(),
            };
            prop_assert_eq!(tree.cap(h), Err(below));
            prop_assert_eq!(tree.open(0, h), Err(below));
            let refused = VerifyError::MatricesAboveCap { cap_height: h };
            prop_assert_eq!(
                root_from_cap(config, tree.shape(), h, &layer),
                Err(refused.clone())
            );
            let low = tree.open(0, 0).unwrap();
            let opening = aurum_merkle::Opening {
                rows: low.rows,
                siblings: low.siblings[..depth - h].to_vec(),
            };
            let commitment = Commitment { cap: layer };
            prop_assert_eq!(
                verify(config, &commitment, &dims, 0, &opening),
                Err(refused)
            );
        }
    }
    prop_assert_eq!(
        root_from_cap(config, tree.shape(), depth + 1, &[tree.root()]),
        Err(VerifyError::CapHeightTooLarge {
            cap_height: depth + 1,
            depth
        })
    );
    // Dropping layers changes storage, never answers.
    let drop = tree.shape().depth().min(cap_pick + 1);
    let lean = MerkleTree::with_dropped_layers(config, build(&data, shape), drop).unwrap();
    prop_assert_eq!(lean.root(), tree.root());
    prop_assert_eq!(lean.cap(cap_height).unwrap(), tree.cap(cap_height).unwrap());
    let indices: Vec<usize> = (0..max).rev().step_by(3).collect();
    prop_assert_eq!(
        lean.open_batch(&indices, cap_height).unwrap(),
        tree.open_batch(&indices, cap_height).unwrap()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tree_matches_definition_and_openings_verify(shape in shapes(), cap_pick in 0usize..8) {
        check_tree(&config::poseidon2_w8(), &shape, cap_pick)?;
    }

    // The Poseidon presets: leaves of at most four elements are copied, not hashed, and
    // Polygon's `linear_hash` chains blocks differently from a sponge; both must still obey
    // the same tree definition.
    #[test]
    fn plonky2_and_polygon_trees_match_definition(shape in shapes(), cap_pick in 0usize..8) {
        check_tree(&config::plonky2(), &shape, cap_pick)?;
        check_tree(&config::polygon(), &shape, cap_pick)?;
    }

    #[test]
    fn streaming_equals_in_memory(height in 1usize..300, width in 1usize..9, cap_pick in 0usize..9) {
        let config = config::poseidon2_w8();
        let data = seeded(height * width, 7);
        let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
        let cap_height = cap_pick.min(tree.shape().depth());
        let mut stream = StreamingCommitter::new(&config, width, cap_height).unwrap();
        let mut declared = StreamingCommitter::with_height(&config, width, height, cap_height).unwrap();
        // Feed in uneven pieces of whole rows.
        for piece in data.chunks(width * 7) {
            stream.push_rows(piece).unwrap();
            declared.push_rows(piece).unwrap();
        }
        prop_assert_eq!(stream.finish().unwrap(), tree.commitment(cap_height).unwrap());
        prop_assert_eq!(declared.finish().unwrap(), tree.commitment(cap_height).unwrap());
    }
}

#[test]
fn streaming_over_many_chunks() {
    // Rows of width 64 make 2^14-row chunks: 3.5 chunks exercise the bulk and the tail paths.
    let config = config::poseidon2_w8();
    let (width, height) = (64, 3 * (1 << 14) + (1 << 13) + 5);
    let data = seeded(height * width, 3);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
    for cap_height in [0, 1, 4, 16] {
        let mut stream = StreamingCommitter::new(&config, width, cap_height).unwrap();
        let mut declared =
            StreamingCommitter::with_height(&config, width, height, cap_height).unwrap();
        for piece in data.chunks(width * 1000) {
            stream.push_rows(piece).unwrap();
            declared.push_rows(piece).unwrap();
        }
        assert_eq!(
            stream.finish().unwrap(),
            tree.commitment(cap_height).unwrap(),
            "cap {cap_height}"
        );
        assert_eq!(
            declared.finish().unwrap(),
            tree.commitment(cap_height).unwrap(),
            "declared, cap {cap_height}"
        );
    }
}

fn sample_tree(config: &Poseidon2W8) -> (Vec<Vec<Goldilocks>>, Vec<(usize, usize)>) {
    let _ = config;
    let shape = vec![(16, 5), (8, 3), (16, 2), (4, 7)];
    (data_for(&shape), shape)
}

#[test]
fn every_tampering_is_rejected_with_its_error() {
    let config = config::poseidon2_w8();
    let (data, shape) = sample_tree(&config);
    let tree = MerkleTree::new(&config, build(&data, &shape)).unwrap();
    let commitment = tree.commitment(1).unwrap();
    let dims = tree.shape().dims().to_vec();
    let index = 11;
    let good = tree.open(index, 1).unwrap();
    assert_eq!(verify(&config, &commitment, &dims, index, &good), Ok(()));

    // A changed value anywhere in any opened row.
    for m in 0..good.rows.len() {
        for k in 0..good.rows[m].len() {
            let mut bad = good.clone();
            bad.rows[m][k] += Goldilocks::ONE;
            assert!(matches!(
                verify(&config, &commitment, &dims, index, &bad),
                Err(VerifyError::RootMismatch { .. })
            ));
        }
    }
    // A changed sibling.
    for j in 0..good.siblings.len() {
        let mut bad = good.clone();
        bad.siblings[j][2] += Goldilocks::ONE;
        assert!(matches!(
            verify(&config, &commitment, &dims, index, &bad),
            Err(VerifyError::RootMismatch { .. })
        ));
    }
    // The proof of one index presented for another.
    assert!(matches!(
        verify(&config, &commitment, &dims, index ^ 1, &good),
        Err(VerifyError::RootMismatch { .. })
    ));
    assert_eq!(
        verify(&config, &commitment, &dims, 16, &good),
        Err(VerifyError::IndexOutOfRange {
            index: 16,
            max_height: 16
        })
    );
    // A row of the wrong width (even one padded with a zero).
    let mut bad = good.clone();
    bad.rows[1].push(Goldilocks::ZERO);
    assert_eq!(
        verify(&config, &commitment, &dims, index, &bad),
        Err(VerifyError::WrongRowWidth {
            matrix: 1,
            expected: 3,
            found: 4
        })
    );
    let mut bad = good.clone();
    bad.rows[3].pop();
    assert_eq!(
        verify(&config, &commitment, &dims, index, &bad),
        Err(VerifyError::WrongRowWidth {
            matrix: 3,
            expected: 7,
            found: 6
        })
    );
    // Missing or extra matrices.
    let mut bad = good.clone();
    bad.rows.pop();
    assert_eq!(
        verify(&config, &commitment, &dims, index, &bad),
        Err(VerifyError::WrongNumberOfMatrices {
            expected: 4,
            found: 3
        })
    );
    // Path too short or too long.
    let mut bad = good.clone();
    bad.siblings.pop();
    assert_eq!(
        verify(&config, &commitment, &dims, index, &bad),
        Err(VerifyError::WrongPathLength {
            expected: 3,
            found: 2
        })
    );
    let mut bad = good.clone();
    bad.siblings.push(ZERO_DIGEST);
    assert_eq!(
        verify(&config, &commitment, &dims, index, &bad),
        Err(VerifyError::WrongPathLength {
            expected: 3,
            found: 4
        })
    );
    // A cap of an impossible size, and a cap that is not this tree's.
    let bad_cap = Commitment {
        cap: vec![ZERO_DIGEST; 3],
    };
    assert_eq!(
        verify(&config, &bad_cap, &dims, index, &good),
        Err(VerifyError::InvalidCapLength { len: 3 })
    );
    let mut other = commitment.clone();
    other.cap[1][0] += Goldilocks::ONE;
    assert!(matches!(
        verify(&config, &other, &dims, index, &good),
        Err(VerifyError::RootMismatch { cap_index: 1 })
    ));
    // Dimensions that cannot form a tree.
    let mut bad_dims = dims.clone();
    bad_dims[3].height = 3;
    assert!(matches!(
        verify(&config, &commitment, &bad_dims, index, &good),
        Err(VerifyError::InvalidDimensions(_))
    ));
    // Every error explains itself.
    let msg = VerifyError::WrongRowWidth {
        matrix: 1,
        expected: 3,
        found: 4,
    }
    .to_string();
    assert!(msg.contains("matrix 1") && msg.contains("width 3"), "{msg}");
}

#[test]
fn bad_requests_are_errors_not_panics() {
    let config = config::poseidon2_w8();
    let data = seeded(40, 1);
    assert!(Matrix::new(&data, 0).is_err());
    assert!(Matrix::new(&data, 3).is_err());
    let m8 = Matrix::new(&data[..32], 8).unwrap();
    let m3 = Matrix::new(&data[..6], 3).unwrap();
    assert!(MerkleTree::new(&config, vec![]).is_err());
    assert!(MerkleTree::new(&config, vec![m8, m3]).is_ok());
    let m5 = Matrix::new(&data[..15], 5).unwrap();
    let err = MerkleTree::new(&config, vec![Matrix::new(&data[..40], 5).unwrap(), m5]).unwrap_err();
    assert!(err.to_string().contains("height 3"), "{err}");
    let tree = MerkleTree::new(&config, vec![m8]).unwrap();
    assert_eq!(
        tree.open(4, 0),
        Err(OpenError::IndexOutOfRange {
            index: 4,
            max_height: 4
        })
    );
    assert_eq!(
        tree.cap(3),
        Err(OpenError::CapTooHigh {
            cap_height: 3,
            depth: 2
        })
    );
    assert!(MerkleTree::with_dropped_layers(&config, vec![m8], 3).is_err());
    let mut stream = StreamingCommitter::new(&config, 8, 0).unwrap();
    assert!(stream.push_rows(&data[..12]).is_err());
    assert!(
        StreamingCommitter::new(&config, 8, 0)
            .unwrap()
            .finish()
            .is_err()
    );
    let mut stream = StreamingCommitter::new(&config, 8, 5).unwrap();
    stream.push_rows(&data[..32]).unwrap();
    assert!(stream.finish().is_err());
}

#[test]
fn commitments_and_openings_round_trip_through_serde() {
    let config = config::poseidon2_w8();
    let (data, shape) = sample_tree(&config);
    let tree = MerkleTree::new(&config, build(&data, &shape)).unwrap();
    let commitment = tree.commitment(2).unwrap();
    let opening = tree.open(5, 2).unwrap();
    let c: Commitment = serde_json::from_str(&serde_json::to_string(&commitment).unwrap()).unwrap();
    let o: aurum_merkle::Opening =
        serde_json::from_str(&serde_json::to_string(&opening).unwrap()).unwrap();
    assert_eq!((c, o), (commitment, opening));
    let dims: Vec<Dimensions> =
        serde_json::from_str(&serde_json::to_string(&tree.shape().dims()).unwrap()).unwrap();
    assert_eq!(dims, tree.shape().dims());
    // Malformed input is an error: truncated, wrong types, non-canonical values.
    for bad in [
        "{\"cap\":[[1,2,3]]}",
        "{\"cap\":[[1,2,3,18446744069414584321]]}",
        "{\"cap\":\"x\"}",
        "{\"rows\":[[1]],\"siblings\":[[1,2]]}",
        "{",
        "",
    ] {
        assert!(
            serde_json::from_str::<Commitment>(bad).is_err()
                && serde_json::from_str::<aurum_merkle::Opening>(bad).is_err(),
            "{bad}"
        );
    }
}

/// Polygon zkProver's Merkle test vector (`MerkleTreeGL` with Poseidon `linear_hash` leaves):
/// 128 columns × 64 rows, rows 0 and 1 are `[1, …, 128]`, every later row is the elementwise
/// sum of the two before it (Fibonacci growth, so values wrap mod p and exercise reduction).
#[test]
fn polygon_preset_reproduces_zkprovers_root() {
    const COLS: usize = 128;
    const ROWS: usize = 64;
    let mut values = Vec::with_capacity(COLS * ROWS);
    for j in 0..ROWS {
        for c in 0..COLS {
            let v = if j < 2 {
                Goldilocks::from_u64(c as u64 + 1)
            } else {
                values[(j - 2) * COLS + c] + values[(j - 1) * COLS + c]
            };
            values.push(v);
        }
    }
    let config = aurum_merkle::config::polygon();
    let tree = MerkleTree::new(&config, vec![Matrix::new(&values, COLS).unwrap()]).unwrap();
    let expected = [
        0x918f7cd0c3e8701f,
        0x83a130e00f961b02,
        0x6921497b364123f8,
        0xbd2b98a57b748bf4,
    ];
    assert_eq!(tree.root().map(|x| x.as_canonical_u64()), expected);

    // The streaming builder gives the same root, and openings verify under this preset.
    let mut stream = StreamingCommitter::new(&config, COLS, 0).unwrap();
    stream.push_rows(&values).unwrap();
    assert_eq!(stream.finish().unwrap().cap, vec![tree.root()]);
    let opening = tree.open(37, 0).unwrap();
    verify(
        &config,
        &tree.commitment(0).unwrap(),
        tree.shape().dims(),
        37,
        &opening,
    )
    .unwrap();
}

/// Rows pushed from a second thread (`push_overlapped`), in pieces that straddle chunk
/// boundaries and of whole chunks (hashed without a copy), give the in-memory commitment.
#[test]
fn overlapped_pushes_equal_in_memory() {
    let config = config::poseidon2_w8();
    let (width, height) = (64, 3 * (1 << 14) + 777);
    let data = seeded(height * width, 5);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
    for piece_rows in [1, 1000, 1 << 14, 3 << 13, height] {
        let mut stream = StreamingCommitter::with_height(&config, width, height, 2).unwrap();
        stream
            .push_overlapped(|sink| {
                for piece in data.chunks(width * piece_rows) {
                    sink.push(piece)?;
                }
                Ok::<(), Stopped>(())
            })
            .unwrap();
        assert_eq!(stream.rows(), height);
        assert_eq!(
            stream.finish().unwrap(),
            tree.commitment(2).unwrap(),
            "pieces of {piece_rows} rows"
        );
    }
}

#[test]
fn overlapped_errors_stop_both_sides() {
    let config = config::poseidon2_w8();
    let width = 64;
    let data = seeded((1 << 16) * width, 9);
    // The producer's error is returned as such.
    let mut stream = StreamingCommitter::new(&config, width, 0).unwrap();
    let err = stream
        .push_overlapped(|sink| {
            sink.push(&data[..width * 10]).map_err(|_| "stopped")?;
            Err("disk on fire")
        })
        .unwrap_err();
    assert_eq!(err, OverlapError::Producer("disk on fire"));
    // More rows than declared: the committer refuses them, and the producer, which would
    // otherwise push for ever, is told to stop.
    let mut stream = StreamingCommitter::with_height(&config, width, 1 << 14, 0).unwrap();
    let mut stopped = false;
    let err = stream
        .push_overlapped(|sink| {
            loop {
                if sink.push(&data).is_err() {
                    stopped = true;
                    return Ok::<(), ()>(());
                }
            }
        })
        .unwrap_err();
    assert!(stopped, "the producer saw Stopped");
    assert!(
        matches!(
            err,
            OverlapError::Stream(StreamError::WrongRowCount { declared, .. }) if declared == 1 << 14
        ),
        "{err:?}"
    );
    // Values that are not whole rows are refused at the end (the sink takes any count).
    let mut stream = StreamingCommitter::new(&config, width, 0).unwrap();
    let err = stream
        .push_overlapped(|sink| sink.push(&data[..width + 1]))
        .unwrap_err();
    assert!(
        matches!(err, OverlapError::Stream(StreamError::Rows(_))),
        "{err:?}"
    );
}

/// Each preset's configuration is recognised as that preset, under any name (one named like
/// another preset is the one it computes); one with other round constants is none.
#[test]
fn presets_are_recognised_by_their_answers() {
    use aurum_merkle::{Preset, with_preset};
    for preset in Preset::ALL {
        assert_eq!(with_preset!(preset, |c| Preset::of(&c)), Some(preset));
    }
    let impostor = config::Config::new(
        "plonky2",
        config::poseidon2_w12().leaf().clone(),
        config::poseidon2_w12().node().clone(),
    );
    // Named plonky2, computing poseidon2-w12: it is what it computes.
    assert_eq!(Preset::of(&impostor), Some(Preset::Poseidon2W12));
    let renamed = config::Config::new(
        "mine",
        config::poseidon2_w8().leaf().clone(),
        config::poseidon2_w8().node().clone(),
    );
    assert_eq!(Preset::of(&renamed), Some(Preset::Poseidon2W8));
    // Poseidon2 of width 8 with other round constants.
    let mut constants = aurum_poseidon2::Poseidon2Goldilocks::<8>::new()
        .constants()
        .clone();
    constants.internal[3] += Goldilocks::ONE;
    let other = aurum_poseidon2::Poseidon2Goldilocks::<8>::with_constants(constants);
    let other = config::Config::new(
        "poseidon2-w8",
        aurum_symmetric::PaddingFreeSponge::<_, 8, 4, 4>::new(other.clone()),
        aurum_symmetric::TruncatedPermutation::<_, 8, 4>::new(other),
    );
    assert_eq!(Preset::of(&other), None);
}

/// Layers computed elsewhere, the lowest left out, re-attach like a dropped-layer tree's own:
/// the same openings; wrong layer counts or lengths are refused.
#[test]
fn layers_above_a_dropped_one_reattach() {
    let c = config::poseidon2_w8();
    let shape = [(64usize, 3usize), (32, 2)];
    let data = data_for(&shape);
    let full = MerkleTree::new(&c, build(&data, &shape)).unwrap();
    let dropped = MerkleTree::with_dropped_layers(&c, build(&data, &shape), 1).unwrap();
    let tree_shape = full.shape().clone();
    let upper: Vec<Vec<Digest>> = (1..tree_shape.num_layers())
        .map(|j| full.layer(j).unwrap().to_vec())
        .collect();
    let digests =
        aurum_merkle::TreeDigests::from_layers_above(tree_shape.clone(), 1, upper.clone()).unwrap();
    let attached = MerkleTree::from_digests(&c, build(&data, &shape), &digests).unwrap();
    assert!(attached.layer(0).is_none());
    for index in [0, 17, 63] {
        assert_eq!(
            attached.open(index, 0).unwrap(),
            dropped.open(index, 0).unwrap()
        );
    }
    assert!(
        aurum_merkle::TreeDigests::from_layers_above(tree_shape.clone(), 0, upper.clone())
            .is_none()
    );
    assert!(
        aurum_merkle::TreeDigests::from_layers_above(tree_shape, 2, upper[1..].to_vec()).is_some()
    );
}
