//! Setup, prove and verify end to end; tampering is rejected; bad bytes are decode errors.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::groth16::{self, Proof, ProvingKey, VerifyingKey};
use zeenot_circuit::{snarkjs, Error, FailureKind, Program};

/// `f(a: Private[u32], b: Public[u32]) -> u32`: `check(a < 1000); return a * b + 7`.
fn program() -> Program {
    let doc = json!({
        "version": 1, "name": "f", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "u32", "vis": "private", "tier": null},
                   {"id": 1, "name": "b", "ty": "u32", "vis": "public", "tier": null}],
        "body": [
            {"id": 2, "op": "const", "ty": "u32", "value": "1000"},
            {"id": 3, "op": "lt", "ty": "bool", "args": [0, 2]},
            {"op": "check", "args": [3], "loc": [3, 4], "msg": "check(a < 1000)"},
            {"id": 4, "op": "mul", "ty": "u32", "args": [0, 1], "loc": [4, 11]},
            {"id": 5, "op": "const", "ty": "u32", "value": "7"},
            {"id": 6, "op": "add", "ty": "u32", "args": [4, 5], "loc": [4, 11]},
        ],
        "outputs": [{"name": "return", "value": 6}],
    });
    Program::from_json(&doc.to_string()).unwrap()
}

fn keys(p: &Program) -> (ProvingKey, VerifyingKey) {
    groth16::setup(p, &mut ChaCha20Rng::seed_from_u64(1)).unwrap()
}

fn inputs(p: &Program, a: &str, b: &str) -> Vec<zeenot_circuit::Value> {
    p.parse_inputs(&[a.to_owned(), b.to_owned()]).unwrap()
}

#[test]
fn prove_and_verify() {
    let p = program();
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let proven = groth16::prove(&p, &pk, &inputs(&p, "999", "3"), &[], &mut rng).unwrap();
    assert_eq!(proven.public, vec!["3", "3004"]);
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    // wrong output, wrong public input
    for public in [["3", "3005"], ["4", "3004"]] {
        let public: Vec<String> = public.iter().map(|s| s.to_string()).collect();
        assert!(!groth16::verify(&p, &vk, &public, &proven.proof).unwrap());
    }
    // out-of-range or malformed public values are errors, not `false`
    for public in [vec!["3", "4294967296"], vec!["-1", "3004"], vec!["3"], vec!["x", "1"]] {
        let public: Vec<String> = public.iter().map(|s| s.to_string()).collect();
        assert!(matches!(groth16::verify(&p, &vk, &public, &proven.proof), Err(Error::Input(_))));
    }
}

#[test]
fn timed_proof_records_every_stage_and_verifies() {
    let p = program();
    let (pk, vk) = keys(&p);
    let mut stages = groth16::Stages::default();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let proven = groth16::prove_timed(&p, &pk, &inputs(&p, "999", "3"), &[], &mut rng, &mut stages).unwrap();
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    let names: Vec<&str> = stages.0.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["witness", "synthesis", "check", "fft", "msm"]);
    let fft = stages.0[3].1;
    assert!(fft > std::time::Duration::ZERO);
}

#[test]
fn failing_inputs_have_no_proof() {
    let p = program();
    let (pk, _) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    match groth16::prove(&p, &pk, &inputs(&p, "1000", "3"), &[], &mut rng) {
        Err(Error::Unsatisfied(u)) => {
            assert_eq!(u.kind, FailureKind::Check);
            assert_eq!(u.to_string(), "check failed at app.py:3:4: check(a < 1000)");
        }
        other => panic!("{other:?}"),
    }
    match groth16::prove(&p, &pk, &inputs(&p, "999", "4299300"), &[], &mut rng) {
        Err(Error::Unsatisfied(u)) => assert_eq!(u.kind, FailureKind::Overflow),
        other => panic!("{other:?}"),
    }
}

#[test]
fn serialisation_round_trips_and_rejects_garbage() {
    let p = program();
    let (pk, vk) = keys(&p);
    let proven =
        groth16::prove(&p, &pk, &inputs(&p, "5", "6"), &[], &mut ChaCha20Rng::seed_from_u64(4)).unwrap();
    let bytes = groth16::encode(&proven.proof);
    assert_eq!(bytes.len(), 128);
    let back: Proof = groth16::decode("proof", &bytes).unwrap();
    assert!(groth16::verify(&p, &vk, &proven.public, &back).unwrap());
    let vk2: VerifyingKey = groth16::decode("key", &groth16::encode(&vk)).unwrap();
    assert_eq!(vk2, vk);
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(groth16::decode::<Proof>("proof", &long), Err(Error::Decode(_))));
    assert!(matches!(groth16::decode::<Proof>("proof", &bytes[..100]), Err(Error::Decode(_))));
    assert!(matches!(groth16::decode::<Proof>("proof", &[0xff; 128]), Err(Error::Decode(_))));
    // every single-bit flip is rejected: a decode error or a failed verification
    for i in (0..bytes.len()).step_by(7) {
        let mut t = bytes.clone();
        t[i] ^= 1;
        if let Ok(proof) = groth16::decode::<Proof>("proof", &t) {
            assert!(!groth16::verify(&p, &vk, &proven.public, &proof).unwrap(), "bit {i}");
        }
    }
}

