#![doc = include_str!("../README.md")]

mod bitrev;
mod buffers;
mod butterflies;
mod domain;
mod element;
mod engine;
mod error;
mod lde;
mod narrow;
mod passes;
mod scaling;
mod shape;
mod source;
mod stack_frame;
mod twiddles;

pub use crate::domain::{Domain, MAX_LOG_SIZE};
pub use crate::element::NttElement;
pub use crate::engine::{Ntt, Order};
pub use crate::error::NttError;
pub use crate::shape::{ADDED_BITS, check_coset_lde};
