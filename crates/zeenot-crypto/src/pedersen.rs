//! Pedersen commitments on Baby Jubjub's prime-order subgroup.
//!
//! Generators: `G = Base8` for single-value commitments (so a commitment `v·G + r·H` and an
//! ElGamal plaintext point `m·G` share a base and sigma proofs can link them), the blinding
//! base `H = hash_to_curve("zeenot/pedersen/v1", "H")`, and vector bases
//! `G_i = hash_to_curve("zeenot/pedersen/v1", "G" ‖ i as 8-byte little-endian)`. Hashed
//! generators come from try-and-increment over domain-separated SHA-256 followed by
//! multiplication by the cofactor 8 (see [`crate::curve::hash_to_curve`]), so nobody knows a
//! discrete-log relation among `G`, `H` and the `G_i`: the commitments are perfectly hiding
//! and computationally binding. The generators are defined in `crate::generators` (below
//! [`crate::ct`], which precomputes tables for `H`) and re-exported here.
//!
//! `commit(v, r) = v·G + r·H`; `commit_vector([v_i], r) = Σ v_i·G_i + r·H`. Both are additively
//! homomorphic: `C(v, r) + C(v', r') = C(v + v', r + r')`.

use core::ops::{Add, Sub};

use rand::{CryptoRng, RngCore};
use subtle::ConstantTimeEq;

use crate::ct::FixedBaseTable;
use crate::curve::{Point, Scalar};
use crate::error::{Error, Result};
use crate::generators::random_nonzero_scalar;
pub use crate::generators::{blinding_generator, vector_generator, PEDERSEN_DOMAIN};

/// A Pedersen commitment (a subgroup point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commitment(pub Point);

impl Commitment {
    /// The packed point encoding.
    pub fn encode(&self) -> [u8; 32] {
        self.0.encode()
    }

    /// Decodes with all of [`Point::decode`]'s checks.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        Ok(Commitment(Point::decode_slice(bytes)?))
    }
}

impl Add for Commitment {
    type Output = Commitment;
    fn add(self, rhs: Commitment) -> Commitment {
        Commitment(self.0 + rhs.0)
    }
}

impl Sub for Commitment {
    type Output = Commitment;
    fn sub(self, rhs: Commitment) -> Commitment {
        Commitment(self.0 - rhs.0)
    }
}

/// Generators for single and vector commitments of up to `n` values, with a fixed-base table
/// for `H`.
#[derive(Clone, Debug)]
pub struct PedersenGenerators {
    h: Point,
    h_table: FixedBaseTable,
    gs: Vec<Point>,
}

impl PedersenGenerators {
    /// Generators for vectors of up to `n` values.
    pub fn new(n: usize) -> Self {
        let h = blinding_generator();
        PedersenGenerators {
            h,
            h_table: FixedBaseTable::new(&h),
            gs: (0..n as u64).map(vector_generator).collect(),
        }
    }

    /// `H`.
    pub fn h(&self) -> &Point {
        &self.h
    }

    /// `G_0 … G_{n−1}`.
    pub fn vector_generators(&self) -> &[Point] {
        &self.gs
    }

    /// `v·Base8 + r·H` (constant time in `v` and `r`).
    pub fn commit(&self, v: &Scalar, r: &Scalar) -> Commitment {
        Commitment(Point::mul_base(v) + self.h_table.mul(r))
    }

    /// A commitment with a fresh blinding factor, and that factor.
    pub fn commit_random<R: RngCore + CryptoRng>(&self, v: &Scalar, rng: &mut R) -> (Commitment, Scalar) {
        let r = random_nonzero_scalar(rng);
        (self.commit(v, &r), r)
    }

    /// `Σ v_i·G_i + r·H`; at most `n` values.
    pub fn commit_vector(&self, values: &[Scalar], r: &Scalar) -> Result<Commitment> {
        if values.len() > self.gs.len() {
            return Err(Error::LengthMismatch { what: "more values than vector generators" });
        }
        let mut acc = self.h_table.mul(r);
        for (v, g) in values.iter().zip(&self.gs) {
            acc += g.mul_ct(v);
        }
        Ok(Commitment(acc))
    }

    /// Whether `c` opens to `(v, r)`.
    pub fn verify(&self, c: &Commitment, v: &Scalar, r: &Scalar) -> bool {
        c.encode().ct_eq(&self.commit(v, r).encode()).into()
    }

    /// Whether `c` opens to `(values, r)`.
    pub fn verify_vector(&self, c: &Commitment, values: &[Scalar], r: &Scalar) -> bool {
        match self.commit_vector(values, r) {
            Ok(d) => c.encode().ct_eq(&d.encode()).into(),
            Err(_) => false,
        }
    }
}
