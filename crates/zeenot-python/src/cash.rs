//! `zeenot._native`'s Cashlib functions (`zeenot.cashlib.blind`): RFC 9474 blind RSA keys from
//! `zeenot_cash`. Conversion and error mapping only.
//!
//! Errors: `ValueError` for a bad key, variant or argument (the message says which); a
//! signature that does not verify is `False` from `verify`, and `ValueError("the signature does
//! not verify")` from `finalize`; a panic inside the crates becomes `ZeenotError`. RSA work runs
//! with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_cash::{blind, Blinding, Error, Signature, Variant};

use super::ZeenotError;

/// Registers this module's classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BlindRsaSecretKey>()?;
    m.add_class::<BlindRsaPublicKey>()?;
    m.add("BLIND_RSA_MAX_MESSAGE_BYTES", blind::MAX_MESSAGE_BYTES)?;
    m.add("BLIND_RSA_VARIANTS", Variant::NAMES.to_vec())?;
    Ok(())
}

fn py_err(e: Error) -> PyErr {
    match e {
        e @ Error::Internal(_) => ZeenotError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// Run `f` without the GIL; a panic becomes `ZeenotError`, never a `PanicException`.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    match py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))) {
        Ok(r) => r.map_err(py_err),
        Err(_) => Err(ZeenotError::new_err("internal error in zeenot's blind RSA layer (please report)")),
    }
}

fn variant(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).map_err(py_err)
}

fn randomizer(r: Option<&[u8]>) -> PyResult<Option<[u8; blind::RANDOMIZER_BYTES]>> {
    r.map(|r| {
        <[u8; blind::RANDOMIZER_BYTES]>::try_from(r).map_err(|_| {
            PyValueError::new_err(format!(
                "a message randomizer is {} bytes, not {}",
                blind::RANDOMIZER_BYTES,
                r.len()
            ))
        })
    })
    .transpose()
}

/// An RFC 9474 secret key (the signer's).
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct BlindRsaSecretKey {
    key: zeenot_cash::SecretKey,
}

#[pymethods]
impl BlindRsaSecretKey {
    /// A fresh key of `bits` bits (2048 to 4096, a multiple of 8).
    #[staticmethod]
    fn generate(py: Python<'_>, variant_name: &str, bits: usize) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaSecretKey { key: run(py, || zeenot_cash::SecretKey::generate(v, bits))? })
    }

    /// From PKCS#8 or PKCS#1 DER.
    #[staticmethod]
    fn from_der(py: Python<'_>, variant_name: &str, der: &[u8]) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaSecretKey { key: run(py, || zeenot_cash::SecretKey::from_der(v, der))? })
    }

    /// From PKCS#8 or PKCS#1 PEM.
    #[staticmethod]
    fn from_pem(py: Python<'_>, variant_name: &str, pem: &str) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaSecretKey { key: run(py, || zeenot_cash::SecretKey::from_pem(v, pem))? })
    }

    /// From big-endian `n, e, d, p, q`.
    #[staticmethod]
    fn from_components(
        py: Python<'_>,
        variant_name: &str,
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
    ) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaSecretKey { key: run(py, || zeenot_cash::SecretKey::from_components(v, n, e, d, p, q))? })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.key.variant().name()
    }

    #[getter]
    fn modulus_bits(&self) -> usize {
        self.key.modulus_bits()
    }

    fn to_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.key.to_der().map_err(py_err)?))
    }

    fn to_pem(&self) -> PyResult<String> {
        self.key.to_pem().map_err(py_err)
    }

    fn public_key(&self) -> BlindRsaPublicKey {
        BlindRsaPublicKey { key: self.key.public_key() }
    }

    /// RFC 9474 `BlindSign`.
    fn blind_sign<'py>(&self, py: Python<'py>, blinded_message: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
        let sig = run(py, || self.key.blind_sign(blinded_message))?;
        Ok(PyBytes::new(py, &sig))
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.key)
    }
}

/// An RFC 9474 public key.
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct BlindRsaPublicKey {
    key: zeenot_cash::PublicKey,
}

type BlindOutput<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>);

#[pymethods]
impl BlindRsaPublicKey {
    /// From SubjectPublicKeyInfo (rsaEncryption) or PKCS#1 DER.
    #[staticmethod]
    fn from_der(variant_name: &str, der: &[u8]) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaPublicKey { key: zeenot_cash::PublicKey::from_der(v, der).map_err(py_err)? })
    }

    #[staticmethod]
    fn from_pem(variant_name: &str, pem: &str) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaPublicKey { key: zeenot_cash::PublicKey::from_pem(v, pem).map_err(py_err)? })
    }

    /// From an RSASSA-PSS SubjectPublicKeyInfo.
    #[staticmethod]
    fn from_spki(variant_name: &str, spki: &[u8]) -> PyResult<Self> {
        let v = variant(variant_name)?;
        Ok(BlindRsaPublicKey { key: zeenot_cash::PublicKey::from_spki(v, spki).map_err(py_err)? })
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.key.variant().name()
    }

    #[getter]
    fn modulus_bits(&self) -> usize {
        self.key.modulus_bits()
    }

    #[getter]
    fn modulus_bytes(&self) -> usize {
        self.key.modulus_bytes()
    }

    fn to_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.key.to_der().map_err(py_err)?))
    }

    fn to_pem(&self) -> PyResult<String> {
        self.key.to_pem().map_err(py_err)
    }

    fn to_spki<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.key.to_spki().map_err(py_err)?))
    }

    /// RFC 9474 `Blind`: (blinded message, inv, randomizer or None).
    fn blind<'py>(&self, py: Python<'py>, msg: &[u8]) -> PyResult<BlindOutput<'py>> {
        let b = run(py, || self.key.blind(msg))?;
        Ok((
            PyBytes::new(py, &b.blinded_message),
            PyBytes::new(py, &b.inv),
            b.randomizer.map(|r| PyBytes::new(py, &r)),
        ))
    }

    /// RFC 9474 `Finalize`: the signature (checked against this key).
    #[pyo3(signature = (blind_signature, blinded_message, inv, randomizer, msg))]
    fn finalize<'py>(
        &self,
        py: Python<'py>,
        blind_signature: &[u8],
        blinded_message: &[u8],
        inv: &[u8],
        randomizer: Option<&[u8]>,
        msg: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let blinding = Blinding {
            blinded_message: blinded_message.to_vec(),
            inv: inv.to_vec(),
            randomizer: self::randomizer(randomizer)?,
        };
        let sig = run(py, || self.key.finalize(blind_signature, &blinding, msg))?;
        Ok(PyBytes::new(py, &sig.signature))
    }

    /// RFC 9474 `Verify`: `False` for anything that does not verify.
    #[pyo3(signature = (signature, randomizer, msg))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &[u8],
        randomizer: Option<&[u8]>,
        msg: &[u8],
    ) -> PyResult<bool> {
        let Ok(randomizer) = self::randomizer(randomizer) else {
            return Ok(false);
        };
        let sig = Signature { signature: signature.to_vec(), randomizer };
        run(py, || self.key.verify(&sig, msg))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<BlindRsaPublicKey>().is_ok_and(|o| o.get().key == self.key)
    }

    fn __hash__(&self) -> PyResult<u64> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key.to_der().map_err(py_err)?.hash(&mut h);
        self.key.variant().hash(&mut h);
        Ok(h.finish())
    }

    fn __repr__(&self) -> String {
        format!("BlindRsaPublicKey({}, {} bits)", self.key.variant().name(), self.key.modulus_bits())
    }
}
