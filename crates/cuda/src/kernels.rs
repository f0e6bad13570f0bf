//! The kernels' CUDA C++ source, assembled from `kernels/*.cuh` and the permutations' constants.
//!
//! The constants are data: the round constants, the Poseidon2 diagonals and the Poseidon MDS
//! matrix are written into a prelude from the Rust crates that own them, so the GPU uses
//! exactly the CPU's values. The same field, permutation and hash code is also compiled for the
//! host by this crate's host check (`tests/host_kernels.rs`, with [`host_source`]) and compared
//! with the Rust implementation there, so most of the kernels' arithmetic is tested on
//! machines without a GPU.

use core::fmt::Write;

use aurum_goldilocks::Goldilocks;
use aurum_poseidon::FastConstants;
use aurum_poseidon::constants::mds_matrix;
use aurum_poseidon2::{LinearLayers, Plonky3Layers, Poseidon2Goldilocks, RoundConstants};

const GOLDILOCKS: &str = include_str!("../kernels/goldilocks.cuh");
const POSEIDON2: &str = include_str!("../kernels/poseidon2.cuh");
const POSEIDON: &str = include_str!("../kernels/poseidon.cuh");
const HASH: &str = include_str!("../kernels/hash.cuh");
const MERKLE: &str = include_str!("../kernels/merkle.cu");
const NTT: &str = include_str!("../kernels/ntt.cuh");
const NTT_KERNELS: &str = include_str!("../kernels/ntt.cu");
const FOLD: &str = include_str!("../kernels/fold.cu");
const OPEN: &str = include_str!("../kernels/open.cu");

/// The parts of the source with kernels, after the field code, in the order they build on
/// each other (the device's and the emulator's source).
const KERNEL_PARTS: [&str; 8] = [
    POSEIDON2,
    POSEIDON,
    HASH,
    NTT,
    MERKLE,
    NTT_KERNELS,
    FOLD,
    OPEN,
];

pub mod lde;

/// What the device build defines: NVRTC has no standard headers.
const DEVICE_PRELUDE: &str = "\
typedef unsigned long long u64;
typedef unsigned int u32;
#define AURUM_DEV static __device__ __forceinline__
#define AURUM_METHOD __device__ __forceinline__
#define AURUM_CONST __constant__
#define AURUM_MULHI(a, b) __umul64hi((a), (b))
#define AURUM_BREV64(x) __brevll(x)
#define AURUM_FOR_THREADS(t, n) for (u32 t = threadIdx.x; t < (n); t += blockDim.x)
#define AURUM_SYNC() __syncthreads()
#define AURUM_PTX 1
";

/// What the host build defines instead: a block's threads run one after another between
/// `AURUM_SYNC()` points (see `kernels/ntt.cuh`).
const HOST_PRELUDE: &str = "\
typedef unsigned long long u64;
typedef unsigned int u32;
#define AURUM_DEV static inline
#define AURUM_METHOD inline
#define AURUM_CONST static const
#define AURUM_MULHI(a, b) ((u64)(((unsigned __int128)(a) * (unsigned __int128)(b)) >> 64))
static inline u64 aurum_brev64(u64 x) {
    u64 r = 0;
    for (int i = 0; i < 64; i++) r |= ((x >> i) & 1) << (63 - i);
    return r;
}
#define AURUM_BREV64(x) aurum_brev64(x)
#define AURUM_FOR_THREADS(t, n) for (u32 t = 0; t < (n); t++)
#define AURUM_SYNC()
";

/// What the host emulator (the `emulator` feature) adds to [`HOST_PRELUDE`] to compile the
/// kernels themselves (`merkle.cu`, `ntt.cu`): CUDA's kernel qualifiers become plain functions,
/// `__shared__` arrays a host thread's own (a block runs on one thread), and the block and
/// thread indices thread-local variables that `aurum_emulator_thread` sets before each call.
#[cfg(feature = "emulator")]
const EMULATOR_PRELUDE: &str = "\
struct aurum_dim3 { u32 x, y, z; };
static thread_local aurum_dim3 blockIdx, threadIdx, blockDim;
extern \"C\" void aurum_emulator_thread(u32 block, u32 thread, u32 threads) {
    blockIdx = aurum_dim3{block, 0, 0};
    threadIdx = aurum_dim3{thread, 0, 0};
    blockDim = aurum_dim3{threads, 1, 1};
}
#define __global__
#define __launch_bounds__(...)
#define __shared__ static thread_local
";

