//! Exponential ElGamal over Baby Jubjub's prime-order subgroup.
//!
//! Keys: `sk ∈ [1, l)`, `pk = sk·B` with `B = Base8`. A plaintext `m` is encrypted as
//! `(c1, c2) = (r·B, m·B + r·pk)` with fresh `r`; decryption computes `c2 − sk·c1 = m·B` and
//! recovers `m` from a [`DlogTable`], so only small plaintexts (`m < 2^bits`) decrypt.
//!
//! Homomorphisms: `Enc(m1) + Enc(m2) = Enc(m1 + m2)` (component-wise), `k·Enc(m) = Enc(k·m)`,
//! re-randomisation adds `(r'·B, r'·pk)`. Key switching from `sk` to `pk2` (UnLynx-style)
//! outputs `(r'·B, c2 − sk·c1 + r'·pk2)`: the plaintext point is never formed on its own
//! (nothing is decrypted and re-encrypted; the new ciphertext's randomness is fresh).
//! Collective keys are sums of public keys; holders of `sk_i` publish decryption shares
//! `D_i = sk_i·c1` with a Chaum–Pedersen proof that `log_B pk_i = log_{c1} D_i`, and anyone
//! combines `c2 − Σ D_i = m·B`.
//!
//! Secret-scalar multiplications (`r`, `m`, `sk`) use the constant-time paths of
//! [`crate::ct`]; verifiers use variable-time ones on public data.

use core::ops::{Add, AddAssign, Sub, SubAssign};

use ark_ff::Zero;
use rand::{CryptoRng, RngCore};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::ct::FixedBaseTable;
use crate::curve::{decode_scalar, encode_scalar, Point, Scalar};
use crate::dleq::{DleqProof, DLEQ_PROOF_LEN};
use crate::dlog::DlogTable;
use crate::encoding::fixed;
use crate::error::{Error, Result};
pub use crate::generators::random_nonzero_scalar;

/// Length of an encoded [`Ciphertext`].
pub const CIPHERTEXT_LEN: usize = 64;

/// Length of an encoded [`DecryptionShare`].
pub const DECRYPTION_SHARE_LEN: usize = 32 + DLEQ_PROOF_LEN;

/// An ElGamal secret key `sk ∈ [1, l)`, wiped from memory on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SecretKey(Scalar);

impl core::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SecretKey(<redacted>)")
    }
}

impl PartialEq for SecretKey {
    fn eq(&self, other: &Self) -> bool {
        encode_scalar(&self.0).ct_eq(&encode_scalar(&other.0)).into()
    }
}
impl Eq for SecretKey {}

impl SecretKey {
    /// A fresh key from a cryptographic RNG.
    pub fn random<R: RngCore + CryptoRng>(rng: &mut R) -> Self {
        SecretKey(random_nonzero_scalar(rng))
    }

    /// A key from a scalar; rejects zero.
    pub fn from_scalar(s: Scalar) -> Result<Self> {
        if s.is_zero() {
            return Err(Error::ZeroScalar);
        }
        Ok(SecretKey(s))
    }

    /// The secret scalar.
    pub fn scalar(&self) -> &Scalar {
        &self.0
    }

    /// 32-byte canonical little-endian encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        encode_scalar(&self.0)
    }

    /// Decodes a key: rejects the wrong length, scalars `≥ l`, and zero.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut b: [u8; 32] = fixed(bytes)?;
        let s = decode_scalar(&b);
        b.zeroize();
        Self::from_scalar(s?)
    }

    /// `pk = sk·Base8`.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(Point::mul_base(&self.0))
    }

    /// The plaintext point `c2 − sk·c1 = m·Base8`.
    pub fn decrypt_point(&self, ct: &Ciphertext) -> Point {
        ct.c2 - ct.c1.mul_ct(&self.0)
    }

    /// Decrypts a small plaintext with a baby-step giant-step table.
    pub fn decrypt(&self, ct: &Ciphertext, table: &DlogTable) -> Result<u64> {
        table.lookup(&self.decrypt_point(ct))
    }

    /// Switches `ct` from this key to `to` with fresh randomness: `(r'·B, c2 − sk·c1 + r'·to)`.
    pub fn key_switch<R: RngCore + CryptoRng>(
        &self,
        ct: &Ciphertext,
        to: &PublicKey,
        rng: &mut R,
    ) -> Ciphertext {
        let r = random_nonzero_scalar(rng);
        self.key_switch_with(ct, to, &r)
    }

    /// [`SecretKey::key_switch`] with caller-chosen randomness `r'`.
    pub fn key_switch_with(&self, ct: &Ciphertext, to: &PublicKey, r: &Scalar) -> Ciphertext {
        Ciphertext { c1: Point::mul_base(r), c2: ct.c2 - ct.c1.mul_ct(&self.0) + to.0.mul_ct(r) }
    }

    /// This key holder's share `D = sk·c1` of a decryption under a collective key, with a DLEQ
    /// proof bound to the whole ciphertext.
    pub fn partial_decrypt<R: RngCore + CryptoRng>(
        &self,
        ct: &Ciphertext,
        rng: &mut R,
    ) -> Result<DecryptionShare> {
        if ct.c1.is_identity() {
            return Err(Error::Identity);
        }
        let (_, d, proof) = DleqProof::prove(&share_context(ct), &Point::generator(), &ct.c1, &self.0, rng)?;
        Ok(DecryptionShare { d, proof })
    }
}

