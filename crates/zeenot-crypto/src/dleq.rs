//! Chaum–Pedersen proofs of discrete-log equality (DLEQ).
//!
//! Statement: public points `G, H, X, Y` with `X = x·G` and `Y = x·H` for one secret `x`.
//!
//! Prover: nonce `k`; commitments `A = k·G`, `B = k·H`; challenge
//! `c = Transcript("zeenot/dleq/v1"; context, G, H, X, Y, A, B)`; response `z = k + c·x`.
//! The proof is `(c, z)` (64 bytes). Verifier: `A' = z·G − c·X`, `B' = z·H − c·Y`, accept iff
//! the transcript over `(…, A', B')` yields `c` again. Every statement point and the caller's
//! `context` (for example the ciphertext a decryption share belongs to) are hashed, so a
//! proof does not transfer to another statement.
//!
//! The nonce is hedged: `k = SHA-512("zeenot/dleq/v1/nonce" ‖ x ‖ 32 bytes from the RNG ‖
//! statement)` reduced modulo `l`, so a weak RNG alone does not leak `x`.
//!
//! `G` and `H` must not be the identity (a proof for `H = 0` would say nothing).

use ark_ff::PrimeField;
use rand::{CryptoRng, RngCore};
use sha2::{Digest, Sha512};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::curve::{decode_scalar, encode_scalar, Point, Scalar};
use crate::encoding::fixed;
use crate::error::{Error, Result};
use crate::transcript::{Sha256Transcript, Transcript};

/// The domain separator of DLEQ transcripts.
pub const DLEQ_DOMAIN: &[u8] = b"zeenot/dleq/v1";

/// Length of an encoded [`DleqProof`].
pub const DLEQ_PROOF_LEN: usize = 64;

/// A non-interactive Chaum–Pedersen proof that `log_G X = log_H Y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DleqProof {
    /// The Fiat–Shamir challenge.
    pub c: Scalar,
    /// The response `k + c·x`.
    pub z: Scalar,
}

fn statement_transcript(context: &[u8], g: &Point, h: &Point, x: &Point, y: &Point) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(DLEQ_DOMAIN);
    t.append_message(b"context", context);
    t.append_point(b"G", g);
    t.append_point(b"H", h);
    t.append_point(b"X", x);
    t.append_point(b"Y", y);
    t
}

impl DleqProof {
    /// Proves `X = x·G`, `Y = x·H`, returning `(X, Y, proof)`.
    pub fn prove<R: RngCore + CryptoRng>(
        context: &[u8],
        g: &Point,
        h: &Point,
        x: &Scalar,
        rng: &mut R,
    ) -> Result<(Point, Point, DleqProof)> {
        if g.is_identity() || h.is_identity() {
            return Err(Error::Identity);
        }
        let big_x = g.mul_ct(x);
        let big_y = h.mul_ct(x);
        let mut t = statement_transcript(context, g, h, &big_x, &big_y);

        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        let mut hasher = Sha512::new();
        hasher.update(b"zeenot/dleq/v1/nonce");
        let mut xb = encode_scalar(x);
        hasher.update(xb);
        xb.zeroize();
        hasher.update(seed);
        for p in [g, h, &big_x, &big_y] {
            hasher.update(p.encode());
        }
        hasher.update(context);
        let mut wide: [u8; 64] = hasher.finalize().into();
        let mut k = Scalar::from_le_bytes_mod_order(&wide);
        wide.zeroize();
        seed.zeroize();

        let a = g.mul_ct(&k);
        let b = h.mul_ct(&k);
        t.append_point(b"A", &a);
        t.append_point(b"B", &b);
        let c = t.challenge_scalar(b"c");
        let z = k + c * x;
        k.zeroize();
        Ok((big_x, big_y, DleqProof { c, z }))
    }

    /// Verifies the proof for the statement `(context, G, H, X, Y)`.
    pub fn verify(&self, context: &[u8], g: &Point, h: &Point, x: &Point, y: &Point) -> Result<()> {
        if g.is_identity() || h.is_identity() {
            return Err(Error::Identity);
        }
        let a = g.mul_vartime(&self.z) - x.mul_vartime(&self.c);
        let b = h.mul_vartime(&self.z) - y.mul_vartime(&self.c);
        let mut t = statement_transcript(context, g, h, x, y);
        t.append_point(b"A", &a);
        t.append_point(b"B", &b);
        let c = t.challenge_scalar(b"c");
        if bool::from(encode_scalar(&c).ct_eq(&encode_scalar(&self.c))) {
            Ok(())
        } else {
            Err(Error::InvalidProof)
        }
    }

    /// `c ‖ z`, each a canonical little-endian scalar.
    pub fn encode(&self) -> [u8; DLEQ_PROOF_LEN] {
        let mut out = [0u8; DLEQ_PROOF_LEN];
        out[..32].copy_from_slice(&encode_scalar(&self.c));
        out[32..].copy_from_slice(&encode_scalar(&self.z));
        out
    }

    /// Decodes `c ‖ z`, rejecting the wrong length and non-canonical scalars.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let b: [u8; DLEQ_PROOF_LEN] = fixed(bytes)?;
        let c = decode_scalar(&fixed(&b[..32])?)?;
        let z = decode_scalar(&fixed(&b[32..])?)?;
        Ok(DleqProof { c, z })
    }
}
