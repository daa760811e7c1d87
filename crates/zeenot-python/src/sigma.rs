//! Sigma proofs (`zeenot-sigma`) for `zeenot.sigma`: statements travel as the JSON of
//! `zeenot_sigma::wire`, witnesses as 64-hex little-endian scalars (or `None`), proofs as bytes.
//!
//! Errors: `ValueError` for a malformed statement ("malformed statement: …"), a witness that
//! does not fit or does not satisfy it ("the witness does not satisfy the statement: …") and
//! malformed proof bytes ("malformed proof: …"); a proof that does not verify is `False`.
//! Parsing, proving and verifying run with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_crypto::curve::Point;
use zeenot_sigma::bulletproofs::{verify_each_encoded, BulletproofGens, EncodedRangeItem, RangeProof};
use zeenot_sigma::{wire, Error, Proof, Statement};

use super::{bj_point, bj_xy, detached, rng};

fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs `f` without the GIL (panics become `ZeenotError`), then maps a sigma error to
/// `ValueError`.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    detached(py, || Ok(f()))?.map_err(value_error)
}

/// `Ok(true)` for a valid proof, `Ok(false)` for one that does not verify, errors otherwise.
fn verdict(r: Result<(), Error>) -> Result<bool, Error> {
    match r {
        Ok(()) => Ok(true),
        Err(Error::InvalidProof) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Prove the statement (wire JSON) with one witness entry per secret (64-hex scalar or None),
/// bound to `context`. `seed` makes the proof deterministic (tests only).
#[pyfunction]
#[pyo3(signature = (statement_json, witness, context, seed=None))]
pub(crate) fn sigma_prove<'py>(
    py: Python<'py>,
    statement_json: &str,
    witness: Vec<Option<String>>,
    context: &[u8],
    seed: Option<u64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let context = context.to_vec();
    let proof = run(py, || {
        let statement = wire::statement_from_json(statement_json)?;
        let witness = wire::witness_from_hex(&statement, &witness)?;
        Ok(zeenot_sigma::prove(&statement, &witness, &context, &mut rng(seed))?.encode())
    })?;
    Ok(PyBytes::new(py, &proof))
}

/// Whether `proof` is a valid proof of the statement under `context`.
#[pyfunction]
pub(crate) fn sigma_verify(
    py: Python<'_>,
    statement_json: &str,
    proof: &[u8],
    context: &[u8],
) -> PyResult<bool> {
    let (proof, context) = (proof.to_vec(), context.to_vec());
    run(py, || {
        let statement = wire::statement_from_json(statement_json)?;
        let proof = Proof::decode(&statement, &proof)?;
        verdict(zeenot_sigma::verify(&statement, &proof, &context))
    })
}

/// Whether every `(statement_json, proof, context)` verifies (one multi-exponentiation).
#[pyfunction]
pub(crate) fn sigma_batch_verify(
    py: Python<'_>,
    items: Vec<(String, Bound<'_, PyBytes>, Bound<'_, PyBytes>)>,
) -> PyResult<bool> {
    let items: Vec<(String, Vec<u8>, Vec<u8>)> =
        items.into_iter().map(|(s, p, c)| (s, p.as_bytes().to_vec(), c.as_bytes().to_vec())).collect();
    run(py, || {
        let mut parsed: Vec<(Statement, Proof)> = Vec::with_capacity(items.len());
        // The generators and keys the statements share are decoded once.
        let mut cache = wire::PointCache::new();
        for (i, (json, proof, _)) in items.iter().enumerate() {
            let at = |e: Error| match e {
                Error::Statement(m) => Error::Statement(format!("item {i}: {m}")),
                Error::Encoding(m) => Error::Encoding(format!("item {i}: {m}")),
                other => other,
            };
            let statement = wire::statement_from_json_cached(json, &mut cache).map_err(at)?;
            let proof = Proof::decode(&statement, proof).map_err(at)?;
            parsed.push((statement, proof));
        }
        let refs: Vec<(&Statement, &Proof, &[u8])> =
            parsed.iter().zip(&items).map(|((s, p), (_, _, c))| (s, p, c.as_slice())).collect();
        verdict(zeenot_sigma::batch_verify(&refs, &mut rng(None)))
    })
}

/// The 32-byte packed encoding (circomlibjs `packPoint`) of a checked point.
#[pyfunction]
pub(crate) fn bj_pack<'py>(py: Python<'py>, x: &str, y: &str) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &bj_point(x, y)?.encode()))
}

