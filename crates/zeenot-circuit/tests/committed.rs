//! Committed inputs and outputs in the groth16 back end (`docs/ir.md`, "Committed values"):
//! the instance holds Pedersen commitments `C = v·G + r·H`, computed natively with
//! `ir::commit_value`; the circuit opens them, and rejects every other opening.

use ark_bn254::Fr;
use ark_relations::r1cs::{ConstraintSystem, ConstraintSystemRef};
use ark_std::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::groth16::{self, ProvingKey, VerifyingKey};
use zeenot_circuit::{ir, soundness, synth, Error, Program, Value};
use zeenot_crypto::{Point, Scalar};

fn program(doc: serde_json::Value) -> Program {
    Program::from_json(&doc.to_string()).unwrap()
}

/// `f(x: Committed[u32], y: Public[u32]) -> (Committed[u32], u32)`: `(3*x + 1, x + y)`.
fn affine() -> Program {
    program(json!({
        "version": 1, "name": "f", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "x", "ty": "u32", "vis": "committed", "tier": null},
                   {"id": 1, "name": "y", "ty": "u32", "vis": "public", "tier": null}],
        "body": [
            {"id": 2, "op": "const", "ty": "u32", "value": "3"},
            {"id": 3, "op": "mul", "ty": "u32", "args": [2, 0], "loc": [2, 4]},
            {"id": 4, "op": "const", "ty": "u32", "value": "1"},
            {"id": 5, "op": "add", "ty": "u32", "args": [3, 4], "loc": [2, 4]},
            {"id": 6, "op": "add", "ty": "u32", "args": [0, 1], "loc": [3, 4]},
        ],
        "outputs": [{"name": "c", "value": 5, "vis": "committed"}, {"name": "s", "value": 6}],
    }))
}

/// `g(z: Committed[i32], b: Committed[bool]) -> Committed[i32]`: `z * 2 if b else z`.
fn signed() -> Program {
    program(json!({
        "version": 1, "name": "g", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "z", "ty": "i32", "vis": "committed", "tier": null},
                   {"id": 1, "name": "b", "ty": "bool", "vis": "committed", "tier": null}],
        "body": [
            {"id": 2, "op": "const", "ty": "i32", "value": "2"},
            {"id": 3, "op": "mul", "ty": "i32", "args": [0, 2], "loc": [2, 4], "guard": 1},
            {"id": 4, "op": "select", "ty": "i32", "args": [1, 3, 0]},
        ],
        "outputs": [{"name": "return", "value": 4, "vis": "committed"}],
    }))
}

/// Committed outputs of every shape: a constant, zero, a bool, a value whose interval was
/// narrowed by a `check` (fewer bits), a negative `i64`, and a public one between them.
fn outputs() -> Program {
    program(json!({
        "version": 1, "name": "h", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "i64", "vis": "private", "tier": null}],
        "body": [
            {"id": 1, "op": "const", "ty": "u8", "value": "7"},
            {"id": 2, "op": "const", "ty": "u8", "value": "0"},
            {"id": 3, "op": "const", "ty": "i64", "value": "10"},
            {"id": 4, "op": "lt", "ty": "bool", "args": [0, 3]},
            {"op": "check", "args": [4], "loc": [2, 4], "msg": "check(a < 10)"},
            {"id": 5, "op": "const", "ty": "i64", "value": "-1000"},
            {"id": 6, "op": "gt", "ty": "bool", "args": [0, 5]},
            {"op": "check", "args": [6], "loc": [3, 4], "msg": "check(a > -1000)"},
            {"id": 7, "op": "neg", "ty": "i64", "args": [0], "loc": [4, 4]},
        ],
        "outputs": [{"name": "k", "value": 1, "vis": "committed"},
                    {"name": "zero", "value": 2, "vis": "committed"},
                    {"name": "p", "value": 4, "vis": "committed"},
                    {"name": "a", "value": 0},
                    {"name": "n", "value": 7, "vis": "committed"},
                    {"name": "m", "value": 0, "vis": "committed"}],
    }))
}

fn keys(p: &Program) -> (ProvingKey, VerifyingKey) {
    groth16::setup(p, &mut ChaCha20Rng::seed_from_u64(1)).unwrap()
}

