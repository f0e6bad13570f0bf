//! Proof files against the verifier's statement, in process: a genuine proof verifies, and
//! every mutation of every field of it — preset, each dimension, extra and missing matrices,
//! cap height, index, each row value, each sibling, each cap entry — is rejected, for random
//! mixed-height shapes, every preset, and statements that trust a cap or only a root.

use aurum_cli::proof::{ProofFile, check};
use aurum_cli::statement::Statement;
use aurum_goldilocks::{Goldilocks, P};
use aurum_merkle::{Dimensions, Matrix, MerkleTree, Preset};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Heights on the ladder `⌈max / 2^k⌉` (shuffled), random widths.
fn shapes() -> impl Strategy<Value = Vec<(usize, usize)>> {
    (
        1usize..40,
        proptest::collection::vec((0usize..3, 1usize..7), 1..4),
    )
        .prop_map(|(max, specs)| {
            specs
                .into_iter()
                .map(|(k, width)| (((max - 1) >> k) + 1, width))
                .collect()
        })
}

/// Distinct pseudo-random values, so that no two leaves are equal.
fn values(n: usize, seed: u64) -> Vec<Goldilocks> {
    (0..n as u64)
        .map(|i| {
            Goldilocks::from_u64(
                (i + 1)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(seed.wrapping_mul(0xD1B5_4A32_D192_ED03))
                    % P,
            )
        })
        .collect()
}

/// A genuine proof of leaf `index` and the verifier's statement for it.
fn genuine(
    preset: Preset,
    shape: &[(usize, usize)],
    cap_pick: usize,
    index_pick: usize,
    trust_root_only: bool,
) -> (Statement, ProofFile) {
    let data: Vec<Vec<Goldilocks>> = shape
        .iter()
        .enumerate()
        .map(|(m, &(h, w))| values(h * w, m as u64 + 1))
        .collect();
    let matrices: Vec<Matrix<'_>> = data
        .iter()
        .zip(shape)
        .map(|(v, &(_, w))| Matrix::new(v, w).unwrap())
        .collect();
    let dims: Vec<Dimensions> = matrices.iter().map(Matrix::dimensions).collect();
    macro_rules! build {
        ($config:expr) => {{
            let config = $config;
            let tree = MerkleTree::new(&config, matrices).unwrap();
            let cap_height = cap_pick % (tree.shape().max_cap_height() + 1);
            let index = index_pick % tree.shape().max_height();
            let proof = ProofFile {
                preset: preset.name().to_string(),
                dims: dims.clone(),
                cap_height,
                index,
                commitment: tree.commitment(cap_height).unwrap(),
                opening: tree.open(index, cap_height).unwrap(),
            };
            let cap = tree.cap(cap_height).unwrap();
            let statement = if trust_root_only {
                Statement::with_root(preset, &dims, cap_height, tree.root()).unwrap()
            } else {
                Statement::with_cap(preset, &dims, cap_height, cap, Some(tree.root())).unwrap()
            };
            (statement, proof)
        }};
    }
    use aurum_merkle::config;
    match preset {
        Preset::Poseidon2W8 => build!(config::poseidon2_w8()),
        Preset::Poseidon2W12 => build!(config::poseidon2_w12()),
        Preset::Poseidon2W16 => build!(config::poseidon2_w16()),
        Preset::Plonky2 => build!(config::plonky2()),
        Preset::Polygon => build!(config::polygon()),
    }
}

/// A field element's JSON, changed to another canonical value.
fn bump(v: &Value) -> Value {
    json!((v.as_u64().unwrap() + 1) % P)
}

