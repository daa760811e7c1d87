//! Montgomery form `v² = u³ + 168698·u² + u` (`B = 1`) of Baby Jubjub, birationally
//! equivalent to circomlib's twisted Edwards model by `u = (1 + y)/(1 − y)`, `v = u/x`.
//!
//! Its affine addition (3 constraints) is **incomplete**: it fails for equal or opposite
//! operands and cannot represent the identity. These helpers are therefore private to the
//! scalar multiplications, each of which proves that no exceptional case can occur for any
//! assignment (see [`super::fixed_base`] and [`super::variable_base`]).

use super::super::{Builder, Result, Wire};
use super::point::{native::Affine, quotient, PointWire};
use ark_bn254::Fr;
use ark_ff::{Field, One, Zero};
use ark_relations::lc;

/// Montgomery `A` coefficient: `2(a + d)/(a − d)`.
pub(crate) const MONT_A: u64 = 168698;

fn mont_a() -> Fr {
    Fr::from(MONT_A)
}

/// A point in Montgomery coordinates `(u, v)`.
pub(crate) type MontWire = (Wire, Wire);

fn inv(x: Fr) -> Fr {
    x.inverse().unwrap_or_default()
}

/// Native Edwards → Montgomery (not for the identity or the point of order 2); the tables use a
/// batched version (`fixed_base`), the tests this one.
#[cfg(test)]
pub(crate) fn to_mont_native(p: &Affine) -> (Fr, Fr) {
    let u = (Fr::one() + p.1) * inv(Fr::one() - p.1);
    (u, u * inv(p.0))
}

fn witness(b: &Builder, v: Option<Fr>) -> Result<Wire> {
    let var = b.witness(v)?;
    Ok(Wire::var(var, v, None))
}

/// Edwards → Montgomery (2 constraints). The caller guarantees `y ≠ 1` and `x ≠ 0` (the
/// point is neither the identity nor of order 2).
pub(crate) fn from_edwards(b: &Builder, p: &PointWire) -> Result<MontWire> {
    let u = quotient(b, &p.y.affine(Fr::one(), Fr::one()), &p.y.affine(-Fr::one(), Fr::one()))?;
    let v = quotient(b, &u, &p.x)?;
    Ok((u, v))
}

/// Montgomery → Edwards: `x = u/v`, `y = (u − 1)/(u + 1)` (2 constraints). The caller
/// guarantees that the point has order above 2 (so `v ≠ 0`; `u = −1` has no affine image).
pub(crate) fn to_edwards(b: &Builder, p: &MontWire) -> Result<PointWire> {
    let x = quotient(b, &p.0, &p.1)?;
    let y = quotient(b, &p.0.affine(Fr::one(), -Fr::one()), &p.0.affine(Fr::one(), Fr::one()))?;
    Ok(PointWire { x, y })
}

/// Montgomery → Edwards followed by the complete addition of a constant Edwards point `K`
/// (4 constraints instead of 2 + 3). With `(x, y) = (u/v, (u − 1)/(u + 1))`, multiplying the
/// complete law's numerators and denominators by `v·(u + 1)` leaves them linear in `u`, `v`,
/// `u²` and `u·v`:
///
/// * `x' = (k_y·(u² + u) + k_x·(uv − v)) / ((uv + v) + D·(u² − u))`,
/// * `y' = (k_y·(uv − v) − a·k_x·(u² + u)) / ((uv + v) − D·(u² − u))`, `D = d·k_x·k_y`.
///
/// The denominators are `v·(u + 1)·(1 ± d·x·y·k_x·k_y)`: nonzero because the caller
/// guarantees that the point has order above 2 (`v ≠ 0`, `u ≠ −1`, as for [`to_edwards`]) and
/// the complete law's denominators never vanish on the curve. So `x'`, `y'` are unique, and
/// the result may be any point, the identity included.
pub(crate) fn to_edwards_plus(b: &Builder, p: &MontWire, k: Affine) -> Result<PointWire> {
    if k == super::point::native::identity() {
        return to_edwards(b, p);
    }
    let (u, v) = p;
    let (kx, ky) = k;
    let dd = Fr::from(super::point::COEFF_D) * kx * ky;
    let uu = b.mul(u, u)?;
    let uv = b.mul(u, v)?;
    let uu_u = uu.add_scaled(Fr::one(), u);
    let uu_mu = uu.add_scaled(-Fr::one(), u);
    let uv_mv = uv.add_scaled(-Fr::one(), v);
    let uv_v = uv.add_scaled(Fr::one(), v);
    let x_num = uu_u.affine(ky, Fr::zero()).add_scaled(kx, &uv_mv);
    let y_num = uv_mv.affine(ky, Fr::zero()).add_scaled(-Fr::from(super::point::COEFF_A) * kx, &uu_u);
    let x = quotient(b, &x_num, &uv_v.add_scaled(dd, &uu_mu))?;
    let y = quotient(b, &y_num, &uv_v.add_scaled(-dd, &uu_mu))?;
    Ok(PointWire { x, y })
}