fn values(p: &Program, v: &[&str]) -> Vec<Value> {
    p.parse_inputs(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

fn decimals(c: &Point) -> [String; 2] {
    [ir::fr_to_decimal(&c.x()), ir::fr_to_decimal(&c.y())]
}

/// The constraint system for these inputs and blindings (committed inputs', then outputs').
fn lowered(p: &Program, inputs: &[Value], blindings: &[Scalar]) -> ConstraintSystemRef<Fr> {
    let cs = ConstraintSystem::<Fr>::new_ref();
    synth::lower_blinded(p, Some(inputs), Some(blindings), cs.clone()).unwrap();
    cs
}

/// Whether the circuit accepts the instance after `patch` (instance variable `k`, 0-based in
/// the public values, set to `v`).
fn accepts_with(cs: &ConstraintSystemRef<Fr>, patch: &[(usize, Fr)]) -> bool {
    let saved = cs.borrow().unwrap().instance_assignment.clone();
    for &(k, v) in patch {
        cs.borrow_mut().unwrap().instance_assignment[k + 1] = v;
    }
    let ok = cs.is_satisfied().unwrap();
    cs.borrow_mut().unwrap().instance_assignment = saved;
    ok
}

#[test]
fn committed_input_and_output_prove_and_verify() {
    let p = affine();
    assert_eq!(p.instance_types().len(), 6);
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let r = Scalar::rand(&mut rng);
    let proven = groth16::prove(&p, &pk, &values(&p, &["41", "9"]), &[r], &mut rng).unwrap();
    assert_eq!(proven.blindings.len(), 1);
    let mut want = vec!["9".to_owned()];
    want.extend(decimals(&ir::commit_value(41, &r)));
    want.extend(decimals(&ir::commit_value(124, &proven.blindings[0])));
    want.push("50".into());
    assert_eq!(proven.public, want);
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    // the commitment is `v·G + r·H` with zeenot-crypto's Pedersen generators
    let h = zeenot_crypto::pedersen::blinding_generator();
    assert_eq!(
        ir::commit_value(41, &r),
        Point::generator().mul_vartime(&Scalar::from(41u64)) + h.mul_vartime(&r)
    );
    // a blinding per committed input (then, optionally, one per committed output), no other
    // count
    for bad in [&[][..], &[r, r, r][..]] {
        let e = groth16::prove(&p, &pk, &values(&p, &["41", "9"]), bad, &mut rng);
        assert!(matches!(e, Err(Error::Input(_))), "{e:?}");
    }
    // the output's blinding chosen by the prover (a program in regions): that commitment
    let s = Scalar::from(7u64);
    let chosen = groth16::prove(&p, &pk, &values(&p, &["41", "9"]), &[r, s], &mut rng).unwrap();
    assert_eq!(chosen.blindings, vec![s]);
    assert_eq!(chosen.public[3..5], decimals(&ir::commit_value(124, &s))[..]);
    assert!(groth16::verify(&p, &vk, &chosen.public, &chosen.proof).unwrap());
    // output blindings are fresh per proof
    let again = groth16::prove(&p, &pk, &values(&p, &["41", "9"]), &[r], &mut rng).unwrap();
    assert_ne!(again.blindings, proven.blindings);
    assert_eq!(again.public[1..3], proven.public[1..3]);
    assert_ne!(again.public[3..5], proven.public[3..5]);
}

#[test]
fn tampered_commitments_do_not_verify() {
    let p = affine();
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let r = Scalar::rand(&mut rng);
    let proven = groth16::prove(&p, &pk, &values(&p, &["41", "9"]), &[r], &mut rng).unwrap();
    let with = |at: usize, c: [String; 2]| {
        let mut public = proven.public.clone();
        public[at] = c[0].clone();
        public[at + 1] = c[1].clone();
        public
    };
    let other_r = Scalar::rand(&mut rng);
    let r_out = proven.blindings[0];
    let valid_but_wrong = [
        // the input: another blinding, another value, a shifted point
        with(1, decimals(&ir::commit_value(41, &other_r))),
        with(1, decimals(&ir::commit_value(42, &r))),
        with(1, decimals(&(ir::commit_value(41, &r) + Point::generator()))),
        // the output: another blinding, another value
        with(3, decimals(&ir::commit_value(124, &other_r))),
        with(3, decimals(&ir::commit_value(125, &r_out))),
        // the two commitments swapped
        with(3, decimals(&ir::commit_value(41, &r))),
    ];
    for public in valid_but_wrong {
        assert!(!groth16::verify(&p, &vk, &public, &proven.proof).unwrap());
    }
    // malformed commitments are input errors, before the pairing
    let c = ir::commit_value(41, &r);
    let (x, y) = (c.x(), c.y());
    let off_curve = [ir::fr_to_decimal(&x), ir::fr_to_decimal(&(y + Fr::from(1u64)))];
    // `(−x, −y) = C + (0, −1)`: on the curve, outside the prime-order subgroup
    let torsion = [ir::fr_to_decimal(&-x), ir::fr_to_decimal(&-y)];
    for at in [1, 3] {
        for bad in [off_curve.clone(), torsion.clone(), ["0".into(), "0".into()]] {
            let e = groth16::verify(&p, &vk, &with(at, bad), &proven.proof);
            assert!(matches!(e, Err(Error::Input(_))), "{e:?}");
        }
    }
    // a commitment coordinate must be a field element
    let mut public = proven.public.clone();
    public[2] = "-1".into();
    assert!(matches!(groth16::verify(&p, &vk, &public, &proven.proof), Err(Error::Input(_))));
}

/// The circuit itself (not just the proof system) rejects every wrong opening: the satisfying
/// assignment stops satisfying it when a commitment in the instance changes.
#[test]
fn circuit_rejects_wrong_openings() {
    let p = affine();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let (r, r_out) = (Scalar::rand(&mut rng), Scalar::rand(&mut rng));
    let cs = lowered(&p, &values(&p, &["41", "9"]), &[r, r_out]);
    assert!(accepts_with(&cs, &[]));
    let pt = |c: Point| [c.x(), c.y()];
    let other = Scalar::rand(&mut rng);
    for (at, c) in [
        (1, pt(ir::commit_value(41, &other))),
        (1, pt(ir::commit_value(40, &r))),
        (1, pt(ir::commit_value(41, &(r + Scalar::from(1u64))))),
        (1, pt(-ir::commit_value(41, &r))),
        (3, pt(ir::commit_value(124, &other))),
        (3, pt(ir::commit_value(123, &r_out))),
    ] {
        assert!(!accepts_with(&cs, &[(at, c[0]), (at + 1, c[1])]), "{at}");
    }
    // one coordinate alone, and a point off the curve
    let c = pt(ir::commit_value(41, &r));
    assert!(!accepts_with(&cs, &[(2, c[1] + Fr::from(1u64))]));
    assert!(!accepts_with(&cs, &[(1, -c[0])]));
    // the public output is still pinned
    assert!(!accepts_with(&cs, &[(5, Fr::from(51u64))]));
    // the committed leaf and its blinding are the first witness variables (the mutation
    // checker exempts the leaf only)
    let inner = cs.borrow().unwrap();
    assert_eq!(inner.instance_assignment.len(), 7);
    assert_eq!(inner.witness_assignment[0], Fr::from(41u64));
    assert_eq!(inner.witness_assignment[1], Fr::from(ark_ff::PrimeField::into_bigint(r)));
}

#[test]
fn negative_and_bool_committed_inputs() {
    let p = signed();
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let (rz, rb) = (Scalar::rand(&mut rng), Scalar::rand(&mut rng));
    for (z, b, out) in
        [("-5", "1", -10i128), ("-5", "0", -5), ("-2147483648", "0", i32::MIN as i128), ("7", "1", 14)]
    {
        let v = values(&p, &[z, b]);
        let proven = groth16::prove(&p, &pk, &v, &[rz, rb], &mut rng).unwrap();
        let z: i128 = z.parse().unwrap();
        let mut want = Vec::new();
        want.extend(decimals(&ir::commit_value(z, &rz)));
        want.extend(decimals(&ir::commit_value(b.parse::<i128>().unwrap(), &rb)));
        want.extend(decimals(&ir::commit_value(out, &proven.blindings[0])));
        assert_eq!(proven.public, want, "{z} {b}");
        assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
        soundness::check_mutations_blinded(&p, &v, &[rz, rb, proven.blindings[0]]).unwrap();
    }
    // −5 is committed as l − 5: `−(5·G) + r·H`, not `(p − 5)·G + r·H`
    let h = zeenot_crypto::pedersen::blinding_generator();
    let minus5 = -Point::generator().mul_vartime(&Scalar::from(5u64)) + h.mul_vartime(&rz);
    assert_eq!(ir::commit_value(-5, &rz), minus5);
    // a commitment to +5 (or to −5 read as p − 5) does not open as −5
    let cs = lowered(&p, &values(&p, &["-5", "1"]), &[rz, rb, rb]);
    assert!(accepts_with(&cs, &[]));
    let plus5 = ir::commit_value(5, &rz);
    assert!(!accepts_with(&cs, &[(0, plus5.x()), (1, plus5.y())]));
    let p_minus_5 = {
        use ark_ff::{BigInteger, PrimeField};
        let s = Scalar::from_le_bytes_mod_order(&(-Fr::from(5u64)).into_bigint().to_bytes_le());
        Point::generator().mul_vartime(&s) + h.mul_vartime(&rz)
    };
    assert_ne!(p_minus_5, minus5);
    assert!(!accepts_with(&cs, &[(0, p_minus_5.x()), (1, p_minus_5.y())]));
}

#[test]
fn committed_outputs_of_every_shape() {
    let p = outputs();
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    for a in ["-999", "-1", "0", "9"] {
        let v = values(&p, &[a]);
        let rs: Vec<Scalar> = (0..5).map(|_| Scalar::rand(&mut rng)).collect();
        let cs = lowered(&p, &v, &rs);
        assert!(cs.is_satisfied().unwrap(), "{a}: {:?}", cs.which_is_unsatisfied());
        let a: i128 = a.parse().unwrap();
        let xy = |v: i128, r: &Scalar| {
            let c = ir::commit_value(v, r);
            [c.x(), c.y()]
        };
        let mut want = Vec::new();
        want.extend(xy(7, &rs[0]));
        want.extend(xy(0, &rs[1]));
        want.extend(xy(1, &rs[2]));
        want.push(ir::int_to_fr(a));
        want.extend(xy(-a, &rs[3]));
        want.extend(xy(a, &rs[4]));
        assert_eq!(cs.borrow().unwrap().instance_assignment[1..], want[..], "{a}");
        soundness::check_mutations_blinded(&p, &v, &rs).unwrap();
        soundness::check_mutations(&p, &v).unwrap();
    }
}

#[test]
fn committed_programs_are_pinned() {
    let p = affine();
    for (x, y) in [("0", "0"), ("41", "9"), ("1431655764", "1")] {
        soundness::check_mutations(&p, &values(&p, &[x, y])).unwrap();
    }
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for r in [Scalar::from(0u64), -Scalar::from(1u64), Scalar::rand(&mut rng)] {
        soundness::check_mutations_blinded(&p, &values(&p, &["41", "9"]), &[r, r]).unwrap();
    }
}

/// What a commitment costs (u32): a committed input over a private one, a committed output over
/// a public one.
#[test]
fn constraint_costs() {
    let one = |vis: &str, out_vis: &str| {
        program(json!({
            "version": 1, "name": "c", "source": {"file": "app.py"},
            "inputs": [{"id": 0, "name": "x", "ty": "u32", "vis": vis, "tier": null}],
            "body": [],
            "outputs": [{"name": "return", "value": 0, "vis": out_vis}],
        }))
    };
    let stats = |p: &Program| groth16::stats(p).unwrap();
    let private = stats(&one("private", "public"));
    let input = stats(&one("committed", "public"));
    let output = stats(&one("private", "committed"));
    assert_eq!(private.constraints, 33 + 1);
    // r's bits 252, r·H 379, x·G 49 (x's bits are its range check's), the sum 6, C = D 2
    assert_eq!(input.constraints - private.constraints, 252 + 379 + 49 + 6 + 2);
    assert_eq!(input.public_inputs, 3);
    // the output's bits 33 on top of that, and no public output equality
    assert_eq!(output.constraints - private.constraints, 33 + 252 + 379 + 49 + 6 + 2 - 1);
    assert_eq!(output.public_inputs, 2);
}

/// `v(x: Committed[tuple[u32, i8, bool]], y: Public[u32]) -> Committed[tuple[u32, u32]]` with
/// both tuples committed whole (`joint` leaves): `(x0 + y, x0 if b else 7)`, and `x1` checked
/// negative.
fn vectors() -> Program {
    program(json!({
        "version": 1, "name": "v", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "x[0]", "ty": "u32", "vis": "committed", "tier": null},
                   {"id": 1, "name": "x[1]", "ty": "i8", "vis": "committed", "joint": true, "tier": null},
                   {"id": 2, "name": "x[2]", "ty": "bool", "vis": "committed", "joint": true, "tier": null},
                   {"id": 3, "name": "y", "ty": "u32", "vis": "public", "tier": null}],
        "body": [
            {"id": 4, "op": "add", "ty": "u32", "args": [0, 3], "loc": [2, 4]},
            {"id": 5, "op": "const", "ty": "u32", "value": "7"},
            {"id": 6, "op": "select", "ty": "u32", "args": [2, 0, 5]},
            {"id": 7, "op": "const", "ty": "i8", "value": "0"},
            {"id": 8, "op": "lt", "ty": "bool", "args": [1, 7]},
            {"op": "check", "args": [8], "loc": [3, 4], "msg": "check(x[1] < 0)"},
        ],
        "outputs": [{"name": "return[0]", "value": 4, "vis": "committed"},
                    {"name": "return[1]", "value": 6, "vis": "committed", "joint": true}],
    }))
}

