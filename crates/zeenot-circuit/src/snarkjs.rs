//! Export to snarkjs's JSON formats (`snarkjs groth16 verify vk.json public.json proof.json`).
//!
//! Coordinates are affine, as decimal strings of canonical base-field integers; G1 points are
//! `[x, y, "1"]`, G2 points `[[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]`. The verification equation
//! of arkworks' Groth16 is the one snarkjs checks, with the same instance layout (IC[0] for the
//! constant one), so a key and proof carry over unchanged.
//!
//! `vk_alphabeta_12` is `e(alpha, beta)` in snarkjs's layout for `Fq12 = Fq6[w]/(w² − v)`,
//! `Fq6 = Fq2[v]/(v³ − (9 + u))`, `Fq2 = Fq[u]/(u² + 1)` (the same towers arkworks and ffjavascript
//! use): `[[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]]`, each an `Fq2` as `[c0, c1]`. snarkjs's
//! verifier does not read it; it is there so the file has every field snarkjs writes.

use crate::groth16::{self, Proof, VerifyingKey};
use crate::ir::Program;
use crate::Error;
use ark_bn254::{Bn254, Fq, Fq12, Fq2, Fq6, Fr, G1Affine, G2Affine};
use ark_ec::pairing::Pairing;
use ark_ff::{BigInteger, PrimeField};
use num_bigint::BigUint;
use serde_json::{json, Value};

fn fq(x: &Fq) -> String {
    BigUint::from_bytes_le(&x.into_bigint().to_bytes_le()).to_string()
}

fn g1(p: &G1Affine) -> Value {
    if p.infinity {
        // snarkjs's projective encoding of the point at infinity
        return json!(["0", "1", "0"]);
    }
    json!([fq(&p.x), fq(&p.y), "1"])
}

fn g2(p: &G2Affine) -> Value {
    if p.infinity {
        return json!([["0", "0"], ["1", "0"], ["0", "0"]]);
    }
    json!([[fq(&p.x.c0), fq(&p.x.c1)], [fq(&p.y.c0), fq(&p.y.c1)], ["1", "0"]])
}

fn fq2(x: &Fq2) -> Value {
    json!([fq(&x.c0), fq(&x.c1)])
}

fn fq6(x: &Fq6) -> Value {
    json!([fq2(&x.c0), fq2(&x.c1), fq2(&x.c2)])
}

fn fq12(x: &Fq12) -> Value {
    json!([fq6(&x.c0), fq6(&x.c1)])
}

/// `e(alpha, beta)` of a verifying key, as snarkjs writes `vk_alphabeta_12`.
pub fn alphabeta(vk: &VerifyingKey) -> Value {
    fq12(&Bn254::pairing(vk.alpha_g1, vk.beta_g2).0)
}

/// `verification_key.json`.
pub fn verification_key(vk: &VerifyingKey) -> Value {
    json!({
        "protocol": "groth16",
        "curve": "bn128",
        "nPublic": vk.gamma_abc_g1.len().saturating_sub(1),
        "vk_alpha_1": g1(&vk.alpha_g1),
        "vk_beta_2": g2(&vk.beta_g2),
        "vk_gamma_2": g2(&vk.gamma_g2),
        "vk_alphabeta_12": alphabeta(vk),
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

/// The three snarkjs files for a proof of `p`, as pretty-printed JSON texts:
/// `(verification_key.json, proof.json, public.json)`. The public values are typed decimals
/// (public input leaves, then outputs) and are checked against the program's types; the key must
/// have the program's number of public inputs.
pub fn export(
    p: &Program,
    vk: &VerifyingKey,
    public_values: &[String],
    pr: &Proof,
) -> Result<(String, String, String), Error> {
    let x = groth16::instance(p, public_values)?;
    if vk.gamma_abc_g1.len() != x.len() + 1 {
        return Err(Error::Key(format!(
            "the verifying key is for a circuit with {} public inputs, this program has {}",
            vk.gamma_abc_g1.len().saturating_sub(1),
            x.len()
        )));
    }
    let text = |v: Value| serde_json::to_string_pretty(&v).map_err(|e| Error::Input(e.to_string()));
    Ok((text(verification_key(vk))?, text(proof(pr))?, text(public(&x))?))
}

/// `verification_key.json` as pretty-printed text.
pub fn export_vk(vk: &VerifyingKey) -> String {
    serde_json::to_string_pretty(&verification_key(vk)).unwrap_or_default()
}
