//! `zeenot._native`'s Prio functions (`zeenot.prio`): Prio3 through `zeenot_prio::Vdaf`, DAP-09
//! messages through `zeenot_prio::dap` (as JSON text) and DAP's HPKE. Conversion and error
//! mapping only.
//!
//! Errors: `DecodeError` for bytes that do not decode, `PrioRejectedError` when preparation
//! rejects a report (its proof does not verify), `PrioHpkeError` for HPKE, `ValueError` for a bad
//! description or argument. A panic inside the crates becomes `ZeenotError`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyList};
use zeenot_prio::dap::{self, QueryType};
use zeenot_prio::{hpke, AggregateResult, Error, Measurement, Vdaf, VdafKind};

use super::{DecodeError, ZeenotError};

create_exception!(
    _native,
    PrioRejectedError,
    ZeenotError,
    "Prio preparation rejected the report: its validity proof does not verify."
);
create_exception!(
    _native,
    PrioHpkeError,
    ZeenotError,
    "HPKE: unsupported config or a ciphertext that does not open."
);

fn py_err(e: Error) -> PyErr {
    match e {
        e @ Error::Decode { .. } => DecodeError::new_err(e.to_string()),
        Error::Rejected(m) => PrioRejectedError::new_err(m),
        Error::Hpke(m) => PrioHpkeError::new_err(m),
        e @ (Error::Description(_) | Error::Input(_)) => PyValueError::new_err(e.to_string()),
    }
}

/// Run `f` without the GIL; a panic becomes `ZeenotError`, never a `PanicException`.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T> {
    match py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))) {
        Ok(r) => r.map_err(py_err),
        Err(_) => Err(ZeenotError::new_err("internal error in zeenot's Prio layer (please report)")),
    }
}

fn bytes_list<'py>(py: Python<'py>, items: &[Vec<u8>]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, items.iter().map(|b| PyBytes::new(py, b)))
}

fn slices(items: &[Vec<u8>]) -> Vec<&[u8]> {
    items.iter().map(Vec::as_slice).collect()
}

/// A Prio3 instance (`zeenot.prio.Vdaf` wraps it).
#[pyclass(frozen, module = "zeenot._native")]
pub(crate) struct PrioVdaf {
    vdaf: Vdaf,
}

#[pymethods]
impl PrioVdaf {
    /// From a JSON description (`{"type": "Prio3Sum", "bits": 32}`, Janus's names) with
    /// `num_aggregators` aggregators (DAP: 2).
    #[new]
    #[pyo3(signature = (description, num_aggregators=2))]
    fn new(description: &str, num_aggregators: usize) -> PyResult<Self> {
        let kind = VdafKind::from_json(description).map_err(py_err)?;
        Ok(PrioVdaf { vdaf: Vdaf::with_aggregators(kind, num_aggregators).map_err(py_err)? })
    }

    /// The flat JSON description.
    #[getter]
    fn description(&self) -> String {
        self.vdaf.kind().to_json()
    }

    #[getter]
    fn num_aggregators(&self) -> usize {
        self.vdaf.num_aggregators()
    }

