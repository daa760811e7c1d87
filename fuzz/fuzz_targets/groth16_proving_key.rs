//! `groth16::decode_proving_key` on arbitrary bytes: never a panic or an abort; a key that
//! decodes re-encodes to the same bytes (one encoding per key), and proving with it (the
//! fixture's program) is a proof or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::groth16;
use zeenot_fuzz::{groth16_fixture, rng, write_seeds};

fuzz_target!(
    init: write_seeds(|| vec![groth16::encode_proving_key(&groth16_fixture().pk)]),
    |data: &[u8]| {
        if let Ok(pk) = groth16::decode_proving_key(data) {
            assert_eq!(groth16::encode_proving_key(&pk), data, "the proving key encoding is not canonical");
            let f = groth16_fixture();
            let inputs = f.program.parse_inputs(&["7".into(), "5".into()]).expect("inputs");
            let _ = groth16::prove(&f.program, &pk, &inputs, &[], &mut rng(0));
        }
    }
);
