//! The host check: the kernels' field, permutation and hash code (`kernels/*.cuh`, the same
//! text NVRTC compiles for the GPU, with the host's prelude) built by the host's C++ compiler
//! and compared with the Rust implementation — permutations of danger values and seeded
//! states, leaf digests of every preset over single and several matrices of many widths, and
//! the 2-to-1 compressions; and the coset LDE's whole launch plan (`aurum_cuda::kernels::lde`)
//! run through the NTT kernels' bodies against the CPU's `Ntt::coset_lde`. It runs on any machine with `c++`; without one every trial is
//! reported ignored with the reason. (The GPU's own results are checked by `tests/gpu.rs`.)

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use aurum_cuda::Poseidon2Constants;
use aurum_cuda::kernels::lde::{LdePlan, Step};
use aurum_goldilocks::Goldilocks;
use aurum_merkle::{MerkleConfig, Preset, with_preset};
use aurum_ntt::{Domain, Ntt, Order};
use aurum_poseidon::Poseidon;
use aurum_poseidon2::{Poseidon2Goldilocks, RoundConstants};
use aurum_symmetric::{Compressor, Hasher, Permutation};
use aurum_testing::values::{DANGER, seeded};
use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// The compiled driver (the kernels with Plonky3's fixed Poseidon2 constants), or why there
/// is none.
fn driver() -> &'static Result<PathBuf, String> {
    static DRIVER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DRIVER.get_or_init(|| build_driver("fixed", &Poseidon2Constants::default()))
}

/// The driver compiled with [`own_constants`].
fn own_driver() -> &'static Result<PathBuf, String> {
    static DRIVER: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DRIVER.get_or_init(|| build_driver("own", &own_constants()))
}

/// Poseidon2 round constants of every width drawn from a seeded generator, as a Plonky3 prover
/// that draws its own has.
fn own_constants() -> Poseidon2Constants {
    fn draw<const W: usize>(seed: u64) -> RoundConstants<W> {
        RoundConstants::in_round_order(&seeded(2 * 4 * W + 22, seed))
    }
    Poseidon2Constants {
        w8: Some(draw(8)),
        w12: Some(draw(12)),
        w16: Some(draw(16)),
    }
}

fn build_driver(name: &str, constants: &Poseidon2Constants) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!(
        "aurum-cuda-host-check-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("temporary folder: {e}"))?;
    let source = dir.join("host_check.cpp");
    let mut text = aurum_cuda::kernels::host_source_with(constants);
    text.push_str(include_str!("../kernels/host_main.cpp"));
    std::fs::write(&source, text).map_err(|e| format!("writing the source: {e}"))?;
    let binary = dir.join("host_check");
    let output = match Command::new("c++")
        .args([
            "-O1",
            "-std=c++17",
            "-Wall",
            "-Werror",
            "-Wno-unknown-pragmas",
            "-o",
        ])
        .arg(&binary)
        .arg(&source)
        .output()
    {
        Ok(output) => output,
        Err(e) => return Err(format!("no host C++ compiler (`c++`: {e})")),
    };
    if !output.status.success() {
        // A compiler that runs but rejects the kernels is a failure, not a reason to skip.
        panic!(
            "the kernels do not compile for the host:\n{}",
            String::from_utf8_lossy(&output.stderr)
                .chars()
                .take(4000)
                .collect::<String>()
        );
    }
    Ok(binary)
}

/// Sends `request` to the driver and parses its hexadecimal answer.
fn ask(request: &str) -> Vec<u64> {
    ask_driver(driver(), request)
}

