//! The verifiable shuffle (`zeenot_crypto::shuffle`) for `zeenot.shuffle`: keys as 32-byte
//! packed points, rows as `n·w` packed ciphertexts (`K ‖ C`, 64 bytes each) laid end to end,
//! proofs as bytes. Proving and verifying run with the GIL released.
//!
//! Errors: `ValueError` for a malformed key or input rows (the caller's own data); output rows
//! or a proof that do not decode, have another shape, or do not verify are `False`.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_crypto::shuffle::{self, Rows, ShuffleProof, ShuffleStatement};
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
    m.add_function(wrap_pyfunction!(shuffle_verify_batch, m)?)?;
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

/// The most shuffles one batch takes.
const MAX_BATCH: usize = 4096;

/// One shuffle of a batch: `(pk, in_rows, out_rows, n, w, proof, context)`, as for
/// [`shuffle_verify`].
type BatchItem = (Vec<u8>, Vec<u8>, Vec<u8>, usize, usize, Vec<u8>, Vec<u8>);

/// Per shuffle of `items`, whether its proof verifies (as [`shuffle_verify`] would say). All
/// are checked in one batch (`zeenot_crypto::shuffle::verify_shuffles`, random 128-bit weights
/// per proof); only if the batch fails is each checked on its own, to name the bad ones. Row
/// lists that recur (one shuffle's output, the next one's input) are decoded once. Unlike
/// [`shuffle_verify`], input rows that do not decode are that shuffle's `False` (in a chain
/// they are the previous shuffle's output: its `False` names the culprit). `ValueError`
/// ("shuffle j: ...") for a malformed key or too many items.
#[pyfunction]
pub(crate) fn shuffle_verify_batch(py: Python<'_>, items: Vec<BatchItem>) -> PyResult<Vec<bool>> {
    if items.len() > MAX_BATCH {
        return Err(PyValueError::new_err(format!("a batch takes at most {MAX_BATCH} shuffles")));
    }
    let keys = items
        .iter()
        .enumerate()
        .map(|(i, it)| key(&it.0).map_err(|e| PyValueError::new_err(format!("shuffle {i}: {e}"))))
        .collect::<PyResult<Vec<_>>>()?;
    detached(py, || Ok(verify_batch(&items, &keys)))
}

fn verify_batch(items: &[BatchItem], keys: &[PublicKey]) -> Vec<bool> {
    // Each distinct row list (by bytes and shape) decoded once (each decode is parallel).
    let mut index: HashMap<(&[u8], usize, usize), usize> = HashMap::new();
    let mut blobs: Vec<(&[u8], usize, usize)> = Vec::new();
    let mut refs = Vec::with_capacity(items.len());
    for (_, input, output, n, w, _, _) in items {
        let i = *index.entry((input.as_slice(), *n, *w)).or_insert_with(|| {
            blobs.push((input.as_slice(), *n, *w));
            blobs.len() - 1
        });
        let o = *index.entry((output.as_slice(), *n, *w)).or_insert_with(|| {
            blobs.push((output.as_slice(), *n, *w));
            blobs.len() - 1
        });
        refs.push((i, o));
    }
    let decoded: Vec<_> = blobs.iter().map(|&(b, n, w)| shuffle::decode_rows(b, n, w)).collect();
    let proofs: Vec<_> =
        items.iter().map(|(_, _, _, n, w, proof, _)| ShuffleProof::decode(proof, *n, *w)).collect();
    let mut verdicts = vec![false; items.len()];
    let mut statements: Vec<ShuffleStatement<'_>> = Vec::new();
    let mut positions = Vec::new();
    for (j, ((i, o), proof)) in refs.iter().zip(&proofs).enumerate() {
        if let (Ok(input), Ok(output), Ok(proof)) = (&decoded[*i], &decoded[*o], proof) {
            let input: &Rows = input;
            let context = items[j].6.as_slice();
            statements.push(ShuffleStatement { pk: &keys[j], input, output, proof, context });
            positions.push(j);
        }
    }
    for &p in &positions {
        verdicts[p] = true;
    }
    for bad in shuffle::invalid_shuffles(&statements) {
        verdicts[positions[bad]] = false;
    }
    verdicts
}
