//! Pedersen commitment opening over zeenot-crypto's generators ([`PedersenGenerators`]):
//! `C = m·G + r·H` with `G = Base8` and the hashed blinding base `H`, and the vector form
//! `C = Σ m_i·G_i + r·H`.
//!
//! # Method and cost
//!
//! Each term is a fixed-base multiplication ([`fixed_base::mul`], 4-bit windows; its bases are
//! constants of the prime-order subgroup other than the identity, checked by
//! [`FixedBase::new`]), and the terms are summed with the complete addition
//! ([`point::add`], 6 constraints). For a 64-bit `m` and a 251-bit `r`, from bits:
//! `m·G` 97, `r·H` 379, the sum 6: **482**; [`open`] adds the decompositions (65 + 252) and
//! the equality with `C` (2): **801**.
//!
//! # Soundness
//!
//! The bits are the caller's to constrain boolean ([`open`] decomposes with
//! [`super::scalar_bits`], which does). Every witness of the fixed-base multiplications is
//! determined by the bits (see [`fixed_base`]), and the complete addition of two curve points
//! (both products are on the curve by construction) determines its quotients, so the computed
//! point is a function of `(m, r)`; enforcing it equal to `C` accepts exactly the openings of
//! `C`, with `m` and `r` acting modulo `l` (an `n ≤ 64`-bit `m` is a unique integer). `C` may be
//! a public input or a witnessed point; a `C` off the curve or outside the subgroup simply has
//! no opening. Binding is computational (an opening of one `C` to two values mod `l` yields a
//! discrete-log relation between `G` and `H`, unknown since `H` is hashed to the curve).

use super::super::{Builder, Result, Wire};
use super::fixed_base::{self, FixedBase};
use super::point::{self, PointWire};
use super::{scalar_bits, SCALAR_BITS};
use zeenot_crypto::pedersen::{blinding_generator, vector_generator};

#[cfg(doc)]
use zeenot_crypto::PedersenGenerators;

/// The most bits a committed value or blinding factor may have here (`2^252 < p`, as for
/// [`scalar_bits`]).
pub const MAX_BITS: usize = 252;

/// Bits of the value in [`open`]'s default use: a `u64`.
pub const VALUE_BITS: u32 = 64;

/// The generators as fixed bases: `G = Base8`, `H`, and `G_0 … G_{n−1}` for vectors
/// (the constants of zeenot-crypto's [`PedersenGenerators::new`]`(n)`).
#[derive(Clone, Debug)]
pub struct PedersenBases {
    g: FixedBase,
    h: FixedBase,
    gs: Vec<FixedBase>,
}

impl PedersenBases {
    /// Bases for single commitments and vectors of up to `n` values.
    pub fn new(n: usize) -> PedersenBases {
        PedersenBases {
            g: FixedBase::base8(),
            h: FixedBase::new(blinding_generator().xy()),
            gs: (0..n as u64).map(|i| FixedBase::new(vector_generator(i).xy())).collect(),
        }
    }

    /// `G = Base8`.
    pub fn g(&self) -> &FixedBase {
        &self.g
    }

    /// `H`.
    pub fn h(&self) -> &FixedBase {
        &self.h
    }

    /// `G_0 … G_{n−1}`.
    pub fn vector_generators(&self) -> &[FixedBase] {
        &self.gs
    }
}

fn check_len(bits: &[Wire]) {
    assert!(bits.len() <= MAX_BITS, "a committed scalar has at most {MAX_BITS} bits");
}

/// `m·G + r·H` from little-endian boolean wires (booleanity is the caller's).
///
/// # Panics
///
/// If `m_bits` or `r_bits` has more than [`MAX_BITS`] bits.
pub fn commit_bits(
    b: &Builder,
    bases: &PedersenBases,
    m_bits: &[Wire],
    r_bits: &[Wire],
) -> Result<PointWire> {
    check_len(m_bits);
    check_len(r_bits);
    let mg = fixed_base::mul(b, &bases.g, m_bits)?;
    let rh = fixed_base::mul(b, &bases.h, r_bits)?;
    point::add(b, &mg, &rh)
}

