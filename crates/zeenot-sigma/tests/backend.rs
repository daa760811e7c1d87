//! The sigma back end against the IR's meaning: for random programs (the generator the groth16
//! back end is tested with, minus `field`), a proof exists exactly when
//! evaluation succeeds, its public outputs are the evaluated ones, and it verifies; changed
//! public values, commitments or proof bytes are rejected.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_ir::ir::Visibility;
use zeenot_ir::{eval, Program};
use zeenot_sigma::backend::{prove, shape, verify, verify_batch};
use zeenot_sigma::Error;

#[path = "../../zeenot-ir/tests/support/progen.rs"]
mod progen;

const SIGMA_FEATURES: progen::Features = progen::Features { field: false, divmod: true };

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// Proves, verifies, and checks that the outputs are the evaluated ones; returns whether the
/// program could be proved.
fn check_program(doc: &str, values: &[String], seed: u64) -> bool {
    let p = Program::from_json(doc).unwrap();
    let inputs = p.parse_inputs(values).unwrap();
    match eval::evaluate(&p, &inputs) {
        Ok(vals) => {
            let proven =
                prove(&p, &inputs, &[], &mut rng(seed)).unwrap_or_else(|e| panic!("{e}\n{doc}\n{values:?}"));
            let outputs = eval::outputs(&p, &vals);
            let n_pub = proven.public.len() - outputs.len();
            assert_eq!(proven.public[n_pub..], outputs[..], "{doc}");
            let bytes = proven.proof.encode();
            verify(&p, &proven.public, &bytes).unwrap_or_else(|e| panic!("{e}\n{doc}\n{values:?}"));
            // The shape counted without proving is the proof's; unknown public values (counted
            // as private) give an upper bound.
            let public: Vec<_> = p
                .inputs
                .iter()
                .zip(&inputs)
                .map(|(i, v)| (i.vis == Visibility::Public).then_some(*v))
                .collect();
            let s = shape(&p, &public).unwrap_or_else(|e| panic!("{e}\n{doc}"));
            assert_eq!(s.commitments, proven.proof.aux.len(), "{doc}");
            assert_eq!(s.circuit_rounds, proven.proof.circuit.ipa_l.len(), "{doc}");
            let bound = shape(&p, &vec![None; p.inputs.len()]).unwrap_or_else(|e| panic!("{e}\n{doc}"));
            assert!(bound.commitments >= s.commitments && bound.gates >= s.gates, "{doc}");
            // Every public value changed by one is rejected.
            for k in 0..proven.public.len() {
                let mut public = proven.public.clone();
                let v: i128 = public[k].parse().unwrap();
                public[k] = (v + 1).to_string();
                // (a changed public guard may change the statement's shape: any error will do)
                assert!(verify(&p, &public, &bytes).is_err(), "public {k} changed\n{doc}");
            }
            true
        }
        Err(u) => {
            match prove(&p, &inputs, &[], &mut rng(seed)) {
                Err(Error::Unsatisfied(m)) => assert_eq!(m, u),
                other => panic!("a failing program was proved: {other:?}\n{doc}"),
            }
            false
        }
    }
}

#[test]
fn random_programs_agree_with_the_ir() {
    let (mut proved, mut failed) = (0, 0);
    for seed in 0..200u64 {
        let (doc, values) = progen::program_with(seed, SIGMA_FEATURES);
        if check_program(&doc, &values, seed) {
            proved += 1;
        } else {
            failed += 1;
        }
    }
    assert!(proved > 45 && failed > 30, "proved {proved}, failed {failed}");
}

