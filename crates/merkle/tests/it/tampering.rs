//! `verify` never panics, and accepts only genuine openings: garbage of every size, and every
//! mutation of one part of a genuine (commitment, dimensions, index, opening), is rejected with
//! the error that part calls for.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::{self, MerkleConfig};
use aurum_merkle::{
    Commitment, Digest, Dimensions, MAX_HEIGHT, MAX_LOG_HEIGHT, MAX_WIDTH, Matrix, MerkleTree,
    Opening, VerifyError, ZERO_DIGEST, verify,
};
use proptest::prelude::*;

use aurum_testing::shapes::height_ladder;
use aurum_testing::values::seeded;

use super::hostile::dims;

/// Sizes from small to absurd.
fn size() -> impl Strategy<Value = usize> {
    prop_oneof![
        4 => 0usize..20,
        1 => prop::sample::select(vec![
            MAX_HEIGHT - 1,
            MAX_HEIGHT,
            MAX_HEIGHT + 1,
            MAX_WIDTH,
            MAX_WIDTH + 1,
            1 << 63,
            (1 << 63) + 1,
            usize::MAX - 1,
            usize::MAX,
        ]),
        1 => any::<usize>(),
    ]
}

/// Dimensions: arbitrary, or on the height ladder (so that the checks after the shape's run
/// too), with heights up to the limit.
fn any_dims() -> impl Strategy<Value = Vec<Dimensions>> {
    let arbitrary = prop::collection::vec((size(), size()), 0..6).prop_map(|v| {
        v.into_iter()
            .map(|(width, height)| dims(width, height))
            .collect()
    });
    let ladder = (
        prop_oneof![
            1usize..100,
            Just(MAX_HEIGHT),
            Just(MAX_HEIGHT - 3),
            1usize..(1 << 40)
        ],
        prop::collection::vec((0usize..50, 0usize..10), 1..5),
    )
        .prop_map(|(max, specs)| {
            specs
                .into_iter()
                .map(|(k, width)| dims(width, ((max - 1) >> k) + 1))
                .collect()
        });
    prop_oneof![arbitrary, ladder]
}

fn any_digest() -> impl Strategy<Value = Digest> {
    any::<[u64; 4]>().prop_map(|d| d.map(Goldilocks::from_u64))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Garbage — arbitrary dimensions, index, cap, rows and siblings, lengths matching the
    /// dimensions or not — never panics and never verifies (accepting it would take a hash
    /// preimage).
    #[test]
    fn garbage_never_panics_and_never_verifies(
        dims in any_dims(),
        index in prop_oneof![0usize..64, any::<usize>()],
        cap_len in prop_oneof![0usize..9, Just(1 << 14)],
        cap_digest in any_digest(),
        siblings in prop_oneof![0usize..50, Just(MAX_LOG_HEIGHT), Just(1 << 14)],
        fit_rows in any::<bool>(),
        extra_rows in 0usize..3,
        seed in any::<u64>(),
    ) {
        let config = config::poseidon2_w8();
        let commitment = Commitment { cap: vec![cap_digest; cap_len] };
        let rows = dims
            .iter()
            .take(dims.len() + extra_rows)
            .map(|d| {
                let len = if fit_rows && d.width <= 64 { d.width } else { (seed % 7) as usize };
                seeded(len, seed)
            })
            .chain((0..extra_rows).map(|_| Vec::new()))
            .collect();
        let opening = Opening { rows, siblings: vec![cap_digest; siblings] };
        prop_assert!(verify(&config, &commitment, &dims, index, &opening).is_err());
    }
}

/// A mutation of one part of a genuine (commitment, dims, index, opening).
#[derive(Clone, Debug)]
enum Mutation {
    RowValue(usize, usize),
    RowLonger(usize),
    RowShorter(usize),
    MissingRow,
    ExtraRow,
    SiblingValue(usize),
    SiblingMissing,
    SiblingsExtra(usize),
    CapEntry,
    CapLength(usize),
    Index(usize),
    DimsWidth(usize, usize),
    DimsHeight(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(m, k)| Mutation::RowValue(m, k)),
        any::<usize>().prop_map(Mutation::RowLonger),
        any::<usize>().prop_map(Mutation::RowShorter),
        Just(Mutation::MissingRow),
        Just(Mutation::ExtraRow),
        any::<usize>().prop_map(Mutation::SiblingValue),
        Just(Mutation::SiblingMissing),
        prop_oneof![1usize..4, Just(1 << 12)].prop_map(Mutation::SiblingsExtra),
        Just(Mutation::CapEntry),
        prop_oneof![0usize..40, Just(1 << 12)].prop_map(Mutation::CapLength),
        prop_oneof![any::<usize>(), 0usize..200].prop_map(Mutation::Index),
        (any::<usize>(), size()).prop_map(|(m, w)| Mutation::DimsWidth(m, w)),
        (any::<usize>(), size()).prop_map(|(m, h)| Mutation::DimsHeight(m, h)),
    ]
}

