//! The IR's meaning, table by table: Python's integer semantics (exact results, overflow at every
//! width, floor division and remainder signs, division by zero), casts, guards and checks. Every
//! case is run twice: by the interpreter (`eval`) and by the circuit, which must agree: satisfied,
//! same outputs and every witness pinned (mutation check) when the program succeeds; not
//! satisfiable from those inputs when it fails.

use ark_bn254::Fr;
use ark_relations::r1cs::ConstraintSystem;
use serde_json::{json, Value as Json};
use zeenot_circuit::eval::{self, FailureKind};
use zeenot_circuit::{soundness, synth, Program};

/// A program with inputs `x0, x1, …` of the given types (`x0` private, the rest public) and body,
/// returning the value `out`.
fn program(tys: &[&str], body: Json, out: u64) -> Program {
    let inputs: Vec<Json> = tys
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"id": i, "name": format!("x{i}"), "ty": t,
                   "vis": if i == 0 { "private" } else { "public" }, "tier": null})
        })
        .collect();
    let doc = json!({"version": 1, "name": "t", "source": {"file": "t.py"}, "inputs": inputs,
                     "body": body, "outputs": [{"name": "return", "value": out}]});
    Program::from_json(&doc.to_string()).unwrap()
}

/// Evaluate and synthesize; assert they agree. Returns the evaluation result (output text or the
/// failure kind).
fn run(p: &Program, values: &[&str]) -> Result<String, FailureKind> {
    let values: Vec<String> = values.iter().map(|s| s.to_string()).collect();
    let inputs = p.parse_inputs(&values).unwrap();
    let cs = ConstraintSystem::<Fr>::new_ref();
    let lowered = synth::lower(p, Some(&inputs), cs.clone());
    match eval::evaluate(p, &inputs) {
        Ok(vals) => {
            let outs = lowered.expect("synthesis");
            assert!(cs.is_satisfied().unwrap(), "{values:?}: {:?}", cs.which_is_unsatisfied());
            assert_eq!(outs[0].value, Some(vals[p.outputs[0]].to_fr()), "{values:?}");
            soundness::check_mutations(p, &inputs).unwrap();
            Ok(eval::outputs(p, &vals).remove(0))
        }
        Err(u) => {
            if lowered.is_ok() {
                assert!(!cs.is_satisfied().unwrap(), "{values:?}: failing program is satisfied");
            }
            Err(u.kind)
        }
    }
}

fn binary(op: &str, ty: &str) -> Program {
    program(&[ty, ty], json!([{"id": 2, "op": op, "ty": ty, "args": [0, 1], "loc": [1, 0]}]), 2)
}

fn ok(s: &str) -> Result<String, FailureKind> {
    Ok(s.to_owned())
}

const OVERFLOW: Result<String, FailureKind> = Err(FailureKind::Overflow);
const DIV0: Result<String, FailureKind> = Err(FailureKind::DivisionByZero);
const RANGE: Result<String, FailureKind> = Err(FailureKind::Range);

#[test]
fn overflow_edges_at_every_width() {
    for n in [8u32, 16, 32, 64] {
        let (u, i) = (format!("u{n}"), format!("i{n}"));
        let umax = ((1u128 << n) - 1).to_string();
        let (imin, imax) = ((-(1i128 << (n - 1))).to_string(), ((1i128 << (n - 1)) - 1).to_string());
        let (add, sub, mul) = (binary("add", &u), binary("sub", &u), binary("mul", &u));
        assert_eq!(run(&add, &[&umax, "0"]), ok(&umax));
        assert_eq!(run(&add, &[&umax, "1"]), OVERFLOW);
        assert_eq!(run(&sub, &["0", "0"]), ok("0"));
        assert_eq!(run(&sub, &["0", "1"]), OVERFLOW);
        assert_eq!(run(&mul, &[&umax, "1"]), ok(&umax));
        assert_eq!(run(&mul, &[&umax, "2"]), OVERFLOW);
        assert_eq!(run(&mul, &[&umax, &umax]), OVERFLOW);
        let half = (1u128 << (n / 2)).to_string();
        let below = ((1u128 << (n / 2)) - 1).to_string();
        assert_eq!(
            run(&mul, &[&half, &below]),
            ok(&((1u128 << (n / 2)) * ((1u128 << (n / 2)) - 1)).to_string())
        );
        assert_eq!(run(&mul, &[&half, &half]), OVERFLOW);

        let (add, sub, mul) = (binary("add", &i), binary("sub", &i), binary("mul", &i));
        assert_eq!(run(&add, &[&imax, "1"]), OVERFLOW);
        assert_eq!(run(&add, &[&imin, "-1"]), OVERFLOW);
        assert_eq!(run(&add, &[&imin, &imax]), ok("-1"));
        assert_eq!(run(&sub, &[&imin, "1"]), OVERFLOW);
        assert_eq!(run(&sub, &["-1", &imin]), ok(&imax));
        assert_eq!(run(&sub, &["0", &imin]), OVERFLOW);
        assert_eq!(run(&mul, &[&imin, "1"]), ok(&imin));
        assert_eq!(run(&mul, &[&imin, "-1"]), OVERFLOW);
        assert_eq!(run(&mul, &[&imax, "-1"]), ok(&format!("-{imax}")));
        assert_eq!(run(&mul, &[&imin, &imin]), OVERFLOW);
        let neg = program(&[&i], json!([{"id": 1, "op": "neg", "ty": i, "args": [0]}]), 1);
        assert_eq!(run(&neg, &[&imax]), ok(&format!("-{imax}")));
        assert_eq!(run(&neg, &[&imin]), OVERFLOW);
        assert_eq!(run(&neg, &["0"]), ok("0"));
    }
}

