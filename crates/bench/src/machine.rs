//! The machine's identity (CPU, cores, clock, features, memory, OS, emulation), the binary's
//! build, and the CPU-time counters the noise estimate reads. Linux files where they exist;
//! everything unknown elsewhere is `None`, never an error.

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use aurum_goldilocks::Backend;

use crate::record::{Build, Emulation, Machine};

/// The variable that marks a run as emulated (`AURUM_EMULATED=qemu-aarch64-sve2-256`), for
/// scripts that run `aurum bench` under qemu.
pub const EMULATED_ENV: &str = "AURUM_EMULATED";

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// `key : value` lines of the first processor block of `/proc/cpuinfo`.
fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo
        .split("\n\n")
        .next()?
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

/// Arm implementer codes of server CPUs (from the Arm ARM's MIDR_EL1 list).
fn arm_implementer(code: u64) -> Option<&'static str> {
    Some(match code {
        0x41 => "Arm",
        0x42 => "Broadcom",
        0x43 => "Cavium",
        0x46 => "Fujitsu",
        0x48 => "HiSilicon",
        0x4e => "NVIDIA",
        0x51 => "Qualcomm",
        0x61 => "Apple",
        0x6d => "Microsoft",
        0xc0 => "Ampere",
        _ => return None,
    })
}

/// Model names of the Arm cores in cloud servers, by (implementer, part).
fn arm_part(implementer: u64, part: u64) -> Option<&'static str> {
    Some(match (implementer, part) {
        (0x41, 0xd0c) => "Neoverse-N1",
        (0x41, 0xd40) => "Neoverse-V1",
        (0x41, 0xd49) => "Neoverse-N2",
        (0x41, 0xd4f) => "Neoverse-V2",
        (0x41, 0xd8e) => "Neoverse-N3",
        (0x41, 0xd84) => "Neoverse-V3",
        (0x46, 0x001) => "A64FX",
        (0xc0, 0xac3) => "AmpereOne",
        _ => return None,
    })
}

fn parse_hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// Vendor, model and identification numbers from `/proc/cpuinfo`.
fn cpu_identity(cpuinfo: &str) -> (Option<String>, Option<String>, Option<String>) {
    if let Some(vendor) = cpuinfo_field(cpuinfo, "vendor_id") {
        let id = match (
            cpuinfo_field(cpuinfo, "cpu family"),
            cpuinfo_field(cpuinfo, "model"),
            cpuinfo_field(cpuinfo, "stepping"),
        ) {
            (Some(f), Some(m), Some(s)) => Some(format!("family {f} model {m} stepping {s}")),
            _ => None,
        };
        let model = cpuinfo_field(cpuinfo, "model name").map(str::to_string);
        return (Some(vendor.to_string()), model, id);
    }
    let implementer = cpuinfo_field(cpuinfo, "CPU implementer").and_then(parse_hex);
    let part = cpuinfo_field(cpuinfo, "CPU part").and_then(parse_hex);
    match (implementer, part) {
        (Some(i), Some(p)) => (
            Some(arm_implementer(i).map_or_else(|| format!("0x{i:02x}"), str::to_string)),
            arm_part(i, p).map(str::to_string),
            Some(format!("implementer 0x{i:02x} part 0x{p:03x}")),
        ),
        _ => (None, None, None),
    }
}

/// Whether `/proc/cpuinfo` describes another architecture than this binary's: what qemu user
/// emulation shows (it passes the host's file through).
fn cpuinfo_arch_mismatch(cpuinfo: &str) -> Option<&'static str> {
    let x86 = cpuinfo_field(cpuinfo, "vendor_id").is_some();
    let arm = cpuinfo_field(cpuinfo, "CPU implementer").is_some();
    match std::env::consts::ARCH {
        "x86_64" | "x86" if arm => Some("an Arm CPU"),
        "aarch64" | "arm" if x86 => Some("an x86 CPU"),
        _ => None,
    }
}

