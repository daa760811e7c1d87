//! Baby Jubjub in circomlib's representation: the curve, the `Base8` generator, the
//! prime-order subgroup, and circomlib's packed point encoding.
//!
//! # Curve model
//!
//! circomlib (and EIP-2494) write Baby Jubjub as the twisted Edwards curve
//! `a·x² + y² = 1 + d·x²·y²` over BN254's scalar field `Fq` with `a = 168700`, `d = 168696`.
//! arkworks' `ark_ed_on_bn254::EdwardsConfig` uses the isomorphic *scaled* model
//! `x'² + y² = 1 + (d/a)·x'²·y²` (its `COEFF_A = 1`, `COEFF_D = 168696/168700`), whose points
//! are `(x·√a, y)`. So that every coordinate this crate exposes, hashes or encodes is a
//! circomlib coordinate (and a circuit can use the same numbers), [`BabyJubjubConfig`] is an
//! arkworks [`TECurveConfig`] over `ark_ed_on_bn254`'s own fields with circomlib's `a` and `d`.
//! [`Point::to_ed_on_bn254`] / [`Point::from_ed_on_bn254`] map to and from arkworks' model.
//!
//! arkworks' twisted Edwards formulas (`add-2008-hwcd`, `madd-2008-hwcd`, `dbl-2008-hwcd`) are
//! unified; as `a` is a square and `d` is not, they are complete on this curve.
//!
//! # Group
//!
//! The curve has `8·l` points, `l` = [`SUBGROUP_ORDER_DEC`] (a 251-bit prime, the modulus of
//! `ark_ed_on_bn254::Fr`, our [`Scalar`]). [`Point`] only ever holds an element of the
//! subgroup of order `l`, which circomlib's `Base8` generates.
//!
//! # Encoding (circomlibjs `babyJub.packPoint`)
//!
//! 32 bytes: `y` little-endian (canonical, `y < p`), and bit 7 of byte 31 set iff
//! `x > (p-1)/2`. [`Point::decode`] rejects `y ≥ p`, a `y` with no curve point, the sign bit
//! set when `x = 0`, and any point outside the prime-order subgroup. circomlibjs'
//! `unpackPoint` cannot unpack the identity (it rejects `x = 0`); this crate can (its
//! encoding is `01 00 … 00`), and types that must not be the identity reject it themselves.

use core::fmt;
use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use ark_ec::models::CurveConfig;
use ark_ec::twisted_edwards::{Affine, MontCurveConfig, Projective, TECurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInteger, Field, MontFp, PrimeField, UniformRand, Zero};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// Baby Jubjub's base field: BN254's scalar field (`ark_bn254::Fr`), the field circuits work in.
pub type Base = ark_ed_on_bn254::Fq;

/// Scalars of the prime-order subgroup: integers modulo `l` (`ark_ed_on_bn254::Fr`).
pub type Scalar = ark_ed_on_bn254::Fr;

/// Affine points of [`BabyJubjubConfig`] (arkworks type).
pub type BabyJubjubAffine = Affine<BabyJubjubConfig>;

/// Extended projective points of [`BabyJubjubConfig`] (arkworks type).
pub type BabyJubjubProjective = Projective<BabyJubjubConfig>;

/// Length of an encoded point.
pub const POINT_LEN: usize = 32;

/// Length of an encoded scalar or base-field element.
pub const SCALAR_LEN: usize = 32;

/// circomlib's `a` coefficient.
pub const COEFF_A: u64 = 168700;

/// circomlib's `d` coefficient.
pub const COEFF_D: u64 = 168696;

/// The order `l` of the prime-order subgroup, in decimal (circomlibjs `babyJub.subOrder`).
pub const SUBGROUP_ORDER_DEC: &str =
    "2736030358979909402780800718157159386076813972158567259200215660948447373041";

/// `Base8.x` in decimal (circomlibjs `babyJub.Base8[0]`).
pub const BASE8_X_DEC: &str = "5299619240641551281634865583518297030282874472190772894086521144482721001553";

