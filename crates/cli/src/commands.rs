//! The paths by which `aurum bench` (`src/bench`, which is to become its own crate) takes the
//! helpers it shares with the commands, with its errors as text. The commands themselves are
//! in [`crate::merkle`], [`crate::fri`], [`crate::generate`] and [`crate::info`].

use std::time::Duration;

use aurum_goldilocks::Goldilocks;
use aurum_merkle::{Digest, MerkleConfig};

pub(crate) use crate::flags::checked_backend;
pub(crate) use crate::input::read_limited;

/// [`crate::merkle::commit_in_memory`], its error as text.
pub(crate) fn commit_in_memory<C: MerkleConfig>(
    config: &C,
    values: &[Goldilocks],
    cols: usize,
    cap_height: usize,
) -> Result<(Digest, Vec<Digest>, Duration), String> {
    crate::merkle::commit_in_memory(config, values, cols, cap_height).map_err(String::from)
}