/// Matrices on the height ladder `⌈max / 2^k⌉` with random widths.
fn small_shapes() -> impl Strategy<Value = Vec<(usize, usize)>> {
    height_ladder(5, 1..10, 1..5)
}

/// Builds the tree, checks that the genuine opening verifies, applies the mutation and checks
/// that verify rejects it with the error that mutation calls for.
fn check_mutation<C: MerkleConfig>(
    config: &C,
    shape: &[(usize, usize)],
    cap_pick: usize,
    index_pick: usize,
    mutation: &Mutation,
) -> Result<(), TestCaseError> {
    let data: Vec<Vec<Goldilocks>> = shape
        .iter()
        .enumerate()
        .map(|(m, &(h, w))| seeded(h * w, 1000 + m as u64))
        .collect();
    let matrices = data
        .iter()
        .zip(shape)
        .map(|(v, &(_, w))| Matrix::new(v, w).unwrap())
        .collect();
    let tree = MerkleTree::new(config, matrices).unwrap();
    let tree_shape = tree.shape();
    let max = tree_shape.max_height();
    // Only caps that bind every matrix make genuine commitments to all the rows.
    let cap_height = cap_pick.min(max_binding_cap_height(tree_shape));
    let path_len = tree_shape.depth() - cap_height;
    let index = index_pick % max;
    let commitment = tree.commitment(cap_height).unwrap();
    let good_dims = tree_shape.dims().to_vec();
    let good = tree.open(index, cap_height).unwrap();
    let genuine = verify(config, &commitment, &good_dims, index, &good);
    let (mut c, mut d, mut i, mut o) = (commitment.clone(), good_dims.clone(), index, good.clone());
    let n = good.rows.len();
    let result =
        |c: &Commitment, d: &[Dimensions], i: usize, o: &Opening| verify(config, c, d, i, o);
    prop_assert_eq!(genuine, Ok(()));
    match *mutation {
        Mutation::RowValue(m, k) => {
            let m = m % n;
            let k = k % o.rows[m].len();
            o.rows[m][k] += Goldilocks::ONE;
            let r = result(&c, &d, i, &o);
            prop_assert!(
                matches!(r, Err(VerifyError::RootMismatch { .. })),
                "{:?}",
                r
            );
        }
        Mutation::RowLonger(m) | Mutation::RowShorter(m) => {
            let m = m % n;
            if matches!(mutation, Mutation::RowLonger(_)) {
                o.rows[m].push(Goldilocks::ZERO);
            } else {
                o.rows[m].pop();
            }
            let expected = VerifyError::WrongRowWidth {
                matrix: m,
                expected: d[m].width,
                found: o.rows[m].len(),
            };
            prop_assert_eq!(result(&c, &d, i, &o), Err(expected));
        }
        Mutation::MissingRow | Mutation::ExtraRow => {
            if matches!(mutation, Mutation::MissingRow) {
                o.rows.pop();
            } else {
                o.rows.push(o.rows[0].clone());
            }
            let expected = VerifyError::WrongNumberOfMatrices {
                expected: n,
                found: o.rows.len(),
            };
            prop_assert_eq!(result(&c, &d, i, &o), Err(expected));
        }
        Mutation::SiblingValue(j) => {
            if path_len == 0 {
                return Ok(());
            }
            o.siblings[j % path_len][j % 4] += Goldilocks::ONE;
            let r = result(&c, &d, i, &o);
            prop_assert!(
                matches!(r, Err(VerifyError::RootMismatch { .. })),
                "{:?}",
                r
            );
        }
        Mutation::SiblingMissing | Mutation::SiblingsExtra(_) => {
            match *mutation {
                Mutation::SiblingsExtra(extra) => o.siblings.extend(vec![ZERO_DIGEST; extra]),
                _ if path_len == 0 => return Ok(()),
                _ => {
                    o.siblings.pop();
                }
            }
            let expected = VerifyError::WrongPathLength {
                expected: path_len,
                found: o.siblings.len(),
            };
            prop_assert_eq!(result(&c, &d, i, &o), Err(expected));
        }
        Mutation::CapEntry => {
            let position = index >> path_len;
            c.cap[position][0] += Goldilocks::ONE;
            prop_assert_eq!(
                result(&c, &d, i, &o),
                Err(VerifyError::RootMismatch {
                    cap_index: position
                })
            );
        }
        Mutation::CapLength(len) => {
            if len == c.cap.len() {
                return Ok(());
            }
            c.cap.resize(len, ZERO_DIGEST);
            let r = result(&c, &d, i, &o);
            if (0..=tree_shape.depth()).any(|h| tree_shape.cap_size(h) == Some(len)) {
                // The length of another cap height: the path has the wrong length for it
                // (or the cap leaves a matrix out).
                prop_assert!(r.is_err(), "{:?}", r);
            } else {
                prop_assert_eq!(r, Err(VerifyError::InvalidCapLength { len }));
            }
        }
        Mutation::Index(j) => {
            if j == index {
                return Ok(());
            }
            i = j;
            let r = result(&c, &d, i, &o);
            if j >= max {
                prop_assert_eq!(
                    r,
                    Err(VerifyError::IndexOutOfRange {
                        index: j,
                        max_height: max
                    })
                );
            } else {
                // The same leaf placed at another position: some level puts it on the other
                // side of its sibling, or the path ends at another cap entry.
                prop_assert!(
                    matches!(r, Err(VerifyError::RootMismatch { .. })),
                    "{:?}",
                    r
                );
            }
        }
        Mutation::DimsWidth(m, width) => {
            let m = m % n;
            if width == d[m].width {
                return Ok(());
            }
            d[m].width = width;
            let r = result(&c, &d, i, &o);
            prop_assert!(
                matches!(
                    r,
                    Err(VerifyError::WrongRowWidth { .. } | VerifyError::InvalidDimensions(_))
                ),
                "{:?}",
                r
            );
        }
        Mutation::DimsHeight(m, height) => {
            let m = m % n;
            d[m].height = height;
            let r = result(&c, &d, i, &o);
            if height == 0 || height > MAX_HEIGHT {
                prop_assert!(
                    matches!(r, Err(VerifyError::InvalidDimensions(_))),
                    "{:?}",
                    r
                );
            }
            // Other heights may describe a tree in which this opening is still genuine
            // (the same rows at the same leaf: e.g. 5 rows read as 6, the sixth leaf being
            // padding either way): only the absence of a panic is checked.
        }
    }
    Ok(())
}

