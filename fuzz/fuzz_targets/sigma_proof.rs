//! `zeenot_sigma::Proof::decode` against a fixed statement (an AND with an OR): never a panic;
//! a proof that decodes re-encodes to the same bytes, and only the fixture's proof verifies.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_fuzz::{sigma_fixture, write_seeds, SIGMA_CONTEXT};
use zeenot_sigma::Proof;

fuzz_target!(
    init: write_seeds(|| vec![sigma_fixture().proof.encode()]),
    |data: &[u8]| {
        let f = sigma_fixture();
        if let Ok(proof) = Proof::decode(&f.statement, data) {
            assert_eq!(proof.encode(), data, "the sigma proof encoding is not canonical");
            if zeenot_sigma::verify(&f.statement, &proof, SIGMA_CONTEXT).is_ok() {
                assert_eq!(proof, f.proof, "another sigma proof verifies");
            }
        }
    }
);