#[test]
fn keys_of_another_shape_are_refused() {
    let p = program();
    let (_, vk) = keys(&p);
    let other = Program::from_json(
        &json!({"version": 1, "name": "g", "inputs": [{"id": 0, "name": "a", "ty": "u8", "vis": "private"}],
                "body": [], "outputs": []})
        .to_string(),
    )
    .unwrap();
    let (pk_other, _) = keys(&other);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    assert!(matches!(
        groth16::prove(&p, &pk_other, &inputs(&p, "1", "2"), &[], &mut rng),
        Err(Error::Key(_))
    ));
    let proven =
        groth16::prove(&other, &pk_other, &other.parse_inputs(&["1".into()]).unwrap(), &[], &mut rng)
            .unwrap();
    assert!(matches!(groth16::verify(&p, &vk, &["1".into(), "2".into()], &proven.proof), Ok(false)));
}

#[test]
fn snarkjs_shapes() {
    let p = program();
    let (pk, vk) = keys(&p);
    let proven =
        groth16::prove(&p, &pk, &inputs(&p, "5", "6"), &[], &mut ChaCha20Rng::seed_from_u64(6)).unwrap();
    let v = snarkjs::verification_key(&vk);
    assert_eq!(v["nPublic"], 2);
    assert_eq!(v["IC"].as_array().unwrap().len(), 3);
    assert_eq!(v["vk_beta_2"][2], json!(["1", "0"]));
    let pr = snarkjs::proof(&proven.proof);
    assert_eq!(pr["pi_a"][2], "1");
    let x = groth16::instance(&p, &proven.public).unwrap();
    assert_eq!(snarkjs::public(&x), json!(["6", "37"]));
}

#[test]
fn stats_count() {
    let s = groth16::stats(&program()).unwrap();
    assert_eq!((s.public_inputs, s.private_inputs), (2, 1));
    assert!(s.constraints > 60 && s.constraints < 200, "{s:?}");
}

#[test]
fn proving_key_round_trip_is_checked() {
    let p = program();
    let (pk, _) = keys(&p);
    let bytes = groth16::encode_proving_key(&pk);
    assert_eq!(groth16::decode_proving_key(&bytes).unwrap(), pk);
    let mut long = bytes.clone();
    long.push(1);
    assert!(matches!(groth16::decode_proving_key(&long), Err(Error::Decode(_))));
    // an off-curve point: perturb a coordinate byte of alpha (the first G1 point)
    let mut bad = bytes.clone();
    bad[0] ^= 1;
    assert!(matches!(groth16::decode_proving_key(&bad), Err(Error::Decode(_))));
}

/// `check(a <= 1000)` narrows `a` to [0, 1000]: the later `a < 30` needs 12 bits, not 33, and
/// the circuit stays sound (mutation check) and complete.
#[test]
fn checks_narrow_later_comparisons() {
    let doc = json!({
        "version": 1, "name": "n", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "u32", "vis": "private"}],
        "body": [
            {"id": 1, "op": "const", "ty": "u32", "value": "1000"},
            {"id": 2, "op": "le", "ty": "bool", "args": [0, 1]},
            {"op": "check", "args": [2]},
            {"id": 3, "op": "const", "ty": "u32", "value": "30"},
            {"id": 4, "op": "lt", "ty": "bool", "args": [0, 3]},
            {"id": 5, "op": "sub", "ty": "u32", "args": [0, 3]},
        ],
        "outputs": [{"name": "small", "value": 4}, {"name": "rest", "value": 5}],
    });
    let p = Program::from_json(&doc.to_string()).unwrap();
    let s = groth16::stats(&p).unwrap();
    // input 33 + `le` 34 + check 1 + `lt` 12 + sub's lower bound only (10 bits: 11) + 2 outputs
    assert_eq!(s.constraints, 33 + 34 + 1 + 12 + 11 + 2, "{s:?}");
    for (a, ok) in [("0", false), ("29", false), ("30", true), ("1000", true)] {
        let v = p.parse_inputs(&[a.into()]).unwrap();
        assert_eq!(zeenot_circuit::soundness::check_mutations(&p, &v).is_ok(), ok, "a = {a}");
    }
    let (pk, vk) = keys(&p);
    let proven = groth16::prove(
        &p,
        &pk,
        &p.parse_inputs(&["1000".into()]).unwrap(),
        &[],
        &mut ChaCha20Rng::seed_from_u64(9),
    )
    .unwrap();
    assert_eq!(proven.public, vec!["0", "970"]);
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    assert!(groth16::prove(
        &p,
        &pk,
        &p.parse_inputs(&["1001".into()]).unwrap(),
        &[],
        &mut ChaCha20Rng::seed_from_u64(9)
    )
    .is_err());
}

