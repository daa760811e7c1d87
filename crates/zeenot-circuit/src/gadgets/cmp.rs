//! Integer comparison by bit decomposition, sized by the operands' known intervals.

use super::{bits, fr, Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::{One, Zero};

/// The number of bits `k` with `-2^k <= lo` and `hi < 2^k`.
fn span_bits(lo: i128, hi: i128) -> u32 {
    let need = (-lo).max(hi + 1).max(1) as u128;
    let k = 128 - (need - 1).leading_zeros();
    k.max(1)
}

/// `x >= y` for integer wires whose values lie in their intervals (the range invariant).
///
/// With `d = x - y ∈ [lo, hi] ⊆ [-2^k, 2^k)`, `d + 2^k ∈ [0, 2^(k+1))` is decomposed into `k + 1`
/// bits and the top bit is `d >= 0`. Cost `k + 2` constraints, where `k` comes from the operands'
/// intervals: comparing a `u32` with a small constant is much cheaper than with another `u32`.
/// A comparison decided by the intervals alone is a constant.
pub fn is_ge(b: &Builder, x: &Wire, y: &Wire) -> Result<Wire> {
    let (xl, xh) = x.range.expect("integer wire has an interval");
    let (yl, yh) = y.range.expect("integer wire has an interval");
    let (lo, hi) = (xl - yh, xh - yl);
    let bool_const = |t: bool| Wire::constant(if t { Fr::one() } else { Fr::zero() }, Some((0, 1)));
    if lo >= 0 {
        return Ok(bool_const(true));
    }
    if hi < 0 {
        return Ok(bool_const(false));
    }
    let k = span_bits(lo, hi);
    let shifted = x.add_scaled(-Fr::one(), y).affine(Fr::one(), fr(1i128 << k));
    let mut bits = bits::to_bits(b, &shifted, k + 1)?;
    Ok(bits.pop().expect("k + 1 >= 2 bits"))
}

/// `not w` for a boolean wire (free).
pub fn not(w: &Wire) -> Wire {
    w.affine(-Fr::one(), Fr::one()).with_range(Some((0, 1)))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn span() {
        assert_eq!(span_bits(-1, 0), 1);
        assert_eq!(span_bits(-255, 255), 8);
        assert_eq!(span_bits(-256, 255), 8);
        assert_eq!(span_bits(-257, 0), 9);
        assert_eq!(span_bits(-(1 << 64) + 1, (1 << 64) - 1), 64);
    }

    #[test]
    fn matches_native_and_is_sound() {
        let u8r = Some((0, 255));
        let i8r = Some((-128, 127));
        for (r, vals) in [(u8r, vec![0i128, 1, 127, 255]), (i8r, vec![-128, -1, 0, 1, 127])] {
            for &x in &vals {
                for &y in &vals {
                    let b = builder();
                    let (wx, wy) = (wit(&b, x, r), wit(&b, y, r));
                    let ge = is_ge(&b, &wx, &wy).unwrap();
                    assert_eq!(ge.value, Some(fr((x >= y) as i128)), "{x} >= {y}");
                    assert_sound(&b, 2);
                }
            }
        }
    }

    #[test]
    fn tampered_result_rejected() {
        let b = builder();
        let (x, y) = (wit(&b, 3, Some((0, 255))), wit(&b, 9, Some((0, 255))));
        let ge = is_ge(&b, &x, &y).unwrap();
        // claim 3 >= 9 by forcing the output to 1
        let claim = wit(&b, 1, None);
        b.enforce_equal(&ge, &claim).unwrap();
        assert_unsat(&b);
    }

    #[test]
    fn decided_by_intervals_is_free() {
        let b = builder();
        let x = wit(&b, 3, Some((0, 10)));
        let big = Wire::constant(fr(11), Some((11, 11)));
        assert_eq!(is_ge(&b, &x, &big).unwrap().konst, Some(Fr::zero()));
        assert_eq!(b.cs.num_constraints(), 0);
    }
}
