//! A commit engine ([`FriPcs::with_engine`]) changes where the input LDEs and trees are
//! computed, not the proof: with an engine that computes them as the CPU does (here, on the
//! CPU, through the engine's interface) the proof is byte for byte the one made without, and
//! the engine's values are the ones used (an engine computing other digests changes the
//! proof); an engine that declines leaves the job to the CPU; an engine that fails, or returns
//! other shapes than asked for, is the commitment's or the opening's typed error;
//! configurations that are not a preset's (other round constants) never reach an engine,
//! unless the engine's own tree computes them (an engine built with those constants), and then
//! the proof is the CPU's again. The same holds for the commit phase's trees and folds, and for
//! the openings' reduced codewords, for which the engine gets back what it kept of each
//! commitment it computed.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use aurum_fri::{
    CommitEngine, CommitError, EngineCommit, EngineData, EngineMatrix, Evaluations, FriParameters,
    FriPcs, FriProof, HeightOpening, Lde, OpenError, OpeningRequest, codec, fold_as_verifier,
    reduced_opening,
};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{
    Answers, Matrix, MerkleConfig, MerkleTree, Preset, TreeDigests, config, with_preset,
};
use aurum_ntt::{Ntt, Order};
use aurum_poseidon2::Poseidon2Goldilocks;
use aurum_symmetric::{Challenger, DuplexChallenger};

/// What the engine does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Behaviour {
    /// Computes the LDEs and tree as the CPU does.
    Compute,
    /// Leaves the job to the CPU.
    Decline,
    /// Fails.
    Fail,
    /// Returns one layer too many (the lowest, which should have been left out).
    WrongLayers,
    /// Returns an LDE one row short.
    ShortLde,
    /// Computes a tree whose stored layers each start with another digest (a fold: whose
    /// first value is another).
    OtherDigests,
}

/// Plonky3's width-8 tree over a Poseidon2 with other round constants (as a prover that draws
/// its own has), named like the preset.
type OwnW8 = config::Poseidon2Config<8, 4>;

fn own_w8() -> OwnW8 {
    let mut constants = Poseidon2Goldilocks::<8>::new().constants().clone();
    constants.initial[0][0] += Goldilocks::ONE;
    config::poseidon2_config_with(
        "poseidon2-w8",
        Poseidon2Goldilocks::with_constants(constants),
    )
}

#[derive(Debug)]
struct Reference {
    /// What `commit` does.
    behaviour: Behaviour,
    calls: AtomicUsize,
    /// What `tree` does (`Decline`: the trait's default).
    tree_behaviour: Behaviour,
    tree_calls: AtomicUsize,
    /// What `fold` does (`Decline`: the trait's default; `WrongLayers`: one value short).
    fold_behaviour: Behaviour,
    fold_calls: AtomicUsize,
    /// What `reduced_openings` does (`Decline`: the trait's default; `WrongLayers`: one
    /// codeword short of a value).
    open_behaviour: Behaviour,
    open_calls: AtomicUsize,
    /// Matrices `reduced_openings` got with what this engine kept of their commitment, at
    /// their index there.
    kept_seen: AtomicUsize,
    /// The engine's width-8 tree hashes with [`own_w8`]'s constants instead of the preset's.
    own_w8: bool,
}

impl Reference {
    fn new(behaviour: Behaviour) -> Arc<Self> {
        Self::with_trees(behaviour, Behaviour::Decline)
    }

    fn with_trees(behaviour: Behaviour, tree_behaviour: Behaviour) -> Arc<Self> {
        Self::with_folds(behaviour, tree_behaviour, Behaviour::Decline)
    }

    fn with_folds(
        behaviour: Behaviour,
        tree_behaviour: Behaviour,
        fold_behaviour: Behaviour,
    ) -> Arc<Self> {
        Arc::new(Self {
            behaviour,
            calls: AtomicUsize::new(0),
            tree_behaviour,
            tree_calls: AtomicUsize::new(0),
            fold_behaviour,
            fold_calls: AtomicUsize::new(0),
            open_behaviour: Behaviour::Decline,
            open_calls: AtomicUsize::new(0),
            kept_seen: AtomicUsize::new(0),
            own_w8: false,
        })
    }

