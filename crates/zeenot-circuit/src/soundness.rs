//! Mutation testing of constraint systems: the executable form of "no free witnesses".
//!
//! Given a satisfying assignment, every variable (other than those the caller exempts, such as
//! the program's inputs) is changed on its own, by +1 and by a large pseudo-random amount, and at
//! least one constraint must then fail. A variable whose change goes unnoticed is under-constrained.

use crate::eval;
use crate::ir::{Program, Visibility};
use crate::synth;
use ark_bn254::Fr;
use ark_relations::r1cs::{ConstraintSystem, ConstraintSystemRef};
use ark_std::UniformRand;
use rand::SeedableRng;

/// A variable of a constraint system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// Instance variable `i` (0 is the constant one).
    Instance(usize),
    /// Witness variable `j`.
    Witness(usize),
}

impl Var {
    /// Whether this is one of the first `n` witness variables.
    pub fn is_witness_below(self, n: usize) -> bool {
        matches!(self, Var::Witness(j) if j < n)
    }
}

/// Check that `cs` is satisfied and that every single-variable mutation (except `exempt` ones)
/// breaks a constraint. Returns the number of variables mutated.
pub fn check_cs_mutations(
    cs: &ConstraintSystemRef<Fr>,
    exempt: &dyn Fn(Var) -> bool,
) -> Result<usize, String> {
    cs.finalize();
    let m = cs.to_matrices().ok_or("constraint system has no matrices")?;
    let (mut z, n_inst) = {
        let inner = cs.borrow().ok_or("constraint system is borrowed")?;
        let mut z = inner.instance_assignment.clone();
        z.extend_from_slice(&inner.witness_assignment);
        (z, inner.instance_assignment.len())
    };
    if z.len() != m.num_instance_variables + m.num_witness_variables {
        return Err("assignment is incomplete".into());
    }
    let dot = |row: &[(Fr, usize)], z: &[Fr]| row.iter().map(|(c, i)| *c * z[*i]).sum::<Fr>();
    let holds = |k: usize, z: &[Fr]| dot(&m.a[k], z) * dot(&m.b[k], z) == dot(&m.c[k], z);
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); z.len()];
    for k in 0..m.num_constraints {
        for row in [&m.a[k], &m.b[k], &m.c[k]] {
            for &(_, i) in row.iter() {
                if uses[i].last() != Some(&k) {
                    uses[i].push(k);
                }
            }
        }
    }
    if let Some(k) = (0..m.num_constraints).find(|&k| !holds(k, &z)) {
        return Err(format!("the assignment does not satisfy constraint {k}"));
    }
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(0x5eed);
    let mut checked = 0;
    for i in 1..z.len() {
        let var = if i < n_inst { Var::Instance(i) } else { Var::Witness(i - n_inst) };
        if exempt(var) {
            continue;
        }
        let original = z[i];
        for delta in [Fr::from(1u64), Fr::rand(&mut rng)] {
            z[i] = original + delta;
            let broken = uses[i].iter().any(|&k| !holds(k, &z));
            z[i] = original;
            if !broken {
                return Err(format!(
                    "{var:?} can change without breaking any constraint (under-constrained)"
                ));
            }
        }
        checked += 1;
    }
    Ok(checked)
}

/// Mutation-check a whole program on the given inputs: the inputs themselves are exempt (an
/// input a program ignores is legitimately free); every internal witness and every output must be
/// pinned. Fails if the program fails on these inputs. Committed values get blindings drawn from
/// a fixed seed ([`check_mutations_blinded`]).
pub fn check_mutations(p: &Program, inputs: &[crate::ir::Value]) -> Result<usize, String> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(0xb1d);
    let n = p.input_commitments().len() + p.output_commitments().len();
    let blindings: Vec<zeenot_crypto::Scalar> = (0..n).map(|_| UniformRand::rand(&mut rng)).collect();
    check_mutations_blinded(p, inputs, &blindings)
}

/// [`check_mutations`] with the blindings of the committed values (committed inputs', then
/// committed outputs', as [`synth::lower_blinded`] takes them). The committed input leaves are
/// exempt like private ones; their blindings, their commitments (instance variables) and every
/// witness of the commitments must be pinned.
pub fn check_mutations_blinded(
    p: &Program,
    inputs: &[crate::ir::Value],
    blindings: &[zeenot_crypto::Scalar],
) -> Result<usize, String> {
    p.check_values(inputs)?;
    eval::evaluate(p, inputs).map_err(|e| e.to_string())?;
    let cs = ConstraintSystem::<Fr>::new_ref();
    let mut roles = synth::Roles::default();
    synth::lower_with_roles(p, Some(inputs), Some(blindings), cs.clone(), &mut roles)
        .map_err(|e| format!("synthesis failed: {e}"))?;
    let n_pub = p.inputs.iter().filter(|i| i.vis == Visibility::Public).count();
    // the private and committed input leaves (a scalar-only input is its bits)
    let inputs: std::collections::HashSet<usize> = roles.input_witnesses.into_iter().collect();
    check_cs_mutations(&cs, &|v| match v {
        Var::Instance(i) => i <= n_pub,
        Var::Witness(j) => inputs.contains(&j),
    })
}
