//! Public values and inputs as the verifier and prover parse them (typed decimals): one value
//! per line of the input. `groth16::instance` of a program with every kind of public value
//! (integers, a field element, commitments) never panics; `Value::parse` of each line, for
//! every type, accepts only canonical decimals (what it accepts, `to_decimal` writes back the
//! same); `parse_blinding` likewise; and a verifier layout read from elsewhere (the first line,
//! `types;commitment positions`) is checked before use.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::verifier::Layout;
use zeenot_circuit::{groth16, ir, Program, Ty, Value};
use zeenot_fuzz::{layout_ir, layout_public_seed, write_seeds};

const TYPES: [Ty; 10] = Ty::ALL;

fn program() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(|| Program::from_json(&layout_ir()).expect("valid IR"))
}

fn seeds() -> Vec<Vec<u8>> {
    vec![
        layout_public_seed().into_bytes(),
        format!("i16,field,field,field,field,field,field;2,4\n{}", layout_public_seed()).into_bytes(),
        b"0\n-1\n255\n-0\n+5\n007\n1_000\n 1".to_vec(),
        b"bool,u8;0\n1".to_vec(),
    ]
}

fuzz_target!(init: write_seeds(seeds), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let _ = groth16::instance(program(), &lines);
    for line in &lines {
        for ty in TYPES {
            if let Ok(v) = Value::parse(ty, line) {
                assert_eq!(&v.to_decimal(), line, "{ty} accepted a non-canonical decimal");
            }
        }
        if let Ok(r) = ir::parse_blinding(line) {
            assert_eq!(&ir::blinding_decimal(&r), line, "a non-canonical blinding was accepted");
        }
    }
    if let Some((types, commitments)) = lines[0].split_once(';') {
        let types: Option<Vec<Ty>> = types.split(',').map(Ty::parse).collect();
        let commitments: Option<Vec<usize>> = commitments
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().ok())
            .collect();
        if let (Some(types), Some(commitments)) = (types, commitments) {
            if let Ok(layout) = Layout::new(types, commitments) {
                let _ = layout.instance(&lines[1..]);
            }
        }
    }
});
