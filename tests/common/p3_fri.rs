//! The Plonky3 FRI configuration Aurum's is compared with: `TwoAdicFriPcs` over
//! `MerkleTreeMmcs` with Poseidon2 width 8 (sponge rate 4, truncated compression),
//! `ExtensionMmcs` over the same tree for the folded codewords, `Radix2DitParallel`, and
//! `DuplexChallenger` width 8 rate 4. Shared, as a source file, by the differential test
//! (`tests/tests/it/fri_vs_p3.rs`) and the benchmark (`benches/benches/fri.rs`).

use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::Field;
use p3_field::extension::BinomialExtensionField;
use p3_fri::TwoAdicFriPcs;
use p3_goldilocks::Goldilocks as P3;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};

pub type Ext = BinomialExtensionField<P3, 2>;
pub type Perm = p3_goldilocks::Poseidon2Goldilocks<8>;
type Packing = <P3 as Field>::Packing;
pub type ValMmcs = MerkleTreeMmcs<
    Packing,
    Packing,
    PaddingFreeSponge<Perm, 8, 4, 4>,
    TruncatedPermutation<Perm, 2, 4, 8>,
    2,
    4,
>;
pub type ExtMmcs = ExtensionMmcs<P3, Ext, ValMmcs>;
pub type P3Pcs = TwoAdicFriPcs<P3, Radix2DitParallel<P3>, ValMmcs, ExtMmcs>;
pub type P3Challenger = p3_challenger::DuplexChallenger<P3, Perm, 8, 4>;

/// Plonky3's scheme with Aurum's parameters and `cap_height`.
pub fn p3_pcs(params: &aurum_fri::FriParameters, cap_height: usize) -> P3Pcs {
    let perm = p3_goldilocks::default_goldilocks_poseidon2_8();
    let mmcs = ValMmcs::new(
        PaddingFreeSponge::new(perm.clone()),
        TruncatedPermutation::new(perm),
        cap_height,
    );
    let fri = p3_fri::FriParameters {
        log_blowup: params.log_blowup,
        log_final_poly_len: params.log_final_poly_len,
        max_log_arity: params.max_log_arity,
        num_queries: params.num_queries,
        batch_proof_of_work_bits: params.batch_proof_of_work_bits,
        commit_proof_of_work_bits: params.commit_proof_of_work_bits,
        query_proof_of_work_bits: params.query_proof_of_work_bits,
        mmcs: ExtMmcs::new(mmcs.clone()),
    };
    P3Pcs::new(Radix2DitParallel::default(), mmcs, fri)
}

/// A fresh Plonky3 transcript.
pub fn p3_challenger() -> P3Challenger {
    P3Challenger::new(p3_goldilocks::default_goldilocks_poseidon2_8())
}
