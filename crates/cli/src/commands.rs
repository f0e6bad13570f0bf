//! The paths by which `aurum bench` (`src/bench`, which is to become its own crate) takes the
//! helpers it shares with the commands. The commands themselves are in [`crate::merkle`],
//! [`crate::fri`], [`crate::gen`] and [`crate::info`].

pub(crate) use crate::flags::checked_backend;
pub(crate) use crate::input::read_limited;
pub(crate) use crate::merkle::commit_in_memory;
