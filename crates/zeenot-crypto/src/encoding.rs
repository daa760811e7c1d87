//! Encodings below the point type: canonical little-endian bytes of field elements, and
//! circomlib's packed encoding (`babyJub.packPoint`) of arkworks' affine curve points, decoded
//! with checks of canonical form and of the curve equation but *not* of the subgroup (which
//! [`crate::curve::Point::decode`] adds). [`crate::curve`] re-exports the public functions and
//! describes the format.

use ark_ec::twisted_edwards::TECurveConfig;
use ark_ff::{BigInteger, Field, PrimeField, Zero};

use crate::error::{Error, Result};
use crate::params::{BabyJubjubAffine, BabyJubjubConfig, Base, Scalar};
use crate::sqrt::sqrt;

/// Whether `x > (p-1)/2`: circomlib's "negative" x, the sign bit of the encoding.
pub(crate) fn is_negative(x: &Base) -> bool {
    x.into_bigint() > Base::MODULUS_MINUS_ONE_DIV_TWO
}

/// Little-endian canonical bytes of a base-field element.
pub fn encode_base(x: &Base) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(&x.into_bigint().to_bytes_le());
    out
}

/// Decodes a canonical little-endian base-field element; rejects values `≥ p`.
pub fn decode_base(bytes: &[u8; 32]) -> Result<Base> {
    Base::from_bigint(bigint_from_le(bytes)).ok_or(Error::NonCanonical)
}

/// Little-endian canonical bytes of a scalar (circomlibjs writes `S` of a signature this way).
pub fn encode_scalar(s: &Scalar) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(&s.into_bigint().to_bytes_le());
    out
}

/// Decodes a canonical little-endian scalar; rejects values `≥ l`.
pub fn decode_scalar(bytes: &[u8; 32]) -> Result<Scalar> {
    Scalar::from_bigint(bigint_from_le(bytes)).ok_or(Error::NonCanonical)
}

pub(crate) fn bigint_from_le(bytes: &[u8; 32]) -> ark_ff::BigInt<4> {
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        *limb = u64::from_le_bytes(w);
    }
    ark_ff::BigInt::new(limbs)
}

/// Copies a slice into a fixed array, reporting a length error.
pub(crate) fn fixed<const N: usize>(bytes: &[u8]) -> Result<[u8; N]> {
    bytes.try_into().map_err(|_| Error::Length { expected: N, actual: bytes.len() })
}

/// Recovers the curve point with this y and sign without any subgroup check.
fn decompress(y: Base, sign: bool) -> Result<BabyJubjubAffine> {
    let a = <BabyJubjubConfig as TECurveConfig>::COEFF_A;
    let d = <BabyJubjubConfig as TECurveConfig>::COEFF_D;
    let y2 = y.square();
    // a·x² + y² = 1 + d·x²·y²  ⇒  x² = (1 − y²) / (a − d·y²). a/d is a non-square, so the
    // denominator never vanishes; handle it anyway.
    let den = (a - d * y2).inverse().ok_or(Error::NotOnCurve)?;
    let x2 = (Base::ONE - y2) * den;
    let mut x = sqrt(&x2).ok_or(Error::NotOnCurve)?;
    if x.is_zero() && sign {
        return Err(Error::NonCanonicalSign);
    }
    if is_negative(&x) != sign {
        x = -x;
    }
    let p = BabyJubjubAffine::new_unchecked(x, y);
    debug_assert!(p.is_on_curve());
    Ok(p)
}

/// Decodes circomlib's packed encoding to a curve point, checking canonicity and the curve
/// equation but *not* subgroup membership.
pub(crate) fn decode_curve_point(bytes: &[u8; 32]) -> Result<BabyJubjubAffine> {
    let sign = bytes[31] & 0x80 != 0;
    let mut yb = *bytes;
    yb[31] &= 0x7f;
    let y = decode_base(&yb)?;
    decompress(y, sign)
}

pub(crate) fn encode_affine(p: &BabyJubjubAffine) -> [u8; 32] {
    let mut out = encode_base(&p.y);
    if is_negative(&p.x) {
        out[31] |= 0x80;
    }
    out
}
