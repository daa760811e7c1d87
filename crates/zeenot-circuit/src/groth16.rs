//! Groth16 over BN254 for IR programs: setup, prove, verify, and canonical (de)serialisation.
//!
//! The face of the back end: it drives setup (`crate::setup`), the prover (`crate::prover`) and
//! [`crate::verifier`], each below it, and re-exports the key and proof types they share, which
//! sit below all three (`crate::keys`).

use crate::eval;
use crate::ir::{self, Program, Value, Visibility};
use crate::prover;
use crate::synth::{self, ProgramCircuit};
use crate::verifier::{Layout, Verifier};
use crate::Error;
use ark_bn254::Fr;
use ark_relations::r1cs::{
    ConstraintSynthesizer, ConstraintSystem, ConstraintSystemRef, OptimizationGoal, SynthesisMode,
};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use ark_std::UniformRand;
use rand::{CryptoRng, RngCore};
use zeenot_crypto::Scalar;

pub use crate::keys::{Proof, ProvingKey, VerifyingKey};

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

/// The program's constraint system as setup synthesises it (no values).
fn synthesized(p: &Program) -> Result<ConstraintSystemRef<Fr>, Error> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Setup);
    ProgramCircuit { program: p, inputs: None, blindings: None }
        .generate_constraints(cs.clone())
        .map_err(Error::synthesis)?;
    Ok(cs)
}

/// Count constraints and variables (no keys, no values).
pub fn stats(p: &Program) -> Result<Stats, Error> {
    let (constraints, instance, witnesses) = synth::count(p).map_err(Error::synthesis)?;
    Ok(Stats {
        constraints,
        public_inputs: instance - 1,
        private_inputs: p.inputs.len() - p.public_inputs().count(),
        witnesses,
    })
}

/// The R1CS matrices' non-zero entries (A, B and C together) and the variables that appear in
/// B: setup pays a G2 multiplication for each of the latter and evaluates every entry at `τ`
/// (what the planner's setup model reads beside the constraint count).
pub fn density(p: &Program) -> Result<(usize, usize), Error> {
    let cs = synthesized(p)?;
    cs.finalize();
    let m = cs.to_matrices().ok_or_else(|| Error::Synthesis("internal error: no matrices".into()))?;
    let b_columns: std::collections::HashSet<usize> = m.b.iter().flatten().map(|&(_, v)| v).collect();
    Ok((m.a_num_non_zero + m.b_num_non_zero + m.c_num_non_zero, b_columns.len()))
}

/// Witness variables of `p` on these inputs that are wider than 64 bits (inverses, hashes,
/// curve coordinates, blindings). The prover's multi-exponentiations handle narrow scalars
/// (bits, integers) on fast paths and pay for every window of a wide one, so the planner's
/// Groth16 model reads this count beside the constraint count. Committed values get
/// full-width stand-in blindings, as random ones would be. No keys, no proof; fails as
/// [`prove`] does when the program fails on these inputs.
pub fn wide_witnesses(p: &Program, inputs: &[Value]) -> Result<usize, Error> {
    use ark_ff::{BigInteger, PrimeField};
    p.check_values(inputs).map_err(Error::Input)?;
    eval::evaluate(p, inputs).map_err(Error::Unsatisfied)?;
    let n_blind = p.input_commitments().len() + p.output_commitments().len();
    let stand_in = vec![-Scalar::from(1u64); n_blind];
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_mode(SynthesisMode::Prove { construct_matrices: false });
    synth::count_into(p, Some((inputs, &stand_in)), cs.clone()).map_err(Error::synthesis)?;
    let inner = cs.borrow().ok_or_else(|| Error::Synthesis("internal error: cs borrowed".into()))?;
    Ok(inner.witness_assignment.iter().filter(|x| x.into_bigint().num_bits() > 64).count())
}

/// Circuit-specific Groth16 setup: arkworks' keys for the same random generator, computed without
/// the constraint matrices (`crate::setup`).
pub fn setup<R: RngCore + CryptoRng>(p: &Program, rng: &mut R) -> Result<(ProvingKey, VerifyingKey), Error> {
    crate::setup::setup(p, rng)
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
    prove_timed(p, pk, inputs, blindings, rng, &mut Stages::default())
}