/// Sends `request` to `driver` and parses its hexadecimal answer.
fn ask_driver(driver: &Result<PathBuf, String>, request: &str) -> Vec<u64> {
    let binary = driver.as_ref().expect("checked by the trial");
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the host check runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(request.as_bytes())
        .expect("request written");
    let output = child.wait_with_output().expect("the host check finishes");
    assert!(
        output.status.success(),
        "host check exited with {}",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("ASCII")
        .lines()
        .map(|l| u64::from_str_radix(l, 16).expect("hexadecimal"))
        .collect()
}

fn push_values(request: &mut String, values: impl IntoIterator<Item = u64>) {
    for v in values {
        let _ = write!(request, "{v:x} ");
    }
    request.push('\n');
}

fn canonical(values: &[Goldilocks]) -> Vec<u64> {
    values.iter().map(|x| x.as_canonical_u64()).collect()
}

/// States for the permutation checks: every danger value spread over a state, then seeded
/// (mostly non-canonical-free) and raw values.
fn states<const W: usize>() -> Vec<[Goldilocks; W]> {
    let mut out: Vec<[Goldilocks; W]> = DANGER
        .iter()
        .map(|&d| {
            core::array::from_fn(|i| {
                Goldilocks::from_u64(if i % 3 == 0 { d } else { DANGER[(i * 7) % 16] })
            })
        })
        .collect();
    let values = seeded(W * 64, W as u64);
    out.extend(
        values
            .chunks_exact(W)
            .map(|c| core::array::from_fn(|i| c[i])),
    );
    out
}

fn check_permutation<const W: usize>(name: &str, perm: &impl Permutation<W>) -> Result<(), Failed> {
    check_permutation_on(driver(), name, perm)
}

/// [`check_permutation`] on `driver`.
fn check_permutation_on<const W: usize>(
    driver: &Result<PathBuf, String>,
    name: &str,
    perm: &impl Permutation<W>,
) -> Result<(), Failed> {
    let inputs = states::<W>();
    let mut request = format!("perm {name} {:x}\n", inputs.len());
    for s in &inputs {
        // Canonical inputs: the device kernels read canonical states (the leaf and tree kernels
        // reduce their inputs as they read them; that path is checked by the leaf trials).
        push_values(&mut request, canonical(s));
    }
    let answer = ask_driver(driver, &request);
    for (k, input) in inputs.iter().enumerate() {
        let mut expected = *input;
        perm.permute(&mut expected);
        let got = &answer[k * W..(k + 1) * W];
        if got != canonical(&expected).as_slice() {
            return Err(format!(
                "{name}: state {k} differs: got {got:x?}, expected {:x?}",
                canonical(&expected)
            )
            .into());
        }
    }
    Ok(())
}

const P: u128 = 0xFFFF_FFFF_0000_0001;

/// 64-bit values for the field check: the danger values, the top of the 64-bit range, values
/// around 2^32 multiples, and a seeded spread of raw 64-bit words ([`seeded`]'s, unreduced).
fn field_inputs() -> Vec<u64> {
    let mut out: Vec<u64> = DANGER.to_vec();
    out.extend([
        u64::MAX,
        u64::MAX - 1,
        u64::MAX - (1 << 32) + 2,
        0xFFFF_FFFF_0000_0000,
        0xFFFF_FFFE_FFFF_FFFF,
        0x0000_0001_FFFF_FFFF,
        0xFFFF_FFFF_FFFF_0000,
    ]);
    out.extend_from_slice(aurum_goldilocks::raw::words(&seeded(24, 0x5eed)));
    out
}

/// The field's primitives (`kernels/goldilocks.cuh`, through the host's version of each
/// device carry chain) on every pair of [`field_inputs`], against integer arithmetic: lazy
/// results congruent mod p, canonical ones below p too, exact sums exact.
fn check_field() -> Result<(), Failed> {
    let inputs = field_inputs();
    let pairs: Vec<(u64, u64)> = inputs
        .iter()
        .flat_map(|&a| inputs.iter().map(move |&b| (a, b)))
        .collect();
    let mut request = format!("field - {:x}\n", pairs.len());
    for &(a, b) in &pairs {
        push_values(&mut request, [a, b]);
    }
    let answer = ask(&request);
    const OUTPUTS: usize = 29;
    if answer.len() != pairs.len() * OUTPUTS {
        return Err(format!("{} values for {} pairs", answer.len(), pairs.len()).into());
    }
    let m = |x: u128| x % P;
    let pow = |x: u128, e: u32| (0..e).fold(1u128, |acc, _| m(acc * m(x)));
    // 1/2 = (p + 1)/2.
    let inv2k = |k: u32| pow(P / 2 + 1, k);
    let wide = |lo: u64, hi: u64| u128::from(lo) | (u128::from(hi) << 64);
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let got = &answer[k * OUTPUTS..(k + 1) * OUTPUTS];
        let (a128, b128) = (u128::from(a), u128::from(b));
        let bc = m(b128);
        let fold_hi = (b >> 32) % 0xFFFF_FFFF;
        // The accumulators: a + a·b (below 2^128) and b + 12·a·b, as 128 low bits and the
        // carries past them.
        let ab = a128 * b128;
        let acc1 = a128 + ab;
        let (twelve_lo, twelve_hi) = ((ab & u128::from(u64::MAX)) * 12, (ab >> 64) * 12);
        let (low, carry1) = twelve_lo.overflowing_add(twelve_hi << 64);
        let (acc12, carry2) = low.overflowing_add(b128);
        let acc12_top = (twelve_hi >> 64) + u128::from(carry1) + u128::from(carry2);
        // (name, got, expected residue or exact value, exact, canonical)
        let checks: [(&str, u128, u128, bool, bool); 23] = [
            (
                "gl_mul_lazy",
                got[0].into(),
                m(m(a128) * m(b128)),
                false,
                false,
            ),
            ("gl_fold", got[1].into(), m(wide(a, fold_hi)), false, false),
            ("gl_wide_of", wide(got[2], got[3]), a128 + b128, true, false),
            (
                "gl_wide_add (wide)",
                wide(got[4], got[5]),
                a128 + b128 + a128 + (u128::from(b & 0xFF) << 64),
                true,
                false,
            ),
            (
                "gl_wide_add (u64)",
                wide(got[6], got[7]),
                a128 + 2 * b128,
                true,
                false,
            ),
            (
                "gl_mac_wide 3",
                wide(got[8], got[9]),
                a128 + 3 * b128,
                true,
                false,
            ),
            (
                "gl_mac_wide 2^32 - 3",
                wide(got[10], got[11]),
                a128 + 0xFFFF_FFFD * b128,
                true,
                false,
            ),
            ("gl_neg_lazy", got[12].into(), m(P - m(a128)), false, false),
            ("gl_add_lazy", got[13].into(), m(a128 + bc), false, false),
            ("gl_sub", got[14].into(), m(a128 + P - bc), false, a128 < P),
            (
                "gl_div_2exp 1",
                got[15].into(),
                m(m(a128) * inv2k(1)),
                false,
                true,
            ),
            (
                "gl_div_2exp 7",
                got[16].into(),
                m(m(a128) * inv2k(7)),
                false,
                true,
            ),
            (
                "gl_div_2exp 32",
                got[17].into(),
                m(m(a128) * inv2k(32)),
                false,
                true,
            ),
            ("gl_pow7_lazy", got[18].into(), pow(a128, 7), false, false),
            (
                "gl_sum_lazy",
                got[19].into(),
                m(8 * a128 + 8 * b128),
                false,
                false,
            ),
            ("gl_mul", got[20].into(), m(m(a128) * m(b128)), false, true),
            ("gl_acc_reduce (1)", got[21].into(), m(acc1), false, false),
            ("gl_acc_mac (1)", wide(got[22], got[23]), acc1, true, false),
            ("gl_acc_mac (1) carries", got[24].into(), 0, true, false),
            (
                "gl_acc_reduce (12)",
                got[25].into(),
                m(m(b128) + 12 * m(ab)),
                false,
                false,
            ),
            (
                "gl_acc_mac (12)",
                wide(got[26], got[27]),
                acc12,
                true,
                false,
            ),
            (
                "gl_acc_mac (12) carries",
                got[28].into(),
                acc12_top,
                true,
                false,
            ),
            (
                "wide hi bounds",
                u128::from(got[11] < 1 << 32),
                1,
                true,
                false,
            ),
        ];
        for (name, value, expected, exact, canonical) in checks {
            let ok = if exact {
                value == expected
            } else {
                m(value) == expected && (!canonical || value < P)
            };
            if !ok {
                return Err(format!(
                    "{name}({a:#x}, {b:#x}) = {value:#x}, expected {expected:#x}{}",
                    if exact {
                        " exactly"
                    } else if canonical {
                        " (canonical)"
                    } else {
                        " mod p"
                    }
                )
                .into());
            }
        }
    }
    Ok(())
}

