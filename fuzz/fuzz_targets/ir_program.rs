//! `Program::from_json` (parsing and validation of IR documents) on arbitrary text: never a
//! panic; a program that loads answers its queries (hash, layout, value parsing) without one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::verifier::Layout;
use zeenot_circuit::Program;
use zeenot_fuzz::{layout_ir, write_seeds, SIGMA_IR, TINY_IR};

fuzz_target!(
    init: write_seeds(|| vec![TINY_IR.into(), SIGMA_IR.into(), layout_ir().into_bytes()]),
    |data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else { return };
        let validated = Program::validate(text);
        if let Ok(p) = Program::from_json(text) {
            assert!(validated.is_ok());
            assert_eq!(p.hash().len(), 64);
            let layout = Layout::of(&p);
            let again = Layout::new(layout.types().to_vec(), layout.commitments().to_vec())
                .expect("a program's own layout is valid");
            assert_eq!(again, layout);
            let zeros: Vec<String> = p.instance_types().iter().map(|_| "0".to_owned()).collect();
            let _ = layout.instance(&zeros);
            let inputs: Vec<String> = p.inputs.iter().map(|_| "1".to_owned()).collect();
            let _ = p.parse_inputs(&inputs);
        } else {
            assert!(validated.is_err());
        }
    }
);