#[test]
fn floor_division_and_remainder_follow_python() {
    // (a, b, a // b, a % b) as Python computes them
    let table: &[(i64, i64, i64, i64)] = &[
        (7, 2, 3, 1),
        (-7, 2, -4, 1),
        (7, -2, -4, -1),
        (-7, -2, 3, -1),
        (6, 3, 2, 0),
        (-6, 3, -2, 0),
        (0, -5, 0, 0),
        (-1, 100, -1, 99),
        (1, -100, -1, -99),
        (-128, 127, -2, 126),
        (127, -128, -1, -1),
    ];
    for ty in ["i8", "i16", "i32", "i64"] {
        let (div, rem) = (binary("floordiv", ty), binary("mod", ty));
        for &(a, b, q, r) in table {
            let (a, b) = (a.to_string(), b.to_string());
            assert_eq!(run(&div, &[&a, &b]), ok(&q.to_string()), "{ty}: {a} // {b}");
            assert_eq!(run(&rem, &[&a, &b]), ok(&r.to_string()), "{ty}: {a} % {b}");
        }
        assert_eq!(run(&div, &["5", "0"]), DIV0);
        assert_eq!(run(&rem, &["-5", "0"]), DIV0);
    }
    for (ty, min) in
        [("i8", "-128"), ("i16", "-32768"), ("i32", "-2147483648"), ("i64", "-9223372036854775808")]
    {
        // i_min // -1 overflows, but i_min % -1 == 0 does not
        assert_eq!(run(&binary("floordiv", ty), &[min, "-1"]), OVERFLOW);
        assert_eq!(run(&binary("mod", ty), &[min, "-1"]), ok("0"));
        assert_eq!(run(&binary("floordiv", ty), &[min, "1"]), ok(min));
    }
    for ty in ["u8", "u16", "u32", "u64"] {
        let (div, rem) = (binary("floordiv", ty), binary("mod", ty));
        assert_eq!(run(&div, &["7", "2"]), ok("3"));
        assert_eq!(run(&rem, &["7", "2"]), ok("1"));
        assert_eq!(run(&div, &["0", "9"]), ok("0"));
        assert_eq!(run(&rem, &["200", "201"]), ok("200"));
        assert_eq!(run(&div, &["7", "0"]), DIV0);
        assert_eq!(run(&rem, &["7", "0"]), DIV0);
    }
    let big = "18446744073709551615";
    assert_eq!(run(&binary("floordiv", "u64"), &[big, "1"]), ok(big));
    assert_eq!(run(&binary("mod", "u64"), &[big, "10"]), ok("5"));
    assert_eq!(run(&binary("floordiv", "u64"), &[big, big]), ok("1"));
}

#[test]
fn division_by_constants() {
    // constant divisors take cheaper paths: check them separately, signed and unsigned
    for (ty, k, a, q, r) in [
        ("i16", "-1", "-32768", Err(FailureKind::Overflow), ok("0")),
        ("i16", "-3", "7", ok("-3"), ok("-2")),
        ("u16", "7", "65535", ok("9362"), ok("1")),
        ("u16", "0", "5", DIV0, DIV0),
    ] {
        for (op, want) in [("floordiv", &q), ("mod", &r)] {
            let p = program(
                &[ty],
                json!([{"id": 1, "op": "const", "ty": ty, "value": k},
                       {"id": 2, "op": op, "ty": ty, "args": [0, 1]}]),
                2,
            );
            // an unguarded division by a constant 0 fails on every input: synthesis may refuse
            if k == "0" {
                let inputs = p.parse_inputs(&[a.to_string()]).unwrap();
                assert_eq!(eval::evaluate(&p, &inputs).unwrap_err().kind, FailureKind::DivisionByZero);
                continue;
            }
            assert_eq!(&run(&p, &[a]), want, "{ty}: {a} {op} {k}");
        }
    }
}

