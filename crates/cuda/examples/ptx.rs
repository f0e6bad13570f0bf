//! Prints the kernels' PTX for one compute capability, compiled by NVRTC without a GPU:
//! what `scripts/cuda-sass.sh` assembles to count the machine instructions per permutation.
//!
//! ```sh
//! cargo run --release -p aurum-cuda --example ptx -- 90 > kernels.ptx
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let arch = std::env::args().nth(1).unwrap_or_else(|| "90".to_string());
    match aurum_cuda::compile_kernels(&arch) {
        Ok(ptx) => {
            print!("{ptx}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
