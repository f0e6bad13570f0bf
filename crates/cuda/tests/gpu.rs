//! The kernels on the GPU against the CPU, and their compilation.
//!
//! - `nvrtc::*`: the kernels compile with NVRTC for every supported architecture (no device
//!   needed; CI installs NVRTC and sets `AURUM_REQUIRE_NVRTC=1`, which turns a missing NVRTC
//!   from "ignored" into a failure).
//! - `gpu::*`: permutations, leaf layers and whole trees (every layer, every preset, single and
//!   mixed heights) computed on the GPU equal the CPU's; so do coset LDEs (every blow-up, both
//!   orders, three domains, transforms of one to three passes) and trees committed straight
//!   from an LDE left on the device; so do the openings' reduced codewords, over LDEs kept on
//!   the device or copied there; and `FriPcs` proofs with the GPU as commit engine equal
//!   the CPU's byte for byte, over the presets and over a prover's own Poseidon2 constants
//!   (the kernels compiled with them). Without a GPU they are reported
//!   ignored with the reason; `AURUM_REQUIRE_GPU=1` (scripts/gpu-check.sh) makes that a
//!   failure.
//!
//! Built with the `emulator` feature (`cargo test -p aurum-cuda --features emulator`, a CI
//! step), the `gpu::*` checks run on the host emulator instead: the same kernel source compiled
//! by the host's C++ compiler, driven by the same code as on a GPU, with the streaming geometry
//! scaled down (`STAGING_SLOT_WORDS`, `STAGING_CHUNK_ROWS`) so every chunking case is reached
//! at small sizes. There they must run.

use std::sync::Arc;

use aurum_cuda::{
    CommitError, CudaError, DeviceChoice, Gpu, GpuCommitEngine, GpuKernel, GpuPermutation,
    KernelTuning, LdeError, Poseidon2Constants, STAGING_CHUNK_ROWS, STAGING_SLOT_WORDS,
    StreamingCommit, commit, commit_matrices, commit_on_device, compile_kernels,
    compile_kernels_tuned, coset_lde, coset_lde_on_device, fri_fold, hash_resident,
    reduced_openings,
};
use aurum_fri::{
    CommitEngine, EngineMatrix, Evaluations, FriParameters, FriPcs, HeightOpening, MatrixOpening,
    OpeningRequest, OpeningTerm, codec, reduced_opening,
};
use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Commitment, Matrix, MerkleTree, Preset, ShapeError, verify, with_preset};
use aurum_ntt::{Domain, Ntt, NttError, Order};
use aurum_poseidon::Poseidon;
use aurum_poseidon2::{Poseidon2Goldilocks, RoundConstants};
use aurum_symmetric::{Challenger, DuplexChallenger, Permutation};
use aurum_testing::values::{DANGER, seeded};
use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// The virtual architectures the kernels must compile for: Turing to Hopper and Blackwell (CUDA 13 dropped Volta).
const ARCHITECTURES: &[&str] = &["75", "80", "86", "89", "90", "100", "120"];

