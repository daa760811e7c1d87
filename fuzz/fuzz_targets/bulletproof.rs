//! `RangeProof::decode` on arbitrary bytes: never a panic; a proof that decodes re-encodes to
//! the same bytes, and verifying it against the fixture's commitments never panics and
//! succeeds only for the fixture's proof.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_fuzz::{range_fixture, write_seeds, RANGE_BITS, SIGMA_CONTEXT};
use zeenot_sigma::bulletproofs::RangeProof;

fuzz_target!(
    init: write_seeds(|| vec![range_fixture().proof.encode()]),
    |data: &[u8]| {
        if let Ok(proof) = RangeProof::decode(data) {
            assert_eq!(proof.encode(), data, "the range proof encoding is not canonical");
            let f = range_fixture();
            if proof.verify(&f.gens, &f.commitments, RANGE_BITS, SIGMA_CONTEXT).is_ok() {
                assert_eq!(proof.encode(), f.proof.encode(), "another range proof verifies");
            }
        }
    }
);
