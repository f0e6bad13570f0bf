//! The two NEON multiplication strategies in the same 8-accumulator throughput loop, as
//! separate non-inlined functions so `scripts/neon-mul-mca.sh` can hand each loop body to
//! `llvm-mca` for Arm core models. Run under qemu it also prints (unrepresentative) timings.

#[cfg(target_arch = "aarch64")]
mod loops {
    use aurum_goldilocks::PackedGoldilocks as PackedNeon;

    macro_rules! eight {
        ($acc:ident, $c:ident, $iters:ident, $f:ident) => {
            for _ in 0..$iters {
                $acc[0] = $acc[0].$f($c[0]);
                $acc[1] = $acc[1].$f($c[1]);
                $acc[2] = $acc[2].$f($c[2]);
                $acc[3] = $acc[3].$f($c[3]);
                $acc[4] = $acc[4].$f($c[4]);
                $acc[5] = $acc[5].$f($c[5]);
                $acc[6] = $acc[6].$f($c[6]);
                $acc[7] = $acc[7].$f($c[7]);
            }
        };
    }

    /// Two scalar `mul`/`umulh` chains per vector.
    #[inline(never)]
    pub fn neon_mul_interleaved_scalar(acc: &mut [PackedNeon; 8], c: &[PackedNeon; 8], iters: u64) {
        eight!(acc, c, iters, mul_interleaved_scalar);
    }

    /// Four `umull` partial products and a vector reduction per vector.
    #[inline(never)]
    pub fn neon_mul_vector(acc: &mut [PackedNeon; 8], c: &[PackedNeon; 8], iters: u64) {
        eight!(acc, c, iters, mul_vector);
    }
}

#[cfg(target_arch = "aarch64")]
fn main() {
    use aurum_goldilocks::{Goldilocks, PackedField, PackedGoldilocks as PackedNeon};
    use std::hint::black_box;
    use std::time::Instant;

    let seed = |i: u64| Goldilocks::from_u64(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i + 1));
    let c: [PackedNeon; 8] =
        core::array::from_fn(|j| PackedNeon::from_fn(|l| seed((16 + 2 * j + l) as u64)));
    let iters = 2_000_000u64;
    type Loop = fn(&mut [PackedNeon; 8], &[PackedNeon; 8], u64);
    let strategies: [(&str, Loop); 2] = [
        ("interleaved scalar", loops::neon_mul_interleaved_scalar),
        ("vector (umull)", loops::neon_mul_vector),
    ];
    let mut results = Vec::new();
    for (name, f) in strategies {
        let mut acc: [PackedNeon; 8] =
            core::array::from_fn(|j| PackedNeon::from_fn(|l| seed((2 * j + l) as u64)));
        let start = Instant::now();
        f(black_box(&mut acc), black_box(&c), iters);
        let ns = start.elapsed().as_nanos() as f64 / (iters * 16) as f64;
        println!("{name:>20}: {ns:.3} ns per element (under emulation this is not hardware time)");
        results.push(acc);
    }
    assert_eq!(
        results[0], results[1],
        "both strategies must compute the same products"
    );
}

#[cfg(not(target_arch = "aarch64"))]
fn main() {
    eprintln!("neon_mul_strategies: aarch64 only (see scripts/neon-mul-mca.sh)");
}
