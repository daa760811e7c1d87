//! Scalar multiplication: constant-time for secret scalars, and the variable-time Straus
//! engine behind [`Point::msm_vartime`] for small public multi-exponentiations.
//!
//! # Constant time
//!
//! Code on the constant-time paths ([`FixedBaseTable::mul`], [`Point::mul_ct`],
//! [`Point::msm_ct`], [`Point::mul_base`]) never branches on, or indexes memory by, a bit of a
//! secret scalar: a scalar is split into 64 signed four-bit digits in `[−8, 8)` by shifts,
//! masks and a branch-free carry, each table entry is picked by a linear scan that
//! `subtle::ConditionallySelectable`-selects every limb of every candidate, and a negative
//! digit negates the pick with another select. The addition and doubling formulas below are
//! complete on Baby Jubjub (no special cases), so the sequence of field operations is fixed
//! by the public inputs alone (the number of terms, and which bases are the precomputed
//! generators `Base8` and Pedersen's `H`).
//!
//! Caveat: the field arithmetic underneath is arkworks' Montgomery arithmetic, which is not
//! audited as constant-time (for example, its final conditional subtraction is a branch). This
//! layer removes the scalar-dependent control flow that *we* would otherwise add; it does
//! not make the arithmetic itself constant-time.
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

use crate::curve::{BabyJubjubProjective, Base, Point, Scalar};

