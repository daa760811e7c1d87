//! Groth16 verification from the verifying key and the *layout* of the public values alone.
//!
//! A verifier needs neither the IR nor the circuit: only the type of each public value (to
//! range-check it) and where the Pedersen commitments sit (to check them on Baby Jubjub), the
//! [`Layout`]. Its cost is then the pairing check plus a multi-exponentiation over the public
//! values, whatever the program's size. [`Verifier::verify_batch`] checks many proofs of one
//! program with a random linear combination: one Miller loop per proof plus three, and a
//! single final exponentiation.

use crate::ir::{Program, Ty, Value, Visibility};
use crate::Error;
use ark_bn254::{Bn254, Fr, G1Affine, G1Projective};
use ark_ec::pairing::{Pairing, PairingOutput};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{One, Zero};
use ark_groth16::{Groth16, PreparedVerifyingKey};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::Point;

use crate::keys::{Proof, VerifyingKey};

/// The public values of a program: one type per instance variable (after the constant one),
/// and the index of each commitment's `x` (its `y` follows). See docs/ir.md, "instance order".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    types: Vec<Ty>,
    commitments: Vec<usize>,
}

impl Layout {
    /// The layout of a program's instance.
    pub fn of(p: &Program) -> Layout {
        let types = p.instance_types();
        let mut commitments: Vec<usize> = Vec::new();
        let mut at = p.public_inputs().count();
        for _ in p.input_commitments() {
            commitments.push(at);
            at += 2;
        }
        for (&vis, &joint) in p.output_vis.iter().zip(&p.output_joint) {
            if vis == Visibility::Committed {
                if !joint {
                    commitments.push(at);
                    at += 2;
                }
            } else {
                at += 1;
            }
        }
        Layout { types, commitments }
    }

    /// A layout read from elsewhere (a circuit directory's `verifier.json`): every commitment
    /// names two `field` values inside the instance, in increasing order without overlap.
    pub fn new(types: Vec<Ty>, commitments: Vec<usize>) -> Result<Layout, Error> {
        let mut next = 0;
        for &at in &commitments {
            // `at + 1` overflows for `at = usize::MAX` (a position read from a file)
            let fits = at >= next && at < types.len().saturating_sub(1);
            if !fits || types[at] != Ty::Field || types[at + 1] != Ty::Field {
                return Err(Error::Input(format!(
                    "layout: commitment at {at} is not two field values of the instance"
                )));
            }
            next = at + 2;
        }
        Ok(Layout { types, commitments })
    }

    /// The type of each public value.
    pub fn types(&self) -> &[Ty] {
        &self.types
    }

    /// The index of each commitment's `x` coordinate.
    pub fn commitments(&self) -> &[usize] {
        &self.commitments
    }

    /// Parse the public values (typed decimals) into the Groth16 instance. Each commitment
    /// must be a point of the prime-order subgroup of Baby Jubjub ([`Error::Input`] otherwise).
    pub fn instance(&self, public: &[String]) -> Result<Vec<Fr>, Error> {
        if public.len() != self.types.len() {
            return Err(Error::Input(format!(
                "expected {} public values, got {}",
                self.types.len(),
                public.len()
            )));
        }
        let x = self
            .types
            .iter()
            .zip(public)
            .enumerate()
            .map(|(i, (&ty, v))| {
                Value::parse(ty, v)
                    .map(Value::to_fr)
                    .map_err(|e| Error::Input(format!("public value {i}: {e}")))
            })
            .collect::<Result<Vec<Fr>, Error>>()?;
        for &at in &self.commitments {
            Point::from_xy(x[at], x[at + 1]).map_err(|e| {
                Error::Input(format!(
                    "public values {at} and {}: not a commitment (a point of the prime-order subgroup): {e}",
                    at + 1
                ))
            })?;
        }
        Ok(x)
    }
}

/// A prepared verifying key with the layout of its program's public values.
pub struct Verifier {
    layout: Layout,
    pvk: PreparedVerifyingKey<Bn254>,
}

