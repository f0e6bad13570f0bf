//! Quick wall-clock timings of the main operations, for tuning (the same-run comparisons
//! against Plonky3 are the `goals` example's; criterion benches are in
//! `benches/benches/ntt.rs`).
//!
//! ```text
//! cargo run --release -p aurum-ntt --example timing [-- [--threads N] [--rounds R] [SHAPE...]]
//! ```
//!
//! A shape is `LOG_ROWS x WIDTH` written as `16x2633` (default: `20x8 16x256 22x1`); threads
//! default to 2, rounds to 5. Each round times, on one buffer refilled before the clock: the
//! forward transform to bit-reversed order, the row bit-reversal, the inverse from natural
//! order and the coset LDE (blow-up 2, bit-reversed; its output allocated and dropped inside
//! the clock). Printed: the median and the range of the rounds, in milliseconds.
use std::process::exit;
use std::time::Instant;

use aurum_goldilocks::Goldilocks;
use aurum_ntt::{Ntt, Order};

fn usage(problem: &str) -> ! {
    eprintln!("timing: {problem}; usage: timing [--threads N] [--rounds R] [LOG_ROWSxWIDTH...]");
    exit(2)
}

fn positive(value: Option<String>, what: &str) -> usize {
    value
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| usage(&format!("{what} needs a positive number")))
}

fn shape(word: &str) -> (usize, usize) {
    word.split_once('x')
        .and_then(|(l, w)| Some((l.parse().ok()?, w.parse().ok()?)))
        .filter(|&(log_rows, width): &(usize, usize)| log_rows <= 24 && width > 0)
        .unwrap_or_else(|| usage(&format!("{word:?} is not a shape such as 16x2633")))
}

/// `median [min–max]` of the rounds, in milliseconds.
fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "{:.1} [{:.1}–{:.1}]",
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1]
    )
}

fn main() {
    let (mut threads, mut rounds, mut shapes) = (2, 5, Vec::new());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = positive(args.next(), "--threads"),
            "--rounds" => rounds = positive(args.next(), "--rounds"),
            word => shapes.push(shape(word)),
        }
    }
    if shapes.is_empty() {
        shapes = vec![(20, 8), (16, 256), (22, 1)];
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| usage(&format!("no thread pool: {e}")));
    let ntt = Ntt::plonky3();
    println!(
        "backend {}, {threads} threads, {rounds} rounds",
        ntt.backend()
            .map_or_else(|e| e.to_string(), |b| b.to_string())
    );
    for (log_rows, width) in shapes {
        let input: Vec<Goldilocks> = (0..(width << log_rows) as u64)
            .map(|i| Goldilocks::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        let mut values = input.clone();
        let mut times: [Vec<f64>; 4] = Default::default();
        let mut clock =
            |slot: usize, start: Instant| times[slot].push(start.elapsed().as_secs_f64() * 1e3);
        for _ in 0..rounds {
            values.copy_from_slice(&input);
            let start = Instant::now();
            pool.install(|| ntt.forward(&mut values, width, Order::BitReversed).unwrap());
            clock(0, start);
            let start = Instant::now();
            pool.install(|| ntt.bit_reverse_rows(&mut values, width).unwrap());
            clock(1, start);
            let start = Instant::now();
            pool.install(|| ntt.inverse(&mut values, width, Order::Natural).unwrap());
            clock(2, start);
            let start = Instant::now();
            let shift = ntt.domain().shift();
            pool.install(|| {
                drop(
                    ntt.coset_lde(&input, width, 1, shift, Order::BitReversed)
                        .unwrap(),
                )
            });
            clock(3, start);
        }
        let [forward, bit_reverse, inverse, lde] = times.map(summary);
        println!(
            "2^{log_rows} x {width}: forward (bit-reversed) {forward} ms, bit_reverse_rows \
             {bit_reverse} ms, inverse (natural) {inverse} ms, coset_lde (+1, bit-reversed) {lde} ms"
        );
    }
}
