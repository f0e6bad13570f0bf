//! Arbitrary proof files against genuine statements: a small mixed-height tree per preset,
//! committed with a cap, or trusted by its root only. Reaches deeper into `proof::check` and
//! `aurum_merkle::verify` than `cli_verify`, whose statements must be found first. A proof
//! that verifies must open exactly the tree's rows at that leaf (anything else would be a
//! forgery).
//!
//! Input: one byte choosing the statement, then the proof file.

use std::sync::OnceLock;

use aurum_cli::proof::{ProofFile, check};
use aurum_cli::statement::Statement;
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Dimensions, Matrix, MerkleTree, Preset};

/// A statement and the rows of every leaf of its tree (by matrix).
struct Case {
    statement: Statement,
    rows: Vec<Vec<Vec<Goldilocks>>>,
}

/// Matrices of heights 6, 3 and 2 (widths 5, 2, 4): joins at two layers, odd layers padded.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let shape = [(6usize, 5usize), (3, 2), (2, 4)];
        let data: Vec<Vec<Goldilocks>> = shape
            .iter()
            .enumerate()
            .map(|(m, &(h, w))| {
                (0..(h * w) as u64)
                    .map(|i| Goldilocks::from_u64((i + 1) * 0x9E37_79B9 + m as u64))
                    .collect()
            })
            .collect();
        let dims: Vec<Dimensions> = shape
            .iter()
            .map(|&(height, width)| Dimensions { width, height })
            .collect();
        let mut cases = Vec::new();
        for preset in Preset::ALL {
            macro_rules! tree {
                ($config:expr) => {{
                    let config = $config;
                    let matrices = data
                        .iter()
                        .zip(&shape)
                        .map(|(v, &(_, w))| Matrix::new(v, w).unwrap())
                        .collect();
                    let tree = MerkleTree::new(&config, matrices).unwrap();
                    let rows: Vec<Vec<Vec<Goldilocks>>> =
                        (0..6).map(|i| tree.open(i, 0).unwrap().rows).collect();
                    let max_cap = tree.shape().max_cap_height();
                    for cap_height in 0..=max_cap {
                        let cap = tree.cap(cap_height).unwrap();
                        cases.push(Case {
                            statement: Statement::with_cap(
                                preset,
                                &dims,
                                cap_height,
                                cap,
                                Some(tree.root()),
                            )
                            .unwrap(),
                            rows: rows.clone(),
                        });
                        cases.push(Case {
                            statement: Statement::with_root(preset, &dims, cap_height, tree.root())
                                .unwrap(),
                            rows: rows.clone(),
                        });
                    }
                }};
            }
            use aurum_merkle::config;
            match preset {
                Preset::Poseidon2W8 => tree!(config::poseidon2_w8()),
                Preset::Poseidon2W12 => tree!(config::poseidon2_w12()),
                Preset::Poseidon2W16 => tree!(config::poseidon2_w16()),
                Preset::Plonky2 => tree!(config::plonky2()),
                Preset::Polygon => tree!(config::polygon()),
            }
        }
        cases
    })
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let Some((&pick, proof)) = data.split_first() else {
        return;
    };
    let cases = cases();
    let case = &cases[pick as usize % cases.len()];
    let Ok(proof) = ProofFile::parse(proof) else {
        return;
    };
    for index in [None, Some(proof.index)] {
        if let Ok(verified) = check(&case.statement, &proof, index) {
            let genuine = &case.rows[verified.index];
            assert_eq!(&proof.opening.rows, genuine, "a forged opening verified");
        }
    }
}