/// The Poseidon2 round constants the kernels are compiled with, per width: Plonky3's fixed
/// ones (`default_goldilocks_poseidon2_8/12/16`, the presets') where `None`, else the given
/// set — Plonky3 provers often draw theirs from a seeded generator (`new_from_rng_128`). The
/// linear layers are Plonky3's either way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poseidon2Constants {
    /// Width 8's.
    pub w8: Option<RoundConstants<8>>,
    /// Width 12's.
    pub w12: Option<RoundConstants<12>>,
    /// Width 16's.
    pub w16: Option<RoundConstants<16>>,
}

impl Poseidon2Constants {
    /// The same constants with every width given Plonky3's fixed ones said as `None`: equal
    /// sets compare equal however they were written.
    #[must_use]
    pub fn without_fixed(&self) -> Self {
        fn own<const W: usize>(c: &Option<RoundConstants<W>>) -> Option<RoundConstants<W>>
        where
            Plonky3Layers: LinearLayers<W>,
        {
            c.as_ref()
                .filter(|c| **c != *Poseidon2Goldilocks::<W>::new().constants())
                .cloned()
        }
        Self {
            w8: own(&self.w8),
            w12: own(&self.w12),
            w16: own(&self.w16),
        }
    }

    /// The width-`W` permutation these constants make (the CPU's, for comparisons).
    #[must_use]
    pub fn permutation<const W: usize>(&self) -> Poseidon2Goldilocks<W>
    where
        Plonky3Layers: LinearLayers<W>,
        Self: ConstantsOf<W>,
    {
        match self.of_width() {
            Some(constants) => Poseidon2Goldilocks::<W>::with_constants(constants.clone()),
            None => Poseidon2Goldilocks::<W>::new(),
        }
    }
}

/// The width-`W` field of [`Poseidon2Constants`] (widths 8, 12 and 16): what
/// [`Poseidon2Constants::permutation`] reads.
pub trait ConstantsOf<const W: usize> {
    /// The round constants given for width `W`, `None` for Plonky3's fixed ones.
    fn of_width(&self) -> Option<&RoundConstants<W>>;
}

impl ConstantsOf<8> for Poseidon2Constants {
    fn of_width(&self) -> Option<&RoundConstants<8>> {
        self.w8.as_ref()
    }
}

impl ConstantsOf<12> for Poseidon2Constants {
    fn of_width(&self) -> Option<&RoundConstants<12>> {
        self.w12.as_ref()
    }
}

impl ConstantsOf<16> for Poseidon2Constants {
    fn of_width(&self) -> Option<&RoundConstants<16>> {
        self.w16.as_ref()
    }
}

/// How the kernels are compiled besides their constants: a knob for measuring, on a GPU, what
/// the default was chosen without (`examples/gpu_bench.rs` times each setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelTuning {
    /// Blocks of 128 threads the tree and permutation kernels leave room for on one SM
    /// (`__launch_bounds__`), which caps their registers at 65536 / (128 · `min_blocks`); 1 to
    /// 16, default 4 (at most 128 registers; the kernels use 48–106 under it, compute 9.0).
    pub min_blocks: u32,
}

impl Default for KernelTuning {
    fn default() -> Self {
        Self { min_blocks: 4 }
    }
}

impl KernelTuning {
    /// NVRTC's options for this tuning (empty for the default, which the source defines).
    #[must_use]
    pub fn nvrtc_options(&self) -> Vec<String> {
        if *self == Self::default() {
            Vec::new()
        } else {
            vec![format!(
                "-DTREE_MIN_BLOCKS={}",
                self.min_blocks.clamp(1, 16)
            )]
        }
    }
}

/// The whole translation unit NVRTC compiles: prelude, constants, field, generated internal
/// layers, permutations, hashes and the kernels, with Plonky3's fixed Poseidon2 constants.
#[must_use]
pub fn device_source() -> String {
    device_source_with(&Poseidon2Constants::default())
}

/// [`device_source`] with the Poseidon2 round constants `constants`.
#[must_use]
pub fn device_source_with(constants: &Poseidon2Constants) -> String {
    assemble(DEVICE_PRELUDE, constants, &KERNEL_PARTS)
}

/// The same field, permutation, hash and NTT code for the host's C++ compiler (no kernels),
/// for the host check; a `main` that drives it is appended by the check.
#[must_use]
pub fn host_source() -> String {
    host_source_with(&Poseidon2Constants::default())
}

/// [`host_source`] with the Poseidon2 round constants `constants`.
#[must_use]
pub fn host_source_with(constants: &Poseidon2Constants) -> String {
    assemble(HOST_PRELUDE, constants, &[POSEIDON2, POSEIDON, HASH, NTT])
}

