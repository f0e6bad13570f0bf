//! Stored trees: the layers a `StreamingCommitter` hands to its sink, trees written to memory
//! and to tree files, and their openings all equal the in-memory `MerkleTree`'s for every
//! preset, height (powers of two or not, 1 included), cap height and number of dropped
//! levels; damaged, truncated, foreign and mismatched files and inputs are typed errors.

use std::path::{Path, PathBuf};

use aurum_goldilocks::Goldilocks;
use aurum_merkle::config::{self, Preset};
use aurum_merkle::{
    Commitment, Digest, LayerSink, Matrix, MerkleConfig, MerkleTree, ShapeError, StoredTree,
    StoredTreeError, StoredTreeWriter, StreamError, StreamingCommitter, TREE_FILE_MAGIC, TreeSpec,
    verify,
};
use aurum_testing::values::seeded;
use proptest::prelude::*;

/// A fresh path in the system's temporary directory (the directory is this test process's).
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aurum-stored-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The temporary file `writer` writes, checked to be a hidden `.aurum-tmp-…` file beside
/// `path` (tests run in parallel in one directory: each follows its own writer's file).
fn temp_of<C: MerkleConfig>(writer: &StoredTreeWriter<'_, C>, path: &Path) -> PathBuf {
    let temp = writer.temp_path().unwrap().to_path_buf();
    assert_eq!(temp.parent(), path.parent());
    let name = temp.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with(".aurum-tmp-"), "{name}");
    assert!(temp.exists());
    temp
}

fn spec(width: usize, height: usize, cap_height: usize, dropped: usize) -> TreeSpec {
    TreeSpec {
        width,
        height,
        cap_height,
        dropped,
        source_len: (width * height * 8) as u64,
    }
}

/// Streams `data` into `writer` in pieces of `piece` rows.
fn push_all<C: MerkleConfig>(
    writer: &mut StoredTreeWriter<'_, C>,
    data: &[Goldilocks],
    width: usize,
    piece: usize,
) {
    for rows in data.chunks(width * piece.max(1)) {
        writer.push_rows(rows).unwrap();
    }
}

/// Every check of a stored tree against the in-memory tree over the same rows.
fn check_against<C: MerkleConfig>(
    config: &C,
    stored: &StoredTree,
    tree: &MerkleTree<'_, C>,
    data: &[Goldilocks],
    spec: &TreeSpec,
    indices: &[usize],
) {
    let depth = tree.shape().depth();
    let what = format!("{} {spec:?}", config.name());
    assert_eq!(stored.root(), tree.root(), "{what}");
    assert_eq!(stored.shape(), tree.shape(), "{what}");
    assert_eq!(
        stored.commitment().unwrap(),
        tree.commitment(spec.cap_height).unwrap(),
        "{what}"
    );
    for j in 0..=depth {
        if j < spec.dropped {
            assert!(
                matches!(stored.level(j), Err(StoredTreeError::CapTooHigh { .. })),
                "{what}: level {j} was dropped"
            );
        } else {
            assert_eq!(
                stored.level(j).unwrap(),
                tree.layer(j).unwrap(),
                "{what}: level {j}"
            );
        }
    }
    for cap_height in 0..=depth - spec.dropped {
        assert_eq!(
            stored.cap(cap_height).unwrap(),
            tree.cap(cap_height).unwrap(),
            "{what}"
        );
    }
    stored.check_layers().unwrap();
    for &index in indices {
        let rows = stored.block_rows(index).unwrap();
        assert!(rows.contains(&index));
        assert!(rows.end - rows.start <= 1 << spec.dropped);
        let block = &data[rows.start * spec.width..rows.end * spec.width];
        for cap_height in [0, spec.cap_height, depth] {
            let opening = stored.open(config, index, cap_height, block).unwrap();
            assert_eq!(
                opening,
                tree.open(index, cap_height).unwrap(),
                "{what}: leaf {index}, cap {cap_height}"
            );
            let commitment = Commitment {
                cap: tree.cap(cap_height).unwrap(),
            };
            verify(config, &commitment, tree.shape().dims(), index, &opening).unwrap();
        }
    }
}