const WINDOW: usize = 4;
const DIGITS: usize = 64; // 64 · 4 = 256 ≥ 251 bits of l.
/// Entries per signed-window table: `1·P … 8·P` (digit magnitudes; 0 selects the identity).
const ENTRIES: usize = 1 << (WINDOW - 1);

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
    pub(crate) fn from_point(p: &Point) -> Ext {
        let q = p.to_projective();
        Ext { x: q.x * S, y: q.y, z: q.z, t: q.t * S }
    }

    /// Back to a [`Point`]. `self` must carry a valid `T` (the output of [`Completed::ext`]).
    pub(crate) fn to_point(self) -> Point {
        Point(BabyJubjubProjective::new_unchecked(self.x * S_INV, self.y, self.t * S_INV, self.z))
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
    const IDENTITY: AffineCached = AffineCached { ypx: Base::ONE, ymx: Base::ONE, t2d: Base::ZERO };

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
fn affine_cached_batch(points: &[BabyJubjubProjective]) -> Vec<AffineCached> {
    BabyJubjubProjective::normalize_batch(points).iter().map(|a| AffineCached::from_xy(&a.x, &a.y)).collect()
}

// ---- constant-time building blocks -----------------------------------------------------

fn select_base(a: &Base, b: &Base, choice: Choice) -> Base {
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
fn signed_digits(s: &Scalar) -> [i8; DIGITS] {
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
fn select_cached(table: &[Cached; ENTRIES], d: i8) -> Cached {
    let (mag, neg) = magnitude_sign(d);
    let mut r = Cached::IDENTITY;
    for (j, e) in table.iter().enumerate() {
        r = Cached::select(&r, e, (j as u8 + 1).ct_eq(&mag));
    }
    r.conditional_negate(neg)
}

#[inline]
fn select_affine(table: &[AffineCached; ENTRIES], d: i8) -> AffineCached {
    let (mag, neg) = magnitude_sign(d);
    let mut r = AffineCached::IDENTITY;
    for (j, e) in table.iter().enumerate() {
        r = AffineCached::select(&r, e, (j as u8 + 1).ct_eq(&mag));
    }
    r.conditional_negate(neg)
}

/// `[1·P, 2·P, …, 8·P]` in cached form.
fn cached_table(p: &Point) -> [Cached; ENTRIES] {
    let p1 = Ext::from_point(p);
    let c1 = p1.cached();
    let mut table = [c1; ENTRIES];
    let mut acc = p1;
    for e in table.iter_mut().skip(1) {
        acc = acc.add_cached(&c1).ext();
        *e = acc.cached();
    }
    table
}

// ---- fixed-base comb -------------------------------------------------------------------

/// A fixed-base comb for one point `P`: `table[i][j] = (j + 1)·16^i·P` in affine cached form,
/// 64 × 8 entries (48 KiB). A multiplication is 64 mixed additions of a constant-time-selected
/// signed multiple and no doublings.
#[derive(Clone)]
pub struct FixedBaseTable {
    table: Vec<[AffineCached; ENTRIES]>,
}

impl core::fmt::Debug for FixedBaseTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FixedBaseTable").field("windows", &self.table.len()).finish()
    }
}

impl FixedBaseTable {
    /// Precomputes the table for `base` (about 500 additions and one batched inversion).
    pub fn new(base: &Point) -> Self {
        let mut proj = Vec::with_capacity(DIGITS * ENTRIES);
        let mut b = base.to_projective();
        for _ in 0..DIGITS {
            let mut acc = b;
            proj.push(acc);
            for _ in 1..ENTRIES {
                acc += b;
                proj.push(acc);
            }
            // acc is 8·b; the next row starts at 16·b.
            b = acc.double();
        }
        let table = affine_cached_batch(&proj)
            .chunks_exact(ENTRIES)
            .map(|c| {
                let mut row = [AffineCached::IDENTITY; ENTRIES];
                row.copy_from_slice(c);
                row
            })
            .collect();
        FixedBaseTable { table }
    }

    /// `acc + s·P` in the `a = −1` model, with `T`.
    fn mul_add(&self, s: &Scalar, mut acc: Ext) -> Ext {
        let d = signed_digits(s);
        for (row, &digit) in self.table.iter().zip(d.iter()) {
            acc = acc.add_affine(&select_affine(row, digit)).ext();
        }
        acc
    }

    /// `s·P` in constant time (see the module documentation).
    pub fn mul(&self, s: &Scalar) -> Point {
        self.mul_add(s, Ext::IDENTITY).to_point()
    }
}

// ---- precomputed generators ------------------------------------------------------------

/// Window of the variable-time tables of the precomputed generators: odd multiples
/// `1·P, 3·P, …, 127·P` (64 affine entries), about one addition per 9 bits of a scalar.
const KNOWN_NAF_WINDOW: u32 = 8;
/// Window of the variable-time tables built per call: `1·P, 3·P, …, 15·P`.
const NAF_WINDOW: u32 = 5;

/// A generator with precomputed tables: the comb for constant-time use and odd multiples
/// for variable-time Straus.
struct Known {
    point: Point,
    comb: FixedBaseTable,
    naf: Vec<AffineCached>,
}

impl Known {
    fn new(point: Point) -> Self {
        let p = point.to_projective();
        let p2 = p.double();
        let mut odd = Vec::with_capacity(1 << (KNOWN_NAF_WINDOW - 2));
        let mut acc = p;
        for _ in 0..1 << (KNOWN_NAF_WINDOW - 2) {
            odd.push(acc);
            acc += p2;
        }
        Known { point, comb: FixedBaseTable::new(&point), naf: affine_cached_batch(&odd) }
    }
}

/// `Base8` and Pedersen's blinding base `H`, the two bases of nearly every statement and
/// commitment zeenot makes, with tables built on first use (about a millisecond).
fn known() -> &'static [Known; 2] {
    static KNOWN: OnceLock<[Known; 2]> = OnceLock::new();
    KNOWN.get_or_init(|| [Known::new(Point::generator()), Known::new(crate::pedersen::blinding_generator())])
}

/// Which precomputed generator `p` is, if any. `p` is public: comparing it is not a leak.
fn known_index(p: &Point) -> Option<usize> {
    known().iter().position(|k| k.point == *p)
}

/// Whether `p` is one of the generators with precomputed tables (`Base8` and Pedersen's `H`):
/// a constant-time multiple of one costs a comb (64 mixed additions, no doublings), about a
/// fifth of a variable-base multiplication, and [`Point::msm_vartime`] uses its width-8 table.
pub fn is_precomputed(p: &Point) -> bool {
    known_index(p).is_some()
}

