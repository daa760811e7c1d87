//! Python's floor division and remainder.

use super::{bits, cmp, fr, Builder, Result, Wire};
use crate::eval::floor_divmod as native;
use crate::ir::{fr_to_int, Ty};
use ark_bn254::Fr;
use ark_ff::{One, Zero};

fn bit_len(v: i128) -> u32 {
    128 - (v.max(0) as u128).leading_zeros()
}

/// `(a // d, a % d)` with Python's signs, for integer wires of type `ty` in range.
///
/// Witnesses `q`, `r` with `q·d = a - r` and, with `s = (d < 0)` and `u = ±r`, `|d| - 1 - u ≥ 0`
/// and `u ≥ 0` by range checks: the remainder has the divisor's sign and is smaller in magnitude,
/// which makes `q` and `r` unique and proves `d ≠ 0`. With `quotient_in_type` (for `floordiv`)
/// `q` is range-checked in `ty`, so `i_min // -1` is rejected; without it (for `mod`, where
/// `i_min % -1 == 0` is fine) a signed `q` may also be `2^(n-1)` (one more bit). All quantities are below `2^(2·64+1) ≪ p`, so the equation holds over
/// the integers. Unsigned `u32` with a variable divisor: 3·33 + 1 = 100 constraints.
pub fn floor_divmod(b: &Builder, a: &Wire, d: &Wire, ty: Ty, quotient_in_type: bool) -> Result<(Wire, Wire)> {
    let ival = |w: &Wire| w.value.and_then(|v| fr_to_int(&v, ty));
    let qr = ival(a).zip(ival(d)).map(|(x, y)| if y == 0 { (0, 0) } else { native(x, y) });
    let q = Wire::var(b.witness(qr.map(|v| fr(v.0)))?, qr.map(|v| fr(v.0)), ty.range());
    let r = Wire::var(b.witness(qr.map(|v| fr(v.1)))?, qr.map(|v| fr(v.1)), None);
    let qd = b.mul(&q, d)?;
    b.enforce_equal(&qd.add_scaled(Fr::one(), &r), a)?;
    let (_, a_hi) = a.range.expect("integer interval");
    let (d_lo, d_hi) = d.range.expect("integer interval");
    match ty {
        Ty::U(_) => {
            // q <= a, so bit_len(a_hi) bits bound it; r < d <= d_hi.
            bits::enforce_range(b, &q, bit_len(a_hi).max(1))?;
            let m = bit_len(d_hi).max(1);
            bits::enforce_range(b, &r, m)?;
            bits::enforce_range(b, &d.add_scaled(-Fr::one(), &r).affine(Fr::one(), -Fr::one()), m)?;
            let r = r.with_range(Some((0, d_hi.max(1) - 1)));
            Ok((q.with_range(Some((0, a_hi.max(0)))), r))
        }
        Ty::I(n) => {
            let half = 1i128 << (n - 1);
            // q ∈ [-2^(n-1), 2^(n-1)) for floordiv; q ∈ [-2^(n-1), 3·2^(n-1)) ⊇ all quotients
            // of in-range operands for mod (uniqueness needs only a bound far below p).
            let q_bits = if quotient_in_type { n } else { n + 1 };
            bits::enforce_interval(b, &q, -half, q_bits)?;
            let q = if quotient_in_type { q } else { q.with_range(Some((-half, half))) };
            let zero = Wire::constant(Fr::zero(), Some((0, 0)));
            let s = cmp::not(&cmp::is_ge(b, d, &zero)?);
            // u = r - 2sr (= |r| when signs agree), |d| = d - 2sd
            let sr = b.mul(&s, &r)?;
            let u = r.add_scaled(-Fr::from(2u64), &sr);
            let sd = b.mul(&s, d)?;
            let abs_d = d.add_scaled(-Fr::from(2u64), &sd);
            let m = bit_len((-d_lo).max(d_hi)).max(1);
            bits::enforce_range(b, &u, m)?;
            bits::enforce_range(b, &abs_d.add_scaled(-Fr::one(), &u).affine(Fr::one(), -Fr::one()), m)?;
            let mag = (-d_lo).max(d_hi).max(1) - 1;
            Ok((q, r.with_range(Some((-mag, mag)))))
        }
        _ => unreachable!("validated: integer division"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn matches_python_and_is_sound() {
        let cases: &[(Ty, &[i128])] = &[
            (Ty::U(8), &[0, 1, 7, 200, 255]),
            (Ty::I(8), &[-128, -7, -1, 0, 1, 3, 127]),
            (Ty::U(64), &[0, 1, 3, (1 << 64) - 1]),
            (Ty::I(64), &[-(1 << 63), -3, -1, 0, 2, (1 << 63) - 1]),
        ];
        for &(ty, vals) in cases {
            for &x in vals {
                for &y in vals.iter().filter(|&&y| y != 0) {
                    let (q, r) = native(x, y);
                    let (lo, hi) = ty.range().unwrap();
                    for quotient_in_type in [true, false] {
                        let b = builder();
                        let (wx, wy) = (wit(&b, x, ty.range()), wit(&b, y, ty.range()));
                        let (wq, wr) = floor_divmod(&b, &wx, &wy, ty, quotient_in_type).unwrap();
                        if quotient_in_type && (q < lo || q > hi) {
                            assert_unsat(&b); // i_min // -1
                            continue;
                        }
                        assert_eq!((wq.value, wr.value), (Some(fr(q)), Some(fr(r))), "{x} {y}");
                        assert_sound(&b, 2);
                    }
                }
            }
        }
    }

    #[test]
    fn tampered_quotient_or_remainder_rejected() {
        // 7 // 2 = 3 rem 1; claim 2 rem 3 (q·d + r = a still holds) or -4 rem 15
        for ty in [Ty::U(8), Ty::I(8)] {
            for (claim_q, claim_r) in [(2i128, 3i128), (4, -1)] {
                let b = builder();
                let (x, y) = (wit(&b, 7, ty.range()), wit(&b, 2, ty.range()));
                let (q, r) = floor_divmod(&b, &x, &y, ty, true).unwrap();
                b.enforce_equal(&q, &wit(&b, claim_q, None)).unwrap();
                b.enforce_equal(&r, &wit(&b, claim_r, None)).unwrap();
                assert_unsat(&b);
            }
        }
    }

    #[test]
    fn division_by_zero_is_unsatisfiable() {
        for ty in [Ty::U(8), Ty::I(8)] {
            let b = builder();
            let (x, y) = (wit(&b, 5, ty.range()), wit(&b, 0, ty.range()));
            floor_divmod(&b, &x, &y, ty, true).unwrap();
            assert_unsat(&b);
        }
    }
}
