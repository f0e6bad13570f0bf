//! The compact binary form of a [`FriProof`]: a 5-byte header (`aFRI` and a version byte),
//! then the fields in declaration order; every length as an unsigned LEB128 varint, every
//! field element as its canonical value in 8 little-endian bytes, digests as 4 elements.
//!
//! Decoding never trusts a length: a count is checked against the bytes left (every element
//! takes at least one byte) before anything is allocated, values `≥ p` are rejected, and so
//! are bytes after the proof. Each list is allocated once, at its exact length, so a decoded
//! proof holds at most [`MAX_HEAP_PER_BYTE`] bytes of heap per encoded byte (the `fri_codec`
//! fuzz target checks it).

use aurum_goldilocks::{Goldilocks, Goldilocks2};
use aurum_merkle::{Commitment, Digest, MultiOpening};

use crate::proof::{CommitPhaseOpening, FriProof};

pub use crate::error::DecodeError;

/// The header: `aFRI`, then the format version.
const MAGIC: [u8; 5] = *b"aFRI\x01";

/// The most heap a decoded proof holds per encoded byte: a count costs at least one byte
/// per item, and the largest item one byte can describe is an empty list (a 24-byte `Vec`).
pub const MAX_HEAP_PER_BYTE: usize = 24;

struct Writer(Vec<u8>);

impl Writer {
    fn len(&mut self, n: usize) {
        let mut n = n as u64;
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }

    fn base(&mut self, x: Goldilocks) {
        self.0
            .extend_from_slice(&x.as_canonical_u64().to_le_bytes());
    }

    fn ext(&mut self, x: Goldilocks2) {
        self.base(x.coeffs[0]);
        self.base(x.coeffs[1]);
    }

    fn digests(&mut self, digests: &[Digest]) {
        self.len(digests.len());
        for d in digests {
            for &x in d {
                self.base(x);
            }
        }
    }

    fn seq<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        self.len(items.len());
        for item in items {
            each(self, item);
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.offset;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let &byte = self
                .bytes
                .get(self.offset)
                .ok_or(DecodeError::Truncated { offset: start })?;
            self.offset += 1;
            let bits = u64::from(byte & 0x7f);
            // Bits past 64, or a zero final byte (a longer encoding of a shorter value):
            // one value, one encoding.
            if (shift == 63 && bits > 1) || (shift > 0 && byte == 0) {
                return Err(DecodeError::BadVarint { offset: start });
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError::BadVarint { offset: start })
    }

    /// A count of items that take at least `min_bytes` each.
    fn len(&mut self, min_bytes: usize) -> Result<usize, DecodeError> {
        let offset = self.offset;
        let len = self.varint()?;
        let left = (self.bytes.len() - self.offset) / min_bytes.max(1);
        if len > left as u64 {
            return Err(DecodeError::LengthTooLarge { offset, len });
        }
        Ok(len as usize)
    }

    fn base(&mut self) -> Result<Goldilocks, DecodeError> {
        let offset = self.offset;
        let bytes = self
            .bytes
            .get(offset..offset + 8)
            .ok_or(DecodeError::Truncated { offset })?;
        self.offset += 8;
        let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        Goldilocks::from_canonical(word).map_err(|_| DecodeError::NonCanonical { offset })
    }

    fn ext(&mut self) -> Result<Goldilocks2, DecodeError> {
        Ok(Goldilocks2::new(self.base()?, self.base()?))
    }

    fn digests(&mut self) -> Result<Vec<Digest>, DecodeError> {
        self.seq(32, |r| Ok([r.base()?, r.base()?, r.base()?, r.base()?]))
    }

    /// A list of items that take at least `min_bytes` each, allocated at its exact length
    /// (which the bytes left can fill: `len` checked it). Collecting the items instead would
    /// grow the list by doubling, from four items: 70 bytes once decoded into 1824 bytes of
    /// heap.
    fn seq<T>(
        &mut self,
        min_bytes: usize,
        mut each: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let n = self.len(min_bytes)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(each(self)?);
        }
        Ok(items)
    }
}

/// Encodes `proof`.
#[must_use]
pub fn encode(proof: &FriProof) -> Vec<u8> {
    let mut w = Writer(MAGIC.to_vec());
    w.base(proof.batch_pow_witness);
    w.seq(&proof.commit_phase_commits, |w, c| w.digests(&c.cap));
    w.seq(&proof.commit_pow_witnesses, |w, &x| w.base(x));
    w.seq(&proof.input_openings, |w, opening| {
        w.seq(&opening.rows, |w, query| {
            w.seq(query, |w, row| w.seq(row, |w, &x| w.base(x)));
        });
        w.digests(&opening.siblings);
    });
    w.seq(&proof.commit_phase_openings, |w, round| {
        w.seq(&round.sibling_values, |w, values| {
            w.seq(values, |w, &x| w.ext(x))
        });
        w.digests(&round.siblings);
    });
    w.seq(&proof.final_poly, |w, &x| w.ext(x));
    w.base(proof.query_pow_witness);
    w.0
}

/// Decodes a proof encoded by [`encode`].
pub fn decode(bytes: &[u8]) -> Result<FriProof, DecodeError> {
    if !bytes.starts_with(&MAGIC) {
        return Err(DecodeError::BadHeader);
    }
    let mut r = Reader {
        bytes,
        offset: MAGIC.len(),
    };
    let batch_pow_witness = r.base()?;
    let commit_phase_commits = r.seq(1, |r| Ok(Commitment { cap: r.digests()? }))?;
    let commit_pow_witnesses = r.seq(8, Reader::base)?;
    let input_openings = r.seq(2, |r| {
        let rows = r.seq(1, |r| r.seq(1, |r| r.seq(8, Reader::base)))?;
        Ok(MultiOpening {
            rows,
            siblings: r.digests()?,
        })
    })?;
    let commit_phase_openings = r.seq(2, |r| {
        let sibling_values = r.seq(1, |r| r.seq(16, Reader::ext))?;
        Ok(CommitPhaseOpening {
            sibling_values,
            siblings: r.digests()?,
        })
    })?;
    let final_poly = r.seq(16, Reader::ext)?;
    let query_pow_witness = r.base()?;
    let count = bytes.len() - r.offset;
    if count != 0 {
        return Err(DecodeError::TrailingBytes { count });
    }
    Ok(FriProof {
        batch_pow_witness,
        commit_phase_commits,
        commit_pow_witnesses,
        input_openings,
        commit_phase_openings,
        final_poly,
        query_pow_witness,
    })
}

impl FriProof {
    /// Bytes of the compact binary encoding (the [module docs](crate::codec)).
    #[must_use]
    pub fn encoded_len(&self) -> usize {
        encode(self).len()
    }
}
