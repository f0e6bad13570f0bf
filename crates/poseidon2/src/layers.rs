//! The linear layers of the two parameter sets.
//!
//! External layer (both sets): a 4×4 matrix `M4` on each group of four, then every `s_i`
//! gains the sum of all `s_j` with `j ≡ i (mod 4)` (the matrix `circ(2·M4, M4, …, M4)`).
//! Internal layer: `s_i ← D_i·s_i + Σ_j s_j`.

use aurum_goldilocks::{Canonical, Goldilocks, PackedField};

/// The two linear layers of one parameter set at width `W`.
pub trait LinearLayers<const W: usize>: Send + Sync + 'static {
    /// The parameter set's name (for display and benchmark ids).
    const NAME: &'static str;

    /// Whether the SVE backend (`aurum-sve`) has a kernel for these layers at this width.
    const SVE_KERNEL: bool = false;

    /// The internal diagonal `D` as field elements (for the reference implementation and
    /// for layers that multiply by it in general).
    fn internal_diagonal() -> [Goldilocks; W];

    /// `x ← M4 · x`.
    fn apply_m4<P: PackedField>(x: &mut [P; 4]);

    /// `s_i ← D_i·s_i + sum`, given `sum = Σ_j s_j`.
    fn internal_diagonal_plus_sum<P: PackedField>(
        state: &mut [P; W],
        sum: P,
        diagonal: &[Goldilocks; W],
    );
}

/// The external layer: `M4` per group of four, then the column sums.
#[inline(always)]
pub fn external_layer<L: LinearLayers<W>, P: PackedField, const W: usize>(state: &mut [P; W]) {
    for group in state.as_chunks_mut::<4>().0 {
        L::apply_m4(group);
    }
    let mut sums = [state[0], state[1], state[2], state[3]];
    for group in state[4..].as_chunks::<4>().0 {
        for k in 0..4 {
            sums[k] += group[k];
        }
    }
    // Each column sum is added to W/4 elements: canonicalise it once so those additions can
    // skip canonicalising their operand.
    let mut column_sums = [Canonical::default(); 4];
    for (c, sum) in column_sums.iter_mut().zip(sums) {
        *c = sum.canonicalize();
    }
    for (i, s) in state.iter_mut().enumerate() {
        *s = s.add_canonical(column_sums[i % 4]);
    }
}

/// Plonky3's parameter set (the default of Plonky3 ≥ 0.5 and `p3-goldilocks` 0.8).
///
/// `M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]`, and internal diagonals of small
/// constants `±1, ±2, ±3, ±4, ±1/2^k` so that the internal layer is additions, doublings and
/// halvings only — no general multiplication.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plonky3Layers;

/// Horizen Labs' parameter set (the reference instance of the Poseidon2 paper).
///
/// `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]` and full-size internal diagonals.
#[derive(Clone, Copy, Debug, Default)]
pub struct HorizenLabsLayers;

/// Plonky3's `M4` with 9 additions and 2 doublings:
/// `y0 = s + x0 + 2x1`, `y1 = s + x1 + 2x2`, `y2 = s + x2 + 2x3`, `y3 = s + x3 + 2x0`.
#[inline(always)]
fn plonky3_m4<P: PackedField>(x: &mut [P; 4]) {
    let t01 = x[0] + x[1];
    let t23 = x[2] + x[3];
    let t0123 = t01 + t23;
    let t01123 = t0123 + x[1];
    let t01233 = t0123 + x[3];
    x[3] = t01233 + x[0].double();
    x[1] = t01123 + x[2].double();
    x[0] = t01123 + t01;
    x[2] = t01233 + t23;
}

/// Horizen Labs' `M4` with the addition chain of the Poseidon2 paper (appendix B).
#[inline(always)]
fn horizen_labs_m4<P: PackedField>(x: &mut [P; 4]) {
    let t0 = x[0] + x[1];
    let t1 = x[2] + x[3];
    let t2 = x[1].double() + t1;
    let t3 = x[3].double() + t0;
    let t4 = t1.double().double() + t3;
    let t5 = t0.double().double() + t2;
    let t6 = t3 + t5;
    let t7 = t2 + t4;
    *x = [t6, t5, t7, t4];
}