/// A tuple committed whole is one point in the instance, opened leaf by leaf in place: any
/// other values, order, blinding or a commitment per leaf is rejected.
#[test]
fn vector_commitments_prove_and_bind_every_leaf() {
    let p = vectors();
    assert_eq!(p.input_commitments(), vec![vec![0, 1, 2]]);
    assert_eq!(p.instance_types().len(), 1 + 2 + 2);
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let (r, s) = (Scalar::rand(&mut rng), Scalar::rand(&mut rng));
    let inputs = values(&p, &["41", "-3", "1", "9"]);
    let proven = groth16::prove(&p, &pk, &inputs, &[r, s], &mut rng).unwrap();
    assert_eq!(proven.blindings, vec![s]);
    let mut want = vec!["9".to_owned()];
    want.extend(decimals(&ir::commit_values(&[41, -3, 1], &r)));
    want.extend(decimals(&ir::commit_values(&[50, 41], &s)));
    assert_eq!(proven.public, want);
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    // one blinding per commitment: per leaf is refused, not a panic
    let e = groth16::prove(&p, &pk, &inputs, &[r, r, r], &mut rng).unwrap_err();
    assert!(matches!(e, Error::Input(_)), "{e:?}");

    let with = |at: usize, c: Point| {
        let mut public = proven.public.clone();
        let [x, y] = decimals(&c);
        public[at] = x;
        public[at + 1] = y;
        public
    };
    let h = zeenot_crypto::pedersen::blinding_generator();
    let wrong_inputs = [
        ir::commit_values(&[42, -3, 1], &r),
        ir::commit_values(&[41, -4, 1], &r),
        ir::commit_values(&[41, -3, 0], &r),
        ir::commit_values(&[-3, 41, 1], &r),
        ir::commit_values(&[41, -3], &r),
        ir::commit_values(&[41, -3, 1, 0], &r) + Point::generator(),
        ir::commit_values(&[41, -3, 1], &(r + Scalar::from(1u64))),
        // the leaves committed one by one and summed: the wrong bases
        ir::commit_value(41, &r)
            + ir::commit_value(-3, &Scalar::from(0u64))
            + ir::commit_value(1, &Scalar::from(0u64)),
        ir::commit_values(&[41, -3, 1], &r) + h,
    ];
    for c in wrong_inputs {
        assert!(!groth16::verify(&p, &vk, &with(1, c), &proven.proof).unwrap());
    }
    for c in [
        ir::commit_values(&[51, 41], &s),
        ir::commit_values(&[50, 7], &s),
        ir::commit_values(&[41, 50], &s),
        ir::commit_value(50, &s),
    ] {
        assert!(!groth16::verify(&p, &vk, &with(3, c), &proven.proof).unwrap());
    }
    // the circuit itself rejects them too, and pins every witness
    let cs = lowered(&p, &inputs, &[r, s]);
    assert!(accepts_with(&cs, &[]));
    let c = ir::commit_values(&[41, -3, 0], &r);
    assert!(!accepts_with(&cs, &[(1, c.x()), (2, c.y())]));
    soundness::check_mutations_blinded(&p, &inputs, &[r, s]).unwrap();
    // the i8 leaf is still range-checked: 200 is no i8, whatever its commitment
    assert!(p.parse_inputs(&["41".into(), "200".into(), "1".into(), "9".into()]).is_err());
}

