//! EdDSA-Poseidon signature verification, compatible with circomlib's `EdDSAPoseidonVerifier`
//! (with `enabled = 1`), circomlibjs `eddsa.verifyPoseidon` and zeenot-crypto's
//! [`zeenot_crypto::VerifyingKey::verify`].
//!
//! # Statement
//!
//! [`verify`] makes the circuit satisfiable only if, for the public key `A`, message `M` and
//! signature `(R8, S)`:
//!
//! 1. `A` and `R8` are on the curve;
//! 2. `S < l` (no malleable `S + l`);
//! 3. `8·A ≠ O`, i.e. `A` is not of small order (the identity included);
//! 4. `S·Base8 = R8 + 8·h·A` with `h = Poseidon(R8.x, R8.y, A.x, A.y, M)`, `h` read as the
//!    integer in `[0, p)` (circomlib's `Num2Bits_strict`).
//!
//! Relation to the references (for points on the curve, all agree on honest signatures):
//!
//! * circomlibjs `verifyPoseidon` checks 1, 2 and 4 but not 3, so it accepts a small-order
//!   `A` with the trivial forgery below; circomlib checks 2, 3 and 4 but not 1 (its `BabyAdd`
//!   and `BabyDbl` assume curve points). The gadget checks all four: it accepts exactly what
//!   both accept.
//! * `R8` ends up in the prime-order subgroup without a check: `R8 = S·Base8 − 8·h·A`, and
//!   `8·A` is in the subgroup for every curve point `A` (the group is cyclic of order `8·l`).
//! * zeenot-crypto is stricter on one point only: its keys are subgroup points, while here
//!   (as in circomlib and circomlibjs) a key `A + T`, `T` of order dividing 8, is accepted
//!   with signatures made for it. Making one needs `A`'s secret key (`8·(A + T) = 8·A`), so
//!   this is no forgery, but one secret has 8 key encodings: bind `A` to something (a
//!   registered key, a Merkle leaf of honest keys) when its encoding identifies the signer.
//!   An exact subgroup check is not done: `A = 8·Q` has 8 solutions `Q` (a free witness,
//!   against the gadgets' rule), and `l·A = O` costs another scalar multiplication.
//!
//! Cofactor clearing (`8·A`) is what makes check 3 necessary: for `A` of order `≤ 8`,
//! `8·h·A = O`, and `(R8, S) = (r·Base8, r)` verifies for every message.
//!
//! There is no boolean-returning variant (circomlib's `enabled` input): the range checks and
//! the small-order check are enforced, not computed as booleans; making them conditional
//! would need boolean comparison outputs and a conditional non-zero check (more constraints).
//!
//! # Method and soundness
//!
//! * `S` is decomposed into 251 bits ([`super::scalar_bits`]: unique, `S < 2^251`) and
//!   `S ≤ l − 1` is checked on the bits ([`enforce_le_const`]). The bits feed
//!   [`fixed_base::mul`] for `S·Base8`.
//! * `8·h·A`: the Poseidon output `h` is a full field element (`h ≥ l` and `h ≥ 2^251` are
//!   possible), so it cannot go through [`super::scalar_bits`]: a 254-bit decomposition of a
//!   field element is ambiguous (`h` and `h + p` both fit for `h < 2^254 − p`) and the two
//!   differ modulo `l`. [`variable_base::mul_offset`] (the cheapest exact variable-base
//!   multiplication, 6 constraints per bit, any bit count, unsatisfiable for `A` of order
//!   `≤ 8` — exactly check 3) computes `(e + 2^253)·A` from 254 bits of `e`; we feed it
//!   `e = h + c` with the constant `c = 7·l − 2^253 ∈ (0, 2l)`, so that
//!   `e + 2^253 = h + 7·l ≡ h (mod l)`. The bits satisfy `Σ 2^i·e_i = h + c` in the field and
//!   **`c ≤ e ≤ p − 1 + c`** on the integer `e` (two bit-wise comparisons with constants). The
//!   integers `≡ h + c (mod p)` are spaced by `p`, and exactly one of them, `h + c` with `h`
//!   the canonical integer, lies in that window of width `p`: the bits are a function of `h`,
//!   and no alias `h ± p` (which would change the multiple by `p mod l ≠ 0`) can be used. Both
//!   bounds are needed: `h + c − p ≥ 0` when `h ≥ p − c`, and `h + c + p < 2^254` when
//!   `h < 2^254 − p − c` (a test checks the bounds). Three complete doublings then give
//!   `8·(h + 7l)·A = 8·h·A`, as `ord(A)` divides `8·l`.
//!   [`variable_base::mul`] is not used: its incomplete chain stops at 251 bits (a multiple
//!   `≥ 2^251 > l` can meet an exceptional case), and it is 8 constraints per bit.
//! * The right-hand side is `R8 + 8·h·A` by the complete addition ([`point::add`], inputs on
//!   the curve), compared with `S·Base8` coordinate by coordinate.
//!
//! Every witness (bits, comparison products, the multiplications' internal witnesses, the
//! Poseidon S-boxes) is a function of `(A, M, R8, S)`; the tests mutation-check it. A
//! mutation check changes one variable at a time, so it cannot see an alias that changes many
//! bits at once: `eddsa_rejects_aliased_challenge` builds both aliases of `e` (with signatures
//! that satisfy the equation for them) and checks that exactly the window rejects them.
//!
//! # Cost
//!
//! **3,357 constraints** (pinned by a test): on-curve checks 6; `S` bits 252 and `S < l` 173;
//! Poseidon(5) 321; `e` bits 255 and its window 387; `mul_offset` with 254 bits 1,561 and
//! `×8` 15; fixed-base `S·Base8` (251 bits) 379; final addition and equality 8.
//! circomlib's `EdDSAPoseidonVerifier` is commonly quoted at about 4,200 (not measured here:
//! no circom compiler in this environment); its `EscalarMulAny(254)` alone is about 9
//! constraints per bit.