const PAYD: &str = r#"{"version": 1, "name": "premium", "source": {"file": "app.py"},
  "inputs": [
    {"id": 0, "name": "miles[0]", "ty": "u32", "vis": "private", "tier": null},
    {"id": 1, "name": "miles[1]", "ty": "u32", "vis": "private", "tier": null},
    {"id": 2, "name": "rate", "ty": "u32", "vis": "public", "tier": null},
    {"id": 3, "name": "tier", "ty": "u8", "vis": "private", "tier": null}],
  "body": [
    {"id": 4, "op": "add", "ty": "u32", "args": [0, 1], "loc": [3, 4]},
    {"id": 5, "op": "mul", "ty": "u32", "args": [4, 2], "loc": [4, 4]},
    {"id": 6, "op": "const", "ty": "u32", "value": "100000"},
    {"id": 7, "op": "lt", "ty": "bool", "args": [5, 6]},
    {"op": "check", "args": [7], "loc": [5, 4], "msg": "check(cost < 100000)"},
    {"id": 8, "op": "const", "ty": "u32", "value": "7"},
    {"id": 9, "op": "const", "ty": "u32", "value": "11"},
    {"id": 10, "op": "const", "ty": "u32", "value": "13"},
    {"id": 11, "op": "index", "ty": "u32", "args": [3, 8, 9, 10], "loc": [6, 4]},
    {"id": 12, "op": "mul", "ty": "u32", "args": [5, 11], "loc": [7, 4]},
    {"id": 13, "op": "eq", "ty": "bool", "args": [0, 1]}],
  "outputs": [{"name": "return[0]", "value": 12}, {"name": "return[1]", "value": 13}]}"#;

#[test]
fn proof_bytes_are_checked_chunk_by_chunk() {
    let p = Program::from_json(PAYD).unwrap();
    let inputs = p.parse_inputs(&["120".into(), "80".into(), "3".into(), "2".into()]).unwrap();
    let proven = prove(&p, &inputs, &[], &mut rng(1)).unwrap();
    assert_eq!(proven.public, ["3", "7800", "0"]);
    let bytes = proven.proof.encode();
    verify(&p, &proven.public, &bytes).unwrap();
    // 64 chunks spread over the proof (commitments, challenges, responses; proofs.rs mutates
    // every one of a sigma proof's) and the length prefix.
    let chunks = bytes.len() / 32;
    for at in (0..64).map(|k| 8 + 32 * (k * chunks / 64).min(chunks - 1)).chain([0, 3]) {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        assert!(verify(&p, &proven.public, &bad).is_err(), "byte {at} flipped was accepted");
    }
    for cut in [0, 7, 8, 40, bytes.len() - 1] {
        assert!(matches!(verify(&p, &proven.public, &bytes[..cut]), Err(Error::Encoding(_))), "cut {cut}");
    }
    let mut long = bytes.clone();
    long.extend([0u8; 32]);
    assert!(verify(&p, &proven.public, &long).is_err());
    // The circuit proof of another run: with other private inputs and the same public values
    // it proves the same statement (payd's proof carries no commitments), so it verifies; with
    // other public values it does not. One with a round fewer is malformed.
    let same = p.parse_inputs(&["150".into(), "50".into(), "3".into(), "2".into()]).unwrap();
    let same = prove(&p, &same, &[], &mut rng(4)).unwrap();
    assert_eq!(same.public, proven.public);
    let mut swapped = proven.proof.clone();
    swapped.circuit = same.proof.circuit.clone();
    verify(&p, &proven.public, &swapped.encode()).unwrap();
    let other = p.parse_inputs(&["150".into(), "50".into(), "3".into(), "1".into()]).unwrap();
    let other = prove(&p, &other, &[], &mut rng(4)).unwrap();
    assert_ne!(other.public, proven.public);
    swapped.circuit = other.proof.circuit.clone();
    assert_eq!(verify(&p, &proven.public, &swapped.encode()), Err(Error::InvalidProof));
    let mut fewer = proven.proof.clone();
    fewer.circuit.ipa_l.pop();
    fewer.circuit.ipa_r.pop();
    assert!(matches!(verify(&p, &proven.public, &fewer.encode()), Err(Error::Encoding(_))));
    // Out-of-range lookups and failing checks cannot be proved.
    let bad_tier = p.parse_inputs(&["120".into(), "80".into(), "3".into(), "3".into()]).unwrap();
    assert!(
        matches!(prove(&p, &bad_tier, &[], &mut rng(2)), Err(Error::Unsatisfied(m)) if m.to_string().contains("index 3 out of range"))
    );
    let too_much = p.parse_inputs(&["40000".into(), "80".into(), "3".into(), "0".into()]).unwrap();
    assert!(
        matches!(prove(&p, &too_much, &[], &mut rng(3)), Err(Error::Unsatisfied(m)) if m.location == "app.py:5:4")
    );
}

