//! The known-answer check [`Gpu::open`] runs before it hands a device out: the kernels on small
//! inputs against the CPU's values — every permutation on the field's edge values and seeded
//! states; every preset's tree (rows across the sponge's rate, a second height joining,
//! compressions; every layer); coset LDEs of one and two passes per transform, in both
//! orders; FRI folds by every arity; a reduced opening of two matrices at three points — one
//! group of kernels ([`GpuKernel`]) at a time, so a group that computes something else (a
//! kernel, compiler or driver fault) is refused with [`CudaError::KnownAnswer`], saying what
//! differed, instead of committing wrong roots or proofs, and the others still serve. It costs
//! a few milliseconds of the device's opening.

use aurum_fri::{HeightOpening, MatrixOpening, OpeningTerm};
use aurum_goldilocks::{Goldilocks, Goldilocks2, P};
use aurum_merkle::{Matrix, MerkleTree, Preset, TreeDigests};
use aurum_ntt::{Domain, Ntt, Order};

use crate::error::CudaError;
use crate::fold::fri_fold;
use crate::gpu::Gpu;
use crate::lde::{LdeError, coset_lde};
use crate::matrix::GpuMatrix;
use crate::merkle::commit_matrices;
use crate::open::reduced_openings;
use crate::parts::{GpuKernel, GpuPermutation};
use crate::reference::with_gpu_config;

/// `len` values: the field's edge values (0, 1, p − 1, around 2^32 and 2^63), each at every
/// position of a `width`-element row or state, then a seeded spread.
fn known_answer_values(len: usize, width: usize) -> Vec<Goldilocks> {
    const EDGES: [u64; 9] = [
        0,
        1,
        2,
        P - 1,
        P - 2,
        (1 << 32) - 1,
        1 << 32,
        1 << 63,
        P - (1 << 32),
    ];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|i| {
            let row = i / width;
            if row < EDGES.len() {
                EDGES[(row + i) % EDGES.len()]
            } else {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            }
        })
        .map(Goldilocks::from_u64)
        .collect()
}

/// The matrices of the tree check: 64 rows of 13 (more than one sponge rate of every preset,
/// not a whole number of any) and 16 rows of 5, which join at the layer of their height.
const TREE_SHAPES: [(usize, usize); 2] = [(64, 13), (16, 5)];

/// The LDEs of the check: (log rows, columns, added bits, order). 2^9 rows of 16 words make
/// two passes of each transform, one column of 2^13 rows two passes too, 2^4 rows one.
const LDE_SHAPES: [(usize, usize, usize, Order); 3] = [
    (9, 16, 1, Order::BitReversed),
    (13, 1, 2, Order::Natural),
    (4, 3, 3, Order::BitReversed),
];

impl Gpu {
    /// Each group of kernels ([`GpuKernel::all`]) on its known answers against the CPU (see
    /// the module's text): the refusals, one [`CudaError::KnownAnswer`] per group whose
    /// kernels computed other values or failed to run.
    pub(crate) fn check_known_answers(&self) -> Vec<CudaError> {
        GpuKernel::all()
            .into_iter()
            .filter_map(|kernel| {
                let checked = match kernel {
                    GpuKernel::Permutation(perm) => self.check_permutation(perm),
                    GpuKernel::Tree(preset) => self.check_tree(preset),
                    GpuKernel::Lde => self.check_ldes(),
                    GpuKernel::Fold => self.check_folds(),
                    GpuKernel::Opening => self.check_openings(),
                };
                checked
                    .err()
                    .map(|reason| CudaError::KnownAnswer { kernel, reason })
            })
            .collect()
    }