    /// An engine computing the input commitments and, as `open_behaviour` says, the reduced
    /// openings.
    fn with_openings(open_behaviour: Behaviour) -> Arc<Self> {
        let mut engine = Arc::into_inner(Self::new(Behaviour::Compute)).expect("just made");
        engine.open_behaviour = open_behaviour;
        Arc::new(engine)
    }

    fn with_own_w8() -> Arc<Self> {
        Arc::new(Self {
            behaviour: Behaviour::Compute,
            calls: AtomicUsize::new(0),
            tree_behaviour: Behaviour::Compute,
            tree_calls: AtomicUsize::new(0),
            fold_behaviour: Behaviour::Decline,
            fold_calls: AtomicUsize::new(0),
            open_behaviour: Behaviour::Decline,
            open_calls: AtomicUsize::new(0),
            kept_seen: AtomicUsize::new(0),
            own_w8: true,
        })
    }

    /// The engine's tree over `matrices`, layers from `dropped` up, as `behaviour` says.
    fn digests(
        &self,
        behaviour: Behaviour,
        preset: Preset,
        matrices: Vec<Matrix<'_>>,
        dropped: usize,
    ) -> Result<TreeDigests, String> {
        let dropped = if behaviour == Behaviour::WrongLayers {
            dropped - 1
        } else {
            dropped
        };
        let digests = if self.own_w8 && preset == Preset::Poseidon2W8 {
            MerkleTree::with_dropped_layers(&own_w8(), matrices, dropped)
                .map_err(|e| e.to_string())?
                .into_digests()
        } else {
            with_preset!(preset, |config| {
                MerkleTree::with_dropped_layers(&config, matrices, dropped)
                    .map_err(|e| e.to_string())?
                    .into_digests()
            })
        };
        if behaviour != Behaviour::OtherDigests {
            return Ok(digests);
        }
        let shape = digests.shape().clone();
        let mut layers: Vec<Vec<_>> = (dropped..shape.num_layers())
            .map(|j| digests.layer(j).expect("stored").to_vec())
            .collect();
        for layer in &mut layers {
            layer[0][0] += Goldilocks::ONE;
        }
        Ok(TreeDigests::from_layers_above(shape, dropped, layers).expect("the same shape"))
    }
}

/// What the reference engine keeps of a commitment: how many matrices it holds.
#[derive(Debug)]
struct Kept {
    matrices: usize,
}

impl EngineData for Kept {}

impl CommitEngine for Reference {
    fn tree_answers(&self, preset: Preset) -> Answers {
        if self.own_w8 && preset == Preset::Poseidon2W8 {
            Answers::of(&own_w8())
        } else {
            preset.answers()
        }
    }

