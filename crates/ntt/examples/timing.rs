//! Quick wall-clock timings of the main operations (for tuning; criterion benches are in
//! `benches/benches/ntt.rs`). `cargo run --release -p aurum-ntt --example timing`
use std::time::Instant;

use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Ntt, Order};

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let ntt = Ntt::plonky3();
    for (log_h, width) in [(20usize, 8usize), (16, 256), (22, 1)] {
        let input: Vec<Goldilocks> = (0..(width << log_h) as u64)
            .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        let mut best = [f64::MAX; 4];
        for _ in 0..5 {
            let mut v = input.clone();
            let t = Instant::now();
            pool.install(|| ntt.forward(&mut v, width, Order::BitReversed).unwrap());
            best[0] = best[0].min(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            pool.install(|| ntt.bit_reverse_rows(&mut v, width).unwrap());
            let _ = &mut v;
            best[1] = best[1].min(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            pool.install(|| ntt.inverse(&mut v, width, Order::Natural).unwrap());
            best[2] = best[2].min(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let lde = pool.install(|| {
                ntt.coset_lde(
                    &input,
                    width,
                    1,
                    Goldilocks::from_u64(7),
                    Order::BitReversed,
                )
                .unwrap()
            });
            best[3] = best[3].min(t.elapsed().as_secs_f64() * 1e3);
            drop(lde);
        }
        println!(
            "2^{log_h}x{width}: forward(bitrev) {:.1} ms, bit_reverse_rows {:.1} ms, inverse(natural) {:.1} ms, coset_lde(+1, bitrev) {:.1} ms",
            best[0], best[1], best[2], best[3]
        );
    }
}
