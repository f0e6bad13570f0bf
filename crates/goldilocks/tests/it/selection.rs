//! Runtime backend selection per CPU: `scripts/test-aarch64.sh` runs the suite under several
//! qemu CPU models and tells this test what each should get (`AURUM_EXPECT_BACKEND`, and
//! `AURUM_EXPECT_SVE_BITS`: the SVE vector length in bits, or `none`). Without those variables
//! (a native run) it checks the selection against the CPU features this process detects.

use aurum_goldilocks::{Backend, BackendError, parse_supported_backend};

#[test]
fn selected_backend_is_what_this_cpu_should_get() {
    let best = Backend::best_supported();
    assert!(best.is_supported());
    match std::env::var("AURUM_EXPECT_BACKEND") {
        Ok(expected) => assert_eq!(best.name(), expected, "selected backend"),
        Err(_) => {
            #[cfg(target_arch = "x86_64")]
            {
                // The AVX-512 backend's entry point is compiled with F, DQ, BW, VL, BMI1 and
                // BMI2; it is selected only where all of them are present.
                let avx512 = std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2");
                let expected = if avx512 {
                    Backend::Avx512
                } else if std::arch::is_x86_feature_detected!("avx2") {
                    Backend::Avx2
                } else {
                    Backend::Scalar
                };
                assert_eq!(best, expected);
            }
            #[cfg(target_arch = "aarch64")]
            {
                let expected = if aurum_sve::detect().is_some() {
                    Backend::Sve
                } else {
                    Backend::Neon
                };
                assert_eq!(best, expected);
            }
        }
    }
}

#[test]
fn sve_vector_length_is_what_this_cpu_has() {
    let detected = aurum_sve::detect().map(|sve| sve.vector_bits());
    match std::env::var("AURUM_EXPECT_SVE_BITS").as_deref() {
        Ok("none") => assert_eq!(detected, None, "no SVE expected"),
        Ok(bits) => {
            let bits: usize = bits
                .parse()
                .expect("AURUM_EXPECT_SVE_BITS is a number or none");
            assert_eq!(detected, Some(bits), "SVE vector length");
            assert_eq!(Backend::Sve.sve().map(|s| s.vector_bits()), Some(bits));
        }
        Err(_) => {
            // Natively: SVE is found exactly where the CPU has it and this build has the kernels.
            assert_eq!(
                detected.is_some(),
                aurum_sve::cpu_has_sve() && aurum_sve::kernels_built()
            );
            if let Some(bits) = detected {
                assert!(bits % 128 == 0 && (128..=2048).contains(&bits), "{bits}");
            }
        }
    }
    assert_eq!(Backend::Sve.is_supported(), detected.is_some());
}

#[test]
fn forcing_sve_where_it_cannot_run_is_an_error() {
    if aurum_sve::detect().is_none() {
        assert_eq!(
            parse_supported_backend("sve"),
            Err(BackendError::Unsupported(Backend::Sve))
        );
    } else {
        assert_eq!(parse_supported_backend("SVE"), Ok(Backend::Sve));
    }
}
