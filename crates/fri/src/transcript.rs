//! The seeds of Plonky3 0.8's typed Fiat–Shamir transcripts.
//!
//! Plonky3 describes each protocol's transcript as a list of typed steps before running it,
//! and absorbs a *seed* into the sponge first: a 64-byte protocol identifier, the Keccak-256
//! fingerprint of the rendered step list, and an instance label, packed 7 bytes per field
//! element. The steps themselves then absorb and sample exactly as plain challenger calls
//! would (observations, samples, grinding); markers absorb nothing. So a transcript equal to
//! Plonky3's needs exactly these two seeds and otherwise the plain [`Challenger`] calls:
//!
//! * [`pcs_seed`] — the opening argument (`p3-fri-pcs`): one step per claimed opening, the
//!   batch proof of work, the batching challenge α, and a bracket around the low-degree test;
//! * [`fri_seed`] — the low-degree test (`p3-fri`), seeded inside that bracket: per round a
//!   commitment, its proof of work and the folding challenge β, then the final polynomial,
//!   the query proof of work and the query indices.
//!
//! A step renders as `"{hierarchy} {kind} {label length} {label} {length} {type}"`, one line
//! each, numbered and indented by nesting, under a header with the step count. Types name
//! base-field and extension values by the field's order, the degree and the Keccak-256 of
//! the basis description (`p3-scalar-basis-v1`, `p3-power-basis-v1:X^2-7`).
//!
//! [`Challenger`]: aurum_symmetric::Challenger

use core::fmt::Write;

use aurum_goldilocks::{Goldilocks, P};
use aurum_symmetric::keccak::keccak256;

use crate::fold_schedule::fold_schedule;
use crate::params::FriParameters;

/// Version byte of both protocol identifiers.
const VERSION: u8 = 1;
/// Length of the protocol identifier `[version | name | zeros | name length]`.
const PROTOCOL_ID_LEN: usize = 64;
/// Byte that ends the seed stream.
const DOMAIN_TAG: u8 = 0x80;
/// Bytes packed into one Goldilocks element (one byte short of the modulus width).
const BYTES_PER_ELEMENT: usize = 7;

/// Position of a step in the nesting.
#[derive(Clone, Copy, Debug)]
enum Hierarchy {
    Atomic,
    Begin,
    End,
}

/// Role of a step.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Protocol,
    Message,
    Challenge,
    Pow,
}

/// How many values a step carries.
#[derive(Clone, Copy, Debug)]
enum Length {
    None,
    Scalar,
    Fixed(usize),
}

/// What a step carries.
#[derive(Clone, Copy, Debug)]
enum Type {
    Marker,
    /// A commitment, encoded by the challenger itself.
    Opaque,
    /// A challenge of that many bits.
    Bits(usize),
    Base,
    Extension,
}

#[derive(Clone, Copy, Debug)]
struct Step {
    hierarchy: Hierarchy,
    kind: Kind,
    label: &'static str,
    length: Length,
    ty: Type,
}

const fn atomic(kind: Kind, label: &'static str, length: Length, ty: Type) -> Step {
    Step {
        hierarchy: Hierarchy::Atomic,
        kind,
        label,
        length,
        ty,
    }
}

/// Writes a type as Plonky3's alternate-mode `TypeTag` display does.
fn write_type(out: &mut String, ty: Type) {
    let algebra = |out: &mut String, degree: usize, basis: &[u8]| {
        let _ = write!(out, "Algebra({P}^{degree};");
        for byte in keccak256(basis) {
            let _ = write!(out, "{byte:02x}");
        }
        out.push(')');
    };
    match ty {
        Type::Marker => out.push_str("Marker"),
        Type::Opaque => out.push_str("Opaque"),
        Type::Bits(width) => {
            let _ = write!(out, "Bits({width})");
        }
        Type::Base => algebra(out, 1, b"p3-scalar-basis-v1"),
        Type::Extension => algebra(out, 2, b"p3-power-basis-v1:X^2-7"),
    }
}

