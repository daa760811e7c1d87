//! The wire formats of the sigma prover and verifier: `statement_from_json` on arbitrary text
//! (a statement that parses survives `statement_to_json` and back unchanged), and the
//! witness/scalar hex parsers (a scalar that parses re-encodes to the same hex, lowercased).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_fuzz::{sigma_fixture, write_seeds};
use zeenot_sigma::wire;

fuzz_target!(
    init: write_seeds(|| {
        let st = &sigma_fixture().statement;
        vec![
            wire::statement_to_json(st).into_bytes(),
            br#"{"secrets":["x"],"elements":[{"name":"G","point":"0000000000000000000000000000000000000000000000000000000000000000"}],"equations":[{"lhs":0,"terms":[[0,0]]}],"root":{"or":[{"and":[{"eq":0}]}]}}"#.to_vec(),
            b"0b00000000000000000000000000000000000000000000000000000000000000".to_vec(),
        ]
    }),
    |data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else { return };
        if let Ok(st) = wire::statement_from_json(text) {
            let json = wire::statement_to_json(&st);
            let back = wire::statement_from_json(&json).expect("a written statement reads back");
            assert_eq!(back, st, "statement JSON round trip");
            assert_eq!(wire::statement_to_json(&back), json);
        }
        if let Ok(s) = wire::scalar_from_hex(text) {
            assert_eq!(wire::witness_to_hex(&[Some(s)])[0].as_deref(), Some(&text.to_ascii_lowercase()[..]));
        }
        let st = &sigma_fixture().statement;
        let entries: Vec<Option<&str>> = text.split(',').map(|s| (s != "null").then_some(s)).collect();
        if let Ok(w) = wire::witness_from_hex(st, &entries) {
            assert_eq!(w.len(), st.secret_names().len());
        }
    }
);
