//! EdDSA over Baby Jubjub with Poseidon, compatible with circomlibjs `eddsa.signPoseidon`,
//! `eddsa.verifyPoseidon`, `eddsa.prv2pub` and circomlib's `EdDSAPoseidonVerifier`.
//!
//! * Key derivation: `h = BLAKE-512(prv)` (BLAKE, the SHA-3 finalist, not BLAKE2); prune
//!   `h[0..32]` (`h[0] &= 0xF8`, `h[31] &= 0x7F`, `h[31] |= 0x40`) to `s` (little-endian);
//!   `A = (s >> 3)·Base8`.
//! * Sign a field element `msg`: `r = BLAKE-512(h[32..64] ‖ msg as 32 bytes LE) mod l`,
//!   `R8 = r·Base8`, `hm = Poseidon(R8.x, R8.y, A.x, A.y, msg)`, `S = r + hm·s mod l`.
//! * Verify: `R8` and `A` in the prime-order subgroup (stricter than circomlibjs, which checks
//!   only the curve equation), `S < l`, and `S·Base8 = R8 + (8·hm)·A`.
//! * Signature encoding (circomlibjs `packSignature`): packed `R8` ‖ `S` little-endian.

use ark_ff::PrimeField;
use blake_hash::digest::Digest as _;
use blake_hash::Blake512;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::curve::{decode_scalar, encode_base, encode_scalar, Base, Point, Scalar};
use crate::encoding::fixed;
use crate::error::{Error, Result};
use crate::poseidon::poseidon;

/// Length of an encoded signature.
pub const SIGNATURE_LEN: usize = 64;

/// An EdDSA private key: 32 bytes of seed, as circomlibjs takes them. Wiped on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SigningKey {
    seed: [u8; 32],
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

/// The expanded key: the pruned scalar bytes and the nonce prefix.
struct Expanded {
    h: [u8; 64],
}

impl Drop for Expanded {
    fn drop(&mut self) {
        self.h.zeroize();
    }
}

impl Expanded {
    fn new(seed: &[u8]) -> Self {
        let digest = Blake512::digest(seed);
        let mut h = [0u8; 64];
        h.copy_from_slice(&digest);
        h[0] &= 0xF8;
        h[31] &= 0x7F;
        h[31] |= 0x40;
        Expanded { h }
    }

    /// `s mod l` (the full pruned scalar).
    fn s(&self) -> Scalar {
        Scalar::from_le_bytes_mod_order(&self.h[..32])
    }

    /// `(s >> 3) mod l`.
    fn s_shr3(&self) -> Scalar {
        let mut b = [0u8; 32];
        for (i, out) in b.iter_mut().enumerate() {
            let hi = if i + 1 < 32 { self.h[i + 1] } else { 0 };
            *out = (self.h[i] >> 3) | (hi << 5);
        }
        let s = Scalar::from_le_bytes_mod_order(&b);
        b.zeroize();
        s
    }
}

impl SigningKey {
    /// A key from its 32-byte seed.
    pub fn from_bytes(seed: [u8; 32]) -> Self {
        SigningKey { seed }
    }

    /// A fresh key.
    pub fn random<R: rand::RngCore + rand::CryptoRng>(rng: &mut R) -> Self {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        SigningKey { seed }
    }

    /// The seed.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.seed
    }

    /// `A = (s >> 3)·Base8` (circomlibjs `prv2pub`).
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(Point::mul_base(&Expanded::new(&self.seed).s_shr3()))
    }

    /// circomlibjs `signPoseidon(prv, msg)`.
    pub fn sign(&self, msg: &Base) -> Signature {
        let e = Expanded::new(&self.seed);
        let a = Point::mul_base(&e.s_shr3());
        let mut hasher = Blake512::new();
        hasher.update(&e.h[32..]);
        hasher.update(encode_base(msg));
        let digest = hasher.finalize();
        let mut rb = [0u8; 64];
        rb.copy_from_slice(&digest);
        let mut r = Scalar::from_le_bytes_mod_order(&rb);
        rb.zeroize();
        let r8 = Point::mul_base(&r);
        let hm = challenge(&r8, &a, msg);
        let mut s = e.s();
        let sig = Signature { r8, s: r + hm * s };
        r.zeroize();
        s.zeroize();
        sig
    }
}

/// `Poseidon(R8.x, R8.y, A.x, A.y, msg)` reduced modulo `l`.
fn challenge(r8: &Point, a: &Point, msg: &Base) -> Scalar {
    let (rx, ry) = r8.xy();
    let (ax, ay) = a.xy();
    // Five inputs are always within Poseidon's arity.
    let hm = poseidon(&[rx, ry, ax, ay, *msg]).unwrap_or_default();
    Scalar::from_le_bytes_mod_order(&encode_base(&hm))
}

/// An EdDSA public key `A`: a subgroup point other than the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VerifyingKey(Point);

impl VerifyingKey {
    /// A key from a point; rejects the identity.
    pub fn from_point(p: Point) -> Result<Self> {
        if p.is_identity() {
            return Err(Error::Identity);
        }
        Ok(VerifyingKey(p))
    }

    /// The point `A`.
    pub fn point(&self) -> &Point {
        &self.0
    }

    /// The packed point encoding (circomlibjs `packPoint(A)`).
    pub fn encode(&self) -> [u8; 32] {
        self.0.encode()
    }

    /// Decodes with all of [`Point::decode`]'s checks, rejecting the identity.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        Self::from_point(Point::decode_slice(bytes)?)
    }

    /// circomlibjs `verifyPoseidon(msg, sig, A)`: `S·Base8 = R8 + (8·hm)·A`.
    pub fn verify(&self, msg: &Base, sig: &Signature) -> Result<()> {
        let hm = challenge(&sig.r8, &self.0, msg);
        // S is public; the fixed-base table is simply the fastest way to multiply Base8.
        let lhs = Point::mul_base(&sig.s);
        let rhs = sig.r8 + self.0.mul_vartime(&(hm * Scalar::from(8u64)));
        if lhs == rhs {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}

/// An EdDSA-Poseidon signature `(R8, S)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `R8 = r·Base8`.
    pub r8: Point,
    /// `S = r + hm·s mod l`.
    pub s: Scalar,
}

impl Signature {
    /// circomlibjs `packSignature`: packed `R8` ‖ `S` (32 bytes little-endian).
    pub fn encode(&self) -> [u8; SIGNATURE_LEN] {
        let mut out = [0u8; SIGNATURE_LEN];
        out[..32].copy_from_slice(&self.r8.encode());
        out[32..].copy_from_slice(&encode_scalar(&self.s));
        out
    }

    /// Decodes, checking `R8` (curve, subgroup, canonical) and `S < l`.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let b: [u8; SIGNATURE_LEN] = fixed(bytes)?;
        Ok(Signature { r8: Point::decode(&fixed(&b[..32])?)?, s: decode_scalar(&fixed(&b[32..])?)? })
    }
}