fn share_context(ct: &Ciphertext) -> Vec<u8> {
    let mut v = b"zeenot/elgamal/decryption-share/v1".to_vec();
    v.extend_from_slice(&ct.encode());
    v
}

/// An ElGamal public key: a non-identity point of the prime-order subgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicKey(Point);

impl PublicKey {
    /// A public key from a point; rejects the identity.
    pub fn from_point(p: Point) -> Result<Self> {
        if p.is_identity() {
            return Err(Error::Identity);
        }
        Ok(PublicKey(p))
    }

    /// The point `sk·Base8`.
    pub fn point(&self) -> &Point {
        &self.0
    }

    /// The packed point encoding.
    pub fn encode(&self) -> [u8; 32] {
        self.0.encode()
    }

    /// Decodes a key: all of [`Point::decode`]'s checks, and not the identity.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        Self::from_point(Point::decode_slice(bytes)?)
    }

    /// The collective key `Σ pk_i`; rejects an empty list and an identity sum.
    pub fn aggregate(keys: &[PublicKey]) -> Result<Self> {
        if keys.is_empty() {
            return Err(Error::NoShares);
        }
        Self::from_point(keys.iter().map(|k| k.0).sum())
    }

    /// Encrypts `m` with fresh randomness.
    pub fn encrypt<R: RngCore + CryptoRng>(&self, m: u64, rng: &mut R) -> Ciphertext {
        let r = random_nonzero_scalar(rng);
        self.encrypt_with(m, &r)
    }

    /// Encrypts `m` with the caller's randomness `r`: `(r·B, m·B + r·pk)`.
    pub fn encrypt_with(&self, m: u64, r: &Scalar) -> Ciphertext {
        self.encrypt_scalar_with(&Scalar::from(m), r)
    }

    /// Encrypts a plaintext scalar (decryptable only if it is small).
    pub fn encrypt_scalar_with(&self, m: &Scalar, r: &Scalar) -> Ciphertext {
        Ciphertext { c1: Point::mul_base(r), c2: Point::mul_base(m) + self.0.mul_ct(r) }
    }

    /// Re-randomises `ct` under this key: `(c1 + r'·B, c2 + r'·pk)` with fresh `r'`.
    pub fn rerandomize<R: RngCore + CryptoRng>(&self, ct: &Ciphertext, rng: &mut R) -> Ciphertext {
        let r = random_nonzero_scalar(rng);
        self.rerandomize_with(ct, &r)
    }

    /// [`PublicKey::rerandomize`] with caller-chosen `r'`.
    pub fn rerandomize_with(&self, ct: &Ciphertext, r: &Scalar) -> Ciphertext {
        Ciphertext { c1: ct.c1 + Point::mul_base(r), c2: ct.c2 + self.0.mul_ct(r) }
    }
}

/// A public key with a fixed-base table for `pk` (64 KiB, built in about a millisecond): each
/// encryption then costs three table multiplications instead of two and a variable-base
/// ladder (about half the time). Worth it from a few dozen encryptions to one key on.
#[derive(Clone, Debug)]
pub struct PreparedPublicKey {
    pk: PublicKey,
    table: FixedBaseTable,
}

impl PreparedPublicKey {
    /// Precomputes the table for `pk`.
    pub fn new(pk: &PublicKey) -> Self {
        PreparedPublicKey { pk: *pk, table: FixedBaseTable::new(&pk.0) }
    }

    /// The key.
    pub fn public_key(&self) -> &PublicKey {
        &self.pk
    }

    /// As [`PublicKey::encrypt`].
    pub fn encrypt<R: RngCore + CryptoRng>(&self, m: u64, rng: &mut R) -> Ciphertext {
        let r = random_nonzero_scalar(rng);
        self.encrypt_with(m, &r)
    }

    /// As [`PublicKey::encrypt_with`].
    pub fn encrypt_with(&self, m: u64, r: &Scalar) -> Ciphertext {
        Ciphertext { c1: Point::mul_base(r), c2: Point::mul_base(&Scalar::from(m)) + self.table.mul(r) }
    }

    /// As [`PublicKey::rerandomize`].
    pub fn rerandomize<R: RngCore + CryptoRng>(&self, ct: &Ciphertext, rng: &mut R) -> Ciphertext {
        let r = random_nonzero_scalar(rng);
        Ciphertext { c1: ct.c1 + Point::mul_base(&r), c2: ct.c2 + self.table.mul(&r) }
    }
}