fn required(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

fn nvrtc_trial(arch: &'static str) -> Trial {
    Trial::ignorable_test(format!("nvrtc::compiles_for_compute_{arch}"), move || {
        match compile_kernels(arch) {
            Ok(ptx) => {
                for kernel in [
                    "poseidon2_w8_leaves",
                    "polygon_inject",
                    "poseidon_permute_states",
                    "ntt_pass",
                    "powers",
                ] {
                    if !ptx.contains(kernel) {
                        return Err(format!("the PTX has no entry {kernel}").into());
                    }
                }
                // Every tree and permutation kernel bounded to 128 threads and 4 blocks per SM
                // (`.maxntid`, `.minnctapersm`); on one architecture, another tuning compiled
                // with its bound.
                let bounded = |ptx: &str, blocks: u32| {
                    ptx.matches(&format!(".minnctapersm {blocks}")).count()
                };
                if bounded(&ptx, 4) < 24 || ptx.matches(".maxntid 128").count() < 24 {
                    return Err("the tree kernels are not bounded to 128 threads × 4".into());
                }
                if arch == "90" {
                    let tuned = compile_kernels_tuned(arch, KernelTuning { min_blocks: 2 })?;
                    if bounded(&tuned, 2) < 24 || bounded(&tuned, 4) != 0 {
                        return Err("the tuning's bound is not compiled in".into());
                    }
                }
                // For scripts/cuda-compile.sh, which assembles each with ptxas: NVRTC passes
                // inline PTX through unchecked, the assembler (and a driver loading it) checks it.
                if let Some(dir) = std::env::var_os("AURUM_PTX_DIR") {
                    let path = std::path::Path::new(&dir).join(format!("compute_{arch}.ptx"));
                    std::fs::write(&path, ptx)
                        .map_err(|e| format!("writing {}: {e}", path.display()))?;
                }
                Ok(Completion::Completed)
            }
            Err(CudaError::NoNvrtc) if !required("AURUM_REQUIRE_NVRTC") => {
                Ok(Completion::ignored_with(CudaError::NoNvrtc.to_string()))
            }
            Err(e) => Err(e.to_string().into()),
        }
    })
}

/// A check that needs the GPU: ignored with the reason where none opens — unless one is
/// required, or this is the host emulator's build (which opens wherever `c++` runs: failing to
/// open it, its known-answer check included, is a failure).
fn gpu_trial(name: &str, check: fn(&Gpu) -> Result<(), Failed>) -> Trial {
    let required = required("AURUM_REQUIRE_GPU") || cfg!(feature = "emulator");
    Trial::ignorable_test(format!("gpu::{name}"), move || match Gpu::shared() {
        Ok(gpu) => check(gpu).map(|()| Completion::Completed),
        Err(e) if !required => Ok(Completion::ignored_with(e.to_string())),
        Err(e) => Err(e.to_string().into()),
    })
}

fn permutations_match(gpu: &Gpu) -> Result<(), Failed> {
    for perm in GpuPermutation::ALL {
        let width = perm.width();
        let mut states: Vec<Goldilocks> = seeded(width * 3000, width as u64);
        for (i, &d) in DANGER.iter().enumerate() {
            for k in 0..width {
                states[i * width + k] =
                    Goldilocks::from_u64(if k % 2 == 0 { d } else { DANGER[(i + k) % 16] });
            }
        }
        let mut expected = states.clone();
        for state in expected.chunks_exact_mut(width) {
            match perm {
                GpuPermutation::Poseidon2W8 => permute_cpu(&Poseidon2Goldilocks::<8>::new(), state),
                GpuPermutation::Poseidon2W12 => {
                    permute_cpu(&Poseidon2Goldilocks::<12>::new(), state)
                }
                GpuPermutation::Poseidon2W16 => {
                    permute_cpu(&Poseidon2Goldilocks::<16>::new(), state)
                }
                GpuPermutation::Poseidon => permute_cpu(&Poseidon::new(), state),
            }
        }
        gpu.permute(perm, &mut states)?;
        if let Some(i) = (0..states.len()).find(|&i| states[i] != expected[i]) {
            return Err(format!(
                "{}: state {} differs at {}",
                perm.name(),
                i / width,
                i % width
            )
            .into());
        }
    }
    Ok(())
}

fn permute_cpu<const W: usize>(perm: &impl Permutation<W>, state: &mut [Goldilocks]) {
    let mut s: [Goldilocks; W] = state.try_into().expect("one state");
    perm.permute(&mut s);
    state.copy_from_slice(&s);
}

/// Every layer of the GPU's tree equals the CPU's, and an opening of the re-attached tree
/// verifies against the CPU's root.
fn same_tree(gpu: &Gpu, preset: Preset, dims: &[(usize, usize)], seed: u64) -> Result<(), Failed> {
    let values: Vec<Vec<Goldilocks>> = dims
        .iter()
        .enumerate()
        .map(|(m, &(h, w))| seeded(h * w, seed + m as u64))
        .collect();
    let matrices: Vec<Matrix<'_>> = values
        .iter()
        .zip(dims)
        .map(|(v, &(_, w))| Matrix::new(v, w).expect("whole rows"))
        .collect();
    let on_gpu = commit(gpu, preset, &matrices)?;
    with_preset!(preset, |config| {
        let cpu = MerkleTree::new(&config, matrices.clone())?;
        let layers = cpu.shape().num_layers();
        for j in 0..layers {
            if cpu.layer(j) != on_gpu.layer(j) {
                return Err(format!("{preset} {dims:?}: layer {j} of {layers} differs").into());
            }
        }
        let tree = MerkleTree::from_digests(&config, matrices.clone(), &on_gpu)?;
        let index = tree.shape().max_height() / 2;
        let opening = tree.open(index, 0)?;
        let trusted = Commitment {
            cap: vec![cpu.root()],
        };
        verify(&config, &trusted, tree.shape().dims(), index, &opening)
            .map_err(|e| format!("{preset} {dims:?}: opening does not verify: {e}"))?;
        Ok(())
    })
}

fn single_matrices(gpu: &Gpu) -> Result<(), Failed> {
    for preset in Preset::ALL {
        for (h, w) in [
            (1, 1),
            (1, 8),
            (2, 3),
            (3, 4),
            (5, 5),
            (64, 8),
            (1000, 9),
            (4099, 13),
            (256, 136),
            (1 << 14, 12),
        ] {
            same_tree(gpu, preset, &[(h, w)], (h * 31 + w) as u64)?;
        }
    }
    Ok(())
}

fn mixed_heights(gpu: &Gpu) -> Result<(), Failed> {
    let shapes: &[&[(usize, usize)]] = &[
        &[(64, 4), (32, 3), (16, 8), (8, 1)],
        &[
            (100, 2),
            (50, 7),
            (25, 1),
            (13, 4),
            (7, 2),
            (4, 1),
            (2, 3),
            (1, 5),
        ],
        &[(9, 3), (9, 2), (5, 1), (3, 6), (2, 2)],
        &[(1 << 12, 8), (1 << 11, 16), (1 << 11, 1), (1 << 8, 30)],
        &[(33, 1), (17, 2)],
    ];
    for preset in Preset::ALL {
        for (k, dims) in shapes.iter().enumerate() {
            same_tree(gpu, preset, dims, 500 + k as u64)?;
        }
    }
    Ok(())
}

/// Trees larger than one staging chunk (a slot of `STAGING_SLOT_WORDS`, at most
/// `STAGING_CHUNK_ROWS` rows: on a GPU 2^23 and 2^18, so the first tree here is 2^20 x 8; the
/// host emulator's are 128 times smaller): several chunks, groups of several matrices packed
/// chunk by chunk, and rows longer than a slot (copied whole instead).
fn large_trees(gpu: &Gpu) -> Result<(), Failed> {
    const ROWS: usize = STAGING_CHUNK_ROWS;
    same_tree(gpu, Preset::Poseidon2W8, &[(4 * ROWS, 8)], 1)?;
    same_tree(gpu, Preset::Plonky2, &[(ROWS, 136)], 2)?;
    same_tree(gpu, Preset::Poseidon2W16, &[(ROWS, 64), (ROWS / 2, 24)], 3)?;
    same_tree(
        gpu,
        Preset::Polygon,
        &[
            (ROWS / 2, 40),
            (ROWS / 2, 30),
            (ROWS / 4, 20),
            (ROWS / 4, 17),
            (4, 5),
        ],
        4,
    )?;
    same_tree(
        gpu,
        Preset::Poseidon2W12,
        &[(3, STAGING_SLOT_WORDS + 3), (2, 7)],
        5,
    )?;
    Ok(())
}

/// The root, resident hashing and every cap of a tree left on the device equal the CPU's;
/// a cap height the tree cannot give is the CPU's typed error.
fn device_resident_trees(gpu: &Gpu) -> Result<(), Failed> {
    for preset in Preset::ALL {
        let a = seeded(300 * 10, 9);
        let b = seeded(150 * 3, 10);
        let matrices = [Matrix::new(&a, 10)?, Matrix::new(&b, 3)?];
        let tree = commit_on_device(gpu, preset, &matrices)?;
        let (resident_root, _) = hash_resident(gpu, preset, &matrices)?;
        with_preset!(preset, |config| {
            let cpu = MerkleTree::new(&config, matrices.to_vec())?;
            if tree.root()? != cpu.root() || resident_root != cpu.root() {
                return Err(format!("{preset}: roots differ").into());
            }
            for h in 0..=cpu.shape().max_cap_height() {
                if tree.cap(h)? != cpu.cap(h)? {
                    return Err(format!("{preset}: cap {h} differs").into());
                }
            }
            let too_high = cpu.shape().max_cap_height() + 1;
            match (tree.cap(too_high), cpu.cap(too_high)) {
                (Err(CommitError::Open(g)), Err(c)) if g == c => Ok::<(), Failed>(()),
                other => Err(format!("{preset}: cap {too_high}: {other:?}").into()),
            }
        })?;
    }
    Ok(())
}

fn bad_shapes_are_typed_errors(gpu: &Gpu) -> Result<(), Failed> {
    match commit(gpu, Preset::Poseidon2W8, &[]) {
        Err(CommitError::Shape(ShapeError::NoMatrices)) => {}
        other => return Err(format!("no matrices: {other:?}").into()),
    }
    let a = seeded(10 * 2, 1);
    let b = seeded(7 * 2, 2);
    let matrices = [Matrix::new(&a, 2)?, Matrix::new(&b, 2)?];
    match commit(gpu, Preset::Poseidon2W8, &matrices) {
        Err(CommitError::Shape(ShapeError::IncompatibleHeight { .. })) => {}
        other => return Err(format!("heights 10 and 7: {other:?}").into()),
    }
    let mut ragged = vec![Goldilocks::ONE; 7];
    match gpu.permute(GpuPermutation::Poseidon2W8, &mut ragged) {
        Err(CudaError::NotWholeStates { len: 7, width: 8 }) if ragged == [Goldilocks::ONE; 7] => {
            Ok(())
        }
        other => Err(format!("7 elements of width-8 states: {other:?}").into()),
    }
}

fn same_lde(
    gpu: &Gpu,
    domain: Domain,
    log_n: usize,
    width: usize,
    added_bits: usize,
    order: Order,
) -> Result<(), Failed> {
    let values = seeded(width << log_n, (log_n * 1000 + width) as u64);
    let shift = domain.shift();
    let cpu = Ntt::new(domain).coset_lde(&values, width, added_bits, shift, order)?;
    let on_gpu = coset_lde(gpu, domain, &values, width, added_bits, shift, order)?;
    if let Some(i) = (0..cpu.len()).find(|&i| cpu.get(i) != on_gpu.get(i)) {
        return Err(format!(
            "LDE of 2^{log_n} x {width} by 2^{added_bits} ({order:?}): {} values, row {} \
             column {} differs",
            on_gpu.len(),
            i / width,
            i % width
        )
        .into());
    }
    if on_gpu.len() != cpu.len() {
        return Err(format!("{} values, expected {}", on_gpu.len(), cpu.len()).into());
    }
    Ok(())
}

/// Coset LDEs of every height to 2^14 (one column), of transforms in one, two and three
/// passes (tiles of 1 to 16 lanes, rows wider than a tile), every blow-up, both orders and
/// three domains, equal to the CPU's.
fn ldes_match_the_cpu(gpu: &Gpu) -> Result<(), Failed> {
    for order in [Order::BitReversed, Order::Natural] {
        for log_n in 0..=14 {
            same_lde(gpu, Domain::PLONKY3, log_n, 1, 1, order)?;
        }
        for (log_n, width, added_bits) in [
            (20, 1, 1),
            (16, 8, 1),
            (14, 3, 2),
            (18, 8, 4),
            (12, 300, 1),
            (10, 2633, 1),
            (15, 16, 3),
        ] {
            same_lde(gpu, Domain::PLONKY3, log_n, width, added_bits, order)?;
        }
        same_lde(gpu, Domain::PLONKY2, 13, 5, 3, order)?;
        same_lde(gpu, Domain::POLYGON_ZKPROVER, 11, 12, 1, order)?;
    }
    Ok(())
}

/// LDEs left on the device and committed there (one, and two of different heights) give the
/// CPU's roots over the CPU's LDEs.
fn lde_commitments_match_the_cpu(gpu: &Gpu) -> Result<(), Failed> {
    let ntt = Ntt::plonky3();
    let shift = Domain::PLONKY3.shift();
    let a = seeded(8 << 12, 1);
    let b = seeded(3 << 10, 2);
    let lde = |v: &[Goldilocks], w| {
        ntt.coset_lde(v, w, 1, shift, Order::BitReversed)
            .expect("a valid LDE")
    };
    let (cpu_a, cpu_b) = (lde(&a, 8), lde(&b, 3));
    let gpu_a = coset_lde_on_device(gpu, Domain::PLONKY3, &a, 8, 1, shift, Order::BitReversed)?;
    let gpu_b = coset_lde_on_device(gpu, Domain::PLONKY3, &b, 3, 1, shift, Order::BitReversed)?;
    if gpu_a.to_host()? != cpu_a {
        return Err("the LDE left on the device, copied back, differs".into());
    }
    for preset in [Preset::Poseidon2W8, Preset::Plonky2] {
        with_preset!(preset, |config| {
            let one = MerkleTree::new(&config, vec![Matrix::new(&cpu_a, 8)?])?;
            let two = MerkleTree::new(
                &config,
                vec![Matrix::new(&cpu_a, 8)?, Matrix::new(&cpu_b, 3)?],
            )?;
            if commit_matrices(gpu, preset, &[&gpu_a])?.root()? != one.root() {
                return Err(format!("{preset}: the LDE's root differs").into());
            }
            if commit_matrices(gpu, preset, &[&gpu_a, &gpu_b])?.root()? != two.root() {
                return Err(format!("{preset}: the two LDEs' root differs").into());
            }
            Ok::<(), Failed>(())
        })?;
    }
    Ok(())
}

/// Requests the CPU refuses are refused on the GPU with the same error.
fn lde_errors_match_the_cpu(gpu: &Gpu) -> Result<(), Failed> {
    let values = seeded(12, 3);
    let shift = Domain::PLONKY3.shift();
    for (len, width, added_bits, shift) in [
        (12, 0, 1, shift),
        (12, 5, 1, shift),
        (12, 4, 1, shift),
        (12, 3, 0, shift),
        (12, 3, 5, shift),
        (12, 3, 1, Goldilocks::ZERO),
    ] {
        let v = &values[..len];
        let cpu: NttError = Ntt::plonky3()
            .coset_lde(v, width, added_bits, shift, Order::Natural)
            .expect_err("a bad request");
        match coset_lde(
            gpu,
            Domain::PLONKY3,
            v,
            width,
            added_bits,
            shift,
            Order::Natural,
        ) {
            Err(LdeError::Shape(e)) if e == cpu => {}
            other => {
                return Err(format!("{len}/{width}/{added_bits}: {other:?}, CPU: {cpu:?}").into());
            }
        }
    }
    Ok(())
}

/// A matrix pushed in pieces of many sizes (across slot boundaries, one row, many slots) gives
/// the CPU's root; rows longer than a slot too; wrong pieces and counts are typed errors.
fn streaming_commits_match_the_cpu(gpu: &Gpu) -> Result<(), Failed> {
    const ROWS: usize = STAGING_CHUNK_ROWS;
    for (preset, rows, width) in [
        (Preset::Poseidon2W8, 4 * ROWS, 8usize),
        (Preset::Plonky2, 3000, 13),
        (Preset::Poseidon2W12, 4, STAGING_SLOT_WORDS + 5),
    ] {
        let values = seeded(rows * width, (rows + width) as u64);
        let mut stream = StreamingCommit::new(gpu, preset, rows, width)?;
        let mut at = 0;
        for (k, piece) in [1usize, 7, ROWS * 8 / 7, 2, 2 * ROWS]
            .iter()
            .cycle()
            .enumerate()
        {
            if at == rows || k > 10_000 {
                break;
            }
            let n = (*piece).min(rows - at);
            stream.push(&values[at * width..(at + n) * width])?;
            at += n;
        }
        let root = stream.finish()?.root()?;
        let cpu = with_preset!(preset, |config| {
            MerkleTree::new(&config, vec![Matrix::new(&values, width)?])?.root()
        });
        if root != cpu {
            return Err(format!("{preset} {rows} x {width}: the streamed root differs").into());
        }
    }
    let values = seeded(64 * 4, 1);
    let mut stream = StreamingCommit::new(gpu, Preset::Poseidon2W8, 64, 4)?;
    match stream.push(&values[..6]) {
        Err(CommitError::PartialRow { len: 6, width: 4 }) => {}
        other => return Err(format!("a partial row: {other:?}").into()),
    }
    stream.push(&values[..4 * 60])?;
    match stream.push(&values[..4 * 5]) {
        Err(CommitError::RowCount {
            announced: 64,
            received: 65,
        }) => {}
        other => return Err(format!("too many rows: {other:?}").into()),
    }
    match stream.finish() {
        Err(CommitError::RowCount {
            announced: 64,
            received: 60,
        }) => Ok(()),
        other => Err(format!("too few rows: {other:?}").into()),
    }
}

/// The two matrices the FRI proofs commit to: different heights, one on a coset.
fn fri_inputs() -> Vec<Evaluations> {
    vec![
        Evaluations::new(seeded(13 << 12, 21), 13),
        Evaluations::on_coset(seeded(3 << 10, 22), 3, Goldilocks::from_u64(5)),
    ]
}

/// A FRI proof of [`fri_inputs`] (cap height 2), encoded, with the commitment's cap appended.
fn fri_proof<C: aurum_merkle::MerkleConfig>(pcs: &FriPcs<C>) -> Result<Vec<u8>, Failed> {
    Ok(fri_proof_and_rounds(pcs)?.0)
}

/// [`fri_proof`] and the number of codewords its commit phase committed.
fn fri_proof_and_rounds<C: aurum_merkle::MerkleConfig>(
    pcs: &FriPcs<C>,
) -> Result<(Vec<u8>, usize), Failed> {
    let (commitment, data) = pcs.commit(fri_inputs())?;
    let mut challenger = DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
    challenger.observe_slice(&commitment.cap.concat());
    let points: Vec<Vec<_>> = (0..2)
        .map(|_| (0..2).map(|_| challenger.sample_ext()).collect())
        .collect();
    let (_, proof) = pcs.open(
        &[OpeningRequest {
            data: &data,
            points: &points,
        }],
        &mut challenger,
    )?;
    let mut bytes = codec::encode(&proof);
    for digest in &commitment.cap {
        bytes.extend(
            digest
                .iter()
                .flat_map(|x| x.as_canonical_u64().to_le_bytes()),
        );
    }
    Ok((bytes, proof.commit_phase_commits.len()))
}

/// The FRI parameters of the proofs compared.
fn fri_params() -> FriParameters {
    FriParameters {
        log_blowup: 1,
        log_final_poly_len: 1,
        max_log_arity: 3,
        num_queries: 12,
        batch_proof_of_work_bits: 4,
        commit_proof_of_work_bits: 4,
        query_proof_of_work_bits: 6,
    }
}

/// `FriPcs` with the GPU computing its LDEs, input tree, commit-phase trees, folds and reduced
/// openings proves byte for byte as on the CPU; its trees over LDEs computed elsewhere (`commit_ldes`) are the
/// CPU's.
fn fri_proofs_match_the_cpu(_: &Gpu) -> Result<(), Failed> {
    let gpu = Gpu::shared()?;
    let params = fri_params();
    for preset in [Preset::Poseidon2W8, Preset::Plonky2, Preset::Poseidon2W16] {
        with_preset!(preset, |config| {
            let cpu = FriPcs::new(config.clone(), params)?.with_cap_height(2);
            let engine = Arc::new(GpuCommitEngine::new(gpu));
            let on_gpu = cpu.clone().with_engine(engine.clone());
            let (proof, rounds) = fri_proof_and_rounds(&on_gpu)?;
            if proof != fri_proof(&cpu)? {
                return Err(format!("{preset}: the proofs differ").into());
            }
            if engine.jobs() != 1
                || engine.trees() != rounds
                || engine.folds() != rounds
                || engine.openings() != 1
            {
                return Err(format!(
                    "{preset}: the GPU ran {} commitments, {} of {rounds} commit-phase trees, \
                     {} of {rounds} folds and {} of 1 reduced openings",
                    engine.jobs(),
                    engine.trees(),
                    engine.folds(),
                    engine.openings()
                )
                .into());
            }
            let ldes = cpu.low_degree_extend(fri_inputs())?;
            let (expected, _) = cpu.commit_ldes(ldes.clone())?;
            let (committed, _) = on_gpu.commit_ldes(ldes)?;
            if committed != expected || engine.trees() != rounds + 1 {
                return Err(format!("{preset}: commit_ldes differs or ran on the CPU").into());
            }
            Ok::<(), Failed>(())
        })?;
    }
    Ok(())
}

/// FRI folds on the GPU compose as the definition says: a fold by `2^k` equals `k` binary folds
/// with `β, β², β⁴, …` (each a fold of a shorter codeword, with its own table), over edge values
/// and codewords to 2^20 elements; bad shapes are typed errors. (The known-answer check at
/// opening compares folds with the definition itself; `fri_proofs_match_the_cpu` with the
/// CPU's.)
fn folds_compose(gpu: &Gpu) -> Result<(), Failed> {
    let beta = Goldilocks2::new(Goldilocks::from_u64(DANGER[3]), Goldilocks::from_u64(77));
    for (log_n, log_arity) in [(4, 4), (9, 2), (13, 3), (20, 4), (17, 1)] {
        let values = seeded(2 << log_n, log_n as u64);
        let mut codeword: Vec<Goldilocks2> = values
            .chunks_exact(2)
            .map(|c| Goldilocks2::new(c[0], c[1]))
            .collect();
        for (i, &d) in DANGER.iter().enumerate().take(codeword.len()) {
            codeword[i] = Goldilocks2::new(Goldilocks::from_u64(d), Goldilocks::from_u64(d));
        }
        let at_once = fri_fold(gpu, &codeword, log_arity, beta)?;
        let mut stepwise = codeword;
        let mut b = beta;
        for _ in 0..log_arity {
            stepwise = fri_fold(gpu, &stepwise, 1, b)?;
            b = b.square();
        }
        if at_once != stepwise || at_once.len() != 1 << (log_n - log_arity) {
            return Err(
                format!("2^{log_n} by 2^{log_arity}: not 2^{log_arity} binary folds").into(),
            );
        }
    }
    let one = [Goldilocks2::ONE; 8];
    for (len, log_arity) in [(8, 0), (8, 5), (6, 1), (4, 3), (0, 1)] {
        match fri_fold(gpu, &one[..len], log_arity, beta) {
            Err(CudaError::FoldShape {
                len: l,
                log_arity: a,
            }) if l == len && a == log_arity => {}
            other => return Err(format!("{len} by 2^{log_arity}: {other:?}").into()),
        }
    }
    Ok(())
}

/// An extension element from two seeded values.
fn ext(seed: u64) -> Goldilocks2 {
    let v = seeded(2, seed);
    Goldilocks2::new(v[0], v[1])
}

/// A matrix's part in a reduced opening over `lde` (`width` columns): seeded coefficients and
/// `points` terms at seeded points.
fn opening_of(lde: &[Goldilocks], width: usize, points: usize, seed: u64) -> MatrixOpening<'_> {
    MatrixOpening {
        lde,
        width,
        kept: None,
        coefficients: (0..width as u64).map(|j| ext(seed * 1000 + j)).collect(),
        terms: (0..points as u64)
            .map(|k| OpeningTerm {
                z: ext(seed * 2000 + 3 * k),
                c: ext(seed * 2000 + 3 * k + 1),
                w: if k == 0 {
                    Goldilocks2::ONE
                } else {
                    ext(seed * 2000 + 3 * k + 2)
                },
            })
            .collect(),
    }
}

