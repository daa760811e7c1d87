//! `check(a == b)` costs one constraint, `guard · (a − b) = 0`, instead of the equality gadget
//! (an inverse witness, three constraints) and the check (`synth::checked_equalities`). Sound:
//! with the guard on, no assignment with `a ≠ b` satisfies it, whatever the prover supplies;
//! an equality read by anything else (an output, a guard, a select) keeps the gadget.

use ark_bn254::Fr;
use ark_relations::r1cs::{ConstraintSystem, SynthesisError};
use serde_json::{json, Value as Json};
use zeenot_circuit::{groth16, soundness, synth, Program, Ty, Value};

fn program(ty: &str, guarded: bool, eq_is_output: bool) -> Program {
    let guard = if guarded { json!(2) } else { json!(null) };
    let outputs: Vec<Json> = if eq_is_output { vec![json!({"name": "e", "value": 3})] } else { vec![] };
    let doc = json!({
        "version": 1, "name": "check_eq", "source": {"file": "check_eq.py"},
        "inputs": [{"id": 0, "name": "a", "ty": ty, "vis": "private"},
                   {"id": 1, "name": "b", "ty": ty, "vis": "public"},
                   {"id": 2, "name": "g", "ty": "bool", "vis": "private"}],
        "body": [
            {"id": 3, "op": "eq", "ty": "bool", "args": [0, 1], "loc": [1, 0]},
            {"op": "check", "args": [3], "guard": guard, "loc": [2, 0]},
        ],
        "outputs": outputs,
    });
    Program::from_json(&doc.to_string()).expect("valid program")
}

/// Synthesize straight from the values, without the interpreter's refusal: what a dishonest
/// prover's assignment would be.
fn satisfied(p: &Program, a: i128, b: i128, g: bool) -> bool {
    let inputs = values(p, a, b, g);
    let cs = ConstraintSystem::<Fr>::new_ref();
    match synth::lower(p, Some(&inputs), cs.clone()) {
        Ok(_) => cs.is_satisfied().unwrap(),
        Err(SynthesisError::Unsatisfiable) => false,
        Err(e) => panic!("synthesis: {e}"),
    }
}

fn values(p: &Program, a: i128, b: i128, g: bool) -> Vec<Value> {
    let field = p.inputs[0].ty == Ty::Field;
    let v = |x: i128| if field { Value::Field(Fr::from(x as i64)) } else { Value::Int(x) };
    vec![v(a), v(b), Value::Int(i128::from(g))]
}

fn constraints(p: &Program) -> usize {
    groth16::stats(p).unwrap().constraints
}

#[test]
fn unequal_values_are_rejected_equal_ones_accepted() {
    for ty in ["u8", "u32", "i32", "field"] {
        let p = program(ty, false, false);
        assert!(satisfied(&p, 7, 7, false), "{ty}");
        for (a, b) in [(7, 8), (0, 1), (1, 0), (-1, 1)] {
            if ty.starts_with('u') && (a < 0 || b < 0) {
                continue;
            }
            assert!(!satisfied(&p, a, b, false), "{ty}: {a} == {b} accepted");
        }
        soundness::check_mutations(&p, &values(&p, 5, 5, false)).unwrap();
    }
}

#[test]
fn a_guarded_check_binds_only_when_its_guard_is_on() {
    let p = program("u32", true, false);
    assert!(satisfied(&p, 3, 3, true));
    assert!(!satisfied(&p, 3, 4, true));
    assert!(satisfied(&p, 3, 4, false)); // a branch Python does not run
    soundness::check_mutations(&p, &values(&p, 3, 3, true)).unwrap();
}

#[test]
fn one_constraint_where_the_gadget_took_four() {
    for ty in ["u32", "field"] {
        let checked = constraints(&program(ty, false, false));
        let kept = constraints(&program(ty, false, true));
        // the output keeps the gadget (3) and the check (1), plus the output's own constraint
        assert_eq!(kept - checked, 3 + 1, "{ty}");
        let p = program(ty, true, true);
        assert!(satisfied(&p, 2, 2, true) && !satisfied(&p, 2, 3, true));
    }
}
