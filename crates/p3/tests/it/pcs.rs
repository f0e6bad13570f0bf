//! `aurum_p3::FriPcs` through Plonky3's `Pcs` / `UnivariateStarkPcs` traits, beside the stock
//! `TwoAdicFriPcs` of the same configuration: commitments (plain and quotient), evaluations on
//! other domains, the typed errors where Plonky3 would panic, and `from_p3_parameters`' reading
//! and checking of a Plonky3 configuration's MMCSs.

use crate::common;

use aurum_p3::pcs::{ConfigError, MmcsRole, ProverError};
use aurum_p3::{CommitError, OpenError, PaddingFreeSponge, ParamsError, TruncatedPermutation};
use common::{
    AurumFriConfig, AurumPerm, Challenge, StockConfig, StockPerm, Val, config_triple, on_one_thread,
};
use p3_challenger::DuplexChallenger;
use p3_commit::{OpeningRequest, Pcs, PolynomialSpace, UnivariateStarkPcs};
use p3_dft::Radix2DitParallel;
use p3_field::coset::TwoAdicMultiplicativeCoset;
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing};
use p3_fri::FriParameters;
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_uni_stark::StarkGenericConfig;
use rand::SeedableRng;
use rand::rngs::SmallRng;

type StockPcs = <StockConfig<8, 4> as StarkGenericConfig>::Pcs;
type FriPcs = <AurumFriConfig<8, 4> as StarkGenericConfig>::Pcs;
type StockChallenger = <StockConfig<8, 4> as StarkGenericConfig>::Challenger;
type FriChallenger = <AurumFriConfig<8, 4> as StarkGenericConfig>::Challenger;
type Domain = TwoAdicMultiplicativeCoset<Val>;

fn pcs_pair() -> (StockPcs, FriPcs, StockChallenger, FriChallenger) {
    let (stock, _, aurum_fri, _) = config_triple::<8, 4>(11);
    (
        stock.pcs().clone(),
        aurum_fri.pcs().clone(),
        stock.initialise_challenger(),
        aurum_fri.initialise_challenger(),
    )
}

/// A `height × width` matrix of arbitrary values.
fn matrix(height: usize, width: usize, seed: u64) -> RowMajorMatrix<Val> {
    let values = (0..height * width)
        .map(|i| {
            let x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed;
            Val::new(x)
        })
        .collect();
    RowMajorMatrix::new(values, width)
}

fn rows(m: &impl Matrix<Val>) -> Vec<Vec<Val>> {
    m.rows().map(Iterator::collect).collect()
}

#[test]
fn commitments_and_evaluations_on_domains_match_plonky3() {
    let (stock, fri, _, _) = pcs_pair();
    let (log_n, width) = (5, 3);
    let trace = matrix(1 << log_n, width, 1);
    let domain =
        <FriPcs as Pcs<Challenge, FriChallenger>>::natural_domain_for_degree(&fri, 1 << log_n);
    let (stock_commit, stock_data) =
        <StockPcs as Pcs<Challenge, StockChallenger>>::commit(&stock, [(domain, trace.clone())])
            .unwrap();
    let (fri_commit, fri_data) =
        <FriPcs as Pcs<Challenge, FriChallenger>>::commit(&fri, [(domain, trace)]).unwrap();
    assert_eq!(fri_commit, stock_commit);

    let generator = Val::GENERATOR;
    let domains = [
        // Inside the LDE: views of the committed rows.
        Domain::new(generator, log_n + 1).unwrap(),
        Domain::new(generator, log_n - 1).unwrap(),
        // Elsewhere: recomputed from the coefficients.
        Domain::new(Val::new(3), log_n + 2).unwrap(),
        Domain::new(Val::ONE, log_n).unwrap(),
        Domain::new(generator, log_n + 3).unwrap(),
    ];
    for d in domains {
        let theirs =
            <StockPcs as UnivariateStarkPcs<Challenge, StockChallenger>>::get_evaluations_on_domain(
                &stock,
                &stock_data,
                0,
                d,
            );
        let ours =
            <FriPcs as UnivariateStarkPcs<Challenge, FriChallenger>>::get_evaluations_on_domain(
                &fri, &fri_data, 0, d,
            );
        assert_eq!((ours.height(), ours.width()), (d.size(), width));
        assert!(rows(&ours) == rows(&theirs), "evaluations on {d:?}");
    }

    // A domain smaller than the degree: every other point of the domain twice its size.
    let shift = Val::new(5);
    let big = <FriPcs as UnivariateStarkPcs<Challenge, FriChallenger>>::get_evaluations_on_domain(
        &fri,
        &fri_data,
        0,
        Domain::new(shift, log_n).unwrap(),
    );
    let small = <FriPcs as UnivariateStarkPcs<Challenge, FriChallenger>>::get_evaluations_on_domain(
        &fri,
        &fri_data,
        0,
        Domain::new(shift, log_n - 1).unwrap(),
    );
    let every_other: Vec<Vec<Val>> = rows(&big).into_iter().step_by(2).collect();
    assert_eq!(rows(&small), every_other);
}

