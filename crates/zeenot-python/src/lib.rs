//! `zeenot._native`: the Python binding of the Rust core. Thin by design: argument conversion,
//! releasing the GIL around heavy work, and mapping each error layer to a Python exception.
//! No logic lives here.
#![forbid(unsafe_code)]

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rand::rngs::OsRng;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::sync::Arc;
use zeenot_circuit::groth16::{self, Proof, ProvingKey, VerifyingKey};
use zeenot_circuit::{snarkjs, soundness, Error, Program};

mod cash;
mod cothority;
mod kvac;
mod points;
mod prio;
mod prio_shares;
mod r1cs;
mod shuffle;
mod sigma;
mod sigma_backend;
mod verifier;

create_exception!(_native, ZeenotError, PyException, "Base class of errors raised by the Rust core.");
create_exception!(_native, IrError, ZeenotError, "The IR document is invalid.");
create_exception!(_native, DecodeError, ZeenotError, "A key or proof could not be decoded.");
create_exception!(
    _native,
    UnsatisfiedError,
    ZeenotError,
    "The program fails on these inputs (check, overflow, division by zero): no proof exists."
);

fn py_err(e: Error) -> PyErr {
    match e {
        Error::Ir(e) => IrError::new_err(e.to_string()),
        Error::Decode(m) => DecodeError::new_err(m),
        Error::Unsatisfied(u) => unsatisfied(&u),
        Error::Input(m) | Error::Key(m) => PyValueError::new_err(m),
        other => ZeenotError::new_err(other.to_string()),
    }
}

/// `UnsatisfiedError(message)` with the failure's details as attributes: `kind` (`"overflow"`,
/// `"check"`, `"division_by_zero"`), `op`, `index` (instruction), `line` and `col` (or `None`),
/// `location` (`file:line:col`) and `msg` (the `check` message or `None`).
fn unsatisfied(u: &zeenot_circuit::Unsatisfied) -> PyErr {
    let err = UnsatisfiedError::new_err(u.to_string());
    Python::attach(|py| {
        let value = err.value(py);
        let (line, col) = u.loc.unzip();
        // Setting attributes on a fresh exception does not fail; if it ever did, the message
        // still carries everything, so the error is not worth replacing.
        let _ = value.setattr("kind", u.kind.name());
        let _ = value.setattr("op", u.op);
        let _ = value.setattr("index", u.index);
        let _ = value.setattr("line", line);
        let _ = value.setattr("col", col);
        let _ = value.setattr("location", u.location.as_str());
        let _ = value.setattr("msg", u.msg.as_deref());
    });
    err
}

fn program(ir_json: &str) -> PyResult<Program> {
    Program::from_json(ir_json).map_err(|e| py_err(e.into()))
}

/// An IR document parsed, validated and hashed once, kept by Python's `Circuit` so that its
/// proofs, evaluations and statistics do not parse the IR again.
#[pyclass(frozen, module = "zeenot._native")]
struct LoadedProgram {
    program: Arc<Program>,
}

#[pymethods]
impl LoadedProgram {
    /// SHA-256 (hex) of the canonical JSON of the document.
    #[getter]
    fn hash(&self) -> &str {
        self.program.hash()
    }
}

/// Parse and validate an IR document once (raises IrError).
#[pyfunction]
fn load_program(py: Python<'_>, ir_json: &str) -> PyResult<LoadedProgram> {
    let text = ir_json.to_owned();
    let program = detached(py, || Ok(Program::from_json(&text).map_err(Error::from)?))?;
    Ok(LoadedProgram { program: Arc::new(program) })
}