/// The openings' reduced codewords on the GPU equal the CPU's (`aurum_fri::reduced_opening`):
/// several heights (to 2^16 rows and down to one), matrices of 1 to 300 columns with edge
/// values, one to three points; an LDE the engine kept on the device from its commitment is
/// the one read (the host slice beside it is a decoy of zeros); bad shapes are typed errors.
fn reduced_openings_match_the_cpu(gpu: &Gpu) -> Result<(), Failed> {
    let with_edges = |len: usize, seed: u64| {
        let mut v = seeded(len, seed);
        for (x, &d) in v.iter_mut().zip(DANGER.iter()) {
            *x = Goldilocks::from_u64(d);
        }
        v
    };
    let (a, b, c, d) = (
        with_edges(1 << 16, 31),
        with_edges(300 << 12, 32),
        with_edges(5 << 12, 33),
        with_edges(7, 34),
    );
    let heights = [
        HeightOpening {
            log_height: 16,
            matrices: vec![opening_of(&a, 1, 2, 1)],
        },
        HeightOpening {
            log_height: 12,
            matrices: vec![opening_of(&b, 300, 3, 2), opening_of(&c, 5, 1, 3)],
        },
        HeightOpening {
            log_height: 0,
            matrices: vec![opening_of(&d, 7, 2, 4)],
        },
    ];
    let on_gpu = reduced_openings(gpu, &heights)?;
    for (h, codeword) in heights.iter().zip(&on_gpu) {
        if reduced_opening(h).as_ref() != Some(codeword) {
            return Err(format!("2^{}: the reduced openings differ", h.log_height).into());
        }
    }

    // Kept on the device: the engine's commitment of one matrix, opened with a decoy.
    let engine = GpuCommitEngine::new(Gpu::shared()?);
    let values = seeded(9 << 10, 35);
    let committed = engine
        .commit(
            Preset::Poseidon2W8,
            &[EngineMatrix {
                values: &values,
                width: 9,
                lde_shift: Goldilocks::from_u64(7),
            }],
            2,
            0,
        )?
        .ok_or("the engine declined a required job")?;
    let kept = committed.kept.as_deref().ok_or("the engine kept nothing")?;
    let lde = &committed.ldes[0];
    let decoy = vec![Goldilocks::ZERO; lde.len()];
    let real = HeightOpening {
        log_height: 12,
        matrices: vec![opening_of(lde, 9, 2, 5)],
    };
    let mut through_kept = real.clone();
    through_kept.matrices[0].lde = &decoy;
    through_kept.matrices[0].kept = Some((kept, 0));
    if reduced_openings(gpu, &[through_kept])? != vec![reduced_opening(&real).ok_or("formed")?] {
        return Err("the opening over the kept LDE differs from the CPU's over its copy".into());
    }

    let mut short = heights[1].clone();
    short.matrices[1].lde = &c[5..];
    let mut coefficients = heights[1].clone();
    coefficients.matrices[0].coefficients.pop();
    let mut on_domain = heights[2].clone();
    // The one point of the coset of order 1: 7.
    on_domain.matrices[0].terms[1].z = Goldilocks2::from(Goldilocks::from_u64(7));
    for bad in [short, coefficients, on_domain] {
        match reduced_openings(gpu, &[heights[0].clone(), bad.clone()]) {
            Err(CudaError::OpeningShape { log_height }) if log_height == bad.log_height => {}
            other => return Err(format!("2^{}: {other:?}", bad.log_height).into()),
        }
    }
    Ok(())
}

