//! Which device runs a job: `AURUM_DEVICE=auto|cpu|cuda`, and the size from which `auto`
//! hands a Merkle commitment to the GPU.

use core::fmt;
use core::str::FromStr;

/// The environment variable that forces the device.
pub const DEVICE_ENV: &str = "AURUM_DEVICE";

/// Input elements (rows × total width) from which `auto` commits on the GPU. Once open, the
/// GPU was ahead of 16 CPU cores from the smallest tree measured (2^12 × 8), but opening it
/// costs about 0.3 s once per process (driver start-up, compiling the kernels), which a job
/// below this size — milliseconds on the CPU — does not win back (docs/cuda.md).
pub const AUTO_MIN_ELEMENTS: usize = 1 << 22;

/// Input elements from which a GPU already open takes a Merkle tree over matrices in host
/// memory under `auto` ([`crate::GpuCommitEngine`]'s trees over LDEs computed elsewhere and over
/// the FRI commit phase's codewords): the smallest tree measured, 2^12 × 8, was built with every
/// layer copied back in 0.87 ms on an H200 against 1.3 ms on its 16-core host (docs/cuda.md).
pub const OPEN_TREE_MIN_ELEMENTS: usize = 1 << 15;

/// A device choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeviceChoice {
    /// The GPU when there is one and the job is large enough ([`AUTO_MIN_ELEMENTS`]), else
    /// the CPU.
    #[default]
    Auto,
    /// Always the CPU.
    Cpu,
    /// Always the GPU; an error where there is none.
    Cuda,
}

impl DeviceChoice {
    /// The choice's name, as the variable spells it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DeviceChoice::Auto => "auto",
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Cuda => "cuda",
        }
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value of [`DEVICE_ENV`] that names no device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDevice(pub String);

impl fmt::Display for UnknownDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{DEVICE_ENV}={:?} names no device: expected auto, cpu or cuda",
            self.0
        )
    }
}

impl std::error::Error for UnknownDevice {}

impl FromStr for DeviceChoice {
    type Err = UnknownDevice;

    fn from_str(s: &str) -> Result<Self, UnknownDevice> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda),
            _ => Err(UnknownDevice(s.to_string())),
        }
    }
}

/// The choice [`DEVICE_ENV`] makes (unset: `auto`), or why its value names none.
pub fn selected_device() -> Result<DeviceChoice, UnknownDevice> {
    match std::env::var_os(DEVICE_ENV) {
        None => Ok(DeviceChoice::Auto),
        Some(value) => value
            .to_str()
            .ok_or_else(|| UnknownDevice(value.to_string_lossy().into_owned()))?
            .parse(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_in_any_case_with_blanks() {
        assert_eq!(" CUDA ".parse(), Ok(DeviceChoice::Cuda));
        assert!("gpu".parse::<DeviceChoice>().is_err());
        assert_eq!("Cpu".parse(), Ok(DeviceChoice::Cpu));
        assert_eq!("".parse(), Ok(DeviceChoice::Auto));
        assert_eq!("auto".parse(), Ok(DeviceChoice::Auto));
        let err = "tpu".parse::<DeviceChoice>().unwrap_err();
        assert_eq!(err, UnknownDevice("tpu".into()));
        assert!(err.to_string().contains("expected auto, cpu or cuda"));
        for choice in [DeviceChoice::Auto, DeviceChoice::Cpu, DeviceChoice::Cuda] {
            assert_eq!(choice.name().parse(), Ok(choice));
        }
    }
}