#[test]
fn batches_verify_together_and_one_bad_member_fails_the_batch() {
    let p = Program::from_json(PAYD).unwrap();
    let runs = [["120", "80", "3", "2"], ["150", "50", "3", "0"], ["1", "2", "5", "1"], ["0", "0", "9", "2"]];
    let proven: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let inputs = p.parse_inputs(&v.map(String::from)).unwrap();
            let proven = prove(&p, &inputs, &[], &mut rng(10 + k as u64)).unwrap();
            (proven.public.clone(), proven.proof.encode())
        })
        .collect();
    let items: Vec<(&[String], &[u8])> = proven.iter().map(|(pb, b)| (pb.as_slice(), b.as_slice())).collect();
    verify_batch(&p, &items, &mut rng(99)).unwrap();
    verify_batch(&p, &items[..1], &mut rng(98)).unwrap();
    verify_batch(&p, &[], &mut rng(97)).unwrap();
    // a changed public value in any member, two members' public values swapped, a byte of
    // any member's proof flipped: the batch fails
    for k in 0..items.len() {
        let mut public = proven[k].0.clone();
        let v: i128 = public[1].parse().unwrap();
        public[1] = (v + 1).to_string();
        let mut bad = items.clone();
        bad[k].0 = &public;
        assert_eq!(verify_batch(&p, &bad, &mut rng(k as u64)), Err(Error::InvalidProof), "member {k}");
        let mut flipped = proven[k].1.clone();
        let at = flipped.len() - 40; // inside the circuit proof's final scalars
        flipped[at] ^= 1;
        let mut bad = items.clone();
        bad[k].1 = &flipped;
        assert!(verify_batch(&p, &bad, &mut rng(k as u64)).is_err(), "member {k} flipped");
    }
    let mut swapped = items.clone();
    swapped[0].0 = items[1].0;
    swapped[1].0 = items[0].0;
    assert!(verify_batch(&p, &swapped, &mut rng(5)).is_err());
    // a malformed member is an encoding error, not a failed check
    let mut short = items.clone();
    short[2].1 = &proven[2].1[..7];
    assert!(matches!(verify_batch(&p, &short, &mut rng(6)), Err(Error::Encoding(_))));
}

/// Extreme `i64` comparisons, and a `u64` comparison whose difference needs 34 bits.
const WIDE: &str = r#"{"version": 1, "name": "wide", "source": {"file": "app.py"},
  "inputs": [
    {"id": 0, "name": "a", "ty": "i64", "vis": "private", "tier": null},
    {"id": 1, "name": "b", "ty": "i64", "vis": "private", "tier": null},
    {"id": 2, "name": "x", "ty": "u32", "vis": "private", "tier": null},
    {"id": 3, "name": "y", "ty": "u32", "vis": "private", "tier": null}],
  "body": [
    {"id": 4, "op": "lt", "ty": "bool", "args": [0, 1]},
    {"id": 5, "op": "cast", "ty": "u64", "args": [2]},
    {"id": 6, "op": "cast", "ty": "u64", "args": [3]},
    {"id": 7, "op": "add", "ty": "u64", "args": [5, 6]},
    {"id": 8, "op": "add", "ty": "u64", "args": [7, 7]},
    {"id": 9, "op": "gt", "ty": "bool", "args": [8, 5]}],
  "outputs": [{"name": "return[0]", "value": 4}, {"name": "return[1]", "value": 9}]}"#;

#[test]
fn wide_comparisons_are_proved() {
    let p = Program::from_json(WIDE).unwrap();
    for values in [
        ["-9223372036854775808", "9223372036854775807", "4294967295", "4294967295"],
        ["9223372036854775807", "-9223372036854775808", "0", "0"],
        ["5", "5", "1", "0"],
    ] {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        assert!(check_program(WIDE, &values, 9));
        let inputs = p.parse_inputs(&values).unwrap();
        let proven = prove(&p, &inputs, &[], &mut rng(5)).unwrap();
        // nothing for the sigma statement: every value is a wire of the circuit
        assert!(proven.proof.aux.is_empty());
    }
}

