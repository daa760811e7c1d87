//! The collective authority's cryptography (`zeenot_crypto::cothority`) for
//! `zeenot.cothority.crypto`: points travel as 32-byte packed encodings, ciphertexts as 64-byte
//! `K ‖ C`, batches as their concatenation, scalars as 32-byte little-endian canonical bytes.
//!
//! Errors: `ValueError` for malformed bytes or parameters (the message names the check); a proof
//! or share that does not verify is `False`. Heavy work runs with the GIL released.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_crypto::cothority::{self, dkg, keyswitch, noise, tags};
use zeenot_crypto::curve::{decode_scalar, encode_scalar, Point, Scalar};
use zeenot_crypto::elgamal::{PreparedPublicKey, PublicKey, SecretKey};
use zeenot_crypto::{DlogTable, Error};

use super::{detached, rng};

/// Runs `f` without the GIL; crypto errors become `ValueError`.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    detached(py, || Ok(f()))?.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `Ok(true)` for a valid proof or share, `Ok(false)` for one that does not verify.
fn verdict(r: Result<(), Error>) -> Result<bool, Error> {
    match r {
        Ok(()) => Ok(true),
        Err(Error::InvalidProof | Error::InvalidShare) => Ok(false),
        Err(e) => Err(e),
    }
}

fn scalar(b: &[u8]) -> Result<Scalar, Error> {
    let arr: [u8; 32] = b.try_into().map_err(|_| Error::Length { expected: 32, actual: b.len() })?;
    decode_scalar(&arr)
}

fn point(b: &[u8]) -> Result<Point, Error> {
    Point::decode_slice(b)
}

fn bytes<'py>(py: Python<'py>, b: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, b)
}

/// Dealer `index`'s dealing for `t` of `m` in `session`: (commitments `t·32` bytes, proof of
/// knowledge 64 bytes, shares `m·32` bytes with `f(j)` at `32·(j−1)`).
#[pyfunction]
#[pyo3(signature = (index, t, m, session, seed=None))]
pub(crate) fn cot_deal<'py>(
    py: Python<'py>,
    index: u32,
    t: u32,
    m: u32,
    session: &[u8],
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (d, shares) = run(py, || dkg::deal(index, t, m, session, &mut rng(seed)))?;
    let sh: Vec<u8> = shares.iter().flat_map(|s| encode_scalar(&s.0)).collect();
    Ok((bytes(py, &cothority::encode_points(&d.commitments)), bytes(py, &d.pok.encode()), bytes(py, &sh)))
}

fn dealing(index: u32, commitments: &[u8], pok: &[u8]) -> Result<dkg::Dealing, Error> {
    if commitments.len() > 32 * cothority::MAX_SERVERS as usize {
        return Err(Error::InvalidParameter("more commitments than servers"));
    }
    Ok(dkg::Dealing {
        dealer: index,
        commitments: cothority::decode_points(commitments)?,
        pok: dkg::Pok::decode(pok)?,
    })
}

/// Whether dealer `index`'s commitments and proof of knowledge are valid for `(t, m, session)`.
#[pyfunction]
pub(crate) fn cot_verify_dealing(
    py: Python<'_>,
    index: u32,
    t: u32,
    m: u32,
    session: &[u8],
    commitments: &[u8],
    pok: &[u8],
) -> PyResult<bool> {
    run(py, || verdict(dkg::verify_dealing(&dealing(index, commitments, pok)?, t, m, session)))
}

/// Whether `share` is `f(j)` for the polynomial these commitments (`t·32` bytes) commit to.
#[pyfunction]
pub(crate) fn cot_verify_share(py: Python<'_>, commitments: &[u8], j: u32, share: &[u8]) -> PyResult<bool> {
    run(py, || {
        if commitments.is_empty() || commitments.len() > 32 * cothority::MAX_SERVERS as usize {
            return Err(Error::InvalidParameter("1 to 1024 commitments"));
        }
        let commitments = cothority::decode_points(commitments)?;
        let s = scalar(share)?;
        let d = dkg::Dealing {
            dealer: 1,
            commitments,
            pok: dkg::Pok { c: Scalar::from(0u8), z: Scalar::from(0u8) },
        };
        verdict(dkg::verify_share(&d, j, &s))
    })
}

type Combined<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>);

