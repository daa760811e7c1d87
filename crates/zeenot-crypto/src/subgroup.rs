//! The prime-order subgroup check used by every decoder: whether a point `P` on Baby Jubjub
//! lies in the subgroup of order `l`, decided with one exponentiation in the base field (about
//! 250 squarings) instead of the scalar multiplication `l·P` (250 doublings and 43 additions of
//! [`crate::arithmetic::in_prime_subgroup_by_order`], the reference kept for the tests).
//!
//! # Why it is exact
//!
//! * Baby Jubjub's group `E(Fq)` is cyclic of order `8·l` (EIP-2494: circomlib's `Generator`
//!   has order `8·l`; the tests check it), so the subgroup of order `l` is exactly `8·E(Fq)`.
//! * `8` divides `q − 1` (`Fq` has 2-adicity 28), so the reduced Tate pairing
//!   `t₈: E(Fq)[8] × E(Fq)/8E(Fq) → μ₈` is non-degenerate (Frey–Rück; Lichtenbaum). With
//!   `T` a point of order 8 (it generates `E(Fq)[8]`, which is cyclic), `P ↦ t₈(T, P)` is a
//!   homomorphism `E(Fq) → μ₈` whose kernel is `8·E(Fq)`: `P` is in the subgroup iff
//!   `t₈(T, P) = 1`.
//! * `t₈(T, P) = f(P)^((q−1)/8)` for `P` outside the support `{O, T, ±2T, 4T}` of Miller's
//!   functions, where `f` is the normalised function with divisor `8(T) − 8(O)` (normalised
//!   at `O`, so the usual extra point of the divisor of `P` can be left out: by Weil
//!   reciprocity with normalised functions it only changes `f` by an 8th power). On the
//!   Montgomery model `v² = u³ + A·u² + u` (`A = 168698`, `B = 1`) Miller's loop gives
//!   `f = l₁⁴·l₂²·l₄ / (v₂⁴·v₄²)` with `l₁`, `l₂` the tangents at `T` and `2T`, `v₂` the
//!   vertical at `2T` and `l₄ = v₄ = u` (the tangent at the 2-torsion point `4T = (0, 0)` is
//!   vertical). The `T` chosen here (`l·Generator`) has `2T = (1, √168700)`, so `v₂ = u − 1`
//!   and `l₂ = v − λ₂·u` (through `(0, 0)`).
//! * In circomlib's coordinates `u = (1 + y)/(1 − y)`, `v = u/x`. Writing `U = 1 + y`,
//!   `Z = 1 − y`: `l₁ = L₁/(Z·x)` with `L₁ = U·(1 − λ₁·x) − c₁·Z·x`, `l₂ = U·(1 − λ₂·x)/(Z·x)`,
//!   `v₂ = 2y/Z`, `u = U/Z`; clearing 8th powers, `f ≡ 16·(L₁·y)⁴·(x·(1 − λ₂·x))²·U·Z⁷`, and
//!   `16` is itself an 8th power in `Fq` (a test checks it), so the value tested is
//!   `e = (L₁·y)⁴·(x·(1 − λ₂·x))²·U·Z⁷`: `P` is in the subgroup iff `e^((q−1)/8) = 1`.
//! * The support: `x = 0` only at the identity `(0, 1)` (in the subgroup) and at `(0, −1)`
//!   (order 2, outside). For `x ≠ 0`, `U` and `Z` are non-zero and `e = 0` exactly at `T`,
//!   `−2T` (`L₁ = 0`) and `±2T` (`y = 0`), all outside the subgroup.
//!
//! The tests compare this check with `l·P = O` on random subgroup points, on their sums with
//! each of the 8 torsion points, on the torsion points themselves and on random curve points,
//! and check that the character takes `Generator` to a primitive 8th root of unity. Variable
//! time: decoded points are public.

use ark_ff::{Field, MontFp, Zero};

use crate::params::{BabyJubjubAffine, Base};
use crate::sqrt::pow_trace_minus_one_div_two;