/// Width-8 round constants drawn from a seeded generator, as a Plonky3 prover that draws its
/// own has.
fn own_w8() -> Poseidon2Constants {
    Poseidon2Constants {
        w8: Some(RoundConstants::in_round_order(&seeded(2 * 4 * 8 + 22, 808))),
        ..Poseidon2Constants::default()
    }
}

/// The kernels compiled with a prover's own width-8 constants: its tree (every layer) and its
/// `FriPcs` proofs with the GPU engine equal the CPU's over those constants; the preset's
/// configuration no longer goes to that engine.
fn own_constants_match_the_cpu(_: &Gpu) -> Result<(), Failed> {
    let constants = own_w8();
    let gpu = Gpu::shared_with(&constants)?;
    let config: aurum_merkle::config::Poseidon2Config<8, 4> =
        aurum_merkle::config::poseidon2_config_with("own", constants.permutation::<8>());
    let values = seeded(1000 * 24, 5);
    let matrix = Matrix::new(&values, 24).expect("whole rows");
    let on_gpu = commit(gpu, Preset::Poseidon2W8, &[matrix])?;
    let cpu = MerkleTree::new(&config, vec![matrix])?;
    for j in 0..cpu.shape().num_layers() {
        if cpu.layer(j) != on_gpu.layer(j) {
            return Err(format!("own constants: layer {j} differs").into());
        }
    }
    let params = fri_params();
    let engine = Arc::new(
        GpuCommitEngine::for_job_with(DeviceChoice::Cuda, 0, &constants)?
            .expect("cuda gives an engine or an error"),
    );
    let cpu = FriPcs::new(config, params)?.with_cap_height(2);
    let on_gpu = cpu.clone().with_engine(engine.clone());
    if on_gpu.engine_preset() != Some(Preset::Poseidon2W8) {
        return Err("the engine does not take the configuration of its own constants".into());
    }
    if fri_proof(&on_gpu)? != fri_proof(&cpu)? {
        return Err("own constants: the proofs differ".into());
    }
    let preset = FriPcs::new(aurum_merkle::config::poseidon2_w8(), params)?.with_engine(engine);
    if preset.engine_preset().is_some() {
        return Err("the engine of other constants takes the preset's configuration".into());
    }
    Ok(())
}

