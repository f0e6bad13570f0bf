//! What FRI runs with: a Poseidon2 preset's tree and duplex challenger of the same width, and
//! the opening points both sides draw from the transcript.

use aurum_goldilocks::Goldilocks2;
use aurum_merkle::Commitment;
use aurum_symmetric::Challenger;

/// Runs `$body` with `$config` and `$challenger` (a constructor of a fresh transcript) for a
/// Poseidon2 preset.
macro_rules! with_fri_preset {
    ($preset:expr, |$config:ident, $challenger:ident| $body:expr) => {
        match $preset {
            Preset::Poseidon2W8 => {
                let $config = aurum_merkle::config::poseidon2_w8();
                let $challenger =
                    || DuplexChallenger::<_, 8, 4>::new(Poseidon2Goldilocks::<8>::new());
                $body
            }
            Preset::Poseidon2W12 => {
                let $config = aurum_merkle::config::poseidon2_w12();
                let $challenger =
                    || DuplexChallenger::<_, 12, 8>::new(Poseidon2Goldilocks::<12>::new());
                $body
            }
            Preset::Poseidon2W16 => {
                let $config = aurum_merkle::config::poseidon2_w16();
                let $challenger =
                    || DuplexChallenger::<_, 16, 12>::new(Poseidon2Goldilocks::<16>::new());
                $body
            }
            other => Err($crate::error::Error::Usage(format!(
                "FRI runs with the Poseidon2 presets, not {other}"
            ))),
        }
    };
}

pub(crate) use with_fri_preset;

/// Draws the opening points after absorbing the commitment: what both sides do.
pub(crate) fn draw_points<Ch: Challenger>(
    challenger: &mut Ch,
    commitment: &Commitment,
    n: usize,
) -> Vec<Goldilocks2> {
    for digest in &commitment.cap {
        challenger.observe_slice(digest);
    }
    (0..n).map(|_| challenger.sample_ext()).collect()
}