#[test]
fn unsupported_operations_are_named() {
    let doc = r#"{"version": 1, "name": "h", "source": {"file": "app.py"},
      "inputs": [{"id": 0, "name": "x", "ty": "field", "vis": "private", "tier": null}],
      "body": [{"id": 1, "op": "poseidon", "ty": "field", "args": [0], "loc": [9, 2]}],
      "outputs": [{"name": "return", "value": 1}]}"#;
    let p = Program::from_json(doc).unwrap();
    let inputs = p.parse_inputs(&["7".into()]).unwrap();
    let err = prove(&p, &inputs, &[], &mut rng(1)).unwrap_err();
    assert!(matches!(&err, Error::Unsupported(m) if m.contains("field") && m.contains("poseidon")), "{err}");
}

/// `encrypt(m, pk, r)` as the front end compiles it: `c1 = r·B8`, `c2 = m·B8 + r·pk`.
const ENCRYPT: &str = r#"{"version": 1, "name": "enc", "source": {"file": "app.py"},
  "inputs": [
    {"id": 0, "name": "m", "ty": "u32", "vis": "private", "tier": null},
    {"id": 1, "name": "r", "ty": "field", "vis": "private", "tier": null},
    {"id": 2, "name": "pk.x", "ty": "field", "vis": "public", "tier": null},
    {"id": 3, "name": "pk.y", "ty": "field", "vis": "public", "tier": null}],
  "body": [
    {"id": 4, "op": "const", "ty": "field", "value": "5299619240641551281634865583518297030282874472190772894086521144482721001553"},
    {"id": 5, "op": "const", "ty": "field", "value": "16950150798460657717958625567821834550301663161624707787222815936182638968203"},
    {"id": 6, "op": "point_mul_x", "ty": "field", "args": [1, 4, 5]},
    {"id": 7, "op": "point_mul_y", "ty": "field", "args": [1, 4, 5]},
    {"id": 8, "op": "point_mul_x", "ty": "field", "args": [0, 4, 5]},
    {"id": 9, "op": "point_mul_y", "ty": "field", "args": [0, 4, 5]},
    {"id": 10, "op": "point_mul_x", "ty": "field", "args": [1, 2, 3]},
    {"id": 11, "op": "point_mul_y", "ty": "field", "args": [1, 2, 3]},
    {"id": 12, "op": "point_add_x", "ty": "field", "args": [8, 9, 10, 11]},
    {"id": 13, "op": "point_add_y", "ty": "field", "args": [8, 9, 10, 11]}],
  "outputs": [{"name": "c1.x", "value": 6}, {"name": "c1.y", "value": 7},
              {"name": "c2.x", "value": 12}, {"name": "c2.y", "value": 13}]}"#;

fn encryption_inputs(m: u32, r: u64, sk: u64) -> Vec<String> {
    use zeenot_ir::ir::fr_to_decimal;
    let pk = zeenot_crypto::Point::generator().mul_vartime(&zeenot_crypto::Scalar::from(sk));
    vec![m.to_string(), r.to_string(), fr_to_decimal(&pk.x()), fr_to_decimal(&pk.y())]
}