/// The faults the `faults::*` trials put into the kernels' source (the host emulator's): one
/// line of one kernel, or of the field code every kernel uses, computing something else.
const FOLD_FAULT: (&str, &str) = ("gl_div_2exp(gl_add(lo0, hi0), 1)", "gl_add(lo0, hi0)");
const POSEIDON_FAULT: (&str, &str) = (
    "for (int i = 0; i < 12; i++) s[i] = gl_pow7_lazy(gl_add_lazy(s[i], rc[i]));",
    "for (int i = 0; i < 12; i++) s[i] = gl_pow7_lazy(gl_add_lazy(s[i], rc[i] ^ 1));",
);
const FIELD_FAULT: (&str, &str) = (
    "r3 = gl_ptx_mul_hi(a1, b1);",
    "r3 = gl_ptx_mul_hi(a1, b1) ^ 1;",
);

/// A check of the known-answer check's refusals: it runs on the host emulator, whose kernels'
/// source it edits ([`FOLD_FAULT`] …); elsewhere it is ignored with that reason.
fn fault_trial(name: &str, check: fn() -> Result<(), Failed>) -> Trial {
    Trial::ignorable_test(format!("faults::{name}"), move || {
        if cfg!(feature = "emulator") {
            check().map(|()| Completion::Completed)
        } else {
            Ok(Completion::ignored_with(
                "needs the host emulator (the `emulator` feature): it puts a fault into the \
                 kernels' source",
            ))
        }
    })
}