    /// `(public_share, [input_share per aggregator])`.
    fn shard<'py>(
        &self,
        py: Python<'py>,
        measurement: &Bound<'py, PyAny>,
        nonce: &[u8],
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyList>)> {
        let m = self.measurement(measurement)?;
        let nonce = nonce.to_vec();
        let s = run(py, || self.vdaf.shard(&m, &nonce))?;
        Ok((PyBytes::new(py, &s.public_share), bytes_list(py, &s.input_shares)?))
    }

    /// `(state, prep_share)`.
    fn prepare_init<'py>(
        &self,
        py: Python<'py>,
        verify_key: &[u8],
        agg_id: usize,
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let (state, share) =
            run(py, || self.vdaf.prepare_init(verify_key, agg_id, nonce, public_share, input_share))?;
        Ok((PyBytes::new(py, &state), PyBytes::new(py, &share)))
    }

    fn prepare_shares_to_prepare_message<'py>(
        &self,
        py: Python<'py>,
        agg_id: usize,
        state: &[u8],
        prep_shares: Vec<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let m =
            run(py, || self.vdaf.prepare_shares_to_prepare_message(agg_id, state, &slices(&prep_shares)))?;
        Ok(PyBytes::new(py, &m))
    }

    fn prepare_next<'py>(
        &self,
        py: Python<'py>,
        agg_id: usize,
        state: &[u8],
        prep_message: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let out = run(py, || self.vdaf.prepare_next(agg_id, state, prep_message))?;
        Ok(PyBytes::new(py, &out))
    }

    fn aggregate<'py>(&self, py: Python<'py>, output_shares: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
        let a = run(py, || self.vdaf.aggregate(&slices(&output_shares)))?;
        Ok(PyBytes::new(py, &a))
    }

    fn merge<'py>(&self, py: Python<'py>, aggregate_shares: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
        let a = run(py, || self.vdaf.merge(&slices(&aggregate_shares)))?;
        Ok(PyBytes::new(py, &a))
    }

    /// The result: an int (Count, Sum) or a list of ints (SumVec, Histogram, an AFE's sums).
    fn unshard<'py>(
        &self,
        py: Python<'py>,
        aggregate_shares: Vec<Vec<u8>>,
        num_measurements: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = run(py, || self.vdaf.unshard(&slices(&aggregate_shares), num_measurements))?;
        Ok(match r {
            AggregateResult::Count(n) => n.into_pyobject(py)?.into_any(),
            AggregateResult::Sum(n) => n.into_pyobject(py)?.into_any(),
            AggregateResult::SumVec(v) | AggregateResult::Histogram(v) | AggregateResult::Afe(v) => {
                PyList::new(py, v)?.into_any()
            }
        })
    }

    /// DAP leader: `(state, ping-pong message for the helper)`.
    fn leader_initialized<'py>(
        &self,
        py: Python<'py>,
        verify_key: &[u8],
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let (s, m) = run(py, || self.vdaf.leader_initialized(verify_key, nonce, public_share, input_share))?;
        Ok((PyBytes::new(py, &s), PyBytes::new(py, &m)))
    }

    /// DAP helper: `(output share, ping-pong reply for the leader)`.
    fn helper_initialized<'py>(
        &self,
        py: Python<'py>,
        verify_key: &[u8],
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
        inbound: &[u8],
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let (o, m) =
            run(py, || self.vdaf.helper_initialized(verify_key, nonce, public_share, input_share, inbound))?;
        Ok((PyBytes::new(py, &o), PyBytes::new(py, &m)))
    }

    /// DAP leader, last step: the output share.
    fn leader_continued<'py>(
        &self,
        py: Python<'py>,
        state: &[u8],
        inbound: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let o = run(py, || self.vdaf.leader_continued(state, inbound))?;
        Ok(PyBytes::new(py, &o))
    }
}

impl PrioVdaf {
    fn measurement(&self, m: &Bound<'_, PyAny>) -> PyResult<Measurement> {
        let wrong =
            |what: &str| PyValueError::new_err(format!("{} takes {what}", self.vdaf.kind().to_json()));
        Ok(match self.vdaf.kind() {
            VdafKind::Prio3Count => {
                if let Ok(b) = m.cast::<PyBool>() {
                    Measurement::Count(b.is_true())
                } else {
                    match m.extract::<u8>() {
                        Ok(0) => Measurement::Count(false),
                        Ok(1) => Measurement::Count(true),
                        _ => return Err(wrong("a bool or 0/1")),
                    }
                }
            }
            VdafKind::Prio3Sum { .. } => {
                Measurement::Sum(m.extract::<u128>().map_err(|_| wrong("a non-negative int"))?)
            }
            VdafKind::Prio3SumVec { .. } => Measurement::SumVec(
                m.extract::<Vec<u128>>().map_err(|_| wrong("a list of non-negative ints"))?,
            ),
            VdafKind::Prio3Histogram { .. } => {
                Measurement::Histogram(m.extract::<usize>().map_err(|_| wrong("a bucket index (int)"))?)
            }
            VdafKind::Afe(_) => {
                let ints = if let Ok(b) = m.cast::<PyBool>() {
                    vec![u64::from(b.is_true())]
                } else if let Ok(x) = m.extract::<u64>() {
                    vec![x]
                } else {
                    m.extract::<Vec<u64>>().map_err(|_| wrong("a non-negative int or a list of them"))?
                };
                Measurement::Afe(ints)
            }
        })
    }
}

fn query_type(name: &str) -> PyResult<QueryType> {
    QueryType::from_name(name).map_err(py_err)
}

/// Decode a DAP-09 message of `kind` into its JSON text (zeenot_prio::dap's shapes).
#[pyfunction]
#[pyo3(signature = (kind, data, query_type="time_interval"))]
pub(crate) fn prio_dap_decode(py: Python<'_>, kind: &str, data: &[u8], query_type: &str) -> PyResult<String> {
    let q = self::query_type(query_type)?;
    run(py, || Ok(dap::decode(kind, data, q)?.to_string()))
}

