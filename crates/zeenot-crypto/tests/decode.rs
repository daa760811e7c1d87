//! `Point::decode` and `Point::decode_batch` against hand-built encodings: every subgroup point
//! accepted, every point of the other seven cosets of the torsion (on the curve, outside the
//! subgroup) refused with `NotInSubgroup`, a `y` whose `x²` is not a square (a point of the
//! quadratic twist) refused with `NotOnCurve`, non-canonical `y` and sign refused; the batch
//! decoder agrees with the single one point for point and names the first failure.

use std::str::FromStr;

use ark_ec::twisted_edwards::TECurveConfig;
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, PrimeField, UniformRand};
use proptest::prelude::*;
use rand::SeedableRng;
use zeenot_crypto::curve::{
    BabyJubjubAffine, BabyJubjubConfig, BabyJubjubProjective, GENERATOR_X_DEC, GENERATOR_Y_DEC,
};
use zeenot_crypto::{encode_base, Base, Error, Point, Scalar};

/// circomlib's packing of any curve point (no subgroup requirement).
fn pack(p: &BabyJubjubAffine) -> [u8; 32] {
    let mut out = encode_base(&p.y);
    if p.x.into_bigint() > Base::MODULUS_MINUS_ONE_DIV_TWO {
        out[31] |= 0x80;
    }
    out
}

/// `k·T` for `k = 0..8`, `T = l·Generator` of order 8.
fn torsion() -> Vec<BabyJubjubProjective> {
    let g = BabyJubjubAffine::new_unchecked(
        Base::from_str(GENERATOR_X_DEC).unwrap(),
        Base::from_str(GENERATOR_Y_DEC).unwrap(),
    );
    let t = g.mul_bigint(Scalar::MODULUS);
    (0..8u64).map(|k| t * Scalar::from(k)).collect()
}

/// A `y < p` with no curve point: `(1 − y²)/(a − d·y²)` is not a square.
fn twist_y(r: &mut impl rand::RngCore) -> [u8; 32] {
    loop {
        let y = Base::rand(r);
        let y2 = y.square();
        let x2 = (Base::ONE - y2) / (BabyJubjubConfig::COEFF_A - BabyJubjubConfig::COEFF_D * y2);
        if x2.legendre().is_qnr() {
            return encode_base(&y);
        }
    }
}

#[test]
fn cosets_twist_and_non_canonical_encodings() {
    let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(21);
    let t = torsion();
    let mut all = Vec::new();
    let mut want = Vec::new();
    for i in 0..40 {
        let p = if i == 0 {
            Point::identity().to_projective()
        } else {
            Point::generator().mul_vartime(&Scalar::rand(&mut r)).to_projective()
        };
        for (k, tk) in t.iter().enumerate() {
            let q = (p + tk).into_affine();
            let bytes = pack(&q);
            let got = Point::decode(&bytes);
            if k == 0 {
                assert_eq!(got.clone().map(|p| p.to_affine()), Ok(q));
            } else {
                assert_eq!(got, Err(Error::NotInSubgroup), "P + {k}·T");
            }
            all.extend_from_slice(&bytes);
            want.push(got);
        }
        let twist = twist_y(&mut r);
        for sign in [0u8, 0x80] {
            let mut b = twist;
            b[31] |= sign;
            assert_eq!(Point::decode(&b), Err(Error::NotOnCurve));
        }
    }
    // y = p (non-canonical), and the sign bit with x = 0 (the identity's y)
    let mut p_bytes = Base::MODULUS.to_bytes_le();
    p_bytes.resize(32, 0);
    assert_eq!(Point::decode(&p_bytes.try_into().unwrap()), Err(Error::NonCanonical));
    let mut id = Point::identity().encode();
    id[31] |= 0x80;
    assert_eq!(Point::decode(&id), Err(Error::NonCanonicalSign));

    // the batch decoder: one point at a time agrees, and the first failure is named
    for (i, chunk) in all.chunks(32 * 8).enumerate() {
        let batch = Point::decode_batch(chunk);
        let single: Vec<_> = want[8 * i..8 * i + 8].to_vec();
        match batch {
            Ok(points) => panic!("the batch of {i} has points outside the subgroup: {points:?}"),
            Err((j, e)) => {
                assert_eq!(j, 1, "P + T is the first to fail");
                assert_eq!(Err(e), single[1]);
            }
        }
        let good = Point::decode_batch(&chunk[..32]).unwrap();
        assert_eq!(Ok(good[0]), single[0]);
    }
}

proptest! {
    #[test]
    fn batch_agrees_with_one_at_a_time(words in proptest::collection::vec(any::<[u8; 32]>(), 0..12), seed in any::<u64>()) {
        // random bytes (mostly refused) mixed with subgroup points (accepted)
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let mut bytes = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if i % 2 == 0 {
                bytes.extend_from_slice(&Point::generator().mul_vartime(&Scalar::rand(&mut r)).encode());
            } else {
                bytes.extend_from_slice(w);
            }
        }
        let single: Result<Vec<Point>, (usize, Error)> = bytes
            .chunks(32)
            .enumerate()
            .map(|(i, c)| Point::decode_slice(c).map_err(|e| (i, e)))
            .collect();
        prop_assert_eq!(Point::decode_batch(&bytes), single);
        let torn = &bytes[..bytes.len().saturating_sub(1)];
        if !torn.is_empty() {
            prop_assert!(matches!(Point::decode_batch(torn), Err((_, _))));
        }
    }
}
