//! The arithmetic under Baby Jubjub's scalar multiplications and subgroup check, on arkworks'
//! points ([`BabyJubjubProjective`], [`BabyJubjubAffine`]) and below the point type: the
//! `a = −1` model with its complete formulas, the constant-time building blocks (branch-free
//! selection and negation, signed digits, table lookups), wNAF digits for the variable-time
//! paths, and the reference subgroup check `l·P = O` ([`in_prime_subgroup_by_order`]; decoding
//! uses the faster, equivalent `crate::subgroup`). `crate::curve` builds `Point` on it, and
//! `crate::ct` builds `Point`'s scalar multiplications on it (its
//! documentation describes the constant-time discipline these blocks serve).
//!
//! # Arithmetic
//!
//! Internally points live on the isomorphic curve `−u² + y² = 1 + d'·u²·y²` with `u = √(−a)·x`
//! and `d' = −d/a` (circomlib's `a = 168700` is a square and so is `−1`, so the map is defined
//! over `Fq`; `d'` is a non-square like `d`, so the `a = −1` formulas of Hisil–Wong–Carter–Dawson
//! are complete here too). That model has the cheapest twisted Edwards formulas: an addition
//! of a cached operand costs 8M (7M when the operand is affine; 1M less when the result only
//! feeds a doubling and can skip `T`), a doubling 4M + 4S (3M + 4S without `T`), against
//! 11M and 5M + 4S with arkworks' formulas for a general `a`. Converting in and out costs 2M
//! per point.

use std::sync::OnceLock;

use ark_ec::CurveGroup;
use ark_ff::{AdditiveGroup, BigInt, Field, Fp, MontFp, PrimeField, Zero};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::params::{BabyJubjubAffine, BabyJubjubProjective, Base, Scalar};

/// Bits per signed digit of the constant-time paths.
pub(crate) const WINDOW: usize = 4;
/// Signed digits per scalar on the constant-time paths (64 · 4 = 256 ≥ 251 bits of l).
pub(crate) const DIGITS: usize = 64;
/// Entries per signed-window table: `1·P … 8·P` (digit magnitudes; 0 selects the identity).
pub(crate) const ENTRIES: usize = 1 << (WINDOW - 1);

/// `√(−a)` (the smaller root): `u = S·x` maps circomlib's curve to the `a = −1` model.
const S: Base = MontFp!("6360561867910373094066688120553762416144456282423235903351243436111059670888");
/// `S⁻¹`.
const S_INV: Base = MontFp!("19976260017534050147865154401153945156910754191401137453807035910720341838527");
/// `2·d' = −2·d/a`.
const D2: Base = MontFp!("2475045175004185027501911298141836274980133961483913877536377848625489762075");

// ---- the a = −1 model ------------------------------------------------------------------

/// Extended coordinates `(X : Y : Z : T)`, `u = X/Z`, `y = Y/Z`, `T = XY/Z`, in the `a = −1`
/// model. After [`Completed::proj`] only `X, Y, Z` are meaningful (`T` is stale): such a point
/// may only be doubled.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ext {
    x: Base,
    y: Base,
    z: Base,
    t: Base,
}

/// `((X : Z), (Y : T))`: `u = X/Z`, `y = Y/T`, the output of an addition or doubling.
#[derive(Clone, Copy)]
pub(crate) struct Completed {
    x: Base,
    y: Base,
    z: Base,
    t: Base,
}

/// An addend in cached form `(Y + X, Y − X, Z, 2d'·T)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cached {
    ypx: Base,
    ymx: Base,
    z: Base,
    t2d: Base,
}

/// An affine addend in cached form `(y + u, y − u, 2d'·u·y)` (`Z = 1`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AffineCached {
    ypx: Base,
    ymx: Base,
    t2d: Base,
}

impl Ext {
    pub(crate) const IDENTITY: Ext = Ext { x: Base::ZERO, y: Base::ONE, z: Base::ONE, t: Base::ZERO };

    /// From arkworks' (circomlib-model) extended coordinates.
    pub(crate) fn from_projective(q: &BabyJubjubProjective) -> Ext {
        Ext { x: q.x * S, y: q.y, z: q.z, t: q.t * S }
    }

    /// Back to arkworks' (circomlib-model) extended coordinates. `self` must carry a valid `T`
    /// (the output of [`Completed::ext`]).
    pub(crate) fn to_projective(self) -> BabyJubjubProjective {
        BabyJubjubProjective::new_unchecked(self.x * S_INV, self.y, self.t * S_INV, self.z)
    }