/// `P + Q` for two points the caller proves to have distinct `u` (3 constraints; 0 for two
/// constants).
pub(crate) fn add(b: &Builder, p: &MontWire, q: &MontWire) -> Result<MontWire> {
    let (u1, v1) = p;
    let (u2, v2) = q;
    if let (Some(a1), Some(a2), Some(c1), Some(c2)) = (u1.konst, v1.konst, u2.konst, v2.konst) {
        let l = (c2 - a2) * inv(c1 - a1);
        let u3 = l.square() - mont_a() - a1 - c1;
        let v3 = l * (a1 - u3) - a2;
        return Ok((Wire::constant(u3, None), Wire::constant(v3, None)));
    }
    let lambda = quotient(b, &v2.add_scaled(-Fr::one(), v1), &u2.add_scaled(-Fr::one(), u1))?;
    let (u3, v3) = chord_end(b, &lambda, u1, v1, u2)?;
    Ok((u3, v3))
}

/// Given the chord slope `λ` through `P1 = (u1, v1)` and a point with abscissa `u2`, the third
/// point's negation `P1 + P2`: `u3 = λ² − A − u1 − u2`, `v3 = λ·(u1 − u3) − v1` (2 constraints).
fn chord_end(b: &Builder, lambda: &Wire, u1: &Wire, v1: &Wire, u2: &Wire) -> Result<MontWire> {
    let u3_val = lambda.value.zip(u1.value.zip(u2.value)).map(|(l, (a, c))| l.square() - mont_a() - a - c);
    let u3 = witness(b, u3_val)?;
    let sum = u3.add_scaled(Fr::one(), u1).add_scaled(Fr::one(), u2).affine(Fr::one(), mont_a());
    b.enforce(lambda.lc.clone(), lambda.lc.clone(), sum.lc)?;
    let v3_val = lambda.value.zip(u1.value.zip(u3_val).zip(v1.value)).map(|(l, ((a, u), v))| l * (a - u) - v);
    let v3 = witness(b, v3_val)?;
    b.enforce(lambda.lc.clone(), u1.add_scaled(-Fr::one(), &u3).lc, v3.add_scaled(Fr::one(), v1).lc)?;
    Ok((u3, v3))
}

/// `2·A + T` without materialising `A + T`'s ordinate (5 constraints): `λ1` through `A` and
/// `T`, `R = A + T` (abscissa only), `λ2` through `R` and `A` from
/// `(λ1 + λ2)·(u_A − u_R) = 2·v_A`, then `R + A`. The caller proves `u_A ≠ u_T` and
/// `u_R ≠ u_A` (i.e. `A ≠ ±T` and `2A + T`, `A + T` are not the identity).
pub(crate) fn double_add(b: &Builder, a: &MontWire, t: &MontWire) -> Result<MontWire> {
    let (ua, va) = a;
    let (ut, vt) = t;
    let l1 = quotient(b, &vt.add_scaled(-Fr::one(), va), &ut.add_scaled(-Fr::one(), ua))?;
    // u_R = λ1² − A − u_A − u_T
    let ur_val = l1.value.zip(ua.value.zip(ut.value)).map(|(l, (x, y))| l.square() - mont_a() - x - y);
    let ur = witness(b, ur_val)?;
    let sum = ur.add_scaled(Fr::one(), ua).add_scaled(Fr::one(), ut).affine(Fr::one(), mont_a());
    b.enforce(l1.lc.clone(), l1.lc.clone(), sum.lc)?;
    // λ2 = 2·v_A/(u_A − u_R) − λ1
    let l2_val = l1
        .value
        .zip(va.value.zip(ua.value.zip(ur_val)))
        .map(|(l, (v, (x, r)))| Fr::from(2u64) * v * inv(x - r) - l);
    let l2 = witness(b, l2_val)?;
    b.enforce(
        l1.add_scaled(Fr::one(), &l2).lc,
        ua.add_scaled(-Fr::one(), &ur).lc,
        va.affine(Fr::from(2u64), Fr::zero()).lc,
    )?;
    chord_end(b, &l2, ua, va, &ur)
}

/// Enforce `w ≠ 0` (1 constraint: `w·w⁻¹ = 1`, the inverse being a function of `w`).
pub(crate) fn enforce_nonzero(b: &Builder, w: &Wire) -> Result<()> {
    if let Some(k) = w.konst {
        return if k.is_zero() { b.enforce_false() } else { Ok(()) };
    }
    let i = witness(b, w.value.map(inv))?;
    b.enforce(w.lc.clone(), i.lc, lc!() + ark_relations::r1cs::Variable::One)
}

/// `2·P` for a point of order above 2 (`v ≠ 0`; 4 constraints):
/// `λ = (3u² + 2Au + 1)/(2v)`, then the chord end with `u2 = u`.
pub(crate) fn double(b: &Builder, p: &MontWire) -> Result<MontWire> {
    let (u, v) = p;
    let uu = b.mul(u, u)?;
    let num = uu.affine(Fr::from(3u64), Fr::one()).add_scaled(Fr::from(2u64) * mont_a(), u);
    let lambda = quotient(b, &num, &v.affine(Fr::from(2u64), Fr::zero()))?;
    chord_end(b, &lambda, u, v, u)
}
