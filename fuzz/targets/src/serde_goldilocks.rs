//! `Goldilocks` from JSON: accepted exactly for canonical integers, and round-trips.

use aurum_goldilocks::{Goldilocks, P};

/// One input of the target: returns if it is fine, panics if it finds a bug.
pub fn run(data: &[u8]) {
    let parsed = serde_json::from_slice::<Goldilocks>(data);
    let as_u64 = serde_json::from_slice::<u64>(data);
    match (&parsed, &as_u64) {
        (Ok(x), Ok(v)) => assert_eq!(x.as_canonical_u64(), *v),
        (Err(_), Ok(v)) => assert!(*v >= P, "{v} refused"),
        (Ok(x), Err(_)) => panic!("accepted {x} where a u64 is not"),
        (Err(_), Err(_)) => {}
    }
    if let Ok(x) = parsed {
        assert!(x.as_canonical_u64() < P);
        let text = serde_json::to_string(&x).unwrap();
        assert_eq!(serde_json::from_str::<Goldilocks>(&text).unwrap(), x);
    }
}
