//! The sigma back end's verifier (`backend::verify`: it decodes the proof's length-prefixed
//! pieces, then verifies) on arbitrary proof bytes for a fixed program and public values:
//! never a panic; only the fixture's own proof verifies.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_fuzz::{program_proof_fixture, write_seeds};

fuzz_target!(
    init: write_seeds(|| vec![program_proof_fixture().proof.clone()]),
    |data: &[u8]| {
        let f = program_proof_fixture();
        if zeenot_sigma::backend::verify(&f.program, &f.public, data).is_ok() {
            assert_eq!(data, &f.proof[..], "another program proof verifies");
        }
    }
);
