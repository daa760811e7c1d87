//! The sigma back end (`zeenot_sigma::backend`) for `zeenot.api`: prove and verify IR programs
//! with Pedersen commitments and sigma protocols (no keys).
//!
//! Errors: `UnsatisfiedError` (with the failure's location) when the program fails on its
//! inputs, `UnsupportedError` for operations the back end lacks, `ValueError` for malformed
//! inputs, public values or proof bytes; a proof that does not verify is `False`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeenot_circuit::ir;
use zeenot_sigma::{backend, Error};

use super::{detached, rng, unsatisfied, ProgramArg, ZeenotError};

create_exception!(
    _native,
    UnsupportedError,
    ZeenotError,
    "The program uses an operation the chosen back end cannot prove."
);

fn py_err(e: Error) -> PyErr {
    match e {
        Error::Unsatisfied(u) => unsatisfied(&u),
        Error::Unsupported(m) => UnsupportedError::new_err(m),
        Error::Input(m) => PyValueError::new_err(m),
        e @ (Error::Encoding(_) | Error::Statement(_)) => PyValueError::new_err(e.to_string()),
        other => ZeenotError::new_err(format!("internal error in the sigma back end: {other}")),
    }
}

/// Prove the program on its input leaves, with one blinding (decimal) per committed input;
/// returns the proof bytes, the public values (docs/ir.md's instance order) and one blinding
/// per committed output. `seed` makes the proof deterministic (tests only).
#[pyfunction]
#[pyo3(signature = (ir, inputs, blindings, seed=None))]
pub(crate) fn sigma_program_prove<'py>(
    py: Python<'py>,
    ir: ProgramArg<'_>,
    inputs: Vec<String>,
    blindings: Vec<String>,
    seed: Option<u64>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<String>, Vec<String>)> {
    let p = ir.get()?;
    let values = p.parse_inputs(&inputs).map_err(PyValueError::new_err)?;
    let blindings = blindings
        .iter()
        .map(|b| ir::parse_blinding(b))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PyValueError::new_err)?;
    let proven =
        detached(py, || Ok(backend::prove(&p, &values, &blindings, &mut rng(seed))))?.map_err(py_err)?;
    let out = proven.blindings.iter().map(ir::blinding_decimal).collect();
    Ok((PyBytes::new(py, &proven.proof.encode()), proven.public, out))
}

/// Whether `proof` proves the program with these public values (public input leaves, then
/// outputs).
#[pyfunction]
pub(crate) fn sigma_program_verify(
    py: Python<'_>,
    ir: ProgramArg<'_>,
    public: Vec<String>,
    proof: &[u8],
) -> PyResult<bool> {
    let p = ir.get()?;
    let proof = proof.to_vec();
    match detached(py, || Ok(backend::verify(&p, &public, &proof)))? {
        Ok(()) => Ok(true),
        Err(Error::InvalidProof) => Ok(false),
        Err(e) => Err(py_err(e)),
    }
}

/// Verify many sigma-back-end proofs of one program together (one multi-exponentiation):
/// `items` holds `(public values, proof bytes)` pairs. True if all verify; False if the batch
/// fails (then check each alone to name the invalid ones); ValueError for a malformed member.
#[pyfunction]
pub(crate) fn sigma_program_verify_batch(
    py: Python<'_>,
    ir: ProgramArg<'_>,
    items: Vec<(Vec<String>, Vec<u8>)>,
) -> PyResult<bool> {
    let p = ir.get()?;
    let outcome = detached(py, || {
        let refs: Vec<(&[String], &[u8])> =
            items.iter().map(|(pb, b)| (pb.as_slice(), b.as_slice())).collect();
        Ok(backend::verify_batch(&p, &refs, &mut rng(None)))
    })?;
    match outcome {
        Ok(()) => Ok(true),
        Err(Error::InvalidProof) => Ok(false),
        Err(e) => Err(py_err(e)),
    }
}

/// The size of the program's sigma proof, counted without proving (`backend::shape`): a dict of
/// counts for the planner's cost models. `public`: one entry per input leaf, the decimal value
/// of a known public input, else `None` (counted as private: an upper bound).
#[pyfunction]
pub(crate) fn sigma_program_shape(
    py: Python<'_>,
    ir: ProgramArg<'_>,
    public: Vec<Option<String>>,
) -> PyResult<Vec<(&'static str, usize)>> {
    let p = ir.get()?;
    if public.len() != p.inputs.len() {
        return Err(PyValueError::new_err(format!(
            "expected {} input leaves, got {}",
            p.inputs.len(),
            public.len()
        )));
    }
    let values = public
        .iter()
        .zip(&p.inputs)
        .map(|(v, inp)| v.as_deref().map(|v| ir::Value::parse(inp.ty, v)).transpose())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let shape = match detached(py, || Ok(backend::shape(&p, &values)))? {
        Ok(s) => s,
        Err(Error::InvalidProof) => {
            return Err(PyValueError::new_err("the program fails on these public inputs"))
        }
        Err(e) => return Err(py_err(e)),
    };
    Ok(vec![
        ("commitments", shape.commitments),
        ("secrets", shape.secrets),
        ("equations", shape.equations),
        ("sigma_generators", shape.sigma_generators),
        ("sigma_rounds", shape.sigma_rounds),
        ("gates", shape.gates),
        ("padded_gates", shape.padded_gates),
        ("circuit_rounds", shape.circuit_rounds),
        ("constraints", shape.constraints),
        ("constraint_terms", shape.constraint_terms),
        ("point_terms", shape.point_terms),
        ("public_points", shape.public_points),
    ])
}
