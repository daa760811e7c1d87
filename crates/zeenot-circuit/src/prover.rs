//! The Groth16 prover's two computations, from what the prover keeps of the constraint system:
//! each constraint's sides evaluated at the assignment ([`Evaluations`]) and the assignment
//! itself. arkworks' prover reads the constraints as matrices, which a prover would have to
//! hold (~1.7 kB per constraint with arkworks' constraint system); this one holds 96 bytes per
//! constraint. Verification stays arkworks' (`ark-groth16`); setup is `crate::setup` (arkworks'
//! keys, also without the matrices), and the proof is the same group elements arkworks would
//! compute for the same `r`, `s` (tested).
//!
//! Its five multi-scalar multiplications are [`crate::msm`]'s (batched affine buckets: 1.3–1.5×
//! arkworks' at 2^16).
//!
//! The reduction is libsnark's, as arkworks' `LibsnarkReduction` (the one setup's keys are
//! made for): the QAP's domain holds the constraints and then one row per instance variable
//! (`A` reads the variable, `B` and `C` nothing), and the quotient `h = (a·b − c) / Z` is
//! computed on the coset `g·H` where `Z` is a non-zero constant.

use crate::gadgets::Evaluations;
use crate::glv::Glv;
use crate::keys::{Proof, ProvingKey};
use crate::msm::msm;
use crate::Error;
use ark_bn254::{Fr, G1Affine, G2Affine};
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::CurveGroup;
use ark_ff::{FftField, Field, PrimeField, Zero};
use ark_poly::{EvaluationDomain, GeneralEvaluationDomain};

/// The coefficients of the quotient polynomial `h`, from the constraints' evaluations and the
/// `num_inputs` instance variables (the constant `1` first) at the start of `assignment`.
pub(crate) fn quotient(e: Evaluations, num_inputs: usize, assignment: &[Fr]) -> Result<Vec<Fr>, Error> {
    let n = e.a.len();
    let domain = GeneralEvaluationDomain::<Fr>::new(n + num_inputs)
        .ok_or_else(|| Error::Synthesis("the circuit is too large for BN254's FFT domain".into()))?;
    let coset = domain
        .get_coset(<Fr as FftField>::GENERATOR)
        .ok_or_else(|| Error::Synthesis("internal error: no coset of the FFT domain".into()))?;
    let size = domain.size();
    // a, b, c in evaluation form over the domain, then over the coset
    let on_coset = |mut v: Vec<Fr>| {
        v.resize(size, Fr::zero());
        domain.ifft_in_place(&mut v);
        coset.fft_in_place(&mut v);
        v
    };
    let mut a = e.a;
    a.resize(size, Fr::zero());
    a[n..n + num_inputs].copy_from_slice(&assignment[..num_inputs]);
    let mut ab = on_coset(a);
    let b = on_coset(e.b);
    ab.iter_mut().zip(&b).for_each(|(x, y)| *x *= y);
    drop(b);
    let c = on_coset(e.c);
    // Z(g·ω^i) = g^size − 1 for every point of the coset
    let z_inverse = domain
        .evaluate_vanishing_polynomial(<Fr as FftField>::GENERATOR)
        .inverse()
        .ok_or_else(|| Error::Synthesis("internal error: the vanishing polynomial is zero".into()))?;
    ab.iter_mut().zip(c).for_each(|(x, c)| {
        *x -= c;
        *x *= z_inverse;
    });
    coset.ifft_in_place(&mut ab);
    Ok(ab)
}

/// `base_0 + Σ_{i≥1} base_i · scalar_{i−1}`: a query's constant term and its MSM over the
/// assignment (without its leading `1`).
fn query_sum<P: Glv + SWCurveConfig<ScalarField = Fr>>(
    query: &[Affine<P>],
    scalars: &[<Fr as PrimeField>::BigInt],
) -> Projective<P> {
    let (first, rest) = query.split_first().expect("the key's shape is checked before proving");
    msm(rest, scalars) + first
}

