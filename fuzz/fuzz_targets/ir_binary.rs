//! `binary::decode` (the binary form of IR documents, docs/ir.md "Binary form") on arbitrary
//! bytes: never a panic, never an allocation the input does not pay for; a program that loads
//! hashes to what its header names and answers its queries without one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::binary;
use zeenot_circuit::verifier::Layout;
use zeenot_fuzz::{layout_ir, write_seeds, SIGMA_IR, TINY_IR};

fuzz_target!(
    init: write_seeds(|| {
        let seed = |text: &str| binary::encode(text, [0; 32]).expect("a seed IR has a binary form");
        vec![seed(TINY_IR), seed(SIGMA_IR), seed(&layout_ir())]
    }),
    |data: &[u8]| {
        let Ok(d) = binary::decode(data) else { return };
        assert_eq!(hex::encode(&data[16..48]), d.program.hash());
        let head: serde_json::Value = serde_json::from_str(&d.head).expect("a decoded head is JSON");
        assert!(head.get("body").is_none());
        let layout = Layout::of(&d.program);
        let zeros: Vec<String> = d.program.instance_types().iter().map(|_| "0".to_owned()).collect();
        let _ = layout.instance(&zeros);
        let inputs: Vec<String> = d.program.inputs.iter().map(|_| "1".to_owned()).collect();
        let _ = d.program.parse_inputs(&inputs);
    }
);