/// The binary form of an IR document (docs/ir.md, "Binary form"), recording `source_sha256`
/// (hex): the SHA-256 of the JSON file it is written beside. Raises IrError for an invalid
/// document or one the binary form cannot hold exactly.
#[pyfunction]
fn encode_program_binary<'py>(
    py: Python<'py>,
    ir_json: &str,
    source_sha256: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let digest: [u8; 32] = hex::decode(source_sha256)
        .ok()
        .and_then(|d| d.try_into().ok())
        .ok_or_else(|| PyValueError::new_err("source_sha256 must be 64 hex digits"))?;
    let text = ir_json.to_owned();
    let bytes = detached(py, || Ok(zeenot_circuit::binary::encode(&text, digest).map_err(Error::from)?))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Read a program's binary form (every IR rule checked, the program hash recomputed): the
/// program, the head (the document's JSON without `body`) and the recorded source SHA-256 (hex).
#[pyfunction]
fn load_program_binary(py: Python<'_>, data: &[u8]) -> PyResult<(LoadedProgram, String, String)> {
    let data = data.to_vec();
    let d = detached(py, || Ok(zeenot_circuit::binary::decode(&data).map_err(Error::from)?))?;
    Ok((LoadedProgram { program: Arc::new(d.program) }, d.head, hex::encode(d.source_digest)))
}

/// What the functions below accept as a program: a [`LoadedProgram`] or IR text (parsed on each
/// call).
#[derive(FromPyObject)]
enum ProgramArg<'py> {
    Loaded(PyRef<'py, LoadedProgram>),
    Text(String),
}

impl ProgramArg<'_> {
    fn get(&self) -> PyResult<Arc<Program>> {
        match self {
            ProgramArg::Loaded(l) => Ok(Arc::clone(&l.program)),
            ProgramArg::Text(t) => program(t).map(Arc::new),
        }
    }
}

/// Run heavy work with the GIL released. A panic (a zeenot bug: inputs are validated, so none is
/// expected) becomes a `ZeenotError` instead of a `PanicException` (which `except Exception`
/// would not catch).
fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, PyErrSource> + Send) -> PyResult<T> {
    let outcome = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    match outcome {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(PyErrSource::Core(e))) => Err(py_err(e)),
        Ok(Err(PyErrSource::Other(m))) => Err(ZeenotError::new_err(m)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(ZeenotError::new_err(format!("internal error in zeenot (please report): {what}")))
        }
    }
}

/// An error from work done without the GIL.
enum PyErrSource {
    Core(Error),
    Other(String),
}

impl From<Error> for PyErrSource {
    fn from(e: Error) -> Self {
        PyErrSource::Core(e)
    }
}

fn rng(seed: Option<u64>) -> ChaCha20Rng {
    match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("the OS random source is available"),
    }
}

/// circomlib's Poseidon hash of 1 to 16 field elements (decimal strings in `[0, p)`), as a
/// decimal string: what the IR's `poseidon` instruction computes (`zeenot.poseidon`).
#[pyfunction]
fn poseidon(inputs: Vec<String>) -> PyResult<String> {
    if inputs.is_empty() || inputs.len() > zeenot_circuit::ir::MAX_POSEIDON_INPUTS {
        return Err(PyValueError::new_err(format!(
            "poseidon takes 1 to {} field elements, got {}",
            zeenot_circuit::ir::MAX_POSEIDON_INPUTS,
            inputs.len()
        )));
    }
    let xs = inputs.iter().map(|s| field_element(s)).collect::<PyResult<Vec<_>>>()?;
    let h = zeenot_crypto::poseidon::poseidon(&xs).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(h.to_string())
}

fn field_element(s: &str) -> PyResult<ark_bn254::Fr> {
    use std::str::FromStr;
    let canonical =
        !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    ark_bn254::Fr::from_str(s)
        .ok()
        .filter(|x| canonical && x.to_string() == s)
        .ok_or_else(|| PyValueError::new_err(format!("not a field element in [0, p): {s:?}")))
}

/// A checked Baby Jubjub point (on the curve, in the prime-order subgroup).
fn bj_point(x: &str, y: &str) -> PyResult<zeenot_crypto::curve::Point> {
    zeenot_crypto::curve::Point::from_xy(field_element(x)?, field_element(y)?).map_err(|e| {
        PyValueError::new_err(format!("not a Baby Jubjub point of the prime-order subgroup: {e}"))
    })
}

