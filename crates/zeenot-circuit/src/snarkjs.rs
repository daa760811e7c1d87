//! Export to snarkjs's JSON formats (`snarkjs groth16 verify vk.json public.json proof.json`).
//!
//! Coordinates are affine, as decimal strings of canonical base-field integers; G1 points are
//! `[x, y, "1"]`, G2 points `[[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]`. The verification equation
//! of arkworks' Groth16 is the one snarkjs checks, with the same instance layout (IC[0] for the
//! constant one), so a key and proof carry over unchanged.

use crate::groth16::{Proof, VerifyingKey};
use ark_bn254::{Fq, Fr, G1Affine, G2Affine};
use ark_ff::{BigInteger, PrimeField};
use num_bigint::BigUint;
use serde_json::{json, Value};

fn fq(x: &Fq) -> String {
    BigUint::from_bytes_le(&x.into_bigint().to_bytes_le()).to_string()
}

fn g1(p: &G1Affine) -> Value {
    json!([fq(&p.x), fq(&p.y), "1"])
}

fn g2(p: &G2Affine) -> Value {
    json!([[fq(&p.x.c0), fq(&p.x.c1)], [fq(&p.y.c0), fq(&p.y.c1)], ["1", "0"]])
}

/// `verification_key.json`.
pub fn verification_key(vk: &VerifyingKey) -> Value {
    json!({
        "protocol": "groth16",
        "curve": "bn128",
        "nPublic": vk.gamma_abc_g1.len() - 1,
        "vk_alpha_1": g1(&vk.alpha_g1),
        "vk_beta_2": g2(&vk.beta_g2),
        "vk_gamma_2": g2(&vk.gamma_g2),
        "vk_delta_2": g2(&vk.delta_g2),
        "IC": vk.gamma_abc_g1.iter().map(g1).collect::<Vec<_>>(),
    })
}

/// `proof.json`.
pub fn proof(p: &Proof) -> Value {
    json!({"pi_a": g1(&p.a), "pi_b": g2(&p.b), "pi_c": g1(&p.c), "protocol": "groth16", "curve": "bn128"})
}

/// `public.json`: the instance as canonical field elements.
pub fn public(x: &[Fr]) -> Value {
    json!(x.iter().map(crate::ir::fr_to_decimal).collect::<Vec<_>>())
}