/// The leaves to open: both ends, the middle, and a few others.
fn sample_indices(height: usize, seed: usize) -> Vec<usize> {
    let mut indices = vec![0, height - 1, height / 2, (seed * 7919) % height];
    indices.sort_unstable();
    indices.dedup();
    indices
}

/// One shape, in memory and in a file, for every cap height and number of dropped levels.
fn check_shape<C: MerkleConfig>(config: &C, width: usize, height: usize, seed: usize) {
    let data = seeded(width * height, seed as u64);
    let matrix = Matrix::new(&data, width).unwrap();
    let full = MerkleTree::new(config, vec![matrix]).unwrap();
    let depth = full.shape().depth();
    let indices = sample_indices(height, seed);
    for cap_height in 0..=depth.min(3) {
        for dropped in 0..=depth - cap_height {
            let spec = spec(width, height, cap_height, dropped);
            let tree = MerkleTree::with_dropped_layers(config, vec![matrix], dropped).unwrap();
            let piece = 1 + (seed + dropped) % 9;

            let mut memory = StoredTreeWriter::in_memory(config, spec).unwrap();
            push_all(&mut memory, &data, width, piece);
            let (commitment, stored) = memory.finish().unwrap();
            assert!(stored.is_in_memory());
            assert_eq!(commitment, tree.commitment(cap_height).unwrap());
            check_against(config, &stored, &tree, &data, &spec, &indices);

            let path = temp(&format!(
                "{}-{width}x{height}-c{cap_height}-k{dropped}.aur",
                config.name()
            ));
            let mut file = StoredTreeWriter::create_file(config, spec, &path).unwrap();
            let temp = temp_of(&file, &path);
            push_all(&mut file, &data, width, piece);
            let (file_commitment, written) = file.finish().unwrap();
            assert!(!written.is_in_memory());
            assert_eq!(file_commitment, commitment);
            assert_eq!(written.info(), stored.info());
            check_against(config, &written, &tree, &data, &spec, &indices);
            // Read back from the path, as a later process would.
            let reread = StoredTree::from_file(&path).unwrap();
            assert_eq!(reread.info(), stored.info());
            assert_eq!(reread.info().source_len, spec.source_len);
            check_against(config, &reread, &tree, &data, &spec, &indices);
            // Header plus exactly the stored levels: 32 bytes per digest.
            let file_len = std::fs::metadata(&path).unwrap().len();
            let levels = depth + 1 - dropped;
            assert_eq!(
                file_len,
                (144 + 16 * levels) as u64 + written.digest_bytes(),
                "{spec:?}"
            );
            assert!(!temp.exists(), "renamed into place");
            std::fs::remove_file(&path).unwrap();
        }
    }
}