fn bj_xy(p: &zeenot_crypto::curve::Point) -> (String, String) {
    let (x, y) = p.xy();
    (x.to_string(), y.to_string())
}

/// A non-negative decimal integer (below 2^256) reduced modulo the subgroup order `l`.
fn bj_scalar(k: &str) -> PyResult<zeenot_crypto::curve::Scalar> {
    use ark_ff::PrimeField;
    let digits = !k.is_empty() && k.len() <= 78 && k.bytes().all(|c| c.is_ascii_digit());
    let n = digits.then(|| num_from_decimal(k)).flatten();
    let bytes =
        n.ok_or_else(|| PyValueError::new_err(format!("not a scalar (a decimal below 2^256): {k:?}")))?;
    Ok(zeenot_crypto::curve::Scalar::from_le_bytes_mod_order(&bytes))
}

/// Little-endian bytes of a decimal below 2^256.
fn num_from_decimal(k: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    for c in k.bytes() {
        let mut carry = u32::from(c - b'0');
        for byte in out.iter_mut() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = (v & 0xff) as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    Some(out)
}

/// Whether `(x, y)` is a Baby Jubjub point in the prime-order subgroup (decimal coordinates).
#[pyfunction]
fn bj_check(x: &str, y: &str) -> bool {
    bj_point(x, y).is_ok()
}

/// The sum of two checked points, as decimal coordinates.
#[pyfunction]
fn bj_add(x1: &str, y1: &str, x2: &str, y2: &str) -> PyResult<(String, String)> {
    Ok(bj_xy(&(bj_point(x1, y1)? + bj_point(x2, y2)?)))
}

/// `k·P` for a non-negative integer `k` (decimal, below 2^256), in constant time.
#[pyfunction]
fn bj_mul(k: &str, x: &str, y: &str) -> PyResult<(String, String)> {
    Ok(bj_xy(&bj_point(x, y)?.mul_ct(&bj_scalar(k)?)))
}

/// circomlib's generator `Base8`.
#[pyfunction]
fn bj_base8() -> (String, String) {
    bj_xy(&zeenot_crypto::curve::Point::generator())
}

/// Exponential-ElGamal decryption of `(c1, c2)` with secret key `sk`: the `m < 2^bits` with
/// `m·B8 = c2 − sk·c1` (baby-step giant-step; `bits ≤ 48`).
#[pyfunction]
fn bj_decrypt(
    py: Python<'_>,
    sk: &str,
    c1: (String, String),
    c2: (String, String),
    bits: u32,
) -> PyResult<u64> {
    let sk = zeenot_crypto::elgamal::SecretKey::from_scalar(bj_scalar(sk)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let ct = zeenot_crypto::elgamal::Ciphertext { c1: bj_point(&c1.0, &c1.1)?, c2: bj_point(&c2.0, &c2.1)? };
    detached(py, || {
        let table =
            zeenot_crypto::dlog::DlogTable::new(bits).map_err(|e| PyErrSource::Other(e.to_string()))?;
        sk.decrypt(&ct, &table).map_err(|e| PyErrSource::Other(e.to_string()))
    })
}

fn seed32(seed: &[u8]) -> PyResult<[u8; 32]> {
    seed.try_into().map_err(|_| PyValueError::new_err("an EdDSA key seed is 32 bytes"))
}

/// The EdDSA-Poseidon public key of a 32-byte seed (circomlibjs `prv2pub`).
#[pyfunction]
fn bj_eddsa_public(seed: &[u8]) -> PyResult<(String, String)> {
    Ok(bj_xy(zeenot_crypto::SigningKey::from_bytes(seed32(seed)?).verifying_key().point()))
}

/// An EdDSA-Poseidon signature `((R8.x, R8.y), S)` of the field element `msg`.
#[pyfunction]
fn bj_eddsa_sign(seed: &[u8], msg: &str) -> PyResult<((String, String), String)> {
    use ark_ff::{BigInteger, PrimeField};
    let sig = zeenot_crypto::SigningKey::from_bytes(seed32(seed)?).sign(&field_element(msg)?);
    let s = ark_bn254::Fr::from_le_bytes_mod_order(&sig.s.into_bigint().to_bytes_le());
    Ok((bj_xy(&sig.r8), s.to_string()))
}

/// Whether `(R8, S)` is a valid EdDSA-Poseidon signature of `msg` under the key `A` (the same
/// verifier as the IR's `eddsa_check`).
#[pyfunction]
fn bj_eddsa_verify(a: (String, String), msg: &str, r8: (String, String), s: &str) -> PyResult<bool> {
    let x = [
        field_element(&a.0)?,
        field_element(&a.1)?,
        field_element(msg)?,
        field_element(&r8.0)?,
        field_element(&r8.1)?,
        field_element(s)?,
    ];
    Ok(zeenot_circuit::eval::eddsa_valid(&x))
}

/// Constraint statistics: constraints, public_inputs, private_inputs, witnesses.
#[pyfunction]
fn stats<'py>(py: Python<'py>, ir: ProgramArg<'_>) -> PyResult<Bound<'py, PyDict>> {
    let p = ir.get()?;
    let s = detached(py, || Ok(groth16::stats(&p)?))?;
    let d = PyDict::new(py);
    d.set_item("constraints", s.constraints)?;
    d.set_item("public_inputs", s.public_inputs)?;
    d.set_item("private_inputs", s.private_inputs)?;
    d.set_item("witnesses", s.witnesses)?;
    Ok(d)
}

/// `(non-zero entries of A, B and C, variables in B)` of the program's R1CS (for the planner's
/// Groth16 setup model).
#[pyfunction]
fn r1cs_density(py: Python<'_>, ir: ProgramArg<'_>) -> PyResult<(usize, usize)> {
    let p = ir.get()?;
    detached(py, || Ok(groth16::density(&p)?))
}

/// Witness variables wider than 64 bits on these input leaves (for the planner's Groth16
/// model). Errors as `prove`'s when the program fails on the inputs.
#[pyfunction]
fn wide_witnesses(py: Python<'_>, ir: ProgramArg<'_>, inputs: Vec<String>) -> PyResult<usize> {
    let p = ir.get()?;
    let values = p.parse_inputs(&inputs).map_err(PyValueError::new_err)?;
    detached(py, || Ok(groth16::wide_witnesses(&p, &values)?))
}

/// Evaluate the IR on input leaves (the Rust interpreter); returns output leaves.
#[pyfunction]
fn evaluate(ir: ProgramArg<'_>, inputs: Vec<String>) -> PyResult<Vec<String>> {
    let p = ir.get()?;
    zeenot_circuit::eval::run(&p, &inputs).map_err(|e| py_err(e.into()))
}

/// Evaluate as far as the known input leaves allow (`None`: not known yet); returns each output
/// leaf, or `None` where it depends on an unknown input (`eval::evaluate_partial`).
#[pyfunction]
fn evaluate_partial(ir: ProgramArg<'_>, inputs: Vec<Option<String>>) -> PyResult<Vec<Option<String>>> {
    use zeenot_circuit::eval::RunError;
    let p = ir.get()?;
    if inputs.len() != p.inputs.len() {
        let msg = format!("expected {} input values, got {}", p.inputs.len(), inputs.len());
        return Err(py_err(RunError::Input(msg).into()));
    }
    let values = p
        .inputs
        .iter()
        .zip(&inputs)
        .map(|(inp, text)| match text {
            None => Ok(None),
            Some(t) => zeenot_circuit::Value::parse(inp.ty, t)
                .map(Some)
                .map_err(|e| format!("input `{}`: {e}", inp.name)),
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| py_err(RunError::Input(e).into()))?;
    let vals = zeenot_circuit::eval::evaluate_partial(&p, &values)
        .map_err(|e| py_err(RunError::Unsatisfied(e).into()))?;
    Ok(p.outputs.iter().map(|&o| vals[o].map(|v| v.to_decimal())).collect())
}

/// Groth16 setup: (proving key, verifying key) bytes. A seed makes it deterministic (tests only).
#[pyfunction]
#[pyo3(signature = (ir, seed=None))]
fn setup<'py>(
    py: Python<'py>,
    ir: ProgramArg<'_>,
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let p = ir.get()?;
    let (pk, vk) = detached(py, || Ok(groth16::setup(&p, &mut rng(seed))?))?;
    let vk = PyBytes::new(py, &groth16::encode(&vk));
    // written straight into the bytes object, the key let go as it is written: setup's peak
    // memory is the key's size once, not three times (the key, a Vec, its copy)
    let size = groth16::encoded_proving_key_len(&pk);
    let pk = PyBytes::new_with(py, size, |out| groth16::encode_proving_key_into(pk, out).map_err(py_err))?;
    Ok((pk, vk))
}

/// A proving key decoded and validated once (every point on the curve and in the subgroup),
/// reusable across proofs: validation dominates the cost of a single proof.
#[pyclass(frozen, module = "zeenot._native")]
struct PreparedProvingKey {
    pk: ProvingKey,
}

/// Decode and validate a proving key; `validated`: these very bytes were validated before, so
/// the curve and subgroup checks are skipped (see `zeenot.keycache`).
#[pyfunction]
#[pyo3(signature = (proving_key, validated = false))]
fn prepare_proving_key(py: Python<'_>, proving_key: &[u8], validated: bool) -> PyResult<PreparedProvingKey> {
    // decoded from Python's immutable bytes in place: a proving key is large, so no copy
    let pk = detached(py, || {
        Ok(if validated {
            groth16::decode_validated_proving_key(proving_key)?
        } else {
            groth16::decode_proving_key(proving_key)?
        })
    })?;
    Ok(PreparedProvingKey { pk })
}

/// Blindings of the input commitments (decimal integers in `[0, l)`, one per input commitment
/// in input order), optionally followed by the output commitments' (`ir::split_blindings`);
/// ValueError when malformed or of the wrong count.
fn blindings(p: &Program, blindings: Option<Vec<String>>) -> PyResult<Vec<zeenot_crypto::Scalar>> {
    let texts = blindings.unwrap_or_default();
    let rs = texts
        .iter()
        .map(|t| zeenot_circuit::ir::parse_blinding(t).map_err(PyValueError::new_err))
        .collect::<PyResult<Vec<_>>>()?;
    zeenot_circuit::ir::split_blindings(p, &rs).map_err(PyValueError::new_err)?;
    Ok(rs)
}

/// What a proof returns to Python: proof bytes, public values, and the committed outputs'
/// blindings (decimal).
type Proved<'py> = (Bound<'py, PyBytes>, Vec<String>, Vec<String>);

fn proved(proven: groth16::Proven) -> (Vec<u8>, Vec<String>, Vec<String>) {
    let out = proven.blindings.iter().map(zeenot_circuit::ir::blinding_decimal).collect();
    (groth16::encode(&proven.proof), proven.public, out)
}

/// [`Proved`] and the seconds of each stage of the proof, in order.
type ProvedTimed<'py> = (Bound<'py, PyBytes>, Vec<String>, Vec<String>, Vec<(&'static str, f64)>);

/// Prove with a prepared key: (proof bytes, public values, committed outputs' blindings, the
/// wall time of each stage in seconds: `program` (loading the IR), then
/// [`groth16::Stages`]).
#[pyfunction]
#[pyo3(signature = (ir, key, inputs, seed=None, blindings=None))]
fn prove_prepared<'py>(
    py: Python<'py>,
    ir: ProgramArg<'_>,
    key: &PreparedProvingKey,
    inputs: Vec<String>,
    seed: Option<u64>,
    blindings: Option<Vec<String>>,
) -> PyResult<ProvedTimed<'py>> {
    let start = std::time::Instant::now();
    let p = ir.get()?;
    let mut stages = groth16::Stages(vec![("program", start.elapsed())]);
    let values = p.parse_inputs(&inputs).map_err(PyValueError::new_err)?;
    let rs = self::blindings(&p, blindings)?;
    let pk = &key.pk;
    let (proof, public, out) = detached(py, || {
        Ok(proved(groth16::prove_timed(&p, pk, &values, &rs, &mut rng(seed), &mut stages)?))
    })?;
    let seconds = stages.0.iter().map(|&(name, t)| (name, t.as_secs_f64())).collect();
    Ok((PyBytes::new(py, &proof), public, out, seconds))
}

