//! `groth16::decode::<Proof>` on arbitrary bytes: never a panic; a proof that decodes
//! re-encodes to the same bytes, and verifying it against the fixture's key and public values
//! gives `Ok(true)` only for the fixture's own proof.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_circuit::groth16::{self, Proof};
use zeenot_fuzz::{groth16_fixture, write_seeds};

fuzz_target!(
    init: write_seeds(|| vec![groth16::encode(&groth16_fixture().proof)]),
    |data: &[u8]| {
        if let Ok(proof) = groth16::decode::<Proof>("proof", data) {
            assert_eq!(groth16::encode(&proof), data, "the proof encoding is not canonical");
            let f = groth16_fixture();
            let ok = groth16::verify(&f.program, &f.vk, &f.public, &proof).expect("well-formed values");
            assert!(!ok || proof == f.proof, "another proof verifies");
        }
    }
);
