//! Public values, inputs and blindings are read only in their canonical decimal form (the one
//! `to_decimal` writes): ASCII digits, a sign only for a negative signed integer, no leading
//! zero, no whitespace, no underscore, no `-0` (issue 11, item 1; the fuzz target
//! `public_values` checks the same on arbitrary text).

use zeenot_circuit::ir::{blinding_decimal, parse_blinding};
use zeenot_circuit::verifier::Layout;
use zeenot_circuit::{Ty, Value};

const TYPES: [Ty; 10] = Ty::ALL;

#[test]
fn only_canonical_decimals_are_values() {
    let rejected = [
        "", "+5", "+0", "-0", "05", "00", "007", "-05", " 5", "5 ", "5\n", "1_000", "_1", "0x10", "5.0",
        "1e3", "--5", "-", "+", "٣", "５",
    ];
    for ty in TYPES {
        for text in rejected {
            assert!(Value::parse(ty, text).is_err(), "{ty} accepted {text:?}");
        }
        for text in ["0", "1"] {
            assert_eq!(Value::parse(ty, text).unwrap().to_decimal(), text, "{ty}");
        }
    }
    // a sign only for negative values of signed types
    for ty in [Ty::I(8), Ty::I(16), Ty::I(32), Ty::I(64)] {
        assert_eq!(Value::parse(ty, "-5").unwrap(), Value::Int(-5));
    }
    for ty in [Ty::Bool, Ty::Field, Ty::U(8), Ty::U(16), Ty::U(32), Ty::U(64)] {
        assert!(Value::parse(ty, "-5").is_err(), "{ty}");
        assert!(Value::parse(ty, "-1").is_err(), "{ty}");
    }
    assert_eq!(Value::parse(Ty::I(8), "-128").unwrap(), Value::Int(-128));
    assert!(Value::parse(Ty::I(8), "-129").is_err());
}

#[test]
fn only_canonical_decimals_are_blindings() {
    for text in ["+5", "05", "1_000", " 5", "-0", "-1", "", "0x1"] {
        assert!(parse_blinding(text).is_err(), "{text:?}");
    }
    let l = zeenot_crypto::curve::SUBGROUP_ORDER_DEC;
    assert!(parse_blinding(l).is_err());
    assert!(parse_blinding(&format!("0{l}")).is_err());
    assert!(parse_blinding(&format!("{l}0")).is_err());
    let below = format!("{}0", &l[..l.len() - 1]);
    assert_eq!(blinding_decimal(&parse_blinding(&below).unwrap()), below);
    assert_eq!(blinding_decimal(&parse_blinding("0").unwrap()), "0");
}

/// A commitment position of `usize::MAX` in a layout read from a file overflowed `at + 1`.
#[test]
fn a_layout_position_at_the_end_of_usize_is_refused() {
    let types = vec![Ty::Field, Ty::Field];
    assert!(Layout::new(types.clone(), vec![0]).is_ok());
    for at in [usize::MAX, usize::MAX - 1, 1, 2] {
        assert!(Layout::new(types.clone(), vec![at]).is_err(), "{at}");
    }
    assert!(Layout::new(vec![], vec![0]).is_err());
}
