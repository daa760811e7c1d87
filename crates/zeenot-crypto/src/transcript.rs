//! Fiat–Shamir transcripts with versioned domain separators.
//!
//! One trait, [`Transcript`], so that every protocol absorbs its statement the same way and
//! the hash can be swapped (a Poseidon transcript for proofs checked inside a circuit). The
//! implementation here is [`Sha256Transcript`].
//!
//! Encoding: the transcript starts with `"zeenot/transcript/sha256/v1"` and the protocol's
//! domain separator; each appended item is `len(label) ‖ label ‖ len(data) ‖ data` with 8-byte
//! little-endian lengths, so no two different sequences of items hash alike. A challenge
//! scalar is `SHA-256(state ‖ "challenge" ‖ label ‖ i)` for `i = 0, 1`, the 64 bytes reduced
//! modulo `l` (bias below 2^-250), and the challenge is then absorbed into the state.

use ark_ff::PrimeField;
use sha2::{Digest, Sha256};

use crate::curve::{encode_scalar, Point, Scalar};

/// A Fiat–Shamir transcript.
pub trait Transcript {
    /// Absorbs labelled bytes.
    fn append_message(&mut self, label: &'static [u8], data: &[u8]);

    /// Absorbs a point in its canonical encoding.
    fn append_point(&mut self, label: &'static [u8], p: &Point) {
        self.append_message(label, &p.encode());
    }

    /// Absorbs a scalar in its canonical encoding.
    fn append_scalar(&mut self, label: &'static [u8], s: &Scalar) {
        self.append_message(label, &encode_scalar(s));
    }

    /// Squeezes a challenge scalar, uniformly distributed modulo `l` (up to 2^-250).
    fn challenge_scalar(&mut self, label: &'static [u8]) -> Scalar;
}

/// A [`Transcript`] over SHA-256.
#[derive(Clone)]
pub struct Sha256Transcript {
    state: Sha256,
}

impl core::fmt::Debug for Sha256Transcript {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Sha256Transcript")
    }
}

impl Sha256Transcript {
    /// Starts a transcript for the protocol named by `domain` (e.g. `b"zeenot/dleq/v1"`).
    pub fn new(domain: &'static [u8]) -> Self {
        let mut t = Sha256Transcript { state: Sha256::new() };
        t.append_message(b"transcript", b"zeenot/transcript/sha256/v1");
        t.append_message(b"domain", domain);
        t
    }
}

impl Transcript for Sha256Transcript {
    fn append_message(&mut self, label: &'static [u8], data: &[u8]) {
        self.state.update((label.len() as u64).to_le_bytes());
        self.state.update(label);
        self.state.update((data.len() as u64).to_le_bytes());
        self.state.update(data);
    }

    fn challenge_scalar(&mut self, label: &'static [u8]) -> Scalar {
        let mut wide = [0u8; 64];
        for (i, chunk) in wide.chunks_exact_mut(32).enumerate() {
            let mut h = self.state.clone();
            h.update(b"challenge");
            h.update((label.len() as u64).to_le_bytes());
            h.update(label);
            h.update([i as u8]);
            chunk.copy_from_slice(&h.finalize());
        }
        let c = Scalar::from_le_bytes_mod_order(&wide);
        self.append_scalar(b"challenge", &c);
        c
    }
}
