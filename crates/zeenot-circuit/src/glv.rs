//! The GLV split of BN254 scalars (Gallant, Lambert and Vanstone, CRYPTO 2001): both of BN254's
//! groups have an endomorphism `φ(x, y) = (β·x, y)` acting as multiplication by a cube root of
//! unity `λ` modulo `r`, so `k·P = k₁·P + k₂·φ(P)` with `k = k₁ + λ·k₂ (mod r)` and
//! `|k₁|, |k₂| < 2^127`. A multi-scalar multiplication over `n` points of 254-bit scalars
//! becomes one over `2n` points of 127-bit scalars: as many bucket additions, half the windows'
//! bucket sums ([`crate::msm`]).
//!
//! `k₁, k₂` come from Babai's rounding against the LLL-reduced lattice basis `(n₁₁, n₁₂;
//! n₂₁, n₂₂)` that arkworks' `GLVConfig` carries (`β₁ = round(k·n₂₂/r)`, `β₂ = round(−k·n₁₂/r)`,
//! `k₁ = k − β₁·n₁₁ − β₂·n₂₁`, `k₂ = −β₁·n₁₂ − β₂·n₂₂`), computed in fixed width: the divisions
//! by `r` are multiplications by `g = round(2^256·|n|/r)` and a rounding shift, and since the
//! results are below `2^127`, the rest is exact in wrapping 128-bit arithmetic. arkworks' own
//! `scalar_decomposition` does the same with heap-allocated big integers (and rounds negative
//! quotients toward zero, so its splits may differ from these by a lattice vector), slower than
//! the multi-scalar multiplication's share of the saving; the tests check that every split is
//! one and short.

use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ec::short_weierstrass::Affine;
use ark_ff::{BigInteger, PrimeField};

/// A group of BN254 with its GLV split.
pub trait Glv: GLVConfig {
    /// `round(2^256·|n₂₂|/r)` (little-endian limbs) and whether `β₁` is negative (`n₂₂ < 0`).
    const G22: ([u64; 3], bool);
    /// `round(2^256·|n₁₂|/r)` and whether `β₂` is negative (`n₁₂ > 0`).
    const G12: ([u64; 3], bool);
    /// `n₁₁, n₁₂, n₂₁, n₂₂`.
    const N: [i128; 4];

    /// `φ(P) = λ·P`.
    fn phi(p: &Affine<Self>) -> Affine<Self> {
        Self::endomorphism_affine(p)
    }
}

impl Glv for ark_bn254::g1::Config {
    const G22: ([u64; 3], bool) = ([0x5398fd0300ff6565, 0x4ccef014a773d2d2, 0x2], true);
    const G12: ([u64; 3], bool) = ([0xd91d232ec7e0b3d7, 0x2, 0x0], true);
    const N: [i128; 4] = [
        -147946756881789319000765030803803410728,
        9931322734385697763,
        -9931322734385697763,
        -147946756881789319010696353538189108491,
    ];
}

impl Glv for ark_bn254::g2::Config {
    const G22: ([u64; 3], bool) = ([0x7a7bd9d4391eb18e, 0x4ccef014a773d2cf, 0x2], true);
    const G12: ([u64; 3], bool) = ([0xd91d232ec7e0b3d7, 0x2, 0x0], false);
    const N: [i128; 4] = [
        -147946756881789319010696353538189108491,
        -9931322734385697763,
        9931322734385697763,
        -147946756881789319000765030803803410728,
    ];
}

/// `round(k·g / 2^256)` for `k < 2^254` and `g < 2^130`: below `2^128`.
fn round_mul_shift(k: &[u64], g: &[u64; 3]) -> u128 {
    let mut product = [0u64; 8];
    for (i, &a) in k.iter().enumerate().take(4) {
        let mut carry = 0u128;
        for (j, &b) in g.iter().enumerate() {
            let t = product[i + j] as u128 + a as u128 * b as u128 + carry;
            product[i + j] = t as u64;
            carry = t >> 64;
        }
        let mut at = i + 3;
        while carry != 0 && at < product.len() {
            let t = product[at] as u128 + carry;
            product[at] = t as u64;
            carry = t >> 64;
            at += 1;
        }
    }
    // + 2^255, then the limbs from bit 256
    let (low, carry) = product[3].overflowing_add(1 << 63);
    product[3] = low;
    let mut high = product[4] as u128 | (product[5] as u128) << 64;
    if carry {
        high = high.wrapping_add(1);
    }
    debug_assert!(product[6] == 0 && product[7] == 0, "k·g < 2^384");
    high
}

/// `(k₁, k₂)` with `k = k₁ + λ·k₂ (mod r)` and `|k₁|, |k₂| < 2^127`.
pub fn split<P: Glv>(k: &<P::ScalarField as PrimeField>::BigInt) -> (i128, i128) {
    let limbs = k.as_ref();
    let signed = |(g, negative): ([u64; 3], bool)| {
        let b = round_mul_shift(limbs, &g) as i128; // below 2^127: |n| < 2^127
        if negative {
            b.wrapping_neg()
        } else {
            b
        }
    };
    let (b1, b2) = (signed(P::G22), signed(P::G12));
    let [n11, n12, n21, n22] = P::N;
    let k_low = (limbs[0] as u128 | (limbs[1] as u128) << 64) as i128;
    let k1 = k_low.wrapping_sub(b1.wrapping_mul(n11)).wrapping_sub(b2.wrapping_mul(n21));
    let k2 = b1.wrapping_mul(n12).wrapping_add(b2.wrapping_mul(n22)).wrapping_neg();
    debug_assert!(k.num_bits() <= 254);
    (k1, k2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::Fr;
    use ark_ec::CurveGroup;
    use ark_ff::{Field, UniformRand, Zero};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn scalars() -> Vec<Fr> {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let mut out = vec![Fr::zero(), Fr::from(1u64), -Fr::from(1u64), -Fr::from(2u64), Fr::from(u64::MAX)];
        out.push(ark_bn254::g1::Config::LAMBDA);
        out.push(ark_bn254::g2::Config::LAMBDA);
        out.push(Fr::from(2u64).pow([253]));
        out.extend((0..20_000).map(|_| Fr::rand(&mut rng)));
        out
    }

    fn as_fr(v: i128) -> Fr {
        let m = Fr::from(v.unsigned_abs());
        if v < 0 {
            -m
        } else {
            m
        }
    }

    fn splits_well<P: Glv<ScalarField = Fr>>() {
        for k in scalars() {
            let (k1, k2) = split::<P>(&k.into_bigint());
            assert!(k1.unsigned_abs() < 1 << 127 && k2.unsigned_abs() < 1 << 127, "{k}");
            assert_eq!(as_fr(k1) + P::LAMBDA * as_fr(k2), k, "k = k1 + λ·k2");
        }
    }

    #[test]
    fn splits_are_splits_and_short() {
        splits_well::<ark_bn254::g1::Config>();
        splits_well::<ark_bn254::g2::Config>();
    }

    #[test]
    fn phi_is_multiplication_by_lambda() {
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        let p = ark_bn254::G1Projective::rand(&mut rng).into_affine();
        assert_eq!(ark_bn254::g1::Config::phi(&p), (p * ark_bn254::g1::Config::LAMBDA).into_affine());
        let q = ark_bn254::G2Projective::rand(&mut rng).into_affine();
        assert_eq!(ark_bn254::g2::Config::phi(&q), (q * ark_bn254::g2::Config::LAMBDA).into_affine());
    }
}
