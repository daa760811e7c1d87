//! A program's constraint system as matrices, with the role of each variable: what the
//! under-constraint checker (`zeenot check`) reads.

use crate::ir::Program;
use crate::synth::{self, Roles};
use crate::Error;
use ark_bn254::Fr;
use ark_relations::r1cs::{ConstraintSystem, OptimizationGoal, SynthesisMode};

/// One row of a matrix: (coefficient, variable index).
pub type Row = Vec<(Fr, usize)>;

/// `A·z ∘ B·z = C·z` over `z = (1, instance…, witness…)`, as Groth16's setup builds it.
#[derive(Clone, Debug)]
pub struct R1cs {
    /// Instance variables, the constant one included (index 0).
    pub num_instance: usize,
    /// Witness variables (indices `num_instance..num_instance + num_witness` in `z`).
    pub num_witness: usize,
    /// Public input leaves: the instance variables `1..=public_inputs`; the rest of the
    /// instance (commitments and outputs) is computed by the circuit.
    pub public_inputs: usize,
    /// The matrices, one row per constraint.
    pub a: Vec<Row>,
    /// See `a`.
    pub b: Vec<Row>,
    /// See `a`.
    pub c: Vec<Row>,
    /// Where the private inputs and blindings are (indices in `z`).
    pub roles: Roles,
}

/// The constraint system of `p` (synthesised as for setup: no values).
pub fn export(p: &Program) -> Result<R1cs, Error> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    cs.set_mode(SynthesisMode::Setup);
    let mut roles = Roles::default();
    synth::lower_with_roles(p, None, None, cs.clone(), &mut roles)
        .map_err(|e| Error::Synthesis(e.to_string()))?;
    cs.finalize();
    let m = cs.to_matrices().ok_or_else(|| Error::Synthesis("no constraint matrices".into()))?;
    let n = m.num_instance_variables;
    for j in roles.input_witnesses.iter_mut().chain(roles.blinding_witnesses.iter_mut()) {
        *j += n;
    }
    Ok(R1cs {
        num_instance: n,
        num_witness: m.num_witness_variables,
        public_inputs: p.public_inputs().count(),
        a: m.a,
        b: m.b,
        c: m.c,
        roles,
    })
}