/// Encode a DAP-09 message of `kind` from its JSON text.
#[pyfunction]
#[pyo3(signature = (kind, json, query_type="time_interval"))]
pub(crate) fn prio_dap_encode<'py>(
    py: Python<'py>,
    kind: &str,
    json: &str,
    query_type: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let q = self::query_type(query_type)?;
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| PyValueError::new_err(format!("not JSON: {e}")))?;
    let b = run(py, || dap::encode(kind, &v, q))?;
    Ok(PyBytes::new(py, &b))
}

/// The DAP-09 message kinds `prio_dap_decode` and `prio_dap_encode` take (`zeenot_prio::dap::KINDS`).
#[pyfunction]
pub(crate) fn prio_dap_kinds() -> Vec<&'static str> {
    dap::KINDS.to_vec()
}

/// `{kind: media type}` for the DAP-09 messages that travel as HTTP bodies (janus_messages'
/// `MEDIA_TYPE`s).
#[pyfunction]
pub(crate) fn prio_dap_media_types() -> Vec<(&'static str, &'static str)> {
    dap::KINDS.iter().filter_map(|k| dap::media_type(k).map(|m| (*k, m))).collect()
}

/// DAP-09's report ID checksum (XOR of SHA-256 of each 16-byte report ID).
#[pyfunction]
pub(crate) fn prio_report_id_checksum<'py>(
    py: Python<'py>,
    report_ids: Vec<Vec<u8>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = dap::report_id_checksum(report_ids.iter().map(Vec::as_slice)).map_err(py_err)?;
    Ok(PyBytes::new(py, &c))
}

/// DAP-09's HPKE application info: label (`input_share`, `aggregate_share`), sender and
/// recipient role (`collector`, `client`, `leader`, `helper`).
#[pyfunction]
pub(crate) fn prio_hpke_info<'py>(
    py: Python<'py>,
    label: &str,
    sender: &str,
    recipient: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let label = hpke::Label::from_name(label).map_err(py_err)?;
    let info = hpke::application_info(
        label,
        hpke::role(sender).map_err(py_err)?,
        hpke::role(recipient).map_err(py_err)?,
    );
    Ok(PyBytes::new(py, &info))
}

/// Seal to an encoded HpkeConfig; the encoded HpkeCiphertext.
#[pyfunction]
pub(crate) fn prio_hpke_seal<'py>(
    py: Python<'py>,
    config: &[u8],
    info: &[u8],
    plaintext: &[u8],
    aad: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let c = run(py, || hpke::seal(config, info, plaintext, aad))?;
    Ok(PyBytes::new(py, &c))
}

/// Open an encoded HpkeCiphertext with the encoded HpkeConfig's private key.
#[pyfunction]
pub(crate) fn prio_hpke_open<'py>(
    py: Python<'py>,
    config: &[u8],
    private_key: &[u8],
    info: &[u8],
    ciphertext: &[u8],
    aad: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let p = run(py, || hpke::open(config, private_key, info, ciphertext, aad))?;
    Ok(PyBytes::new(py, &p))
}

/// A fresh HPKE key pair: `(encoded HpkeConfig, private key)`.
#[pyfunction]
#[pyo3(signature = (config_id, kem_id=0x0020, kdf_id=0x0001, aead_id=0x0001))]
pub(crate) fn prio_hpke_generate<'py>(
    py: Python<'py>,
    config_id: u8,
    kem_id: u16,
    kdf_id: u16,
    aead_id: u16,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (c, k) = run(py, || hpke::generate(config_id, kem_id, kdf_id, aead_id))?;
    Ok((PyBytes::new(py, &c), PyBytes::new(py, &k)))
}

/// Add this module's classes, functions and exceptions to `zeenot._native`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PrioRejectedError", py.get_type::<PrioRejectedError>())?;
    m.add("PrioHpkeError", py.get_type::<PrioHpkeError>())?;
    m.add_class::<PrioVdaf>()?;
    m.add_function(wrap_pyfunction!(prio_dap_decode, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_encode, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_media_types, m)?)?;
    m.add_function(wrap_pyfunction!(prio_report_id_checksum, m)?)?;
    m.add_function(wrap_pyfunction!(prio_hpke_info, m)?)?;
    m.add_function(wrap_pyfunction!(prio_hpke_seal, m)?)?;
    m.add_function(wrap_pyfunction!(prio_hpke_open, m)?)?;
    m.add_function(wrap_pyfunction!(prio_hpke_generate, m)?)?;
    Ok(())
}