#[test]
fn casts() {
    let cast =
        |from: &str, to: &str| program(&[from], json!([{"id": 1, "op": "cast", "ty": to, "args": [0]}]), 1);
    assert_eq!(run(&cast("i8", "u8"), &["-1"]), OVERFLOW);
    assert_eq!(run(&cast("i8", "u8"), &["127"]), ok("127"));
    assert_eq!(run(&cast("u16", "i8"), &["128"]), OVERFLOW);
    assert_eq!(run(&cast("u16", "i8"), &["127"]), ok("127"));
    assert_eq!(run(&cast("i64", "i8"), &["-128"]), ok("-128"));
    assert_eq!(run(&cast("i64", "i8"), &["-129"]), OVERFLOW);
    assert_eq!(run(&cast("u8", "u64"), &["255"]), ok("255"));
    assert_eq!(run(&cast("bool", "i32"), &["1"]), ok("1"));
    assert_eq!(run(&cast("bool", "field"), &["1"]), ok("1"));
    // int → field is v mod p
    let p_minus_1 = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
    assert_eq!(run(&cast("i32", "field"), &["-1"]), ok(p_minus_1));
    // field → int: the canonical representative must be in range (no negative reading)
    assert_eq!(run(&cast("field", "i8"), &[p_minus_1]), RANGE);
    assert_eq!(run(&cast("field", "i8"), &["127"]), ok("127"));
    assert_eq!(run(&cast("field", "i8"), &["128"]), RANGE);
    assert_eq!(run(&cast("field", "u8"), &["255"]), ok("255"));
    assert_eq!(run(&cast("field", "u8"), &["256"]), RANGE);
    assert_eq!(run(&cast("field", "u64"), &["18446744073709551615"]), ok("18446744073709551615"));
    assert_eq!(run(&cast("field", "u64"), &["18446744073709551616"]), RANGE);
    let p = cast("field", "u8");
    let u = eval::evaluate(&p, &p.parse_inputs(&["256".into()]).unwrap()).unwrap_err();
    assert_eq!(
        (u.kind.name(), u.to_string().as_str()),
        ("range", "range error in `cast` (field element outside the type) at t.py")
    );
}

#[test]
fn comparisons_and_equality() {
    for ty in ["u8", "i8", "u32", "i64"] {
        let signed = ty.starts_with('i');
        let vals: &[i64] = if signed { &[-128, -1, 0, 1, 127] } else { &[0, 1, 127, 255] };
        for op in ["lt", "le", "gt", "ge", "eq", "ne"] {
            let p = program(&[ty, ty], json!([{"id": 2, "op": op, "ty": "bool", "args": [0, 1]}]), 2);
            for &a in vals {
                for &b in vals {
                    let want = match op {
                        "lt" => a < b,
                        "le" => a <= b,
                        "gt" => a > b,
                        "ge" => a >= b,
                        "eq" => a == b,
                        _ => a != b,
                    };
                    let got = run(&p, &[&a.to_string(), &b.to_string()]);
                    assert_eq!(got, ok(if want { "1" } else { "0" }), "{ty}: {a} {op} {b}");
                }
            }
        }
    }
    let p = program(&["field", "field"], json!([{"id": 2, "op": "eq", "ty": "bool", "args": [0, 1]}]), 2);
    assert_eq!(run(&p, &["5", "5"]), ok("1"));
    assert_eq!(run(&p, &["5", "6"]), ok("0"));
}

/// `x // y if g else x - y` with the division and the subtraction guarded, as the front end
/// lowers a conditional expression.
fn guarded(ty: &str) -> Program {
    program(
        &[ty, ty, "bool"],
        json!([
            {"id": 3, "op": "floordiv", "ty": ty, "args": [0, 1], "guard": 2, "loc": [1, 4]},
            {"id": 4, "op": "not", "ty": "bool", "args": [2]},
            {"id": 5, "op": "sub", "ty": ty, "args": [0, 1], "guard": 4, "loc": [1, 20]},
            {"op": "check", "args": [4], "guard": 4, "loc": [2, 0]},
            {"id": 6, "op": "select", "ty": ty, "args": [2, 3, 5]},
        ]),
        6,
    )
}

