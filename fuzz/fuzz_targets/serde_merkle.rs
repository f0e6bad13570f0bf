//! `Commitment`, `Opening` and `Dimensions` from JSON: no panic; what is accepted round-trips.

#![no_main]

use aurum_merkle::{Commitment, Dimensions, Opening};
use libfuzzer_sys::fuzz_target;

fn round_trip<T>(data: &[u8])
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + core::fmt::Debug,
{
    if let Ok(x) = serde_json::from_slice::<T>(data) {
        let text = serde_json::to_string(&x).unwrap();
        assert_eq!(serde_json::from_str::<T>(&text).unwrap(), x);
    }
}

fuzz_target!(|data: &[u8]| {
    round_trip::<Commitment>(data);
    round_trip::<Opening>(data);
    round_trip::<Vec<Dimensions>>(data);
});