/// `Base8.y` in decimal (circomlibjs `babyJub.Base8[1]`).
pub const BASE8_Y_DEC: &str = "16950150798460657717958625567821834550301663161624707787222815936182638968203";

const BASE8_X: Base = MontFp!("5299619240641551281634865583518297030282874472190772894086521144482721001553");
const BASE8_Y: Base =
    MontFp!("16950150798460657717958625567821834550301663161624707787222815936182638968203");

/// circomlib's `Generator` (= a point of order `8·l`; `Base8 = 8·Generator`), for tests and
/// interoperability only: nothing in this crate uses it as a base.
pub const GENERATOR_X_DEC: &str =
    "995203441582195749578291179787384436505546430278305826713579947235728471134";
/// `Generator.y` in decimal, see [`GENERATOR_X_DEC`].
pub const GENERATOR_Y_DEC: &str =
    "5472060717959818805561601436314318772137091100104008585924551046643952123905";

/// arkworks curve configuration for Baby Jubjub in circomlib's model
/// (`a = 168700`, `d = 168696`, generator `Base8`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct BabyJubjubConfig;

impl CurveConfig for BabyJubjubConfig {
    type BaseField = Base;
    type ScalarField = Scalar;

    const COFACTOR: &'static [u64] = &[8];

    // 8^{-1} mod l.
    const COFACTOR_INV: Scalar =
        MontFp!("2394026564107420727433200628387514462817212225638746351800188703329891451411");
}

impl TECurveConfig for BabyJubjubConfig {
    const COEFF_A: Base = MontFp!("168700");
    const COEFF_D: Base = MontFp!("168696");
    const GENERATOR: BabyJubjubAffine = BabyJubjubAffine::new_unchecked(BASE8_X, BASE8_Y);
    type MontCurveConfig = BabyJubjubConfig;
}

impl MontCurveConfig for BabyJubjubConfig {
    // Montgomery form B·v² = u³ + A·u² + u with A = 2(a+d)/(a-d), B = 4/(a-d).
    const COEFF_A: Base = MontFp!("168698");
    const COEFF_B: Base = MontFp!("1");
    type TECurveConfig = BabyJubjubConfig;
}