    fn commit(
        &self,
        preset: Preset,
        matrices: &[EngineMatrix<'_>],
        log_blowup: usize,
        dropped: usize,
    ) -> Result<Option<EngineCommit>, String> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        match self.behaviour {
            Behaviour::Decline => return Ok(None),
            Behaviour::Fail => return Err("the device fell over".into()),
            _ => {}
        }
        let mut ldes: Vec<Vec<Goldilocks>> = matrices
            .iter()
            .map(|m| {
                Ntt::plonky3()
                    .coset_lde(
                        m.values,
                        m.width,
                        log_blowup,
                        m.lde_shift,
                        Order::BitReversed,
                    )
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()?;
        let views = ldes
            .iter()
            .zip(matrices)
            .map(|(lde, m)| Matrix::new(lde, m.width).expect("whole rows"))
            .collect();
        let digests = self.digests(self.behaviour, preset, views, dropped)?;
        if self.behaviour == Behaviour::ShortLde {
            let width = matrices[0].width;
            let len = ldes[0].len() - width;
            ldes[0].truncate(len);
        }
        Ok(Some(EngineCommit {
            ldes,
            digests,
            lde_time: Duration::ZERO,
            merkle_time: Duration::ZERO,
            kept: Some(Arc::new(Kept {
                matrices: matrices.len(),
            })),
        }))
    }

    fn tree(
        &self,
        preset: Preset,
        matrices: &[Matrix<'_>],
        dropped: usize,
    ) -> Result<Option<TreeDigests>, String> {
        self.tree_calls.fetch_add(1, Ordering::Relaxed);
        match self.tree_behaviour {
            Behaviour::Decline => Ok(None),
            Behaviour::Fail => Err("the device fell over".into()),
            behaviour => self
                .digests(behaviour, preset, matrices.to_vec(), dropped)
                .map(Some),
        }
    }

    fn fold(
        &self,
        codeword: &[Goldilocks2],
        log_arity: usize,
        beta: Goldilocks2,
    ) -> Result<Option<Vec<Goldilocks2>>, String> {
        self.fold_calls.fetch_add(1, Ordering::Relaxed);
        let mut folded = match self.fold_behaviour {
            Behaviour::Decline => return Ok(None),
            Behaviour::Fail => return Err("the device fell over".into()),
            _ => fold_as_verifier(codeword, log_arity, beta).ok_or("not a fold's shape")?,
        };
        match self.fold_behaviour {
            Behaviour::WrongLayers => {
                folded.pop();
            }
            Behaviour::OtherDigests => folded[0] += Goldilocks2::ONE,
            _ => {}
        }
        Ok(Some(folded))
    }

    fn reduced_openings(
        &self,
        heights: &[HeightOpening<'_>],
    ) -> Result<Option<Vec<Vec<Goldilocks2>>>, String> {
        self.open_calls.fetch_add(1, Ordering::Relaxed);
        match self.open_behaviour {
            Behaviour::Decline => return Ok(None),
            Behaviour::Fail => return Err("the device fell over".into()),
            _ => {}
        }
        for m in heights.iter().flat_map(|h| &h.matrices) {
            let (kept, index) = m.kept.ok_or("every matrix was committed here")?;
            let kept: &dyn core::any::Any = kept;
            let kept = kept.downcast_ref::<Kept>().ok_or("kept by this engine")?;
            if index < kept.matrices {
                self.kept_seen.fetch_add(1, Ordering::Relaxed);
            }
        }
        let mut codewords: Vec<Vec<Goldilocks2>> = heights
            .iter()
            .map(|h| reduced_opening(h).ok_or("a well-formed height"))
            .collect::<Result<_, _>>()?;
        match self.open_behaviour {
            Behaviour::WrongLayers => {
                codewords[1].pop();
            }
            Behaviour::OtherDigests => codewords[0][0] += Goldilocks2::ONE,
            _ => {}
        }
        Ok(Some(codewords))
    }
}

fn params() -> FriParameters {
    FriParameters {
        log_blowup: 2,
        log_final_poly_len: 1,
        max_log_arity: 2,
        num_queries: 9,
        batch_proof_of_work_bits: 2,
        commit_proof_of_work_bits: 2,
        query_proof_of_work_bits: 3,
    }
}

/// Two matrices of different heights, one on a coset.
fn inputs() -> Vec<Evaluations> {
    let values = |rows: u64, cols: u64, seed: u64| -> Vec<Goldilocks> {
        (0..rows * cols)
            .map(|i| Goldilocks::from_u64((i + seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect()
    };
    vec![
        Evaluations::new(values(1 << 9, 5, 1), 5),
        Evaluations::on_coset(values(1 << 7, 3, 2), 3, Goldilocks::from_u64(11)),
    ]
}

/// Why no proof was made.
#[derive(Debug)]
enum Failed {
    Commit(CommitError),
    Open(OpenError),
}

/// The proof of `inputs` at two points and the commitment, or the error.
fn proof_of<C: MerkleConfig>(pcs: &FriPcs<C>) -> Result<(FriProof, Vec<u8>), Failed> {
    let (commitment, data) = pcs.commit(inputs()).map_err(Failed::Commit)?;
    let mut challenger = DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    challenger.observe_slice(&commitment.cap.concat());
    let points: Vec<Vec<_>> = (0..2)
        .map(|_| (0..2).map(|_| challenger.sample_ext()).collect())
        .collect();
    let (_, proof) = pcs
        .open(
            &[OpeningRequest {
                data: &data,
                points: &points,
            }],
            &mut challenger,
        )
        .map_err(Failed::Open)?;
    let cap = commitment
        .cap
        .iter()
        .flatten()
        .flat_map(|x| x.as_canonical_u64().to_le_bytes())
        .collect();
    Ok((proof, cap))
}

/// The encoded proof of `inputs` at two points, or the commitment's error.
fn proof<C: MerkleConfig>(pcs: &FriPcs<C>) -> Result<Vec<u8>, CommitError> {
    let (proof, cap) = match proof_of(pcs) {
        Ok(done) => done,
        Err(Failed::Commit(e)) => return Err(e),
        Err(Failed::Open(e)) => panic!("opens: {e}"),
    };
    let mut bytes = codec::encode(&proof);
    bytes.extend(cap);
    Ok(bytes)
}

#[test]
fn an_engine_computing_the_same_values_gives_the_same_proof() {
    // An engine of input commitments only (its trees declined, the trait's default), and one
    // computing the commit phase's trees too.
    for tree_behaviour in [Behaviour::Decline, Behaviour::Compute] {
        for preset in [Preset::Poseidon2W8, Preset::Plonky2] {
            for cap_height in [0, 2] {
                with_preset!(preset, |config| {
                    let cpu = FriPcs::new(config.clone(), params())
                        .unwrap()
                        .with_cap_height(cap_height);
                    let engine = Reference::with_trees(Behaviour::Compute, tree_behaviour);
                    let with_engine = cpu.clone().with_engine(engine.clone());
                    assert_eq!(with_engine.engine_preset(), Some(preset));
                    let (made, _) = proof_of(&with_engine).unwrap();
                    assert!(!made.commit_phase_commits.is_empty());
                    assert_eq!(proof(&with_engine).unwrap(), proof(&cpu).unwrap());
                    // Each of the two proofs: one input commitment, a tree per folded codeword.
                    assert_eq!(engine.calls.load(Ordering::Relaxed), 2);
                    assert_eq!(
                        engine.tree_calls.load(Ordering::Relaxed),
                        2 * made.commit_phase_commits.len()
                    );
                });
            }
        }
    }
}

#[test]
fn a_declining_engine_leaves_the_job_to_the_cpu() {
    let cpu = FriPcs::new(config::poseidon2_w8(), params()).unwrap();
    let engine = Reference::new(Behaviour::Decline);
    let declined = cpu.clone().with_engine(engine.clone());
    assert_eq!(proof(&declined).unwrap(), proof(&cpu).unwrap());
    assert_eq!(engine.calls.load(Ordering::Relaxed), 1);
}

#[test]
fn engine_failures_and_wrong_shapes_are_typed_errors() {
    for behaviour in [Behaviour::Fail, Behaviour::WrongLayers, Behaviour::ShortLde] {
        let pcs = FriPcs::new(config::poseidon2_w8(), params())
            .unwrap()
            .with_engine(Reference::new(behaviour));
        match proof(&pcs) {
            Err(CommitError::Engine(message)) => {
                assert!(!message.is_empty(), "{behaviour:?}");
                assert!(
                    CommitError::Engine(message.clone())
                        .to_string()
                        .starts_with("commit engine: "),
                );
            }
            other => panic!("{behaviour:?}: {other:?}"),
        }
    }
}

#[test]
fn bad_inputs_are_refused_before_the_engine_runs() {
    let engine = Reference::new(Behaviour::Compute);
    let pcs = FriPcs::new(config::poseidon2_w8(), params())
        .unwrap()
        .with_engine(engine.clone());
    assert!(matches!(pcs.commit(vec![]), Err(CommitError::NoMatrices)));
    assert!(matches!(
        pcs.commit(vec![Evaluations::new(vec![Goldilocks::ONE; 12], 4)]),
        Err(CommitError::HeightNotPowerOfTwo {
            matrix: 0,
            height: 3
        })
    ));
    assert_eq!(engine.calls.load(Ordering::Relaxed), 0);
}

#[test]
fn a_configuration_that_is_not_a_preset_stays_on_the_cpu() {
    let engine = Reference::new(Behaviour::Fail);
    let pcs = FriPcs::new(own_w8(), params())
        .unwrap()
        .with_engine(engine.clone());
    assert_eq!(pcs.engine_preset(), None);
    assert!(proof(&pcs).is_ok());
    assert_eq!(engine.calls.load(Ordering::Relaxed), 0);
}

#[test]
fn an_engine_with_the_configurations_own_constants_takes_it() {
    let cpu = FriPcs::new(own_w8(), params()).unwrap();
    let engine = Reference::with_own_w8();
    let with_engine = cpu.clone().with_engine(engine.clone());
    assert_eq!(with_engine.engine_preset(), Some(Preset::Poseidon2W8));
    assert_eq!(proof(&with_engine).unwrap(), proof(&cpu).unwrap());
    assert_eq!(engine.calls.load(Ordering::Relaxed), 1);
    // And no longer computes the preset's own configuration: that stays on the CPU.
    let preset = FriPcs::new(config::poseidon2_w8(), params())
        .unwrap()
        .with_engine(engine.clone());
    assert_eq!(preset.engine_preset(), None);
    assert!(proof(&preset).is_ok());
    assert_eq!(engine.calls.load(Ordering::Relaxed), 1);
    // Its other trees are the presets'.
    let w12 = FriPcs::new(config::poseidon2_w12(), params())
        .unwrap()
        .with_engine(engine);
    assert_eq!(w12.engine_preset(), Some(Preset::Poseidon2W12));
}

/// [`params`] folding by up to 16.
fn high_arity_params() -> FriParameters {
    FriParameters {
        max_log_arity: 4,
        log_final_poly_len: 0,
        ..params()
    }
}

#[test]
fn an_engine_folding_as_the_cpu_gives_the_same_proof() {
    for params in [params(), high_arity_params()] {
        for preset in [Preset::Poseidon2W8, Preset::Poseidon2W16] {
            with_preset!(preset, |config| {
                let cpu = FriPcs::new(config.clone(), params).unwrap();
                let engine = Reference::with_folds(
                    Behaviour::Compute,
                    Behaviour::Compute,
                    Behaviour::Compute,
                );
                let with_engine = cpu.clone().with_engine(engine.clone());
                let (made, _) = proof_of(&with_engine).unwrap();
                assert_eq!(proof(&with_engine).unwrap(), proof(&cpu).unwrap());
                // Each of the two proofs: one fold per committed codeword.
                assert_eq!(
                    engine.fold_calls.load(Ordering::Relaxed),
                    2 * made.commit_phase_commits.len()
                );
            });
        }
    }
}

#[test]
fn the_engines_folds_are_the_ones_used() {
    // Folds with another first value: the proof differs from the CPU's (so the comparisons
    // above compare what the engine folded).
    let cpu = FriPcs::new(config::poseidon2_w8(), params()).unwrap();
    let other = cpu.clone().with_engine(Reference::with_folds(
        Behaviour::Compute,
        Behaviour::Decline,
        Behaviour::OtherDigests,
    ));
    let (with_other, _) = proof_of(&other).unwrap();
    let (on_cpu, _) = proof_of(&cpu).unwrap();
    assert_ne!(with_other.commit_phase_commits, on_cpu.commit_phase_commits);
}

#[test]
fn fold_failures_and_wrong_lengths_are_typed_errors() {
    for fold_behaviour in [Behaviour::Fail, Behaviour::WrongLayers] {
        let pcs = FriPcs::new(config::poseidon2_w8(), params())
            .unwrap()
            .with_engine(Reference::with_folds(
                Behaviour::Compute,
                Behaviour::Decline,
                fold_behaviour,
            ));
        match proof_of(&pcs) {
            Err(Failed::Open(OpenError::Engine(message))) => {
                assert!(!message.is_empty(), "{fold_behaviour:?}");
            }
            other => panic!("{fold_behaviour:?}: {other:?}"),
        }
    }
}

#[test]
fn the_engines_trees_are_the_ones_committed() {
    // An engine whose trees have other digests: the commitments differ from the CPU's, so the
    // comparisons above compare what the engine computed.
    let cpu = FriPcs::new(config::poseidon2_w8(), params()).unwrap();
    let other = cpu.clone().with_engine(Reference::with_trees(
        Behaviour::Compute,
        Behaviour::OtherDigests,
    ));
    let (with_other, _) = proof_of(&other).unwrap();
    let (on_cpu, _) = proof_of(&cpu).unwrap();
    assert_ne!(with_other.commit_phase_commits, on_cpu.commit_phase_commits);
}

#[test]
fn commit_phase_tree_failures_and_wrong_shapes_are_typed_errors() {
    for tree_behaviour in [Behaviour::Fail, Behaviour::WrongLayers] {
        let pcs = FriPcs::new(config::poseidon2_w8(), params())
            .unwrap()
            .with_engine(Reference::with_trees(Behaviour::Compute, tree_behaviour));
        match proof_of(&pcs) {
            Err(Failed::Open(OpenError::Engine(message))) => {
                assert!(!message.is_empty(), "{tree_behaviour:?}");
                assert!(
                    OpenError::Engine(message.clone())
                        .to_string()
                        .starts_with("commit engine: ")
                );
            }
            other => panic!("{tree_behaviour:?}: {other:?}"),
        }
    }
}

/// The LDEs of [`inputs`] as `FriPcs::commit` computes them.
fn ldes<C: MerkleConfig>(pcs: &FriPcs<C>) -> Vec<Lde> {
    pcs.low_degree_extend(inputs()).unwrap()
}

#[test]
fn commit_ldes_takes_the_engines_tree() {
    let cpu = FriPcs::new(config::plonky2(), params()).unwrap();
    let (expected, _) = cpu.commit_ldes(ldes(&cpu)).unwrap();
    let engine = Reference::with_trees(Behaviour::Decline, Behaviour::Compute);
    let pcs = cpu.clone().with_engine(engine.clone());
    let (commitment, data) = pcs.commit_ldes(ldes(&cpu)).unwrap();
    assert_eq!(commitment, expected);
    assert_eq!(data.commitment(), &expected);
    assert_eq!(engine.tree_calls.load(Ordering::Relaxed), 1);
    assert_eq!(engine.calls.load(Ordering::Relaxed), 0);
    // Its values are the ones committed; its failures and wrong shapes are typed errors.
    let other = cpu.clone().with_engine(Reference::with_trees(
        Behaviour::Decline,
        Behaviour::OtherDigests,
    ));
    assert_ne!(other.commit_ldes(ldes(&cpu)).unwrap().0, expected);
    for tree_behaviour in [Behaviour::Fail, Behaviour::WrongLayers] {
        let pcs = cpu
            .clone()
            .with_engine(Reference::with_trees(Behaviour::Decline, tree_behaviour));
        assert!(
            matches!(pcs.commit_ldes(ldes(&cpu)), Err(CommitError::Engine(_))),
            "{tree_behaviour:?}"
        );
    }
}

#[test]
fn an_engine_reducing_as_the_cpu_gives_the_same_proof() {
    for preset in [Preset::Poseidon2W8, Preset::Plonky2] {
        with_preset!(preset, |config| {
            let cpu = FriPcs::new(config.clone(), params()).unwrap();
            let engine = Reference::with_openings(Behaviour::Compute);
            let with_engine = cpu.clone().with_engine(engine.clone());
            assert_eq!(proof(&with_engine).unwrap(), proof(&cpu).unwrap());
            // One call per proof, and both matrices came with what the engine kept of their
            // commitment, at their index there.
            assert_eq!(engine.open_calls.load(Ordering::Relaxed), 1);
            assert_eq!(engine.kept_seen.load(Ordering::Relaxed), 2);
        });
    }
}

#[test]
fn the_engines_reduced_openings_are_the_ones_used() {
    // Reduced openings with another first value: the commit phase folds them, so its
    // commitments differ from the CPU's (the comparison above compares what the engine
    // computed).
    let cpu = FriPcs::new(config::poseidon2_w8(), params()).unwrap();
    let other = cpu
        .clone()
        .with_engine(Reference::with_openings(Behaviour::OtherDigests));
    let (with_other, _) = proof_of(&other).unwrap();
    let (on_cpu, _) = proof_of(&cpu).unwrap();
    assert_ne!(with_other.commit_phase_commits, on_cpu.commit_phase_commits);
}

#[test]
fn reduced_opening_failures_and_wrong_lengths_are_typed_errors() {
    for open_behaviour in [Behaviour::Fail, Behaviour::WrongLayers] {
        let pcs = FriPcs::new(config::poseidon2_w8(), params())
            .unwrap()
            .with_engine(Reference::with_openings(open_behaviour));
        match proof_of(&pcs) {
            Err(Failed::Open(OpenError::Engine(message))) => {
                assert!(!message.is_empty(), "{open_behaviour:?}");
            }
            other => panic!("{open_behaviour:?}: {other:?}"),
        }
    }
}

#[test]
fn matrices_committed_elsewhere_come_without_kept_data() {
    // A commitment the engine declined was made on the CPU: its matrices reach the engine's
    // reduced openings with nothing kept (the reference engine refuses those).
    let mut engine = Arc::into_inner(Reference::new(Behaviour::Decline)).unwrap();
    engine.open_behaviour = Behaviour::Compute;
    let pcs = FriPcs::new(config::poseidon2_w8(), params())
        .unwrap()
        .with_engine(Arc::new(engine));
    match proof_of(&pcs) {
        Err(Failed::Open(OpenError::Engine(message))) => {
            assert_eq!(message, "every matrix was committed here");
        }
        other => panic!("{other:?}"),
    }
}