/// Leaf digests of `preset` over matrices of `widths` (all of `rows` rows), against the
/// preset's Rust leaf hash of the concatenated rows.
fn check_leaves(preset: Preset, rows: usize, widths: &[usize]) -> Result<(), Failed> {
    let matrices: Vec<Vec<Goldilocks>> = widths
        .iter()
        .enumerate()
        .map(|(m, &w)| seeded(rows * w, 1000 + m as u64 * 31 + w as u64))
        .collect();
    let mut request = format!("leaf {preset} {rows:x} {:x} ", widths.len());
    push_values(&mut request, widths.iter().map(|&w| w as u64));
    for matrix in &matrices {
        // Raw words, non-canonical ones included: the kernels reduce as they read.
        push_values(
            &mut request,
            aurum_goldilocks::raw::words(matrix).iter().copied(),
        );
    }
    let answer = ask(&request);
    with_preset!(preset, |config| {
        for r in 0..rows {
            let row: Vec<Goldilocks> = matrices
                .iter()
                .zip(widths)
                .flat_map(|(m, &w)| m[r * w..(r + 1) * w].iter().copied())
                .collect();
            let expected = canonical(&config.leaf().hash(&row));
            let got = &answer[4 * r..4 * r + 4];
            if got != expected.as_slice() {
                return Err(format!(
                    "{preset} leaf {r} of widths {widths:?}: got {got:x?}, expected {expected:x?}"
                )
                .into());
            }
        }
        Ok(())
    })
}