/// The rendering Plonky3 fingerprints.
fn render(steps: &[Step]) -> String {
    let mut out = String::new();
    let n = steps.len();
    let width = n.saturating_sub(1).to_string().len();
    let _ = writeln!(out, "Plonky3 Fiat-Shamir Transcript ({n} interactions)");
    let mut indentation = 0usize;
    for (position, step) in steps.iter().enumerate() {
        let _ = write!(out, "{position:0>width$} ");
        if let Hierarchy::End = step.hierarchy {
            indentation = indentation.saturating_sub(1);
        }
        for _ in 0..indentation {
            out.push_str("  ");
        }
        let length = match step.length {
            Length::None => "None".to_string(),
            Length::Scalar => "Scalar".to_string(),
            Length::Fixed(n) => format!("Fixed({n})"),
        };
        let _ = write!(
            out,
            "{:?} {:?} {} {} {length} ",
            step.hierarchy,
            step.kind,
            step.label.len(),
            step.label
        );
        write_type(&mut out, step.ty);
        out.push('\n');
        if let Hierarchy::Begin = step.hierarchy {
            indentation += 1;
        }
    }
    out
}

/// The field elements a transcript's seed absorbs: the byte stream
/// `[protocol id | Keccak-256(rendering) | label length (u32 BE) | label | 0x80]`, as its
/// length and then little-endian 7-byte chunks. The label is one length-prefixed chunk
/// (`u32 BE` length, then the bytes) per `u64` in `instance`, each big-endian.
fn seed(name: &[u8], steps: &[Step], instance: &[u64]) -> Vec<Goldilocks> {
    let mut label = Vec::with_capacity(12 * instance.len());
    for value in instance {
        label.extend_from_slice(&8u32.to_be_bytes());
        label.extend_from_slice(&value.to_be_bytes());
    }
    let mut bytes = Vec::with_capacity(PROTOCOL_ID_LEN + 32 + 4 + label.len() + 1);
    let mut id = [0u8; PROTOCOL_ID_LEN];
    id[0] = VERSION;
    id[1..1 + name.len()].copy_from_slice(name);
    id[PROTOCOL_ID_LEN - 1] = name.len() as u8;
    bytes.extend_from_slice(&id);
    bytes.extend_from_slice(&keccak256(render(steps).as_bytes()));
    // Labels are a few hundred bytes; u32 is Plonky3's field width.
    bytes.extend_from_slice(&(label.len() as u32).to_be_bytes());
    bytes.extend_from_slice(&label);
    bytes.push(DOMAIN_TAG);

    let mut elements = Vec::with_capacity(1 + bytes.len().div_ceil(BYTES_PER_ELEMENT));
    elements.push(Goldilocks::from_u64(bytes.len() as u64));
    for chunk in bytes.chunks(BYTES_PER_ELEMENT) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        elements.push(Goldilocks::from_u64(u64::from_le_bytes(word)));
    }
    elements
}

/// The seed of the opening argument, absorbed before the claimed evaluations.
/// `widths[c][m][k]` is the number of values claimed for matrix `m` of commitment `c` at its
/// `k`-th point (the matrix's width).
#[must_use]
pub fn pcs_seed(widths: &[Vec<Vec<usize>>], batch_pow_bits: usize) -> Vec<Goldilocks> {
    let mut steps: Vec<Step> = widths
        .iter()
        .flatten()
        .flatten()
        .map(|&w| {
            atomic(
                Kind::Message,
                "claimed_evaluations",
                Length::Fixed(w),
                Type::Extension,
            )
        })
        .collect();
    if batch_pow_bits > 0 {
        steps.push(atomic(
            Kind::Pow,
            "batch_pow",
            Length::Fixed(batch_pow_bits),
            Type::Base,
        ));
    }
    steps.push(atomic(
        Kind::Challenge,
        "alpha",
        Length::Scalar,
        Type::Extension,
    ));
    for hierarchy in [Hierarchy::Begin, Hierarchy::End] {
        steps.push(Step {
            hierarchy,
            kind: Kind::Protocol,
            label: "low_degree_test",
            length: Length::None,
            ty: Type::Marker,
        });
    }
    // The flat step list cannot tell one matrix at two points from two matrices at one: the
    // label binds the grouping.
    let mut instance = vec![widths.len() as u64];
    for commitment in widths {
        instance.push(commitment.len() as u64);
        instance.extend(commitment.iter().map(|points| points.len() as u64));
    }
    seed(b"p3-fri-pcs", &steps, &instance)
}

/// Everything that fixes the low-degree test's transcript; both sides derive it from the
/// parameters and the input heights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FriShape {
    /// The log-arity of each commit round.
    pub log_arities: Vec<usize>,
    /// Coefficients of the final polynomial.
    pub final_poly_len: usize,
    /// Proof-of-work bits before each folding challenge.
    pub commit_pow_bits: usize,
    /// Proof-of-work bits before the query indices.
    pub query_pow_bits: usize,
    /// Query indices drawn.
    pub num_queries: usize,
    /// Bits of each query index (the log of the tallest codeword).
    pub index_bits: usize,
    /// `log_blowup`.
    pub log_blowup: usize,
    /// `max_log_arity`.
    pub max_log_arity: usize,
}

