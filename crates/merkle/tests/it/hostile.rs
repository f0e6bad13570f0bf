//! Hostile sizes and shapes: every out-of-range size, index, cap height, cap length, sibling
//! count or row length that a file, a flag or a proof could carry is a typed error naming
//! what is wrong (never a panic, an overflow, a hang or a huge allocation). That `verify`
//! accepts only genuine openings is checked in `tampering`.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config;
use aurum_merkle::{
    BuildError, Commitment, Dimensions, MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH, Matrix, MatrixError,
    MerkleTree, OpenError, Opening, ShapeError, StreamError, StreamingCommitter, VerifyError,
    ZERO_DIGEST, verify,
};
use aurum_testing::values::seeded;

/// `2^63 + 1`, `2^64 − 1`, `2^48 + 1` (just above the limit) and friends.
const HUGE_HEIGHTS: [usize; 5] = [
    (1 << 63) + 1,
    usize::MAX,
    MAX_HEIGHT + 1,
    1 << 63,
    usize::MAX - 1,
];
const HUGE_CAP_HEIGHTS: [usize; 5] = [MAX_LOG_HEIGHT + 1, 63, 64, 65, usize::MAX];

pub(crate) fn dims(width: usize, height: usize) -> Dimensions {
    Dimensions { width, height }
}

#[test]
fn matrix_and_tree_arguments_out_of_range_are_typed_errors() {
    let config = config::poseidon2_w8();
    let data = seeded(32, 1);
    assert_eq!(Matrix::new(&data, 0).unwrap_err(), MatrixError::ZeroWidth);
    let err = Matrix::new(&data[..1], usize::MAX).unwrap_err();
    assert_eq!(
        err,
        MatrixError::RaggedLength {
            len: 1,
            width: usize::MAX
        }
    );
    assert!(
        err.to_string().contains("width 18446744073709551615"),
        "{err}"
    );
    // A hand-made error with width 0 still displays (no division by zero).
    assert!(
        !MatrixError::RaggedLength { len: 3, width: 0 }
            .to_string()
            .is_empty()
    );
    // An empty buffer is a matrix of height 0 at any width; a tree refuses it.
    let empty = Matrix::new(&[], usize::MAX).unwrap();
    assert_eq!(empty.height(), 0);
    assert_eq!(empty.row(0), None);
    assert!(matches!(
        MerkleTree::new(&config, vec![empty]),
        Err(BuildError::Shape(ShapeError::EmptyMatrix { matrix: 0 }))
    ));

    let m = Matrix::new(&data, 4).unwrap();
    assert_eq!(m.row(7), Some(&data[28..32]));
    for i in [8, usize::MAX / 4 + 1, usize::MAX] {
        assert_eq!(m.row(i), None, "row {i}");
    }
    let tree = MerkleTree::new(&config, vec![m]).unwrap();
    let depth = tree.shape().depth();
    assert_eq!(depth, 3);
    for cap_height in [depth + 1].into_iter().chain(HUGE_CAP_HEIGHTS) {
        let expected = OpenError::CapTooHigh { cap_height, depth };
        assert_eq!(tree.cap(cap_height), Err(expected));
        assert_eq!(tree.commitment(cap_height), Err(expected));
        assert_eq!(tree.open(0, cap_height), Err(expected));
        assert_eq!(tree.open_batch(&[0, 1], cap_height), Err(expected));
        assert_eq!(tree.shape().cap_size(cap_height), None);
        let msg = expected.to_string();
        assert!(msg.contains(&format!("cap height {cap_height}")), "{msg}");
    }
    for index in [8, 1 << 48, usize::MAX] {
        let expected = OpenError::IndexOutOfRange {
            index,
            max_height: 8,
        };
        assert_eq!(tree.open(index, 0), Err(expected));
        assert_eq!(tree.open_batch(&[3, index, 1], 1), Err(expected));
        assert!(
            expected
                .to_string()
                .contains(&format!("leaf index {index}"))
        );
    }
    assert_eq!(tree.layer(usize::MAX), None);
    for drop in [depth + 1, 64, usize::MAX] {
        let err = MerkleTree::with_dropped_layers(&config, vec![m], drop).unwrap_err();
        assert_eq!(
            err,
            BuildError::TooManyDroppedLayers {
                requested: drop,
                depth
            }
        );
        assert!(err.to_string().contains(&format!("drop {drop}")), "{err}");
    }
    // Dropping every layer below the root is allowed, and opening rebuilds them.
    let lean = MerkleTree::with_dropped_layers(&config, vec![m], depth).unwrap();
    assert_eq!(lean.open(5, 0), tree.open(5, 0));
}