#[test]
fn an_encryption_is_proved_as_linear_relations() {
    let p = Program::from_json(ENCRYPT).unwrap();
    let values = encryption_inputs(42, 123_456_789_123, 987_654_321);
    let inputs = p.parse_inputs(&values).unwrap();
    let proven = prove(&p, &inputs, &[], &mut rng(3)).unwrap();
    let expected = eval::run(&p, &values).unwrap();
    assert_eq!(proven.public[2..], expected[..]); // pk, then the ciphertext
    let bytes = proven.proof.encode();
    verify(&p, &proven.public, &bytes).unwrap();
    // the message's commitment (its opening in the sigma statement, its range check in the
    // circuit: 32 bit gates), and two equations for the points
    let s = shape(&p, &[None, None, None, None]).unwrap();
    assert_eq!((s.commitments, s.gates, s.equations), (1, 32, 3));
    // another ciphertext (valid points: an encryption of 43, or with other randomness), or any
    // coordinate changed: rejected
    for other in [encryption_inputs(43, 123_456_789_123, 987_654_321), encryption_inputs(42, 5, 987_654_321)]
    {
        let theirs = eval::run(&p, &other).unwrap();
        for at in [0, 2] {
            if theirs[at..at + 2] == expected[at..at + 2] {
                continue; // the same r: the same c1
            }
            let mut public = proven.public.clone();
            public[2 + at..4 + at].clone_from_slice(&theirs[at..at + 2]);
            assert_eq!(verify(&p, &public, &bytes), Err(Error::InvalidProof), "ciphertext part {at}");
        }
    }
    for k in 2..proven.public.len() {
        let mut public = proven.public.clone();
        public[k] = "5".into();
        assert!(verify(&p, &public, &bytes).is_err(), "public {k}");
    }
    // a public key off the curve or outside the subgroup: refused on both sides
    let mut bad = values.clone();
    bad[3] = "1".into(); // (pk.x, 1) is not on the curve
    let inputs_bad = p.parse_inputs(&bad).unwrap();
    assert!(matches!(prove(&p, &inputs_bad, &[], &mut rng(4)), Err(Error::Input(_))));
    let mut public = proven.public.clone();
    public[1] = "1".into();
    assert!(matches!(verify(&p, &public, &bytes), Err(Error::Input(_))));
}

#[test]
fn a_private_scalar_times_a_private_point_is_refused() {
    // r·(m·B8): not a linear relation
    let doc = ENCRYPT.replace(r#""args": [1, 2, 3]"#, r#""args": [1, 8, 9]"#);
    let p = Program::from_json(&doc).unwrap();
    let inputs = p.parse_inputs(&encryption_inputs(1, 2, 3)).unwrap();
    let err = prove(&p, &inputs, &[], &mut rng(1)).unwrap_err();
    assert!(matches!(&err, Error::Unsupported(m) if m.contains("not a linear relation")), "{err}");
}

const COMMITTED: &str = r#"{"version": 1, "name": "carry", "source": {"file": "app.py"},
  "inputs": [
    {"id": 0, "name": "x", "ty": "i32", "vis": "committed", "tier": null},
    {"id": 1, "name": "y", "ty": "u8", "vis": "private", "tier": null}],
  "body": [
    {"id": 2, "op": "cast", "ty": "i32", "args": [1]},
    {"id": 3, "op": "add", "ty": "i32", "args": [0, 2]},
    {"id": 4, "op": "lt", "ty": "bool", "args": [0, 2]}],
  "outputs": [{"name": "sum", "value": 3, "vis": "committed"}, {"name": "less", "value": 4}]}"#;

#[test]
fn committed_values_cross_into_and_out_of_a_proof() {
    use ark_ff::UniformRand;
    use zeenot_ir::ir::{commit_value, fr_to_decimal};
    let p = Program::from_json(COMMITTED).unwrap();
    let mut r = rng(9);
    let blinding = zeenot_crypto::Scalar::rand(&mut r);
    let inputs = p.parse_inputs(&["-5".into(), "7".into()]).unwrap();
    let proven = prove(&p, &inputs, &[blinding], &mut r).unwrap();
    let c_in = commit_value(-5, &blinding);
    let c_out = commit_value(2, &proven.blindings[0]);
    let dec = |c: zeenot_crypto::Point| [fr_to_decimal(&c.x()), fr_to_decimal(&c.y())];
    let expected: Vec<String> =
        [dec(c_in), dec(c_out)].concat().into_iter().chain(["1".to_string()]).collect();
    assert_eq!(proven.public, expected);
    let bytes = proven.proof.encode();
    verify(&p, &proven.public, &bytes).unwrap();
    // Another commitment (to the same value with another blinding, or to another value) in
    // either place: rejected. A point off the curve: a malformed public value.
    let other = dec(commit_value(-5, &zeenot_crypto::Scalar::rand(&mut r)));
    for at in [0, 2] {
        let mut public = proven.public.clone();
        public[at..at + 2].clone_from_slice(&other);
        assert_eq!(verify(&p, &public, &bytes), Err(Error::InvalidProof), "commitment at {at}");
        public[at + 1] = "5".into();
        assert!(matches!(verify(&p, &public, &bytes), Err(Error::Input(_))));
    }
    // The wrong blinding for the committed input cannot be proved: its commitment differs and
    // the proof is about the commitment the prover names, so a verifier holding the real one
    // rejects it.
    let wrong = prove(&p, &inputs, &[blinding + zeenot_crypto::Scalar::from(1u64)], &mut r).unwrap();
    let mut public = wrong.public.clone();
    public[..2].clone_from_slice(&dec(c_in));
    assert_eq!(verify(&p, &public, &wrong.proof.encode()), Err(Error::InvalidProof));
    assert!(matches!(prove(&p, &inputs, &[], &mut r), Err(Error::Input(_))));
}