/// The largest cap height whose cap depends on every matrix, from the definition: a matrix of
/// height `h` joins the tree at layer `⌈log₂ max⌉ − ⌈log₂ h⌉` (the leaves are layer 0), and a
/// cap of height `c` is layer `depth − c`. A higher cap does not depend on the rows of the
/// matrices joining above it, so it is no commitment to them.
fn max_binding_cap_height(shape: &aurum_merkle::TreeShape) -> usize {
    let log = |h: usize| h.next_power_of_two().trailing_zeros() as usize;
    let max = shape.max_height();
    let highest_join = shape
        .dims()
        .iter()
        .map(|d| log(max) - log(d.height))
        .max()
        .expect("at least one matrix");
    shape.depth() - highest_join
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn only_genuine_openings_verify(
        shape in small_shapes(),
        cap_pick in 0usize..8,
        index_pick in any::<usize>(),
        mutation in mutation(),
    ) {
        check_mutation(&config::poseidon2_w8(), &shape, cap_pick, index_pick, &mutation)?;
    }

    // plonky2's leaves of at most four elements are copied, not hashed: no mutation may slip
    // through that either.
    #[test]
    fn only_genuine_openings_verify_plonky2(
        shape in small_shapes(),
        cap_pick in 0usize..8,
        index_pick in any::<usize>(),
        mutation in mutation(),
    ) {
        check_mutation(&config::plonky2(), &shape, cap_pick, index_pick, &mutation)?;
    }
}
