//! Encodings below the point type: canonical little-endian bytes of field elements, and
//! circomlib's packed encoding (`babyJub.packPoint`) of arkworks' affine curve points, decoded
//! with checks of canonical form and of the curve equation but *not* of the subgroup (which
//! [`crate::curve::Point::decode`] adds). [`crate::curve`] re-exports the public functions and
//! describes the format.

use ark_ec::twisted_edwards::TECurveConfig;
use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField, Zero};

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

/// `(1 − y², a − d·y²)`: a curve point with this `y` has `x² = (1 − y²)/(a − d·y²)`
/// (from `a·x² + y² = 1 + d·x²·y²`). `a/d` is a non-square, so the denominator never vanishes.
fn x_squared_fraction(y: &Base) -> (Base, Base) {
    let a = <BabyJubjubConfig as TECurveConfig>::COEFF_A;
    let d = <BabyJubjubConfig as TECurveConfig>::COEFF_D;
    let y2 = y.square();
    (Base::ONE - y2, a - d * y2)
}

/// The curve point with this `y`, sign and `x² = x2` (a square root, the sign chosen), without
/// any subgroup check.
fn finish(y: Base, sign: bool, x2: &Base) -> Result<BabyJubjubAffine> {
    let mut x = sqrt(x2).ok_or(Error::NotOnCurve)?;
    if x.is_zero() && sign {
        return Err(Error::NonCanonicalSign);
    }
    if is_negative(&x) != sign {
        x = -x;
    }
    let p = BabyJubjubAffine::new_unchecked(x, y);
    // Follows from the square root; checked all the same (0.1 µs of a 15 µs decode), so that no
    // decoder ever rests on the root's or the batched inversion's correctness.
    if !p.is_on_curve() {
        return Err(Error::NotOnCurve);
    }
    Ok(p)
}

/// The sign bit and the canonical `y` of a packed point.
fn split(bytes: &[u8; 32]) -> Result<(Base, bool)> {
    let sign = bytes[31] & 0x80 != 0;
    let mut yb = *bytes;
    yb[31] &= 0x7f;
    Ok((decode_base(&yb)?, sign))
}

/// Decodes circomlib's packed encoding to a curve point, checking canonicity and the curve
/// equation but *not* subgroup membership.
pub(crate) fn decode_curve_point(bytes: &[u8; 32]) -> Result<BabyJubjubAffine> {
    let (y, sign) = split(bytes)?;
    let (num, den) = x_squared_fraction(&y);
    // Handle a vanishing denominator anyway (it cannot happen, see x_squared_fraction).
    let den = den.inverse().ok_or(Error::NotOnCurve)?;
    finish(y, sign, &(num * den))
}

/// [`decode_curve_point`] of each 32 bytes of `bytes` (whose length the caller has checked to
/// be a multiple of 32), with one field inversion for all of them (Montgomery's trick) instead
/// of one each: a result per point, in order.
pub(crate) fn decode_curve_points(bytes: &[u8]) -> Vec<Result<BabyJubjubAffine>> {
    debug_assert!(bytes.len().is_multiple_of(32));
    let parsed: Vec<Result<(Base, bool)>> = bytes.chunks_exact(32).map(|c| split(&fixed::<32>(c)?)).collect();
    let fractions: Vec<(Base, Base)> = parsed
        .iter()
        .map(|p| p.as_ref().map_or((Base::ZERO, Base::ONE), |(y, _)| x_squared_fraction(y)))
        .collect();
    // prefix[i] = den_0 · … · den_{i−1}; every den is non-zero (see x_squared_fraction).
    let mut prefix = Vec::with_capacity(fractions.len());
    let mut acc = Base::ONE;
    for (_, den) in &fractions {
        prefix.push(acc);
        acc *= den;
    }
    let Some(mut inv) = acc.inverse() else {
        // Cannot happen; one at a time, each point gets its own error.
        return bytes.chunks_exact(32).map(|c| decode_curve_point(&fixed::<32>(c)?)).collect();
    };
    let mut x2 = vec![Base::ZERO; fractions.len()];
    for (i, (num, den)) in fractions.iter().enumerate().rev() {
        x2[i] = *num * inv * prefix[i];
        inv *= den;
    }
    parsed
        .into_iter()
        .zip(&x2)
        .map(|(p, x2)| {
            let (y, sign) = p?;
            finish(y, sign, x2)
        })
        .collect()
}

pub(crate) fn encode_affine(p: &BabyJubjubAffine) -> [u8; 32] {
    let mut out = encode_base(&p.y);
    if is_negative(&p.x) {
        out[31] |= 0x80;
    }
    out
}
