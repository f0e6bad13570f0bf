//! `Goldilocks2` from JSON: no panic; what is accepted has canonical coefficients and
//! round-trips.

use aurum_goldilocks::Goldilocks2;

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    if let Ok(x) = serde_json::from_slice::<Goldilocks2>(data) {
        let text = serde_json::to_string(&x).unwrap();
        assert_eq!(serde_json::from_str::<Goldilocks2>(&text).unwrap(), x);
    }
}
