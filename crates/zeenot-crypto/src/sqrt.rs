//! Square roots in the base field `Fq` (BN254's scalar field), for decoding points
//! ([`crate::encoding`]) and hashing many messages to the curve
//! ([`crate::generators::hash_to_curve_batch`]).
//!
//! `q − 1 = 2^28·t` with `t` odd, so arkworks' `sqrt` runs Tonelli–Shanks: a square-and-multiply
//! exponentiation and a search whose cost grows with the square of the 2-adicity (27 µs a root
//! here). This one computes `w = a^((t−1)/2)` with a 4-bit window, so that `x = a·w =
//! a^((t+1)/2)` and `b = x·w = a^t`, an element of the subgroup of order `2^28` that the
//! primitive root `z` (arkworks' `TWO_ADIC_ROOT_OF_UNITY`) generates. It finds `e` with `b = z^e`
//! seven bits at a time against precomputed tables (Pohlig–Hellman; Sarkar, *Computing square
//! roots faster than the Tonelli–Shanks/Bernstein algorithm*, 2020): `a` is a square iff `e` is
//! even, and then `(x·z^(−e/2))² = a·b·z^(−e) = a`. About 270 multiplications and 42 squarings
//! of the table search, a quarter of arkworks' cost; not constant time (decoded points and
//! hashed strings are public).

use std::collections::HashMap;
use std::sync::OnceLock;

use ark_ff::{BigInteger, FftField, Field, PrimeField, Zero};

use crate::params::Base;

/// Bits of `e` found per table lookup.
const WINDOW: u32 = 7;
/// `Fq`'s 2-adicity, `4·WINDOW`.
const TWO_ADICITY: u32 = 28;

struct Tables {
    /// `z^(k·2^21)` (the `2^7`-th roots of unity), by their Montgomery limbs, to `k`.
    roots: HashMap<[u64; 4], u32>,
    /// `inverse[j][k] = z^(−k·2^(7j))`.
    inverse: [Vec<Base>; 4],
    /// `(t−1)/2` in 4-bit digits, most significant first, without leading zeros.
    digits: Vec<usize>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        assert_eq!(Base::TWO_ADICITY, TWO_ADICITY, "the tables assume a 2-adicity of 28");
        let z = Base::TWO_ADIC_ROOT_OF_UNITY;
        let step = z.pow([1u64 << (TWO_ADICITY - WINDOW)]);
        let mut roots = HashMap::new();
        let mut r = Base::ONE;
        for k in 0..1u32 << WINDOW {
            roots.insert(r.0 .0, k);
            r *= step;
        }
        let z_inv = z.inverse().expect("a root of unity is invertible");
        let inverse = std::array::from_fn(|j| {
            let base = z_inv.pow([1u64 << (WINDOW as usize * j)]);
            let mut row = Vec::with_capacity(1 << WINDOW);
            let mut p = Base::ONE;
            for _ in 0..1u32 << WINDOW {
                row.push(p);
                p *= base;
            }
            row
        });
        let bits = Base::TRACE_MINUS_ONE_DIV_TWO.to_bits_be();
        let bits = &bits[bits.iter().position(|&b| b).unwrap_or(bits.len())..];
        let mut digits = vec![0; bits.len().div_ceil(4)];
        for (i, &bit) in bits.iter().rev().enumerate() {
            digits[i / 4] |= usize::from(bit) << (i % 4);
        }
        digits.reverse();
        Tables { roots, inverse, digits }
    })
}

/// `a^((t−1)/2)` with a fixed 4-bit window (also the bulk of the subgroup check's
/// exponentiation, [`crate::subgroup`]).
pub(crate) fn pow_trace_minus_one_div_two(a: &Base) -> Base {
    let digits = &tables().digits;
    let mut powers = [Base::ONE; 16];
    for i in 1..16 {
        powers[i] = powers[i - 1] * a;
    }
    let mut acc = powers[digits[0]];
    for &k in &digits[1..] {
        for _ in 0..4 {
            acc.square_in_place();
        }
        if k != 0 {
            acc *= powers[k];
        }
    }
    acc
}

/// A square root of `a`, or `None` if `a` is not a square. Which of the two roots it returns is
/// unspecified (callers pick the sign).
pub(crate) fn sqrt(a: &Base) -> Option<Base> {
    if a.is_zero() {
        return Some(Base::zero());
    }
    let t = tables();
    let w = pow_trace_minus_one_div_two(a);
    let x = w * a;
    let mut c = x * w; // a^t = z^e
    let mut e = 0u32;
    for j in 0..TWO_ADICITY / WINDOW {
        let mut d = c;
        for _ in 0..TWO_ADICITY - WINDOW * (j + 1) {
            d.square_in_place();
        }
        let k = *t.roots.get(&d.0 .0)?;
        if j == 0 && k & 1 == 1 {
            return None; // e is odd: a is not a square
        }
        e |= k << (WINDOW * j);
        c *= t.inverse[j as usize][k as usize];
    }
    let half = e >> 1;
    let mut root = x;
    for j in 0..TWO_ADICITY / WINDOW {
        let k = (half >> (WINDOW * j)) & ((1 << WINDOW) - 1);
        if k != 0 {
            root *= t.inverse[j as usize][k as usize];
        }
    }
    Some(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use rand::SeedableRng;

    #[test]
    fn agrees_with_arkworks_on_squares_and_non_squares() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let (mut squares, mut others) = (0, 0);
        for i in 0..2000 {
            let a = if i % 3 == 0 { Base::rand(&mut rng).square() } else { Base::rand(&mut rng) };
            match (sqrt(&a), a.sqrt()) {
                (Some(r), Some(s)) => {
                    assert_eq!(r.square(), a);
                    assert!(r == s || r == -s);
                    squares += 1;
                }
                (None, None) => others += 1,
                (mine, theirs) => panic!("{a}: {mine:?} vs arkworks {theirs:?}"),
            }
        }
        assert!(squares > 1000 && others > 400, "{squares} squares, {others} non-squares");
    }

    #[test]
    fn edge_cases() {
        assert_eq!(sqrt(&Base::zero()), Some(Base::zero()));
        assert_eq!(sqrt(&Base::ONE).map(|r| r.square()), Some(Base::ONE));
        let minus_one = -Base::ONE; // a square: q ≡ 1 (mod 4)
        assert_eq!(sqrt(&minus_one).map(|r| r.square()), Some(minus_one));
        // the roots of unity of every 2-power order: the table search's extremes
        let z = Base::TWO_ADIC_ROOT_OF_UNITY;
        assert_eq!(sqrt(&z), None);
        for k in 1..TWO_ADICITY as u64 {
            let a = z.pow([1u64 << k]);
            assert_eq!(sqrt(&a).map(|r| r.square()), Some(a), "z^(2^{k})");
        }
        let g = Base::GENERATOR; // a non-residue
        assert_eq!(sqrt(&g), None);
        assert_eq!(sqrt(&g.square()).map(|r| r.square()), Some(g.square()));
    }
}
