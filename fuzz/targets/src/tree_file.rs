//! `StoredTree::from_file` on arbitrary file contents (what `aurum open --tree` reads), and
//! openings from whatever it accepts: never a panic, an allocation sized by the file, or an
//! opening that does not verify against the tree's root.

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Commitment, MerkleConfig, Preset, StoredTree, verify, with_preset};

fn open_and_check<C: MerkleConfig>(config: &C, tree: &StoredTree) {
    let height = tree.shape().max_height();
    let width = tree.info().width;
    let commitment = Commitment {
        cap: vec![tree.root()],
    };
    for index in [0, height / 2, height - 1] {
        let Ok(rows) = tree.block_rows(index) else {
            continue;
        };
        // The block is read from the input in real use; zeros here (an input that does not
        // match must be an error, never a wrong opening). Bounded: 2^dropped rows.
        let Some(len) = (rows.end - rows.start).checked_mul(width) else {
            continue;
        };
        if len > 1 << 20 {
            continue;
        }
        let block = vec![Goldilocks::ZERO; len];
        if let Ok(opening) = tree.open(config, index, 0, &block) {
            verify(config, &commitment, tree.shape().dims(), index, &opening)
                .expect("an opening StoredTree returns verifies against its root");
        }
    }
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let path = std::env::temp_dir().join(format!("aurum-fuzz-tree-{}.aur", std::process::id()));
    std::fs::write(&path, data).expect("the temporary directory is writable");
    if let Ok(tree) = StoredTree::from_file(&path) {
        if let Ok(preset) = tree.info().config_name.parse::<Preset>() {
            with_preset!(preset, |config| open_and_check(&config, &tree));
        }
        let _ = tree.check_layers();
    }
}