/// Vector commitments: `a`, `b`, `c` share one input commitment and `z` has its own; the outputs
/// `s`, `less` share one, and so do the constant `seven` and `y` (a public leaf in a vector).
const JOINT: &str = r#"{"version": 1, "name": "joint", "source": {"file": "app.py"},
  "inputs": [
    {"id": 0, "name": "a", "ty": "u8", "vis": "committed"},
    {"id": 1, "name": "b", "ty": "u16", "vis": "committed", "joint": true},
    {"id": 2, "name": "c", "ty": "i32", "vis": "committed", "joint": true},
    {"id": 3, "name": "y", "ty": "u8", "vis": "private"},
    {"id": 4, "name": "z", "ty": "u8", "vis": "committed"}],
  "body": [
    {"id": 5, "op": "cast", "ty": "i32", "args": [0]},
    {"id": 6, "op": "cast", "ty": "i32", "args": [1]},
    {"id": 7, "op": "add", "ty": "i32", "args": [5, 6]},
    {"id": 8, "op": "add", "ty": "i32", "args": [7, 2]},
    {"id": 9, "op": "lt", "ty": "bool", "args": [2, 7]},
    {"id": 10, "op": "const", "ty": "u8", "value": "7"},
    {"id": 11, "op": "mul", "ty": "i32", "args": [5, 6]},
    {"id": 12, "op": "lt", "ty": "bool", "args": [4, 3]}],
  "outputs": [{"name": "s", "value": 8, "vis": "committed"},
              {"name": "less", "value": 9, "vis": "committed", "joint": true},
              {"name": "seven", "value": 10, "vis": "committed"},
              {"name": "y", "value": 3, "vis": "committed", "joint": true},
              {"name": "ab", "value": 11},
              {"name": "zy", "value": 12}]}"#;

fn decimals(c: zeenot_crypto::Point) -> [String; 2] {
    use zeenot_ir::ir::fr_to_decimal;
    [fr_to_decimal(&c.x()), fr_to_decimal(&c.y())]
}

