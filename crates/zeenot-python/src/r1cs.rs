//! `r1cs(ir_json)`: a program's constraint matrices and variable roles, for `zeenot check`.

use crate::{detached, ProgramArg};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use zeenot_circuit::ir::fr_to_decimal;
use zeenot_circuit::r1cs::{export, Row};

fn rows(m: &[Row]) -> Vec<Vec<(usize, String)>> {
    m.iter().map(|row| row.iter().map(|(c, i)| (*i, fr_to_decimal(c))).collect()).collect()
}

/// The program's R1CS as for Groth16's setup: `num_instance` (the constant one included),
/// `num_witness`, `public_inputs` (instance variables `1..=public_inputs`), `a`/`b`/`c` (one
/// row per constraint: `(variable, coefficient)` pairs, coefficients as decimals in `[0, p)`),
/// `input_witnesses` and `blinding_witnesses` (indices in `z = (1, instance…, witness…)`).
#[pyfunction]
pub fn r1cs<'py>(py: Python<'py>, ir: ProgramArg<'_>) -> PyResult<Bound<'py, PyDict>> {
    let p = ir.get()?;
    let m = detached(py, || Ok(export(&p)?))?;
    let d = PyDict::new(py);
    d.set_item("num_instance", m.num_instance)?;
    d.set_item("num_witness", m.num_witness)?;
    d.set_item("public_inputs", m.public_inputs)?;
    d.set_item("a", rows(&m.a))?;
    d.set_item("b", rows(&m.b))?;
    d.set_item("c", rows(&m.c))?;
    d.set_item("input_witnesses", m.roles.input_witnesses)?;
    d.set_item("blinding_witnesses", m.roles.blinding_witnesses)?;
    Ok(d)
}