/// An element of Baby Jubjub's prime-order subgroup (the group generated by `Base8`).
///
/// Construction is checked: [`Point::decode`], [`Point::from_xy`] and
/// [`Point::from_ed_on_bn254`] reject points off the curve or outside the subgroup, so every
/// `Point` is a subgroup element. The identity is a valid `Point`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point(pub(crate) BabyJubjubProjective);

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point(")?;
        for b in self.encode() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl Default for Point {
    fn default() -> Self {
        Self::identity()
    }
}

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

/// Recovers the curve point with this y and sign without any subgroup check.
fn decompress(y: Base, sign: bool) -> Result<BabyJubjubAffine> {
    let a = <BabyJubjubConfig as TECurveConfig>::COEFF_A;
    let d = <BabyJubjubConfig as TECurveConfig>::COEFF_D;
    let y2 = y.square();
    // a·x² + y² = 1 + d·x²·y²  ⇒  x² = (1 − y²) / (a − d·y²). a/d is a non-square, so the
    // denominator never vanishes; handle it anyway.
    let den = (a - d * y2).inverse().ok_or(Error::NotOnCurve)?;
    let x2 = (Base::ONE - y2) * den;
    let mut x = x2.sqrt().ok_or(Error::NotOnCurve)?;
    if x.is_zero() && sign {
        return Err(Error::NonCanonicalSign);
    }
    if is_negative(&x) != sign {
        x = -x;
    }
    let p = BabyJubjubAffine::new_unchecked(x, y);
    debug_assert!(p.is_on_curve());
    Ok(p)
}

/// Decodes circomlib's packed encoding to a curve point, checking canonicity and the curve
/// equation but *not* subgroup membership.
pub(crate) fn decode_curve_point(bytes: &[u8; 32]) -> Result<BabyJubjubAffine> {
    let sign = bytes[31] & 0x80 != 0;
    let mut yb = *bytes;
    yb[31] &= 0x7f;
    let y = decode_base(&yb)?;
    decompress(y, sign)
}

pub(crate) fn encode_affine(p: &BabyJubjubAffine) -> [u8; 32] {
    let mut out = encode_base(&p.y);
    if is_negative(&p.x) {
        out[31] |= 0x80;
    }
    out
}

/// Terms per task of a long constant-time multi-scalar multiplication ([`Point::msm_ct`]): a
/// chunk's 252 shared doublings are then under 0.5 % of its work.
const CT_CHUNK: usize = 1024;

impl Point {
    /// The identity `(0, 1)`.
    pub fn identity() -> Self {
        Point(BabyJubjubProjective::zero())
    }

    /// circomlib's `Base8`, the generator of the prime-order subgroup.
    pub fn generator() -> Self {
        Point(BabyJubjubConfig::GENERATOR.into())
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.0.is_zero()
    }

    /// circomlibjs `packPoint`: see the module documentation.
    pub fn encode(&self) -> [u8; 32] {
        encode_affine(&self.to_affine())
    }

    /// Checked inverse of [`Point::encode`]: rejects non-canonical `y`, off-curve points, the
    /// sign bit with `x = 0`, and points outside the prime-order subgroup.
    pub fn decode(bytes: &[u8; 32]) -> Result<Self> {
        let p = decode_curve_point(bytes)?;
        Self::from_curve_affine(p)
    }

    /// [`Point::decode`] from a slice, also checking the length.
    pub fn decode_slice(bytes: &[u8]) -> Result<Self> {
        Self::decode(&fixed::<32>(bytes)?)
    }

    /// Checks the prime-order subgroup (`l·P = 0`) for a point known to be on the curve.
    fn from_curve_affine(p: BabyJubjubAffine) -> Result<Self> {
        if !crate::ct::in_prime_subgroup(&p) {
            return Err(Error::NotInSubgroup);
        }
        Ok(Point(p.into()))
    }

    /// A point from circomlib affine coordinates, checked on the curve and in the subgroup.
    pub fn from_xy(x: Base, y: Base) -> Result<Self> {
        let p = BabyJubjubAffine::new_unchecked(x, y);
        if !p.is_on_curve() {
            return Err(Error::NotOnCurve);
        }
        Self::from_curve_affine(p)
    }

    /// The affine x-coordinate (circomlib's model).
    pub fn x(&self) -> Base {
        self.to_affine().x
    }

    /// The affine y-coordinate.
    pub fn y(&self) -> Base {
        self.to_affine().y
    }

    /// The affine coordinates `(x, y)`.
    pub fn xy(&self) -> (Base, Base) {
        let a = self.to_affine();
        (a.x, a.y)
    }

    /// The arkworks affine point in circomlib's model ([`BabyJubjubConfig`]).
    pub fn to_affine(&self) -> BabyJubjubAffine {
        affine_batch(std::slice::from_ref(self))[0]
    }

    /// The arkworks projective point in circomlib's model.
    pub fn to_projective(&self) -> BabyJubjubProjective {
        self.0
    }

    /// A point from an arkworks affine point in circomlib's model, checked.
    pub fn from_affine(p: BabyJubjubAffine) -> Result<Self> {
        Self::from_xy(p.x, p.y)
    }

    /// Maps to arkworks' own `ed_on_bn254` model (`x' = √a·x`, see the module documentation).
    pub fn to_ed_on_bn254(&self) -> ark_ed_on_bn254::EdwardsAffine {
        let (x, y) = self.xy();
        ark_ed_on_bn254::EdwardsAffine::new_unchecked(x * sqrt_a(), y)
    }

    /// Maps from arkworks' own `ed_on_bn254` model, checked on the curve and in the subgroup.
    pub fn from_ed_on_bn254(p: &ark_ed_on_bn254::EdwardsAffine) -> Result<Self> {
        let inv = sqrt_a().inverse().ok_or(Error::NotOnCurve)?;
        Self::from_xy(p.x * inv, p.y)
    }

    /// `s·self` in variable time (wNAF on the a = −1 model; combs for `Base8` and `H`): only
    /// for *public* scalars. About twice as fast as arkworks' double-and-add, which matters to
    /// the Bulletproofs prover's generator folding (one of these per generator and round).
    pub fn mul_vartime(&self, s: &Scalar) -> Self {
        crate::ct::straus_vartime(std::slice::from_ref(self), std::slice::from_ref(s))
    }

    /// `Σ scalars[i]·bases[i]` in variable time: only for *public* scalars (verification).
    /// Up to [`crate::ct::STRAUS_MAX_TERMS`] terms by Straus' method over wNAF digits (precomputed
    /// tables for `Base8` and Pedersen's `H`, see [`crate::ct`]), more by Pippenger's.
    /// Extra scalars or bases beyond the shorter slice are ignored.
    pub fn msm_vartime(bases: &[Point], scalars: &[Scalar]) -> Self {
        use ark_ec::VariableBaseMSM;
        let n = bases.len().min(scalars.len());
        if n <= crate::ct::STRAUS_MAX_TERMS {
            return crate::ct::straus_vartime(&bases[..n], &scalars[..n]);
        }
        let proj: Vec<BabyJubjubProjective> = bases[..n].iter().map(|p| p.0).collect();
        let affine = BabyJubjubProjective::normalize_batch(&proj);
        // The sum of subgroup multiples stays in the subgroup.
        Point(BabyJubjubProjective::msm_unchecked(&affine, &scalars[..n]))
    }

    /// `Σ bases[i]` over the `i` with `bits[i] = 1` (each bit 0 or 1), in constant time: for
    /// sums selected by secret bits (a Bulletproof's `⟨a_L, G⟩`). Extra entries are ignored.
    pub fn masked_sum(bases: &[Point], bits: &[u8]) -> Self {
        crate::ct::masked_sum(bases, bits)
    }

    /// `Σ scalars[i]·bases[i]` in constant time (Straus with shared doublings and signed 4-bit
    /// windows selected without secret-dependent branches or indices; `Base8` and Pedersen's
    /// `H` through precomputed combs, see [`crate::ct`]): for secret scalars.
    /// Long inputs are split into chunks of 1,024 terms spread over the cores (each chunk
    /// constant time, the split a function of the length alone).
    pub fn msm_ct(bases: &[Point], scalars: &[Scalar]) -> Self {
        use rayon::prelude::*;
        let n = bases.len().min(scalars.len());
        if n <= 2 * CT_CHUNK {
            return crate::ct::multi_mul(bases, scalars);
        }
        bases[..n]
            .par_chunks(CT_CHUNK)
            .zip(scalars[..n].par_chunks(CT_CHUNK))
            .map(|(b, s)| crate::ct::multi_mul(b, s))
            .reduce(Point::identity, |a, b| a + b)
    }

    /// `s·self` with a constant-time fixed-window ladder (no branch or table index depends on
    /// the scalar's bits): use it for secret scalars.
    pub fn mul_ct(&self, s: &Scalar) -> Self {
        crate::ct::variable_base_mul(self, s)
    }

    /// `s·Base8` through the precomputed fixed-base table, in constant time.
    pub fn mul_base(s: &Scalar) -> Self {
        crate::ct::base8_mul(s)
    }

    /// `2·self`.
    pub fn double(&self) -> Self {
        Point(self.0.double())
    }

    /// Encodes many points with one batched inversion.
    pub fn encode_batch(points: &[Point]) -> Vec<[u8; 32]> {
        affine_batch(points).iter().map(encode_affine).collect()
    }
}

/// Affine forms of many points with one field inversion (Montgomery's trick), serially:
/// arkworks' `normalize_batch` goes through rayon when the `parallel` feature is on, which
/// costs more than the whole batch for the handful of points a proof encodes.
fn affine_batch(points: &[Point]) -> Vec<BabyJubjubAffine> {
    let mut prefix = Vec::with_capacity(points.len());
    let mut acc = Base::ONE;
    for p in points {
        prefix.push(acc);
        acc *= p.0.z;
    }
    // Every z is non-zero (extended coordinates of curve points), so `acc` is invertible. The
    // z of a point computed from a secret scalar depends on it, and the inversion's time on its
    // input, so a random factor blinds what is inverted (two multiplications).
    let blind = loop {
        let b = Base::rand(&mut rand::thread_rng());
        if !b.is_zero() {
            break b;
        }
    };
    let mut inv = (acc * blind).inverse().unwrap_or(Base::ZERO) * blind;
    let mut out = vec![BabyJubjubAffine::zero(); points.len()];
    for (i, p) in points.iter().enumerate().rev() {
        let z_inv = inv * prefix[i];
        inv *= p.0.z;
        out[i] = BabyJubjubAffine::new_unchecked(p.0.x * z_inv, p.0.y * z_inv);
    }
    out
}

/// `√a` in `Fq` with the root chosen canonically (the one `≤ (p-1)/2`).
fn sqrt_a() -> Base {
    static SQRT_A: std::sync::OnceLock<Base> = std::sync::OnceLock::new();
    *SQRT_A.get_or_init(|| {
        // 168700 is a square in Fq (the curve models are isomorphic over Fq); a failure here
        // would be a wrong constant, caught by the tests.
        let r = <BabyJubjubConfig as TECurveConfig>::COEFF_A.sqrt().unwrap_or(Base::ONE);
        if is_negative(&r) {
            -r
        } else {
            r
        }
    })
}

impl Add for Point {
    type Output = Point;
    fn add(self, rhs: Point) -> Point {
        Point(self.0 + rhs.0)
    }
}

impl<'a> Add<&'a Point> for &'a Point {
    type Output = Point;
    fn add(self, rhs: &'a Point) -> Point {
        Point(self.0 + rhs.0)
    }
}