    /// A reduced opening of 2^6 rows: matrices of 1 and 13 columns of edge values, opened at
    /// two points and one, against the CPU's (`aurum_fri::reduced_opening`).
    fn check_openings(&self) -> Result<(), String> {
        let ext =
            |a: u64, b: u64| Goldilocks2::new(Goldilocks::from_u64(a), Goldilocks::from_u64(b));
        let (narrow, wide) = (known_answer_values(64, 1), known_answer_values(64 * 13, 13));
        let matrix = |lde, width: usize, points: u64| MatrixOpening {
            lde,
            width,
            kept: None,
            coefficients: (0..width as u64)
                .map(|j| ext(P - 1 - j, 1 << (j + 20)))
                .collect(),
            terms: (0..points)
                .map(|k| OpeningTerm {
                    z: ext(3 + k, P - 5),
                    c: ext(P - 2, 9 + k),
                    w: ext(1 + k, k),
                })
                .collect(),
        };
        let height = HeightOpening {
            log_height: 6,
            matrices: vec![matrix(&narrow, 1, 2), matrix(&wide, 13, 1)],
        };
        let on_gpu = reduced_openings(self, core::slice::from_ref(&height)).map_err(failed)?;
        let on_cpu = aurum_fri::reduced_opening(&height)
            .ok_or_else(|| "the CPU refused the check's opening".to_string())?;
        same("a reduced opening of 2^6 rows", &on_gpu[0], &on_cpu, 1)
    }

    /// Folds by every arity of codewords from one group to 2^3 groups, and 2^10 elements by
    /// 2^4, edge values first, against the verifier's fold (`aurum_fri::fold_as_verifier`).
    fn check_folds(&self) -> Result<(), String> {
        let beta = Goldilocks2::new(Goldilocks::from_u64(P - 3), Goldilocks::from_u64(1 << 40));
        let shapes = (1..=4usize)
            .flat_map(|log_arity| (0..=3).map(move |groups| (log_arity + groups, log_arity)))
            .chain([(10, 4)]);
        for (log_n, log_arity) in shapes {
            let values = known_answer_values(2 << log_n, 2);
            let codeword: Vec<Goldilocks2> = values
                .chunks_exact(2)
                .map(|c| Goldilocks2::new(c[0], c[1]))
                .collect();
            let on_gpu = fri_fold(self, &codeword, log_arity, beta).map_err(failed)?;
            let on_cpu = aurum_fri::fold_as_verifier(&codeword, log_arity, beta)
                .ok_or_else(|| "the CPU refused the check's fold".to_string())?;
            let what = format!("a fold of 2^{log_n} elements by 2^{log_arity}");
            same(&what, &on_gpu, &on_cpu, 1)?;
        }
        Ok(())
    }

    /// 32 states of edge values and seeded ones, against the CPU's permutation.
    fn check_permutation(&self, perm: GpuPermutation) -> Result<(), String> {
        let mut states = known_answer_values(32 * perm.width(), perm.width());
        let mut expected = states.clone();
        perm.permute_on_cpu(self.constants(), &mut expected);
        self.permute(perm, &mut states).map_err(failed)?;
        same("32 states", &states, &expected, perm.width())
    }

    /// The tree over [`TREE_SHAPES`], every layer against the CPU's.
    fn check_tree(&self, preset: Preset) -> Result<(), String> {
        let values: Vec<Vec<Goldilocks>> = TREE_SHAPES
            .iter()
            .map(|&(rows, cols)| known_answer_values(rows * cols, cols))
            .collect();
        let matrices: Vec<Matrix<'_>> = values
            .iter()
            .zip(TREE_SHAPES)
            .map(|(v, (_, cols))| Matrix::new(v, cols).expect("whole rows"))
            .collect();
        let uploaded = matrices
            .iter()
            .map(|&m| GpuMatrix::upload(self, m))
            .collect::<Result<Vec<_>, CudaError>>()
            .map_err(failed)?;
        let refs: Vec<&GpuMatrix<'_>> = uploaded.iter().collect();
        let on_gpu = commit_matrices(self, preset, &refs)
            .and_then(|tree| Ok(tree.digests()?))
            .map_err(failed)?;
        let on_cpu: TreeDigests = with_gpu_config!(self.constants(), preset, |config| {
            MerkleTree::new(&config, matrices.clone())
                .map_err(|e| format!("the CPU refused the check's tree: {e}"))?
                .into_digests()
        });
        let layers = on_cpu.shape().num_layers();
        for j in 0..layers {
            let what = format!("the tree over 64 × 13 and 16 × 5, layer {j} of {layers}");
            same(
                &what,
                on_gpu.layer(j).unwrap_or_default(),
                on_cpu.layer(j).unwrap_or_default(),
                1,
            )?;
        }
        Ok(())
    }