    pub(crate) fn neg(self) -> Ext {
        Ext { x: -self.x, y: self.y, z: self.z, t: -self.t }
    }

    /// `2·self`; reads `X, Y, Z` only (dbl-2008-hwcd, `a = −1`: 4S).
    #[inline]
    pub(crate) fn double(&self) -> Completed {
        let xx = self.x.square();
        let yy = self.y.square();
        let zz2 = self.z.square().double();
        let xy2 = (self.x + self.y).square();
        let yy_plus_xx = yy + xx;
        let yy_minus_xx = yy - xx;
        Completed { x: xy2 - yy_plus_xx, y: yy_plus_xx, z: yy_minus_xx, t: zz2 - yy_minus_xx }
    }

    /// `self + q` (4M).
    #[inline]
    pub(crate) fn add_cached(&self, q: &Cached) -> Completed {
        let pp = (self.y + self.x) * q.ypx;
        let mm = (self.y - self.x) * q.ymx;
        let tt2d = self.t * q.t2d;
        let zz = self.z * q.z;
        let zz2 = zz.double();
        Completed { x: pp - mm, y: pp + mm, z: zz2 + tt2d, t: zz2 - tt2d }
    }

    /// `self − q` (4M).
    #[inline]
    pub(crate) fn sub_cached(&self, q: &Cached) -> Completed {
        let pm = (self.y + self.x) * q.ymx;
        let mp = (self.y - self.x) * q.ypx;
        let tt2d = self.t * q.t2d;
        let zz = self.z * q.z;
        let zz2 = zz.double();
        Completed { x: pm - mp, y: pm + mp, z: zz2 - tt2d, t: zz2 + tt2d }
    }

    /// `self + q` (3M).
    #[inline]
    pub(crate) fn add_affine(&self, q: &AffineCached) -> Completed {
        let pp = (self.y + self.x) * q.ypx;
        let mm = (self.y - self.x) * q.ymx;
        let tt2d = self.t * q.t2d;
        let zz2 = self.z.double();
        Completed { x: pp - mm, y: pp + mm, z: zz2 + tt2d, t: zz2 - tt2d }
    }

    /// `self − q` (3M).
    #[inline]
    pub(crate) fn sub_affine(&self, q: &AffineCached) -> Completed {
        let pm = (self.y + self.x) * q.ymx;
        let mp = (self.y - self.x) * q.ypx;
        let tt2d = self.t * q.t2d;
        let zz2 = self.z.double();
        Completed { x: pm - mp, y: pm + mp, z: zz2 - tt2d, t: zz2 + tt2d }
    }

    /// The cached form of `self` (1M). `self` must carry a valid `T`.
    pub(crate) fn cached(&self) -> Cached {
        Cached { ypx: self.y + self.x, ymx: self.y - self.x, z: self.z, t2d: self.t * D2 }
    }
}

impl Completed {
    /// To extended coordinates, with `T` (4M).
    #[inline]
    pub(crate) fn ext(&self) -> Ext {
        Ext { x: self.x * self.t, y: self.y * self.z, z: self.z * self.t, t: self.x * self.y }
    }

    /// To projective coordinates, leaving `T` stale (3M): only when a doubling comes next.
    #[inline]
    pub(crate) fn proj(&self) -> Ext {
        Ext { x: self.x * self.t, y: self.y * self.z, z: self.z * self.t, t: Base::ZERO }
    }
}

impl Cached {
    const IDENTITY: Cached = Cached { ypx: Base::ONE, ymx: Base::ONE, z: Base::ONE, t2d: Base::ZERO };

    fn select(a: &Cached, b: &Cached, c: Choice) -> Cached {
        Cached {
            ypx: select_base(&a.ypx, &b.ypx, c),
            ymx: select_base(&a.ymx, &b.ymx, c),
            z: select_base(&a.z, &b.z, c),
            t2d: select_base(&a.t2d, &b.t2d, c),
        }
    }

    /// `−self` where `c` is set, `self` otherwise, without branching on `c`.
    fn conditional_negate(&self, c: Choice) -> Cached {
        Cached {
            ypx: select_base(&self.ypx, &self.ymx, c),
            ymx: select_base(&self.ymx, &self.ypx, c),
            z: self.z,
            t2d: select_base(&self.t2d, &neg_base(&self.t2d), c),
        }
    }
}