/// The emulation a run is under: `--emulated`, else `AURUM_EMULATED`, else a `/proc/cpuinfo`
/// of another architecture.
pub(crate) fn emulation(flag: Option<&str>, cpuinfo: &str) -> Option<Emulation> {
    if let Some(name) = flag {
        return Some(Emulation {
            name: name.to_string(),
            detected_by: "--emulated".to_string(),
        });
    }
    if let Some(name) = std::env::var(EMULATED_ENV).ok().filter(|v| !v.is_empty()) {
        return Some(Emulation {
            name,
            detected_by: EMULATED_ENV.to_string(),
        });
    }
    cpuinfo_arch_mismatch(cpuinfo).map(|host| Emulation {
        name: format!("{} emulated on {host}", std::env::consts::ARCH),
        detected_by: format!(
            "/proc/cpuinfo describes {host}, this binary is {}",
            std::env::consts::ARCH
        ),
    })
}

/// Physical cores: distinct `core_cpus_list` (sibling hyperthreads share one) in sysfs, else
/// distinct (`physical id`, `core id`) pairs in `/proc/cpuinfo`.
fn physical_cores(cpuinfo: &str) -> Option<usize> {
    let mut cores = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir("/sys/devices/system/cpu") {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name
                .strip_prefix("cpu")
                .is_some_and(|n| n.parse::<u32>().is_ok())
            {
                let topology = entry.path().join("topology");
                let siblings = std::fs::read_to_string(topology.join("core_cpus_list"))
                    .or_else(|_| std::fs::read_to_string(topology.join("thread_siblings_list")));
                if let Ok(s) = siblings {
                    cores.insert(s.trim().to_string());
                }
            }
        }
    }
    if !cores.is_empty() {
        return Some(cores.len());
    }
    let pairs: BTreeSet<(&str, &str)> = cpuinfo
        .split("\n\n")
        .filter_map(|block| {
            Some((
                cpuinfo_field(block, "physical id")?,
                cpuinfo_field(block, "core id")?,
            ))
        })
        .collect();
    (!pairs.is_empty()).then_some(pairs.len())
}

/// The clock: `@ 3.00GHz` in the model name, the cpufreq maximum, or the kernel's current
/// `cpu MHz` (for a VM, usually the nominal clock).
fn clock(cpuinfo: &str) -> Option<(f64, String)> {
    if let Some(model) = cpuinfo_field(cpuinfo, "model name")
        && let Some((_, tail)) = model.rsplit_once('@')
        && let Some(ghz) = tail.trim().strip_suffix("GHz")
        && let Ok(ghz) = ghz.trim().parse::<f64>()
    {
        return Some((ghz, "the CPU's model name".to_string()));
    }
    if let Some(khz) = read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
        .and_then(|s| s.trim().parse::<f64>().ok())
    {
        return Some((khz / 1e6, "cpufreq's maximum".to_string()));
    }
    let mhz = cpuinfo_field(cpuinfo, "cpu MHz")?.parse::<f64>().ok()?;
    Some((
        mhz / 1e3,
        "/proc/cpuinfo `cpu MHz` (the kernel's current value; boost not included)".to_string(),
    ))
}

/// SIMD features the CPU reports at run time.
fn simd_features() -> Vec<String> {
    let mut features = Vec::new();
    macro_rules! detect {
        ($macro:ident: $($name:tt),*) => {
            $(if std::arch::$macro!($name) { features.push($name.to_string()); })*
        };
    }
    #[cfg(target_arch = "x86_64")]
    detect!(is_x86_feature_detected: "sse4.2", "avx", "avx2", "fma", "bmi2", "avx512f",
        "avx512dq", "avx512cd", "avx512bw", "avx512vl", "avx512ifma", "avx512vbmi");
    #[cfg(target_arch = "aarch64")]
    detect!(is_aarch64_feature_detected: "neon", "sve", "sve2", "sve2-aes", "sha3", "i8mm");
    features
}