#[test]
fn vector_commitments_bind_every_leaf_in_its_place() {
    use ark_ff::UniformRand;
    use zeenot_crypto::{Point, Scalar};
    use zeenot_ir::ir::{commit_value, commit_values, commitment_bases};
    let p = Program::from_json(JOINT).unwrap();
    let mut r = rng(21);
    let (r_abc, r_z) = (Scalar::rand(&mut r), Scalar::rand(&mut r));
    let inputs = p.parse_inputs(&["5", "300", "-20", "9", "3"].map(String::from)).unwrap();
    let proven = prove(&p, &inputs, &[r_abc, r_z], &mut r).unwrap();
    // Instance: the two input commitments, the two output commitments, then `ab` and `zy`.
    let c_in = commit_values(&[5, 300, -20], &r_abc);
    assert_eq!(proven.blindings.len(), 2);
    let c_out = commit_values(&[285, 1], &proven.blindings[0]);
    let c_seven = commit_values(&[7, 9], &proven.blindings[1]);
    let expected: Vec<String> =
        [decimals(c_in), decimals(commit_value(3, &r_z)), decimals(c_out), decimals(c_seven)]
            .concat()
            .into_iter()
            .chain(["1500".into(), "1".into()])
            .collect();
    assert_eq!(proven.public, expected);
    let bytes = proven.proof.encode();
    verify(&p, &proven.public, &bytes).unwrap();
    // Without public inputs the shape is exact: a fresh commitment per leaf of a vector.
    let s = shape(&p, &[None; 5]).unwrap();
    assert_eq!((s.commitments, s.circuit_rounds), (proven.proof.aux.len(), proven.proof.circuit.ipa_l.len()));
    // The output blindings may be given (a region's), and are then the ones used.
    let given = [r_abc, r_z, Scalar::from(11u64), Scalar::from(12u64)];
    let chosen = prove(&p, &inputs, &given, &mut r).unwrap();
    assert_eq!(chosen.blindings, given[2..]);
    assert_eq!(
        chosen.public[4..8],
        [decimals(commit_values(&[285, 1], &given[2])), decimals(commit_values(&[7, 9], &given[3]))].concat()
    );
    let chosen_bytes = chosen.proof.encode();
    verify(&p, &chosen.public, &chosen_bytes).unwrap();
    verify_batch(&p, &[(&proven.public, &bytes), (&chosen.public, &chosen_bytes)], &mut r).unwrap();

    // Replacing a commitment at `at` with `c` is rejected.
    let rejects = |at: usize, c: Point, what: &str| {
        let mut public = proven.public.clone();
        public[at..at + 2].clone_from_slice(&decimals(c));
        assert_eq!(verify(&p, &public, &bytes), Err(Error::InvalidProof), "{what}");
    };
    let g = Point::generator();
    let h = zeenot_crypto::pedersen::blinding_generator();
    let leaves = [5i128, 300, -20];
    for i in 0..3 {
        let mut other = leaves;
        other[i] += 1;
        rejects(0, commit_values(&other, &r_abc), &format!("input leaf {i} changed"));
        other = leaves;
        other.swap(i, (i + 1) % 3);
        rejects(0, commit_values(&other, &r_abc), &format!("input leaves {i}, {} swapped", (i + 1) % 3));
        rejects(0, c_in + commitment_bases(3)[i], &format!("input plus G_{i}"));
    }
    rejects(0, commit_values(&[-20, 5, 300], &r_abc), "input leaves rotated");
    rejects(0, commit_values(&leaves, &(r_abc + Scalar::from(1u64))), "another input blinding");
    rejects(0, c_in + g, "input plus G");
    rejects(0, c_in + h, "input plus H");
    // per leaf, `Σ v_i·G + r·H`, or only the first leaf's
    rejects(0, commit_value(5 + 300 - 20, &r_abc), "input committed per leaf, summed");
    rejects(0, commit_value(5, &r_abc), "the first input leaf's own commitment");
    rejects(0, commit_values(&[5, 300], &r_abc), "two of three input leaves");
    rejects(0, commit_values(&[5, 300, -20, 1], &r_abc), "a fourth input leaf");
    for (at, c, vals, blinding) in
        [(4, c_out, [285i128, 1], proven.blindings[0]), (6, c_seven, [7, 9], proven.blindings[1])]
    {
        for i in 0..2 {
            let mut other = vals;
            other[i] += 1;
            rejects(at, commit_values(&other, &blinding), &format!("output {at} leaf {i} changed"));
        }
        rejects(at, commit_values(&[vals[1], vals[0]], &blinding), &format!("output {at} leaves swapped"));
        rejects(at, commit_values(&vals, &(blinding + Scalar::from(1u64))), &format!("output {at} blinding"));
        rejects(at, c + g, &format!("output {at} plus G"));
        rejects(at, commit_value(vals[0] + vals[1], &blinding), &format!("output {at} per leaf, summed"));
        rejects(at, commit_value(vals[0], &blinding), &format!("output {at} first leaf alone"));
    }
    // The fresh commitments to the leaves moved: rejected.
    for k in 0..proven.proof.aux.len() {
        let mut bad = proven.proof.clone();
        bad.aux[k] += g;
        assert!(verify(&p, &proven.public, &bad.encode()).is_err(), "aux {k} moved");
    }
    // One blinding per commitment (2, or 4 with the outputs'): any other count is an error.
    for n in [0, 1, 3, 5, 6] {
        let blindings = vec![r_abc; n];
        assert!(matches!(prove(&p, &inputs, &blindings, &mut r), Err(Error::Input(_))), "{n} blindings");
    }
}