/// The host emulator with `fault` put into its kernels' source.
fn open_faulty(fault: (&str, &str)) -> Result<Gpu, CudaError> {
    #[cfg(feature = "emulator")]
    return Gpu::open_emulator_with_fault(fault.0, fault.1);
    #[cfg(not(feature = "emulator"))]
    unreachable!("fault_trial runs only on the host emulator: {fault:?}")
}

/// The groups `gpu` refused, in the check's order.
fn refused_kernels(gpu: &Gpu) -> Vec<GpuKernel> {
    gpu.refused()
        .iter()
        .filter_map(|e| match e {
            CudaError::KnownAnswer { kernel, .. } => Some(*kernel),
            _ => None,
        })
        .collect()
}

/// A fault in the fold kernel: the fold alone is refused, saying what differed; every fold is
/// its error, the engine leaves folds to the CPU under `auto` and fails them when the GPU is
/// required; trees and LDEs still run on the device and equal the CPU's.
fn faulty_fold_is_refused_and_the_rest_serves() -> Result<(), Failed> {
    let gpu: &'static Gpu = Box::leak(Box::new(open_faulty(FOLD_FAULT)?));
    if refused_kernels(gpu) != [GpuKernel::Fold] {
        return Err(format!("refused {:?}, expected the fold alone", gpu.refused()).into());
    }
    let reason = gpu.refused()[0].to_string();
    if !reason.contains("FRI fold") || !reason.contains("values differ, the first at") {
        return Err(format!("the refusal does not say what differed: {reason}").into());
    }
    let beta = Goldilocks2::new(Goldilocks::from_u64(DANGER[2]), Goldilocks::from_u64(5));
    let codeword: Vec<Goldilocks2> = seeded(2 << 15, 31)
        .chunks_exact(2)
        .map(|c| Goldilocks2::new(c[0], c[1]))
        .collect();
    match fri_fold(gpu, &codeword, 1, beta) {
        Err(CudaError::KnownAnswer {
            kernel: GpuKernel::Fold,
            ..
        }) => {}
        other => {
            let other = other.map(|folded| format!("{} elements", folded.len()));
            return Err(format!("a fold on the refusing device: {other:?}").into());
        }
    }
    for preset in Preset::ALL {
        same_tree(gpu, preset, &[(64, 13), (16, 5)], 32)?;
    }
    same_lde(gpu, Domain::PLONKY3, 10, 3, 1, Order::BitReversed)?;
    // 2^16 base elements: from OPEN_TREE_MIN_ELEMENTS on, what `auto` gives the GPU.
    let auto = GpuCommitEngine::auto(gpu);
    if auto.fold(&codeword, 1, beta)?.is_some() || auto.folds() != 0 {
        return Err("under auto the refused fold ran on the device".into());
    }
    let values = seeded(8 << 13, 33);
    let matrix = Matrix::new(&values, 8)?;
    if auto.tree(Preset::Poseidon2W8, &[matrix], 0)?.is_none() || auto.trees() != 1 {
        return Err("under auto a tree of the accepted kernels did not run on the device".into());
    }
    match GpuCommitEngine::new(gpu).fold(&codeword, 1, beta) {
        Err(e) if e.contains("FRI fold failed its known-answer check") => Ok(()),
        other => {
            let other = other.map(|folded| folded.map(|f| format!("{} elements", f.len())));
            Err(format!("the required engine's fold on the refusing device: {other:?}").into())
        }
    }
}

