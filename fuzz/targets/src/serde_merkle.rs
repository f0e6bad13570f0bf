//! `Commitment`, `Opening` and `Dimensions` from JSON: no panic; what is accepted round-trips.

use aurum_merkle::{Commitment, Dimensions, Opening};

fn round_trip<T>(data: &[u8])
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + core::fmt::Debug,
{
    if let Ok(x) = serde_json::from_slice::<T>(data) {
        let text = serde_json::to_string(&x).unwrap();
        assert_eq!(serde_json::from_str::<T>(&text).unwrap(), x);
    }
}

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    round_trip::<Commitment>(data);
    round_trip::<Opening>(data);
    round_trip::<Vec<Dimensions>>(data);
}
