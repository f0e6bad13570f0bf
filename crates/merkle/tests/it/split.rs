//! Split commitments: the parts' nodes, completed at the top, give the in-memory tree's root
//! and cap for every preset, height, part count and cap height; plans cover the rows with
//! aligned ranges; inconsistent inputs are typed errors.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{
    Digest, Matrix, MerkleConfig, MerkleTree, PartCommitter, Preset, SplitError, SplitPlan,
    StreamError, ZERO_DIGEST, config,
};
use aurum_testing::values::seeded;
use proptest::prelude::*;

/// Runs `$body` with `$config` bound to each preset's configuration in turn.
macro_rules! for_each_preset {
    (|$config:ident| $body:expr) => {
        for preset in Preset::ALL {
            aurum_merkle::with_preset!(preset, |$config| $body)
        }
    };
}

/// Commits every part of `plan` separately (rows pushed in pieces of `piece` rows), packs
/// the nodes into fixed-size slots as a gather would, and completes the top.
fn split_commit<C: MerkleConfig>(
    config: &C,
    plan: &SplitPlan,
    data: &[Goldilocks],
    width: usize,
    piece: usize,
) -> (Digest, Vec<Digest>) {
    let slot = plan.slot_len();
    let mut slots = vec![ZERO_DIGEST; plan.parts() * slot];
    for part in 0..plan.parts() {
        let rows = plan.rows(part).unwrap();
        let mut committer = PartCommitter::new(config, plan, part, width).unwrap();
        assert_eq!(committer.part_rows(), rows.len());
        for chunk in data[rows.start * width..rows.end * width].chunks(piece * width) {
            committer.push_rows(chunk).unwrap();
        }
        let nodes = committer.finish().unwrap();
        assert_eq!(nodes.len(), plan.nodes_of(part).unwrap());
        assert!(nodes.len() <= slot, "a part's nodes fit its slot");
        slots[part * slot..part * slot + nodes.len()].copy_from_slice(&nodes);
    }
    plan.complete(config, &slots).unwrap()
}

