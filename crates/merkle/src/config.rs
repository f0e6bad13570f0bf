//! Tree configurations: how rows are hashed into leaves and how digests are compressed.

use core::fmt;
use core::str::FromStr;

use aurum_goldilocks::Goldilocks;
use aurum_poseidon::{HashOrNoop, LinearHash, Poseidon, TwoToOne};
use aurum_poseidon2::{LinearLayers, Plonky3Layers, Poseidon2Goldilocks};
use aurum_symmetric::{
    Compressor, Hasher, LengthError, PaddingFreeSponge, TruncatedPermutation, compress_layer,
    hash_rows, hash_rows_on_this_thread,
};

use crate::digest::Digest;

/// A leaf hash and a node compression over 4-element digests.
pub trait MerkleConfig: Send + Sync {
    /// Hashes the concatenated rows of a leaf.
    type Leaf: Hasher<4>;
    /// Compresses two digests.
    type Node: Compressor<4>;

    /// The leaf hash.
    fn leaf(&self) -> &Self::Leaf;
    /// The node compression.
    fn node(&self) -> &Self::Node;
    /// The preset's name.
    fn name(&self) -> &'static str;

    /// Hashes every row of `data` (`digests.len()` rows of `row_len`) into its leaf digest:
    /// [`hash_rows`] with [`MerkleConfig::leaf`], dispatched and parallel.
    ///
    /// # Errors
    /// Unless `data.len() == digests.len() · row_len`.
    fn hash_leaves(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) -> Result<(), LengthError> {
        hash_rows(self.leaf(), data, row_len, digests)
    }

    /// [`MerkleConfig::hash_leaves`] on the calling thread only.
    ///
    /// # Panics
    /// Unless `data.len() == digests.len() · row_len`.
    fn hash_leaves_on_this_thread(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) {
        hash_rows_on_this_thread(self.leaf(), data, row_len, digests);
    }

    /// One layer: `parents[i]` = [`MerkleConfig::node`] of `children[2i]` and
    /// `children[2i + 1]` ([`compress_layer`]), dispatched and parallel.
    ///
    /// # Errors
    /// Unless `children.len() == 2 · parents.len()`.
    fn compress_nodes(
        &self,
        children: &[Digest],
        parents: &mut [Digest],
    ) -> Result<(), LengthError> {
        compress_layer(self.node(), children, parents)
    }
}

/// A configuration built from a leaf hasher and a compressor.
///
/// Its bulk operations ([`MerkleConfig::hash_leaves`], [`MerkleConfig::compress_nodes`]) are
/// chosen when it is built ([`Config::new`]) and reached through function pointers: the
/// dispatched kernels of a preset (the leaf hash and the compression on every backend, at
/// every batch size) are compiled once, in the crate that builds it — this one for the
/// presets — and not again in every crate that commits with it.
#[derive(Clone)]
pub struct Config<H, C> {
    leaf: H,
    node: C,
    name: &'static str,
    bulk: Bulk<H, C>,
}

/// [`hash_rows`] with a leaf hash `H`.
type HashLeaves<H> = fn(&H, &[Goldilocks], usize, &mut [Digest]) -> Result<(), LengthError>;
/// [`hash_rows_on_this_thread`] with a leaf hash `H`.
type HashLeavesHere<H> = fn(&H, &[Goldilocks], usize, &mut [Digest]);
/// [`compress_layer`] with a compression `C`.
type CompressNodes<C> = fn(&C, &[Digest], &mut [Digest]) -> Result<(), LengthError>;

/// The bulk operations of a [`Config`], instantiated where it is built.
#[derive(Clone)]
struct Bulk<H, C> {
    leaves: HashLeaves<H>,
    leaves_here: HashLeavesHere<H>,
    nodes: CompressNodes<C>,
}

impl<H: fmt::Debug, C: fmt::Debug> fmt::Debug for Config<H, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("leaf", &self.leaf)
            .field("node", &self.node)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<H: Hasher<4>, C: Compressor<4>> Config<H, C> {
    /// A configuration named `name`.
    pub const fn new(name: &'static str, leaf: H, node: C) -> Self {
        Self {
            leaf,
            node,
            name,
            bulk: Bulk {
                leaves: hash_rows::<H, 4>,
                leaves_here: hash_rows_on_this_thread::<H, 4>,
                nodes: compress_layer::<C, 4>,
            },
        }
    }
}