/// The source the host emulator compiles (the `emulator` feature): the device source's parts,
/// kernels included, with the host's prelude and [`EMULATOR_PRELUDE`].
#[cfg(feature = "emulator")]
pub(crate) fn emulator_source_with(constants: &Poseidon2Constants) -> String {
    assemble(
        &format!("{HOST_PRELUDE}{EMULATOR_PRELUDE}"),
        constants,
        &KERNEL_PARTS,
    )
}

fn assemble(prelude: &str, poseidon2: &Poseidon2Constants, parts: &[&str]) -> String {
    let mut source = String::from(prelude);
    source.push_str(&constants(poseidon2));
    source.push_str(GOLDILOCKS);
    source.push('\n');
    source.push_str(&internal_layer::<8>());
    source.push_str(&internal_layer::<12>());
    source.push_str(&internal_layer::<16>());
    for part in parts {
        source.push_str(part);
        source.push('\n');
    }
    source
}

/// `struct P2InternalW<W>`: `s_i ← D_i·s_i + Σ s_j` on lazy values for Plonky3's diagonal at
/// width `W`, each entry recognised from its value: `±n` (1 ≤ n ≤ 4) as a small multiply-add
/// (`gl_mac_wide`, of `−s_i` for a negative entry), `±1/2^k` (k ≤ 32) by `gl_div_2exp`, anything
/// else by a multiplication with `P2W<W>_DIAG[i]`.
fn internal_layer<const W: usize>() -> String
where
    Plonky3Layers: LinearLayers<W>,
{
    let diagonal = <Plonky3Layers as LinearLayers<W>>::internal_diagonal();
    let mut out = format!(
        "struct P2InternalW{W} {{\n    AURUM_METHOD static void apply(u64 *s) {{\n        u64 sum = gl_sum_lazy(s, {W});\n"
    );
    for (i, d) in diagonal.iter().enumerate() {
        let x = format!("s[{i}]");
        let term = match small_form(*d) {
            Some(Small::Times { negative, n }) => {
                let x = if negative {
                    format!("gl_neg_lazy({x})")
                } else {
                    x
                };
                format!("gl_fold(gl_mac_wide(sum, {x}, {n}))")
            }
            Some(Small::Halved { negative, k }) => {
                let op = if negative { "gl_sub" } else { "gl_add_lazy" };
                format!("{op}(sum, gl_div_2exp({x}, {k}))")
            }
            None => format!("gl_add_lazy(sum, gl_mul(P2W{W}_DIAG[{i}], {x}))"),
        };
        let _ = writeln!(out, "        s[{i}] = {term};");
    }
    out.push_str("    }\n};\n");
    out
}

/// A diagonal entry the internal layer applies without a full multiplication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Small {
    /// `±n`, 1 ≤ n ≤ 4.
    Times { negative: bool, n: u32 },
    /// `±1/2^k`, 1 ≤ k ≤ 32.
    Halved { negative: bool, k: u64 },
}

/// `d` as [`Small`], if it is one.
fn small_form(d: Goldilocks) -> Option<Small> {
    for negative in [false, true] {
        let target = if negative { -d } else { d };
        if let Some(n) = (1u32..=4).find(|&n| target == Goldilocks::from(n)) {
            return Some(Small::Times { negative, n });
        }
        if let Some(k) = (1u64..=32).find(|&k| target == Goldilocks::ONE.div_2exp(k)) {
            return Some(Small::Halved { negative, k });
        }
    }
    None
}

/// The constant arrays the permutations read (names as the `.cuh` files use them).
fn constants(poseidon2: &Poseidon2Constants) -> String {
    let mut out = String::new();
    poseidon2_constants(&mut out, &poseidon2.permutation::<8>());
    poseidon2_constants(&mut out, &poseidon2.permutation::<12>());
    poseidon2_constants(&mut out, &poseidon2.permutation::<16>());
    let mds: Vec<u64> = mds_matrix().iter().flatten().copied().collect();
    array(&mut out, "POSEIDON_MDS", &mds);
    let fast = FastConstants::get();
    for (name, values) in [
        ("POSEIDON_FULL_RC", fast.full.as_flattened()),
        ("POSEIDON_PARTIAL_RC", &fast.partial[..]),
        (
            "POSEIDON_FIRST_MATRIX",
            fast.first_partial_matrix.as_flattened(),
        ),
        ("POSEIDON_PARTIAL_ROWS", fast.partial_rows.as_flattened()),
        ("POSEIDON_PARTIAL_COLS", fast.partial_cols.as_flattened()),
    ] {
        let words: Vec<u64> = values.iter().map(|x| x.as_canonical_u64()).collect();
        array(&mut out, name, &words);
    }
    out
}