use super::super::{Builder, Result, Wire};
use super::fixed_base::{self, FixedBase};
use super::point::{self, native, PointWire};
use super::{poseidon, scalar_bits, variable_base, SCALAR_BITS};
use ark_bn254::Fr;
use ark_ff::{AdditiveGroup, BigInteger, One, PrimeField};
use ark_relations::lc;
use ark_relations::r1cs::Variable;
use num_bigint::BigUint;

/// Bits of the shifted challenge `e = h + c` fed to [`variable_base::mul_offset`].
pub const CHALLENGE_BITS: usize = 254;

/// `c = k·l − 2^253` with this `k`: the smallest `k` making `c ≥ 0` is 6; 7 gives cheaper
/// comparisons (387 constraints instead of 394). Both keep `p − 1 + c < 2^254`.
const SHIFT_MULTIPLE: u32 = 7;

fn big(f: &Fr) -> BigUint {
    BigUint::from_bytes_le(&f.into_bigint().to_bytes_le())
}

fn big_to_fr(x: &BigUint) -> Fr {
    Fr::from_le_bytes_mod_order(&x.to_bytes_le())
}

/// The BN254 scalar field modulus `p` (Baby Jubjub's base field).
fn field_modulus() -> BigUint {
    BigUint::from_bytes_le(&Fr::MODULUS.to_bytes_le())
}

/// The subgroup order `l`.
fn subgroup_order() -> BigUint {
    big(&native::subgroup_order())
}

/// `c = 7·l − 2^253`: `c + 2^253 ≡ 0 (mod l)`.
pub fn challenge_shift() -> BigUint {
    subgroup_order() * SHIFT_MULTIPLE - (BigUint::one() << (CHALLENGE_BITS - 1))
}

/// Enforce `Σ 2^i·bits[i] ≤ c` for little-endian boolean wires (booleanity is the caller's)
/// and a constant `c < 2^n`.
///
/// Scans from the most significant bit, keeping `eq` = "the bits so far equal `c`'s" (a
/// product of bits; the constant 1 at first). A run of 1s in `c` extends the product by each
/// bit (one constraint per bit; the first is free while `eq = 1`); a run of 0s costs one
/// constraint, `eq · Σ run bits = 0` (the sum of a few booleans is zero iff all are). Runs
/// below the lowest 0 of `c` constrain nothing. If `x > c`, at their highest differing
/// position `x` has a 1 in a 0-run of `c` while `eq = 1`: unsatisfiable; if `x ≤ c`, every
/// 0-run is reached either with `eq = 0` or with `x`'s bits equal to `c`'s there (0). The
/// products are functions of the bits. Cost: about one constraint per bit of `c` above its
/// lowest 0 (173 for `l − 1` on 251 bits).
///
/// # Panics
///
/// If `c ≥ 2^n`.
pub fn enforce_le_const(b: &Builder, bits: &[Wire], c: &BigUint) -> Result<()> {
    let n = bits.len();
    assert!(c.bits() <= n as u64, "the constant must fit the bits");
    let cb = |i: usize| c.bit(i as u64);
    let Some(lowest_zero) = (0..n).find(|&i| !cb(i)) else {
        return Ok(()); // c = 2^n − 1
    };
    let mut eq: Option<Wire> = None; // None: the constant 1
    let mut hi = n; // the run is [lo, hi)
    while hi > lowest_zero {
        let v = cb(hi - 1);
        let mut lo = hi - 1;
        while lo > 0 && cb(lo - 1) == v {
            lo -= 1;
        }
        if v {
            // a 1-run above the lowest 0 (which is below `lo`)
            for bit in bits[lo..hi].iter().rev() {
                eq = Some(match eq {
                    None => bit.clone(),
                    Some(e) => b.mul(&e, bit)?,
                });
            }
        } else {
            let sum = bits[lo..hi].iter().fold(lc!(), |acc, w| acc + &w.lc);
            match &eq {
                None => b.enforce(sum, lc!() + Variable::One, lc!())?,
                Some(e) => b.enforce(e.lc.clone(), sum, lc!())?,
            }
        }
        hi = lo;
    }
    Ok(())
}