/// The DKG's outcome from the qualified dealings `(dealer, commitments)`: (collective key,
/// verification keys `m·32` bytes, and server `j`'s secret share when `j` and its shares from
/// those dealers, in order, are given; each share checked).
#[pyfunction]
#[pyo3(signature = (t, m, dealings, j=None, shares=None))]
pub(crate) fn cot_combine<'py>(
    py: Python<'py>,
    t: u32,
    m: u32,
    dealings: Vec<(u32, Vec<u8>)>,
    j: Option<u32>,
    shares: Option<Vec<Vec<u8>>>,
) -> PyResult<Combined<'py>> {
    let (public, secret) = run(py, || {
        let zero = [0u8; 64];
        let ds = dealings.iter().map(|(i, c)| dealing(*i, c, &zero)).collect::<Result<Vec<_>, _>>()?;
        match (j, shares) {
            (Some(j), Some(shares)) => {
                let s = shares.iter().map(|b| scalar(b)).collect::<Result<Vec<_>, _>>()?;
                let k = dkg::combine(t, m, &ds, j, &s)?;
                Ok((k.public.clone(), Some(encode_scalar(&k.secret.0))))
            }
            (None, None) => Ok((dkg::combine_public(t, m, &ds)?, None)),
            _ => Err(Error::InvalidParameter("give both the server index and its shares, or neither")),
        }
    })?;
    Ok((
        bytes(py, &public.collective.encode()),
        bytes(py, &cothority::encode_points(&public.verification_keys)),
        secret.map(|s| bytes(py, &s)),
    ))
}

/// The Lagrange coefficient at zero of `j` in the answering set (32 bytes).
#[pyfunction]
pub(crate) fn cot_lagrange<'py>(py: Python<'py>, set: Vec<u32>, j: u32) -> PyResult<Bound<'py, PyBytes>> {
    let l = dkg::lagrange_at_zero(&set, j).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(bytes(py, &encode_scalar(&l)))
}

/// Server `index`'s key switch of `cts` to `querier`: (A `n·32`, B `n·32`, proof 96 bytes).
#[pyfunction]
#[pyo3(signature = (share, index, lagrange, cts, querier, context, seed=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cot_key_switch<'py>(
    py: Python<'py>,
    share: &[u8],
    index: u32,
    lagrange: &[u8],
    cts: &[u8],
    querier: &[u8],
    context: &[u8],
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (a, b, p) = run(py, || {
        let x = scalar(share)?;
        let lam = scalar(lagrange)?;
        let q = PublicKey::decode(querier)?;
        let cts = cothority::DecodedCiphertexts::decode(cts)?;
        let batch = keyswitch::key_switch_decoded(&x, index, &lam, &q, &cts, context, &mut rng(seed))?;
        Ok((cothority::encode_points(&batch.a), cothority::encode_points(&batch.b), batch.proof.encode()))
    })?;
    Ok((bytes(py, &a), bytes(py, &b), bytes(py, &p)))
}

/// Whether server `index`'s key-switching batch `(a, b, proof)` is valid.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cot_verify_key_switch(
    py: Python<'_>,
    index: u32,
    a: &[u8],
    b: &[u8],
    proof: &[u8],
    share_key: &[u8],
    lagrange: &[u8],
    cts: &[u8],
    querier: &[u8],
    context: &[u8],
) -> PyResult<bool> {
    run(py, || {
        let (a, b) = (cothority::DecodedPoints::decode(a)?, cothority::DecodedPoints::decode(b)?);
        let proof = keyswitch::SwitchProof::decode(proof)?;
        let xj = point(share_key)?;
        let lam = scalar(lagrange)?;
        let q = PublicKey::decode(querier)?;
        let cts = cothority::DecodedCiphertexts::decode(cts)?;
        verdict(keyswitch::verify_key_switch_decoded(index, a, b, proof, &xj, &lam, &q, &cts, context))
    })
}