/// `Σ m_i·G_i + r·H` from little-endian boolean wires (booleanity is the caller's).
///
/// # Panics
///
/// If there are more values than vector generators, or a bit vector is longer than
/// [`MAX_BITS`].
pub fn commit_vector_bits(
    b: &Builder,
    bases: &PedersenBases,
    values: &[Vec<Wire>],
    r_bits: &[Wire],
) -> Result<PointWire> {
    assert!(values.len() <= bases.gs.len(), "more values than vector generators");
    check_len(r_bits);
    let mut acc = fixed_base::mul(b, &bases.h, r_bits)?;
    for (bits, g) in values.iter().zip(&bases.gs) {
        check_len(bits);
        let term = fixed_base::mul(b, g, bits)?;
        acc = point::add(b, &acc, &term)?;
    }
    Ok(acc)
}

/// Enforce `C = m·G + r·H` from bits (`C` on the curve or a public input; see the module
/// documentation).
pub fn enforce_opening_bits(
    b: &Builder,
    bases: &PedersenBases,
    c: &PointWire,
    m_bits: &[Wire],
    r_bits: &[Wire],
) -> Result<()> {
    let d = commit_bits(b, bases, m_bits, r_bits)?;
    point::enforce_equal(b, c, &d)
}

/// Enforce `C = m·G + r·H` for an `m_n`-bit value `m` and a blinding factor `r < 2^251`
/// (every scalar mod `l` has such a representative), decomposing both here
/// (`m_n + 1` and 252 constraints). [`VALUE_BITS`]` = 64` gives the 801 constraints above.
///
/// # Panics
///
/// If `m_n > 252`.
pub fn open(b: &Builder, bases: &PedersenBases, c: &PointWire, m: &Wire, m_n: u32, r: &Wire) -> Result<()> {
    let m_bits = scalar_bits(b, m, m_n)?;
    let r_bits = scalar_bits(b, r, SCALAR_BITS)?;
    enforce_opening_bits(b, bases, c, &m_bits, &r_bits)
}

#[cfg(test)]
mod tests {
    use super::super::super::test_util::*;
    use super::super::point::native::Affine;
    use super::*;
    use ark_bn254::Fr;
    use ark_ff::{One, PrimeField};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;
    use zeenot_crypto::elgamal::random_nonzero_scalar;
    use zeenot_crypto::{PedersenGenerators, Point, Scalar};

    fn s2f(s: &Scalar) -> Fr {
        Fr::from_bigint(s.into_bigint()).unwrap_or_default()
    }

    fn var(b: &Builder, v: Fr) -> Wire {
        Wire::var(b.witness(Some(v)).unwrap(), Some(v), None)
    }

    /// `m`, `r`, then `C` (unchecked: the opening constrains it), then the gadget; returns the
    /// number of constraints of [`open`].
    fn open_circuit(b: &Builder, m: Fr, m_n: u32, r: Fr, c: Affine) -> usize {
        let (mw, rw) = (var(b, m), var(b, r));
        let cw = PointWire::witness_unchecked(b, Some(c)).unwrap();
        let before = b.cs.num_constraints();
        open(b, &PedersenBases::new(0), &cw, &mw, m_n, &rw).unwrap();
        b.cs.num_constraints() - before
    }

    #[test]
    fn pedersen_bases_match_native_generators() {
        let gens = PedersenGenerators::new(3);
        let bases = PedersenBases::new(3);
        assert_eq!(bases.g().base(), Point::generator().xy());
        assert_eq!(bases.h().base(), gens.h().xy());
        for (fb, g) in bases.vector_generators().iter().zip(gens.vector_generators()) {
            assert_eq!(fb.base(), g.xy());
        }
    }