#[test]
fn guards_suppress_failures_only_when_false() {
    for ty in ["u8", "i16"] {
        let p = guarded(ty);
        // g true: the division runs (and may fail), the subtraction's failure is ignored
        assert_eq!(run(&p, &["7", "2", "1"]), ok("3"));
        assert_eq!(run(&p, &["0", "2", "1"]), ok("0")); // 0 - 2 would overflow u8, guarded off
        assert_eq!(run(&p, &["7", "0", "1"]), DIV0);
        // g false: division by zero is ignored, the subtraction runs
        assert_eq!(run(&p, &["7", "0", "0"]), ok("7"));
        assert_eq!(run(&p, &["7", "2", "0"]), ok("5"));
    }
    assert_eq!(run(&guarded("u8"), &["2", "7", "0"]), OVERFLOW);
    assert_eq!(run(&guarded("i16"), &["-32768", "1", "0"]), OVERFLOW);
    assert_eq!(run(&guarded("i16"), &["-32768", "-1", "1"]), OVERFLOW);
    assert_eq!(run(&guarded("i16"), &["-32768", "-1", "0"]), ok("-32767"));
}

#[test]
fn checks_carry_location_and_message() {
    let p = program(
        &["u32", "u32"],
        json!([
            {"id": 2, "op": "lt", "ty": "bool", "args": [0, 1]},
            {"op": "check", "args": [2], "loc": [14, 11], "msg": "check(cost < limit)"},
        ]),
        0,
    );
    assert_eq!(run(&p, &["3", "4"]), ok("3"));
    assert_eq!(run(&p, &["4", "4"]), Err(FailureKind::Check));
    let inputs = p.parse_inputs(&["4".into(), "4".into()]).unwrap();
    let u = eval::evaluate(&p, &inputs).unwrap_err();
    assert_eq!((u.index, u.loc, u.op), (1, Some((14, 11)), "check"));
    assert_eq!(u.to_string(), "check failed at t.py:14:11: check(cost < limit)");
    // the boundary form
    assert_eq!(eval::run(&p, &["1".into(), "2".into()]).unwrap(), vec!["1"]);
    assert!(matches!(eval::run(&p, &["1".into()]), Err(eval::RunError::Input(_))));
    assert!(matches!(eval::run(&p, &["-1".into(), "2".into()]), Err(eval::RunError::Input(_))));
}

#[test]
fn field_arithmetic_is_modular() {
    let p_minus_1 = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
    assert_eq!(run(&binary("add", "field"), &[p_minus_1, "2"]), ok("1"));
    assert_eq!(run(&binary("sub", "field"), &["0", "1"]), ok(p_minus_1));
    assert_eq!(run(&binary("mul", "field"), &[p_minus_1, p_minus_1]), ok("1"));
    let neg = program(&["field"], json!([{"id": 1, "op": "neg", "ty": "field", "args": [0]}]), 1);
    assert_eq!(run(&neg, &["1"]), ok(p_minus_1));
    assert_eq!(run(&neg, &["0"]), ok("0"));
}

const INDEX: Result<String, FailureKind> = Err(FailureKind::Index);
const P_MINUS_1: &str = "21888242871839275222246405745257275088548364400416034343698204186575808495616";

/// `[x1, …, xn][x0]` with `x0: ity` and elements of type `ety`; when `guarded`, under the last
/// input `g`, returned as `r if g else 0` (as the front end merges a guarded value).
fn lookup(ity: &str, ety: &str, n: usize, guarded: bool) -> Program {
    let mut tys = vec![ity];
    tys.extend(std::iter::repeat_n(ety, n));
    let g = tys.len();
    if guarded {
        tys.push("bool");
    }
    let guard = if guarded { json!(g) } else { json!(null) };
    let mut body = vec![json!({"id": 100, "op": "index", "ty": ety, "args": (0..=n).collect::<Vec<_>>(),
                               "guard": guard, "loc": [3, 4]})];
    if guarded {
        body.push(json!({"id": 101, "op": "const", "ty": ety, "value": "0"}));
        body.push(json!({"id": 102, "op": "select", "ty": ety, "args": [g, 100, 101]}));
    }
    program(&tys, json!(body), if guarded { 102 } else { 100 })
}

/// Distinct values of type `ety` for the elements (a field's include `p − 1`).
fn element_values(ety: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|j| match ety {
            "bool" => (j % 2).to_string(),
            "field" if j == 0 => P_MINUS_1.to_owned(),
            "i16" => (5 - 4 * j as i64).to_string(),
            "u64" if j == 1 => "18446744073709551615".to_owned(),
            _ => (3 * j + 1).to_string(),
        })
        .collect()
}

