//! Equality by an inverse witness.

use super::{Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::{Field, One, Zero};
use ark_relations::lc;

/// `w == 0` as a boolean wire.
///
/// Witnesses `inv` and `out` with `w·inv = 1 - out`, `w·out = 0` and `inv·out = 0`. The third
/// constraint forces `inv = 0` when `w = 0`, so `inv` is a function of `w` (the usual two-constraint
/// gadget leaves it free). Cost 3 constraints; free for a constant.
pub fn is_zero(b: &Builder, w: &Wire) -> Result<Wire> {
    if let Some(k) = w.konst {
        let v = if k.is_zero() { Fr::one() } else { Fr::zero() };
        return Ok(Wire::constant(v, Some((0, 1))));
    }
    let inv_v = w.value.map(|v| v.inverse().unwrap_or(Fr::zero()));
    let out_v = w.value.map(|v| if v.is_zero() { Fr::one() } else { Fr::zero() });
    let inv = b.witness(inv_v)?;
    let out = b.witness(out_v)?;
    b.enforce(w.lc.clone(), lc!() + inv, lc!() + ark_relations::r1cs::Variable::One - out)?;
    b.enforce(w.lc.clone(), lc!() + out, lc!())?;
    b.enforce(lc!() + inv, lc!() + out, lc!())?;
    Ok(Wire::var(out, out_v, Some((0, 1))))
}

/// `x == y` as a boolean wire (3 constraints; 1 for two booleans).
pub fn is_eq(b: &Builder, x: &Wire, y: &Wire, booleans: bool) -> Result<Wire> {
    if booleans && x.konst.is_none() && y.konst.is_none() {
        // 1 - x - y + 2xy
        let xy = b.mul(x, y)?;
        let s = x.add_scaled(Fr::one(), y).affine(-Fr::one(), Fr::one());
        return Ok(s.add_scaled(Fr::from(2u64), &xy).with_range(Some((0, 1))));
    }
    is_zero(b, &x.add_scaled(-Fr::one(), y))
}

#[cfg(test)]
mod tests {
    use super::super::fr;
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn matches_native_and_is_sound() {
        for (x, y) in [(0i128, 0i128), (3, 3), (3, 4), (-1, 1), (0, 7)] {
            let b = builder();
            let (wx, wy) = (wit(&b, x, None), wit(&b, y, None));
            let e = is_eq(&b, &wx, &wy, false).unwrap();
            assert_eq!(e.value, Some(fr((x == y) as i128)));
            assert_eq!(b.cs.num_constraints(), 3);
            assert_sound(&b, 2);
        }
        for (x, y) in [(0i128, 0i128), (0, 1), (1, 0), (1, 1)] {
            let b = builder();
            let (wx, wy) = (wit(&b, x, Some((0, 1))), wit(&b, y, Some((0, 1))));
            let e = is_eq(&b, &wx, &wy, true).unwrap();
            assert_eq!(e.value, Some(fr((x == y) as i128)));
            assert_sound(&b, 2);
        }
    }

    #[test]
    fn tampered_result_rejected() {
        for (x, claim) in [(0i128, 0i128), (5, 1)] {
            let b = builder();
            let w = wit(&b, x, None);
            let z = is_zero(&b, &w).unwrap();
            let c = wit(&b, claim, None);
            b.enforce_equal(&z, &c).unwrap();
            assert_unsat(&b);
        }
    }
}
