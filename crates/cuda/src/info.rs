//! What `aurum info` and `aurum bench` report about the GPU.

use core::fmt;
use std::time::Duration;

/// An opened CUDA device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The device's name (e.g. "NVIDIA H200").
    pub name: String,
    /// Device memory in bytes.
    pub memory: usize,
    /// Streaming multiprocessors.
    pub multiprocessors: u32,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// NVRTC's compilation of the kernels when the device was opened.
    pub compile_time: Duration,
    /// The driver's loading of them (PTX to machine code).
    pub load_time: Duration,
    /// The known-answer check of the kernels against the CPU ([`crate::Gpu::open`]).
    pub check_time: Duration,
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (major, minor) = self.compute_capability;
        write!(
            f,
            "{}, {:.1} GiB, {} SMs, compute capability {major}.{minor} (kernels compiled in {} ms, \
             loaded in {} ms, checked in {} ms)",
            self.name,
            self.memory as f64 / f64::from(1u32 << 30),
            self.multiprocessors,
            self.compile_time.as_millis(),
            self.load_time.as_millis(),
            self.check_time.as_millis(),
        )
    }
}