#[test]
fn index_selects_or_fails_for_every_type() {
    for ity in ["u8", "i8", "u16", "i32", "u64", "i64"] {
        let (lo, hi) = zeenot_circuit::Ty::parse(ity).unwrap().range().unwrap();
        for ety in ["bool", "u8", "i16", "u64", "field"] {
            for n in [1usize, 3, 5] {
                let elems = element_values(ety, n);
                let mut indices = vec![0, 1, n as i128 - 1, n as i128, n as i128 + 1, hi, lo];
                indices.retain(|&i| (lo..=hi).contains(&i));
                if lo < 0 {
                    indices.extend([-1, -(n as i128)]);
                }
                for i in indices {
                    let want = usize::try_from(i).ok().filter(|&i| i < n).map(|i| elems[i].clone());
                    let mut values: Vec<&str> = vec![];
                    let i_text = i.to_string();
                    values.push(&i_text);
                    values.extend(elems.iter().map(String::as_str));
                    let p = lookup(ity, ety, n, false);
                    assert_eq!(
                        run(&p, &values),
                        want.clone().ok_or(FailureKind::Index),
                        "{ity}[{i}] of {n} {ety}"
                    );
                    let p = lookup(ity, ety, n, true);
                    for (g, want) in [("1", want.ok_or(FailureKind::Index)), ("0", ok("0"))] {
                        let mut v = values.clone();
                        v.push(g);
                        assert_eq!(run(&p, &v), want, "{ity}[{i}] of {n} {ety}, guard {g}");
                    }
                }
            }
        }
    }
}

#[test]
fn index_agrees_on_random_indices() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
    for n in [4usize, 16, 64] {
        let (plain, guarded) = (lookup("u16", "u32", n, false), lookup("i16", "u32", n, true));
        for _ in 0..12 {
            let elems: Vec<String> = (0..n).map(|_| rng.gen::<u32>().to_string()).collect();
            let i: i128 = rng.gen_range(-3..2 * n as i128);
            let g = rng.gen_range(0..2);
            let want = usize::try_from(i).ok().filter(|&i| i < n).map(|i| elems[i].clone());
            let (i, g) = (i.to_string(), g.to_string());
            let mut values: Vec<&str> = vec![&i];
            values.extend(elems.iter().map(String::as_str));
            if !i.starts_with('-') {
                assert_eq!(run(&plain, &values), want.clone().ok_or(FailureKind::Index));
            }
            values.push(&g);
            let want = if g == "1" { want.ok_or(FailureKind::Index) } else { ok("0") };
            assert_eq!(run(&guarded, &values), want, "{i} of {n}, guard {g}");
        }
    }
}

#[test]
fn index_failure_names_index_and_count() {
    let p = lookup("i8", "u8", 5, false);
    for (i, text) in
        [("7", "index 7 out of range for 5 elements"), ("-1", "index -1 out of range for 5 elements")]
    {
        let inputs = p.parse_inputs(&[i, "1", "2", "3", "4", "5"].map(String::from)).unwrap();
        let u = eval::evaluate(&p, &inputs).unwrap_err();
        assert_eq!(
            (u.kind, u.kind.name(), u.op, u.index, u.loc),
            (FailureKind::Index, "index", "index", 0, Some((3, 4)))
        );
        assert_eq!(u.msg.as_deref(), Some(text));
        assert_eq!(u.to_string(), format!("{text} at t.py:3:4"));
    }
}

/// Constraints of a program over the given inputs and body (setup mode).
fn constraints(tys: &[&str], body: Json, out: u64) -> usize {
    zeenot_circuit::groth16::stats(&program(tys, body, out)).unwrap().constraints
}

