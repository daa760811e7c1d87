//! Hostile IR: random edits of valid documents never panic. Whatever `Program::from_json`
//! accepts can be evaluated, synthesized and counted without panicking, on any inputs of the
//! declared types; everything else is a clean `IrError`.

use ark_bn254::Fr;
use ark_relations::r1cs::ConstraintSystem;
use proptest::prelude::*;
use serde_json::{json, Value as Json};
use zeenot_circuit::{eval, groth16, synth, Program};

fn seeds() -> Vec<Json> {
    vec![
        json!({"version": 1, "name": "a", "source": {"file": "a.py"},
            "inputs": [{"id": 0, "name": "x", "ty": "u8", "vis": "private"},
                       {"id": 1, "name": "y", "ty": "i16", "vis": "public"},
                       {"id": 2, "name": "g", "ty": "bool", "vis": "private"}],
            "body": [
                {"id": 3, "op": "cast", "ty": "i16", "args": [0], "guard": 2, "loc": [1, 0]},
                {"id": 4, "op": "mul", "ty": "i16", "args": [3, 1], "guard": 2},
                {"id": 5, "op": "floordiv", "ty": "i16", "args": [4, 1], "guard": 2},
                {"id": 6, "op": "select", "ty": "i16", "args": [2, 5, 1]},
                {"id": 7, "op": "lt", "ty": "bool", "args": [6, 1]},
                {"op": "check", "args": [7], "guard": 2, "msg": "m"},
            ],
            "outputs": [{"name": "r", "value": 6}, {"name": "c", "value": 7}]}),
        json!({"version": 1, "name": "b",
            "inputs": [{"id": 10, "name": "f", "ty": "field", "vis": "private"},
                       {"id": 11, "name": "u", "ty": "u64", "vis": "private"}],
            "body": [
                {"id": 12, "op": "const", "ty": "field", "value": "7"},
                {"id": 13, "op": "mul", "ty": "field", "args": [10, 12]},
                {"id": 14, "op": "cast", "ty": "u32", "args": [13]},
                {"id": 15, "op": "cast", "ty": "u64", "args": [14]},
                {"id": 16, "op": "mod", "ty": "u64", "args": [11, 15]},
                {"id": 17, "op": "eq", "ty": "bool", "args": [16, 11]},
                {"id": 18, "op": "not", "ty": "bool", "args": [17]},
            ],
            "outputs": [{"name": "m", "value": 16}, {"name": "n", "value": 18}]}),
        json!({"version": 1, "name": "c", "source": {"file": "c.py"},
            "inputs": [{"id": 0, "name": "i", "ty": "i8", "vis": "private"},
                       {"id": 1, "name": "x", "ty": "u16", "vis": "private"},
                       {"id": 2, "name": "y", "ty": "u16", "vis": "public"},
                       {"id": 3, "name": "g", "ty": "bool", "vis": "private"},
                       {"id": 4, "name": "f", "ty": "field", "vis": "private"}],
            "body": [
                {"id": 5, "op": "const", "ty": "u16", "value": "9"},
                {"id": 6, "op": "index", "ty": "u16", "args": [0, 1, 2, 5], "guard": 3, "loc": [1, 0]},
                {"id": 7, "op": "index", "ty": "u16", "args": [0, 2, 1, 1], "guard": 3},
                {"id": 8, "op": "index", "ty": "field", "args": [1, 4, 4]},
                {"id": 9, "op": "index", "ty": "bool", "args": [0, 3]},
                {"id": 10, "op": "select", "ty": "u16", "args": [3, 6, 5]},
            ],
            "outputs": [{"name": "r", "value": 10}, {"name": "f", "value": 8}, {"name": "b", "value": 9}]}),
    ]
}

const OPS: [&str; 22] = [
    "const", "add", "sub", "mul", "neg", "floordiv", "mod", "eq", "ne", "lt", "le", "gt", "ge", "and", "or",
    "not", "select", "cast", "check", "index", "poseidon", "bogus",
];
const TYS: [&str; 8] = ["bool", "u8", "u64", "i8", "i16", "field", "u7", ""];
const NUMS: [&str; 9] = ["0", "1", "-1", "255", "256", "-129", "18446744073709551616", "00", "x"];