fn poseidon2_constants<const W: usize>(out: &mut String, perm: &Poseidon2Goldilocks<W>)
where
    Plonky3Layers: LinearLayers<W>,
{
    let c = perm.constants();
    let external: Vec<u64> = c
        .initial
        .iter()
        .chain(&c.terminal)
        .flatten()
        .map(|x| x.as_canonical_u64())
        .collect();
    let internal: Vec<u64> = c.internal.iter().map(|x| x.as_canonical_u64()).collect();
    let diagonal: Vec<u64> = <Plonky3Layers as LinearLayers<W>>::internal_diagonal()
        .iter()
        .map(|x| x.as_canonical_u64())
        .collect();
    array(out, &format!("P2W{W}_EXT"), &external);
    array(out, &format!("P2W{W}_INT"), &internal);
    array(out, &format!("P2W{W}_DIAG"), &diagonal);
}

/// `AURUM_CONST u64 NAME[n] = { … };`
fn array(out: &mut String, name: &str, values: &[u64]) {
    let _ = write!(out, "AURUM_CONST u64 {name}[{}] = {{", values.len());
    for (i, v) in values.iter().enumerate() {
        if i % 4 == 0 {
            out.push_str("\n    ");
        }
        let _ = write!(out, "0x{v:016x}ULL, ");
    }
    out.push_str("\n};\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default tuning is the source's own; another is one define NVRTC is given, which the
    /// source lets override its default.
    #[test]
    fn tunings_become_defines() {
        assert!(KernelTuning::default().nvrtc_options().is_empty());
        assert!(device_source().contains("#define TREE_MIN_BLOCKS 4\n"));
        assert!(device_source().contains("#ifndef TREE_MIN_BLOCKS\n"));
        assert_eq!(
            KernelTuning { min_blocks: 2 }.nvrtc_options(),
            ["-DTREE_MIN_BLOCKS=2"]
        );
        assert_eq!(
            KernelTuning { min_blocks: 99 }.nvrtc_options(),
            ["-DTREE_MIN_BLOCKS=16"]
        );
    }

    /// `poseidon_mds` splits each input into 32-bit halves and sums up to 12 products per half
    /// in 64 bits: that needs entries below 2^6 (sums below 2^42).
    #[test]
    fn mds_entries_fit_the_split_sums() {
        for row in mds_matrix() {
            assert!(row.iter().all(|&c| c < 1 << 6), "{row:?}");
            assert!(row.iter().sum::<u64>() < 1 << 10);
        }
    }

    /// Every Plonky3 diagonal entry has a small form: no full multiplication in the internal
    /// layer.
    #[test]
    fn internal_layers_have_no_multiplication() {
        for code in [
            internal_layer::<8>(),
            internal_layer::<12>(),
            internal_layer::<16>(),
        ] {
            assert!(!code.contains("gl_mul"), "{code}");
        }
    }

    #[test]
    fn fixed_constants_written_out_are_the_default() {
        let fixed = Poseidon2Goldilocks::<8>::new().constants().clone();
        let written = Poseidon2Constants {
            w8: Some(fixed.clone()),
            ..Poseidon2Constants::default()
        };
        assert_eq!(written.without_fixed(), Poseidon2Constants::default());
        let mut other = fixed;
        other.internal[21] += Goldilocks::ONE;
        let own = Poseidon2Constants {
            w8: Some(other),
            ..Poseidon2Constants::default()
        };
        assert_eq!(own.without_fixed(), own);
        assert_ne!(
            own.permutation::<8>().constants(),
            Poseidon2Goldilocks::<8>::new().constants()
        );
        assert_eq!(
            own.permutation::<12>().constants(),
            Poseidon2Goldilocks::<12>::new().constants()
        );
    }

    #[test]
    fn small_forms_are_recognised() {
        assert_eq!(
            small_form(Goldilocks::from(3u32)),
            Some(Small::Times {
                negative: false,
                n: 3
            })
        );
        assert_eq!(
            small_form(-Goldilocks::from(2u32)),
            Some(Small::Times {
                negative: true,
                n: 2
            })
        );
        assert_eq!(
            small_form(-Goldilocks::ONE.div_2exp(32)),
            Some(Small::Halved {
                negative: true,
                k: 32
            })
        );
        assert_eq!(small_form(Goldilocks::from(5u32)), None);
    }
}
