//! The integration tests of this crate, one module per file, linked as one binary (see
//! `one_binary.rs`: a file in `tests/` that is not declared here fails the check below).

mod decode;
mod elgamal;
mod independent_reference;
mod pedersen_eddsa;
mod vectors;

#[path = "../../zeenot-ir/tests/support/one_binary.rs"]
mod one_binary;

#[test]
fn every_test_file_is_compiled() {
    one_binary::check(concat!(env!("CARGO_MANIFEST_DIR"), "/tests"), include_str!("main.rs"));
}
