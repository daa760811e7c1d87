//! `groth16::decode::<VerifyingKey>` on arbitrary bytes: never a panic; a key that decodes
//! re-encodes to the same bytes, and a key of the fixture program's shape verifies its proof
//! without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::groth16::{self, VerifyingKey};
use zeenot_fuzz::{groth16_fixture, write_seeds};

fuzz_target!(
    init: write_seeds(|| vec![groth16::encode(&groth16_fixture().vk)]),
    |data: &[u8]| {
        if let Ok(vk) = groth16::decode::<VerifyingKey>("verifying key", data) {
            assert_eq!(groth16::encode(&vk), data, "the verifying key encoding is not canonical");
            let f = groth16_fixture();
            if let Ok(true) = groth16::verify(&f.program, &vk, &f.public, &f.proof) {
                assert_eq!(vk, f.vk, "another verifying key accepts the fixture's proof");
            }
        }
    }
);
