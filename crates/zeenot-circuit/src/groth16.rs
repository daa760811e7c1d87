//! Groth16 over BN254 for IR programs: setup, prove, verify, and canonical (de)serialisation.

use crate::eval;
use crate::ir::{self, Program, Value, Visibility};
use crate::synth::{self, ProgramCircuit};
use crate::verifier::{Layout, Verifier};
use crate::Error;
use ark_bn254::{Bn254, Fr};
use ark_groth16::Groth16;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystem, OptimizationGoal, SynthesisMode};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use ark_snark::SNARK;
use ark_std::UniformRand;
use rand::{CryptoRng, RngCore};
use zeenot_crypto::Scalar;

/// Groth16 proving key over BN254.
pub type ProvingKey = ark_groth16::ProvingKey<Bn254>;
/// Groth16 verifying key over BN254.
pub type VerifyingKey = ark_groth16::VerifyingKey<Bn254>;
/// Groth16 proof over BN254.
pub type Proof = ark_groth16::Proof<Bn254>;

/// Size of a program's constraint system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// R1CS constraints.
    pub constraints: usize,
    /// Groth16 public inputs: public input leaves, two coordinates per commitment, and public
    /// output leaves.
    pub public_inputs: usize,
    /// Private and committed input leaves.
    pub private_inputs: usize,
    /// All witness variables (private inputs and intermediates).
    pub witnesses: usize,
}

/// Count constraints and variables (no keys, no values).
pub fn stats(p: &Program) -> Result<Stats, Error> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Setup);
    ProgramCircuit { program: p, inputs: None, blindings: None }
        .generate_constraints(cs.clone())
        .map_err(synthesis)?;
    Ok(Stats {
        constraints: cs.num_constraints(),
        public_inputs: cs.num_instance_variables() - 1,
        private_inputs: p.inputs.len() - p.public_inputs().count(),
        witnesses: cs.num_witness_variables(),
    })
}

fn synthesis(e: ark_relations::r1cs::SynthesisError) -> Error {
    match e {
        ark_relations::r1cs::SynthesisError::Unsatisfiable => {
            Error::Synthesis("the program fails on every input (a constant check or overflow)".into())
        }
        other => Error::Synthesis(other.to_string()),
    }
}

/// Circuit-specific Groth16 setup.
pub fn setup<R: RngCore + CryptoRng>(p: &Program, rng: &mut R) -> Result<(ProvingKey, VerifyingKey), Error> {
    Groth16::<Bn254>::circuit_specific_setup(
        ProgramCircuit { program: p, inputs: None, blindings: None },
        rng,
    )
    .map_err(synthesis)
}

/// A Groth16 proof with its public values and output blindings.
pub type Proven = ir::Proven<Proof>;

/// A committed value's integer (committed values are integers or bools; validation rejects the
/// rest).
fn committed_int(v: Value) -> Result<i128, Error> {
    match v {
        Value::Int(v) => Ok(v),
        Value::Field(_) => Err(Error::Input("a committed value must be an integer or bool".into())),
    }
}

