//! The shared sources of group elements and scalars that the scalar multiplications and the
//! protocols above them draw on: Pedersen's blinding base `H` and vector bases `G_i` (hashed to
//! the curve, see [`crate::pedersen`] for their role), and uniformly random non-zero scalars
//! (keys, nonces, blindings). [`crate::ct`] precomputes tables for `H` beside `Base8`;
//! [`crate::pedersen`] and [`crate::elgamal`] use all of them and re-export them.

use ark_ff::{UniformRand, Zero};
use rand::{CryptoRng, RngCore};

use crate::curve::{hash_to_curve, Point, Scalar};

/// The domain separator of Pedersen generators.
pub const PEDERSEN_DOMAIN: &[u8] = b"zeenot/pedersen/v1";

/// The blinding base `H`.
pub fn blinding_generator() -> Point {
    hash_to_curve(PEDERSEN_DOMAIN, b"H")
}

/// The vector base `G_i`.
pub fn vector_generator(i: u64) -> Point {
    let mut msg = b"G".to_vec();
    msg.extend_from_slice(&i.to_le_bytes());
    hash_to_curve(PEDERSEN_DOMAIN, &msg)
}

/// A non-zero scalar drawn uniformly from `[1, l)`.
pub fn random_nonzero_scalar<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar {
    loop {
        let s = Scalar::rand(rng);
        if !s.is_zero() {
            return s;
        }
    }
}