fn check_compress(preset: Preset) -> Result<(), Failed> {
    let values = seeded(8 * 40, 77);
    let pairs: Vec<[[Goldilocks; 4]; 2]> = values
        .chunks_exact(8)
        .map(|c| {
            // Digests are canonical (they come out of the permutation); one all-zero right half.
            let d = |o: usize| {
                core::array::from_fn(|i| Goldilocks::from_u64(c[o + i].as_canonical_u64()))
            };
            [d(0), d(4)]
        })
        .chain([[[Goldilocks::ZERO; 4], [Goldilocks::ZERO; 4]]])
        .collect();
    let mut request = format!("compress {preset} {:x}\n", pairs.len());
    for pair in &pairs {
        push_values(
            &mut request,
            canonical(&pair[0]).into_iter().chain(canonical(&pair[1])),
        );
    }
    let answer = ask(&request);
    with_preset!(preset, |config| {
        for (k, pair) in pairs.iter().enumerate() {
            let expected = canonical(&config.node().compress(*pair));
            let got = &answer[4 * k..4 * k + 4];
            if got != expected.as_slice() {
                return Err(format!(
                    "{preset} compression {k}: got {got:x?}, expected {expected:x?}"
                )
                .into());
            }
        }
        Ok(())
    })
}

/// The LDE of a seeded `2^log_n × width` matrix through the plan and the kernel bodies on the
/// host, against the CPU's.
fn check_lde(
    domain: Domain,
    log_n: u32,
    width: usize,
    added_bits: u32,
    shift: Goldilocks,
    order: Order,
) -> Result<(), Failed> {
    let values = seeded(width << log_n, u64::from(log_n) * 100 + width as u64);
    let expected = Ntt::new(domain)
        .coset_lde(&values, width, added_bits as usize, shift, order)
        .expect("a valid LDE");
    let root = domain
        .root_of_unity((log_n + added_bits) as usize)
        .expect("at most 2^32");
    let plan = LdePlan::new(
        log_n,
        added_bits,
        width as u64,
        root,
        shift,
        order == Order::BitReversed,
    );
    let mut request = format!(
        "lde - {log_n:x} {added_bits:x} {width:x} {:x} {:x}\n",
        plan.log_table,
        plan.steps.len()
    );
    // Raw words, non-canonical ones included: the first pass reduces as it reads.
    push_values(
        &mut request,
        aurum_goldilocks::raw::words(&values).iter().copied(),
    );
    for step in &plan.steps {
        match step {
            Step::Powers {
                out,
                count,
                lo_bits,
                hi,
                lo,
            } => {
                push_values(
                    &mut request,
                    [0, out.index(), *count, u64::from(*lo_bits), hi.len() as u64],
                );
                push_values(&mut request, hi.iter().copied());
                push_values(&mut request, [lo.len() as u64]);
                push_values(&mut request, lo.iter().copied());
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
            } => push_values(
                &mut request,
                [
                    1,
                    data.index(),
                    u64::from(*low),
                    u64::from(*layers),
                    u64::from(*lane_bits),
                    *blocks,
                    u64::from(*dit),
                    u64::from(*inverse),
                    u64::from(*spread),
                ],
            ),
        }
    }
    let answer = ask(&request);
    let expected = canonical(&expected);
    if answer.len() != expected.len() {
        return Err(format!("{} values, expected {}", answer.len(), expected.len()).into());
    }
    if let Some(i) = (0..answer.len()).find(|&i| answer[i] != expected[i]) {
        return Err(format!(
            "LDE of 2^{log_n} x {width} by 2^{added_bits} ({order:?}, passes {:?}): row {} \
             column {} is {:x}, expected {:x}",
            plan.passes(),
            i / width,
            i % width,
            answer[i],
            expected[i]
        )
        .into());
    }
    Ok(())
}

fn trial(name: &str, check: impl FnOnce() -> Result<(), Failed> + Send + 'static) -> Trial {
    trial_on(driver, name, check)
}

