//! Bit decomposition and range checks.

use super::{Builder, Result, Wire};
use ark_bn254::Fr;
use ark_ff::{AdditiveGroup, BigInteger, One, PrimeField, Zero};
use ark_relations::lc;
use ark_relations::r1cs::Variable;

/// Decompose `w` into `n` bits (least significant first), enforcing `w = Σ 2^i b_i`.
///
/// Cost: `n + 1` constraints (`n` booleanity, one sum). Because `n < 254`, `Σ 2^i b_i < p` and the
/// decomposition is unique: the bits are a function of `w`, and `w ∈ [0, 2^n)` is proved.
pub fn to_bits(b: &Builder, w: &Wire, n: u32) -> Result<Vec<Wire>> {
    assert!(n < 254, "range checks are for values far below the field modulus");
    let bits_of = |v: Fr| v.into_bigint().to_bits_le();
    if let Some(k) = w.konst {
        let bits = bits_of(k);
        if bits.iter().skip(n as usize).any(|&x| x) {
            b.enforce_false()?;
        }
        return Ok((0..n as usize)
            .map(|i| Wire::constant(if bits[i] { Fr::one() } else { Fr::zero() }, Some((0, 1))))
            .collect());
    }
    let value_bits = w.value.map(bits_of);
    let mut sum = lc!();
    let mut coeff = Fr::one();
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n as usize {
        let bit = b.boolean(value_bits.as_ref().map(|v| v[i]))?;
        sum = sum + (coeff, &bit.lc);
        coeff.double_in_place();
        out.push(bit);
    }
    b.enforce(sum, lc!() + Variable::One, w.lc.clone())?;
    Ok(out)
}

/// Enforce `w ∈ [0, 2^n)` (`n + 1` constraints; none for a constant in range).
pub fn enforce_range(b: &Builder, w: &Wire, n: u32) -> Result<()> {
    to_bits(b, w, n).map(|_| ())
}

/// Enforce `w ∈ [lo, hi]` for an interval of width `2^n` exactly (`hi - lo + 1 = 2^n`).
pub fn enforce_interval(b: &Builder, w: &Wire, lo: i128, n: u32) -> Result<()> {
    enforce_range(b, &w.affine(Fr::one(), -super::fr(lo)), n)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn decomposes_and_is_sound() {
        for v in [0i128, 1, 5, 255] {
            let b = builder();
            let w = wit(&b, v, None);
            let bits = to_bits(&b, &w, 8).unwrap();
            let back: i128 = bits
                .iter()
                .enumerate()
                .map(|(i, x)| if x.value == Some(Fr::one()) { 1 << i } else { 0 })
                .sum();
            assert_eq!(back, v);
            assert_eq!(b.cs.num_constraints(), 9);
            assert_sound(&b, 1);
        }
    }

    #[test]
    fn out_of_range_is_unsatisfiable() {
        for v in [256i128, -1, 1 << 40] {
            let b = builder();
            let w = wit(&b, v, None);
            enforce_range(&b, &w, 8).unwrap();
            assert_unsat(&b);
        }
        let b = builder();
        let c = Wire::constant(Fr::from(256u64), None);
        enforce_range(&b, &c, 8).unwrap();
        assert_unsat(&b);
    }

    #[test]
    fn signed_interval() {
        for (v, ok) in [(-128i128, true), (127, true), (-129, false), (128, false)] {
            let b = builder();
            let w = wit(&b, v, None);
            enforce_interval(&b, &w, -128, 8).unwrap();
            assert_eq!(b.cs.is_satisfied().unwrap(), ok, "{v}");
        }
    }
}
