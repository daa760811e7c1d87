//! `groth16::decode_proving_key` on arbitrary bytes: never a panic or an abort; a key that
//! decodes re-encodes to the same bytes (one encoding per key).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::groth16;
use zeenot_fuzz::{groth16_fixture, write_seeds};

fuzz_target!(
    init: write_seeds(|| vec![groth16::encode_proving_key(&groth16_fixture().pk)]),
    |data: &[u8]| {
        if let Ok(pk) = groth16::decode_proving_key(data) {
            assert_eq!(groth16::encode_proving_key(&pk), data, "the proving key encoding is not canonical");
        }
    }
);