/// A fault in Poseidon's full rounds: its permutation and the two presets that hash with it
/// (plonky2's and Polygon's trees) are refused; commitments with them are the refusal; the
/// Poseidon2 presets still commit on the device as the CPU does.
fn faulty_poseidon_refuses_its_permutation_and_trees() -> Result<(), Failed> {
    let gpu = open_faulty(POSEIDON_FAULT)?;
    let expected = [
        GpuKernel::Permutation(GpuPermutation::Poseidon),
        GpuKernel::Tree(Preset::Plonky2),
        GpuKernel::Tree(Preset::Polygon),
    ];
    if refused_kernels(&gpu) != expected {
        return Err(format!("refused {:?}, expected {expected:?}", gpu.refused()).into());
    }
    let values = seeded(16 * 12, 34);
    let matrix = Matrix::new(&values, 12)?;
    match commit(&gpu, Preset::Plonky2, &[matrix]) {
        Err(CommitError::Cuda(CudaError::KnownAnswer {
            kernel: GpuKernel::Tree(Preset::Plonky2),
            ..
        })) => {}
        other => {
            let other = other.map(|tree| format!("a tree of {} layers", tree.shape().num_layers()));
            return Err(format!("a plonky2 tree on the refusing device: {other:?}").into());
        }
    }
    let mut states = values.clone();
    if gpu.permute(GpuPermutation::Poseidon, &mut states).is_ok() {
        return Err("the refused permutation ran".into());
    }
    for preset in [
        Preset::Poseidon2W8,
        Preset::Poseidon2W12,
        Preset::Poseidon2W16,
    ] {
        same_tree(&gpu, preset, &[(64, 13), (16, 5)], 35)?;
    }
    Ok(())
}

