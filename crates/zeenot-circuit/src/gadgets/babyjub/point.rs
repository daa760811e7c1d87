//! Baby Jubjub points in the circuit: on-curve enforcement, complete addition, doubling,
//! conditional selection and negation, and the native affine arithmetic the gadgets use for
//! constant tables and witness values.
//!
//! Coordinates are circomlib's: `a·x² + y² = 1 + d·x²·y²` with `a = 168700`, `d = 168696`.
//! Because `a` is a square and `d` is not, the unified twisted Edwards addition law is
//! **complete** on the curve: for any two points *on the curve* (the small-order ones and
//! the identity `(0, 1)` included) the denominators `1 ± d·x1·x2·y1·y2` are nonzero (Bernstein
//! and Lange, "Twisted Edwards curves", Thm 3.3). Completeness needs the inputs on the curve,
//! so every point a prover chooses must pass [`enforce_on_curve`] ([`PointWire::witness`]
//! does it); the outputs of [`add`] and [`double`] are then on the curve by construction.

use super::super::{Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::{Field, One, Zero};
use ark_relations::lc;

pub use zeenot_ir::babyjub::{self as native, COEFF_A, COEFF_D};
use zeenot_ir::babyjub::{a, d};

/// A point in the circuit: two wires `(x, y)`.
#[derive(Clone, Debug)]
pub struct PointWire {
    /// The x-coordinate.
    pub x: Wire,
    /// The y-coordinate.
    pub y: Wire,
}

impl PointWire {
    /// A circuit constant (the caller vouches that it is on the curve).
    pub fn constant(p: native::Affine) -> PointWire {
        PointWire { x: Wire::constant(p.0, None), y: Wire::constant(p.1, None) }
    }

    /// The identity `(0, 1)`.
    pub fn identity() -> PointWire {
        PointWire::constant(native::identity())
    }

    /// Two witness variables for a prover-chosen point, checked on the curve (3 constraints).
    pub fn witness(b: &Builder, p: Option<native::Affine>) -> Result<PointWire> {
        let w = PointWire::witness_unchecked(b, p)?;
        enforce_on_curve(b, &w)?;
        Ok(w)
    }

    /// Two witness variables with no constraint. Only for points the caller constrains
    /// otherwise (e.g. public inputs checked elsewhere): the gadgets below assume their
    /// inputs are on the curve.
    pub fn witness_unchecked(b: &Builder, p: Option<native::Affine>) -> Result<PointWire> {
        let x = b.witness(p.map(|p| p.0))?;
        let y = b.witness(p.map(|p| p.1))?;
        Ok(PointWire { x: Wire::var(x, p.map(|p| p.0), None), y: Wire::var(y, p.map(|p| p.1), None) })
    }

    /// The coordinates, when known.
    pub fn value(&self) -> Option<native::Affine> {
        self.x.value.zip(self.y.value)
    }

    /// The constant coordinates, when both are circuit constants.
    pub fn konst(&self) -> Option<native::Affine> {
        self.x.konst.zip(self.y.konst)
    }

    /// `-P = (-x, y)` (free).
    pub fn neg(&self) -> PointWire {
        PointWire { x: self.x.affine(-Fr::one(), Fr::zero()), y: self.y.clone() }
    }
}

/// `num / den` as a new witness `q` with `q·den = num` (1 constraint). The caller guarantees
/// `den ≠ 0` for every satisfying assignment, which makes `q` a function of the inputs.
pub(crate) fn quotient(b: &Builder, num: &Wire, den: &Wire) -> Result<Wire> {
    if let (Some(n), Some(dn)) = (num.konst, den.konst) {
        return Ok(Wire::constant(n * dn.inverse().unwrap_or_default(), None));
    }
    let value = num.value.zip(den.value).map(|(n, dn)| n * dn.inverse().unwrap_or_default());
    let q = b.witness(value)?;
    b.enforce(lc!() + q, den.lc.clone(), num.lc.clone())?;
    Ok(Wire::var(q, value, None))
}

/// Enforce `a·x² + y² = 1 + d·x²·y²` (3 constraints: `x²`, `y²`, and the equation).
pub fn enforce_on_curve(b: &Builder, p: &PointWire) -> Result<()> {
    if let Some(k) = p.konst() {
        return if native::is_on_curve(&k) { Ok(()) } else { b.enforce_false() };
    }
    let xx = b.mul(&p.x, &p.x)?;
    let yy = b.mul(&p.y, &p.y)?;
    // (d·x²)·(y²) = a·x² + y² − 1
    let rhs = xx.affine(a(), Fr::zero()).add_scaled(Fr::one(), &yy).affine(Fr::one(), -Fr::one());
    b.enforce(&xx.lc * d(), yy.lc.clone(), rhs.lc)
}

/// Complete addition `P + Q` of two points on the curve.
///
/// Cost: 6 constraints for two variable points; 3 when one operand is a constant (its
/// coordinates make `x1·y2`, `y1·x2`, `x1·x2` linear, leaving `x1·y1` and the two quotients);
/// 0 for two constants.
pub fn add(b: &Builder, p: &PointWire, q: &PointWire) -> Result<PointWire> {
    match (p.konst(), q.konst()) {
        (Some(kp), Some(kq)) => return Ok(PointWire::constant(native::add(&kp, &kq))),
        (Some(kp), None) => return add_constant(b, q, kp),
        (None, Some(kq)) => return add_constant(b, p, kq),
        (None, None) => {}
    }
    // beta = x1·y2, gamma = y1·x2, delta = (y1 − a·x1)·(x2 + y2) = y1y2 − a·x1x2 − a·beta + gamma
    let beta = b.mul(&p.x, &q.y)?;
    let gamma = b.mul(&p.y, &q.x)?;
    let delta = b.mul(&p.y.add_scaled(-a(), &p.x), &q.x.add_scaled(Fr::one(), &q.y))?;
    // tau = d·beta·gamma = d·x1x2y1y2
    let tau = b.mul(&beta.affine(d(), Fr::zero()), &gamma)?;
    let x_num = beta.add_scaled(Fr::one(), &gamma);
    let y_num = delta.add_scaled(a(), &beta).add_scaled(-Fr::one(), &gamma);
    let x = quotient(b, &x_num, &tau.affine(Fr::one(), Fr::one()))?;
    let y = quotient(b, &y_num, &tau.affine(-Fr::one(), Fr::one()))?;
    Ok(PointWire { x, y })
}

/// `P + K` for a constant `K` (3 constraints; none when `K` is the identity).
pub fn add_constant(b: &Builder, p: &PointWire, k: native::Affine) -> Result<PointWire> {
    if k == native::identity() {
        return Ok(p.clone());
    }
    if let Some(kp) = p.konst() {
        return Ok(PointWire::constant(native::add(&kp, &k)));
    }
    let (kx, ky) = k;
    let xy = b.mul(&p.x, &p.y)?;
    let tau = xy.affine(d() * kx * ky, Fr::zero());
    let x_num = p.x.affine(ky, Fr::zero()).add_scaled(kx, &p.y);
    let y_num = p.y.affine(ky, Fr::zero()).add_scaled(-a() * kx, &p.x);
    let x = quotient(b, &x_num, &tau.affine(Fr::one(), Fr::one()))?;
    let y = quotient(b, &y_num, &tau.affine(-Fr::one(), Fr::one()))?;
    Ok(PointWire { x, y })
}

/// `2·P` for a point on the curve (5 constraints).
///
/// Uses the curve equation to replace `1 + d·x²y²` by `a·x² + y²` and `1 − d·x²y²` by
/// `2 − a·x² − y²`; both are the nonzero denominators of the complete law, so the input must
/// be on the curve (as every [`PointWire`] built by these gadgets is).
pub fn double(b: &Builder, p: &PointWire) -> Result<PointWire> {
    if let Some(k) = p.konst() {
        return Ok(PointWire::constant(native::add(&k, &k)));
    }
    let xy = b.mul(&p.x, &p.y)?;
    let xx = b.mul(&p.x, &p.x)?;
    let yy = b.mul(&p.y, &p.y)?;
    let axx_yy = xx.affine(a(), Fr::zero()).add_scaled(Fr::one(), &yy);
    let x = quotient(b, &xy.affine(Fr::from(2u64), Fr::zero()), &axx_yy)?;
    let y = quotient(b, &yy.add_scaled(-a(), &xx), &axx_yy.affine(-Fr::one(), Fr::from(2u64)))?;
    Ok(PointWire { x, y })
}

/// `P if c else Q` for a boolean `c` (2 constraints; 0 with a constant `c`).
pub fn select(b: &Builder, c: &Wire, p: &PointWire, q: &PointWire) -> Result<PointWire> {
    Ok(PointWire {
        x: super::super::select::select(b, c, &p.x, &q.x)?,
        y: super::super::select::select(b, c, &p.y, &q.y)?,
    })
}

/// `−P if c else P` for a boolean `c` (1 constraint: `x' = x − 2c·x`).
pub fn conditional_neg(b: &Builder, c: &Wire, p: &PointWire) -> Result<PointWire> {
    let cx = b.mul(c, &p.x)?;
    Ok(PointWire { x: p.x.add_scaled(-Fr::from(2u64), &cx), y: p.y.clone() })
}

/// `c·P`: `P` when `c = 1`, the identity when `c = 0` (2 constraints).
pub fn gate(b: &Builder, c: &Wire, p: &PointWire) -> Result<PointWire> {
    select(b, c, p, &PointWire::identity())
}

/// Enforce `P = Q` (2 constraints, fewer with constants).
pub fn enforce_equal(b: &Builder, p: &PointWire, q: &PointWire) -> Result<()> {
    b.enforce_equal(&p.x, &q.x)?;
    b.enforce_equal(&p.y, &q.y)
}

/// Enforce that `p` is on the curve and in the prime-order subgroup (~20 constraints).
///
/// The curve's group is `Z/8 × Z/l`, so its order-`l` subgroup is exactly `8·E`: the prover
/// supplies `q` (on the curve, 3 constraints) and the circuit checks `p = 8·q` with three
/// doublings (15) and two equalities (2). `p` is then on the curve too. The witness is
/// `q = h³·p` with `h = (l + 1)/2` (so `8·q = p` for `p` in the subgroup); any `q + t` with `t`
/// of order dividing 8 satisfies the constraints as well, which is harmless: only `8·q` is used.
pub fn enforce_in_subgroup(b: &Builder, p: &PointWire) -> Result<()> {
    if let Some(k) = p.konst() {
        return if native::is_in_subgroup(&k) { Ok(()) } else { b.enforce_false() };
    }
    let h = (native::subgroup_order() + Fr::one()) * Fr::from(2u64).inverse().expect("2 is invertible");
    let q = p.value().map(|v| native::mul(&native::mul(&native::mul(&v, &h), &h), &h));
    let q = PointWire::witness(b, q)?;
    let p8 = double(b, &double(b, &double(b, &q)?)?)?;
    b.enforce_equal(&p8.x, &p.x)?;
    b.enforce_equal(&p8.y, &p.y)
}