/// Committing `k` leaves together pays for the blinding once: `(k − 1)·(252 + 379)` fewer
/// constraints than `k` commitments.
#[test]
fn vector_commitments_cost_less() {
    let tuple = |joint: bool| {
        let leaf = |i: u64| json!({"id": i, "name": format!("x[{i}]"), "ty": "u32", "vis": "committed", "joint": joint && i > 0, "tier": null});
        program(json!({
            "version": 1, "name": "t", "source": {"file": "app.py"},
            "inputs": (0..8).map(leaf).collect::<Vec<_>>(),
            "body": [],
            "outputs": [{"name": "return", "value": 0}],
        }))
    };
    let apart = groth16::stats(&tuple(false)).unwrap();
    let together = groth16::stats(&tuple(true)).unwrap();
    assert_eq!(apart.constraints - together.constraints, 7 * (252 + 379 + 2));
    assert_eq!(apart.public_inputs - together.public_inputs, 7 * 2);
}

/// The planner's setup feature: every non-zero of A, B and C, and the variables B touches.
#[test]
fn density_counts_the_matrices() {
    let p = affine();
    let cs = ConstraintSystem::<Fr>::new_ref();
    cs.set_optimization_goal(ark_relations::r1cs::OptimizationGoal::Constraints);
    cs.set_mode(ark_relations::r1cs::SynthesisMode::Setup);
    synth::lower_blinded(&p, None, None, cs.clone()).unwrap();
    cs.finalize();
    let m = cs.to_matrices().unwrap();
    let (nonzeros, b_columns) = groth16::density(&p).unwrap();
    assert_eq!(nonzeros, m.a_num_non_zero + m.b_num_non_zero + m.c_num_non_zero);
    let mut cols: Vec<usize> = m.b.iter().flatten().map(|&(_, v)| v).collect();
    cols.sort_unstable();
    cols.dedup();
    assert_eq!(b_columns, cols.len());
    assert!(b_columns > 0 && b_columns <= p.instance_types().len() + 1 + m.num_witness_variables);
}