/// Prove: (proof bytes, public values in the instance order of `docs/ir.md`, blindings of the
/// committed outputs).
#[pyfunction]
#[pyo3(signature = (ir, proving_key, inputs, seed=None, blindings=None))]
fn prove<'py>(
    py: Python<'py>,
    ir: ProgramArg<'_>,
    proving_key: &[u8],
    inputs: Vec<String>,
    seed: Option<u64>,
    blindings: Option<Vec<String>>,
) -> PyResult<Proved<'py>> {
    let p = ir.get()?;
    let values = p.parse_inputs(&inputs).map_err(PyValueError::new_err)?;
    let rs = self::blindings(&p, blindings)?;
    let (proof, public, out) = detached(py, || {
        let pk: ProvingKey = groth16::decode_proving_key(proving_key)?;
        Ok(proved(groth16::prove(&p, &pk, &values, &rs, &mut rng(seed))?))
    })?;
    Ok((PyBytes::new(py, &proof), public, out))
}

/// Verify: True if the proof is valid for these public values.
#[pyfunction]
fn verify(
    py: Python<'_>,
    ir: ProgramArg<'_>,
    verifying_key: &[u8],
    public: Vec<String>,
    proof: &[u8],
) -> PyResult<bool> {
    let p = ir.get()?;
    let (vk_bytes, proof_bytes) = (verifying_key.to_vec(), proof.to_vec());
    detached(py, || {
        let vk: VerifyingKey = groth16::decode("verifying key", &vk_bytes)?;
        let proof: Proof = groth16::decode("proof", &proof_bytes)?;
        Ok(groth16::verify(&p, &vk, &public, &proof)?)
    })
}

