//! Independent cross-checks of the curve layer against a from-scratch reference written here:
//! circomlib's `unpackPoint` semantics re-derived from the curve equation, and the unified
//! twisted Edwards addition law (extended coordinates, a = 168700, d = 168696) coded by hand,
//! used only through field arithmetic. Nothing here calls this crate's curve internals, so a
//! bug shared by `Point::decode` and arkworks' model would show up as a disagreement.
//!
//! Expected encodings were computed separately with Python big integers from the coordinates.
use ark_ff::{BigInt, Field, PrimeField, UniformRand, Zero};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{Base, Error, Point, Scalar};

/// Point in extended twisted Edwards coordinates (X : Y : T : Z), x = X/Z, y = Y/Z, xy = T/Z.
#[derive(Clone, Copy)]
struct Ext {
    x: Base,
    y: Base,
    t: Base,
    z: Base,
}

fn a() -> Base {
    Base::from(168700u64)
}
fn d() -> Base {
    Base::from(168696u64)
}

impl Ext {
    fn from_affine(x: Base, y: Base) -> Ext {
        Ext { x, y, t: x * y, z: Base::ONE }
    }
    fn identity() -> Ext {
        Ext::from_affine(Base::zero(), Base::ONE)
    }
    /// Unified addition (Hisil–Wong–Carter–Dawson 2008), complete on Baby Jubjub.
    fn add(&self, o: &Ext) -> Ext {
        let aa = self.x * o.x;
        let bb = self.y * o.y;
        let cc = d() * self.t * o.t;
        let dd = self.z * o.z;
        let ee = (self.x + self.y) * (o.x + o.y) - aa - bb;
        let ff = dd - cc;
        let gg = dd + cc;
        let hh = bb - a() * aa;
        Ext { x: ee * ff, y: gg * hh, t: ee * hh, z: ff * gg }
    }
    fn affine(&self) -> (Base, Base) {
        let zi = self.z.inverse().expect("complete formulas keep Z non-zero");
        (self.x * zi, self.y * zi)
    }
    /// Plain MSB-first double-and-add over the bits of a little-endian limb array.
    fn mul_limbs(&self, limbs: &[u64]) -> Ext {
        let mut acc = Ext::identity();
        for limb in limbs.iter().rev() {
            for bit in (0..64).rev() {
                acc = acc.add(&acc);
                if (limb >> bit) & 1 == 1 {
                    acc = acc.add(self);
                }
            }
        }
        acc
    }
    fn is_identity(&self) -> bool {
        let (x, y) = self.affine();
        x.is_zero() && y == Base::ONE
    }
}

fn on_curve(x: Base, y: Base) -> bool {
    let (x2, y2) = (x.square(), y.square());
    a() * x2 + y2 == Base::ONE + d() * x2 * y2
}

fn is_negative(x: &Base) -> bool {
    x.into_bigint() > Base::MODULUS_MINUS_ONE_DIV_TWO
}

fn le_bytes(v: &Base) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, l) in v.into_bigint().0.iter().enumerate() {
        out[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes());
    }
    out
}

fn encode_xy(x: &Base, y: &Base) -> [u8; 32] {
    let mut e = le_bytes(y);
    if is_negative(x) {
        e[31] |= 0x80;
    }
    e
}

#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Ok([u8; 32]),
    NonCanonical,
    NotOnCurve,
    NonCanonicalSign,
    NotInSubgroup,
}

/// circomlib `unpackPoint`, plus the subgroup check, derived directly from the curve equation.
fn reference_decode(bytes: &[u8; 32]) -> Verdict {
    let sign = bytes[31] >> 7 == 1;
    let mut limbs = [0u64; 4];
    for (i, l) in limbs.iter_mut().enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        *l = u64::from_le_bytes(w);
    }
    limbs[3] &= !(1u64 << 63);
    let Some(y) = Base::from_bigint(BigInt::new(limbs)) else {
        return Verdict::NonCanonical;
    };
    let y2 = y.square();
    let x2 = (Base::ONE - y2) * (a() - d() * y2).inverse().expect("a/d is not a square");
    let Some(root) = x2.sqrt() else {
        return Verdict::NotOnCurve;
    };
    // The two roots are root and -root; pick the one whose "negativity" matches the sign bit.
    let x = if is_negative(&root) == sign { root } else { -root };
    if x.is_zero() && sign {
        return Verdict::NonCanonicalSign;
    }
    assert!(on_curve(x, y));
    if !Ext::from_affine(x, y).mul_limbs(&Scalar::MODULUS.0).is_identity() {
        return Verdict::NotInSubgroup;
    }
    Verdict::Ok(encode_xy(&x, &y))
}

fn crate_decode(bytes: &[u8; 32]) -> Verdict {
    match Point::decode(bytes) {
        Ok(p) => Verdict::Ok(p.encode()),
        Err(Error::NonCanonical) => Verdict::NonCanonical,
        Err(Error::NotOnCurve) => Verdict::NotOnCurve,
        Err(Error::NonCanonicalSign) => Verdict::NonCanonicalSign,
        Err(Error::NotInSubgroup) => Verdict::NotInSubgroup,
        Err(e) => panic!("unexpected decode error {e:?}"),
    }
}

fn base8() -> Ext {
    Ext::from_affine(
        "5299619240641551281634865583518297030282874472190772894086521144482721001553".parse().expect("x"),
        "16950150798460657717958625567821834550301663161624707787222815936182638968203".parse().expect("y"),
    )
}

/// circomlib's `Generator`, of order 8·l.
fn circom_generator() -> Ext {
    Ext::from_affine(
        "995203441582195749578291179787384436505546430278305826713579947235728471134".parse().expect("x"),
        "5472060717959818805561601436314318772137091100104008585924551046643952123905".parse().expect("y"),
    )
}