/// A constant leaf of a vector commitment is a constant multiple of its own generator `G_i`
/// (not of `G`): the instance is still `commit_values` of the leaves.
#[test]
fn vector_commitments_with_constant_leaves() {
    let p = program(json!({
        "version": 1, "name": "k", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "x", "ty": "u32", "vis": "private", "tier": null}],
        "body": [{"id": 1, "op": "const", "ty": "u32", "value": "7"},
                 {"id": 2, "op": "const", "ty": "i8", "value": "-2"}],
        "outputs": [{"name": "return[0]", "value": 1, "vis": "committed"},
                    {"name": "return[1]", "value": 0, "vis": "committed", "joint": true},
                    {"name": "return[2]", "value": 2, "vis": "committed", "joint": true}],
    }));
    let (pk, vk) = keys(&p);
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let proven = groth16::prove(&p, &pk, &values(&p, &["5"]), &[], &mut rng).unwrap();
    assert_eq!(proven.public, decimals(&ir::commit_values(&[7, 5, -2], &proven.blindings[0])).to_vec());
    assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
    let wrong = decimals(&ir::commit_values(&[7, 5, 2], &proven.blindings[0])).to_vec();
    assert!(!groth16::verify(&p, &vk, &wrong, &proven.proof).unwrap());
}