/// The proof `(A, B, C)` of Groth16 (Groth 2016, §3.2) with randomness `r`, `s`: `h` the
/// quotient's coefficients, `assignment` every variable (the constant `1`, the other
/// `num_inputs − 1` instance variables, then the witnesses).
pub(crate) fn assemble(
    pk: &ProvingKey,
    r: Fr,
    s: Fr,
    h: Vec<Fr>,
    assignment: &[Fr],
    num_inputs: usize,
) -> Proof {
    let h: Vec<_> = h.into_iter().map(|x| x.into_bigint()).collect();
    let h_sum = msm(&pk.h_query, &h);
    drop(h);
    let z: Vec<_> = assignment[1..].iter().map(|x| x.into_bigint()).collect();
    let l_sum = msm(&pk.l_query, &z[num_inputs - 1..]);
    // A = α + Σ a_i(τ)·z_i + r·δ, B = β + Σ b_i(τ)·z_i + s·δ (in G2, and in G1 for C)
    let a = query_sum(&pk.a_query, &z) + pk.vk.alpha_g1 + pk.delta_g1 * r;
    let b_g1 = query_sum(&pk.b_g1_query, &z) + pk.beta_g1 + pk.delta_g1 * s;
    let b = query_sum(&pk.b_g2_query, &z) + pk.vk.beta_g2 + pk.vk.delta_g2 * s;
    drop(z);
    // C = Σ_witness l_i·z_i + h(τ)t(τ)/δ + s·A + r·B − r·s·δ
    let c = l_sum + h_sum + a * s + b_g1 * r - pk.delta_g1 * (r * s);
    let (a, b, c): (G1Affine, G2Affine, G1Affine) = (a.into_affine(), b.into_affine(), c.into_affine());
    Proof { a, b, c }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{groth16, synth, Program};
    use ark_bn254::Bn254;
    use ark_ff::UniformRand;
    use ark_groth16::Groth16;
    use ark_relations::r1cs::{ConstraintSystem, OptimizationGoal, SynthesisMode};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Private `a`, public `b`: `check(a < 1000)`, a Poseidon hash and a product, public.
    pub(crate) fn program() -> Program {
        let doc = serde_json::json!({
            "version": 1, "name": "f",
            "inputs": [{"id": 0, "name": "a", "ty": "u32", "vis": "private"},
                       {"id": 1, "name": "b", "ty": "u32", "vis": "public"}],
            "body": [
                {"id": 2, "op": "const", "ty": "u32", "value": "1000"},
                {"id": 3, "op": "lt", "ty": "bool", "args": [0, 2]},
                {"op": "check", "args": [3]},
                {"id": 4, "op": "mul", "ty": "u32", "args": [0, 1]},
                {"id": 5, "op": "cast", "ty": "field", "args": [4]},
                {"id": 6, "op": "poseidon", "ty": "field", "args": [5, 5]},
            ],
            "outputs": [{"name": "p", "value": 4}, {"name": "h", "value": 6}],
        });
        Program::from_json(&doc.to_string()).unwrap()
    }

    /// A chain of `n` squarings of a private field element, the last public: past
    /// [`crate::msm`]'s threshold for arkworks' MSM when `n` is large.
    fn chain(n: u64) -> Program {
        let mut body = vec![];
        for i in 1..=n {
            body.push(serde_json::json!({"id": i, "op": "mul", "ty": "field", "args": [i - 1, i - 1]}));
        }
        let doc = serde_json::json!({
            "version": 1, "name": "chain",
            "inputs": [{"id": 0, "name": "x", "ty": "field", "vis": "private"}],
            "body": body, "outputs": [{"name": "y", "value": n}],
        });
        Program::from_json(&doc.to_string()).unwrap()
    }

    /// The same group elements as arkworks' prover on the full constraint matrices, for the
    /// same `r`, `s` (and for `r = 0`, where arkworks skips `B` in G1).
    #[test]
    fn same_proof_as_arkworks_from_the_matrices() {
        same_proof_as_arkworks(&program(), &["999", "3"]);
        same_proof_as_arkworks(&chain(1100), &["7"]);
    }

    fn same_proof_as_arkworks(p: &Program, inputs: &[&str]) {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let (pk, vk) = groth16::setup(p, &mut rng).unwrap();
        let inputs = p.parse_inputs(&inputs.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        let full = ConstraintSystem::<Fr>::new_ref();
        full.set_optimization_goal(OptimizationGoal::Constraints);
        synth::lower_blinded(p, Some(&inputs), Some(&[]), full.clone()).unwrap();
        full.finalize();
        let matrices = full.to_matrices().unwrap();
        let z = {
            let inner = full.borrow().unwrap();
            [inner.instance_assignment.as_slice(), inner.witness_assignment.as_slice()].concat()
        };
        let n_in = full.num_instance_variables();
        for (r, s) in [(Fr::rand(&mut rng), Fr::rand(&mut rng)), (Fr::zero(), Fr::rand(&mut rng))] {
            let theirs = Groth16::<Bn254>::create_proof_with_reduction_and_matrices(
                &pk,
                r,
                s,
                &matrices,
                n_in,
                full.num_constraints(),
                &z,
            )
            .unwrap();
            let lean = ConstraintSystem::<Fr>::new_ref();
            lean.set_mode(SynthesisMode::Prove { construct_matrices: false });
            let e = synth::lower_evaluated(p, &inputs, &[], lean).unwrap();
            let ours = assemble(&pk, r, s, quotient(e, n_in, &z).unwrap(), &z, n_in);
            assert_eq!(ours, theirs);
            let public = z[1..n_in].to_vec();
            assert!(Groth16::<Bn254>::verify_proof(&ark_groth16::prepare_verifying_key(&vk), &ours, &public)
                .unwrap());
        }
    }
}