#[test]
fn quotient_commitments_match_plonky3() {
    let (stock, fri, _, _) = pcs_pair();
    let trace_domain =
        <FriPcs as Pcs<Challenge, FriChallenger>>::natural_domain_for_degree(&fri, 1 << 4);
    let quotient_domain = trace_domain.create_disjoint_domain(1 << 6);
    let quotient = matrix(1 << 6, 2, 2);
    for chunks in [1, 2, 4] {
        let (theirs, _) =
            <StockPcs as UnivariateStarkPcs<Challenge, StockChallenger>>::commit_quotient(
                &stock,
                quotient_domain,
                quotient.clone(),
                chunks,
            )
            .unwrap();
        let (ours, _) = <FriPcs as UnivariateStarkPcs<Challenge, FriChallenger>>::commit_quotient(
            &fri,
            quotient_domain,
            quotient.clone(),
            chunks,
        )
        .unwrap();
        assert_eq!(ours, theirs, "{chunks} chunks");
    }
}

#[test]
fn inputs_plonky3_would_panic_on_are_typed_errors() {
    let (_, fri, _, mut challenger) = pcs_pair();
    let domain = <FriPcs as Pcs<Challenge, FriChallenger>>::natural_domain_for_degree(&fri, 8);
    assert_eq!(
        <FriPcs as Pcs<Challenge, FriChallenger>>::commit(&fri, [(domain, matrix(16, 1, 3))])
            .unwrap_err(),
        ProverError::DomainHeight {
            matrix: 0,
            domain_size: 8,
            height: 16
        }
    );
    assert_eq!(
        <FriPcs as UnivariateStarkPcs<Challenge, FriChallenger>>::commit_ldes(
            &fri,
            vec![matrix(1, 2, 3)]
        )
        .unwrap_err(),
        ProverError::Commit(CommitError::LdeBelowBlowup {
            matrix: 0,
            height: 1
        })
    );

    // A point of the LDE domain is refused before the transcript is touched.
    let (_, data) =
        <FriPcs as Pcs<Challenge, FriChallenger>>::commit(&fri, [(domain, matrix(8, 2, 4))])
            .unwrap();
    let before = challenger.clone();
    let in_domain = Challenge::from(Val::GENERATOR);
    let result = <FriPcs as Pcs<Challenge, FriChallenger>>::open(
        &fri,
        vec![OpeningRequest {
            prover_data: &data,
            points: vec![vec![in_domain]],
        }],
        &mut challenger,
    );
    assert!(matches!(
        result,
        Err(ProverError::Open(OpenError::PointInDomain {
            batch: 0,
            matrix: 0,
            point: 0
        }))
    ));
    assert_eq!(challenger.sponge_state, before.sponge_state);
    assert_eq!(challenger.input_buffer, before.input_buffer);
}

type AurumValMmcs = aurum_p3::pcs::ValMmcs<AurumPerm<8>, 8, 4>;
type AurumChallengeMmcs = aurum_p3::pcs::ChallengeMmcs<AurumPerm<8>, 8, 4>;

/// A Plonky3 input MMCS over Aurum's hashes with `perm`'s constants.
fn val_mmcs(perm: &AurumPerm<8>, cap_height: usize) -> AurumValMmcs {
    AurumValMmcs::new(
        PaddingFreeSponge::new(perm.clone()),
        TruncatedPermutation::new(perm.clone()),
        cap_height,
    )
}