/// Enforce `Σ 2^i·bits[i] ≥ c` (as [`enforce_le_const`] on the complemented bits and
/// `2^n − 1 − c`).
///
/// # Panics
///
/// If `c ≥ 2^n`.
pub fn enforce_ge_const(b: &Builder, bits: &[Wire], c: &BigUint) -> Result<()> {
    let n = bits.len();
    assert!(c.bits() <= n as u64, "the constant must fit the bits");
    let not: Vec<Wire> =
        bits.iter().map(|w| w.affine(-Fr::one(), Fr::one()).with_range(Some((0, 1)))).collect();
    let all_ones = (BigUint::one() << n) - 1u32;
    enforce_le_const(b, &not, &(all_ones - c))
}

/// Test hooks: a replacement for the honest integer `e`, and whether to add the range checks
/// (`S < l` and `e`'s window). [`verify`] uses the honest value with the checks.
struct Hooks<'a> {
    challenge: &'a dyn Fn(Option<BigUint>) -> Option<BigUint>,
    range_checks: bool,
}

/// The bits of `e = h + c` (see the module documentation): `CHALLENGE_BITS + 1` constraints
/// for the decomposition, 387 for `c ≤ e ≤ p − 1 + c`.
fn challenge_bits(b: &Builder, h: &Wire, hooks: &Hooks) -> Result<Vec<Wire>> {
    let shift = challenge_shift();
    let value = (hooks.challenge)(h.value.map(|v| big(&v) + &shift));
    let mut bits = Vec::with_capacity(CHALLENGE_BITS);
    let mut sum = lc!();
    let mut coeff = Fr::one();
    for i in 0..CHALLENGE_BITS {
        let bit = b.boolean(value.as_ref().map(|v| v.bit(i as u64)))?;
        sum = sum + (coeff, &bit.lc);
        coeff.double_in_place();
        bits.push(bit);
    }
    b.enforce(sum, lc!() + Variable::One, h.affine(Fr::one(), big_to_fr(&shift)).lc)?;
    if hooks.range_checks {
        enforce_ge_const(b, &bits, &shift)?;
        enforce_le_const(b, &bits, &(field_modulus() - 1u32 + &shift))?;
    }
    Ok(bits)
}

/// The canonical bits of `e = k + c` for any field element `k` (`c = 7·l − 2^253`, see the
/// module documentation): [`variable_base::mul_offset`] of a point `P` of the prime-order
/// subgroup by them is `(e + 2^253)·P = (k + 7l)·P = k·P`, with `k` read as its integer in
/// `[0, p)`. 255 + 387 constraints; the bits are a function of `k`.
pub fn field_scalar_bits(b: &Builder, k: &Wire) -> Result<Vec<Wire>> {
    let honest = |v: Option<BigUint>| v;
    challenge_bits(b, k, &Hooks { challenge: &honest, range_checks: true })
}

/// A fixed valid signature `[A.x, A.y, M, R8.x, R8.y, S]` (key seed `[7; 32]`, message 0): what
/// a guarded verification checks instead when its guard is false.
pub fn dummy_signature() -> [Fr; 6] {
    let key = zeenot_crypto::SigningKey::from_bytes([7; 32]);
    let m = Fr::from(0u64);
    let sig = key.sign(&m);
    let (ax, ay) = key.verifying_key().point().xy();
    let (rx, ry) = sig.r8.xy();
    let s = Fr::from_le_bytes_mod_order(&sig.s.into_bigint().to_bytes_le());
    [ax, ay, m, rx, ry, s]
}

