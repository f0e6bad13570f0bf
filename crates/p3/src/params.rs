//! Plonky3's FRI parameters as `aurum-fri`'s, and the largest cap height taken from them.

use aurum_fri::FriParameters;

/// The highest cap height [`FriPcs::from_p3_parameters`](crate::FriPcs::from_p3_parameters) takes: a cap of height `h` puts
/// `2^h` digests into every commitment of a proof (at 16, 2 MiB each), far beyond any
/// configuration's; [`FriPcs::new`](crate::FriPcs::new) takes any.
pub const MAX_CAP_HEIGHT: usize = 16;

/// The numbers of Plonky3's FRI parameters (not its MMCS).
pub(crate) fn fri_parameters<M>(params: &p3_fri::FriParameters<M>) -> FriParameters {
    FriParameters {
        log_blowup: params.log_blowup,
        log_final_poly_len: params.log_final_poly_len,
        max_log_arity: params.max_log_arity,
        num_queries: params.num_queries,
        batch_proof_of_work_bits: params.batch_proof_of_work_bits,
        commit_proof_of_work_bits: params.commit_proof_of_work_bits,
        query_proof_of_work_bits: params.query_proof_of_work_bits,
    }
}
