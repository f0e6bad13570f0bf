use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Ntt, Order};
fn main() {
    let ntt = Ntt::plonky3();
    let ghz = 2.87;
    for (log_h, w, threads) in [(10usize, 8usize, 1usize), (10, 4, 1), (9, 16, 1), (5, 1024, 1), (20, 8, 2)] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let v: Vec<Goldilocks> = (0..(w << log_h) as u64).map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E3779B97F4A7C15))).collect();
        let mut x = v.clone();
        let reps = ((1usize << 24) / (w << log_h)).max(3);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            for _ in 0..reps { pool.install(|| ntt.forward(&mut x, w, Order::BitReversed).unwrap()); }
            best = best.min(t.elapsed().as_secs_f64() / reps as f64);
        }
        let bfly = (w << log_h) as f64 / 2.0 * log_h as f64;
        println!("2^{log_h}x{w} {threads}T: {:.3} ms, {:.2} cycles/butterfly/thread", best * 1e3, best * ghz * 1e9 * threads as f64 / bfly);
    }
}
