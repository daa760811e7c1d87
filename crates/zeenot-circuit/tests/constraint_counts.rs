//! Constraint counts per operation and type, pinned in `constraint_counts.csv` (gnark-style).
//!
//! Each row is a program `f(a: Private[T], b: Private[T], g: Private[bool]) -> R` computing one
//! operation (optionally under the guard `g`); `op_constraints` excludes the inputs' range checks
//! and the output constraint, so it is the cost of the operation alone. Rows `index{n}_{var,const,
//! shared}` are `xs[i]` with `i: Private[u8]` over `n` elements of type `u32`: private inputs
//! (`var`), constants (`const`), or a second lookup by the same `i` into other private elements
//! (`shared`: the selector is reused, only that lookup is counted). Rows `sum{n}` are a chain of
//! `n − 1` `u64` additions over `n` private inputs (`sum(xs)`): only the last is range-checked
//! (deferred checks, `docs/circuits.md`; 65 per add before). A change in any count fails
//! this test: explain it, then regenerate with `UPDATE_COUNTS=1 cargo test -p zeenot-circuit
//! --test integration constraint_counts`. The planner's cost models (issue 3+) read this file.

use serde_json::json;
use zeenot_circuit::{groth16, Program};

const TYPES: [&str; 6] = ["u8", "u32", "u64", "i8", "i32", "field"];
const OPS: [&str; 14] = [
    "add", "sub", "mul", "neg", "floordiv", "mod", "eq", "lt", "ge", "select", "cast_u16", "check_lt",
    "check_eq", "and",
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
        // `check(a == b)`: one linear constraint, no equality gadget (`synth::checked_equalities`)
        "check_eq" => (
            vec![
                json!({"id": 3, "op": "eq", "ty": "bool", "args": [0, 1]}),
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

/// `xs[i]` over `n` elements (see the module comment), and the same program without the lookup.
fn index_programs(n: usize, elems: &str, guarded: bool) -> (Program, Program) {
    let mut inputs = vec![json!({"id": 0, "name": "i", "ty": "u8", "vis": "private"})];
    let vars = if elems == "const" { 0 } else { n * if elems == "shared" { 2 } else { 1 } };
    for k in 0..vars {
        inputs.push(json!({"id": 1 + k, "name": format!("x{k}"), "ty": "u32", "vis": "private"}));
    }
    let g = inputs.len();
    inputs.push(json!({"id": g, "name": "g", "ty": "bool", "vis": "private"}));
    let guard = if guarded { json!(g) } else { json!(null) };
    let mut pre = Vec::new();
    let first: Vec<usize> = if elems == "const" {
        for k in 0..n {
            pre.push(json!({"id": 1000 + k, "op": "const", "ty": "u32", "value": (3 * k + 1).to_string()}));
        }
        (1000..1000 + n).collect()
    } else {
        (1..=n).collect()
    };
    let lookup = |id: usize, xs: &[usize]| {
        let args: Vec<usize> = std::iter::once(0).chain(xs.iter().copied()).collect();
        json!({"id": id, "op": "index", "ty": "u32", "args": args, "guard": guard})
    };
    let (mut with, mut without) = (pre.clone(), pre);
    with.push(lookup(2000, &first));
    let mut out = 2000;
    if elems == "shared" {
        without.push(lookup(2000, &first));
        with.push(lookup(2001, &(n + 1..=2 * n).collect::<Vec<_>>()));
        out = 2001;
    }
    let doc = |body: Vec<serde_json::Value>, outputs: serde_json::Value| {
        let d = json!({"version": 1, "name": "index", "inputs": inputs.clone(), "body": body,
                       "outputs": outputs});
        Program::from_json(&d.to_string()).expect("valid")
    };
    (doc(with, json!([{"name": "r", "value": out}])), doc(without, json!([])))
}

/// `sum(xs)` over `n` private `u64` inputs as the front end chains it (`acc = acc + x_k`, every
/// add under the same guard), and the same inputs without the sum.
fn sum_programs(n: usize, guarded: bool) -> (Program, Program) {
    let mut inputs: Vec<serde_json::Value> =
        (0..n).map(|k| json!({"id": k, "name": format!("x{k}"), "ty": "u64", "vis": "private"})).collect();
    inputs.push(json!({"id": n, "name": "g", "ty": "bool", "vis": "private"}));
    let guard = if guarded { json!(n) } else { json!(null) };
    let body: Vec<serde_json::Value> = (1..n)
        .map(|k| {
            let acc = if k == 1 { 0 } else { n + k - 1 };
            json!({"id": n + k, "op": "add", "ty": "u64", "args": [acc, k], "guard": guard})
        })
        .collect();
    let doc = |body: Vec<serde_json::Value>, outputs: serde_json::Value| {
        let d = json!({"version": 1, "name": "sum", "inputs": inputs.clone(), "body": body,
                       "outputs": outputs});
        Program::from_json(&d.to_string()).expect("valid")
    };
    (doc(body, json!([{"name": "r", "value": 2 * n - 1}])), doc(vec![], json!([])))
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
    for n in [4, 16, 64] {
        for elems in ["var", "const", "shared"] {
            for guarded in [false, true] {
                let (p, base) = index_programs(n, elems, guarded);
                let own = groth16::stats(&p).unwrap().constraints
                    - groth16::stats(&base).unwrap().constraints
                    - p.outputs.len();
                out.push_str(&format!("index{n}_{elems},u32,{guarded},{own}\n"));
            }
        }
    }
    for n in [8, 32] {
        for guarded in [false, true] {
            let (p, base) = sum_programs(n, guarded);
            let own = groth16::stats(&p).unwrap().constraints
                - groth16::stats(&base).unwrap().constraints
                - p.outputs.len();
            out.push_str(&format!("sum{n},u64,{guarded},{own}\n"));
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