/// snarkjs JSON: (verification_key.json, proof.json, public.json) texts.
#[pyfunction]
fn snarkjs_export(
    ir: ProgramArg<'_>,
    verifying_key: &[u8],
    public: Vec<String>,
    proof: &[u8],
) -> PyResult<(String, String, String)> {
    let p = ir.get()?;
    let vk: VerifyingKey = groth16::decode("verifying key", verifying_key).map_err(py_err)?;
    let proof: Proof = groth16::decode("proof", proof).map_err(py_err)?;
    snarkjs::export(&p, &vk, &public, &proof).map_err(py_err)
}

/// snarkjs's `verification_key.json` text for a verifying key (what `zeenot export solidity`
/// reads the key's points from).
#[pyfunction]
fn snarkjs_verifying_key(verifying_key: &[u8]) -> PyResult<String> {
    let vk: VerifyingKey = groth16::decode("verifying key", verifying_key).map_err(py_err)?;
    Ok(snarkjs::export_vk(&vk))
}

/// Mutation-check the circuit on these inputs; returns the number of variables checked.
#[pyfunction]
fn check_mutations(py: Python<'_>, ir: ProgramArg<'_>, inputs: Vec<String>) -> PyResult<usize> {
    let p = ir.get()?;
    let values = p.parse_inputs(&inputs).map_err(PyValueError::new_err)?;
    // a failing program has no satisfying assignment to mutate: say why, as `prove` would
    zeenot_circuit::eval::evaluate(&p, &values).map_err(|u| py_err(u.into()))?;
    detached(py, || soundness::check_mutations(&p, &values).map_err(PyErrSource::Other))
}