/// A fault in the field's multiplication, which every kernel uses: every group is refused, so
/// the device does not open; the error is the first refusal.
fn a_device_refusing_every_kernel_does_not_open() -> Result<(), Failed> {
    match open_faulty(FIELD_FAULT) {
        Err(CudaError::KnownAnswer {
            kernel: GpuKernel::Permutation(GpuPermutation::Poseidon2W8),
            ..
        }) => Ok(()),
        Err(e) => Err(format!("not the first group's refusal: {e}").into()),
        Ok(gpu) => Err(format!("opened, refusing {:?}", refused_kernels(&gpu)).into()),
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = ARCHITECTURES.iter().map(|&a| nvrtc_trial(a)).collect();
    trials.extend([
        gpu_trial("permutations_match_the_cpu", permutations_match),
        gpu_trial("single_matrix_trees_match_the_cpu", single_matrices),
        gpu_trial("mixed_height_trees_match_the_cpu", mixed_heights),
        gpu_trial("large_trees_match_the_cpu", large_trees),
        gpu_trial("bad_shapes_are_typed_errors", bad_shapes_are_typed_errors),
        gpu_trial("device_resident_trees_match_the_cpu", device_resident_trees),
        gpu_trial("ldes_match_the_cpu", ldes_match_the_cpu),
        gpu_trial(
            "lde_commitments_match_the_cpu",
            lde_commitments_match_the_cpu,
        ),
        gpu_trial("lde_errors_match_the_cpu", lde_errors_match_the_cpu),
        gpu_trial("fri_proofs_match_the_cpu", fri_proofs_match_the_cpu),
        gpu_trial("folds_compose", folds_compose),
        gpu_trial(
            "reduced_openings_match_the_cpu",
            reduced_openings_match_the_cpu,
        ),
        gpu_trial("own_constants_match_the_cpu", own_constants_match_the_cpu),
        gpu_trial(
            "streaming_commits_match_the_cpu",
            streaming_commits_match_the_cpu,
        ),
        fault_trial(
            "faulty_fold_is_refused_and_the_rest_serves",
            faulty_fold_is_refused_and_the_rest_serves,
        ),
        fault_trial(
            "faulty_poseidon_refuses_its_permutation_and_trees",
            faulty_poseidon_refuses_its_permutation_and_trees,
        ),
        fault_trial(
            "a_device_refusing_every_kernel_does_not_open",
            a_device_refusing_every_kernel_does_not_open,
        ),
    ]);
    libtest_mimic::run(&args, trials).exit();
}
