//! `Groth16Verifier`: a prepared verifying key with the layout of the public values, for
//! verifying one proof or a batch without the IR (`zeenot_circuit::verifier`).

use crate::{detached, py_err, rng, ProgramArg};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use zeenot_circuit::groth16::{self, Proof, VerifyingKey};
use zeenot_circuit::verifier::{Layout, Verifier};
use zeenot_circuit::Ty;

/// The layout of an IR program's public values: (types, commitment positions).
#[pyfunction]
pub fn instance_layout(ir: ProgramArg<'_>) -> PyResult<(Vec<String>, Vec<usize>)> {
    let layout = Layout::of(&*ir.get()?);
    Ok((layout.types().iter().map(Ty::to_string).collect(), layout.commitments().to_vec()))
}

/// A verifying key prepared once, for proofs whose public values follow a layout.
#[pyclass(frozen, module = "zeenot._native")]
pub struct Groth16Verifier {
    verifier: Verifier,
}

fn decode_proof(k: usize, bytes: &[u8]) -> Result<Proof, zeenot_circuit::Error> {
    groth16::decode(&format!("proof {k}"), bytes)
}

#[pymethods]
impl Groth16Verifier {
    #[new]
    fn new(
        py: Python<'_>,
        types: Vec<String>,
        commitments: Vec<usize>,
        verifying_key: &[u8],
    ) -> PyResult<Self> {
        let types = types
            .iter()
            .map(|t| Ty::parse(t).ok_or_else(|| PyValueError::new_err(format!("layout: unknown type `{t}`"))))
            .collect::<PyResult<Vec<Ty>>>()?;
        let layout = Layout::new(types, commitments).map_err(py_err)?;
        let bytes = verifying_key.to_vec();
        let verifier = detached(py, || {
            let vk: VerifyingKey = groth16::decode("verifying key", &bytes)?;
            Ok(Verifier::new(layout, &vk)?)
        })?;
        Ok(Groth16Verifier { verifier })
    }

    /// True if the proof is valid for these public values.
    fn verify(&self, py: Python<'_>, public: Vec<String>, proof: &[u8]) -> PyResult<bool> {
        let bytes = proof.to_vec();
        detached(py, || Ok(self.verifier.verify(&public, &decode_proof(0, &bytes)?)?))
    }

    /// True if every (public values, proof) pair is valid (random linear combination).
    fn verify_batch(&self, py: Python<'_>, items: Vec<(Vec<String>, Vec<u8>)>) -> PyResult<bool> {
        detached(py, || {
            let proofs = items
                .iter()
                .enumerate()
                .map(|(k, (_, p))| decode_proof(k, p))
                .collect::<Result<Vec<Proof>, _>>()?;
            let refs: Vec<(&[String], &Proof)> =
                items.iter().zip(&proofs).map(|((x, _), p)| (x.as_slice(), p)).collect();
            Ok(self.verifier.verify_batch(&refs, &mut rng(None))?)
        })
    }
}
