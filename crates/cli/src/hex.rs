//! Hex text: digests as `0x…,0x…,0x…,0x…` (the form `aurum commit` prints and `--root` reads),
//! caps as four words per digest, and bytes (a FRI proof's compact encoding).

use aurum_goldilocks::Goldilocks;
use aurum_merkle::Digest;

use crate::error::Error;

/// One canonical word as `0x` and 16 hex digits.
#[must_use]
pub fn hex_word(x: Goldilocks) -> String {
    format!("0x{:016x}", x.as_canonical_u64())
}

/// A digest's words, each as [`hex_word`].
#[must_use]
pub fn hex_words(d: &Digest) -> Vec<String> {
    d.iter().map(|&x| hex_word(x)).collect()
}

/// `0x…,0x…,0x…,0x…`: a digest's canonical words in hex.
#[must_use]
pub fn hex_digest(d: &Digest) -> String {
    hex_words(d).join(",")
}

/// Parses one hex word (`0x` optional); it must be a canonical field element.
pub fn parse_word(text: &str) -> Result<Goldilocks, Error> {
    let text = text.trim();
    let digits = text.strip_prefix("0x").unwrap_or(text);
    let value = u64::from_str_radix(digits, 16)
        .map_err(|e| Error::Input(format!("{text:?} is not a 64-bit hex word: {e}")))?;
    Goldilocks::from_canonical(value).map_err(|e| Error::Input(e.to_string()))
}

/// Parses four hex words, as [`parse_word`].
pub fn parse_words<S: AsRef<str>>(words: &[S]) -> Result<Digest, Error> {
    if words.len() != 4 {
        return Err(Error::Input(format!(
            "a digest has 4 hex words, got {}",
            words.len()
        )));
    }
    let mut digest = [Goldilocks::ZERO; 4];
    for (d, w) in digest.iter_mut().zip(words) {
        *d = parse_word(w.as_ref())?;
    }
    Ok(digest)
}

/// Parses `0x…,0x…,0x…,0x…` (or the same without `0x`).
pub fn parse_digest(text: &str) -> Result<Digest, Error> {
    let words: Vec<&str> = text.split(',').collect();
    parse_words(&words).map_err(|e| e.map_message(|m| format!("{m}: {text:?}")))
}

/// Parses a cap written as four hex words per digest (as [`hex_words`] writes them); an error
/// names the digest.
pub fn parse_cap(cap: &[Vec<String>]) -> Result<Vec<Digest>, Error> {
    cap.iter()
        .enumerate()
        .map(|(i, words)| parse_words(words).map_err(|e| e.context(format_args!("cap[{i}]"))))
        .collect()
}

/// Bytes as hex, two lowercase digits each.
#[must_use]
pub fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses hex digits, two per byte (as [`hex_bytes`] writes them).
pub fn parse_bytes(text: &str) -> Result<Vec<u8>, Error> {
    if !text.len().is_multiple_of(2) {
        return Err(Error::Input("odd number of hex digits".to_string()));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| Error::Input(format!("not hex at position {i}")))
        })
        .collect()
}