/// SIMD features this binary was compiled with (what `-C target-cpu=native` changes).
pub(crate) fn compiled_target_features() -> Vec<String> {
    let enabled = [
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("avx", cfg!(target_feature = "avx")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("fma", cfg!(target_feature = "fma")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("avx512ifma", cfg!(target_feature = "avx512ifma")),
        ("neon", cfg!(target_feature = "neon")),
        ("sve", cfg!(target_feature = "sve")),
        ("sve2", cfg!(target_feature = "sve2")),
    ];
    enabled
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The OS: `/etc/os-release`'s name and the kernel's release.
fn os() -> Option<String> {
    let name = read("/etc/os-release").and_then(|text| {
        text.lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim().trim_matches('"').to_string())
    });
    let kernel = read("/proc/sys/kernel/osrelease").map(|r| r.trim().to_string());
    match (name, kernel) {
        (Some(n), Some(k)) => Some(format!("{n}, {} {k}", capitalised(std::env::consts::OS))),
        (Some(n), None) => Some(n),
        (None, Some(k)) => Some(format!("{} {k}", capitalised(std::env::consts::OS))),
        (None, None) => Some(std::env::consts::OS.to_string()),
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn memory_bytes() -> Option<u64> {
    let meminfo = read("/proc/meminfo")?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The host name, or `host` where the OS does not say.
pub(crate) fn host_name() -> String {
    read("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".to_string())
}

/// `name` reduced to a valid record label (letters, digits and `. _ + -`, at most 64).
pub(crate) fn label_from(name: &str) -> String {
    let label: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(crate::record::MAX_LABEL_CHARS)
        .collect();
    if label.is_empty() {
        "host".to_string()
    } else {
        label
    }
}

/// This machine, running `backend`.
pub(crate) fn this_machine(
    backend: Backend,
    emulated_flag: Option<&str>,
    clock_flag: Option<f64>,
) -> Machine {
    let cpuinfo = read("/proc/cpuinfo").unwrap_or_default();
    let (cpu_vendor, cpu_model, cpu_id) = cpu_identity(&cpuinfo);
    let emulated = emulation(emulated_flag, &cpuinfo);
    // Under emulation the host's clock says nothing about the emulated CPU.
    let clock = match (clock_flag, &emulated) {
        (Some(ghz), _) => Some((ghz, "--clock-ghz".to_string())),
        (None, Some(_)) => None,
        (None, None) => clock(&cpuinfo),
    };
    Machine {
        host: host_name(),
        arch: std::env::consts::ARCH.to_string(),
        os: os(),
        cpu_vendor,
        cpu_model,
        cpu_id,
        logical_cpus: std::thread::available_parallelism().map_or(1, usize::from),
        physical_cores: physical_cores(&cpuinfo),
        clock_ghz: clock.as_ref().map(|c| c.0),
        clock_source: clock.map(|c| c.1),
        simd_features: simd_features(),
        backend: backend.name().to_string(),
        sve_vector_bits: backend
            .sve()
            .or_else(aurum_sve::detect)
            .map(|sve| sve.vector_bits()),
        memory_bytes: memory_bytes(),
        emulated,
        gpu: None,
    }
}

fn non_empty(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_string())
}

/// How this binary was built (recorded by the crate's build script).
pub(crate) fn this_build() -> Build {
    Build {
        aurum_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: non_empty(env!("AURUM_BUILD_GIT_COMMIT")),
        rustc: non_empty(env!("AURUM_BUILD_RUSTC")),
        target: env!("AURUM_BUILD_TARGET").to_string(),
        profile: env!("AURUM_BUILD_PROFILE").to_string(),
        rustflags: env!("AURUM_BUILD_RUSTFLAGS").to_string(),
        target_features: compiled_target_features(),
    }
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
#[must_use]
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// CPU time counters, in clock ticks (`USER_HZ`, 100 per second on Linux): every CPU's busy
/// and total time, the hypervisor's steal, and this process's own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CpuTicks {
    busy: u64,
    total: u64,
    steal: u64,
    own: u64,
}

/// Linux's `USER_HZ`: the unit of `/proc/stat` and `/proc/self/stat` times, fixed by the ABI.
const TICKS_PER_SECOND: f64 = 100.0;

impl CpuTicks {
    /// The counters now (`None` where `/proc` is missing or unreadable).
    pub(crate) fn now() -> Option<CpuTicks> {
        let stat = read("/proc/stat")?;
        let fields: Vec<u64> = stat
            .lines()
            .next()?
            .strip_prefix("cpu ")?
            .split_whitespace()
            .map(|f| f.parse().ok())
            .collect::<Option<_>>()?;
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let field = |i: usize| fields.get(i).copied().unwrap_or(0);
        let steal = field(7);
        let busy = field(0) + field(1) + field(2) + field(5) + field(6) + steal;
        let total = busy + field(3) + field(4);
        let own_stat = read("/proc/self/stat")?;
        // After the parenthesised name: state is field 0, utime 11, stime 12.
        let own_fields: Vec<&str> = own_stat.rsplit(')').next()?.split_whitespace().collect();
        let own =
            own_fields.get(11)?.parse::<u64>().ok()? + own_fields.get(12)?.parse::<u64>().ok()?;
        Some(CpuTicks {
            busy,
            total,
            steal,
            own,
        })
    }

    /// Other processes' CPU seconds, their share of all CPU time, and steal's share, from
    /// `self` to `later`.
    pub(crate) fn others_until(&self, later: &CpuTicks) -> Option<(f64, f64, f64)> {
        let total = later.total.checked_sub(self.total)?;
        if total == 0 {
            return None;
        }
        let busy = later.busy.checked_sub(self.busy)?;
        let own = later.own.checked_sub(self.own)?;
        let steal = later.steal.checked_sub(self.steal)?;
        let others = busy.saturating_sub(own);
        Some((
            others as f64 / TICKS_PER_SECOND,
            others as f64 / total as f64,
            steal as f64 / total as f64,
        ))
    }
}

/// `seconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`.
#[must_use]
pub(crate) fn utc_date(seconds: u64) -> String {
    let days = seconds / 86_400;
    let rest = seconds % 86_400;
    // Civil from days (H. Hinnant's algorithm), for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Now, as [`utc_date`] writes it.
pub(crate) fn now_utc() -> String {
    utc_date(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc_date(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn cpuinfo_parsing() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: \
                   17\nmodel name\t: AMD EPYC 9R14 @ 3.70GHz\nstepping\t: 1\nphysical id\t: 0\n\
                   core id\t\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t\t: 1\n";
        let (vendor, model, id) = cpu_identity(x86);
        assert_eq!(vendor.as_deref(), Some("AuthenticAMD"));
        assert_eq!(model.as_deref(), Some("AMD EPYC 9R14 @ 3.70GHz"));
        assert_eq!(id.as_deref(), Some("family 25 model 17 stepping 1"));
        assert_eq!(clock(x86).map(|c| c.0), Some(3.7));
        let arm = "processor\t: 0\nBogoMIPS\t: 2100.00\nCPU implementer\t: 0x41\nCPU part\t: \
                   0xd40\n";
        let (vendor, model, id) = cpu_identity(arm);
        assert_eq!(vendor.as_deref(), Some("Arm"));
        assert_eq!(model.as_deref(), Some("Neoverse-V1"));
        assert_eq!(id.as_deref(), Some("implementer 0x41 part 0xd40"));
        // An x86 host's cpuinfo seen by an Arm binary (qemu user) and the reverse.
        let mismatch = cpuinfo_arch_mismatch(x86).is_some() || cpuinfo_arch_mismatch(arm).is_some();
        assert!(mismatch);
        assert!(cpuinfo_arch_mismatch("").is_none());
    }

    #[test]
    fn labels() {
        assert_eq!(label_from("my host.local"), "my-host.local");
        assert_eq!(label_from(""), "host");
        assert_eq!(label_from(&"x".repeat(100)).len(), 64);
    }
}
