//! What the CPU computes for the GPU's trees and folds: the Merkle configuration of each preset
//! with the Poseidon2 round constants the kernels were compiled with — for the commit engine's
//! answers and the known-answer check (whose folds are checked against
//! `aurum_fri::fold_as_verifier`).

/// Runs `$body` with `$config` bound to the CPU's configuration of the GPU's `$preset` tree
/// when its kernels were compiled with `$constants` (a `&Poseidon2Constants`): the preset's
/// own configuration, except that the `poseidon2-w*` trees hash with those constants.
macro_rules! with_gpu_config {
    ($constants:expr, $preset:expr, |$config:ident| $body:expr) => {{
        use aurum_merkle::config::{Poseidon2Config, poseidon2_config_with};
        let constants: &$crate::kernels::Poseidon2Constants = $constants;
        match $preset {
            aurum_merkle::Preset::Poseidon2W8 => {
                let $config: Poseidon2Config<8, 4> =
                    poseidon2_config_with("poseidon2-w8", constants.permutation::<8>());
                $body
            }
            aurum_merkle::Preset::Poseidon2W12 => {
                let $config: Poseidon2Config<12, 8> =
                    poseidon2_config_with("poseidon2-w12", constants.permutation::<12>());
                $body
            }
            aurum_merkle::Preset::Poseidon2W16 => {
                let $config: Poseidon2Config<16, 12> =
                    poseidon2_config_with("poseidon2-w16", constants.permutation::<16>());
                $body
            }
            other => aurum_merkle::with_preset!(other, |$config| $body),
        }
    }};
}

pub(crate) use with_gpu_config;

#[cfg(test)]
mod tests {
    use aurum_merkle::{Answers, Preset};
    use aurum_poseidon2::RoundConstants;

    use crate::kernels::Poseidon2Constants;

    /// With Plonky3's fixed constants the GPU's trees are the presets' configurations; with a
    /// width's own constants, that width's tree is another, and the rest stay the presets'.
    #[test]
    fn the_configurations_are_the_presets_but_for_own_constants() {
        let fixed = Poseidon2Constants::default();
        for preset in Preset::ALL {
            let answers = with_gpu_config!(&fixed, preset, |config| Answers::of(&config));
            assert!(answers == preset.answers(), "{preset}");
        }
        let words: Vec<_> = (0..2 * 4 * 12 + 22)
            .map(|i| aurum_goldilocks::Goldilocks::from_u64(i * 7 + 3))
            .collect();
        let own = Poseidon2Constants {
            w12: Some(RoundConstants::in_round_order(&words)),
            ..Poseidon2Constants::default()
        };
        for preset in Preset::ALL {
            let answers = with_gpu_config!(&own, preset, |config| Answers::of(&config));
            assert_eq!(
                answers == preset.answers(),
                preset != Preset::Poseidon2W12,
                "{preset}"
            );
        }
    }
}