/// [`trial`] with the driver `driver` gives.
fn trial_on(
    driver: fn() -> &'static Result<PathBuf, String>,
    name: &str,
    check: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    Trial::ignorable_test(format!("host::{name}"), move || match driver() {
        Err(reason) => Ok(Completion::ignored_with(reason.clone())),
        Ok(_) => check().map(|()| Completion::Completed),
    })
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![
        trial("field_primitives", check_field),
        trial("poseidon2_w8_permutation", || {
            check_permutation::<8>("poseidon2-w8", &Poseidon2Goldilocks::<8>::new())
        }),
        trial("poseidon2_w12_permutation", || {
            check_permutation::<12>("poseidon2-w12", &Poseidon2Goldilocks::<12>::new())
        }),
        trial("poseidon2_w16_permutation", || {
            check_permutation::<16>("poseidon2-w16", &Poseidon2Goldilocks::<16>::new())
        }),
        trial("poseidon_permutation", || {
            check_permutation::<12>("poseidon", &Poseidon::new())
        }),
        // The kernels compiled with a prover's own Poseidon2 constants compute the
        // permutations with those constants.
        trial_on(own_driver, "poseidon2_own_constants_permutations", || {
            let own = own_constants();
            check_permutation_on::<8>(own_driver(), "poseidon2-w8", &own.permutation::<8>())?;
            check_permutation_on::<12>(own_driver(), "poseidon2-w12", &own.permutation::<12>())?;
            check_permutation_on::<16>(own_driver(), "poseidon2-w16", &own.permutation::<16>())
        }),
    ];
    trial_ldes(&mut trials);
    for preset in Preset::ALL {
        trial_leaves(&mut trials, preset);
        trials.push(trial(
            &format!("{}_compression", snake(preset)),
            move || check_compress(preset),
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Leaf widths around every rate boundary (1…4 copy limits, 4/8/12 rates, 2 blocks and more),
/// and several matrices whose widths split the sponge's chunks.
fn trial_leaves(trials: &mut Vec<Trial>, preset: Preset) {
    trials.push(trial(
        &format!("{}_leaves_one_matrix", snake(preset)),
        move || {
            for width in [1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 16, 17, 24, 25, 100, 136] {
                check_leaves(preset, 5, &[width])?;
            }
            Ok(())
        },
    ));
    trials.push(trial(
        &format!("{}_leaves_several_matrices", snake(preset)),
        move || {
            for widths in [
                &[1, 1][..],
                &[2, 2],
                &[3, 2],
                &[4, 5, 6],
                &[1, 7, 9, 2],
                &[13, 3],
            ] {
                check_leaves(preset, 4, widths)?;
            }
            Ok(())
        },
    ));
}

/// LDEs of every height up to 2^12 rows of one column (one pass each way, 12 layers in the
/// bottom tile), wider matrices whose transforms take two and three passes (tiles of 3, 8
/// and 16 lanes, rows wider than a tile), every blow-up, both orders, three domains and a
/// custom shift.
fn trial_ldes(trials: &mut Vec<Trial>) {
    trials.push(trial("lde_every_height", || {
        for log_n in 0..=12 {
            for order in [Order::Natural, Order::BitReversed] {
                check_lde(Domain::PLONKY3, log_n, 1, 1, Domain::PLONKY3.shift(), order)?;
            }
        }
        Ok(())
    }));
    trials.push(trial("lde_passes_and_widths", || {
        for (log_n, width, added) in [
            (13, 1, 1),
            (11, 1, 4),
            (10, 3, 2),
            (9, 8, 1),
            (12, 5, 1),
            (8, 16, 3),
            (6, 40, 1),
            (5, 17, 2),
            (3, 300, 1),
            (0, 7, 4),
        ] {
            for order in [Order::Natural, Order::BitReversed] {
                check_lde(
                    Domain::PLONKY3,
                    log_n,
                    width,
                    added,
                    Domain::PLONKY3.shift(),
                    order,
                )?;
            }
        }
        Ok(())
    }));
    trials.push(trial("lde_domains_and_shifts", || {
        for domain in [Domain::PLONKY2, Domain::POLYGON_ZKPROVER] {
            for order in [Order::Natural, Order::BitReversed] {
                check_lde(domain, 7, 4, 2, domain.shift(), order)?;
            }
        }
        let shift = Goldilocks::from_u64(0xffff_ffff_0000_0000);
        check_lde(Domain::PLONKY3, 9, 2, 1, shift, Order::BitReversed)?;
        check_lde(Domain::PLONKY3, 9, 2, 3, shift, Order::Natural)
    }));
}

fn snake(preset: Preset) -> String {
    preset.name().replace('-', "_")
}