#[test]
fn verify_rejects_hostile_dimensions_with_the_field_named() {
    let config = config::poseidon2_w8();
    let data = seeded(32, 2);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, 4).unwrap()]).unwrap();
    let commitment = tree.commitment(0).unwrap();
    let opening = tree.open(3, 0).unwrap();
    let good = tree.shape().dims().to_vec();
    assert_eq!(verify(&config, &commitment, &good, 3, &opening), Ok(()));

    let check = |dims: &[Dimensions], expected: ShapeError, field: &str| {
        let err = verify(&config, &commitment, dims, 3, &opening).unwrap_err();
        assert_eq!(err, VerifyError::InvalidDimensions(expected), "{dims:?}");
        let msg = err.to_string();
        assert!(msg.contains(field), "{msg} should name {field}");
    };
    for height in HUGE_HEIGHTS {
        check(
            &[dims(4, height)],
            ShapeError::HeightTooLarge { matrix: 0, height },
            &format!("height {height}"),
        );
        // Next to a valid matrix too, whichever is tallest.
        check(
            &[dims(4, 8), dims(1, height)],
            ShapeError::HeightTooLarge { matrix: 1, height },
            &format!("matrix 1 has height {height}"),
        );
    }
    check(
        &[dims(4, 0)],
        ShapeError::EmptyMatrix { matrix: 0 },
        "matrix 0 has no rows",
    );
    check(
        &[dims(0, 8)],
        ShapeError::ZeroWidth { matrix: 0 },
        "matrix 0 has width 0",
    );
    for width in [MAX_WIDTH + 1, usize::MAX] {
        check(
            &[dims(width, 8)],
            ShapeError::WidthTooLarge { matrix: 0, width },
            &format!("width {width}"),
        );
    }
    check(
        &[dims(MAX_WIDTH, 8), dims(1, 8)],
        ShapeError::TotalWidthTooLarge {
            matrix: 1,
            total: MAX_WIDTH + 1,
        },
        "matrices 0..=1",
    );
    check(&[], ShapeError::NoMatrices, "no matrices");

    // The largest supported height is a valid shape: the opening is simply not of it.
    let err = verify(&config, &commitment, &[dims(4, MAX_HEIGHT)], 3, &opening).unwrap_err();
    assert_eq!(
        err,
        VerifyError::WrongPathLength {
            expected: MAX_LOG_HEIGHT,
            found: 3
        }
    );
    let mut long = opening.clone();
    long.siblings.resize(MAX_LOG_HEIGHT, ZERO_DIGEST);
    for index in [0, MAX_HEIGHT - 1] {
        assert!(matches!(
            verify(&config, &commitment, &[dims(4, MAX_HEIGHT)], index, &long),
            Err(VerifyError::RootMismatch { cap_index: 0 })
        ));
    }
}