/// Plonky3's benchmark parameters with `commit_phase` as the commit-phase MMCS.
fn benchmark(commit_phase: AurumValMmcs) -> FriParameters<AurumChallengeMmcs> {
    FriParameters::new_benchmark(AurumChallengeMmcs::new(commit_phase))
}

fn from_p3(
    perm: &AurumPerm<8>,
    input: &AurumValMmcs,
    params: &FriParameters<AurumChallengeMmcs>,
) -> Result<FriPcs, ConfigError> {
    FriPcs::from_p3_parameters(perm.clone(), input, params)
}

/// The cap height comes from the input MMCS, and the scheme commits and opens as
/// `TwoAdicFriPcs` does with those MMCSs (cap height 2: caps of 4 digests, shorter paths).
#[test]
fn from_p3_parameters_takes_the_cap_height_of_the_mmcs() {
    let seed = 21;
    let perm = AurumPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(seed));
    let fri = from_p3(&perm, &val_mmcs(&perm, 2), &benchmark(val_mmcs(&perm, 2))).unwrap();
    assert_eq!(fri.aurum().cap_height(), 2);

    let stock_perm = StockPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(seed));
    let stock_mmcs = common::ValMmcs::new(
        p3_symmetric::PaddingFreeSponge::<_, 8, 4, 4>::new(stock_perm.clone()),
        p3_symmetric::TruncatedPermutation::<_, 2, 4, 8>::new(stock_perm.clone()),
        2,
    );
    let stock = StockPcs::new(
        Radix2DitParallel::default(),
        stock_mmcs.clone(),
        FriParameters::new_benchmark(common::ChallengeMmcs::new(stock_mmcs)),
    );

    let log_n = 6;
    let domain =
        <FriPcs as Pcs<Challenge, FriChallenger>>::natural_domain_for_degree(&fri, 1 << log_n);
    let trace = matrix(1 << log_n, 3, 5);
    let (stock_commit, stock_data) = <_ as Pcs<
        Challenge,
        DuplexChallenger<Val, StockPerm<8>, 8, 4>,
    >>::commit(&stock, [(domain, trace.clone())])
    .unwrap();
    let (fri_commit, fri_data) =
        <FriPcs as Pcs<Challenge, FriChallenger>>::commit(&fri, [(domain, trace)]).unwrap();
    assert_eq!(fri_commit.roots().len(), 4);
    assert_eq!(fri_commit, stock_commit);

    let zeta = Challenge::from_basis_coefficients_slice(&[Val::new(3), Val::new(5)]).unwrap();
    let (stock_values, stock_proof) = on_one_thread(|| {
        <StockPcs as Pcs<Challenge, StockChallenger>>::open(
            &stock,
            vec![OpeningRequest {
                prover_data: &stock_data,
                points: vec![vec![zeta]],
            }],
            &mut DuplexChallenger::new(stock_perm.clone()),
        )
        .unwrap()
    });
    let (fri_values, fri_proof) = on_one_thread(|| {
        <FriPcs as Pcs<Challenge, FriChallenger>>::open(
            &fri,
            vec![OpeningRequest {
                prover_data: &fri_data,
                points: vec![vec![zeta]],
            }],
            &mut DuplexChallenger::new(perm.clone()),
        )
        .unwrap()
    });
    assert_eq!(fri_values, stock_values);
    // Compared as booleans: a failure should not print two proofs.
    assert!(
        serde_json::to_string(&fri_proof).unwrap() == serde_json::to_string(&stock_proof).unwrap(),
        "the opening proofs differ"
    );
}