#[test]
fn index_selectors_are_shared() {
    // x0: u8 index, x1..x4 and x5..x8 two rows of u32, x9 a guard
    let mut tys = vec!["u8"];
    tys.extend(["u32"; 8]);
    tys.push("bool");
    let one = json!([{"id": 20, "op": "index", "ty": "u32", "args": [0, 1, 2, 3, 4]}]);
    // (both programs have one output)
    let base = constraints(&tys, json!([]), 0);
    // 4 booleanity + 1 weighted sum + 4 products
    assert_eq!(constraints(&tys, one, 20) - base, 9);
    let two = |guard2: Json, n2: usize| {
        let args2: Vec<u64> = [0].into_iter().chain(5..5 + n2 as u64).collect();
        json!([{"id": 20, "op": "index", "ty": "u32", "args": [0, 1, 2, 3, 4]},
               {"id": 21, "op": "index", "ty": "u32", "args": args2, "guard": guard2},
               {"id": 22, "op": "add", "ty": "u32", "args": [20, 21], "guard": null}])
    };
    let add = constraints(&tys, json!([{"id": 22, "op": "add", "ty": "u32", "args": [1, 5]}]), 22) - base;
    // the same index and count: the second lookup pays its products only
    assert_eq!(constraints(&tys, two(json!(null), 4), 22) - base - add, 9 + 4);
    // another count or another guard: a second selector
    assert_eq!(constraints(&tys, two(json!(null), 3), 22) - base - add, 9 + 3 + 1 + 3);
    assert_eq!(constraints(&tys, two(json!(9), 4), 22) - base - add, 9 + 5 + 4);
    // and the shared selector is as sound as a fresh one
    let p = program(&tys, two(json!(null), 4), 22);
    for i in ["0", "3", "4"] {
        let v = [i, "1", "2", "3", "4", "10", "20", "30", "40", "1"];
        let want = if i == "4" { INDEX } else { ok(&(i.parse::<u32>().unwrap() * 11 + 11).to_string()) };
        assert_eq!(run(&p, &v), want);
    }
}

#[test]
fn index_over_constants_pays_for_the_selector_only() {
    let mut body: Vec<Json> = (0..16)
        .map(|j| json!({"id": 10 + j, "op": "const", "ty": "i32", "value": (j * j - 50).to_string()}))
        .collect();
    let args: Vec<u64> = [0].into_iter().chain(10..26).collect();
    body.push(json!({"id": 30, "op": "index", "ty": "i32", "args": args}));
    let base = constraints(&["u8"], json!([]), 0);
    assert_eq!(constraints(&["u8"], json!(body.clone()), 30) - base, 17);
    let p = program(&["u8"], json!(body), 30);
    assert_eq!(run(&p, &["15"]), ok("175"));
    assert_eq!(run(&p, &["0"]), ok("-50"));
    assert_eq!(run(&p, &["16"]), INDEX);
    // a constant index is the element itself: no constraint at all
    let body = json!([{"id": 1, "op": "const", "ty": "u8", "value": "2"},
                      {"id": 2, "op": "index", "ty": "u8", "args": [1, 0, 0, 0]}]);
    assert_eq!(constraints(&["u8"], body.clone(), 2) - base, 0);
    assert_eq!(run(&program(&["u8"], body, 2), &["9"]), ok("9"));
    let body = json!([{"id": 1, "op": "const", "ty": "u8", "value": "3"},
                      {"id": 2, "op": "index", "ty": "u8", "args": [1, 0, 0, 0]}]);
    let p = program(&["u8"], body, 2);
    assert_eq!(
        eval::evaluate(&p, &p.parse_inputs(&["9".into()]).unwrap()).unwrap_err().kind,
        FailureKind::Index
    );
}

#[test]
fn index_after_a_check_needs_fewer_bits() {
    // check(x0 < 3) narrows x0 to [0, 2]: 3 positions of 8 get a bit
    let body = json!([
        {"id": 9, "op": "const", "ty": "u32", "value": "3"},
        {"id": 10, "op": "lt", "ty": "bool", "args": [0, 9]},
        {"op": "check", "args": [10]},
        {"id": 11, "op": "index", "ty": "u8", "args": [0, 1, 2, 3, 4, 5, 6, 7, 8]},
    ]);
    let mut tys = vec!["u32"];
    tys.extend(["u8"; 8]);
    let check_only = json!([
        {"id": 9, "op": "const", "ty": "u32", "value": "3"},
        {"id": 10, "op": "lt", "ty": "bool", "args": [0, 9]},
        {"op": "check", "args": [10]},
    ]);
    let before = constraints(&tys, check_only, 0);
    assert_eq!(constraints(&tys, body.clone(), 11) - before, 3 + 1 + 3);
    let p = program(&tys, body, 11);
    let v = ["2", "10", "11", "12", "13", "14", "15", "16", "17"];
    assert_eq!(run(&p, &v), ok("12"));
    let mut v = v;
    v[0] = "3";
    assert_eq!(run(&p, &v), Err(FailureKind::Check));
}

