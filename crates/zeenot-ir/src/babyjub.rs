//! Baby Jubjub's native affine arithmetic over BN254's scalar field, in circomlib's coordinates
//! (`a·x² + y² = 1 + d·x²·y²`): what the IR's point instructions mean, and the constants and
//! witness values of the circuit gadgets. Not constant time: for public values and witnesses.

use ark_bn254::Fr;
use ark_ff::{Field, One, PrimeField, Zero};
use std::str::FromStr;

/// circomlib's `a`.
pub const COEFF_A: u64 = 168700;
/// circomlib's `d`.
pub const COEFF_D: u64 = 168696;

/// `a` as a field element.
pub fn a() -> Fr {
    Fr::from(COEFF_A)
}

/// `d` as a field element.
pub fn d() -> Fr {
    Fr::from(COEFF_D)
}

/// An affine point `(x, y)`.
pub type Affine = (Fr, Fr);

/// The identity `(0, 1)`.
pub fn identity() -> Affine {
    (Fr::zero(), Fr::one())
}

/// circomlib's `Base8`, generator of the prime-order subgroup.
pub fn base8() -> Affine {
    (
        Fr::from_str("5299619240641551281634865583518297030282874472190772894086521144482721001553")
            .unwrap_or_default(),
        Fr::from_str("16950150798460657717958625567821834550301663161624707787222815936182638968203")
            .unwrap_or_default(),
    )
}

/// The order `l` of the prime-order subgroup (a 251-bit prime), as a field element.
pub fn subgroup_order() -> Fr {
    Fr::from_str("2736030358979909402780800718157159386076813972158567259200215660948447373041")
        .unwrap_or_default()
}

/// Whether `p` satisfies the curve equation.
pub fn is_on_curve(p: &Affine) -> bool {
    let (xx, yy) = (p.0.square(), p.1.square());
    a() * xx + yy == Fr::one() + d() * xx * yy
}

/// The complete addition law (any two points on the curve).
pub fn add(p: &Affine, q: &Affine) -> Affine {
    let t = d() * p.0 * q.0 * p.1 * q.1;
    let x = (p.0 * q.1 + p.1 * q.0) * (Fr::one() + t).inverse().unwrap_or_default();
    let y = (p.1 * q.1 - a() * p.0 * q.0) * (Fr::one() - t).inverse().unwrap_or_default();
    (x, y)
}

/// `-p = (-x, y)`.
pub fn neg(p: &Affine) -> Affine {
    (-p.0, p.1)
}

/// `k·p` for the integer whose little-endian bits are `bits`.
pub fn mul_bits(p: &Affine, bits: &[bool]) -> Affine {
    let mut acc = identity();
    for &bit in bits.iter().rev() {
        acc = add(&acc, &acc);
        if bit {
            acc = add(&acc, p);
        }
    }
    acc
}

/// `k·p` for a field element `k` read as an integer in `[0, p)`.
pub fn mul(p: &Affine, k: &Fr) -> Affine {
    use ark_ff::BigInteger;
    mul_bits(p, &k.into_bigint().to_bits_le())
}

/// Whether `p` is on the curve and in the subgroup of order `l`.
pub fn is_in_subgroup(p: &Affine) -> bool {
    is_on_curve(p) && mul(p, &subgroup_order()) == identity()
}
