//! Constraint counts per operation and type, pinned in `constraint_counts.csv` (gnark-style).
//!
//! Each row is a program `f(a: Private[T], b: Private[T], g: Private[bool]) -> R` computing one
//! operation (optionally under the guard `g`); `op_constraints` excludes the inputs' range checks
//! and the output constraint, so it is the cost of the operation alone. A change in any count fails
//! this test: explain it, then regenerate with `UPDATE_COUNTS=1 cargo test -p zeenot-circuit
//! --test constraint_counts`. The planner's cost models (issue 3+) read this file.

use serde_json::json;
use zeenot_circuit::{groth16, Program};

const TYPES: [&str; 6] = ["u8", "u32", "u64", "i8", "i32", "field"];
const OPS: [&str; 13] = [
    "add", "sub", "mul", "neg", "floordiv", "mod", "eq", "lt", "ge", "select", "cast_u16", "check_lt", "and",
];

fn program(op: &str, ty: &str, guarded: bool) -> Option<Program> {
    let int = ty != "field";
    let signed = ty.starts_with('i');
    let guard = if guarded { json!(2) } else { json!(null) };
    let (body, out_ty) = match op {
        "add" | "sub" | "mul" => {
            (vec![json!({"id": 3, "op": op, "ty": ty, "args": [0, 1], "guard": guard})], ty)
        }
        "neg" if signed || !int => {
            (vec![json!({"id": 3, "op": "neg", "ty": ty, "args": [0], "guard": guard})], ty)
        }
        "floordiv" | "mod" if int => {
            (vec![json!({"id": 3, "op": op, "ty": ty, "args": [0, 1], "guard": guard})], ty)
        }
        "eq" => (vec![json!({"id": 3, "op": "eq", "ty": "bool", "args": [0, 1]})], "bool"),
        "lt" | "ge" if int => (vec![json!({"id": 3, "op": op, "ty": "bool", "args": [0, 1]})], "bool"),
        "select" => (vec![json!({"id": 3, "op": "select", "ty": ty, "args": [2, 0, 1]})], ty),
        "cast_u16" => (vec![json!({"id": 3, "op": "cast", "ty": "u16", "args": [0], "guard": guard})], "u16"),
        "check_lt" if int => (
            vec![
                json!({"id": 3, "op": "lt", "ty": "bool", "args": [0, 1]}),
                json!({"op": "check", "args": [3], "guard": guard}),
            ],
            "",
        ),
        "and" if !guarded && ty == "u8" => {
            (vec![json!({"id": 3, "op": "and", "ty": "bool", "args": [2, 2]})], "bool")
        }
        _ => return None,
    };
    if guarded && !body.iter().any(|i| i.get("guard").is_some_and(|g| !g.is_null())) {
        return None;
    }
    let outputs = if out_ty.is_empty() { json!([]) } else { json!([{"name": "r", "value": 3}]) };
    let doc = json!({
        "version": 1, "name": op,
        "inputs": [{"id": 0, "name": "a", "ty": ty, "vis": "private"},
                   {"id": 1, "name": "b", "ty": ty, "vis": "private"},
                   {"id": 2, "name": "g", "ty": "bool", "vis": "private"}],
        "body": body, "outputs": outputs,
    });
    Some(Program::from_json(&doc.to_string()).expect("valid"))
}

fn baseline(ty: &str) -> usize {
    let doc = json!({
        "version": 1, "name": "inputs",
        "inputs": [{"id": 0, "name": "a", "ty": ty, "vis": "private"},
                   {"id": 1, "name": "b", "ty": ty, "vis": "private"},
                   {"id": 2, "name": "g", "ty": "bool", "vis": "private"}],
        "body": [], "outputs": [],
    });
    groth16::stats(&Program::from_json(&doc.to_string()).unwrap()).unwrap().constraints
}

fn table() -> String {
    let mut out = String::from("op,type,guarded,op_constraints\n");
    for op in OPS {
        for ty in TYPES {
            for guarded in [false, true] {
                if let Some(p) = program(op, ty, guarded) {
                    let s = groth16::stats(&p).unwrap();
                    let own = s.constraints - baseline(ty) - p.outputs.len();
                    out.push_str(&format!("{op},{ty},{guarded},{own}\n"));
                }
            }
        }
    }
    out
}

#[test]
fn constraint_counts_are_pinned() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/constraint_counts.csv");
    let now = table();
    if std::env::var_os("UPDATE_COUNTS").is_some() {
        std::fs::write(path, &now).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        pinned == now,
        "constraint counts changed; explain, then regenerate with UPDATE_COUNTS=1.\n{now}"
    );
}