    /// The LDEs of [`LDE_SHAPES`] against the CPU's.
    fn check_ldes(&self) -> Result<(), String> {
        let domain = Domain::PLONKY3;
        let shift = domain.shift();
        for (log_rows, cols, added_bits, order) in LDE_SHAPES {
            let values = known_answer_values(cols << log_rows, cols);
            let on_gpu =
                coset_lde(self, domain, &values, cols, added_bits, shift, order).map_err(|e| {
                    match e {
                        LdeError::Cuda(e) => failed(e),
                        LdeError::Shape(e) => format!("a valid shape refused: {e}"),
                    }
                })?;
            let on_cpu = Ntt::new(domain)
                .coset_lde(&values, cols, added_bits, shift, order)
                .map_err(|e| format!("the CPU refused the check's LDE: {e}"))?;
            let what = format!("an LDE of 2^{log_rows} × {cols} by 2^{added_bits}, {order:?}");
            same(&what, &on_gpu, &on_cpu, cols)?;
        }
        Ok(())
    }
}

/// A failure of the check's own GPU call, as the refusal's reason.
fn failed(error: impl core::fmt::Display) -> String {
    format!("the check's call failed: {error}")
}

/// `Ok` when `gpu` and `cpu` are the same values; else what differs in `what`: how many,
/// and the first (its row and column in rows of `width`, both values).
fn same<T: PartialEq + core::fmt::Debug>(
    what: &str,
    gpu: &[T],
    cpu: &[T],
    width: usize,
) -> Result<(), String> {
    if gpu.len() != cpu.len() {
        return Err(format!(
            "{what}: {} values from the GPU, {} from the CPU",
            gpu.len(),
            cpu.len()
        ));
    }
    let differ = gpu.iter().zip(cpu).filter(|(g, c)| g != c).count();
    match gpu.iter().zip(cpu).position(|(g, c)| g != c) {
        None => Ok(()),
        Some(i) => {
            let at = if width > 1 {
                format!("row {}, column {}", i / width, i % width)
            } else {
                format!("index {i}")
            };
            Err(format!(
                "{what}: {differ} of {} values differ, the first at {at}: GPU {:?}, CPU {:?}",
                gpu.len(),
                gpu[i],
                cpu[i]
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::lde::LdePlan;

    /// The check's LDEs run the plan's every kind of launch: transforms of one and of two
    /// passes, both orders, the fused spread.
    #[test]
    fn the_lde_shapes_cover_one_and_two_passes() {
        let domain = Domain::PLONKY3;
        let passes: Vec<usize> = LDE_SHAPES
            .iter()
            .map(|&(log_rows, cols, added_bits, order)| {
                let (log_rows, added_bits) = (log_rows as u32, added_bits as u32);
                let root = domain
                    .root_of_unity((log_rows + added_bits) as usize)
                    .expect("a two-adic order");
                let bit_reversed = order == Order::BitReversed;
                LdePlan::new(
                    log_rows,
                    added_bits,
                    cols as u64,
                    root,
                    domain.shift(),
                    bit_reversed,
                )
                .passes()
                .len()
            })
            .collect();
        // Inverse and forward transform: two passes each, two passes each, one each.
        assert_eq!(passes, [4, 4, 2]);
    }

    /// Known-answer values hold every edge value at every position of the first rows.
    #[test]
    fn the_values_hold_the_edges_everywhere() {
        let width = 13;
        let values = known_answer_values(64 * width, width);
        for column in 0..width {
            let seen: Vec<u64> = (0..9)
                .map(|row| values[row * width + column].as_canonical_u64())
                .collect();
            for edge in [0, 1, P - 1, 1 << 32, 1 << 63] {
                assert!(seen.contains(&(edge % P)), "column {column}: {edge}");
            }
        }
    }
}