#[test]
fn poseidon_matches_circomlib_and_is_pinned() {
    // circomlibjs: poseidon([1, 2])
    let p = program(
        &["field", "field"],
        json!([{"id": 2, "op": "poseidon", "ty": "field", "args": [0, 1], "loc": [1, 0]}]),
        2,
    );
    assert_eq!(
        run(&p, &["1", "2"]),
        ok("7853200120776062878684798364095072458815029376092732009249414926327459813530")
    );
    // arities 1..=16 agree with the native hash; a mixed-type or empty `poseidon` is invalid
    for n in [1usize, 3, 5, 16] {
        let tys = vec!["field"; n];
        let args: Vec<usize> = (0..n).collect();
        let p = program(
            &tys,
            json!([{"id": n, "op": "poseidon", "ty": "field", "args": args, "loc": [1, 0]}]),
            n as u64,
        );
        let values: Vec<String> = (0..n).map(|k| (k * 7 + 1).to_string()).collect();
        let refs: Vec<&str> = values.iter().map(String::as_str).collect();
        let xs: Vec<Fr> = (0..n).map(|k| Fr::from((k * 7 + 1) as u64)).collect();
        let want = zeenot_crypto::poseidon::poseidon(&xs).unwrap();
        assert_eq!(run(&p, &refs), Ok(want.to_string()));
    }
    for (tys, args) in [(vec!["u32"], vec![0]), (vec!["field"; 17], (0..17).collect::<Vec<_>>())] {
        let inputs: Vec<Json> = tys
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"id": i, "name": format!("x{i}"), "ty": t, "vis": "private"}))
            .collect();
        let n = tys.len();
        let doc = json!({"version": 1, "name": "t", "inputs": inputs,
            "body": [{"id": n, "op": "poseidon", "ty": "field", "args": args}],
            "outputs": [{"name": "return", "value": n}]});
        assert!(Program::from_json(&doc.to_string()).is_err());
    }
}

#[test]
fn point_add_and_subgroup_check() {
    use zeenot_circuit::gadgets::babyjub::point::native;
    let b8 = native::base8();
    let p = native::mul(&b8, &Fr::from(12345u64));
    let q = native::mul(&b8, &Fr::from(777u64));
    // inputs x0..x3 = (p, q); check both, add them, output x + y as a witness of both coordinates
    let prog = program(
        &["field", "field", "field", "field"],
        json!([
            {"op": "point_check", "args": [0, 1]},
            {"op": "point_check", "args": [2, 3]},
            {"id": 4, "op": "point_add_x", "ty": "field", "args": [0, 1, 2, 3]},
            {"id": 5, "op": "point_add_y", "ty": "field", "args": [0, 1, 2, 3]},
            {"id": 6, "op": "mul", "ty": "field", "args": [4, 5]}
        ]),
        6,
    );
    let s = native::add(&p, &q);
    let text = |v: Fr| v.to_string();
    let vals = [text(p.0), text(p.1), text(q.0), text(q.1)];
    let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
    assert_eq!(run(&prog, &refs), Ok((s.0 * s.1).to_string()));
    // the identity and a point added to its negative are fine
    let id = native::identity();
    let vals = [text(p.0), text(p.1), text(-p.0), text(p.1)];
    let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
    assert_eq!(run(&prog, &refs), Ok("0".to_string()));
    let vals = [text(id.0), text(id.1), text(q.0), text(q.1)];
    let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
    assert_eq!(run(&prog, &refs), Ok((q.0 * q.1).to_string()));
    // off the curve, of order 2 (0, -1), or the sum of a subgroup point and a small-order one
    let small = (Fr::from(0u64), -Fr::from(1u64));
    let mixed = native::add(&p, &small);
    for bad in [(p.0 + Fr::from(1u64), p.1), small, mixed] {
        let vals = [text(bad.0), text(bad.1), text(q.0), text(q.1)];
        let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
        assert_eq!(run(&prog, &refs), Err(FailureKind::Check));
    }
    // the two coordinates share one addition: 6 constraints + 2 subgroup checks + the product
    let n = constraints(
        &["field", "field", "field", "field"],
        json!([
            {"id": 4, "op": "point_add_x", "ty": "field", "args": [0, 1, 2, 3]},
            {"id": 5, "op": "point_add_y", "ty": "field", "args": [0, 1, 2, 3]},
            {"id": 6, "op": "mul", "ty": "field", "args": [4, 5]}
        ]),
        6,
    );
    assert_eq!(n, 6 + 1 + 1, "one addition, one product, one output");
}