    #[test]
    fn pedersen_opening_verifies_and_is_sound() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let gens = PedersenGenerators::new(0);
        let mut values: Vec<u64> = vec![0, 1, u64::MAX];
        values.push(rng.gen());
        for v in values {
            let r = random_nonzero_scalar(&mut rng);
            let c = gens.commit(&Scalar::from(v), &r);
            let b = builder();
            let n = open_circuit(&b, Fr::from(v), VALUE_BITS, s2f(&r), c.0.xy());
            assert_eq!(n, 801);
            assert_sound(&b, 4);
        }
        // r = 0 and r = l − 1, and a full-scalar value
        for r in [Scalar::from(0u64), -Scalar::one()] {
            let m = random_nonzero_scalar(&mut rng);
            let c = gens.commit(&m, &r);
            let b = builder();
            open_circuit(&b, s2f(&m), SCALAR_BITS, s2f(&r), c.0.xy());
            assert_sound(&b, 4);
        }
    }

    #[test]
    fn pedersen_wrong_opening_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(12);
        let gens = PedersenGenerators::new(0);
        let v: u64 = rng.gen();
        let r = random_nonzero_scalar(&mut rng);
        let c = gens.commit(&Scalar::from(v), &r).0.xy();
        let other = gens.commit(&Scalar::from(v), &random_nonzero_scalar(&mut rng)).0.xy();
        let shifted = (Point::from_xy(c.0, c.1).unwrap() + Point::generator()).xy();
        let cases = [
            (Fr::from(v) + Fr::one(), s2f(&r), c),
            (Fr::from(v), s2f(&r) + Fr::one(), c),
            (Fr::from(v), s2f(&r), other),
            (Fr::from(v), s2f(&r), shifted),
            // not on the curve
            (Fr::from(v), s2f(&r), (c.0, c.1 + Fr::one())),
        ];
        for (m, r, c) in cases {
            let b = builder();
            open_circuit(&b, m, VALUE_BITS, r, c);
            assert_unsat(&b);
        }
        // a value beyond 64 bits is rejected by the decomposition
        let big = Fr::from(u64::MAX) + Fr::one();
        let c = gens.commit(&(Scalar::from(u64::MAX) + Scalar::one()), &r).0.xy();
        let b = builder();
        open_circuit(&b, big, VALUE_BITS, s2f(&r), c);
        assert_unsat(&b);
    }

    #[test]
    fn pedersen_public_commitment_and_bits_cost() {
        let mut rng = ChaCha20Rng::seed_from_u64(13);
        let gens = PedersenGenerators::new(0);
        let v: u64 = rng.gen();
        let r = random_nonzero_scalar(&mut rng);
        let c = gens.commit(&Scalar::from(v), &r).0.xy();
        let b = builder();
        let (mw, rw) = (var(&b, Fr::from(v)), var(&b, s2f(&r)));
        let m_bits = scalar_bits(&b, &mw, VALUE_BITS).unwrap();
        let r_bits = scalar_bits(&b, &rw, SCALAR_BITS).unwrap();
        let cw = PointWire {
            x: Wire::var(b.input(Some(c.0)).unwrap(), Some(c.0), None),
            y: Wire::var(b.input(Some(c.1)).unwrap(), Some(c.1), None),
        };
        let before = b.cs.num_constraints();
        let d = commit_bits(&b, &PedersenBases::new(0), &m_bits, &r_bits).unwrap();
        assert_eq!(b.cs.num_constraints() - before, 482);
        assert_eq!(d.value(), Some(c));
        point::enforce_equal(&b, &cw, &d).unwrap();
        assert_sound(&b, 2);
    }

    #[test]
    fn pedersen_vector_commitment_matches_native() {
        let mut rng = ChaCha20Rng::seed_from_u64(14);
        let gens = PedersenGenerators::new(3);
        let bases = PedersenBases::new(3);
        let vals: Vec<u64> = (0..3).map(|_| rng.gen()).collect();
        let r = random_nonzero_scalar(&mut rng);
        let scalars: Vec<Scalar> = vals.iter().map(|v| Scalar::from(*v)).collect();
        let c = gens.commit_vector(&scalars, &r).unwrap().0.xy();
        let b = builder();
        let ws: Vec<Wire> = vals.iter().map(|v| var(&b, Fr::from(*v))).collect();
        let rw = var(&b, s2f(&r));
        let bits: Vec<Vec<Wire>> = ws.iter().map(|w| scalar_bits(&b, w, VALUE_BITS).unwrap()).collect();
        let r_bits = scalar_bits(&b, &rw, SCALAR_BITS).unwrap();
        let d = commit_vector_bits(&b, &bases, &bits, &r_bits).unwrap();
        assert_eq!(d.value(), Some(c));
        assert_sound(&b, 4);
        // a wrong C
        let wrong = PointWire::witness(&b, Some(gens.commit(&scalars[0], &r).0.xy())).unwrap();
        point::enforce_equal(&b, &wrong, &d).unwrap();
        assert_unsat(&b);
    }
}
