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
///
/// A point on the curve takes arkworks' projective ladder over the same curve
/// (zeenot-crypto's circomlib model): its formulas are complete here, so it computes the group
/// law exactly as [`mul_bits`]' affine double-and-add does, for any point of the curve (the
/// subgroup or not), without an inversion per step (about 40× faster). A pair off the curve,
/// which no group law covers, keeps the affine chain, whose value is then what the IR means.
pub fn mul(p: &Affine, k: &Fr) -> Affine {
    use ark_ec::{AffineRepr, CurveGroup};
    use ark_ff::BigInteger;
    if !is_on_curve(p) {
        return mul_bits(p, &k.into_bigint().to_bits_le());
    }
    let q = zeenot_crypto::curve::BabyJubjubAffine::new_unchecked(p.0, p.1)
        .mul_bigint(k.into_bigint())
        .into_affine();
    (q.x, q.y)
}

/// Whether `p` is on the curve and in the subgroup of order `l`.
pub fn is_in_subgroup(p: &Affine) -> bool {
    is_on_curve(p) && mul(p, &subgroup_order()) == identity()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use rand::SeedableRng;

    /// The fast path is the affine chain on every point of the curve: the subgroup, a point of
    /// order `8·l` (circomlib's `Generator`), a point of order 2 and the identity; scalars past
    /// `l` and the field's largest.
    #[test]
    fn mul_agrees_with_the_affine_chain() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        let generator = (
            Fr::from_str(zeenot_crypto::curve::GENERATOR_X_DEC).unwrap(),
            Fr::from_str(zeenot_crypto::curve::GENERATOR_Y_DEC).unwrap(),
        );
        let order_two = (Fr::zero(), -Fr::one());
        let points = [base8(), mul(&base8(), &Fr::from(12345u64)), generator, order_two, identity()];
        let mut scalars =
            vec![Fr::zero(), Fr::one(), subgroup_order(), subgroup_order() + Fr::one(), -Fr::one()];
        scalars.extend((0..4).map(|_| Fr::rand(&mut rng)));
        for p in &points {
            assert!(is_on_curve(p));
            for k in &scalars {
                use ark_ff::BigInteger;
                assert_eq!(mul(p, k), mul_bits(p, &k.into_bigint().to_bits_le()));
            }
        }
        // off the curve: the affine chain itself
        let off = (Fr::from(2u64), Fr::from(3u64));
        assert!(!is_on_curve(&off));
        assert_eq!(mul(&off, &Fr::from(5u64)), mul_bits(&off, &[true, false, true]));
    }
}