impl AffineCached {
    pub(crate) const IDENTITY: AffineCached =
        AffineCached { ypx: Base::ONE, ymx: Base::ONE, t2d: Base::ZERO };

    /// From circomlib-model affine coordinates.
    fn from_xy(x: &Base, y: &Base) -> AffineCached {
        let u = *x * S;
        AffineCached { ypx: *y + u, ymx: *y - u, t2d: u * y * D2 }
    }

    fn select(a: &AffineCached, b: &AffineCached, c: Choice) -> AffineCached {
        AffineCached {
            ypx: select_base(&a.ypx, &b.ypx, c),
            ymx: select_base(&a.ymx, &b.ymx, c),
            t2d: select_base(&a.t2d, &b.t2d, c),
        }
    }

    fn conditional_negate(&self, c: Choice) -> AffineCached {
        AffineCached {
            ypx: select_base(&self.ypx, &self.ymx, c),
            ymx: select_base(&self.ymx, &self.ypx, c),
            t2d: select_base(&self.t2d, &neg_base(&self.t2d), c),
        }
    }
}

/// Affine cached forms of many points with one batched inversion.
pub(crate) fn affine_cached_batch(points: &[BabyJubjubProjective]) -> Vec<AffineCached> {
    BabyJubjubProjective::normalize_batch(points).iter().map(|a| AffineCached::from_xy(&a.x, &a.y)).collect()
}

// ---- constant-time building blocks -----------------------------------------------------

pub(crate) fn select_base(a: &Base, b: &Base, choice: Choice) -> Base {
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        *limb = u64::conditional_select(&a.0 .0[i], &b.0 .0[i], choice);
    }
    // Both inputs are valid Montgomery representations, so the selected limbs are too.
    Fp(BigInt(limbs), core::marker::PhantomData)
}

/// `−a` without branching on `a` (arkworks' `Neg` skips zero with a branch, and a selected
/// table entry is zero exactly when the secret digit is).
fn neg_base(a: &Base) -> Base {
    let m = <Base as PrimeField>::MODULUS.0;
    let x = a.0 .0;
    let mut r = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let d = (m[i] as u128).wrapping_sub(x[i] as u128 + borrow as u128);
        r[i] = d as u64;
        borrow = ((d >> 64) as u64) & 1;
    }
    // p − 0 = p is not canonical: the answer for zero is zero.
    let is_zero = (x[0] | x[1] | x[2] | x[3]).ct_eq(&0);
    for limb in r.iter_mut() {
        *limb = u64::conditional_select(limb, &0, is_zero);
    }
    Fp(BigInt(r), core::marker::PhantomData)
}

/// Signed four-bit digits of a scalar, least significant first: `s = Σ d_i·16^i` with
/// `d_i ∈ [−8, 8)` (the top digit is 0 or 1 as `s < 2^251`). Shifts, masks and arithmetic
/// only: no branch or index depends on `s`.
pub(crate) fn signed_digits(s: &Scalar) -> [i8; DIGITS] {
    let limbs = s.into_bigint().0;
    let mut out = [0i8; DIGITS];
    let mut carry = 0i8;
    for (i, d) in out.iter_mut().enumerate() {
        let v = ((limbs[i / 16] >> (4 * (i % 16))) & 0xf) as i8 + carry;
        carry = (v + 8) >> 4;
        *d = v - (carry << 4);
    }
    out
}

/// `(|d|, d < 0)` without branches.
#[inline]
fn magnitude_sign(d: i8) -> (u8, Choice) {
    let mask = d >> 7; // 0 or −1
    let mag = ((d ^ mask) - mask) as u8;
    (mag, Choice::from((mask & 1) as u8))
}

/// `d·P` from `table[j] = (j + 1)·P`, in constant time.
#[inline]
pub(crate) fn select_cached(table: &[Cached; ENTRIES], d: i8) -> Cached {
    let (mag, neg) = magnitude_sign(d);
    let mut r = Cached::IDENTITY;
    for (j, e) in table.iter().enumerate() {
        r = Cached::select(&r, e, (j as u8 + 1).ct_eq(&mag));
    }
    r.conditional_negate(neg)
}