#[test]
fn point_mul_by_integer_and_field_scalars() {
    use ark_ff::PrimeField;
    use zeenot_circuit::gadgets::babyjub::point::native;
    let b8 = native::base8();
    let p = native::mul(&b8, &Fr::from(4242u64));
    let l = native::subgroup_order();
    let text = |v: Fr| v.to_string();
    for (sty, scalars) in [
        ("u8", vec![Fr::from(0u64), Fr::from(1u64), Fr::from(7u64), Fr::from(255u64)]),
        ("u64", vec![Fr::from(u64::MAX), Fr::from(1u64 << 40)]),
        (
            "field",
            vec![Fr::from(0u64), Fr::from(1u64), l, l + Fr::from(5u64), -Fr::from(1u64), Fr::from(3u64) * l],
        ),
    ] {
        let prog = program(
            &[sty, "field", "field"],
            json!([
                {"id": 3, "op": "point_mul_x", "ty": "field", "args": [0, 1, 2]},
                {"id": 4, "op": "point_mul_y", "ty": "field", "args": [0, 1, 2]},
                {"id": 5, "op": "mul", "ty": "field", "args": [3, 4]}
            ]),
            5,
        );
        for k in &scalars {
            for base in [p, b8, native::identity()] {
                let want = native::mul(&base, k);
                let kt = if sty == "field" { text(*k) } else { k.into_bigint().to_string() };
                let vals = [kt, text(base.0), text(base.1)];
                let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
                assert_eq!(run(&prog, &refs), Ok((want.0 * want.1).to_string()), "{sty} {k} {base:?}");
            }
        }
    }
}

#[test]
fn point_mul_of_a_constant_base_uses_fixed_base_tables() {
    use zeenot_circuit::gadgets::babyjub::point::native;
    let b8 = native::base8();
    let l = native::subgroup_order();
    for (sty, k) in [("u32", Fr::from(123456u64)), ("field", l + Fr::from(9u64)), ("field", -Fr::from(2u64))]
    {
        let body = json!([
            {"id": 1, "op": "const", "ty": "field", "value": b8.0.to_string()},
            {"id": 2, "op": "const", "ty": "field", "value": b8.1.to_string()},
            {"id": 3, "op": "point_mul_x", "ty": "field", "args": [0, 1, 2]},
            {"id": 4, "op": "point_mul_y", "ty": "field", "args": [0, 1, 2]},
            {"id": 5, "op": "mul", "ty": "field", "args": [3, 4]}
        ]);
        let prog = program(&[sty], body.clone(), 5);
        let want = native::mul(&b8, &k);
        let kt = if sty == "field" {
            k.to_string()
        } else {
            use ark_ff::PrimeField;
            k.into_bigint().to_string()
        };
        assert_eq!(run(&prog, &[&kt]), Ok((want.0 * want.1).to_string()));
        // far cheaper than a variable base
        assert!(constraints(&[sty], body, 5) < 1200, "{sty}");
    }
}

#[test]
fn eddsa_check_accepts_valid_signatures_and_respects_its_guard() {
    use zeenot_crypto::SigningKey;
    let key = SigningKey::from_bytes([42; 32]);
    let msg = Fr::from(123456789u64);
    let sig = key.sign(&msg);
    let (ax, ay) = key.verifying_key().point().xy();
    let (rx, ry) = sig.r8.xy();
    let s = {
        use ark_ff::{BigInteger, PrimeField};
        Fr::from_le_bytes_mod_order(&sig.s.into_bigint().to_bytes_le())
    };
    // inputs x0..x5 = (A, M, R8, S), x6 = guard; output the guard
    let tys = ["field", "field", "field", "field", "field", "field", "bool"];
    let prog = program(
        &tys,
        json!([{"op": "eddsa_check", "args": [0, 1, 2, 3, 4, 5], "guard": 6, "loc": [3, 4]}]),
        6,
    );
    let text = |v: Fr| v.to_string();
    let good = [text(ax), text(ay), text(msg), text(rx), text(ry), text(s)];
    let with = |vals: &[String], guard: &str| -> Result<String, FailureKind> {
        let mut v: Vec<&str> = vals.iter().map(String::as_str).collect();
        v.push(guard);
        run(&prog, &v)
    };
    assert_eq!(with(&good, "1"), ok("1"));
    assert_eq!(with(&good, "0"), ok("0"));
    let l = zeenot_circuit::gadgets::babyjub::point::native::subgroup_order();
    for (k, bad) in [
        (2, msg + Fr::from(1u64)),
        (5, s + Fr::from(1u64)),
        (5, s + l),
        (3, rx + Fr::from(1u64)),
        (0, Fr::from(0u64)),
    ] {
        let mut vals = good.clone();
        vals[k] = text(bad);
        assert_eq!(with(&vals, "1"), Err(FailureKind::Check), "{k}");
        assert_eq!(with(&vals, "0"), ok("0"), "guarded off: {k}");
    }
}
