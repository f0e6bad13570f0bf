//! NVRTC through `cudarc`, loaded with `dlopen` at first use: the kernels compiled to PTX,
//! for the device or, without one, for CI's check that every kernel compiles.

use cudarc::nvrtc::{CompileError, CompileOptions, compile_ptx_with_opts};

use crate::error::CudaError;
use crate::kernels::{KernelTuning, Poseidon2Constants, device_source_with};

/// Whether the NVRTC library can be loaded.
pub(crate) fn nvrtc_present() -> bool {
    // SAFETY: as `driver_present`, for libnvrtc.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Compiles the kernels with the Poseidon2 round constants `constants` to PTX for the virtual
/// architecture `compute_<arch>` (e.g. "90"), without a device (CI's check that every kernel
/// compiles).
pub(crate) fn compile(
    arch: &str,
    constants: &Poseidon2Constants,
    tuning: KernelTuning,
) -> Result<String, CudaError> {
    if !nvrtc_present() {
        return Err(CudaError::NoNvrtc);
    }
    let mut options = vec![
        format!("--gpu-architecture=compute_{arch}"),
        "--std=c++17".to_string(),
    ];
    options.extend(tuning.nvrtc_options());
    let options = CompileOptions {
        options,
        name: Some("aurum.cu".to_string()),
        ..CompileOptions::default()
    };
    compile_ptx_with_opts(device_source_with(constants), options)
        .map(|ptx| ptx.to_src())
        .map_err(|e| match e {
            CompileError::CompileError { log, .. } => {
                CudaError::Compile(log.to_string_lossy().into_owned())
            }
            other => CudaError::Compile(other.to_string()),
        })
}