/// Every cap height of every height in `heights`, for each part count in `parts`.
fn check_heights<C: MerkleConfig>(config: &C, heights: &[usize], width: usize, parts: &[usize]) {
    for &height in heights {
        let data = seeded(height * width, height as u64);
        let tree = MerkleTree::new(config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
        let depth = tree.shape().depth();
        for cap_height in 0..=depth {
            let cap = tree.cap(cap_height).unwrap();
            for &parts in parts {
                let plan = SplitPlan::new(height, cap_height, parts).unwrap();
                let got = split_commit(config, &plan, &data, width, 3);
                assert_eq!(
                    got,
                    (tree.root(), cap.clone()),
                    "{}: height {height}, cap height {cap_height}, {parts} parts",
                    config.name()
                );
            }
        }
    }
}

/// Part counts 1..=8, and more parts than rows.
const PARTS: [usize; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 13, 64];

#[test]
fn every_preset_small_heights_all_parts_and_caps() {
    let heights: Vec<usize> = (1..=33).chain([63, 64, 65, 100]).collect();
    for_each_preset!(|config| check_heights(&config, &heights, 3, &PARTS));
}

#[test]
fn wide_rows_fill_whole_chunks_inside_parts() {
    // A width of 2^18 makes the streaming committer hash full chunks of 4 rows, so parts of
    // 9 rows in blocks of 4 or 8 go through its bulk path as well as its row-by-row tail.
    check_heights(&config::poseidon2_w16(), &[9], 1 << 18, &[2, 3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_shapes_match_the_in_memory_tree(
        height in 1usize..600,
        width in 1usize..10,
        parts in 1usize..12,
        cap_seed in 0usize..64,
        piece in 1usize..50,
        preset in 0usize..5,
    ) {
        let data = seeded(height * width, (height * 31 + width) as u64);
        macro_rules! run {
            ($config:expr) => {{
                let config = $config;
                let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
                let cap_height = cap_seed % (tree.shape().depth() + 1);
                let plan = SplitPlan::new(height, cap_height, parts).unwrap();
                let got = split_commit(&config, &plan, &data, width, piece);
                prop_assert_eq!(got, (tree.root(), tree.cap(cap_height).unwrap()));
            }};
        }
        match Preset::ALL[preset] {
            Preset::Poseidon2W8 => run!(config::poseidon2_w8()),
            Preset::Poseidon2W12 => run!(config::poseidon2_w12()),
            Preset::Poseidon2W16 => run!(config::poseidon2_w16()),
            Preset::Plonky2 => run!(config::plonky2()),
            Preset::Polygon => run!(config::polygon()),
        }
    }

    #[test]
    fn plans_cover_the_rows_with_aligned_ranges(
        height in 1usize..100_000,
        parts in 1usize..100,
        cap_seed in 0usize..64,
    ) {
        let depth = if height <= 1 { 0 } else { (usize::BITS - (height - 1).leading_zeros()) as usize };
        let cap_height = cap_seed % (depth + 1);
        let plan = SplitPlan::new(height, cap_height, parts).unwrap();
        prop_assert_eq!(plan.depth(), depth);
        let block = plan.block_rows();
        prop_assert!(block.is_power_of_two());
        prop_assert!(height.div_ceil(block) <= parts);
        // The smallest such block.
        prop_assert!(block == 1 || height.div_ceil(block / 2) > parts);
        let mut next = 0;
        let mut nodes = 0;
        for part in 0..parts {
            let rows = plan.rows(part).unwrap();
            if rows.is_empty() {
                prop_assert!(part >= plan.used_parts());
                prop_assert_eq!(plan.nodes_of(part).unwrap(), 0);
                continue;
            }
            prop_assert_eq!(rows.start, next);
            prop_assert_eq!(rows.start % block, 0);
            prop_assert!(rows.len() == block || rows.end == height);
            next = rows.end;
            nodes += plan.nodes_of(part).unwrap();
            prop_assert!(plan.nodes_of(part).unwrap() <= plan.slot_len());
        }
        prop_assert_eq!(next, height);
        prop_assert_eq!(plan.used_parts(), height.div_ceil(block));
        // One cap's worth: a single node per part unless the cap lies inside the blocks,
        // and never more nodes in all than the larger of the used parts and the cap.
        let block_log = block.trailing_zeros() as usize;
        if cap_height <= depth - block_log {
            prop_assert_eq!(plan.slot_len(), 1);
        } else {
            prop_assert_eq!(plan.slot_len(), 1 << (cap_height - (depth - block_log)));
        }
        prop_assert!(nodes <= plan.used_parts().max(1 << cap_height));
        prop_assert!(plan.rows(parts).is_err());
    }
}

#[test]
fn bad_plans_are_refused() {
    assert_eq!(SplitPlan::new(10, 0, 0), Err(SplitError::NoParts));
    assert_eq!(
        SplitPlan::new(0, 0, 2),
        Err(SplitError::Height { height: 0 })
    );
    let too_tall = aurum_merkle::MAX_HEIGHT + 1;
    assert_eq!(
        SplitPlan::new(too_tall, 0, 2),
        Err(SplitError::Height { height: too_tall })
    );
    assert_eq!(
        SplitPlan::new(5, 4, 2),
        Err(SplitError::CapTooHigh {
            cap_height: 4,
            depth: 3
        })
    );
    // The largest height is plannable, and its parts' ranges do not overflow.
    let plan = SplitPlan::new(aurum_merkle::MAX_HEIGHT, 48, usize::MAX).unwrap();
    assert_eq!(plan.block_rows(), 1);
    assert_eq!(plan.slot_len(), 1);
    let last = plan.rows(aurum_merkle::MAX_HEIGHT - 1).unwrap();
    assert_eq!(last, aurum_merkle::MAX_HEIGHT - 1..aurum_merkle::MAX_HEIGHT);
    assert!(plan.rows(usize::MAX - 1).unwrap().is_empty());
    let err = plan.rows(usize::MAX).unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[test]
fn parts_refuse_wrong_rows_and_completion_refuses_inconsistent_slots() {
    let config = config::poseidon2_w8();
    let width = 2;
    let data = seeded(10 * width, 7);
    // 10 rows in 4 parts: blocks of 4 rows, parts 0..3 get 4, 4, 2 rows, part 3 none.
    let plan = SplitPlan::new(10, 0, 4).unwrap();
    assert_eq!(plan.block_rows(), 4);
    assert_eq!(plan.rows(2).unwrap(), 8..10);
    assert!(plan.rows(3).unwrap().is_empty());
    assert!(matches!(
        PartCommitter::new(&config, &plan, 4, width),
        Err(SplitError::NoSuchPart { part: 4, parts: 4 })
    ));
    assert!(matches!(
        PartCommitter::new(&config, &plan, 0, 0),
        Err(SplitError::Stream(StreamError::Shape(_)))
    ));
    assert!(matches!(
        PartCommitter::new(&config, &plan, 3, 0),
        Err(SplitError::Stream(StreamError::Shape(_)))
    ));
    // Too many rows for a part, or for an empty part; too few at the end; ragged rows.
    let mut part = PartCommitter::new(&config, &plan, 2, width).unwrap();
    assert_eq!(
        part.push_rows(&data[..3 * width]),
        Err(SplitError::Stream(StreamError::WrongRowCount {
            declared: 2,
            rows: 3
        }))
    );
    assert!(matches!(
        part.push_rows(&data[..3]),
        Err(SplitError::Stream(StreamError::Rows(_)))
    ));
    part.push_rows(&data[..width]).unwrap();
    assert_eq!(
        part.finish(),
        Err(SplitError::Stream(StreamError::WrongRowCount {
            declared: 2,
            rows: 1
        }))
    );
    let mut empty = PartCommitter::new(&config, &plan, 3, width).unwrap();
    empty.push_rows(&[]).unwrap();
    assert_eq!(
        empty.push_rows(&data[..width]),
        Err(SplitError::Stream(StreamError::WrongRowCount {
            declared: 0,
            rows: 1
        }))
    );
    assert_eq!(empty.finish(), Ok(Vec::new()));

    // The right slots complete; a wrong length or a node where the plan has none is refused.
    let mut slots = vec![ZERO_DIGEST; 4];
    for p in 0..3 {
        let rows = plan.rows(p).unwrap();
        let mut c = PartCommitter::new(&config, &plan, p, width).unwrap();
        c.push_rows(&data[rows.start * width..rows.end * width])
            .unwrap();
        slots[p] = c.finish().unwrap()[0];
    }
    let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
    assert_eq!(plan.complete(&config, &slots).unwrap().0, tree.root());
    assert_eq!(
        plan.complete(&config, &slots[..3]),
        Err(SplitError::WrongSlotsLength {
            expected: 4,
            found: 3
        })
    );
    let mut bad = slots.clone();
    bad[3] = slots[0];
    assert_eq!(
        plan.complete(&config, &bad),
        Err(SplitError::SlotMismatch { part: 3 })
    );
    // A tampered node changes the root: completion uses every part's node.
    let mut tampered = slots;
    tampered[2] = ZERO_DIGEST;
    assert_ne!(plan.complete(&config, &tampered).unwrap().0, tree.root());
}