impl<H: Hasher<4>, C: Compressor<4>> MerkleConfig for Config<H, C> {
    type Leaf = H;
    type Node = C;

    fn leaf(&self) -> &H {
        &self.leaf
    }

    fn node(&self) -> &C {
        &self.node
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn hash_leaves(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) -> Result<(), LengthError> {
        (self.bulk.leaves)(&self.leaf, data, row_len, digests)
    }

    fn hash_leaves_on_this_thread(
        &self,
        data: &[Goldilocks],
        row_len: usize,
        digests: &mut [Digest],
    ) {
        (self.bulk.leaves_here)(&self.leaf, data, row_len, digests);
    }

    fn compress_nodes(
        &self,
        children: &[Digest],
        parents: &mut [Digest],
    ) -> Result<(), LengthError> {
        (self.bulk.nodes)(&self.node, children, parents)
    }
}

/// Plonky3's Poseidon2 tree at width `W`: a padding-free sponge of rate `W − 4` with a
/// 4-element digest for the leaves, and the width-`W` permutation truncated to 4 elements as
/// the 2-to-1 compression.
pub type Poseidon2Config<const W: usize, const RATE: usize> = Config<
    PaddingFreeSponge<Poseidon2Goldilocks<W>, W, RATE, 4>,
    TruncatedPermutation<Poseidon2Goldilocks<W>, W, 4>,
>;

/// Plonky3's standard Goldilocks tree: Poseidon2 width 8, sponge rate 4.
pub type Poseidon2W8 = Poseidon2Config<8, 4>;
/// Poseidon2 width 12, sponge rate 8.
pub type Poseidon2W12 = Poseidon2Config<12, 8>;
/// Poseidon2 width 16, sponge rate 12.
pub type Poseidon2W16 = Poseidon2Config<16, 12>;

/// Plonky3's Poseidon2 tree at width `W` (one permutation instance shared by leaves and nodes).
fn poseidon2_config<const W: usize, const RATE: usize>(
    name: &'static str,
) -> Poseidon2Config<W, RATE>
where
    Plonky3Layers: LinearLayers<W>,
{
    poseidon2_config_with(name, Poseidon2Goldilocks::<W>::new())
}

/// Plonky3's Poseidon2 tree at width `W` over `perm` — the preset's shape with other round
/// constants (a prover's own), named `name`.
pub fn poseidon2_config_with<const W: usize, const RATE: usize>(
    name: &'static str,
    perm: Poseidon2Goldilocks<W>,
) -> Poseidon2Config<W, RATE>
where
    Plonky3Layers: LinearLayers<W>,
{
    Config::new(
        name,
        PaddingFreeSponge::new(perm.clone()),
        TruncatedPermutation::new(perm),
    )
}

/// The `Poseidon2W8` preset.
#[must_use]
pub fn poseidon2_w8() -> Poseidon2W8 {
    poseidon2_config("poseidon2-w8")
}

/// The `Poseidon2W12` preset.
#[must_use]
pub fn poseidon2_w12() -> Poseidon2W12 {
    poseidon2_config("poseidon2-w12")
}

/// The `Poseidon2W16` preset.
#[must_use]
pub fn poseidon2_w16() -> Poseidon2W16 {
    poseidon2_config("poseidon2-w16")
}

/// plonky2's tree (`plonky2::hash::merkle_tree::MerkleTree` with `PoseidonHash`): each leaf is
/// hashed with `hash_or_noop` (a leaf of at most four elements is its own zero-padded
/// digest), nodes with `two_to_one` (Poseidon width 12 over `[left, right, 0, 0, 0, 0]`,
/// truncated to four elements). plonky2 takes one matrix of equal-length leaves with a
/// power-of-two count; with that input this tree's root and caps are plonky2's.
pub type Plonky2 = Config<HashOrNoop, TwoToOne>;

/// Polygon zkProver's / pil-stark's Goldilocks tree (`MerkleTreeGL`): leaves hashed with
/// Poseidon `linear_hash`, nodes with the same width-12 `two_to_one` as plonky2.
pub type Polygon = Config<LinearHash, TwoToOne>;

/// The `Plonky2` preset.
#[must_use]
pub fn plonky2() -> Plonky2 {
    Config::new(
        "plonky2",
        HashOrNoop::new(Poseidon::new()),
        TwoToOne::new(Poseidon::new()),
    )
}

/// The `Polygon` preset.
#[must_use]
pub fn polygon() -> Polygon {
    Config::new(
        "polygon",
        LinearHash::new(Poseidon::new()),
        TwoToOne::new(Poseidon::new()),
    )
}

/// Runs `$body` with `$config` bound to the configuration of `$preset` (a [`Preset`]): the
/// bridge from a preset chosen at run time to code generic over [`MerkleConfig`].
///
/// ```
/// use aurum_merkle::{MerkleConfig, Preset, with_preset};
///
/// for preset in Preset::ALL {
///     let name = with_preset!(preset, |config| config.name());
///     assert_eq!(name, preset.name());
/// }
/// ```
#[macro_export]
macro_rules! with_preset {
    ($preset:expr, |$config:ident| $body:expr) => {
        match $preset {
            $crate::Preset::Poseidon2W8 => {
                let $config = $crate::config::poseidon2_w8();
                $body
            }
            $crate::Preset::Poseidon2W12 => {
                let $config = $crate::config::poseidon2_w12();
                $body
            }
            $crate::Preset::Poseidon2W16 => {
                let $config = $crate::config::poseidon2_w16();
                $body
            }
            $crate::Preset::Plonky2 => {
                let $config = $crate::config::plonky2();
                $body
            }
            $crate::Preset::Polygon => {
                let $config = $crate::config::polygon();
                $body
            }
        }
    };
}

/// The named presets, for run-time selection (the CLI's `--preset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// [`Poseidon2W8`]
    Poseidon2W8,
    /// [`Poseidon2W12`]
    Poseidon2W12,
    /// [`Poseidon2W16`]
    Poseidon2W16,
    /// [`Plonky2`]
    Plonky2,
    /// [`Polygon`]
    Polygon,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 5] = [
        Preset::Poseidon2W8,
        Preset::Poseidon2W12,
        Preset::Poseidon2W16,
        Preset::Plonky2,
        Preset::Polygon,
    ];

    /// The preset's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Poseidon2W8 => "poseidon2-w8",
            Preset::Poseidon2W12 => "poseidon2-w12",
            Preset::Poseidon2W16 => "poseidon2-w16",
            Preset::Plonky2 => "plonky2",
            Preset::Polygon => "polygon",
        }
    }
}