/// An exponential-ElGamal ciphertext `(c1, c2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ciphertext {
    /// `r·Base8`.
    pub c1: Point,
    /// `m·Base8 + r·pk`.
    pub c2: Point,
}

impl Ciphertext {
    /// The trivial encryption of `0` with `r = 0`: `(0, 0)`.
    pub fn zero() -> Self {
        Ciphertext { c1: Point::identity(), c2: Point::identity() }
    }

    /// `c1 ‖ c2`, each a packed point (64 bytes).
    pub fn encode(&self) -> [u8; CIPHERTEXT_LEN] {
        let mut out = [0u8; CIPHERTEXT_LEN];
        out[..32].copy_from_slice(&self.c1.encode());
        out[32..].copy_from_slice(&self.c2.encode());
        out
    }

    /// Decodes `c1 ‖ c2` with every check of [`Point::decode`] on both halves. The identity
    /// is allowed in either half (homomorphic results can contain it).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let b: [u8; CIPHERTEXT_LEN] = fixed(bytes)?;
        Ok(Ciphertext { c1: Point::decode(&fixed(&b[..32])?)?, c2: Point::decode(&fixed(&b[32..])?)? })
    }

    /// `k·Enc(m) = Enc(k·m)`. The scalar is treated as secret (constant time).
    pub fn scalar_mul(&self, k: &Scalar) -> Self {
        Ciphertext { c1: self.c1.mul_ct(k), c2: self.c2.mul_ct(k) }
    }

    /// `Enc(m) ↦ Enc(m + k)` without randomness (public constant `k`).
    pub fn add_plaintext(&self, k: u64) -> Self {
        Ciphertext { c1: self.c1, c2: self.c2 + Point::mul_base(&Scalar::from(k)) }
    }
}

impl Add for Ciphertext {
    type Output = Ciphertext;
    fn add(self, rhs: Ciphertext) -> Ciphertext {
        Ciphertext { c1: self.c1 + rhs.c1, c2: self.c2 + rhs.c2 }
    }
}

impl AddAssign for Ciphertext {
    fn add_assign(&mut self, rhs: Ciphertext) {
        self.c1 += rhs.c1;
        self.c2 += rhs.c2;
    }
}

impl Sub for Ciphertext {
    type Output = Ciphertext;
    fn sub(self, rhs: Ciphertext) -> Ciphertext {
        Ciphertext { c1: self.c1 - rhs.c1, c2: self.c2 - rhs.c2 }
    }
}

impl SubAssign for Ciphertext {
    fn sub_assign(&mut self, rhs: Ciphertext) {
        self.c1 -= rhs.c1;
        self.c2 -= rhs.c2;
    }
}

impl core::iter::Sum for Ciphertext {
    fn sum<I: Iterator<Item = Ciphertext>>(iter: I) -> Ciphertext {
        iter.fold(Ciphertext::zero(), |a, b| a + b)
    }
}

/// One key holder's decryption share `D = sk_i·c1` with its proof of correctness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecryptionShare {
    /// `sk_i·c1`.
    pub d: Point,
    /// Proof that `log_B pk_i = log_{c1} D`, bound to the ciphertext.
    pub proof: DleqProof,
}

impl DecryptionShare {
    /// Checks the share against the holder's public key and the ciphertext.
    pub fn verify(&self, pk: &PublicKey, ct: &Ciphertext) -> Result<()> {
        if ct.c1.is_identity() {
            return Err(Error::Identity);
        }
        self.proof.verify(&share_context(ct), &Point::generator(), &ct.c1, &pk.0, &self.d)
    }

    /// `D ‖ c ‖ z` (96 bytes).
    pub fn encode(&self) -> [u8; DECRYPTION_SHARE_LEN] {
        let mut out = [0u8; DECRYPTION_SHARE_LEN];
        out[..32].copy_from_slice(&self.d.encode());
        out[32..].copy_from_slice(&self.proof.encode());
        out
    }

    /// Decodes `D ‖ c ‖ z` with the point and scalar checks.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let b: [u8; DECRYPTION_SHARE_LEN] = fixed(bytes)?;
        Ok(DecryptionShare { d: Point::decode(&fixed(&b[..32])?)?, proof: DleqProof::decode(&b[32..])? })
    }
}

/// Verifies every share against its holder's key and returns the plaintext point
/// `c2 − Σ D_i`. The shares must come from all holders of the collective key.
pub fn combine_shares_point(ct: &Ciphertext, shares: &[(PublicKey, DecryptionShare)]) -> Result<Point> {
    if shares.is_empty() {
        return Err(Error::NoShares);
    }
    let mut sum = Point::identity();
    for (pk, share) in shares {
        share.verify(pk, ct)?;
        sum += share.d;
    }
    Ok(ct.c2 - sum)
}

/// [`combine_shares_point`] followed by a discrete-log lookup.
pub fn combine_shares(
    ct: &Ciphertext,
    shares: &[(PublicKey, DecryptionShare)],
    table: &DlogTable,
) -> Result<u64> {
    table.lookup(&combine_shares_point(ct, shares)?)
}