impl Verifier {
    /// Prepare `vk` (one pairing) for proofs whose public values follow `layout`.
    pub fn new(layout: Layout, vk: &VerifyingKey) -> Result<Verifier, Error> {
        if vk.gamma_abc_g1.len() != layout.types.len() + 1 {
            return Err(Error::Key(format!(
                "the verifying key is for a circuit with {} public inputs, this program has {}",
                vk.gamma_abc_g1.len().saturating_sub(1),
                layout.types.len()
            )));
        }
        Ok(Verifier { layout, pvk: ark_groth16::prepare_verifying_key(vk) })
    }

    /// The layout of the public values.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `gamma_abc_g1[0] + Σ s_j · gamma_abc_g1[j + 1]`, by one multi-exponentiation.
    fn combine_inputs(&self, s0: Fr, s: &[Fr]) -> G1Projective {
        let ic = &self.pvk.vk.gamma_abc_g1;
        G1Projective::from(ic[0]) * s0 + G1Projective::msm_unchecked(&ic[1..], s)
    }

    /// Verify one proof: `Ok(false)` if it does not verify, an error for malformed values.
    pub fn verify(&self, public: &[String], proof: &Proof) -> Result<bool, Error> {
        let x = self.layout.instance(public)?;
        let inputs = self.combine_inputs(Fr::one(), &x);
        Groth16::<Bn254>::verify_proof_with_prepared_inputs(&self.pvk, proof, &inputs)
            .map_err(|e| Error::Synthesis(e.to_string()))
    }

    /// Verify many proofs at once: true iff all are valid (up to a 2^-128 chance that an
    /// invalid batch passes). Each proof `i` is weighted by a fresh random `r_i` of 128 bits,
    /// drawn after the proofs are fixed, and the batch checks
    /// `Π e(r_i·A_i, B_i) · e(-Σr_i·L_i, γ) · e(-Σr_i·C_i, δ) = e(α, β)^{Σ r_i}`, where
    /// `Σ r_i·L_i` is one multi-exponentiation over the aggregated public values. Malformed
    /// public values are an error naming the proof.
    pub fn verify_batch<R: RngCore + CryptoRng>(
        &self,
        items: &[(&[String], &Proof)],
        rng: &mut R,
    ) -> Result<bool, Error> {
        let n_public = self.layout.types.len();
        let mut s = vec![Fr::zero(); n_public];
        let mut sum_r = Fr::zero();
        let mut weighted_a: Vec<G1Affine> = Vec::with_capacity(items.len());
        let mut r_all: Vec<Fr> = Vec::with_capacity(items.len());
        let mut cs: Vec<G1Affine> = Vec::with_capacity(items.len());
        for (k, (public, proof)) in items.iter().enumerate() {
            let x = self.layout.instance(public).map_err(|e| Error::Input(format!("proof {k}: {e}")))?;
            let r = Fr::from(((rng.next_u64() as u128) << 64) | rng.next_u64() as u128);
            for (sj, xj) in s.iter_mut().zip(&x) {
                *sj += r * xj;
            }
            sum_r += r;
            r_all.push(r);
            cs.push(proof.c);
        }
        let r_a: Vec<G1Projective> = items.iter().zip(&r_all).map(|((_, p), r)| p.a * r).collect();
        weighted_a.extend(G1Projective::normalize_batch(&r_a));
        let inputs = self.combine_inputs(sum_r, &s);
        let c = G1Projective::msm_unchecked(&cs, &r_all);
        let mut g1: Vec<<Bn254 as Pairing>::G1Prepared> = weighted_a.iter().map(|&a| a.into()).collect();
        let mut g2: Vec<<Bn254 as Pairing>::G2Prepared> = items.iter().map(|(_, p)| p.b.into()).collect();
        g1.push(inputs.into_affine().into());
        g2.push(self.pvk.gamma_g2_neg_pc.clone());
        g1.push(c.into_affine().into());
        g2.push(self.pvk.delta_g2_neg_pc.clone());
        let Some(test) = Bn254::final_exponentiation(Bn254::multi_miller_loop(g1, g2)) else {
            return Ok(false);
        };
        Ok(test == PairingOutput(self.pvk.alpha_g1_beta_g2) * sum_r)
    }
}