/// Prove the program on input leaf values, with one blinding per committed input (input order;
/// the instance then holds `v·G + r·H` for each). The committed outputs' blindings are drawn
/// from `rng` and returned in [`Proven::blindings`]. Fails with [`Error::Unsatisfied`] (and a
/// source location) when the program fails on these inputs, [`Error::Input`] for a wrong number
/// of blindings.
pub fn prove<R: RngCore + CryptoRng>(
    p: &Program,
    pk: &ProvingKey,
    inputs: &[Value],
    blindings: &[Scalar],
    rng: &mut R,
) -> Result<Proven, Error> {
    let expected = p.instance_types().len() + 1;
    if pk.vk.gamma_abc_g1.len() != expected {
        return Err(Error::Key(format!(
            "the proving key is for a circuit with {} public inputs, this program has {}",
            pk.vk.gamma_abc_g1.len().saturating_sub(1),
            expected - 1
        )));
    }
    p.check_values(inputs).map_err(Error::Input)?;
    let committed: Vec<usize> = p.committed_inputs().collect();
    if blindings.len() != committed.len() {
        return Err(Error::Input(format!(
            "expected {} blindings (one per committed input), got {}",
            committed.len(),
            blindings.len()
        )));
    }
    let vals = eval::evaluate(p, inputs).map_err(Error::Unsatisfied)?;
    let out_blindings: Vec<Scalar> = p.committed_outputs().map(|_| Scalar::rand(rng)).collect();
    let all: Vec<Scalar> = blindings.iter().chain(&out_blindings).copied().collect();
    // One synthesis, as setup does it (same optimisation goal, so the same matrices), used for
    // the witness check and for the proof itself.
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    synth::lower_blinded(p, Some(inputs), Some(&all), cs.clone()).map_err(synthesis)?;
    // The witness must satisfy the circuit (a failure here is a zeenot bug, never the user's).
    if !cs.is_satisfied().map_err(synthesis)? {
        let which = cs.which_is_unsatisfied().ok().flatten().unwrap_or_default();
        return Err(Error::Synthesis(format!(
            "internal error: witness does not satisfy the circuit ({which})"
        )));
    }
    let mut public: Vec<String> = p.public_inputs().map(|i| vals[i].to_decimal()).collect();
    for (&i, r) in committed.iter().zip(blindings) {
        public.extend(ir::commitment_decimals(&ir::commit_value(committed_int(vals[i])?, r)));
    }
    let mut out_r = out_blindings.iter();
    for (&o, &vis) in p.outputs.iter().zip(&p.output_vis) {
        if vis == Visibility::Committed {
            let r = out_r.next().expect("one blinding per committed output");
            public.extend(ir::commitment_decimals(&ir::commit_value(committed_int(vals[o])?, r)));
        } else {
            public.push(vals[o].to_decimal());
        }
    }
    // the public values are the circuit's instance (a mismatch here is a zeenot bug)
    let x = instance(p, &public)?;
    let same = cs.borrow().is_some_and(|cs| cs.instance_assignment.get(1..) == Some(&x[..]));
    if !same {
        return Err(Error::Synthesis(
            "internal error: the public values are not the circuit's instance".into(),
        ));
    }
    cs.finalize();
    let matrices = cs.to_matrices().ok_or_else(|| Error::Synthesis("internal error: no matrices".into()))?;
    let full_assignment = {
        let inner = cs.borrow().ok_or_else(|| Error::Synthesis("internal error: cs borrowed".into()))?;
        [inner.instance_assignment.as_slice(), inner.witness_assignment.as_slice()].concat()
    };
    let (r, s) = (Fr::rand(rng), Fr::rand(rng));
    let proof = Groth16::<Bn254>::create_proof_with_reduction_and_matrices(
        pk,
        r,
        s,
        &matrices,
        cs.num_instance_variables(),
        cs.num_constraints(),
        &full_assignment,
    )
    .map_err(synthesis)?;
    Ok(Proven { proof, public, blindings: out_blindings })
}

/// Parse the public values (typed decimals) of a program into the Groth16 instance. Each
/// commitment must be a point of the prime-order subgroup of Baby Jubjub ([`Error::Input`]
/// otherwise).
pub fn instance(p: &Program, public: &[String]) -> Result<Vec<Fr>, Error> {
    Layout::of(p).instance(public)
}

/// Verify a proof against the program's public values. `Ok(false)` for a proof that does not
/// verify; an error for malformed values or a key of the wrong shape. (A verifier that checks
/// many proofs keeps a [`Verifier`] instead: it prepares the key once.)
pub fn verify(p: &Program, vk: &VerifyingKey, public: &[String], proof: &Proof) -> Result<bool, Error> {
    Verifier::new(Layout::of(p), vk)?.verify(public, proof)
}

/// Canonical compressed encoding.
pub fn encode<T: CanonicalSerialize>(t: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.compressed_size());
    t.serialize_compressed(&mut out).expect("writing to a Vec cannot fail");
    out
}

/// Proving keys are stored uncompressed: decoding then needs no square roots (a third of the
/// proving time for a compressed key), while every point is still checked on the curve and in the
/// prime-order subgroup — a prover must not run its secret witness through an MSM over points a
/// malicious verifier chose off the curve.
pub fn encode_proving_key(pk: &ProvingKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(pk.uncompressed_size());
    pk.serialize_uncompressed(&mut out).expect("writing to a Vec cannot fail");
    out
}

/// Checked decoding of a proving key written by [`encode_proving_key`].
pub fn decode_proving_key(bytes: &[u8]) -> Result<ProvingKey, Error> {
    let mut reader = bytes;
    let pk = ProvingKey::deserialize_uncompressed(&mut reader).map_err(|e| decode_error("proving key", e))?;
    if !reader.is_empty() {
        return Err(Error::Decode(format!("proving key: {} trailing bytes", reader.len())));
    }
    Ok(pk)
}

/// A decoding failure in words a user can act on.
fn decode_error(what: &str, e: ark_serialize::SerializationError) -> Error {
    use ark_serialize::SerializationError as E;
    let why = match e {
        E::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            "truncated (too few bytes)".into()
        }
        E::InvalidData => "invalid data (a point off the curve or outside the prime-order subgroup, or a \
             non-canonical field element)"
            .into(),
        E::UnexpectedFlags => "invalid point encoding flags".into(),
        other => other.to_string(),
    };
    Error::Decode(format!("{what}: {why}"))
}

/// Checked canonical decoding: points on the curve and in the prime-order subgroup, canonical
/// field elements, no trailing bytes.
pub fn decode<T: CanonicalDeserialize>(what: &str, bytes: &[u8]) -> Result<T, Error> {
    let mut reader = bytes;
    let t = T::deserialize_compressed(&mut reader).map_err(|e| decode_error(what, e))?;
    if !reader.is_empty() {
        return Err(Error::Decode(format!("{what}: {} trailing bytes", reader.len())));
    }
    Ok(t)
}