/// Verify an EdDSA-Poseidon signature `(R8, S)` on the message `M` (a field element) under
/// the public key `A`: the circuit is unsatisfiable unless it is valid (see the module
/// documentation for the exact statement). 3,357 constraints.
///
/// `A` and `R8` may be unchecked witnesses ([`PointWire::witness_unchecked`]) or public
/// inputs: their curve equations are enforced here (free for constants). `S` is the scalar as
/// a field element (its integer must be below `l`).
pub fn verify(b: &Builder, a: &PointWire, m: &Wire, r8: &PointWire, s: &Wire) -> Result<()> {
    let honest = |v: Option<BigUint>| v;
    verify_with(b, a, m, r8, s, &Hooks { challenge: &honest, range_checks: true })
}

fn verify_with(b: &Builder, a: &PointWire, m: &Wire, r8: &PointWire, s: &Wire, hooks: &Hooks) -> Result<()> {
    point::enforce_on_curve(b, a)?;
    point::enforce_on_curve(b, r8)?;
    // S < l
    let s_bits = scalar_bits(b, s, SCALAR_BITS)?;
    if hooks.range_checks {
        enforce_le_const(b, &s_bits, &(subgroup_order() - 1u32))?;
    }
    // h = Poseidon(R8.x, R8.y, A.x, A.y, M), e = h + c
    let h = poseidon::poseidon(b, &[r8.x.clone(), r8.y.clone(), a.x.clone(), a.y.clone(), m.clone()])?;
    let e_bits = challenge_bits(b, &h, hooks)?;
    // (e + 2^253)·A = (h + 7l)·A, then ·8; unsatisfiable if 8·A = O
    let ha = variable_base::mul_offset(b, a, &e_bits)?;
    let h8a = point::double(b, &point::double(b, &point::double(b, &ha)?)?)?;
    // S·Base8 = R8 + 8·h·A
    let lhs = fixed_base::mul(b, &FixedBase::base8(), &s_bits)?;
    let rhs = point::add(b, r8, &h8a)?;
    point::enforce_equal(b, &lhs, &rhs)
}

#[cfg(test)]
mod tests {
    use super::super::super::test_util::*;
    use super::*;
    use crate::gadgets::fr;
    use ark_ff::{Field, Zero};
    use native::Affine;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;
    use serde_json::Value;
    use std::str::FromStr;
    use zeenot_crypto::{Point, Scalar, SigningKey};

    const EDDSA_VECTORS: &str = include_str!("../../../../../tests/vectors/circomlibjs/eddsa_poseidon.json");

    /// Pinned cost of [`verify`].
    const COST: usize = 3357;

    /// A verification instance (`s` is any field element, not necessarily below `l`).
    #[derive(Clone, Copy, Debug)]
    struct Case {
        a: Affine,
        m: Fr,
        r8: Affine,
        s: Fr,
    }

    fn s2f(s: &Scalar) -> Fr {
        Fr::from_bigint(s.into_bigint()).unwrap()
    }

    fn big_to_scalar(x: &BigUint) -> Scalar {
        Scalar::from_le_bytes_mod_order(&x.to_bytes_le())
    }