/// `s·Base8` in constant time via the fixed-base comb.
pub(crate) fn base8_mul(s: &Scalar) -> Point {
    known()[0].comb.mul(s)
}

// ---- constant-time variable-base -------------------------------------------------------

/// `s·P` for any `P` in constant time (a comb when `P` is `Base8` or `H`, otherwise signed
/// 4-bit windows: 252 doublings and 64 additions of a constant-time-selected multiple).
pub(crate) fn variable_base_mul(p: &Point, s: &Scalar) -> Point {
    multi_mul(core::slice::from_ref(p), core::slice::from_ref(s))
}

/// `Σ scalars[i]·points[i]` in constant time. Terms whose base is `Base8` or `H` go through
/// their fixed-base combs (no doublings); the rest share one run of 252 doublings (Straus),
/// each adding one constant-time-selected signed multiple from a per-point table per 4-bit
/// window. The sequence of operations depends on the number of terms and on which bases are
/// precomputed generators, both public, never on a scalar.
pub(crate) fn multi_mul(points: &[Point], scalars: &[Scalar]) -> Point {
    let n = points.len().min(scalars.len());
    let mut fixed = Ext::IDENTITY;
    let mut tables = Vec::with_capacity(n);
    let mut digits = Vec::with_capacity(n);
    for (p, s) in points[..n].iter().zip(&scalars[..n]) {
        match known_index(p) {
            Some(k) => fixed = known()[k].comb.mul_add(s, fixed),
            None => {
                tables.push(cached_table(p));
                digits.push(signed_digits(s));
            }
        }
    }
    if tables.is_empty() {
        return fixed.to_point();
    }
    let m = tables.len();
    let mut acc = Ext::IDENTITY;
    for i in (0..DIGITS).rev() {
        if i != DIGITS - 1 {
            for _ in 0..WINDOW - 1 {
                acc = acc.double().proj();
            }
            acc = acc.double().ext();
        }
        for (j, (table, d)) in tables.iter().zip(&digits).enumerate() {
            let sum = acc.add_cached(&select_cached(table, d[i]));
            // Only the last addition before a doubling may drop T.
            acc = if j + 1 == m && i != 0 { sum.proj() } else { sum.ext() };
        }
    }
    acc.add_cached(&fixed.cached()).ext().to_point()
}

// ---- variable-time Straus --------------------------------------------------------------

/// [`Point::msm_vartime`] uses Straus' method (below) up to this many terms and arkworks'
/// Pippenger above. Single-threaded on a 2-core AMD EPYC, Straus was ahead up to 512 terms
/// (2.2× at 64, 1.8× at 128–256, 1.3× at 512) and behind at 1024; with arkworks' `parallel`
/// feature Pippenger also gets the other cores.
pub const STRAUS_MAX_TERMS: usize = 512;