/// The switched ciphertexts from the answering set's `(A, B)` batches.
#[pyfunction]
pub(crate) fn cot_combine_switches<'py>(
    py: Python<'py>,
    cts: &[u8],
    batches: Vec<(Vec<u8>, Vec<u8>)>,
) -> PyResult<Bound<'py, PyBytes>> {
    let out = run(py, || {
        let cts = cothority::decode_ciphertexts(cts)?;
        let decoded = batches
            .iter()
            .enumerate()
            .map(|(k, (a, b))| {
                Ok(keyswitch::SwitchBatch {
                    index: k as u32 + 1,
                    a: cothority::decode_points(a)?,
                    b: cothority::decode_points(b)?,
                    proof: keyswitch::SwitchProof {
                        c: Scalar::from(0u8),
                        z_x: Scalar::from(0u8),
                        z_v: Scalar::from(0u8),
                    },
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let refs: Vec<&keyswitch::SwitchBatch> = decoded.iter().collect();
        Ok(cothority::encode_ciphertexts(&keyswitch::combine_switches(&cts, &refs)?))
    })?;
    Ok(bytes(py, &out))
}

/// A fresh per-query tagging secret and its commitment: (s 32 bytes, S = s·B packed).
#[pyfunction]
#[pyo3(signature = (seed=None))]
pub(crate) fn cot_tag_secret(py: Python<'_>, seed: Option<u64>) -> (Bound<'_, PyBytes>, Bound<'_, PyBytes>) {
    let (s, big_s) = tags::tag_secret(&mut rng(seed));
    (bytes(py, &encode_scalar(&s)), bytes(py, &big_s.encode()))
}

/// Server `index`'s tagging step on `cts`: (outputs `n·64` bytes, proof 128 bytes).
#[pyfunction]
#[pyo3(signature = (secret, share, index, lagrange, cts, context, seed=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cot_tag_step<'py>(
    py: Python<'py>,
    secret: &[u8],
    share: &[u8],
    index: u32,
    lagrange: &[u8],
    cts: &[u8],
    context: &[u8],
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (out, proof) = run(py, || {
        let (s, x, lam) = (scalar(secret)?, scalar(share)?, scalar(lagrange)?);
        let cts = cothority::DecodedCiphertexts::decode(cts)?;
        let (out, proof) = tags::tag_step_decoded(&s, &x, index, &lam, &cts, context, &mut rng(seed))?;
        Ok((cothority::encode_ciphertexts(&out), proof.encode()))
    })?;
    Ok((bytes(py, &out), bytes(py, &proof)))
}

/// Whether server `index`'s tagging step from `inputs` to `outputs` is valid.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cot_verify_tag_step(
    py: Python<'_>,
    outputs: &[u8],
    proof: &[u8],
    secret_commitment: &[u8],
    share_key: &[u8],
    index: u32,
    lagrange: &[u8],
    inputs: &[u8],
    context: &[u8],
) -> PyResult<bool> {
    run(py, || {
        let out = cothority::DecodedCiphertexts::decode(outputs)?;
        let inp = cothority::DecodedCiphertexts::decode(inputs)?;
        let proof = tags::TagProof::decode(proof)?;
        let (big_s, xj, lam) = (point(secret_commitment)?, point(share_key)?, scalar(lagrange)?);
        verdict(tags::verify_tag_step_decoded(&out, &proof, &big_s, &xj, index, &lam, &inp, context))
    })
}

/// The trivial encryptions `(0, v·B)` of the values, concatenated.
#[pyfunction]
pub(crate) fn cot_trivial<'py>(py: Python<'py>, values: Vec<i64>) -> PyResult<Bound<'py, PyBytes>> {
    let out = run(py, || Ok(cothority::encode_ciphertexts(&noise::encrypt_trivial(&values)?)))?;
    Ok(bytes(py, &out))
}

/// Encryptions of the (signed) values under `pk` with fresh randomness, concatenated.
#[pyfunction]
#[pyo3(signature = (pk, values, seed=None))]
pub(crate) fn cot_encrypt<'py>(
    py: Python<'py>,
    pk: &[u8],
    values: Vec<i64>,
    seed: Option<u64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let out = run(py, || {
        use zeenot_crypto::elgamal::random_nonzero_scalar;
        if values.len() > cothority::MAX_BATCH {
            return Err(Error::InvalidParameter("too many values in one batch"));
        }
        let key = PreparedPublicKey::new(&PublicKey::decode(pk)?);
        let mut r = rng(seed);
        let cts: Vec<_> = values
            .iter()
            .map(|&v| {
                let rr = random_nonzero_scalar(&mut r);
                let ct = key.encrypt_with(0, &rr);
                zeenot_crypto::elgamal::Ciphertext {
                    c1: ct.c1,
                    c2: ct.c2 + Point::mul_base(&cothority::signed_scalar(v)),
                }
            })
            .collect();
        Ok(cothority::encode_ciphertexts(&cts))
    })?;
    Ok(bytes(py, &out))
}

/// The homomorphic sum of the ciphertexts (64 bytes; the trivial zero for none).
#[pyfunction]
pub(crate) fn cot_aggregate<'py>(py: Python<'py>, cts: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let out = run(py, || Ok(cothority::aggregate(&cothority::decode_ciphertexts(cts)?).encode()))?;
    Ok(bytes(py, &out))
}

