//! Where the committed matrix comes from: generated, a file of u64 values, or any file's bytes.
//!
//! The file formats are read by [`read_u64_rows`] and [`read_byte_rows`] from any reader, so
//! tests and fuzz targets drive exactly the code the commands run.

mod generate;
mod memory;
mod regular;
mod rows;
mod sequential;
mod source;

pub use generate::{random_element, random_elements, random_matrix, write_random_matrix};
pub use memory::out_of_memory;
pub use regular::open_regular;
pub(crate) use regular::{file_kind, open, read_limited};
pub(crate) use rows::BYTES_PER_ELEMENT;
pub use rows::{byte_file_rows, read_byte_rows, read_u64_rows, u64_file_rows};
pub use sequential::SequentialReader;
pub use source::MatrixSource;
