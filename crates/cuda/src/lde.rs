//! The coset low-degree extension on the GPU, equal to the CPU's `aurum_ntt::Ntt::coset_lde`
//! element for element: the same domains, blow-ups and output orders, the same shape errors.
//!
//! The launch sequence is [`crate::kernels::lde::LdePlan`] (the host check runs the same plan
//! through the same kernel bodies); this module owns the device buffers and runs it.

use std::time::{Duration, Instant};

use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Domain, NttError, Order, check_coset_lde};

use crate::backend::NttPass;
use crate::error::CudaError;
use crate::gpu::Gpu;
use crate::kernels::lde::{self, LdePlan, Step};
use crate::matrix::{GpuMatrix, check_free};
use crate::parts::GpuKernel;

/// Why a GPU LDE failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LdeError {
    /// The request's shape, blow-up or shift (the CPU's checks and errors).
    Shape(NttError),
    /// The GPU failed.
    Cuda(CudaError),
}

impl core::fmt::Display for LdeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LdeError::Shape(e) => e.fmt(f),
            LdeError::Cuda(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LdeError {}

impl From<NttError> for LdeError {
    fn from(e: NttError) -> Self {
        LdeError::Shape(e)
    }
}

impl From<CudaError> for LdeError {
    fn from(e: CudaError) -> Self {
        LdeError::Cuda(e)
    }
}

/// The evaluations on `shift · H'` of the polynomials whose evaluations on `H` (natural order)
/// are the columns of `values` (rows of `width`), `|H'| = 2^added_bits · |H|`, rows in `order`,
/// copied back: equal to `Ntt::new(domain)`'s
/// `coset_lde(values, width, added_bits, shift, order)`.
pub fn coset_lde(
    gpu: &Gpu,
    domain: Domain,
    values: &[Goldilocks],
    width: usize,
    added_bits: usize,
    shift: Goldilocks,
    order: Order,
) -> Result<Vec<Goldilocks>, LdeError> {
    Ok(coset_lde_on_device(gpu, domain, values, width, added_bits, shift, order)?.to_host()?)
}

/// [`coset_lde`], leaving the result on the device (to commit with
/// [`crate::commit_matrices`], or copy back with [`GpuMatrix::to_host`]).
pub fn coset_lde_on_device<'g>(
    gpu: &'g Gpu,
    domain: Domain,
    values: &[Goldilocks],
    width: usize,
    added_bits: usize,
    shift: Goldilocks,
    order: Order,
) -> Result<GpuMatrix<'g>, LdeError> {
    run(gpu, domain, values, width, added_bits, shift, order, None)
}

/// Where a GPU LDE's time went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LdeTimings {
    /// Allocating the device buffers and copying the input in.
    pub upload: Duration,
    /// The kernels: tables, both transforms and the spread.
    pub transform: Duration,
}

/// [`coset_lde_on_device`], with the device idle between the copy in and the kernels, and
/// where the time went (for benchmarks).
pub fn coset_lde_timed<'g>(
    gpu: &'g Gpu,
    domain: Domain,
    values: &[Goldilocks],
    width: usize,
    added_bits: usize,
    shift: Goldilocks,
    order: Order,
) -> Result<(GpuMatrix<'g>, LdeTimings), LdeError> {
    let mut timings = LdeTimings::default();
    let matrix = run(
        gpu,
        domain,
        values,
        width,
        added_bits,
        shift,
        order,
        Some(&mut timings),
    )?;
    Ok((matrix, timings))
}

/// [`coset_lde_on_device`], adding where the time went to `timings` where given.
#[allow(clippy::too_many_arguments)]
fn run<'g>(
    gpu: &'g Gpu,
    domain: Domain,
    values: &[Goldilocks],
    width: usize,
    added_bits: usize,
    shift: Goldilocks,
    order: Order,
    mut timings: Option<&mut LdeTimings>,
) -> Result<GpuMatrix<'g>, LdeError> {
    let (log_n, out_len) = check_coset_lde(values.len(), width, added_bits, shift)?;
    gpu.kernel_usable(GpuKernel::Lde)?;
    // Both below 2^6 after the checks (log_n + added_bits ≤ 32).
    let (log_n, added) = (log_n as u32, added_bits as u32);
    let root = domain.root_of_unity((log_n + added) as usize)?;
    let plan = LdePlan::new(
        log_n,
        added,
        width as u64,
        root,
        shift,
        order == Order::BitReversed,
    );
    let words = [
        lde::Buffer::Input,
        lde::Buffer::Output,
        lde::Buffer::Twiddles,
        lde::Buffer::Scale,
    ]
    .iter()
    .map(|&b| plan.len(b))
    .sum::<usize>();
    check_free(gpu, words * 8)?;
    let device = &gpu.device;
    let start = Instant::now();
    // No memsets: the upload writes every input word, the spread pass every output word and the
    // tables' launches every entry (the plan's `len`s), before any kernel reads them.
    let mut input = device.unset(plan.len(lde::Buffer::Input))?;
    device.upload_into(aurum_goldilocks::raw::words(values), &mut input)?;
    let mut output = device.unset(out_len)?;
    let mut twiddles = device.unset(plan.len(lde::Buffer::Twiddles))?;
    let mut scale = device.unset(plan.len(lde::Buffer::Scale))?;
    if let Some(t) = timings.as_deref_mut() {
        device.synchronize()?;
        t.upload = start.elapsed();
    }
    let start = Instant::now();
    for step in &plan.steps {
        match step {
            Step::Powers {
                out,
                count,
                lo_bits,
                hi,
                lo,
            } => {
                let out = match out {
                    lde::Buffer::Twiddles => &mut twiddles,
                    lde::Buffer::Scale => &mut scale,
                    other => unreachable!("the plan writes powers into tables, not {other:?}"),
                };
                device.powers(out, *count, *lo_bits, hi, lo)?;
            }
            Step::Pass {
                data,
                low,
                layers,
                lane_bits,
                blocks,
                dit,
                inverse,
                spread,
            } => {
                let pass = NttPass {
                    low: *low,
                    layers: *layers,
                    width: plan.width,
                    lane_bits: *lane_bits,
                    blocks: *blocks,
                    flags: Step::pass_flags(*dit, *inverse, *spread),
                };
                match data {
                    lde::Buffer::Input => {
                        device.ntt_pass(&mut input, &twiddles, plan.log_table, pass, None)?;
                    }
                    lde::Buffer::Output => device.ntt_pass(
                        &mut output,
                        &twiddles,
                        plan.log_table,
                        pass,
                        spread.then_some((&input, &scale, log_n)),
                    )?,
                    other => unreachable!("the plan transforms matrices, not {other:?}"),
                }
            }
        }
    }
    if let Some(t) = timings {
        device.synchronize()?;
        t.transform = start.elapsed();
    }
    drop((input, twiddles, scale));
    Ok(GpuMatrix {
        gpu,
        buffer: output,
        width,
        height: out_len / width,
    })
}