/// An MMCS that would commit differently from `FriPcs` (other constants, or a commit-phase cap
/// height other than the input's) is an error, as are a cap height above the limit and
/// parameters `aurum-fri` does not run.
#[test]
fn from_p3_parameters_refuses_what_it_cannot_follow() {
    let perm = AurumPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(31));
    let other = AurumPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(32));
    let mismatch = |mmcs| Some(ConfigError::MmcsMismatch { mmcs });
    assert_eq!(
        from_p3(&perm, &val_mmcs(&other, 0), &benchmark(val_mmcs(&perm, 0))).err(),
        mismatch(MmcsRole::Input)
    );
    assert_eq!(
        from_p3(&perm, &val_mmcs(&perm, 0), &benchmark(val_mmcs(&other, 0))).err(),
        mismatch(MmcsRole::CommitPhase)
    );
    for commit_phase_cap in [0, 2, 5] {
        assert_eq!(
            from_p3(
                &perm,
                &val_mmcs(&perm, 1),
                &benchmark(val_mmcs(&perm, commit_phase_cap))
            )
            .err(),
            mismatch(MmcsRole::CommitPhase),
            "commit-phase cap height {commit_phase_cap} under input cap height 1"
        );
    }
    let too_high = aurum_p3::pcs::MAX_CAP_HEIGHT + 1;
    assert_eq!(
        from_p3(
            &perm,
            &val_mmcs(&perm, too_high),
            &benchmark(val_mmcs(&perm, too_high))
        )
        .err(),
        Some(ConfigError::CapHeight {
            cap_height: too_high
        })
    );
    let mut params = benchmark(val_mmcs(&perm, 0));
    params.log_blowup = 0;
    assert!(matches!(
        from_p3(&perm, &val_mmcs(&perm, 0), &params),
        Err(ConfigError::Params(ParamsError::Blowup { .. }))
    ));
    assert!(from_p3(&perm, &val_mmcs(&perm, 3), &benchmark(val_mmcs(&perm, 3))).is_ok());
}

/// A commit engine (`FriPcs::with_engine`, a GPU's) is handed the commitments of a scheme whose
/// tree one of its trees computes: Plonky3's fixed constants for an engine with the presets'
/// trees; drawn constants only for an engine built with them (a GPU compiled with them), else
/// the scheme keeps committing on the CPU, and its proofs are the stock ones.
#[test]
fn an_engine_is_used_for_the_constants_its_trees_compute() {
    #[derive(Debug)]
    struct Refuses(Option<aurum_merkle::Answers>);
    impl aurum_p3::CommitEngine for Refuses {
        fn tree_answers(&self, preset: aurum_merkle::Preset) -> aurum_merkle::Answers {
            match (&self.0, preset) {
                (Some(own), aurum_merkle::Preset::Poseidon2W8) => own.clone(),
                _ => preset.answers(),
            }
        }

        fn commit(
            &self,
            _: aurum_merkle::Preset,
            _: &[aurum_fri::EngineMatrix<'_>],
            _: usize,
            _: usize,
        ) -> Result<Option<aurum_fri::EngineCommit>, String> {
            Err("not here".into())
        }
    }
    let params = aurum_p3::FriParameters::benchmark();
    let plain = |perm: AurumPerm<8>| {
        aurum_p3::FriPcs::<AurumPerm<8>, 8, 4>::new(
            PaddingFreeSponge::new(perm.clone()),
            TruncatedPermutation::new(perm),
            0,
            params,
        )
        .unwrap()
    };
    let presets = std::sync::Arc::new(Refuses(None));
    let fixed = plain(AurumPerm::<8>::new()).with_engine(presets.clone());
    assert_eq!(
        fixed.aurum().engine_preset(),
        Some(aurum_merkle::Preset::Poseidon2W8)
    );
    let drawn_perm = || AurumPerm::<8>::new_from_rng_128(&mut SmallRng::seed_from_u64(1));
    let drawn = plain(drawn_perm()).with_engine(presets);
    assert_eq!(drawn.aurum().engine_preset(), None);
    // An engine whose width-8 tree hashes with the drawn constants takes that scheme, and no
    // longer the fixed one.
    let own = std::sync::Arc::new(Refuses(Some(aurum_merkle::Answers::of(
        plain(drawn_perm()).aurum().config(),
    ))));
    assert_eq!(
        plain(drawn_perm())
            .with_engine(own.clone())
            .aurum()
            .engine_preset(),
        Some(aurum_merkle::Preset::Poseidon2W8)
    );
    assert_eq!(
        plain(AurumPerm::<8>::new())
            .with_engine(own)
            .aurum()
            .engine_preset(),
        None
    );
    // The engine is asked, and its failure is the commitment's error.
    let values = vec![aurum_goldilocks::Goldilocks::ONE; 64];
    match fixed
        .aurum()
        .commit(vec![aurum_fri::Evaluations::new(values, 2)])
    {
        Err(CommitError::Engine(message)) => assert_eq!(message, "not here"),
        other => panic!("{other:?}"),
    }
}