/// One random edit somewhere in the document.
fn mutate(doc: &mut Json, r: &[u32]) {
    let pick = |n: usize, k: usize| r[k] as usize % n.max(1);
    let section = ["inputs", "body", "outputs"][pick(3, 0)];
    let Some(items) = doc[section].as_array_mut() else { return };
    if items.is_empty() {
        return;
    }
    let i = pick(items.len(), 1);
    match pick(9, 2) {
        0 => items[i]["id"] = json!(r[3] % 24),
        1 => items[i]["op"] = json!(OPS[pick(OPS.len(), 3)]),
        2 => items[i]["ty"] = json!(TYS[pick(TYS.len(), 3)]),
        3 => {
            items[i]["args"] = json!((0..r[3] % 4).map(|k| r[(k + 4) as usize % 8] % 24).collect::<Vec<_>>())
        }
        4 => items[i]["guard"] = json!(r[3] % 24),
        5 => items[i]["value"] = json!(NUMS[pick(NUMS.len(), 3)]),
        6 => {
            let dup = items[i].clone();
            items.insert(pick(items.len(), 3), dup);
        }
        7 => {
            items.remove(i);
        }
        _ => {
            if let Some(o) = items[i].as_object_mut() {
                // an object earlier edits emptied has no key left to remove
                let keys: Vec<String> = o.keys().cloned().collect();
                if !keys.is_empty() {
                    o.remove(&keys[pick(keys.len(), 3)]);
                }
            }
        }
    }
}

fn inputs_for(p: &Program, r: &[u32]) -> Vec<String> {
    p.inputs
        .iter()
        .enumerate()
        .map(|(k, inp)| {
            let (lo, hi) = inp.ty.range().unwrap_or((0, 1000));
            let span = (hi - lo + 1).max(1);
            (lo + (r[k % r.len()] as i128 % span)).to_string()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn edited_ir_never_panics(which in 0usize..3, edits in proptest::collection::vec(proptest::collection::vec(any::<u32>(), 8), 1..4)) {
        let mut doc = seeds()[which].clone();
        for r in &edits {
            mutate(&mut doc, r);
        }
        if let Ok(p) = Program::from_json(&doc.to_string()) {
            let values = p.parse_inputs(&inputs_for(&p, &edits[0])).expect("in-range inputs parse");
            let _ = eval::evaluate(&p, &values);
            let _ = synth::lower(&p, Some(&values), ConstraintSystem::<Fr>::new_ref());
            let _ = groth16::stats(&p);
        }
    }
}

#[test]
fn malformed_text_is_an_error() {
    for text in ["", "null", "1", "[]", "{\"version\": 1}", "{\"version\": \"1\"}", "{\"version\": 1e400}"] {
        assert!(Program::from_json(text).is_err(), "{text}");
    }
    let deep = "[".repeat(100_000);
    assert!(Program::from_json(&deep).is_err());
}

/// The edits are not vacuous: a fixed batch yields both accepted and rejected documents, and
/// accepted ones that evaluate both successfully and to a failure.
#[test]
fn edits_reach_both_outcomes() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    let (mut accepted, mut rejected, mut evaluated) = (0, 0, 0);
    for k in 0..2000 {
        let mut doc = seeds()[k % 3].clone();
        let r: Vec<u32> = (0..8).map(|_| rng.gen()).collect();
        mutate(&mut doc, &r);
        match Program::from_json(&doc.to_string()) {
            Ok(p) => {
                accepted += 1;
                let v = p.parse_inputs(&inputs_for(&p, &r)).unwrap();
                evaluated += usize::from(eval::evaluate(&p, &v).is_ok());
            }
            Err(_) => rejected += 1,
        }
    }
    assert!(accepted > 200 && rejected > 200 && evaluated > 50, "{accepted} {rejected} {evaluated}");
}