impl AddAssign for Point {
    fn add_assign(&mut self, rhs: Point) {
        self.0 += rhs.0;
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, rhs: Point) -> Point {
        Point(self.0 - rhs.0)
    }
}

impl<'a> Sub<&'a Point> for &'a Point {
    type Output = Point;
    fn sub(self, rhs: &'a Point) -> Point {
        Point(self.0 - rhs.0)
    }
}

impl SubAssign for Point {
    fn sub_assign(&mut self, rhs: Point) {
        self.0 -= rhs.0;
    }
}

impl Neg for Point {
    type Output = Point;
    fn neg(self) -> Point {
        Point(-self.0)
    }
}

impl core::iter::Sum for Point {
    fn sum<I: Iterator<Item = Point>>(iter: I) -> Point {
        iter.fold(Point::identity(), |a, b| a + b)
    }
}

/// Try-and-increment hash to the prime-order subgroup.
///
/// For `counter = 0, 1, …`: `h = SHA-256(len(domain) ‖ domain ‖ len(msg) ‖ msg ‖ counter)`
/// (lengths as 8-byte little-endian, counter as 4-byte little-endian); read `h` as a packed
/// point (y little-endian with the top bit as the sign of x); if `y < p` and the point is on
/// the curve, multiply by the cofactor 8 and return it unless it is the identity. About one
/// try in 2.6 succeeds (half the `y` have a curve point; `y ≥ p` wastes ~24%), so the
/// expected cost is small; no one learns the discrete log of the result with respect to
/// `Base8` or any other hashed point. This is not constant-time, which is fine for public
/// inputs (generators).
pub fn hash_to_curve(domain: &[u8], msg: &[u8]) -> Point {
    let mut counter: u32 = 0;
    loop {
        let mut h = Sha256::new();
        h.update((domain.len() as u64).to_le_bytes());
        h.update(domain);
        h.update((msg.len() as u64).to_le_bytes());
        h.update(msg);
        h.update(counter.to_le_bytes());
        let bytes: [u8; 32] = h.finalize().into();
        if let Ok(p) = decode_curve_point(&bytes) {
            let q = p.mul_by_cofactor_to_group();
            if !q.is_zero() {
                return Point(q);
            }
        }
        counter = counter.wrapping_add(1);
    }
}
