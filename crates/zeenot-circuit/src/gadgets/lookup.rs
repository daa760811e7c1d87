//! Private lookup `x_i` among `n` elements by a one-hot selector.

use super::{fr, Builder, Result, Wire};
use crate::ir::{fr_to_int, Ty};
use ark_bn254::Fr;
use ark_ff::{One, Zero};
use ark_relations::lc;
use ark_relations::r1cs::Variable;

/// One boolean per position the index can take: `bits[k]` is `b_{start+k} = (g ∧ i = start+k)`.
/// Empty when no position in `[0, n)` is reachable (the guard is then forced to 0).
#[derive(Clone, Debug)]
pub struct Selector {
    /// The first reachable position.
    pub start: usize,
    /// The selector bits; `bits[0]` is the linear combination `g − Σ_{k≥1} bits[k]`.
    pub bits: Vec<Wire>,
}

/// The selector of integer wire `i` over `n` positions, under guard `g` (`None`: always on).
///
/// Only positions in `[0, n) ∩ interval(i)` get a bit (`m` of them; `m = n` for an index whose
/// type covers `[0, n)`). `b_1 … b_{m−1}` are boolean witnesses and `b_0 = g − Σ b_k`, also
/// constrained boolean; `(i − start)·g = Σ k·b_k` pins the hot position. `m + 1` constraints
/// (`m − 1` booleanity, `b_0`'s booleanity, the weighted sum); for `m = 1` only the weighted
/// sum, and none when `i` is a constant.
///
/// Sound because, with `m ≤ 2^20` and `|i| < 2^64`, all sums are far below `p`: with `g = 1`
/// exactly one bit is set and the weighted sum makes its position equal to `i` over the
/// integers, so an `i` outside `[0, n)` has no assignment; with `g = 0`, `b_0 = −Σ b_k ∈ {0, 1}`
/// forces every bit to 0. The bits are thus a function of `(i, g)`.
pub fn selector(b: &Builder, i: &Wire, n: usize, g: Option<&Wire>) -> Result<Selector> {
    let (lo, hi) = i.range.expect("integer wire has an interval");
    let one = Wire::constant(Fr::one(), Some((1, 1)));
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    let g = g.unwrap_or(&one);
    let (first, last) = (lo.max(0), hi.min(n as i128 - 1));
    if first > last {
        // no position reachable: the lookup fails whenever it runs
        b.enforce_equal(g, &zero)?;
        return Ok(Selector { start: 0, bits: Vec::new() });
    }
    let m = (last - first + 1) as usize;
    let start = first as usize;
    // the hot position, when proving and the guard is on (an out-of-range `i` leaves none)
    let known = g.value.is_some() && i.value.is_some();
    let hot = g
        .value
        .filter(|v| v.is_one())
        .zip(i.value.and_then(|v| fr_to_int(&v, Ty::Field)))
        .map(|(_, v)| v - first);
    let mut bits = Vec::with_capacity(m);
    let mut b0 = g.clone();
    let mut weighted = zero.clone();
    for k in 1..m {
        let bit = b.boolean(known.then_some(hot == Some(k as i128)))?;
        b0 = b0.add_scaled(-Fr::one(), &bit);
        weighted = weighted.add_scaled(fr(k as i128), &bit);
        bits.push(bit);
    }
    if m > 1 {
        b.enforce(b0.lc.clone(), b0.lc.clone() - (Fr::one(), Variable::One), lc!())?;
    }
    bits.insert(0, b0.with_range(Some((0, 1))));
    // Σ j·b_j = i·g, with `start·b_0` moved over: (i − start)·g = Σ k·b_{start+k}
    let d = i.affine(Fr::one(), -fr(first));
    if g.konst == Some(Fr::one()) {
        b.enforce_equal(&d, &weighted)?;
    } else if !(d.konst.is_some_and(|k| k.is_zero()) && m == 1) {
        b.enforce(d.lc, g.lc.clone(), weighted.lc)?;
    }
    Ok(Selector { start, bits })
}