/// The width-`w` non-adjacent form of `k < 2^255`, least significant digit first: odd digits
/// in `(−2^(w−1), 2^(w−1))`, each followed by at least `w − 1` zeros. Returns the digits
/// and the length up to the last non-zero one.
fn wnaf(k: &BigInt<4>, w: u32) -> ([i8; 256], usize) {
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

enum NafTable<'a> {
    Known(&'a [AffineCached]),
    Owned(Vec<Cached>),
}

/// Cached odd multiples `1·P, 3·P, …, (2^(w−1) − 1)·P`.
fn odd_multiples(p: &Ext, w: u32) -> Vec<Cached> {
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

/// `Σ scalars[i]·points[i]` for **public** scalars, by Straus' method over wNAF digits:
/// zero terms are dropped, a scalar above `l/2` is negated together with its base (so every
/// scalar is at most 250 bits, and a short negative coefficient such as a batch weight `−ρ`
/// costs what `ρ` does), a coefficient `±1` is added directly, `Base8` and `H` use
/// precomputed width-8 tables and every other base a width-5 table built here. When every
/// term left is `Base8` or `H`, their combs (no doublings) are used instead. Its running
/// time depends on the scalars: never use it on secrets.
pub(crate) fn straus_vartime(points: &[Point], scalars: &[Scalar]) -> Point {
    let half = Scalar::MODULUS_MINUS_ONE_DIV_TWO;
    let mut ones = Ext::IDENTITY;
    let mut tables: Vec<NafTable<'_>> = Vec::new();
    let mut nafs: Vec<([i8; 256], usize)> = Vec::new();
    let mut known_terms: Vec<(usize, Scalar)> = Vec::new();
    for (p, s) in points.iter().zip(scalars) {
        if s.is_zero() || p.is_identity() {
            continue;
        }
        let mut k = s.into_bigint();
        let mut base = Ext::from_point(p);
        if k > half {
            k = (-*s).into_bigint();
            base = base.neg();
        }
        if k == BigInt::one() {
            ones = ones.add_cached(&base.cached()).ext();
            continue;
        }
        match known_index(p) {
            Some(i) => known_terms.push((i, *s)),
            None => {
                tables.push(NafTable::Owned(odd_multiples(&base, NAF_WINDOW)));
                nafs.push(wnaf(&k, NAF_WINDOW));
            }
        }
    }
    if tables.is_empty() {
        // Only precomputed generators: 64 additions each and no doublings.
        return known_terms.iter().fold(ones, |acc, (i, s)| known()[*i].comb.mul_add(s, acc)).to_point();
    }
    for (i, s) in known_terms {
        // Sharing the doublings, a width-8 NAF costs about 28 additions.
        let (k, negated) =
            if s.into_bigint() > half { ((-s).into_bigint(), true) } else { (s.into_bigint(), false) };
        let mut naf = wnaf(&k, KNOWN_NAF_WINDOW);
        if negated {
            naf.0.iter_mut().for_each(|d| *d = -*d);
        }
        tables.push(NafTable::Known(&known()[i].naf));
        nafs.push(naf);
    }
    let len = nafs.iter().map(|n| n.1).max().unwrap_or(0);
    let mut acc = Ext::IDENTITY;
    for i in (0..len).rev() {
        let adds = nafs.iter().filter(|n| n.0[i] != 0).count();
        if i + 1 != len {
            // T only when an addition follows, or at the very end.
            let dbl = acc.double();
            acc = if adds > 0 || i == 0 { dbl.ext() } else { dbl.proj() };
        }
        let mut left = adds;
        for (table, naf) in tables.iter().zip(&nafs) {
            let d = naf.0[i];
            if d == 0 {
                continue;
            }
            let idx = (d.unsigned_abs() / 2) as usize;
            let sum = match (table, d > 0) {
                (NafTable::Known(t), true) => acc.add_affine(&t[idx]),
                (NafTable::Known(t), false) => acc.sub_affine(&t[idx]),
                (NafTable::Owned(t), true) => acc.add_cached(&t[idx]),
                (NafTable::Owned(t), false) => acc.sub_cached(&t[idx]),
            };
            left -= 1;
            acc = if left == 0 && i != 0 { sum.proj() } else { sum.ext() };
        }
    }
    // The last step (at bit 0) always produced `T`, so `acc` can be added to.
    acc.add_cached(&ones.cached()).ext().to_point()
}

// ---- subgroup check --------------------------------------------------------------------

/// Whether `p`, a point on the curve, lies in the prime-order subgroup: `l·P = O`, with this
/// module's arithmetic (a width-5 NAF of `l`: 250 doublings and 43 additions) in variable
/// time, as `p` is public. About twice as fast as arkworks'
/// `is_in_correct_subgroup_assuming_on_curve`, which is what [`Point::decode`] spends most of
/// its time in; the formulas are complete on the whole curve, so any curve point may be given.
pub fn in_prime_subgroup(p: &crate::curve::BabyJubjubAffine) -> bool {
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

/// `Σ points[i]` over the `i` with `bits[i] = 1` (bits 0 or 1), in constant time: every point
/// is added, replaced by the identity where its bit is 0 without a secret-dependent branch or
/// index (arkworks' twisted Edwards addition is unified and branch-free).
pub(crate) fn masked_sum(points: &[Point], bits: &[u8]) -> Point {
    let id = BabyJubjubProjective::zero();
    let mut acc = id;
    for (p, &b) in points.iter().zip(bits) {
        let c = Choice::from(b & 1);
        let q = BabyJubjubProjective::new_unchecked(
            select_base(&id.x, &p.0.x, c),
            select_base(&id.y, &p.0.y, c),
            select_base(&id.t, &p.0.t, c),
            select_base(&id.z, &p.0.z, c),
        );
        acc += q;
    }
    Point(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use rand::SeedableRng;

    fn naive(points: &[Point], scalars: &[Scalar]) -> Point {
        points.iter().zip(scalars).map(|(p, s)| p.mul_vartime(s)).sum()
    }

    #[test]
    fn constants() {
        let a = Base::from(crate::curve::COEFF_A);
        let d = Base::from(crate::curve::COEFF_D);
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
            let Ok(p) = crate::curve::decode_curve_point(&bytes) else { continue };
            for q in [
                p,
                p.mul_by_cofactor_to_group().into_affine(),
                (p.into_group() * Scalar::from(4u64)).into_affine(),
            ] {
                let want = q.is_in_correct_subgroup_assuming_on_curve();
                assert_eq!(in_prime_subgroup(&q), want);
                if want {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        assert!(inside > 50 && outside > 50);
        assert!(in_prime_subgroup(&crate::curve::BabyJubjubAffine::zero()));
        let two_torsion = crate::curve::BabyJubjubAffine::new_unchecked(Base::ZERO, -Base::ONE);
        assert!(!in_prime_subgroup(&two_torsion));
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

    #[test]
    fn all_paths_match_naive() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let g = Point::generator();
        let h = crate::pedersen::blinding_generator();
        let one = Scalar::from(1u64);
        let p = Point::mul_base(&Scalar::rand(&mut r));
        let q = p.mul_vartime(&Scalar::rand(&mut r));
        let specials = [
            Scalar::from(0u64),
            one,
            -one,
            Scalar::from(2u64),
            -Scalar::from(2u64),
            Scalar::from(u64::MAX),
            -Scalar::from(u128::MAX),
        ];
        let pool = [g, h, p, q, Point::identity(), -g, p];
        for n in 0..12usize {
            for trial in 0..6 {
                let pts: Vec<Point> = (0..n).map(|i| pool[(i * 3 + trial) % pool.len()]).collect();
                let scs: Vec<Scalar> = (0..n)
                    .map(|i| {
                        if (i + trial) % 3 == 0 {
                            specials[(i + trial) % specials.len()]
                        } else {
                            Scalar::rand(&mut r)
                        }
                    })
                    .collect();
                let want = naive(&pts, &scs);
                assert_eq!(multi_mul(&pts, &scs), want, "ct n={n} trial={trial}");
                assert_eq!(straus_vartime(&pts, &scs), want, "vartime n={n} trial={trial}");
            }
        }
        // Only precomputed generators (the comb path of `straus_vartime`), with and without ±1.
        for pts in [vec![g], vec![h], vec![g, h], vec![g, h, p], vec![h, g, g]] {
            for scs in [
                pts.iter().map(|_| Scalar::rand(&mut r)).collect::<Vec<_>>(),
                pts.iter()
                    .enumerate()
                    .map(|(i, _)| if i == 0 { -one } else { Scalar::rand(&mut r) })
                    .collect(),
            ] {
                assert_eq!(straus_vartime(&pts, &scs), naive(&pts, &scs));
                assert_eq!(multi_mul(&pts, &scs), naive(&pts, &scs));
            }
        }
        for s in specials.iter().copied().chain((0..4).map(|_| Scalar::rand(&mut r))) {
            for b in [g, h, p, Point::identity()] {
                assert_eq!(variable_base_mul(&b, &s), b.mul_vartime(&s));
                assert_eq!(FixedBaseTable::new(&b).mul(&s), b.mul_vartime(&s));
            }
            assert_eq!(base8_mul(&s), g.mul_vartime(&s));
        }
    }
}