    fn rng() -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(0xedd5a)
    }

    fn hash(c: &Case) -> Fr {
        zeenot_crypto::poseidon(&[c.r8.0, c.r8.1, c.a.0, c.a.1, c.m]).unwrap()
    }

    /// The verification equation alone, natively: `S·B8 = R8 + 8·h·A` (any curve point `A`).
    fn equation_holds(c: &Case) -> bool {
        let lhs = native::mul(&native::base8(), &c.s);
        let h8a = native::mul(&native::mul(&c.a, &hash(c)), &Fr::from(8u64));
        lhs == native::add(&c.r8, &h8a)
    }

    /// A signature from the secret scalar `k` for the key point `a` (normally `k·B8`, but any
    /// `a` with `8·a = 8k·B8` works), nonce `r`: `S = r + 8·h'·k mod l` where `h'` is
    /// `challenge(h)` (the honest signer: `h' = h`).
    fn sign_raw(k: &Scalar, a: Affine, r: &Scalar, m: Fr, challenge: &dyn Fn(BigUint) -> BigUint) -> Case {
        let r8 = Point::mul_base(r).xy();
        let mut c = Case { a, m, r8, s: Fr::zero() };
        let h = big_to_scalar(&challenge(big(&hash(&c))));
        c.s = s2f(&(*r + h * Scalar::from(8u64) * k));
        c
    }

    fn alloc(b: &Builder, c: &Case) -> (PointWire, Wire, PointWire, Wire) {
        let a = PointWire::witness_unchecked(b, Some(c.a)).unwrap();
        let m = Wire::var(b.witness(Some(c.m)).unwrap(), Some(c.m), None);
        let r8 = PointWire::witness_unchecked(b, Some(c.r8)).unwrap();
        let s = Wire::var(b.witness(Some(c.s)).unwrap(), Some(c.s), None);
        (a, m, r8, s)
    }

    /// The gadget's inputs: `A.x, A.y, M, R8.x, R8.y, S`.
    const INPUTS: usize = 6;

    fn build(c: &Case) -> Builder {
        let b = builder();
        let (a, m, r8, s) = alloc(&b, c);
        verify(&b, &a, &m, &r8, &s).unwrap();
        b
    }

    fn build_with(
        c: &Case,
        challenge: &dyn Fn(Option<BigUint>) -> Option<BigUint>,
        range_checks: bool,
    ) -> Builder {
        let b = builder();
        let (a, m, r8, s) = alloc(&b, c);
        verify_with(&b, &a, &m, &r8, &s, &Hooks { challenge, range_checks }).unwrap();
        b
    }

    fn accepted(c: &Case) -> bool {
        build(c).cs.is_satisfied().unwrap()
    }

    fn native_case(sk: &SigningKey, m: Fr) -> Case {
        let vk = sk.verifying_key();
        let sig = sk.sign(&m);
        vk.verify(&m, &sig).unwrap();
        Case { a: vk.point().xy(), m, r8: sig.r8.xy(), s: s2f(&sig.s) }
    }

    fn minus_one() -> Fr {
        -Fr::one()
    }

    /// The 8 points of order dividing 8, `k·T8` for `k = 0..8` (`T8 = l·Generator` has order
    /// 8): `[4]` has order 2, `[2]` and `[6]` order 4, the odd ones order 8.
    fn small_order() -> Vec<Affine> {
        let g = (
            Fr::from_str(zeenot_crypto::curve::GENERATOR_X_DEC).unwrap(),
            Fr::from_str(zeenot_crypto::curve::GENERATOR_Y_DEC).unwrap(),
        );
        let t8 = native::mul(&g, &native::subgroup_order());
        let pts: Vec<Affine> = (0..8u64).map(|k| native::mul(&t8, &Fr::from(k))).collect();
        assert_eq!(pts[4], (Fr::zero(), minus_one()));
        assert_eq!(native::mul(&t8, &Fr::from(8u64)), native::identity());
        pts
    }

    #[test]
    fn eddsa_accepts_native_signatures_and_is_sound() {
        let mut r = rng();
        let msgs = [Fr::zero(), Fr::one(), minus_one(), Fr::from(1234567890u64), Fr::from(r.gen::<u128>())];
        for (i, m) in msgs.into_iter().enumerate() {
            let sk = SigningKey::random(&mut r);
            let c = native_case(&sk, m);
            let b = build(&c);
            assert_eq!(b.cs.num_constraints(), COST);
            if i < 2 {
                assert_sound(&b, INPUTS);
            } else {
                assert!(b.cs.is_satisfied().unwrap(), "{:?}", b.cs.which_is_unsatisfied());
            }
        }
    }

    /// A constant key (e.g. a circuit parameter) and constant message work too, and cost less.
    #[test]
    fn eddsa_constant_key_and_message() {
        let mut r = rng();
        let c = native_case(&SigningKey::random(&mut r), Fr::from(77u64));
        for bad in [false, true] {
            let b = builder();
            let r8 = PointWire::witness_unchecked(&b, Some(c.r8)).unwrap();
            let sv = if bad { c.s + Fr::one() } else { c.s };
            let s = Wire::var(b.witness(Some(sv)).unwrap(), Some(sv), None);
            let (a, m) = (PointWire::constant(c.a), Wire::constant(c.m, None));
            verify(&b, &a, &m, &r8, &s).unwrap();
            assert!(b.cs.num_constraints() < COST);
            if bad {
                assert_unsat(&b);
            } else {
                assert_sound(&b, 3);
            }
        }
    }

    fn json_fr(v: &Value) -> Fr {
        Fr::from_str(v.as_str().unwrap()).unwrap()
    }

    fn json_point(v: &Value) -> Affine {
        (json_fr(&v["x"]), json_fr(&v["y"]))
    }

    #[test]
    fn eddsa_accepts_circomlibjs_vectors() {
        let v: Value = serde_json::from_str(EDDSA_VECTORS).unwrap();
        let vectors = v["vectors"].as_array().unwrap();
        assert!(vectors.len() >= 16);
        for (i, case) in vectors.iter().enumerate() {
            let sig = &case["signature"];
            let c = Case {
                a: json_point(&case["public_key"]),
                m: json_fr(&case["msg"]),
                r8: json_point(&sig["r8"]),
                s: json_fr(&sig["s"]),
            };
            // the native signer agrees
            let sk = SigningKey::from_bytes(
                hex::decode(case["private_key"].as_str().unwrap()).unwrap().try_into().unwrap(),
            );
            let n = native_case(&sk, c.m);
            assert_eq!((n.a, n.r8, n.s), (c.a, c.r8, c.s));
            let b = build(&c);
            if i == 0 {
                assert_sound(&b, INPUTS);
            } else {
                assert!(b.cs.is_satisfied().unwrap(), "vector {i}: {:?}", b.cs.which_is_unsatisfied());
            }
        }
    }

    /// circomlib's packed point, decompressed without any subgroup check; `(1, y)` (off the
    /// curve) when no point has this `y`.
    fn unpack(bytes: &[u8]) -> Affine {
        let sign = bytes[31] & 0x80 != 0;
        let mut yb = bytes.to_vec();
        yb[31] &= 0x7f;
        let y = Fr::from_le_bytes_mod_order(&yb);
        let (a, d) = (Fr::from(point::COEFF_A), Fr::from(point::COEFF_D));
        let x2 = (Fr::one() - y * y) * (a - d * y * y).inverse().unwrap();
        match x2.sqrt() {
            Some(x) => {
                let negative = big(&x) > field_modulus() / 2u32;
                (if negative != sign { -x } else { x }, y)
            }
            None => (Fr::one(), y),
        }
    }

    #[test]
    fn eddsa_rejects_circomlibjs_bad_signatures() {
        let v: Value = serde_json::from_str(EDDSA_VECTORS).unwrap();
        let bad = v["bad_signatures"].as_array().unwrap();
        assert!(bad.len() >= 10);
        for case in bad {
            let name = case["name"].as_str().unwrap();
            let sig = hex::decode(case["signature"].as_str().unwrap()).unwrap();
            let s = BigUint::from_bytes_le(&sig[32..]);
            assert!(s < field_modulus(), "{name}: S is a field element");
            let c = Case {
                a: unpack(&hex::decode(case["public_key"].as_str().unwrap()).unwrap()),
                m: json_fr(&case["msg"]),
                r8: unpack(&sig[..32]),
                s: big_to_fr(&s),
            };
            assert!(!accepted(&c), "{name} accepted");
        }
    }

    #[test]
    fn eddsa_rejects_tampered_signatures() {
        let mut r = rng();
        let sk = SigningKey::random(&mut r);
        let good = native_case(&sk, Fr::from(42u64));
        assert!(accepted(&good));
        let l = native::subgroup_order();
        let other = native_case(&SigningKey::random(&mut r), Fr::from(42u64));
        let b8 = native::base8();
        let t2 = small_order()[4];
        let mut bad = vec![
            ("wrong message", Case { m: good.m + Fr::one(), ..good }),
            ("S + 1", Case { s: good.s + Fr::one(), ..good }),
            ("S - 1", Case { s: good.s - Fr::one(), ..good }),
            ("S + l", Case { s: good.s + l, ..good }),
            ("S + 2l", Case { s: good.s + l + l, ..good }),
            ("S - l (mod p)", Case { s: good.s - l, ..good }),
            ("R8 + B8", Case { r8: native::add(&good.r8, &b8), ..good }),
            ("-R8", Case { r8: native::neg(&good.r8), ..good }),
            ("R8 off curve", Case { r8: (good.r8.0 + Fr::one(), good.r8.1), ..good }),
            ("R8 + T2 (small-order component)", Case { r8: native::add(&good.r8, &t2), ..good }),
            ("other key", Case { a: other.a, ..good }),
            ("A off curve", Case { a: (good.a.0, good.a.1 + Fr::one()), ..good }),
            ("A + T2 (signature made for A)", Case { a: native::add(&good.a, &t2), ..good }),
            ("other signature", Case { r8: other.r8, s: other.s, ..good }),
        ];
        // the signature of a key with the message hashed under another key
        bad.push(("swapped A", Case { a: other.a, r8: other.r8, s: good.s, ..good }));
        for (name, c) in &bad {
            assert!(!accepted(c), "{name} accepted");
        }
    }

    /// `S + l` passes the equation; only `S < l` rejects it.
    #[test]
    fn eddsa_rejects_non_canonical_s() {
        let mut r = rng();
        let l = native::subgroup_order();
        let two_251 = BigUint::one() << 251;
        let mut found = 0;
        for i in 0u64.. {
            let c = native_case(&SigningKey::random(&mut r), Fr::from(i));
            let shifted = Case { s: c.s + l, ..c };
            if big(&shifted.s) >= two_251 {
                // rejected by the 251-bit decomposition already
                assert!(!accepted(&shifted));
                continue;
            }
            assert!(equation_holds(&shifted));
            let keep = |v: Option<BigUint>| v;
            assert!(build_with(&shifted, &keep, false).cs.is_satisfied().unwrap());
            assert!(!accepted(&shifted));
            found += 1;
            if found == 2 {
                break;
            }
        }
        // S = l itself (the signature S = 0 shifted), and the largest 251-bit value
        let mut c = native_case(&SigningKey::random(&mut r), Fr::from(7u64));
        for s in [l, big_to_fr(&(two_251 - 1u32))] {
            c.s = s;
            assert!(!accepted(&c));
        }
    }

    #[test]
    fn eddsa_rejects_small_order_keys() {
        // With 8·A = O the equation is S·B8 = R8: (r·B8, r) "signs" every message.
        let r = Scalar::from(123456789u64);
        for (i, a) in small_order().into_iter().enumerate() {
            let c = Case { a, m: Fr::from(5u64), r8: Point::mul_base(&r).xy(), s: s2f(&r) };
            assert!(native::is_on_curve(&a));
            assert!(equation_holds(&c), "small-order point {i}");
            assert!(!accepted(&c), "small-order point {i} accepted");
        }
    }

    /// A key with a small-order component is accepted, as by circomlib and circomlibjs, with
    /// signatures made for it (they need the secret of its subgroup part); zeenot-crypto does
    /// not even represent such a key.
    #[test]
    fn eddsa_torsioned_key_follows_circomlib() {
        let mut r = rng();
        let k = zeenot_crypto::elgamal::random_nonzero_scalar(&mut r);
        let nonce = zeenot_crypto::elgamal::random_nonzero_scalar(&mut r);
        let a = Point::mul_base(&k).xy();
        let honest = |h: BigUint| h;
        assert!(accepted(&sign_raw(&k, a, &nonce, Fr::from(9u64), &honest)));
        for t in small_order().into_iter().skip(1) {
            let at = native::add(&a, &t);
            assert!(Point::from_xy(at.0, at.1).is_err());
            let c = sign_raw(&k, at, &nonce, Fr::from(9u64), &honest);
            assert!(accepted(&c));
            // but not with the signature made for the subgroup key
            let plain = sign_raw(&k, a, &nonce, Fr::from(9u64), &honest);
            assert!(!accepted(&Case { a: at, ..plain }));
        }
    }

    /// The challenge must be `h` itself: signatures computed with `h + 1` or `h mod l` shifted
    /// by `p` fail, and so do bits of anything but `h + c`.
    #[test]
    fn eddsa_rejects_tampered_challenge() {
        let mut r = rng();
        let k = zeenot_crypto::elgamal::random_nonzero_scalar(&mut r);
        let a = Point::mul_base(&k).xy();
        let nonce = Scalar::from(31337u64);
        let plus_one = |h: BigUint| h + 1u32;
        let c = sign_raw(&k, a, &nonce, Fr::from(3u64), &plus_one);
        assert!(!accepted(&c));
        // honest signature, tampered bits: e + 1, e + l (same residue for the equation)
        let honest = sign_raw(&k, a, &nonce, Fr::from(3u64), &|h| h);
        let e_plus_one = |v: Option<BigUint>| v.map(|e| e + 1u32);
        assert!(!build_with(&honest, &e_plus_one, true).cs.is_satisfied().unwrap());
        let e_plus_l = |v: Option<BigUint>| v.map(|e| e + subgroup_order());
        assert!(!build_with(&honest, &e_plus_l, true).cs.is_satisfied().unwrap());
    }

    /// The aliases `e ± p` satisfy the decomposition and, with a signature made for the
    /// challenge `h ± p`, the equation: only the window `c ≤ e ≤ p − 1 + c` rejects them.
    #[test]
    fn eddsa_rejects_aliased_challenge() {
        let mut r = rng();
        let k = zeenot_crypto::elgamal::random_nonzero_scalar(&mut r);
        let a = Point::mul_base(&k).xy();
        let p = field_modulus();
        let top = BigUint::one() << CHALLENGE_BITS;
        let (mut up, mut down) = (false, false);
        for i in 0u64.. {
            let nonce = Scalar::from(1000 + i);
            let m = Fr::from(i);
            let h = big(&hash(&sign_raw(&k, a, &nonce, m, &|h| h)));
            let e = &h + challenge_shift();
            let alias = if &e + &p < top && !up {
                up = true;
                Some(true)
            } else if e >= p && !down {
                down = true;
                Some(false)
            } else {
                None
            };
            let Some(plus) = alias else { continue };
            let pp = p.clone();
            let c = if plus {
                sign_raw(&k, a, &nonce, m, &|h| h + &pp)
            } else {
                sign_raw(&k, a, &nonce, m, &|h| h + 7u32 * subgroup_order() - &pp)
            };
            let pp = p.clone();
            let hook = move |v: Option<BigUint>| v.map(|e| if plus { e + &pp } else { e - &pp });
            assert!(build_with(&c, &hook, false).cs.is_satisfied().unwrap(), "alias {plus}");
            assert!(!build_with(&c, &hook, true).cs.is_satisfied().unwrap(), "alias {plus}");
            assert!(!accepted(&c));
            if up && down {
                break;
            }
        }
    }

    /// `c + 2^253 ≡ 0 (mod l)`, the window `[c, p − 1 + c]` fits 254 bits, and both of its
    /// ends are needed (aliases below and above exist).
    #[test]
    fn challenge_shift_bounds() {
        let (c, l, p) = (challenge_shift(), subgroup_order(), field_modulus());
        let top = BigUint::one() << CHALLENGE_BITS;
        assert_eq!((&c + (BigUint::one() << (CHALLENGE_BITS - 1))) % &l, BigUint::from(0u32));
        assert!(c > BigUint::from(0u32) && c < &l * 2u32);
        assert!(&p - 1u32 + &c < top);
        assert!(&p + &c < top); // h = 0 has the alias e + p
        assert!(l.clone() * 8u32 > p);
    }

    #[test]
    fn constant_comparisons_are_exact_and_sound() {
        let n = 6;
        for c in 0u32..64 {
            let cb = BigUint::from(c);
            for x in 0i128..64 {
                for ge in [false, true] {
                    let b = builder();
                    let bits: Vec<Wire> = (0..n).map(|i| wit(&b, (x >> i) & 1, Some((0, 1)))).collect();
                    if ge {
                        enforce_ge_const(&b, &bits, &cb).unwrap();
                    } else {
                        enforce_le_const(&b, &bits, &cb).unwrap();
                    }
                    let expected = if ge { x >= c as i128 } else { x <= c as i128 };
                    assert_eq!(b.cs.is_satisfied().unwrap(), expected, "{x} vs {c}, ge = {ge}");
                    if expected {
                        assert_sound(&b, n);
                    }
                }
            }
        }
        // constant bits
        let b = builder();
        let bits: Vec<Wire> = (0..4).map(|i| Wire::constant(fr((5 >> i) & 1), Some((0, 1)))).collect();
        enforce_le_const(&b, &bits, &BigUint::from(4u32)).unwrap();
        assert_unsat(&b);
    }

    #[test]
    fn eddsa_constraint_count() {
        let mut r = rng();
        let c = native_case(&SigningKey::random(&mut r), Fr::from(1u64));
        let count = |f: &dyn Fn(&Builder)| {
            let b = builder();
            f(&b);
            b.cs.num_constraints()
        };
        let b = build(&c);
        let total = b.cs.num_constraints();
        let fixed = count(&|b| {
            let bits: Vec<Wire> = (0..251).map(|i| wit(b, i % 2, Some((0, 1)))).collect();
            fixed_base::mul(b, &FixedBase::base8(), &bits).unwrap();
        });
        let s_lt_l = count(&|b| {
            let bits: Vec<Wire> = (0..251).map(|i| wit(b, i % 2, Some((0, 1)))).collect();
            enforce_le_const(b, &bits, &(subgroup_order() - 1u32)).unwrap();
        });
        println!(
            "EdDSA-Poseidon verification: {total} constraints (circomlib EdDSAPoseidonVerifier ≈ 4,200)"
        );
        println!("  of which S·Base8 (251 bits): {fixed}, S < l on the bits: {s_lt_l}");
        assert_eq!(total, COST);
        assert_eq!(fixed, 379);
        assert_eq!(s_lt_l, 173);
        assert_eq!(poseidon::constraint_count(5), 321);
    }

    /// Synthesis without values (Groth16 setup) gives the same shape.
    #[test]
    fn eddsa_setup_mode_without_values() {
        use ark_relations::r1cs::{ConstraintSystem, SynthesisMode};
        let cs = ConstraintSystem::<Fr>::new_ref();
        cs.set_mode(SynthesisMode::Setup);
        let b = Builder::new(cs.clone());
        let none = || PointWire::witness_unchecked(&b, None).unwrap();
        let (a, r8) = (none(), none());
        let m = Wire::var(b.witness(None).unwrap(), None, None);
        let s = Wire::var(b.witness(None).unwrap(), None, None);
        verify(&b, &a, &m, &r8, &s).unwrap();
        let mut rr = rng();
        let proving = build(&native_case(&SigningKey::random(&mut rr), Fr::from(8u64)));
        assert_eq!(cs.num_constraints(), proving.cs.num_constraints());
        assert_eq!(cs.num_witness_variables(), proving.cs.num_witness_variables());
    }
}