/// The zeenot native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ZeenotError", py.get_type::<ZeenotError>())?;
    m.add("IrError", py.get_type::<IrError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("UnsatisfiedError", py.get_type::<UnsatisfiedError>())?;
    m.add("UnsupportedError", py.get_type::<sigma_backend::UnsupportedError>())?;
    m.add_function(wrap_pyfunction!(sigma_backend::sigma_program_prove, m)?)?;
    m.add_function(wrap_pyfunction!(sigma_backend::sigma_program_verify, m)?)?;
    m.add_function(wrap_pyfunction!(sigma_backend::sigma_program_verify_batch, m)?)?;
    m.add_function(wrap_pyfunction!(sigma_backend::sigma_program_shape, m)?)?;
    prio::register(m)?;
    prio_shares::register(m)?;
    m.add_class::<LoadedProgram>()?;
    m.add_function(wrap_pyfunction!(load_program, m)?)?;
    m.add_function(wrap_pyfunction!(encode_program_binary, m)?)?;
    m.add_function(wrap_pyfunction!(load_program_binary, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(r1cs_density, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_partial, m)?)?;
    m.add_function(wrap_pyfunction!(wide_witnesses, m)?)?;
    m.add_function(wrap_pyfunction!(setup, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_class::<PreparedProvingKey>()?;
    m.add_function(wrap_pyfunction!(prepare_proving_key, m)?)?;
    m.add_function(wrap_pyfunction!(prove_prepared, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_class::<verifier::Groth16Verifier>()?;
    m.add_class::<kvac::KvacShowKey>()?;
    m.add_class::<kvac::KvacVerifyKey>()?;
    m.add_class::<kvac::CheckedPoints>()?;
    m.add_function(wrap_pyfunction!(kvac::kvac_sigma_batch_verify, m)?)?;
    m.add_function(wrap_pyfunction!(kvac::kvac_range_verify_batch, m)?)?;
    m.add_function(wrap_pyfunction!(kvac::bj_unpack_many, m)?)?;
    m.add_function(wrap_pyfunction!(verifier::instance_layout, m)?)?;
    m.add_function(wrap_pyfunction!(r1cs::r1cs, m)?)?;
    m.add_function(wrap_pyfunction!(snarkjs_export, m)?)?;
    m.add_function(wrap_pyfunction!(snarkjs_verifying_key, m)?)?;
    m.add_function(wrap_pyfunction!(check_mutations, m)?)?;
    m.add_function(wrap_pyfunction!(poseidon, m)?)?;
    m.add_function(wrap_pyfunction!(bj_check, m)?)?;
    m.add_function(wrap_pyfunction!(bj_add, m)?)?;
    m.add_function(wrap_pyfunction!(bj_mul, m)?)?;
    m.add_function(wrap_pyfunction!(points::bj_lincomb, m)?)?;
    m.add_function(wrap_pyfunction!(bj_base8, m)?)?;
    m.add_function(wrap_pyfunction!(bj_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(bj_eddsa_public, m)?)?;
    m.add_function(wrap_pyfunction!(bj_eddsa_sign, m)?)?;
    m.add_function(wrap_pyfunction!(bj_eddsa_verify, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bj_pack, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bj_unpack, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bj_pedersen_h, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::sigma_prove, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::sigma_verify, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::sigma_batch_verify, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bp_range_prove, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bp_range_verify, m)?)?;
    m.add_function(wrap_pyfunction!(sigma::bp_range_verify_batch, m)?)?;
    cothority::register(m)?;
    shuffle::register(m)?;
    cash::register(m)?;
    Ok(())
}