#[inline]
pub(crate) fn select_affine(table: &[AffineCached; ENTRIES], d: i8) -> AffineCached {
    let (mag, neg) = magnitude_sign(d);
    let mut r = AffineCached::IDENTITY;
    for (j, e) in table.iter().enumerate() {
        r = AffineCached::select(&r, e, (j as u8 + 1).ct_eq(&mag));
    }
    r.conditional_negate(neg)
}

/// `[1·P, 2·P, …, 8·P]` in cached form.
pub(crate) fn cached_table(p: &BabyJubjubProjective) -> [Cached; ENTRIES] {
    let p1 = Ext::from_projective(p);
    let c1 = p1.cached();
    let mut table = [c1; ENTRIES];
    let mut acc = p1;
    for e in table.iter_mut().skip(1) {
        acc = acc.add_cached(&c1).ext();
        *e = acc.cached();
    }
    table
}

// ---- wNAF (variable time) ---------------------------------------------------------------

/// Window of the variable-time tables of the precomputed generators: odd multiples
/// `1·P, 3·P, …, 127·P` (64 affine entries), about one addition per 9 bits of a scalar.
pub(crate) const KNOWN_NAF_WINDOW: u32 = 8;
/// Window of the variable-time tables built per call: `1·P, 3·P, …, 15·P`.
pub(crate) const NAF_WINDOW: u32 = 5;

/// The width-`w` non-adjacent form of `k < 2^255`, least significant digit first: odd digits
/// in `(−2^(w−1), 2^(w−1))`, each followed by at least `w − 1` zeros. Returns the digits
/// and the length up to the last non-zero one.
pub(crate) fn wnaf(k: &BigInt<4>, w: u32) -> ([i8; 256], usize) {
    debug_assert!((2..=8).contains(&w));
    let limbs = [k.0[0], k.0[1], k.0[2], k.0[3], 0];
    let width = 1u64 << w;
    let mask = width - 1;
    let mut naf = [0i8; 256];
    let mut len = 0;
    let mut carry = 0u64;
    let mut pos = 0usize;
    while pos < 256 {
        let (idx, bit) = (pos / 64, pos % 64);
        let buf = if bit + w as usize <= 64 {
            limbs[idx] >> bit
        } else {
            (limbs[idx] >> bit) | (limbs[idx + 1] << (64 - bit))
        };
        let window = carry + (buf & mask);
        if window & 1 == 0 {
            // Even: a zero digit, and the carry (0 or 1) moves up with the window.
            pos += 1;
            continue;
        }
        if window < width / 2 {
            carry = 0;
            naf[pos] = window as i8;
        } else {
            carry = 1;
            naf[pos] = (window as i64 - width as i64) as i8;
        }
        len = pos + 1;
        pos += w as usize;
    }
    debug_assert_eq!(carry, 0, "k < 2^255 leaves no carry");
    (naf, len)
}

/// Cached odd multiples `1·P, 3·P, …, (2^(w−1) − 1)·P`.
pub(crate) fn odd_multiples(p: &Ext, w: u32) -> Vec<Cached> {
    let c1 = p.cached();
    let p2 = p.double().ext().cached();
    let mut out = Vec::with_capacity(1 << (w - 2));
    out.push(c1);
    let mut acc = *p;
    for _ in 1..1 << (w - 2) {
        acc = acc.add_cached(&p2).ext();
        out.push(acc.cached());
    }
    out
}

// ---- subgroup check --------------------------------------------------------------------