/// The slope `λ₁` of the tangent at `T` on the Montgomery model.
const LAMBDA1: Base = MontFp!("5125366436769623165205660392107939355810725029703343239946747673935168202680");
/// The tangent at `T` is `v = λ₁·u + c₁`.
const C1: Base = MontFp!("2088913711335396856726546479911749303399891397513649570383271383614331769171");
/// The slope `λ₂` of the tangent at `2T = (1, √168700)`, which passes through `(0, 0)`.
const LAMBDA2: Base =
    MontFp!("14673962723734255200314198873237586429337747973199041533368185129026308523766");

/// Squarings after `e^t` (`q − 1 = 2^28·t`): `(q − 1)/8 = 2^25·t`.
const EXTRA_SQUARINGS: u32 = 25;

/// Whether `p`, a point on the curve, lies in the prime-order subgroup (exactly when
/// `l·p = O`; see the module documentation). Only meaningful for points on the curve.
pub fn in_prime_subgroup(p: &BabyJubjubAffine) -> bool {
    let (x, y) = (p.x, p.y);
    if x.is_zero() {
        return y == Base::ONE;
    }
    let u = Base::ONE + y;
    let z = Base::ONE - y;
    let l1 = u * (Base::ONE - LAMBDA1 * x) - C1 * z * x;
    let m = x * (Base::ONE - LAMBDA2 * x);
    let z2 = z.square();
    let z7 = z2.square() * z2 * z;
    let e = (l1 * y).square().square() * m.square() * u * z7;
    if e.is_zero() {
        return false; // T, −2T or ±2T
    }
    // e^t = (e^((t−1)/2))²·e, then 25 squarings.
    let mut r = pow_trace_minus_one_div_two(&e).square() * e;
    for _ in 0..EXTRA_SQUARINGS {
        r.square_in_place();
    }
    r == Base::ONE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arithmetic::in_prime_subgroup_by_order;
    use crate::params::{BabyJubjubProjective, Scalar, GENERATOR_X_DEC, GENERATOR_Y_DEC};
    use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup, PrimeGroup};
    use ark_ff::{BigInteger, PrimeField, UniformRand};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use std::str::FromStr;

    /// The character `P ↦ t₈(T, P)` of the module documentation, `None` on its support.
    fn character(p: &BabyJubjubAffine) -> Option<Base> {
        let (x, y) = (p.x, p.y);
        if x.is_zero() {
            return (y == Base::ONE).then_some(Base::ONE);
        }
        let u = Base::ONE + y;
        let z = Base::ONE - y;
        let l1 = u * (Base::ONE - LAMBDA1 * x) - C1 * z * x;
        let m = x * (Base::ONE - LAMBDA2 * x);
        let e = (l1 * y).square().square() * m.square() * u * z.pow([7u64]);
        (!e.is_zero()).then(|| e.pow(q_minus_one_div_8().0))
    }

    fn q_minus_one_div_8() -> ark_ff::BigInt<4> {
        let mut b = Base::MODULUS;
        b.sub_with_borrow(&ark_ff::BigInt::from(1u64));
        b >> 3
    }

    /// circomlib's `Generator`, of order `8·l`.
    fn generator() -> BabyJubjubProjective {
        let x = Base::from_str(GENERATOR_X_DEC).unwrap();
        let y = Base::from_str(GENERATOR_Y_DEC).unwrap();
        let g = BabyJubjubAffine::new_unchecked(x, y);
        assert!(g.is_on_curve());
        g.into_group()
    }

    /// `T = l·Generator`, of order 8, and its multiples `k·T` for `k = 0..8`.
    fn torsion() -> Vec<BabyJubjubAffine> {
        let t = generator().mul_bigint(Scalar::MODULUS);
        (0..8u64).map(|k| (t * Scalar::from(k)).into_affine()).collect()
    }

    /// Montgomery coordinates `(u, v)` of a point with `x ≠ 0`, `y ≠ 1`.
    fn montgomery(p: &BabyJubjubAffine) -> (Base, Base) {
        let u = (Base::ONE + p.y) / (Base::ONE - p.y);
        (u, u / p.x)
    }

    /// The slope and intercept of the tangent at a point of `v² = u³ + A·u² + u`.
    fn tangent((u, v): (Base, Base)) -> (Base, Base) {
        let a = Base::from(168698u64);
        let lambda = (Base::from(3u64) * u * u + a.double() * u + Base::ONE) / v.double();
        (lambda, v - lambda * u)
    }

    #[test]
    fn the_group_is_cyclic_of_order_8l_and_the_constants_are_t_s_tangents() {
        let g = generator();
        let l = Scalar::MODULUS;
        assert!(!(g.mul_bigint(l) * Scalar::from(4u64)).is_zero(), "Generator has order 8·l");
        assert!((g.mul_bigint(l) * Scalar::from(8u64)).is_zero());
        let t = torsion();
        assert!(t[4].x.is_zero() && t[4].y == -Base::ONE, "4T = (0, −1), Montgomery (0, 0)");
        let (l1, c1) = tangent(montgomery(&t[1]));
        assert_eq!((l1, c1), (LAMBDA1, C1));
        let t2 = montgomery(&t[2]);
        assert_eq!(t2.0, Base::ONE, "2T has u = 1");
        assert_eq!(t2.1.square(), Base::from(168700u64));
        let (l2, c2) = tangent(t2);
        assert_eq!((l2, c2), (LAMBDA2, Base::ZERO), "the tangent at 2T passes through (0, 0)");
        assert_eq!(Base::from(16u64).pow(q_minus_one_div_8().0), Base::ONE, "16 is an 8th power");
        let mut exp = Base::TRACE;
        for _ in 0..EXTRA_SQUARINGS {
            exp.mul2();
        }
        assert_eq!(exp, q_minus_one_div_8(), "(q − 1)/8 = 2^25·t");
    }

    #[test]
    fn the_character_is_primitive_on_the_generator_and_multiplicative() {
        let g = generator();
        let zeta = character(&g.into_affine()).unwrap();
        assert_ne!(zeta.pow([4u64]), Base::ONE, "a primitive 8th root of unity");
        assert_eq!(zeta.pow([8u64]), Base::ONE);
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        for _ in 0..64 {
            let k = Scalar::rand(&mut r);
            let j = u64::from(rand::Rng::gen_range(&mut r, 0..8u8));
            // 8·(k·G) + j·G (k read as an integer below l): the character only sees j.
            let p = ((g * k).double().double().double() + g * Scalar::from(j)).into_affine();
            assert_eq!(character(&p), Some(zeta.pow([j])), "j = {j}");
        }
    }

    /// The reference and the fast check agree on `p`; returns the verdict.
    fn agree(p: &BabyJubjubAffine) -> bool {
        assert!(p.is_on_curve());
        let want = in_prime_subgroup_by_order(p);
        assert_eq!(in_prime_subgroup(p), want, "{p:?}");
        want
    }

    #[test]
    fn matches_l_times_p_on_every_torsion_coset() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        let t = torsion();
        for (k, tk) in t.iter().enumerate() {
            assert_eq!(agree(tk), k == 0, "{k}·T");
        }
        for i in 0..100 {
            let s = if i == 0 { Scalar::from(1u64) } else { Scalar::rand(&mut r) };
            let p = BabyJubjubProjective::generator() * s;
            for (k, tk) in t.iter().enumerate() {
                assert_eq!(agree(&(p + tk).into_affine()), k == 0, "P + {k}·T");
                assert_eq!(agree(&(-p + tk).into_affine()), k == 0, "−P + {k}·T");
            }
        }
    }

    #[test]
    fn matches_l_times_p_on_random_curve_points() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(13);
        let (mut inside, mut outside) = (0, 0);
        while inside + outside < 400 {
            let mut bytes = [0u8; 32];
            rand::RngCore::fill_bytes(&mut r, &mut bytes);
            bytes[31] &= 0x8f;
            let Ok(p) = crate::encoding::decode_curve_point(&bytes) else { continue };
            for q in [p, p.mul_by_cofactor_to_group().into_affine()] {
                if agree(&q) {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
        }
        assert!(inside >= 200 && outside > 150, "{inside} inside, {outside} outside");
    }

    proptest! {
        #[test]
        fn matches_l_times_p(s in any::<[u8; 32]>(), k in 0usize..8, neg in any::<bool>()) {
            let s = Scalar::from_le_bytes_mod_order(&s);
            let p = BabyJubjubProjective::generator() * s;
            let p = if neg { -p } else { p };
            let q = (p + torsion()[k]).into_affine();
            prop_assert_eq!(in_prime_subgroup(&q), in_prime_subgroup_by_order(&q));
            prop_assert_eq!(in_prime_subgroup(&q), k == 0);
        }
    }
}