/// A fresh ElGamal key pair: (secret key 32 bytes, public key packed).
#[pyfunction]
#[pyo3(signature = (seed=None))]
pub(crate) fn cot_keygen(py: Python<'_>, seed: Option<u64>) -> (Bound<'_, PyBytes>, Bound<'_, PyBytes>) {
    let sk = SecretKey::random(&mut rng(seed));
    (bytes(py, &sk.to_bytes()), bytes(py, &sk.public_key().encode()))
}

/// One table per size, built on first use and shared.
fn table(bits: u32) -> Result<Arc<DlogTable>, Error> {
    static TABLES: OnceLock<Mutex<HashMap<u32, Arc<DlogTable>>>> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(t) = tables.lock().map_err(|_| Error::InvalidParameter("table cache poisoned"))?.get(&bits) {
        return Ok(Arc::clone(t));
    }
    let t = Arc::new(DlogTable::new(bits)?);
    tables.lock().map_err(|_| Error::InvalidParameter("table cache poisoned"))?.insert(bits, Arc::clone(&t));
    Ok(t)
}

/// Decrypts each ciphertext with `sk` to an integer in `[0, 2^bits)`, or in
/// `[−2^(bits−1), 2^(bits−1))` when `signed` (baby-step giant-step; `1 ≤ bits ≤ 48`); `None`
/// for a plaintext outside the range.
#[pyfunction]
pub(crate) fn cot_decrypt(
    py: Python<'_>,
    sk: &[u8],
    cts: &[u8],
    bits: u32,
    signed: bool,
) -> PyResult<Vec<Option<i64>>> {
    run(py, || {
        let sk = SecretKey::from_bytes(sk)?;
        let cts = cothority::decode_ciphertexts(cts)?;
        let t = table(bits)?;
        let half = if signed { 1i64 << (bits.max(1) - 1) } else { 0 };
        let shift = Point::mul_base(&Scalar::from(half as u64));
        cts.iter()
            .map(|ct| match t.lookup(&(sk.decrypt_point(ct) + shift)) {
                Ok(m) => Ok(Some(m as i64 - half)),
                Err(Error::PlaintextOutOfRange { .. }) => Ok(None),
                Err(e) => Err(e),
            })
            .collect()
    })
}

/// The deterministic noise list for `(ε, Δ, len)`.
#[pyfunction]
pub(crate) fn cot_noise_list(epsilon: f64, sensitivity: u32, len: usize) -> PyResult<Vec<i64>> {
    noise::noise_list(epsilon, sensitivity, len).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The `δ` of adding a uniform draw from `values` at `(ε, Δ)`.
#[pyfunction]
pub(crate) fn cot_noise_delta(values: Vec<i64>, epsilon: f64, sensitivity: u32) -> PyResult<f64> {
    noise::list_delta(&values, epsilon, sensitivity).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The discrete Laplace probability of `k` at `(ε, Δ)`.
#[pyfunction]
pub(crate) fn cot_noise_pmf(k: i64, epsilon: f64, sensitivity: u32) -> PyResult<f64> {
    noise::pmf(k, epsilon, sensitivity).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Registers the functions above.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cot_deal, m)?)?;
    m.add_function(wrap_pyfunction!(cot_verify_dealing, m)?)?;
    m.add_function(wrap_pyfunction!(cot_verify_share, m)?)?;
    m.add_function(wrap_pyfunction!(cot_combine, m)?)?;
    m.add_function(wrap_pyfunction!(cot_lagrange, m)?)?;
    m.add_function(wrap_pyfunction!(cot_key_switch, m)?)?;
    m.add_function(wrap_pyfunction!(cot_verify_key_switch, m)?)?;
    m.add_function(wrap_pyfunction!(cot_combine_switches, m)?)?;
    m.add_function(wrap_pyfunction!(cot_tag_secret, m)?)?;
    m.add_function(wrap_pyfunction!(cot_tag_step, m)?)?;
    m.add_function(wrap_pyfunction!(cot_verify_tag_step, m)?)?;
    m.add_function(wrap_pyfunction!(cot_trivial, m)?)?;
    m.add_function(wrap_pyfunction!(cot_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(cot_aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(cot_keygen, m)?)?;
    m.add_function(wrap_pyfunction!(cot_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(cot_noise_list, m)?)?;
    m.add_function(wrap_pyfunction!(cot_noise_delta, m)?)?;
    m.add_function(wrap_pyfunction!(cot_noise_pmf, m)?)?;
    Ok(())
}