/// Whether `p`, a point on the curve, lies in the prime-order subgroup, by the definition:
/// `l·P = O`, with this module's arithmetic (a width-5 NAF of `l`: 250 doublings and 43
/// additions) in variable time, as `p` is public. The reference for the faster check the
/// decoders use ([`crate::subgroup::in_prime_subgroup`], one exponentiation in the base
/// field), which the tests compare with it. About twice as fast as arkworks'
/// `is_in_correct_subgroup_assuming_on_curve`; the formulas are complete on the whole curve,
/// so any curve point may be given.
pub fn in_prime_subgroup_by_order(p: &BabyJubjubAffine) -> bool {
    static L_NAF: OnceLock<([i8; 256], usize)> = OnceLock::new();
    let (naf, len) = L_NAF.get_or_init(|| wnaf(&Scalar::MODULUS, NAF_WINDOW));
    let u = p.x * S;
    let e = Ext { x: u, y: p.y, z: Base::ONE, t: u * p.y };
    let table = odd_multiples(&e, NAF_WINDOW);
    let mut acc = Ext::IDENTITY;
    for i in (0..*len).rev() {
        let d = naf[i];
        if i + 1 != *len {
            let dbl = acc.double();
            acc = if d != 0 { dbl.ext() } else { dbl.proj() };
        }
        if d != 0 {
            let idx = (d.unsigned_abs() / 2) as usize;
            let sum = if d > 0 { acc.add_cached(&table[idx]) } else { acc.sub_cached(&table[idx]) };
            acc = if i != 0 { sum.proj() } else { sum.ext() };
        }
    }
    // The identity is (0 : Z : Z : ·); (0, −1), of order 2, is (0 : −Z : Z : ·).
    acc.x.is_zero() && acc.y == acc.z
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use rand::SeedableRng;

    #[test]
    fn constants() {
        let a = Base::from(crate::params::COEFF_A);
        let d = Base::from(crate::params::COEFF_D);
        assert_eq!(S.square(), -a);
        assert_eq!(S * S_INV, Base::ONE);
        assert_eq!(D2, -(d * a.inverse().unwrap()).double());
        assert!(D2.legendre().is_qnr(), "d' must be a non-square for complete formulas");
    }

    #[test]
    fn signed_digits_recompose() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        for s in [
            Scalar::from(0u64),
            Scalar::from(8u64),
            Scalar::from(15u64),
            -Scalar::from(1u64),
            Scalar::rand(&mut r),
        ] {
            let d = signed_digits(&s);
            let mut acc = Scalar::from(0u64);
            for &x in d.iter().rev() {
                acc = acc * Scalar::from(16u64)
                    + Scalar::from(x.unsigned_abs() as u64)
                        * if x < 0 { -Scalar::from(1u64) } else { Scalar::from(1u64) };
            }
            assert_eq!(acc, s);
            assert!(d.iter().all(|&x| (-8..8).contains(&x)));
        }
    }

    #[test]
    fn neg_base_is_negation() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(4);
        for a in [Base::ZERO, Base::ONE, -Base::ONE, Base::rand(&mut r), Base::rand(&mut r)] {
            assert_eq!(neg_base(&a), -a);
        }
    }

    #[test]
    fn subgroup_check_matches_arkworks() {
        use ark_ec::AffineRepr;
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..200 {
            let mut bytes = [0u8; 32];
            rand::RngCore::fill_bytes(&mut r, &mut bytes);
            bytes[31] &= 0x8f;
            let Ok(p) = crate::encoding::decode_curve_point(&bytes) else { continue };
            for q in [
                p,
                p.mul_by_cofactor_to_group().into_affine(),
                (p.into_group() * Scalar::from(4u64)).into_affine(),
            ] {
                let want = q.is_in_correct_subgroup_assuming_on_curve();
                assert_eq!(in_prime_subgroup_by_order(&q), want);
                if want {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        assert!(inside > 50 && outside > 50);
        assert!(in_prime_subgroup_by_order(&BabyJubjubAffine::zero()));
        let two_torsion = BabyJubjubAffine::new_unchecked(Base::ZERO, -Base::ONE);
        assert!(!in_prime_subgroup_by_order(&two_torsion));
    }

    #[test]
    fn wnaf_recomposes() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let half = Scalar::MODULUS_MINUS_ONE_DIV_TWO;
        let mut cases = vec![BigInt::from(0u64), BigInt::from(1u64), BigInt::from(u64::MAX), half];
        cases.extend((0..20).map(|_| Scalar::rand(&mut r).into_bigint()));
        for k in cases {
            for w in [NAF_WINDOW, KNOWN_NAF_WINDOW] {
                let (naf, len) = wnaf(&k, w);
                let mut acc = Scalar::from(0u64);
                for &d in naf[..len].iter().rev() {
                    acc = acc.double()
                        + Scalar::from(d.unsigned_abs() as u64)
                            * if d < 0 { -Scalar::from(1u64) } else { Scalar::from(1u64) };
                }
                assert_eq!(acc, Scalar::from(k), "w={w}");
                assert!(naf[len..].iter().all(|&d| d == 0));
                for (i, &d) in naf.iter().enumerate() {
                    if d != 0 {
                        assert!(d % 2 != 0 && (d.unsigned_abs() as u32) < 1 << (w - 1));
                        assert!(naf[i + 1..(i + w as usize).min(256)].iter().all(|&e| e == 0));
                    }
                }
            }
        }
    }
}
