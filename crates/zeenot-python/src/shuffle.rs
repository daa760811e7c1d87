//! The verifiable shuffle (`zeenot_crypto::shuffle`) for `zeenot.shuffle`: keys as 32-byte
//! packed points, rows as `n·w` packed ciphertexts (`K ‖ C`, 64 bytes each) laid end to end,
//! proofs as bytes. Proving and verifying run with the GIL released.
//!
//! Errors: `ValueError` for a malformed key or input rows (the caller's own data); output rows
//! or a proof that do not decode, have another shape, or do not verify are `False`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_crypto::shuffle::{self, ShuffleProof};
use zeenot_crypto::PublicKey;

use super::{detached, rng};

/// A message for a `ValueError` that names what was wrong.
fn value_error(what: &str) -> impl Fn(zeenot_crypto::Error) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Registers this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shuffle_prove, m)?)?;
    m.add_function(wrap_pyfunction!(shuffle_verify, m)?)?;
    Ok(())
}

fn key(pk: &[u8]) -> PyResult<PublicKey> {
    PublicKey::decode(pk).map_err(|e| PyValueError::new_err(format!("not a public key: {e}")))
}

/// Shuffle `n` rows of `w` ciphertexts under `pk`: (the output rows laid end to end, the proof
/// bound to `context`). `seed` makes it deterministic (tests only).
#[pyfunction]
#[pyo3(signature = (pk, rows, n, w, context, seed=None))]
pub(crate) fn shuffle_prove<'py>(
    py: Python<'py>,
    pk: &[u8],
    rows: &[u8],
    n: usize,
    w: usize,
    context: &[u8],
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let pk = key(pk)?;
    let outcome = detached(py, || {
        Ok((|| {
            let rows = shuffle::decode_rows(rows, n, w).map_err(value_error("malformed rows"))?;
            let (out, proof) = shuffle::shuffle(&pk, &rows, context, &mut rng(seed))
                .map_err(value_error("cannot shuffle"))?;
            Ok::<_, String>((shuffle::encode_rows(&out), proof.encode()))
        })())
    })?;
    let (out, proof) = outcome.map_err(PyValueError::new_err)?;
    Ok((PyBytes::new(py, &out), PyBytes::new(py, &proof)))
}

/// Whether `proof` shows that `out_rows` is a re-encryption shuffle of `in_rows` (each `n`
/// rows of `w` ciphertexts) under `pk`, for `context`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn shuffle_verify(
    py: Python<'_>,
    pk: &[u8],
    in_rows: &[u8],
    out_rows: &[u8],
    n: usize,
    w: usize,
    proof: &[u8],
    context: &[u8],
) -> PyResult<bool> {
    let pk = key(pk)?;
    let outcome = detached(py, || {
        Ok(shuffle::decode_rows(in_rows, n, w).map_err(value_error("malformed input rows")).map(|input| {
            let verdict = shuffle::decode_rows(out_rows, n, w).and_then(|output| {
                let proof = ShuffleProof::decode(proof, n, w)?;
                shuffle::verify_shuffle(&pk, &input, &output, &proof, context)
            });
            verdict.is_ok()
        }))
    })?;
    outcome.map_err(PyValueError::new_err)
}