impl FriShape {
    /// The shape of a run with `params` over inputs of strictly decreasing log-heights
    /// `input_log_heights` (the tallest fixes the query index width).
    #[must_use]
    pub fn new(params: &FriParameters, input_log_heights: &[usize]) -> Self {
        Self {
            log_arities: fold_schedule(
                input_log_heights,
                params.log_final_height(),
                params.max_log_arity,
            ),
            final_poly_len: params.final_poly_len(),
            commit_pow_bits: params.commit_proof_of_work_bits,
            query_pow_bits: params.query_proof_of_work_bits,
            num_queries: params.num_queries,
            index_bits: input_log_heights.first().copied().unwrap_or(0),
            log_blowup: params.log_blowup,
            max_log_arity: params.max_log_arity,
        }
    }
}

/// The seed of the low-degree test, absorbed after α.
#[must_use]
pub fn fri_seed(shape: &FriShape) -> Vec<Goldilocks> {
    let mut steps = Vec::with_capacity(3 * shape.log_arities.len() + 3);
    for _ in &shape.log_arities {
        steps.push(atomic(
            Kind::Message,
            "commit_phase_commitment",
            Length::Scalar,
            Type::Opaque,
        ));
        if shape.commit_pow_bits > 0 {
            steps.push(atomic(
                Kind::Pow,
                "commit_pow",
                Length::Fixed(shape.commit_pow_bits),
                Type::Base,
            ));
        }
        steps.push(atomic(
            Kind::Challenge,
            "fold_challenge",
            Length::Scalar,
            Type::Extension,
        ));
    }
    steps.push(atomic(
        Kind::Message,
        "final_poly",
        Length::Fixed(shape.final_poly_len),
        Type::Extension,
    ));
    if shape.query_pow_bits > 0 {
        steps.push(atomic(
            Kind::Pow,
            "query_pow",
            Length::Fixed(shape.query_pow_bits),
            Type::Base,
        ));
    }
    steps.push(atomic(
        Kind::Challenge,
        "query_indices",
        Length::Fixed(shape.num_queries),
        Type::Bits(shape.index_bits),
    ));
    // Blow-up, arity cap and the arity of every round do not change the step list.
    let instance: Vec<u64> = [shape.log_blowup, shape.max_log_arity]
        .iter()
        .chain(&shape.log_arities)
        .map(|&v| v as u64)
        .collect();
    seed(b"p3-fri", &steps, &instance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_numbers_indents_and_length_prefixes() {
        let steps = [
            Step {
                hierarchy: Hierarchy::Begin,
                kind: Kind::Protocol,
                label: "x",
                length: Length::None,
                ty: Type::Marker,
            },
            atomic(Kind::Challenge, "ab", Length::Fixed(3), Type::Bits(7)),
            Step {
                hierarchy: Hierarchy::End,
                kind: Kind::Protocol,
                label: "x",
                length: Length::None,
                ty: Type::Marker,
            },
        ];
        assert_eq!(
            render(&steps),
            "Plonky3 Fiat-Shamir Transcript (3 interactions)\n\
             0 Begin Protocol 1 x None Marker\n\
             1   Atomic Challenge 2 ab Fixed(3) Bits(7)\n\
             2 End Protocol 1 x None Marker\n"
        );
    }

    #[test]
    fn seeds_pack_their_length_then_seven_byte_chunks() {
        let elements = seed(b"p3-fri", &[], &[1, 2]);
        // 64 + 32 + 4 + 2·12 + 1 bytes.
        let len = 64 + 32 + 4 + 24 + 1;
        assert_eq!(elements[0], Goldilocks::from_u64(len));
        assert_eq!(elements.len(), 1 + (len as usize).div_ceil(7));
        // Version 1, then "p3-fri" little-endian in the first chunk.
        let first = u64::from_le_bytes([1, b'p', b'3', b'-', b'f', b'r', b'i', 0]);
        assert_eq!(elements[1], Goldilocks::from_u64(first));
        // Every chunk is below 2^56 < p.
        assert!(elements[1..].iter().all(|e| e.as_canonical_u64() < 1 << 56));
    }
}