/// `x · 3`.
#[inline(always)]
fn triple<P: PackedField>(x: P) -> P {
    x.double() + x
}

/// `x · 4`.
#[inline(always)]
fn quadruple<P: PackedField>(x: P) -> P {
    x.double().double()
}

/// A small diagonal entry, as Plonky3 specifies them (used for the field values; the packed
/// code below spells each width out so that no entry is interpreted at run time).
#[derive(Clone, Copy, Debug)]
enum Small {
    /// `n`
    Pos(u32),
    /// `−n`
    Neg(u32),
    /// `1/2^k`
    Half(u32),
    /// `−1/2^k`
    NegHalf(u32),
}

impl Small {
    fn value(self) -> Goldilocks {
        match self {
            Small::Pos(n) => Goldilocks::from(n),
            Small::Neg(n) => -Goldilocks::from(n),
            Small::Half(k) => Goldilocks::ONE.div_2exp(u64::from(k)),
            Small::NegHalf(k) => -Goldilocks::ONE.div_2exp(u64::from(k)),
        }
    }
}

use Small::{Half, Neg, NegHalf, Pos};

/// Plonky3's W8 diagonal `[−2, 1, 2, 1/2, 3, −1/2, −3, −4]`.
const PLONKY3_DIAG_8: [Small; 8] = [
    Neg(2),
    Pos(1),
    Pos(2),
    Half(1),
    Pos(3),
    NegHalf(1),
    Neg(3),
    Neg(4),
];
/// Plonky3's W12 diagonal `[−2, 1, 2, 1/2, 3, 4, −1/2, −3, −4, 1/2², −1/2², 1/2³]`.
const PLONKY3_DIAG_12: [Small; 12] = [
    Neg(2),
    Pos(1),
    Pos(2),
    Half(1),
    Pos(3),
    Pos(4),
    NegHalf(1),
    Neg(3),
    Neg(4),
    Half(2),
    NegHalf(2),
    Half(3),
];
/// Plonky3's W16 diagonal
/// `[−2, 1, 2, 1/2, 3, 4, −1/2, −3, −4, 1/2³, 1/2⁴, 1/2⁵, −1/2³, −1/2⁴, −1/2⁵, 1/2³²]`.
const PLONKY3_DIAG_16: [Small; 16] = [
    Neg(2),
    Pos(1),
    Pos(2),
    Half(1),
    Pos(3),
    Pos(4),
    NegHalf(1),
    Neg(3),
    Neg(4),
    Half(3),
    Half(4),
    Half(5),
    NegHalf(3),
    NegHalf(4),
    NegHalf(5),
    Half(32),
];

/// `s ← D·s + sum` for Plonky3's W8 diagonal.
#[inline(always)]
fn plonky3_internal_8<P: PackedField>(s: &mut [P; 8], sum: P) {
    let [s0, s1, s2, s3, s4, s5, s6, s7] = *s;
    // `sum` is added to every positive term: canonicalised once, each addition is cheaper.
    let plus = sum.canonicalize();
    *s = [
        sum - s0.double(),
        s1.add_canonical(plus),
        s2.double().add_canonical(plus),
        s3.halve().add_canonical(plus),
        triple(s4).add_canonical(plus),
        sum - s5.halve(),
        sum - triple(s6),
        sum - quadruple(s7),
    ];
}

/// `s ← D·s + sum` for Plonky3's W12 diagonal.
#[inline(always)]
fn plonky3_internal_12<P: PackedField>(s: &mut [P; 12], sum: P) {
    let [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11] = *s;
    let plus = sum.canonicalize();
    *s = [
        sum - s0.double(),
        s1.add_canonical(plus),
        s2.double().add_canonical(plus),
        s3.halve().add_canonical(plus),
        triple(s4).add_canonical(plus),
        quadruple(s5).add_canonical(plus),
        sum - s6.halve(),
        sum - triple(s7),
        sum - quadruple(s8),
        s9.div_2exp(2).add_canonical(plus),
        sum - s10.div_2exp(2),
        s11.div_2exp(3).add_canonical(plus),
    ];
}

