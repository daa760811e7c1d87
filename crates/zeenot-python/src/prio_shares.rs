//! `zeenot._native`'s per-request and per-job DAP-09 calls (`zeenot.prio.dap_codec`): uploaded
//! reports split and input shares opened many at a time, without the GIL, through
//! `zeenot_prio::shares`. Conversion only. A report that fails comes back as DAP's name of the
//! failure (a `str`) in its place; an argument of the wrong shape is a `ValueError`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use zeenot_prio::shares::{self, InitParts, Key, ShareOf};

use super::ZeenotError;

/// (report id, time, public share, encoded HpkeCiphertext) of one input share to open.
type ShareItem = (Vec<u8>, u64, Vec<u8>, Vec<u8>);

/// The most reports one call takes (a batch upload holds at most 1,000, a job 10,000).
const MAX_ITEMS: usize = 100_000;

fn too_many(n: usize) -> PyResult<()> {
    if n > MAX_ITEMS {
        return Err(PyValueError::new_err(format!("at most {MAX_ITEMS} reports per call, not {n}")));
    }
    Ok(())
}

fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|_| ZeenotError::new_err("internal error in zeenot's Prio layer (please report)"))
}

/// Split each encoded `Report`: `(report id, time, public share, leader's HpkeCiphertext,
/// helper's HpkeCiphertext, the leader's config id)`, or the decoding error's text.
#[pyfunction]
pub(crate) fn prio_dap_split_reports<'py>(
    py: Python<'py>,
    reports: Vec<Vec<u8>>,
) -> PyResult<Bound<'py, PyList>> {
    too_many(reports.len())?;
    let parts = detached(py, || reports.iter().map(|r| shares::split_report(r)).collect::<Vec<_>>())?;
    let items = parts
        .into_iter()
        .map(|p| -> PyResult<Bound<'py, PyAny>> {
            Ok(match p {
                Ok(p) => PyTuple::new(
                    py,
                    [
                        PyBytes::new(py, &p.report_id).into_any(),
                        p.time.into_pyobject(py)?.into_any(),
                        PyBytes::new(py, &p.public_share).into_any(),
                        PyBytes::new(py, &p.leader_ciphertext).into_any(),
                        PyBytes::new(py, &p.helper_ciphertext).into_any(),
                        p.leader_config_id.into_pyobject(py)?.into_any(),
                    ],
                )?
                .into_any(),
                Err(e) => PyString::new(py, &e.to_string()).into_any(),
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Open input shares sealed to `recipient` (`leader` or `helper`) with whichever of `keys`
/// (`(encoded HpkeConfig, private key)`) each names; each item is `(report id, time, public
/// share, encoded HpkeCiphertext)`. Each result is the VDAF input share (`bytes`) or DAP's
/// `PrepareError` name (`invalid_message`, `hpke_unknown_config_id`, `hpke_decrypt_error`).
#[pyfunction]
pub(crate) fn prio_dap_open_input_shares<'py>(
    py: Python<'py>,
    keys: Vec<(Vec<u8>, Vec<u8>)>,
    recipient: &str,
    task_id: &[u8],
    items: Vec<ShareItem>,
) -> PyResult<Bound<'py, PyList>> {
    too_many(items.len())?;
    let recipient = match recipient {
        "leader" | "helper" => {
            zeenot_prio::hpke::role(recipient).map_err(|e| PyValueError::new_err(e.to_string()))?
        }
        other => {
            return Err(PyValueError::new_err(format!("the recipient is leader or helper, not {other:?}")))
        }
    };
    let task_id = shares::task_id(task_id).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let opened = detached(py, || {
        let keys: Vec<Key<'_>> = keys.iter().map(|(c, k)| Key { config: c, private_key: k }).collect();
        items
            .iter()
            .map(|(rid, time, public, ct)| {
                let share = ShareOf { report_id: rid, time: *time, public_share: public, ciphertext: ct };
                shares::open_input_share(&keys, recipient, &task_id, &share)
            })
            .collect::<Vec<_>>()
    })?;
    let out = opened.into_iter().map(|r| match r {
        Ok(b) => PyBytes::new(py, &b).into_any(),
        Err(name) => PyString::new(py, name).into_any(),
    });
    PyList::new(py, out)
}

/// (report id, time, public share, the helper's HpkeCiphertext, the leader's ping-pong message).
type InitItem = (Vec<u8>, u64, Vec<u8>, Vec<u8>, Vec<u8>);

/// The leader's `AggregationJobInitializeReq` (time interval, empty aggregation parameter) for
/// these reports.
#[pyfunction]
pub(crate) fn prio_dap_encode_init_req<'py>(
    py: Python<'py>,
    inits: Vec<InitItem>,
) -> PyResult<Bound<'py, PyBytes>> {
    too_many(inits.len())?;
    let parts = inits
        .into_iter()
        .map(|(rid, time, public_share, ciphertext, message)| {
            let report_id: [u8; 16] = rid
                .as_slice()
                .try_into()
                .map_err(|_| PyValueError::new_err(format!("a report id is 16 bytes, not {}", rid.len())))?;
            Ok(InitParts { report_id, time, public_share, ciphertext, message })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let out = detached(py, || shares::encode_init_req(&parts))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &out))
}

/// The helper's reading of a time-interval `AggregationJobInitializeReq`: `(aggregation
/// parameter, [(report id, time, public share, HpkeCiphertext, ping-pong message)])`; bytes that
/// do not decode are a `DecodeError`.
#[pyfunction]
pub(crate) fn prio_dap_decode_init_req<'py>(
    py: Python<'py>,
    data: &[u8],
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyList>)> {
    let (param, inits) = detached(py, || shares::decode_init_req(data))?
        .map_err(|e| super::DecodeError::new_err(e.to_string()))?;
    let items = inits
        .iter()
        .map(|p| -> PyResult<Bound<'py, PyAny>> {
            Ok(PyTuple::new(
                py,
                [
                    PyBytes::new(py, &p.report_id).into_any(),
                    p.time.into_pyobject(py)?.into_any(),
                    PyBytes::new(py, &p.public_share).into_any(),
                    PyBytes::new(py, &p.ciphertext).into_any(),
                    PyBytes::new(py, &p.message).into_any(),
                ],
            )?
            .into_any())
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((PyBytes::new(py, &param), PyList::new(py, items)?))
}

/// Add this module's functions to `zeenot._native`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prio_dap_split_reports, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_open_input_shares, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_encode_init_req, m)?)?;
    m.add_function(wrap_pyfunction!(prio_dap_decode_init_req, m)?)?;
    Ok(())
}