#[test]
fn verify_rejects_hostile_indices_caps_paths_and_rows() {
    let config = config::poseidon2_w8();
    let data = seeded(40, 3);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, 5).unwrap()]).unwrap();
    let commitment = tree.commitment(1).unwrap();
    let d = tree.shape().dims().to_vec();
    let opening = tree.open(6, 1).unwrap();
    assert_eq!(verify(&config, &commitment, &d, 6, &opening), Ok(()));

    for index in [8, MAX_HEIGHT, usize::MAX] {
        let err = verify(&config, &commitment, &d, index, &opening).unwrap_err();
        assert_eq!(
            err,
            VerifyError::IndexOutOfRange {
                index,
                max_height: 8
            }
        );
        assert!(err.to_string().contains(&format!("leaf index {index}")));
    }
    for len in [0, 3, 5, 9, 1 << 20] {
        let cap = Commitment {
            cap: vec![ZERO_DIGEST; len],
        };
        let err = verify(&config, &cap, &d, 6, &opening).unwrap_err();
        assert_eq!(err, VerifyError::InvalidCapLength { len });
        assert!(err.to_string().contains(&format!("cap of {len} digests")));
    }
    for siblings in [0, 1, 3, 64, 1 << 20] {
        let bad = Opening {
            siblings: vec![ZERO_DIGEST; siblings],
            ..opening.clone()
        };
        let err = verify(&config, &commitment, &d, 6, &bad).unwrap_err();
        assert_eq!(
            err,
            VerifyError::WrongPathLength {
                expected: 2,
                found: siblings
            }
        );
        assert!(err.to_string().contains(&format!("{siblings} digests")));
    }
    for rows in [0, 2, 1 << 16] {
        let bad = Opening {
            rows: vec![Vec::new(); rows],
            ..opening.clone()
        };
        assert_eq!(
            verify(&config, &commitment, &d, 6, &bad),
            Err(VerifyError::WrongNumberOfMatrices {
                expected: 1,
                found: rows
            })
        );
    }
    for len in [0, 4, 6, 1 << 20] {
        let bad = Opening {
            rows: vec![vec![Goldilocks::ONE; len]],
            ..opening.clone()
        };
        let err = verify(&config, &commitment, &d, 6, &bad).unwrap_err();
        assert_eq!(
            err,
            VerifyError::WrongRowWidth {
                matrix: 0,
                expected: 5,
                found: len
            }
        );
        assert!(err.to_string().contains("matrix 0"), "{err}");
    }
}

/// A million matrices of height 1 (all leaves of a one-leaf tree): checked in linear time, and
/// a matching opening is hashed once.
#[test]
fn verify_is_linear_in_the_number_of_matrices() {
    let config = config::poseidon2_w8();
    let n = 1 << 20;
    let many = vec![dims(1, 1); n];
    let commitment = Commitment {
        cap: vec![ZERO_DIGEST],
    };
    let opening = Opening {
        rows: vec![vec![Goldilocks::ONE]; n],
        siblings: Vec::new(),
    };
    assert!(matches!(
        verify(&config, &commitment, &many, 0, &opening),
        Err(VerifyError::RootMismatch { cap_index: 0 })
    ));
    let short = Opening {
        rows: vec![vec![Goldilocks::ONE]; n - 1],
        siblings: Vec::new(),
    };
    assert_eq!(
        verify(&config, &commitment, &many, 0, &short),
        Err(VerifyError::WrongNumberOfMatrices {
            expected: n,
            found: n - 1
        })
    );
}

/// Why the dimensions must be the verifier's: with plonky2's `hash_or_noop` leaves, a prover
/// who may pick them "opens" any root as a one-row tree whose row is the root itself.
#[test]
fn prover_chosen_dimensions_open_any_root() {
    let config = config::plonky2();
    let data = seeded(64, 4);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, 8).unwrap()]).unwrap();
    let commitment = tree.commitment(0).unwrap();
    let forged = Opening {
        rows: vec![tree.root().to_vec()],
        siblings: Vec::new(),
    };
    assert_eq!(
        verify(&config, &commitment, &[dims(4, 1)], 0, &forged),
        Ok(())
    );
    // Against the verifier's own dimensions the forgery fails.
    assert!(verify(&config, &commitment, tree.shape().dims(), 0, &forged).is_err());
}