/// The point of a 32-byte packed encoding, checked (canonical, on the curve, in the subgroup).
#[pyfunction]
pub(crate) fn bj_unpack(packed: &[u8]) -> PyResult<(String, String)> {
    let p = Point::decode_slice(packed)
        .map_err(|e| PyValueError::new_err(format!("not a packed Baby Jubjub point of the subgroup: {e}")))?;
    Ok(bj_xy(&p))
}

/// zeenot's Pedersen blinding base `H = hash_to_curve("zeenot/pedersen/v1", "H")`.
#[pyfunction]
pub(crate) fn bj_pedersen_h() -> (String, String) {
    bj_xy(&zeenot_crypto::pedersen::blinding_generator())
}

/// An aggregated Bulletproof that each `values[j]` (with blinding `blindings[j]`, 64-hex
/// little-endian) lies in `[0, 2^bits)`, bits in {8, 16, 32, 64}, the count a power of two.
/// Returns the proof and the commitments `v·G + γ·H` (packed). `seed`: tests only.
#[pyfunction]
#[pyo3(signature = (values, blindings, bits, context, seed=None))]
pub(crate) fn bp_range_prove<'py>(
    py: Python<'py>,
    values: Vec<u64>,
    blindings: Vec<String>,
    bits: usize,
    context: &[u8],
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<Bound<'py, PyBytes>>)> {
    let context = context.to_vec();
    let (proof, commitments) = run(py, || {
        let blindings = blindings
            .iter()
            .enumerate()
            .map(|(i, h)| wire::scalar_from_hex(h).map_err(|e| Error::Range(format!("blinding {i}: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        // Derived once per process (and the prover's tables built once per size).
        let gens = BulletproofGens::shared(bits.saturating_mul(values.len().max(1)));
        let (proof, commitments) =
            RangeProof::prove(&gens, &values, &blindings, bits, &context, &mut rng(seed))?;
        Ok((proof.encode(), commitments))
    })?;
    let packed = commitments.iter().map(|c| PyBytes::new(py, &c.encode())).collect();
    Ok((PyBytes::new(py, &proof), packed))
}

/// Whether `proof` shows every packed commitment opens to a value in `[0, 2^bits)`. `False`
/// for a proof that does not verify; `ValueError` for malformed bytes or an unsupported shape.
#[pyfunction]
pub(crate) fn bp_range_verify(
    py: Python<'_>,
    commitments: Vec<Vec<u8>>,
    proof: &[u8],
    bits: usize,
    context: &[u8],
) -> PyResult<bool> {
    let (proof, context) = (proof.to_vec(), context.to_vec());
    run(py, || {
        let points = commitments
            .iter()
            .enumerate()
            .map(|(i, c)| Point::decode_slice(c).map_err(|e| Error::Encoding(format!("commitment {i}: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let proof = RangeProof::decode(&proof)?;
        let gens = BulletproofGens::shared(bits.saturating_mul(points.len().max(1)));
        verdict(proof.verify(&gens, &points, bits, &context))
    })
}

/// One Bulletproof of a batch as Python passes it: packed commitments, proof, bits, context.
type RangeItemWire = (Vec<Vec<u8>>, Vec<u8>, usize, Vec<u8>);

/// Each `(packed commitments, proof, bits, context)` Bulletproof's verdict, in order: `True` if
/// it verifies, `False` if it does not or is malformed. The well-formed proofs are checked as
/// one batch (one multi-exponentiation, independent random 128-bit weights), one by one only
/// if the batch fails; decoding runs on every core.
#[pyfunction]
pub(crate) fn bp_range_verify_batch(py: Python<'_>, items: Vec<RangeItemWire>) -> PyResult<Vec<bool>> {
    run(py, || {
        let refs: Vec<EncodedRangeItem<'_>> = items
            .iter()
            .map(|(cs, proof, bits, context)| EncodedRangeItem {
                commitments: cs,
                proof,
                bits: *bits,
                context,
            })
            .collect();
        Ok(verify_each_encoded(&refs, &mut rng(None)).iter().map(Result::is_ok).collect())
    })
}