/// `Σ b_j·x_j` over the selector's positions (`elems` are all `n` elements): a product
/// constraint per non-constant element, constants are free. With one reachable position the
/// element itself (the IR leaves the value unspecified when the guard is false). No reachable
/// position: 0. The interval is the hull of the reachable elements' (and 0's, when `guarded`).
pub fn lookup(b: &Builder, sel: &Selector, elems: &[&Wire], guarded: bool) -> Result<Wire> {
    let window = &elems[sel.start..sel.start + sel.bits.len()];
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    match window {
        [] => return Ok(zero),
        [x] => return Ok((*x).clone()),
        _ => {}
    }
    let init = if guarded { Some((0, 0)) } else { window[0].range };
    let hull = |(l, h): (i128, i128), x: &&Wire| x.range.map(|(xl, xh)| (l.min(xl), h.max(xh)));
    let range = init.and_then(|init| window.iter().try_fold(init, hull));
    let mut r = zero;
    for (bit, x) in sel.bits.iter().zip(window) {
        r = r.add_scaled(Fr::one(), &b.mul(bit, x)?);
    }
    Ok(r.with_range(range))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    /// Elements `x_j = 10·j − 7` (a variable where `var(j)`, a constant otherwise).
    fn elements(b: &Builder, n: usize, var: impl Fn(usize) -> bool) -> Vec<Wire> {
        (0..n)
            .map(|j| {
                let v = 10 * j as i128 - 7;
                if var(j) {
                    wit(b, v, Some((-7, 1000)))
                } else {
                    Wire::constant(fr(v), Some((v, v)))
                }
            })
            .collect()
    }

    #[test]
    fn matches_native_and_is_sound() {
        let pattern: [fn(usize) -> bool; 3] = [|_| true, |_| false, |j| j % 2 == 0];
        for n in 1..=5usize {
            for i in -2..n as i128 + 2 {
                for g in [None, Some(0), Some(1)] {
                    for (range, var) in [(Some((-128, 127)), 0), (Some((0, 255)), 1), (Some((-128, 127)), 2)]
                    {
                        if range == Some((0, 255)) && i < 0 {
                            continue;
                        }
                        let b = builder();
                        let iw = wit(&b, i, range);
                        let gw = g.map(|g| wit(&b, g, Some((0, 1))));
                        let xs = elements(&b, n, pattern[var]);
                        let inputs =
                            1 + usize::from(g.is_some()) + (0..n).filter(|&j| pattern[var](j)).count();
                        let sel = selector(&b, &iw, n, gw.as_ref()).unwrap();
                        let r = lookup(&b, &sel, &xs.iter().collect::<Vec<_>>(), g.is_some()).unwrap();
                        let on = g != Some(0);
                        let in_range = (0..n as i128).contains(&i);
                        if on && !in_range {
                            assert_unsat(&b);
                            continue;
                        }
                        assert_sound(&b, inputs);
                        if on {
                            assert_eq!(r.value, Some(fr(10 * i - 7)), "n {n} i {i} g {g:?}");
                            let (lo, hi) = r.range.unwrap();
                            assert!((lo..=hi).contains(&(10 * i - 7)));
                        } else if n > 1 {
                            assert_eq!(r.value, Some(Fr::zero()), "n {n} i {i}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn costs() {
        for (n, guarded) in [(4usize, false), (4, true), (16, false), (64, true)] {
            let b = builder();
            let iw = wit(&b, 3, Some((0, 255)));
            let gw = guarded.then(|| wit(&b, 1, Some((0, 1))));
            let xs = elements(&b, n, |j| j % 4 != 0);
            let sel = selector(&b, &iw, n, gw.as_ref()).unwrap();
            assert_eq!(b.cs.num_constraints(), n + 1, "fresh selector, n = {n}");
            let refs: Vec<&Wire> = xs.iter().collect();
            lookup(&b, &sel, &refs, guarded).unwrap();
            assert_eq!(b.cs.num_constraints(), n + 1 + 3 * n / 4, "products for variables only");
            lookup(&b, &sel, &refs, guarded).unwrap();
            assert_eq!(b.cs.num_constraints(), n + 1 + 6 * n / 4, "a reused selector costs the products");
            assert_sound(&b, 1 + usize::from(guarded) + 3 * n / 4);
        }
        // an interval inside [0, n) needs bits for its positions only; a constant index none
        let b = builder();
        let iw = wit(&b, 5, Some((4, 6)));
        let sel = selector(&b, &iw, 64, None).unwrap();
        assert_eq!((sel.start, sel.bits.len(), b.cs.num_constraints()), (4, 3, 4));
        let b = builder();
        let xs = elements(&b, 8, |_| true);
        let k = Wire::constant(fr(5), Some((5, 5)));
        let sel = selector(&b, &k, 8, None).unwrap();
        let r = lookup(&b, &sel, &xs.iter().collect::<Vec<_>>(), false).unwrap();
        assert_eq!((r.value, b.cs.num_constraints()), (Some(fr(43)), 0));
    }

    #[test]
    fn unreachable_positions_fail_unless_guarded_off() {
        // an index whose interval misses [0, n) entirely
        for (g, sat) in [(None, false), (Some(1), false), (Some(0), true)] {
            let b = builder();
            let iw = wit(&b, -3, Some((-5, -1)));
            let gw = g.map(|g| wit(&b, g, Some((0, 1))));
            let xs = elements(&b, 4, |_| true);
            let sel = selector(&b, &iw, 4, gw.as_ref()).unwrap();
            let r = lookup(&b, &sel, &xs.iter().collect::<Vec<_>>(), g.is_some()).unwrap();
            assert_eq!(r.konst, Some(Fr::zero()));
            assert_eq!(b.cs.is_satisfied().unwrap(), sat, "{g:?}");
        }
    }

    #[test]
    fn tampered_result_rejected() {
        let b = builder();
        let iw = wit(&b, 2, Some((0, 255)));
        let xs = elements(&b, 4, |_| true);
        let sel = selector(&b, &iw, 4, None).unwrap();
        let r = lookup(&b, &sel, &xs.iter().collect::<Vec<_>>(), false).unwrap();
        b.enforce_equal(&r, &wit(&b, 23, None)).unwrap();
        assert_unsat(&b);
    }

    /// A prover that sets the bits (and products) for position `j` while the index is `i`, or
    /// turns them on under a false guard, is caught.
    #[test]
    fn a_selector_for_another_position_is_rejected() {
        for (i, j, g) in [(2i128, 0i128, 1i128), (0, 3, 1), (1, 2, 1), (3, 1, 1), (2, 2, 0), (0, 0, 0)] {
            for guarded in [false, true] {
                if g == 0 && !guarded {
                    continue;
                }
                let b = builder();
                // the variable holds `i`; the value the gadget computes its witnesses from is `j`
                let var = b.witness(Some(fr(i))).unwrap();
                let lying = Wire::var(var, Some(fr(j)), Some((0, 255)));
                // and, under a false guard, the bits are computed as if it were true
                let gvar = b.witness(Some(fr(g))).unwrap();
                let gw = guarded.then(|| Wire::var(gvar, Some(Fr::one()), Some((0, 1))));
                let xs = elements(&b, 4, |_| true);
                let sel = selector(&b, &lying, 4, gw.as_ref()).unwrap();
                let r = lookup(&b, &sel, &xs.iter().collect::<Vec<_>>(), guarded).unwrap();
                assert_eq!(r.value, Some(fr(10 * j - 7)));
                assert_unsat(&b);
            }
        }
    }
}
