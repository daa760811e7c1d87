//! Conditional selection.

use super::{Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::{One, Zero};

/// `a if c else b` for a boolean `c`: `b + c·(a - b)`. One constraint; free when `c` is a
/// constant or `a` and `b` are the same constant. The interval is the hull of both.
pub fn select(bld: &Builder, c: &Wire, a: &Wire, b: &Wire) -> Result<Wire> {
    let range = a.range.zip(b.range).map(|((al, ah), (bl, bh))| (al.min(bl), ah.max(bh)));
    if let Some(k) = c.konst {
        return Ok(if k == Fr::one() { a.clone() } else { b.clone() });
    }
    if a.konst.is_some() && a.konst == b.konst {
        return Ok(a.clone());
    }
    let diff = a.add_scaled(-Fr::one(), b);
    let t = bld.mul(c, &diff)?;
    Ok(b.add_scaled(Fr::one(), &t).with_range(range))
}

/// `g · w`: the value when `g` is true and zero otherwise (one constraint).
pub fn gate(bld: &Builder, g: &Wire, w: &Wire) -> Result<Wire> {
    let range = w.range.map(|(l, h)| (l.min(0), h.max(0)));
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    Ok(select(bld, g, w, &zero)?.with_range(range))
}

#[cfg(test)]
mod tests {
    use super::super::fr;
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn matches_native_and_is_sound() {
        for c in [0i128, 1] {
            let b = builder();
            let (wc, x, y) = (wit(&b, c, Some((0, 1))), wit(&b, 10, None), wit(&b, -3, None));
            let r = select(&b, &wc, &x, &y).unwrap();
            assert_eq!(r.value, Some(fr(if c == 1 { 10 } else { -3 })));
            assert_eq!(b.cs.num_constraints(), 1);
            // the product witness is determined; inputs are not mutated
            assert_sound(&b, 3);
        }
    }

    #[test]
    fn tampered_result_rejected() {
        let b = builder();
        let (c, x, y) = (wit(&b, 0, Some((0, 1))), wit(&b, 10, None), wit(&b, 4, None));
        let r = select(&b, &c, &x, &y).unwrap();
        b.enforce_equal(&r, &wit(&b, 10, None)).unwrap();
        assert_unsat(&b);
    }
}
