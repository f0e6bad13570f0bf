#![doc = include_str!("../README.md")]

pub mod backends;
pub mod process;
pub mod property;
pub mod shapes;
pub mod values;