#[test]
fn streaming_arguments_are_checked_up_front() {
    let config = config::poseidon2_w8();
    let new = |width, cap| StreamingCommitter::new(&config, width, cap).map(|_| ());
    let declared = |width, height, cap| {
        StreamingCommitter::with_height(&config, width, height, cap).map(|_| ())
    };
    let shape = |e: ShapeError| -> Result<(), StreamError> { Err(StreamError::Shape(e)) };
    assert_eq!(new(0, 0), shape(ShapeError::ZeroWidth { matrix: 0 }));
    assert_eq!(
        declared(0, 4, 0),
        shape(ShapeError::ZeroWidth { matrix: 0 })
    );
    for width in [MAX_WIDTH + 1, usize::MAX] {
        assert_eq!(
            new(width, 0),
            shape(ShapeError::WidthTooLarge { matrix: 0, width })
        );
        assert_eq!(
            declared(width, 4, 0),
            shape(ShapeError::WidthTooLarge { matrix: 0, width })
        );
    }
    // The largest width and height are accepted without allocating for them.
    assert_eq!(new(MAX_WIDTH, MAX_LOG_HEIGHT), Ok(()));
    assert_eq!(declared(MAX_WIDTH, MAX_HEIGHT, MAX_LOG_HEIGHT), Ok(()));
    for cap_height in HUGE_CAP_HEIGHTS {
        let err = StreamingCommitter::new(&config, 8, cap_height).unwrap_err();
        assert_eq!(
            err,
            StreamError::CapTooHigh {
                cap_height,
                depth: MAX_LOG_HEIGHT,
                height: MAX_HEIGHT
            }
        );
        assert!(
            err.to_string()
                .contains(&format!("cap height {cap_height}")),
            "{err}"
        );
        assert_eq!(
            declared(8, MAX_HEIGHT, cap_height),
            Err(StreamError::CapTooHigh {
                cap_height,
                depth: MAX_LOG_HEIGHT,
                height: MAX_HEIGHT
            })
        );
    }
    assert_eq!(
        declared(8, 0, 0),
        shape(ShapeError::EmptyMatrix { matrix: 0 })
    );
    for height in HUGE_HEIGHTS {
        let err = StreamingCommitter::with_height(&config, 8, height, 0).unwrap_err();
        assert_eq!(
            err,
            StreamError::Shape(ShapeError::HeightTooLarge { matrix: 0, height })
        );
        assert!(err.to_string().contains(&format!("height {height}")));
    }
    // A cap height the declared height cannot satisfy is refused before any row is read.
    let err = StreamingCommitter::with_height(&config, 8, 4, 3).unwrap_err();
    assert_eq!(
        err,
        StreamError::CapTooHigh {
            cap_height: 3,
            depth: 2,
            height: 4
        }
    );
    assert!(err.to_string().contains("cap height 3"), "{err}");
    assert_eq!(
        declared(8, 1, 1),
        Err(StreamError::CapTooHigh {
            cap_height: 1,
            depth: 0,
            height: 1
        })
    );
    assert_eq!(declared(8, 5, 3), Ok(()));
}

#[test]
fn streaming_row_counts_are_enforced() {
    let config = config::poseidon2_w8();
    let data = seeded(8, 7);
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, 2).unwrap()]).unwrap();

    let mut stream = StreamingCommitter::with_height(&config, 2, 4, 1).unwrap();
    stream.push_rows(&data[..6]).unwrap();
    let err = stream.push_rows(&data[..4]).unwrap_err();
    assert_eq!(
        err,
        StreamError::WrongRowCount {
            declared: 4,
            rows: 5
        }
    );
    assert!(err.to_string().contains("height 4"), "{err}");
    assert_eq!(stream.rows(), 3, "a refused push consumes nothing");
    assert_eq!(
        stream.push_rows(&data[..3]),
        Err(StreamError::Rows(MatrixError::RaggedLength {
            len: 3,
            width: 2
        }))
    );
    stream.push_rows(&data[6..]).unwrap();
    assert_eq!(stream.finish(), Ok(tree.commitment(1).unwrap()));

    for pushed in [0, 2, 6] {
        let mut stream = StreamingCommitter::with_height(&config, 2, 4, 0).unwrap();
        stream.push_rows(&data[..pushed]).unwrap();
        assert_eq!(
            stream.finish(),
            Err(StreamError::WrongRowCount {
                declared: 4,
                rows: pushed / 2
            })
        );
    }
    assert_eq!(
        StreamingCommitter::new(&config, 2, 0).unwrap().finish(),
        Err(StreamError::Shape(ShapeError::EmptyMatrix { matrix: 0 }))
    );
    // Without a declared height, the cap is checked against the rows at the end.
    let mut stream = StreamingCommitter::new(&config, 2, 3).unwrap();
    stream.push_rows(&data).unwrap();
    assert_eq!(
        stream.finish(),
        Err(StreamError::CapTooHigh {
            cap_height: 3,
            depth: 2,
            height: 4
        })
    );
}
