//! Baby Jubjub gadgets: the curve lives in BN254's scalar field, so its points are handled
//! natively by a Groth16 circuit over BN254. See `docs/circuits.md`, "Baby Jubjub gadgets".
//!
//! * [`point`]: [`PointWire`], on-curve check, complete addition, doubling, select, negate.
//! * [`fixed_base`]: windowed fixed-base multiplication with constant tables.
//! * [`variable_base`]: variable-base multiplication with complete formulas.
//! * [`elgamal`]: encryption, homomorphic addition, re-randomisation, key switching.
//! * [`poseidon`]: circomlib-compatible Poseidon over wires.
//! * [`pedersen`]: Pedersen commitments and their openings.
//!
//! Scalars enter as little-endian boolean wires; [`scalar_bits`] produces them from a field
//! element.

pub mod eddsa;
pub mod elgamal;
pub mod fixed_base;
mod montgomery;
pub mod pedersen;
pub mod point;
pub mod poseidon;
pub mod variable_base;

#[cfg(test)]
mod tests;

pub use point::PointWire;

use super::{Builder, Result, Wire};

/// Bits of a scalar: `l < 2^251`, so 251 bits reach every scalar modulo `l`.
pub const SCALAR_BITS: u32 = 251;

/// Decompose `w` into `n ≤ 252` little-endian bits, enforcing booleanity and `w = Σ 2^i b_i`
/// (`n + 1` constraints). As `2^n ≤ 2^252 < p`, the decomposition is unique (no aliasing: a
/// 254-bit decomposition would let `w` and `w + p` both pass) and proves `w < 2^n`. A scalar
/// `w ∈ [l, 2^251)` is accepted and acts as `w mod l` in every multiplication.
pub fn scalar_bits(b: &Builder, w: &Wire, n: u32) -> Result<Vec<Wire>> {
    assert!(n <= 252, "a scalar decomposition must stay below the field modulus");
    super::bits::to_bits(b, w, n)
}