#[test]
fn stored_trees_equal_the_in_memory_tree_for_every_preset() {
    // Heights: 1, powers of two, odd and even non-powers (padding at several levels).
    let heights = [1, 2, 3, 5, 8, 13, 33, 64, 100];
    for (p, preset) in Preset::ALL.into_iter().enumerate() {
        aurum_merkle::with_preset!(preset, |config| {
            for (h, &height) in heights.iter().enumerate() {
                // Widths of 1 to 13 (plonky2 copies rows of at most 4 elements as digests).
                let width = [1, 3, 4, 8, 13][(p + h) % 5];
                check_shape(&config, width, height, p * 31 + h);
            }
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_shapes_store_and_open_like_the_in_memory_tree(
        height in 1usize..600,
        width in 1usize..10,
        seed in 0usize..1000,
    ) {
        check_shape(&config::poseidon2_w8(), width, height, seed);
    }
}

/// A sink that keeps everything, to check the sink contract itself.
#[derive(Default)]
struct Recorder {
    levels: Vec<Vec<Digest>>,
}

impl LayerSink for Recorder {
    fn push(&mut self, level: usize, nodes: &[Digest]) {
        if self.levels.len() <= level {
            self.levels.resize(level + 1, Vec::new());
        }
        self.levels[level].extend_from_slice(nodes);
    }
}

#[test]
fn a_sink_receives_exactly_the_in_memory_layers() {
    let config = config::poseidon2_w8();
    // Width 64: chunks of 2^14 rows, so 2.5 chunks exercise the bulk path and the tail.
    for (width, height) in [(64, 2 * (1 << 14) + (1 << 13) + 3), (3, 1), (5, 777)] {
        let data = seeded(width * height, 11);
        let tree = MerkleTree::new(&config, vec![Matrix::new(&data, width).unwrap()]).unwrap();
        let mut recorder = Recorder::default();
        let mut stream =
            StreamingCommitter::with_sink(&config, width, height, 0, &mut recorder).unwrap();
        for piece in data.chunks(width * 999) {
            stream.push_rows(piece).unwrap();
        }
        assert_eq!(stream.finish().unwrap(), tree.commitment(0).unwrap());
        assert_eq!(recorder.levels.len(), tree.shape().depth() + 1);
        for (j, level) in recorder.levels.iter().enumerate() {
            assert_eq!(level.as_slice(), tree.layer(j).unwrap(), "level {j}");
        }
        // The sink's owned form comes back from finish_with_sink.
        let mut stream =
            StreamingCommitter::with_sink(&config, width, height, 0, Recorder::default()).unwrap();
        stream.push_rows(&data).unwrap();
        let (commitment, owned) = stream.finish_with_sink().unwrap();
        assert_eq!(commitment, tree.commitment(0).unwrap());
        assert_eq!(owned.levels, recorder.levels);
    }
}

#[test]
fn a_large_tree_file_over_many_chunks() {
    let config = config::poseidon2_w8();
    let (width, height) = (16, (1 << 16) + 12345);
    let data = seeded(width * height, 5);
    let matrix = Matrix::new(&data, width).unwrap();
    for dropped in [0, 3, 9] {
        let spec = spec(width, height, 2, dropped);
        let tree = MerkleTree::with_dropped_layers(&config, vec![matrix], dropped).unwrap();
        let path = temp(&format!("large-k{dropped}.aur"));
        let mut writer = StoredTreeWriter::create_file(&config, spec, &path).unwrap();
        push_all(&mut writer, &data, width, 5000);
        let (commitment, stored) = writer.finish().unwrap();
        assert_eq!(commitment, tree.commitment(2).unwrap());
        check_against(
            &config,
            &stored,
            &tree,
            &data,
            &spec,
            &[0, 1, 4095, 65535, 65536, height - 1],
        );
        std::fs::remove_file(&path).unwrap();
    }
}

/// A small tree file and its matrix, for the damage tests.
fn small_file(name: &str, dropped: usize) -> (PathBuf, Vec<Goldilocks>, TreeSpec) {
    let config = config::poseidon2_w8();
    let (width, height) = (3, 21);
    let data = seeded(width * height, 9);
    let spec = spec(width, height, 1, dropped);
    let path = temp(name);
    let mut writer = StoredTreeWriter::create_file(&config, spec, &path).unwrap();
    writer.push_rows(&data).unwrap();
    writer.finish().unwrap();
    (path, data, spec)
}

fn header_checksum(bytes: &[u8]) -> u64 {
    let mut s: u64 = 0x243F_6A88_85A3_08D3;
    for word in bytes.chunks_exact(8) {
        let w = u64::from_le_bytes(word.try_into().unwrap());
        s = (s.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    s
}

/// The file with its header's u64 at `at` set to `value` and the header checksum redone.
fn with_header_field(bytes: &[u8], at: usize, value: u64) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let sum = header_checksum(&bytes[..header_len - 8]);
    bytes[header_len - 8..header_len].copy_from_slice(&sum.to_le_bytes());
    bytes
}

fn read_err(bytes: &[u8], name: &str) -> StoredTreeError {
    let path = temp(name);
    std::fs::write(&path, bytes).unwrap();
    let err = StoredTree::from_file(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    // Every error has a one-line message.
    let message = err.to_string();
    assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    err
}

#[test]
fn damaged_and_foreign_tree_files_are_typed_errors() {
    let (path, _, _) = small_file("damage.aur", 2);
    let good = std::fs::read(&path).unwrap();
    assert_eq!(good[..8], TREE_FILE_MAGIC);
    let header_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    // Every truncation.
    for len in 0..good.len() {
        let err = read_err(&good[..len], "cut.aur");
        assert!(
            matches!(err, StoredTreeError::Truncated { len: l, .. } if l == len as u64),
            "{len}: {err:?}"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        read_err(&longer, "long.aur"),
        StoredTreeError::TrailingBytes { .. }
    ));
    let mut foreign = good.clone();
    foreign[0] ^= 1;
    assert!(matches!(
        read_err(&foreign, "foreign.aur"),
        StoredTreeError::NotATreeFile
    ));
    assert!(matches!(
        read_err(b"{\"preset\": \"poseidon2-w8\"}", "json.aur"),
        StoredTreeError::NotATreeFile
    ));
    let mut version = good.clone();
    version[8] = 2;
    assert!(matches!(
        read_err(&version, "version.aur"),
        StoredTreeError::UnsupportedVersion { found: 2 }
    ));
    // Any changed header byte (after the magic and version) breaks the checksum or a check.
    for at in 12..header_len {
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        let err = read_err(&bytes, "header.aur");
        assert!(
            matches!(
                err,
                StoredTreeError::CorruptHeader { .. } | StoredTreeError::Truncated { .. }
            ),
            "byte {at}: {err:?}"
        );
    }
    // Sizes that overflow or do not fit, with a valid checksum: typed errors, no allocation.
    for (at, value, what) in [
        (48, 0, "width 0"),
        (48, 1 << 40, "width 2^40"),
        (56, 0, "height 0"),
        (56, u64::MAX, "height 2^64 - 1"),
        (56, 1 << 49, "height 2^49"),
        (64, u64::MAX, "cap height"),
        (72, u64::MAX, "dropped"),
        (72, 6, "dropped above the depth"),
        (120, u64::MAX, "file length"),
    ] {
        let err = read_err(&with_header_field(&good, at, value), "sizes.aur");
        let ok = match what {
            "width 0" | "width 2^40" | "height 0" | "height 2^64 - 1" | "height 2^49" => {
                matches!(err, StoredTreeError::Shape(_))
            }
            "cap height" | "dropped" | "dropped above the depth" => {
                matches!(err, StoredTreeError::CapNotStored { .. })
            }
            _ => matches!(err, StoredTreeError::CorruptHeader { .. }),
        };
        assert!(ok, "{what}: {err:?}");
    }
    let err = read_err(&with_header_field(&good, 56, 0), "h0.aur");
    assert!(matches!(
        err,
        StoredTreeError::Shape(ShapeError::EmptyMatrix { .. })
    ));
    // A height that gives another shape: the level table no longer matches.
    let err = read_err(&with_header_field(&good, 56, 40), "h40.aur");
    assert!(
        matches!(err, StoredTreeError::CorruptHeader { .. }),
        "{err:?}"
    );
    // A level count of 2^32 - 1 (read as u32 at 128): refused before any allocation.
    let mut levels = good.clone();
    levels[128..132].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        read_err(&levels, "levels.aur"),
        StoredTreeError::CorruptHeader { .. }
    ));
    // A changed digest byte: check_layers names the level.
    let last_level_start = good.len() - 32;
    for (at, level) in [(header_len, 2), (last_level_start - 40, 4)] {
        let mut bytes = good.clone();
        bytes[at] ^= 1;
        let damaged = temp("digest.aur");
        std::fs::write(&damaged, &bytes).unwrap();
        let stored = StoredTree::from_file(&damaged).unwrap();
        let err = stored.check_layers().unwrap_err();
        assert!(
            matches!(err, StoredTreeError::CorruptLevel { level: l } if l == level),
            "byte {at}: {err:?}"
        );
        std::fs::remove_file(&damaged).unwrap();
    }
    // A changed root byte: the stored root no longer matches the header's.
    let mut root = good.clone();
    let at = good.len() - 8;
    root[at] ^= 1;
    let err = read_err(&root, "root.aur");
    assert!(
        matches!(err, StoredTreeError::CorruptLevel { level: 5 }),
        "{err:?}"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn openings_from_a_damaged_file_or_another_input_are_refused() {
    let config = config::poseidon2_w8();
    for dropped in [0, 2] {
        let (path, data, spec) = small_file(&format!("open-k{dropped}.aur"), dropped);
        let stored = StoredTree::from_file(&path).unwrap();
        let width = spec.width;
        let block_of = |index: usize| {
            let rows = stored.block_rows(index).unwrap();
            data[rows.start * width..rows.end * width].to_vec()
        };
        // Another input: one changed value in the block.
        for index in [0, 5, 20] {
            let mut block = block_of(index);
            let last = block.len() - 1;
            block[last] += Goldilocks::ONE;
            let err = stored.open(&config, index, 0, &block).unwrap_err();
            assert!(
                matches!(err, StoredTreeError::InputMismatch { ref rows } if rows.contains(&index)),
                "{err:?}"
            );
            assert!(err.to_string().contains("does not match"), "{err}");
        }
        // The wrong number of rows, an index out of range, another preset, a cap too high.
        let block = block_of(5);
        assert!(matches!(
            stored.open(&config, 5, 0, &block[..block.len() - 1]),
            Err(StoredTreeError::WrongBlockLength { .. })
        ));
        for index in [21, usize::MAX] {
            assert!(matches!(
                stored.open(&config, index, 0, &block),
                Err(StoredTreeError::IndexOutOfRange { index: i, height: 21 }) if i == index
            ));
            assert!(matches!(
                stored.block_rows(index),
                Err(StoredTreeError::IndexOutOfRange { .. })
            ));
        }
        assert!(matches!(
            stored.open(&config::poseidon2_w12(), 5, 0, &block),
            Err(StoredTreeError::ConfigMismatch { .. })
        ));
        assert!(matches!(
            stored.open(&config::plonky2(), 5, 0, &block),
            Err(StoredTreeError::ConfigMismatch { .. })
        ));
        assert!(matches!(
            stored.open(&config, 5, 6, &block),
            Err(StoredTreeError::CapTooHigh {
                cap_height: 6,
                max: 5
            })
        ));
        assert!(matches!(
            stored.cap(6 - dropped),
            Err(StoredTreeError::CapTooHigh { .. })
        ));
        assert!(stored.open(&config, 5, 0, &block).is_ok());
        // A damaged sibling on the path (level 3, the sibling of leaf 5's ancestor 0 is 1).
        let good = std::fs::read(&path).unwrap();
        let header_len = 144 + 16 * (6 - dropped);
        let level3 = header_len
            + 32 * (0..3)
                .filter(|&j| j >= dropped)
                .map(|j| {
                    stored.shape().dims()[0]
                        .height
                        .div_ceil(1 << j)
                        .next_multiple_of(2)
                })
                .sum::<usize>();
        let mut bytes = good.clone();
        bytes[level3 + 32] ^= 1;
        let damaged = temp(&format!("path-k{dropped}.aur"));
        std::fs::write(&damaged, &bytes).unwrap();
        let broken = StoredTree::from_file(&damaged).unwrap();
        assert_eq!(
            broken.level(3).unwrap()[1][0].as_canonical_u64() ^ 1,
            stored.level(3).unwrap()[1][0].as_canonical_u64()
        );
        let err = broken.open(&config, 5, 0, &block).unwrap_err();
        assert!(
            matches!(err, StoredTreeError::CorruptPath { index: 5 }),
            "{err:?}"
        );
        // A leaf whose path avoids the damaged digest still opens.
        let far = block_of(20);
        assert!(broken.open(&config, 20, 0, &far).is_ok());
        // A non-canonical digest value: a typed error too.
        let mut bytes = good.clone();
        bytes[level3 + 32..level3 + 40].copy_from_slice(&u64::MAX.to_le_bytes());
        std::fs::write(&damaged, &bytes).unwrap();
        let broken = StoredTree::from_file(&damaged).unwrap();
        assert!(matches!(
            broken.open(&config, 5, 0, &block),
            Err(StoredTreeError::CorruptLevel { level: 3 })
        ));
        std::fs::remove_file(&damaged).unwrap();
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn bad_specs_and_unfinished_writers_leave_no_file() {
    let config = config::poseidon2_w8();
    let path = temp("unfinished.aur");
    // Cap layer dropped, or both too high: refused before anything is written.
    for (cap_height, dropped) in [(2, 4), (0, 6), (6, 0), (usize::MAX, 1), (1, usize::MAX)] {
        let err = StoredTreeWriter::create_file(&config, spec(2, 21, cap_height, dropped), &path)
            .unwrap_err();
        assert!(
            matches!(err, StoredTreeError::CapNotStored { depth: 5, .. }),
            "{cap_height} {dropped}: {err:?}"
        );
        assert!(!path.exists());
    }
    assert!(matches!(
        StoredTreeWriter::in_memory(&config, spec(0, 21, 0, 0)),
        Err(StoredTreeError::Shape(ShapeError::ZeroWidth { .. }))
    ));
    assert!(matches!(
        StoredTreeWriter::in_memory(&config, spec(1, 0, 0, 0)),
        Err(StoredTreeError::Shape(ShapeError::EmptyMatrix { .. }))
    ));
    let long = aurum_merkle::config::Config::new(
        "a-configuration-name-longer-than-32-bytes",
        config::poseidon2_w8().leaf().clone(),
        config::poseidon2_w8().node().clone(),
    );
    assert!(matches!(
        StoredTreeWriter::in_memory(&long, spec(1, 4, 0, 0)),
        Err(StoredTreeError::BadConfigName { .. })
    ));
    let data = seeded(2 * 21, 1);
    // Too few rows: finish fails, and neither the file nor its temporary remains.
    let mut writer = StoredTreeWriter::create_file(&config, spec(2, 21, 0, 0), &path).unwrap();
    writer.push_rows(&data[..40]).unwrap();
    let written = temp_of(&writer, &path);
    assert!(!path.exists());
    let err = writer.finish().unwrap_err();
    assert!(matches!(
        err,
        StoredTreeError::Stream(StreamError::WrongRowCount {
            declared: 21,
            rows: 20
        })
    ));
    assert!(!path.exists());
    assert!(!written.exists());
    // Too many rows: refused, nothing consumed.
    let mut writer = StoredTreeWriter::create_file(&config, spec(2, 21, 0, 0), &path).unwrap();
    let written = temp_of(&writer, &path);
    writer.push_rows(&data).unwrap();
    assert!(matches!(
        writer.push_rows(&data[..2]),
        Err(StoredTreeError::Stream(StreamError::WrongRowCount { .. }))
    ));
    assert_eq!(writer.rows(), 21);
    // Dropped unfinished: nothing left behind.
    drop(writer);
    assert!(!path.exists());
    assert!(!written.exists());
    // A directory that does not exist: an I/O error, not a panic.
    let missing = temp("no-such-dir").join("tree.aur");
    assert!(matches!(
        StoredTreeWriter::create_file(&config, spec(2, 21, 0, 0), &missing),
        Err(StoredTreeError::Io { .. })
    ));
    // Finishing replaces an existing file at the path whole.
    std::fs::write(&path, b"old").unwrap();
    let mut writer = StoredTreeWriter::create_file(&config, spec(2, 21, 0, 0), &path).unwrap();
    writer.push_rows(&data).unwrap();
    let (_, stored) = writer.finish().unwrap();
    assert_eq!(StoredTree::from_file(&path).unwrap().root(), stored.root());
    std::fs::remove_file(&path).unwrap();
}

/// A tree file written into the caller's temporary file (`create_in`, what the CLI does)
/// is renamed to its path: a symbolic link there is replaced, the file it points to never
/// written; dropped unfinished, the caller's temporary is removed.
#[cfg(unix)]
#[test]
fn a_tree_file_replaces_a_link_at_its_path_and_never_follows_it() {
    let config = config::poseidon2_w8();
    let dir = temp("link-at-path");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, b"victim").unwrap();
    let path = dir.join("tree.aur");
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    let data = seeded(2 * 21, 1);
    let temp = tempfile::Builder::new()
        .prefix(".aurum-tmp-test-")
        .tempfile_in(&dir)
        .unwrap();
    let temp_path = temp.path().to_path_buf();
    let mut writer = StoredTreeWriter::create_in(&config, spec(2, 21, 0, 0), temp, &path).unwrap();
    assert_eq!(writer.temp_path(), Some(temp_path.as_path()));
    writer.push_rows(&data).unwrap();
    let (_, stored) = writer.finish().unwrap();
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
    assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
    assert!(!temp_path.exists());
    assert_eq!(StoredTree::from_file(&path).unwrap().root(), stored.root());
    // create_file: the same.
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    let mut writer = StoredTreeWriter::create_file(&config, spec(2, 21, 0, 0), &path).unwrap();
    writer.push_rows(&data).unwrap();
    writer.finish().unwrap();
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
    assert_eq!(std::fs::read(&victim).unwrap(), b"victim");
    // Unfinished: the caller's temporary is removed, nothing appears at the path.
    let temp = tempfile::Builder::new().tempfile_in(&dir).unwrap();
    let temp_path = temp.path().to_path_buf();
    let other = dir.join("other.aur");
    let writer = StoredTreeWriter::create_in(&config, spec(2, 21, 0, 0), temp, &other).unwrap();
    drop(writer);
    assert!(!temp_path.exists());
    assert!(!other.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any damaged byte: reading, checking and opening give a result or a typed error, never
    /// a panic, and an opening that is returned verifies against the true root.
    #[test]
    fn damaged_files_never_panic_or_give_wrong_openings(at in 0usize..2000, xor in 1u8..=255, dropped in 0usize..4) {
        let config = config::poseidon2_w8();
        let (path, data, spec) = small_file(&format!("fuzz-{at}-{xor}-{dropped}.aur"), dropped);
        let good = StoredTree::from_file(&path).unwrap();
        let root = Commitment { cap: vec![good.root()] };
        let mut bytes = std::fs::read(&path).unwrap();
        let at = at % bytes.len();
        bytes[at] ^= xor;
        std::fs::write(&path, &bytes).unwrap();
        if let Ok(stored) = StoredTree::from_file(&path) {
            let _ = stored.check_layers();
            let _ = stored.commitment();
            for index in 0..spec.height {
                let rows = stored.block_rows(index).unwrap();
                let block = &data[rows.start * spec.width..rows.end * spec.width];
                if let Ok(opening) = stored.open(&config, index, 0, block) {
                    prop_assert!(verify(&config, &root, good.shape().dims(), index, &opening).is_ok());
                }
            }
        }
        std::fs::remove_file(&path).unwrap();
    }
}
