//! `aurum_p3::FriPcs` through Plonky3's `Pcs` / `UnivariateStarkPcs` traits, beside the stock
//! `TwoAdicFriPcs` of the same configuration: commitments (plain and quotient), evaluations on
//! other domains, and the typed errors where Plonky3 would panic.

mod common;

use aurum_fri::{CommitError, OpenError};
use aurum_p3::pcs::ProverError;
use common::{AurumFriConfig, Challenge, StockConfig, Val, config_triple};
use p3_commit::{OpeningRequest, Pcs, PolynomialSpace, UnivariateStarkPcs};
use p3_field::coset::TwoAdicMultiplicativeCoset;
use p3_field::{Field, PrimeCharacteristicRing};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_uni_stark::StarkGenericConfig;

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
