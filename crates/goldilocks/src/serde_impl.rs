//! serde support: a field element is its canonical `u64`; decoding a value `≥ p` is an error.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::extension::Goldilocks2;
use crate::field::Goldilocks;

impl Serialize for Goldilocks {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.as_canonical_u64())
    }
}

impl<'de> Deserialize<'de> for Goldilocks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = u64::deserialize(deserializer)?;
        Goldilocks::from_canonical(value).map_err(D::Error::custom)
    }
}

impl Serialize for Goldilocks2 {
    /// The coefficient pair `[c0, c1]`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.coeffs.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Goldilocks2 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [c0, c1] = <[Goldilocks; 2]>::deserialize(deserializer)?;
        Ok(Goldilocks2::new(c0, c1))
    }
}
