//! Groth16's key and proof types over BN254 (arkworks'), the data that [`crate::setup`] makes,
//! [`crate::prover`] and [`crate::verifier`] read, and [`crate::groth16`] re-exports and
//! (de)serialises. They sit below all four, so that none of them imports another for its types.

use ark_bn254::Bn254;

/// Groth16 proving key over BN254.
pub type ProvingKey = ark_groth16::ProvingKey<Bn254>;
/// Groth16 verifying key over BN254.
pub type VerifyingKey = ark_groth16::VerifyingKey<Bn254>;
/// Groth16 proof over BN254.
pub type Proof = ark_groth16::Proof<Bn254>;
