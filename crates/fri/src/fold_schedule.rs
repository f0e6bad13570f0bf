//! The folding schedule: how many bits each commit round folds by. A function of the
//! parameters and the input heights only, so prover and verifier both derive it and no proof
//! carries it (Plonky3 0.8's `fold_schedule`).

/// The log-arity of every commit round for inputs of (strictly decreasing) log-heights
/// `input_log_heights`, folding down to `log_final_height` by at most `max_log_arity ≥ 1` bits
/// a round.
///
/// A round never folds past the height where the next input joins (so every input height gets
/// a committed codeword to join), nor past the final height. Empty when the tallest input is
/// not above the final height. Every entry is in `1..=max_log_arity` and they sum to
/// `tallest − log_final_height`.
#[must_use]
pub fn fold_schedule(
    input_log_heights: &[usize],
    log_final_height: usize,
    max_log_arity: usize,
) -> Vec<usize> {
    debug_assert!(max_log_arity >= 1, "validated parameters");
    debug_assert!(input_log_heights.windows(2).all(|w| w[0] > w[1]));
    let Some(&tallest) = input_log_heights.first() else {
        return Vec::new();
    };
    let mut schedule = Vec::new();
    let mut log_height = tallest;
    let mut next = input_log_heights[1..].iter().copied().peekable();
    while log_height > log_final_height {
        // Inputs at or below the final height never join a fold.
        let stop = next.peek().copied().unwrap_or(0).max(log_final_height);
        let log_arity = (log_height - stop).min(max_log_arity);
        schedule.push(log_arity);
        log_height -= log_arity;
        next.next_if_eq(&log_height);
    }
    schedule
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_stop_where_inputs_join() {
        assert_eq!(fold_schedule(&[10], 2, 3), vec![3, 3, 2]);
        assert_eq!(fold_schedule(&[10], 2, 1), vec![1; 8]);
        assert_eq!(fold_schedule(&[10, 6], 2, 3), vec![3, 1, 3, 1]);
        assert_eq!(fold_schedule(&[], 2, 3), Vec::<usize>::new());
        assert_eq!(fold_schedule(&[2], 2, 3), Vec::<usize>::new());
        assert_eq!(fold_schedule(&[5, 1], 2, 4), vec![3]);
    }

    #[test]
    fn every_schedule_folds_to_the_final_height_in_bounded_steps() {
        for max_log_arity in 1..=4 {
            for log_final_height in 0..4 {
                for mask in 1u32..(1 << 10) {
                    let heights: Vec<usize> =
                        (0..10).rev().filter(|b| mask >> b & 1 == 1).collect();
                    let schedule = fold_schedule(&heights, log_final_height, max_log_arity);
                    let tallest = heights[0];
                    assert_eq!(
                        schedule.iter().sum::<usize>(),
                        tallest.saturating_sub(log_final_height)
                    );
                    assert!(schedule.iter().all(|a| (1..=max_log_arity).contains(a)));
                    // Every input above the final height is reached exactly.
                    let mut reached = vec![tallest];
                    for a in &schedule {
                        reached.push(reached.last().unwrap() - a);
                    }
                    for h in heights.iter().filter(|&&h| h > log_final_height) {
                        assert!(reached.contains(h), "{heights:?} {schedule:?}");
                    }
                }
            }
        }
    }
}
