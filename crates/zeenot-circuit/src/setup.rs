//! Groth16's setup (Groth 2016, §3.2) from the constraints evaluated at the secret point `τ`
//! instead of their matrices. arkworks' generator builds the whole constraint system and its
//! matrices (~1.7 kB per constraint) to evaluate each variable's QAP polynomials at `τ`; the
//! lowering can add each constraint's share to those evaluations as it enforces the constraint
//! ([`AtTau`]: 96 bytes per variable and 32 per row of the domain), after counting the
//! constraints once to size the domain. The rest is arkworks' algorithm on arkworks'
//! primitives (fixed-base batch multiplication), in arkworks' order of random draws, so that
//! one random generator gives arkworks' keys exactly (tested).
//!
//! The reduction is libsnark's, as in [`crate::prover`]: row `n + k` of the domain (`n`
//! constraints) holds instance variable `k` in `A`.

use crate::gadgets::AtTau;
use crate::keys::{ProvingKey, VerifyingKey};
use crate::{synth, Error, Program};
use ark_bn254::{Fr, G1Projective, G2Projective};
use ark_ec::scalar_mul::BatchMulPreprocessing;
use ark_ec::CurveGroup;
use ark_ff::{Field, UniformRand, Zero};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};
use rand::{CryptoRng, RngCore};

/// The proving and verifying keys of `p`, from fresh toxic waste drawn from `rng`.
pub(crate) fn setup<R: RngCore + CryptoRng>(
    p: &Program,
    rng: &mut R,
) -> Result<(ProvingKey, VerifyingKey), Error> {
    // arkworks' draws, in its order (`generate_random_parameters_with_reduction`)
    let (alpha, beta, gamma, delta) = (Fr::rand(rng), Fr::rand(rng), Fr::rand(rng), Fr::rand(rng));
    let (g1, g2) = (G1Projective::rand(rng), G2Projective::rand(rng));
    let (constraints, instance, witness) = synth::count(p).map_err(Error::synthesis)?;
    let domain = GeneralEvaluationDomain::<Fr>::new(constraints + instance)
        .ok_or_else(|| Error::Synthesis("the circuit is too large for BN254's FFT domain".into()))?;
    let t = domain.sample_element_outside_domain(rng);
    let zt = domain.evaluate_vanishing_polynomial(t);
    let columns = |len: usize| [vec![Fr::zero(); len], vec![Fr::zero(); len], vec![Fr::zero(); len]];
    let at = AtTau {
        lagrange: domain.evaluate_all_lagrange_coefficients(t),
        instance: columns(instance),
        witness: columns(witness),
        constraints: 0,
    };
    let at = synth::lower_at_tau(p, at).map_err(Error::synthesis)?;
    if at.constraints != constraints {
        return Err(Error::Synthesis(
            "internal error: the program lowered to another size than counted".into(),
        ));
    }
    let AtTau { lagrange, instance: [mut a, mut b, mut c], witness: [aw, bw, cw], .. } = at;
    for (k, a_k) in a.iter_mut().enumerate() {
        *a_k += lagrange[constraints + k];
    }
    drop(lagrange);
    a.extend(aw);
    b.extend(bw);
    c.extend(cw);

    let non_zero = |v: &[Fr]| v.iter().filter(|x| !x.is_zero()).count();
    let (non_zero_a, non_zero_b) = (non_zero(&a), non_zero(&b));
    let gamma_inverse = gamma.inverse().ok_or_else(|| Error::Synthesis("internal error: γ = 0".into()))?;
    let delta_inverse = delta.inverse().ok_or_else(|| Error::Synthesis("internal error: δ = 0".into()))?;
    // (β·a_k + α·b_k + c_k) / γ for the instance, / δ for the witnesses
    let combined = |k: usize, by: Fr| (beta * a[k] + alpha * b[k] + c[k]) * by;
    let gamma_abc: Vec<Fr> = (0..instance).map(|k| combined(k, gamma_inverse)).collect();
    let l: Vec<Fr> = (instance..a.len()).map(|k| combined(k, delta_inverse)).collect();
    drop(c);

    let b_g2_query = BatchMulPreprocessing::new(g2, non_zero_b).batch_mul(&b);
    let m = domain.size();
    let g1_table = BatchMulPreprocessing::new(g1, non_zero_a + non_zero_b + (a.len() - 1) + m + 1);
    let a_query = g1_table.batch_mul(&a);
    drop(a);
    let b_g1_query = g1_table.batch_mul(&b);
    drop(b);
    // t^i·Z(t)/δ for i < m − 1
    let h: Vec<Fr> = std::iter::successors(Some(zt * delta_inverse), |x| Some(*x * t)).take(m - 1).collect();
    let h_query = g1_table.batch_mul(&h);
    drop(h);
    let l_query = g1_table.batch_mul(&l);
    drop(l);
    let vk = VerifyingKey {
        alpha_g1: (g1 * alpha).into_affine(),
        beta_g2: (g2 * beta).into_affine(),
        gamma_g2: (g2 * gamma).into_affine(),
        delta_g2: (g2 * delta).into_affine(),
        gamma_abc_g1: g1_table.batch_mul(&gamma_abc),
    };
    let pk = ProvingKey {
        vk: vk.clone(),
        beta_g1: (g1 * beta).into_affine(),
        delta_g1: (g1 * delta).into_affine(),
        a_query,
        b_g1_query,
        b_g2_query,
        h_query,
        l_query,
    };
    Ok((pk, vk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::ProgramCircuit;
    use ark_bn254::Bn254;
    use ark_groth16::Groth16;
    use ark_snark::SNARK;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn program(body: serde_json::Value, inputs: serde_json::Value, outputs: serde_json::Value) -> Program {
        let doc = serde_json::json!({"version": 1, "name": "f", "inputs": inputs, "body": body, "outputs": outputs});
        Program::from_json(&doc.to_string()).unwrap()
    }

    /// arkworks' keys, for the same random generator: a program with public and private
    /// inputs, a comparison, a product and a Poseidon hash, and one with a committed input.
    #[test]
    fn same_keys_as_arkworks() {
        let plain = crate::prover::tests::program();
        let committed = program(
            serde_json::json!([{"id": 1, "op": "add", "ty": "u32", "args": [0, 0]}]),
            serde_json::json!([{"id": 0, "name": "x", "ty": "u32", "vis": "committed"}]),
            serde_json::json!([{"name": "y", "value": 1, "vis": "committed"}]),
        );
        for p in [plain, committed] {
            let ours = setup(&p, &mut ChaCha20Rng::seed_from_u64(11)).unwrap();
            let theirs = Groth16::<Bn254>::circuit_specific_setup(
                ProgramCircuit { program: &p, inputs: None, blindings: None },
                &mut ChaCha20Rng::seed_from_u64(11),
            )
            .unwrap();
            assert_eq!(ours, theirs);
        }
    }
}