fn hex32(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

#[test]
fn python_derived_encodings() {
    // Base8 (x < (p-1)/2, sign bit clear) and -Base8 (sign bit set).
    let b8 = hex32("8b7d2d877a253c4b7733e1b91f05e0fcedf96bd11c2e572549b2a0f703727925");
    let neg_b8 = hex32("8b7d2d877a253c4b7733e1b91f05e0fcedf96bd11c2e572549b2a0f7037279a5");
    assert_eq!(Point::generator().encode(), b8);
    assert_eq!((-Point::generator()).encode(), neg_b8);
    assert_eq!(Point::decode(&neg_b8), Ok(-Point::generator()));
    let (x, y) = base8().affine();
    assert_eq!(encode_xy(&x, &y), b8);
    // 8 · Generator = Base8 under the hand-written group law.
    let (x8, y8) = circom_generator().mul_limbs(&[8]).affine();
    assert_eq!((x8, y8), (x, y));
    // y = p is not canonical; y = 2 and y = 4 are off the curve (non-residues, checked in Python).
    let p = hex32("010000f093f5e1439170b97948e833285d588181b64550b829a031e1724e6430");
    assert_eq!(Point::decode(&p), Err(Error::NonCanonical));
    for y in [2u8, 4] {
        let mut e = [0u8; 32];
        e[0] = y;
        assert_eq!(Point::decode(&e), Err(Error::NotOnCurve));
    }
}

#[test]
fn eight_torsion_and_translates_rejected() {
    let t = circom_generator().mul_limbs(&Scalar::MODULUS.0); // order 8
    let mut cur = Ext::identity();
    for k in 1..8 {
        cur = cur.add(&t);
        assert!(!cur.is_identity(), "k·T ≠ O for k = {k}");
        let (x, y) = cur.affine();
        assert_eq!(Point::decode(&encode_xy(&x, &y)), Err(Error::NotInSubgroup), "k = {k}");
        assert_eq!(Point::from_xy(x, y), Err(Error::NotInSubgroup), "k = {k}");
    }
    assert!(cur.add(&t).is_identity(), "8·T = O");
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    for _ in 0..16 {
        let k = Scalar::rand(&mut rng);
        let p = base8().mul_limbs(&k.into_bigint().0).add(&t);
        let (x, y) = p.affine();
        assert_eq!(Point::decode(&encode_xy(&x, &y)), Err(Error::NotInSubgroup));
    }
}

#[test]
fn scalar_multiplication_matches_reference_ladder() {
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    let mut ks: Vec<Scalar> =
        [0u64, 1, 2, 3, 15, 16, 17, 255, 256, 0xffff_ffff, u64::MAX].into_iter().map(Scalar::from).collect();
    ks.extend([-Scalar::from(1u64), -Scalar::from(2u64), -Scalar::from(16u64)]);
    ks.extend((0..24).map(|_| Scalar::rand(&mut rng)));
    let p_ref = base8().mul_limbs(&[0x1234_5678_9abc_def1]);
    let (px, py) = p_ref.affine();
    let p = Point::from_xy(px, py).expect("subgroup point");
    for k in &ks {
        let limbs = k.into_bigint().0;
        let (x, y) = base8().mul_limbs(&limbs).affine();
        let expect = encode_xy(&x, &y);
        assert_eq!(Point::mul_base(k).encode(), expect, "mul_base {k}");
        assert_eq!(Point::generator().mul_ct(k).encode(), expect, "mul_ct {k}");
        assert_eq!(Point::generator().mul_vartime(k).encode(), expect, "mul_vartime {k}");
        let (x, y) = p_ref.mul_limbs(&limbs).affine();
        assert_eq!(p.mul_ct(k).encode(), encode_xy(&x, &y), "mul_ct on another base {k}");
    }
}

#[test]
fn decoder_agrees_with_reference_on_fuzzed_inputs() {
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    let mut inputs: Vec<[u8; 32]> = Vec::new();
    for _ in 0..3000 {
        let mut e = [0u8; 32];
        rng.fill_bytes(&mut e);
        inputs.push(e);
        // y below p (top byte < 0x30), random sign bit.
        e[31] = (e[31] % 0x30) | if rng.gen::<bool>() { 0x80 } else { 0 };
        inputs.push(e);
    }
    let p_limbs = Base::MODULUS.0;
    for k in 0u64..64 {
        for sign in [0u8, 0x80] {
            let mut e = [0u8; 32];
            e[..8].copy_from_slice(&k.to_le_bytes());
            e[31] |= sign;
            inputs.push(e);
            // p - 1 - k and p + k (no borrow: p's low limb is large).
            for low in [p_limbs[0] - 1 - k, p_limbs[0] + k] {
                let mut e = [0u8; 32];
                let mut limbs = p_limbs;
                limbs[0] = low;
                for (i, l) in limbs.iter().enumerate() {
                    e[8 * i..8 * i + 8].copy_from_slice(&l.to_le_bytes());
                }
                e[31] |= sign;
                inputs.push(e);
            }
        }
    }
    for _ in 0..40 {
        let (x, y) = base8().mul_limbs(&Scalar::rand(&mut rng).into_bigint().0).affine();
        inputs.push(encode_xy(&x, &y));
        inputs.push(encode_xy(&-x, &y));
    }
    let mut accepted = 0;
    for e in &inputs {
        let r = reference_decode(e);
        if matches!(r, Verdict::Ok(_)) {
            accepted += 1;
        }
        assert_eq!(crate_decode(e), r, "input {e:02x?}");
    }
    assert!(accepted >= 80, "the fuzz corpus must contain valid points ({accepted})");
}