/// `s ← D·s + sum` for Plonky3's W16 diagonal.
#[inline(always)]
fn plonky3_internal_16<P: PackedField>(s: &mut [P; 16], sum: P) {
    let [
        s0,
        s1,
        s2,
        s3,
        s4,
        s5,
        s6,
        s7,
        s8,
        s9,
        s10,
        s11,
        s12,
        s13,
        s14,
        s15,
    ] = *s;
    // Direct divisions by 2^k where a backend has them (`PackedField::div_2exp`).
    let plus = sum.canonicalize();
    *s = [
        sum - s0.double(),
        s1.add_canonical(plus),
        s2.double().add_canonical(plus),
        s3.halve().add_canonical(plus),
        triple(s4).add_canonical(plus),
        quadruple(s5).add_canonical(plus),
        sum - s6.halve(),
        sum - triple(s7),
        sum - quadruple(s8),
        s9.div_2exp(3).add_canonical(plus),
        s10.div_2exp(4).add_canonical(plus),
        s11.div_2exp(5).add_canonical(plus),
        sum - s12.div_2exp(3),
        sum - s13.div_2exp(4),
        sum - s14.div_2exp(5),
        s15.div_2exp(32).add_canonical(plus),
    ];
}

macro_rules! plonky3_width {
    ($w:literal, $diag:ident, $internal:ident) => {
        impl LinearLayers<$w> for Plonky3Layers {
            const NAME: &'static str = "plonky3";
            const SVE_KERNEL: bool = true;

            fn internal_diagonal() -> [Goldilocks; $w] {
                $diag.map(Small::value)
            }

            #[inline(always)]
            fn apply_m4<P: PackedField>(x: &mut [P; 4]) {
                plonky3_m4(x);
            }

            #[inline(always)]
            fn internal_diagonal_plus_sum<P: PackedField>(
                state: &mut [P; $w],
                sum: P,
                _: &[Goldilocks; $w],
            ) {
                $internal(state, sum);
            }
        }
    };
}

plonky3_width!(8, PLONKY3_DIAG_8, plonky3_internal_8);
plonky3_width!(12, PLONKY3_DIAG_12, plonky3_internal_12);
plonky3_width!(16, PLONKY3_DIAG_16, plonky3_internal_16);

/// Horizen Labs' W8 internal diagonal (`D_i = μ_i − 1` of the reference implementation).
const HORIZEN_LABS_DIAG_8: [u64; 8] = [
    0xa98811a1fed4e3a5,
    0x1cc48b54f377e2a0,
    0xe40cd4f6c5609a26,
    0x11de79ebca97a4a3,
    0x9177c73d8b7e929c,
    0x2a6fe8085797e791,
    0x3de6e93329f8d5ad,
    0x3f7af9125da962fe,
];

/// Horizen Labs' W12 internal diagonal.
const HORIZEN_LABS_DIAG_12: [u64; 12] = [
    0xc3b6c08e23ba9300,
    0xd84b5de94a324fb6,
    0x0d0c371c5b35b84f,
    0x7964f570e7188037,
    0x5daf18bbd996604b,
    0x6743bc47b9595257,
    0x5528b9362c59bb70,
    0xac45e25b7127b68b,
    0xa2077d7dfbb606b5,
    0xf3faac6faee378ae,
    0x0c6388b51545e883,
    0xd27dbb6944917b60,
];

macro_rules! horizen_labs_width {
    ($w:literal, $diag:ident) => {
        impl LinearLayers<$w> for HorizenLabsLayers {
            const NAME: &'static str = "horizen-labs";

            fn internal_diagonal() -> [Goldilocks; $w] {
                $diag
                    .map(|d| Goldilocks::from_canonical(d).expect("diagonal entries are canonical"))
            }

            #[inline(always)]
            fn apply_m4<P: PackedField>(x: &mut [P; 4]) {
                horizen_labs_m4(x);
            }

            #[inline(always)]
            fn internal_diagonal_plus_sum<P: PackedField>(
                state: &mut [P; $w],
                sum: P,
                diagonal: &[Goldilocks; $w],
            ) {
                for (s, d) in state.iter_mut().zip(diagonal) {
                    *s = *s * *d + sum;
                }
            }
        }
    };
}

horizen_labs_width!(8, HORIZEN_LABS_DIAG_8);
horizen_labs_width!(12, HORIZEN_LABS_DIAG_12);