/// A private lookup in a table of records: `row = rows[i]` for a private `i: u8`, returning
/// `(row.price, row.flag)`; both columns share one selector.
#[test]
fn private_lookup_proves_and_fails_out_of_range() {
    let doc = json!({
        "version": 1, "name": "lookup", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "i", "ty": "u8", "vis": "private"},
                   {"id": 1, "name": "price[0]", "ty": "u32", "vis": "private"},
                   {"id": 2, "name": "price[1]", "ty": "u32", "vis": "private"},
                   {"id": 3, "name": "flag[0]", "ty": "bool", "vis": "public"},
                   {"id": 4, "name": "flag[1]", "ty": "bool", "vis": "public"}],
        "body": [
            {"id": 5, "op": "const", "ty": "u32", "value": "700"},
            {"id": 6, "op": "index", "ty": "u32", "args": [0, 1, 2, 5], "loc": [7, 11]},
            {"id": 7, "op": "const", "ty": "bool", "value": "1"},
            {"id": 8, "op": "index", "ty": "bool", "args": [0, 3, 4, 7], "loc": [7, 11]},
        ],
        "outputs": [{"name": "price", "value": 6}, {"name": "flag", "value": 8}],
    });
    let p = Program::from_json(&doc.to_string()).unwrap();
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    let values = |i: &str| p.parse_inputs(&[i, "500", "600", "0", "1"].map(String::from)).unwrap();
    for (i, price, flag) in [("0", "500", "0"), ("1", "600", "1"), ("2", "700", "1")] {
        let proven = groth16::prove(&p, &pk, &values(i), &[], &mut rng).unwrap();
        assert_eq!(proven.public, vec!["0", "1", price, flag]);
        assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
        let lie: Vec<String> =
            ["0", "1", if price == "600" { "500" } else { "600" }, flag].map(String::from).into();
        assert!(!groth16::verify(&p, &vk, &lie, &proven.proof).unwrap());
    }
    match groth16::prove(&p, &pk, &values("3"), &[], &mut rng) {
        Err(Error::Unsatisfied(u)) => {
            assert_eq!((u.kind, u.kind.name()), (FailureKind::Index, "index"));
            assert_eq!(u.to_string(), "index 3 out of range for 3 elements at app.py:7:11");
        }
        other => panic!("{other:?}"),
    }
}

/// The prover keeps no constraint, only each one's sides evaluated as it is enforced
/// (`synth::lower_evaluated`): they are exactly setup's matrices times the assignment, over the
/// same variables, and a wrong evaluation is caught.
#[test]
fn the_prover_evaluates_exactly_setups_constraints() {
    use ark_bn254::Fr;
    use ark_relations::r1cs::{ConstraintSystem, OptimizationGoal, SynthesisMode};
    use zeenot_circuit::synth;
    let p = program();
    let vals = inputs(&p, "999", "3");
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(OptimizationGoal::Constraints);
    synth::lower_blinded(&p, Some(&vals), Some(&[]), cs.clone()).unwrap();
    cs.finalize();
    let m = cs.to_matrices().unwrap();
    let z = {
        let inner = cs.borrow().unwrap();
        [inner.instance_assignment.as_slice(), inner.witness_assignment.as_slice()].concat()
    };
    let lean = ConstraintSystem::<Fr>::new_ref();
    lean.set_mode(SynthesisMode::Prove { construct_matrices: false });
    let mut e = synth::lower_evaluated(&p, &vals, &[], lean.clone()).unwrap();
    let lean_z = {
        let inner = lean.borrow().unwrap();
        [inner.instance_assignment.as_slice(), inner.witness_assignment.as_slice()].concat()
    };
    assert_eq!(lean_z, z);
    assert_eq!(e.a.len(), m.num_constraints);
    // counting (what `stats` does) holds no constraint and gives setup's sizes
    let (constraints, instance, witness) = synth::count(&p).unwrap();
    assert_eq!(
        (constraints, instance, witness),
        (m.num_constraints, cs.num_instance_variables(), cs.num_witness_variables())
    );
    let row = |r: &[(Fr, usize)]| r.iter().map(|&(k, j)| k * z[j]).sum::<Fr>();
    for i in 0..m.num_constraints {
        assert_eq!((e.a[i], e.b[i], e.c[i]), (row(&m.a[i]), row(&m.b[i]), row(&m.c[i])), "constraint {i}");
    }
    assert_eq!(e.first_unsatisfied(), None);
    e.c[1] += Fr::from(1u64);
    assert_eq!(e.first_unsatisfied(), Some(1));
}