/// Wall time of each stage of a proof, in order: `witness` (evaluating the program), `synthesis`
/// (lowering it to constraints with the witness), `check` (the witness satisfies them and the
/// public values are the instance), `matrices`, `fft` (the QAP quotient `h`: arkworks' seven
/// FFTs) and `msm` (the multi-exponentiations in G1 and G2).
#[derive(Clone, Debug, Default)]
pub struct Stages(pub Vec<(&'static str, std::time::Duration)>);

impl Stages {
    fn lap(&mut self, name: &'static str, since: &mut std::time::Instant) {
        let now = std::time::Instant::now();
        self.0.push((name, now - *since));
        *since = now;
    }
}

/// [`prove`], recording the wall time of each stage in `stages` (for `zeenot prove --profile`).
pub fn prove_timed<R: RngCore + CryptoRng>(
    p: &Program,
    pk: &ProvingKey,
    inputs: &[Value],
    blindings: &[Scalar],
    rng: &mut R,
    stages: &mut Stages,
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
    let committed = p.input_commitments();
    let (blindings, given) = ir::split_blindings(p, blindings).map_err(Error::Input)?;
    let mut clock = std::time::Instant::now();
    let vals = eval::evaluate(p, inputs).map_err(Error::Unsatisfied)?;
    stages.lap("witness", &mut clock);
    let out_blindings: Vec<Scalar> = match given {
        Some(given) => given.to_vec(),
        None => p.output_commitments().iter().map(|_| Scalar::rand(rng)).collect(),
    };
    let all: Vec<Scalar> = blindings.iter().chain(&out_blindings).copied().collect();
    // One synthesis, setup's lowering with values: the same variables in the same order. The
    // prover keeps no constraint, only each one's sides evaluated at the assignment (96 bytes a
    // constraint, where arkworks' constraint system and matrices held ~1.7 kB).
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_mode(SynthesisMode::Prove { construct_matrices: false });
    let evaluations = synth::lower_evaluated(p, inputs, &all, cs.clone()).map_err(Error::synthesis)?;
    stages.lap("synthesis", &mut clock);
    // The witness must satisfy the circuit (a failure here is a zeenot bug, never the user's).
    if let Some(i) = evaluations.first_unsatisfied() {
        return Err(Error::Synthesis(format!(
            "internal error: witness does not satisfy the circuit (constraint {i})"
        )));
    }
    check_key_shape(pk, cs.num_instance_variables(), cs.num_witness_variables())?;
    let mut public: Vec<String> = p.public_inputs().map(|i| vals[i].to_decimal()).collect();
    let commit = |leaves: &[usize], r: &Scalar| -> Result<[String; 2], Error> {
        let vs = leaves.iter().map(|&v| committed_int(vals[v])).collect::<Result<Vec<_>, _>>()?;
        Ok(ir::commitment_decimals(&ir::commit_values(&vs, r)))
    };
    for (leaves, r) in committed.iter().zip(blindings) {
        public.extend(commit(leaves, r)?);
    }
    // an output commitment stands where its first leaf does
    let mut out_r = p.output_commitments().into_iter().zip(&out_blindings);
    for (k, (&o, &vis)) in p.outputs.iter().zip(&p.output_vis).enumerate() {
        if vis == Visibility::Committed {
            if !p.output_joint[k] {
                let (leaves, r) = out_r.next().expect("one blinding per output commitment");
                let values: Vec<usize> = leaves.iter().map(|&j| p.outputs[j]).collect();
                public.extend(commit(&values, r)?);
            }
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
    stages.lap("check", &mut clock);
    let num_instance = cs.num_instance_variables();
    let assignment = {
        let mut inner =
            cs.borrow_mut().ok_or_else(|| Error::Synthesis("internal error: cs borrowed".into()))?;
        let mut z = std::mem::take(&mut inner.instance_assignment);
        z.append(&mut inner.witness_assignment);
        z
    };
    drop(cs);
    let (r, s) = (Fr::rand(rng), Fr::rand(rng));
    let h = prover::quotient(evaluations, num_instance, &assignment)?;
    stages.lap("fft", &mut clock);
    let proof = prover::assemble(pk, r, s, h, &assignment, num_instance);
    stages.lap("msm", &mut clock);
    Ok(Proven { proof, public, blindings: out_blindings })
}

/// A proving key that decodes may still be shaped for another circuit: arkworks' prover indexes
/// `a_query[0]` and friends (an empty query vector panicked), and an MSM over a short vector
/// is silently wrong. Every per-variable vector must have one point per variable.
fn check_key_shape(pk: &ProvingKey, instance: usize, witness: usize) -> Result<(), Error> {
    let variables = instance + witness;
    for (field, len, want) in [
        ("a_query", pk.a_query.len(), variables),
        ("b_g1_query", pk.b_g1_query.len(), variables),
        ("b_g2_query", pk.b_g2_query.len(), variables),
        ("l_query", pk.l_query.len(), witness),
    ] {
        if len != want {
            return Err(Error::Key(format!(
                "the proving key is for another circuit: {field} has {len} points, this program needs {want}"
            )));
        }
    }
    Ok(())
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

/// The length of [`encode_proving_key`]'s bytes.
pub fn encoded_proving_key_len(pk: &ProvingKey) -> usize {
    pk.uncompressed_size()
}

/// [`encode_proving_key`]'s bytes written into `out` (exactly the key's uncompressed size),
/// letting each of the key's vectors go once it is written: the key and its encoding are never
/// both held whole (setup's peak memory; the key is most of it).
pub fn encode_proving_key_into(pk: ProvingKey, mut out: &mut [u8]) -> Result<(), Error> {
    let wrong = |e: ark_serialize::SerializationError| Error::Key(format!("encoding the proving key: {e}"));
    let ProvingKey { vk, beta_g1, delta_g1, a_query, b_g1_query, b_g2_query, h_query, l_query } = pk;
    // the fields in the order of `ProvingKey`'s derived serialisation
    vk.serialize_uncompressed(&mut out).map_err(wrong)?;
    beta_g1.serialize_uncompressed(&mut out).map_err(wrong)?;
    delta_g1.serialize_uncompressed(&mut out).map_err(wrong)?;
    a_query.serialize_uncompressed(&mut out).map_err(wrong)?;
    drop(a_query);
    b_g1_query.serialize_uncompressed(&mut out).map_err(wrong)?;
    drop(b_g1_query);
    b_g2_query.serialize_uncompressed(&mut out).map_err(wrong)?;
    drop(b_g2_query);
    h_query.serialize_uncompressed(&mut out).map_err(wrong)?;
    drop(h_query);
    l_query.serialize_uncompressed(&mut out).map_err(wrong)?;
    if out.is_empty() {
        Ok(())
    } else {
        Err(Error::Key(format!("encoding the proving key left {} bytes unwritten", out.len())))
    }
}

/// Checked decoding of a proving key written by [`encode_proving_key`]: see [`decode`] for the
/// checks (here on uncompressed points).
pub fn decode_proving_key(bytes: &[u8]) -> Result<ProvingKey, Error> {
    read_proving_key(bytes, Validate::Yes)
}

/// Decoding of a proving key whose very bytes passed [`decode_proving_key`] before (the
/// caller knows it, e.g. by a content hash it recorded then): the same bounds and canonical
/// encodings, without the curve and subgroup checks that dominate the cost of loading a key.
/// Never for bytes of unknown provenance.
pub fn decode_validated_proving_key(bytes: &[u8]) -> Result<ProvingKey, Error> {
    read_proving_key(bytes, Validate::No)
}

fn read_proving_key(bytes: &[u8], validate: Validate) -> Result<ProvingKey, Error> {
    let mut r = Bounded::new("proving key", bytes, Compress::No);
    r.validate = validate;
    let vk = read_verifying_key(&mut r, "vk.")?;
    let pk = ProvingKey {
        vk,
        beta_g1: r.item("beta_g1")?,
        delta_g1: r.item("delta_g1")?,
        a_query: r.vec("a_query")?,
        b_g1_query: r.vec("b_g1_query")?,
        b_g2_query: r.vec("b_g2_query")?,
        h_query: r.vec("h_query")?,
        l_query: r.vec("l_query")?,
    };
    r.finish()?;
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

/// What [`decode`] reads: the compressed encodings of Groth16 verifying keys and proofs.
pub trait Decode: Sized {
    /// Reads one value from `bytes` (compressed, checked), naming its fields after `what`.
    /// Trailing bytes are left to the caller.
    fn decode_prefix(what: &str, bytes: &mut &[u8]) -> Result<Self, Error>;
}

impl Decode for VerifyingKey {
    fn decode_prefix(what: &str, bytes: &mut &[u8]) -> Result<Self, Error> {
        let mut r = Bounded::new(what, bytes, Compress::Yes);
        let vk = read_verifying_key(&mut r, "")?;
        *bytes = r.bytes;
        Ok(vk)
    }
}

impl Decode for Proof {
    fn decode_prefix(what: &str, bytes: &mut &[u8]) -> Result<Self, Error> {
        let mut r = Bounded::new(what, bytes, Compress::Yes);
        let proof = Proof { a: r.item("a")?, b: r.item("b")?, c: r.item("c")? };
        *bytes = r.bytes;
        Ok(proof)
    }
}

/// Checked canonical decoding of what [`encode`] writes: points on the curve and in the
/// prime-order subgroup, each in the one encoding [`encode`] gives it (arkworks alone also reads
/// the point at infinity from any bytes that carry its flag), every vector length within the
/// bytes that remain (before anything is allocated), no trailing bytes. Errors name the field.
pub fn decode<T: Decode>(what: &str, bytes: &[u8]) -> Result<T, Error> {
    let mut rest = bytes;
    let t = T::decode_prefix(what, &mut rest)?;
    if !rest.is_empty() {
        return Err(Error::Decode(format!("{what}: {} trailing bytes", rest.len())));
    }
    Ok(t)
}

fn read_verifying_key(r: &mut Bounded<'_, '_>, prefix: &str) -> Result<VerifyingKey, Error> {
    Ok(VerifyingKey {
        alpha_g1: r.item(&format!("{prefix}alpha_g1"))?,
        beta_g2: r.item(&format!("{prefix}beta_g2"))?,
        gamma_g2: r.item(&format!("{prefix}gamma_g2"))?,
        delta_g2: r.item(&format!("{prefix}delta_g2"))?,
        gamma_abc_g1: r.vec(&format!("{prefix}gamma_abc_g1"))?,
    })
}

/// Reads arkworks' encoding of a key or proof field by field, with bounds: a vector is a u64
/// length (little-endian) and its elements, and a length whose elements cannot fit in the bytes
/// that remain is refused before anything is allocated (arkworks' own `Vec` decoding allocates
/// the announced length first: 2^37 aborts the process). Every point is checked on the curve
/// and in the prime-order subgroup, and must be in its canonical encoding.
struct Bounded<'w, 'a> {
    what: &'w str,
    bytes: &'a [u8],
    compress: Compress,
    /// Whether points are checked on the curve and in the subgroup (`Yes` but for bytes that
    /// were checked before: [`decode_validated_proving_key`]).
    validate: Validate,
    /// Scratch space for re-encoding a point.
    buf: Vec<u8>,
}

impl<'w, 'a> Bounded<'w, 'a> {
    fn new(what: &'w str, bytes: &'a [u8], compress: Compress) -> Self {
        Bounded { what, bytes, compress, validate: Validate::Yes, buf: Vec::new() }
    }

    /// One element, unchecked but canonical: the bytes it was read from must be what it
    /// encodes to. (Subgroup checks are left to the caller, so that a vector's run in parallel.)
    fn unchecked<T: CanonicalSerialize + CanonicalDeserialize>(
        &mut self,
        field: &dyn Fn() -> String,
    ) -> Result<T, Error> {
        let before = self.bytes;
        let t = T::deserialize_with_mode(&mut self.bytes, self.compress, Validate::No)
            .map_err(|e| decode_error(&format!("{}: {}", self.what, field()), e))?;
        self.buf.clear();
        t.serialize_with_mode(&mut self.buf, self.compress).expect("writing to a Vec cannot fail");
        if before.get(..self.buf.len()) != Some(&self.buf[..]) {
            return Err(Error::Decode(format!(
                "{}: {}: not the canonical encoding of the point it denotes",
                self.what,
                field()
            )));
        }
        Ok(t)
    }

    /// One checked element.
    fn item<T: CanonicalSerialize + CanonicalDeserialize>(&mut self, field: &str) -> Result<T, Error> {
        let t: T = self.unchecked(&|| field.to_owned())?;
        if self.validate == Validate::Yes {
            t.check().map_err(|e| decode_error(&format!("{}: {field}", self.what), e))?;
        }
        Ok(t)
    }

    /// A length-prefixed vector of checked elements of a fixed encoded size.
    fn vec<T: CanonicalSerialize + CanonicalDeserialize + Default>(
        &mut self,
        field: &str,
    ) -> Result<Vec<T>, Error> {
        let Some((head, rest)) = self.bytes.split_first_chunk::<8>() else {
            return Err(Error::Decode(format!("{}: {field}: truncated (too few bytes)", self.what)));
        };
        let len = u64::from_le_bytes(*head);
        self.bytes = rest;
        let unit = T::default().serialized_size(self.compress) as u64;
        let room = self.bytes.len() as u64;
        if len.checked_mul(unit).is_none_or(|need| need > room) {
            return Err(Error::Decode(format!(
                "{}: {field} has length {len} but only {room} bytes remain",
                self.what
            )));
        }
        let mut out = Vec::with_capacity(len as usize);
        for i in 0..len {
            out.push(self.unchecked(&|| format!("{field}[{i}]"))?);
        }
        if self.validate == Validate::Yes {
            T::batch_check(out.iter()).map_err(|e| decode_error(&format!("{}: {field}", self.what), e))?;
        }
        Ok(out)
    }

    fn finish(self) -> Result<(), Error> {
        if !self.bytes.is_empty() {
            return Err(Error::Decode(format!("{}: {} trailing bytes", self.what, self.bytes.len())));
        }
        Ok(())
    }
}