impl Preset {
    /// The preset `config` computes, whatever it is called, recognised by its [`Answers`]:
    /// leaf hashes of rows around every preset's sponge rate and a compression, equal to the
    /// preset's. `None` for a configuration that computes none of them (other round constants,
    /// other hashes) — so a tree built elsewhere for the returned preset (the GPU's) is the
    /// tree `config` builds.
    #[must_use]
    pub fn of<C: MerkleConfig>(config: &C) -> Option<Preset> {
        let answers = Answers::of(config);
        Preset::ALL
            .into_iter()
            .find(|&preset| preset.answers() == answers)
    }

    /// The preset's [`Answers`].
    #[must_use]
    pub fn answers(self) -> Answers {
        with_preset!(self, |config| Answers::of(&config))
    }
}

/// What a configuration computes on a few fixed inputs: its leaf hashes of rows of 1, 4, 5, 8,
/// 9, 12, 13 and 17 elements (around every preset's sponge rate) and a compression. Two
/// configurations with equal answers are taken to build the same trees: that is how
/// [`Preset::of`] recognises a preset under any name, and how a tree built elsewhere (a GPU
/// compiled with a prover's own Poseidon2 constants) is matched with the configuration it must
/// equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    leaves: Vec<Digest>,
    node: Digest,
}

impl Answers {
    /// `config`'s answers.
    #[must_use]
    pub fn of<C: MerkleConfig>(config: &C) -> Answers {
        let row: Vec<Goldilocks> = (1..=17u64)
            .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        let digest = |i: u64| core::array::from_fn(|k| Goldilocks::from_u64(i * 4 + k as u64));
        Answers {
            leaves: [1, 4, 5, 8, 9, 12, 13, 17]
                .iter()
                .map(|&n| config.leaf().hash(&row[..n]))
                .collect(),
            node: config.node().compress([digest(1), digest(2)]),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown preset name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown preset {:?}: expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownPreset {}

impl FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(s: &str) -> Result<Self, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownPreset(s.to_string()))
    }
}