/// Every mutation of a proof file's JSON: (what was changed, the mutated file).
fn mutations(genuine: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut edit = |what: String, f: &dyn Fn(&mut Value)| {
        let mut v = genuine.clone();
        f(&mut v);
        if &v != genuine {
            out.push((what, v));
        }
    };
    for preset in Preset::ALL {
        edit(format!("preset {preset}"), &|v| {
            v["preset"] = json!(preset.name())
        });
    }
    edit("preset unknown".into(), &|v| v["preset"] = json!("sha3"));
    let dims = genuine["dims"].as_array().unwrap().len();
    for m in 0..dims {
        for field in ["width", "height"] {
            for delta in [-1i64, 1] {
                edit(format!("dims[{m}].{field} {delta:+}"), &|v| {
                    let x = v["dims"][m][field].as_i64().unwrap() + delta;
                    v["dims"][m][field] = json!(x.max(0));
                });
            }
            for huge in [(1u64 << 48) + 1, (1u64 << 63) + 1, u64::MAX] {
                edit(format!("dims[{m}].{field} = {huge}"), &|v| {
                    v["dims"][m][field] = json!(huge)
                });
            }
        }
        edit(format!("dims[{m}] removed"), &|v| {
            v["dims"].as_array_mut().unwrap().remove(m);
        });
        edit(format!("rows[{m}] removed"), &|v| {
            v["opening"]["rows"].as_array_mut().unwrap().remove(m);
        });
        edit(format!("matrix {m} removed"), &|v| {
            v["dims"].as_array_mut().unwrap().remove(m);
            v["opening"]["rows"].as_array_mut().unwrap().remove(m);
        });
        let width = genuine["opening"]["rows"][m].as_array().unwrap().len();
        for c in 0..width {
            edit(format!("rows[{m}][{c}] + 1"), &|v| {
                v["opening"]["rows"][m][c] = bump(&v["opening"]["rows"][m][c])
            });
        }
        edit(format!("rows[{m}] longer"), &|v| {
            v["opening"]["rows"][m]
                .as_array_mut()
                .unwrap()
                .push(json!(0))
        });
        edit(format!("rows[{m}] shorter"), &|v| {
            v["opening"]["rows"][m].as_array_mut().unwrap().pop();
        });
    }
    edit("extra matrix".into(), &|v| {
        v["dims"]
            .as_array_mut()
            .unwrap()
            .push(json!({"width": 1, "height": 1}));
        v["opening"]["rows"]
            .as_array_mut()
            .unwrap()
            .push(json!([7]));
    });
    for delta in [-1i64, 1] {
        edit(format!("cap_height {delta:+}"), &|v| {
            v["cap_height"] = json!((v["cap_height"].as_i64().unwrap() + delta).max(0))
        });
        edit(format!("index {delta:+}"), &|v| {
            v["index"] = json!((v["index"].as_i64().unwrap() + delta).max(0))
        });
    }
    edit("index huge".into(), &|v| v["index"] = json!(u64::MAX));
    for list in ["siblings", "cap"] {
        let (outer, inner) = if list == "cap" {
            ("commitment", "cap")
        } else {
            ("opening", "siblings")
        };
        let n = genuine[outer][inner].as_array().unwrap().len();
        for i in 0..n {
            for w in 0..4 {
                edit(format!("{list}[{i}][{w}] + 1"), &|v| {
                    v[outer][inner][i][w] = bump(&v[outer][inner][i][w])
                });
            }
            edit(format!("{list}[{i}] removed"), &|v| {
                v[outer][inner].as_array_mut().unwrap().remove(i);
            });
        }
        edit(format!("{list} extra"), &|v| {
            v[outer][inner]
                .as_array_mut()
                .unwrap()
                .push(json!([0, 0, 0, 0]))
        });
        if n >= 2 {
            edit(format!("{list} swapped"), &|v| {
                v[outer][inner].as_array_mut().unwrap().swap(0, 1)
            });
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn only_the_genuine_proof_verifies(
        preset in proptest::sample::select(Preset::ALL.to_vec()),
        shape in shapes(),
        cap_pick in 0usize..8,
        index_pick in any::<usize>(),
        trust_root_only in any::<bool>(),
    ) {
        let (statement, proof) = genuine(preset, &shape, cap_pick, index_pick, trust_root_only);
        let verified = check(&statement, &proof, Some(proof.index));
        prop_assert!(verified.is_ok(), "{:?}", verified);
        let verified = verified.unwrap();
        prop_assert_eq!(&check(&statement, &proof, None), &Ok(verified.clone()));
        for (m, row) in verified.rows.iter().enumerate() {
            prop_assert_eq!(&row.values, &proof.opening.rows[m]);
        }
        // The verifier asking about another leaf is told the proof is not about it.
        let other = (proof.index + 1) % statement.shape().max_height();
        if other != proof.index {
            prop_assert!(check(&statement, &proof, Some(other)).is_err());
        }
        let text = proof.to_json();
        let genuine_json: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(ProofFile::parse(text.as_bytes()).unwrap(), proof.clone());
        for (what, mutated) in mutations(&genuine_json) {
            let Ok(file) = ProofFile::parse(mutated.to_string().as_bytes()) else {
                continue; // rejected as malformed
            };
            prop_assert!(
                check(&statement, &file, Some(proof.index)).is_err(),
                "{} verified (asked about leaf {})", what, proof.index
            );
            prop_assert!(
                check(&statement, &file, None).is_err(),
                "{} verified (leaf from the file)", what
            );
        }
    }
}
