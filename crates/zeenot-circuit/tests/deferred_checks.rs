//! Deferred range checks on chains of unsigned additions (`sum(xs)`; `synth::chain_adds`, and
//! `docs/circuits.md`, "Why each encoding is sound"): only the end of a chain is range-checked.
//!
//! The interpreter is unchanged (it reports the first overflowing partial sum, as Python does);
//! the circuit must still be satisfiable exactly when the interpreter succeeds, with the same
//! outputs and every witness pinned. For non-negative terms a partial sum overflows only if the
//! final one does, which the brute-force tests below confirm on small `u8` chains.

use ark_bn254::Fr;
use ark_relations::r1cs::ConstraintSystem;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value as Json};
use zeenot_circuit::eval::{self, FailureKind, Unsatisfied};
use zeenot_circuit::{groth16, soundness, synth, Program, Value};

/// A program under construction; `loc` of an instruction is `[its body index + 1, 0]`.
#[derive(Default)]
struct Doc {
    inputs: Vec<Json>,
    body: Vec<Json>,
    next: usize,
}

impl Doc {
    fn input(&mut self, ty: &str) -> usize {
        let id = self.next;
        let vis = if id.is_multiple_of(2) { "private" } else { "public" };
        self.inputs.push(json!({"id": id, "name": format!("x{id}"), "ty": ty, "vis": vis}));
        self.next += 1;
        id
    }

    fn inst(&mut self, op: &str, ty: &str, args: &[usize], guard: Option<usize>) -> usize {
        let id = self.next;
        let line = self.body.len() + 1;
        self.body.push(json!({"id": id, "op": op, "ty": ty, "args": args, "guard": guard, "loc": [line, 0]}));
        self.next += 1;
        id
    }

    fn konst(&mut self, ty: &str, v: i128) -> usize {
        let id = self.next;
        self.body.push(json!({"id": id, "op": "const", "ty": ty, "value": v.to_string()}));
        self.next += 1;
        id
    }

    fn check(&mut self, c: usize) {
        self.body.push(json!({"op": "check", "args": [c], "guard": null}));
    }

    fn program(&self, outputs: &[usize]) -> Program {
        let outs: Vec<Json> =
            outputs.iter().enumerate().map(|(i, o)| json!({"name": format!("o{i}"), "value": o})).collect();
        let doc = json!({"version": 1, "name": "chain", "source": {"file": "chain.py"},
                         "inputs": self.inputs, "body": self.body, "outputs": outs});
        Program::from_json(&doc.to_string()).expect("valid program")
    }
}

/// `x_0 + x_1 + … + x_{n−1}` over `n` inputs of type `ty`, every add under `guard`; returns the
/// program's builder, the inputs and the partial sums.
fn chain(ty: &str, n: usize, guarded: bool) -> (Doc, Vec<usize>, Vec<usize>, Option<usize>) {
    let mut d = Doc::default();
    let xs: Vec<usize> = (0..n).map(|_| d.input(ty)).collect();
    let g = guarded.then(|| d.input("bool"));
    let mut acc = xs[0];
    let mut sums = Vec::new();
    for &x in &xs[1..] {
        acc = d.inst("add", ty, &[acc, x], g);
        sums.push(acc);
    }
    (d, xs, sums, g)
}

/// Evaluate and synthesize from the same inputs; they must agree: satisfied with the same outputs
/// (and, if `mutate`, every witness pinned) when evaluation succeeds, not satisfied when it fails.
fn agree(p: &Program, values: &[i128], mutate: bool) -> Result<Vec<Value>, Unsatisfied> {
    let inputs: Vec<Value> = values.iter().map(|&v| Value::Int(v)).collect();
    let cs = ConstraintSystem::<Fr>::new_ref();
    let lowered = synth::lower(p, Some(&inputs), cs.clone());
    let res = eval::evaluate(p, &inputs);
    match &res {
        Ok(vals) => {
            let outs = lowered.expect("synthesis");
            assert!(cs.is_satisfied().unwrap(), "{values:?}: {:?}", cs.which_is_unsatisfied());
            for (w, &o) in outs.iter().zip(&p.outputs) {
                assert_eq!(w.value, Some(vals[o].to_fr()), "{values:?}");
            }
            if mutate {
                soundness::check_mutations(p, &inputs).unwrap();
            }
        }
        Err(_) => {
            if lowered.is_ok() {
                assert!(!cs.is_satisfied().unwrap(), "{values:?}: failing program is satisfied");
            }
        }
    }
    res
}

fn constraints(p: &Program) -> usize {
    groth16::stats(p).unwrap().constraints
}

#[test]
fn a_sum_chain_checks_only_its_end() {
    for guarded in [false, true] {
        let (d, _, sums, _) = chain("u64", 32, guarded);
        let last = *sums.last().unwrap();
        let p = d.program(&[last]);
        let deferred = synth::chain_adds(&p);
        for &s in &sums {
            assert_eq!(deferred[s], s != last, "partial sum {s}");
        }
        // 32 input range checks (65 each), the guard's booleanity, the last add's one-sided check
        // (+1 for the guard product), the output: 31 × 65 before deferral
        let expected = 32 * 65 + usize::from(guarded) * 2 + 65 + 1;
        assert_eq!(constraints(&p), expected, "guarded: {guarded}");
    }
}

#[test]
fn overflow_anywhere_in_a_chain_is_unsatisfiable() {
    const MAX: i128 = u64::MAX as i128;
    let (d, _, sums, _) = chain("u64", 4, false);
    let p = d.program(&[sums[2]]);
    // (values, the add the interpreter reports, by body index)
    let cases: [([i128; 4], Option<usize>); 6] = [
        ([MAX, 1, 0, 0], Some(0)),
        ([MAX, MAX, MAX, MAX], Some(0)),
        ([1 << 63, 1 << 62, 1 << 62, 0], Some(1)),
        ([1, 1, 1, MAX - 2], Some(2)),
        ([1, 1, 1, MAX - 3], None),
        ([0, 0, 0, MAX], None),
    ];
    for (values, failing) in cases {
        match agree(&p, &values, true) {
            Ok(vals) => {
                assert_eq!(failing, None, "{values:?}");
                assert_eq!(vals[sums[2]], Value::Int(values.iter().sum()));
            }
            Err(u) => {
                // evaluation is unchanged: the first overflowing partial sum, with its location
                assert_eq!((u.kind, Some(u.index)), (FailureKind::Overflow, failing), "{values:?}");
                assert_eq!(u.location, format!("chain.py:{}:0", u.index + 1));
            }
        }
    }
}

/// The front end's `sum(xs)`: `acc = acc + select(active_k, x_k, 0)`, every add under the same
/// guard (or none). Returns the program and the number of `u8` inputs.
fn masked_chain(n: usize, guard: bool) -> (Program, usize) {
    let mut d = Doc::default();
    let xs: Vec<usize> = (0..n).map(|_| d.input("u8")).collect();
    let active: Vec<usize> = (0..n).map(|_| d.input("bool")).collect();
    let g = guard.then(|| d.input("bool"));
    let zero = d.konst("u8", 0);
    let mut acc = d.konst("u8", 0);
    for (&x, &a) in xs.iter().zip(&active) {
        let m = d.inst("select", "u8", &[a, x, zero], None);
        acc = d.inst("add", "u8", &[acc, m], g);
    }
    (d.program(&[acc]), n)
}

#[test]
fn small_u8_chains_agree_with_eval_exhaustively() {
    const GRID: [i128; 10] = [0, 1, 2, 50, 100, 127, 128, 200, 254, 255];
    let (mut intermediate_failures, mut final_failures, mut ok) = (0, 0, 0);
    for guarded in [false, true] {
        let (d, _, sums, g) = chain("u8", 4, guarded);
        let p = d.program(&[*sums.last().unwrap()]);
        assert!(synth::chain_adds(&p)[sums[0]] && synth::chain_adds(&p)[sums[1]]);
        for k in 0..GRID.len().pow(4) {
            let terms: Vec<i128> = (0..4).map(|j| GRID[k / GRID.len().pow(j) % GRID.len()]).collect();
            // the property the deferral rests on: a partial sum of non-negative terms overflows
            // only if the final sum does
            let partial_overflow = (2..=4).any(|j| terms[..j].iter().sum::<i128>() > 255);
            assert_eq!(partial_overflow, terms.iter().sum::<i128>() > 255);
            for gv in if g.is_some() { vec![0, 1] } else { vec![] } {
                let mut values = terms.clone();
                values.push(gv);
                let r = agree(&p, &values, false);
                assert_eq!(r.is_err(), gv == 1 && partial_overflow, "{values:?}");
            }
            if g.is_none() {
                match agree(&p, &terms, false) {
                    Ok(_) => ok += 1,
                    Err(u) if u.index + 1 < sums.len() => intermediate_failures += 1,
                    Err(_) => final_failures += 1,
                }
            }
        }
    }
    // the grid exercises all three outcomes, the interesting one (an intermediate overflows, its
    // own check was skipped) included
    assert!(
        ok > 1000 && intermediate_failures > 1000 && final_failures > 500,
        "{ok} {intermediate_failures} {final_failures}"
    );

    // the front end's masked form
    for guarded in [false, true] {
        let (p, n) = masked_chain(3, guarded);
        for k in 0..(4usize.pow(3) * 8 * 2) {
            let xs = (0..n).map(|j| [0, 100, 155, 255][k / 4usize.pow(j as u32) % 4]);
            let bits = k / 64;
            let active = (0..n).map(|j| ((bits >> j) & 1) as i128);
            let mut values: Vec<i128> = xs.chain(active).collect();
            if guarded {
                values.push(((bits >> 3) & 1) as i128);
            } else if bits >> 3 == 1 {
                continue;
            }
            agree(&p, &values, k % 16 == 0).ok();
        }
    }
}

#[test]
fn random_chains_agree_with_eval_and_are_pinned() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let (mut ok, mut failed) = (0, 0);
    for round in 0..400 {
        let (ty, max) = [("u8", 255i128), ("u16", 65535), ("u64", u64::MAX as i128)][round % 3];
        let n = rng.gen_range(2..10);
        let (p, n) = if rng.gen_bool(0.5) {
            let (d, _, sums, _) = chain(ty, n, round % 2 == 1);
            (d.program(&[*sums.last().unwrap()]), n)
        } else {
            let (p, n) = masked_chain(n, round % 2 == 1);
            if ty != "u8" {
                continue;
            }
            (p, n)
        };
        let mut values: Vec<i128> = (0..n)
            .map(|_| match rng.gen_range(0..4) {
                0 => 0,
                1 => max,
                // around an even share of the type's maximum: sums end near it
                _ => (max / n as i128 + rng.gen_range(-3..4)).clamp(0, max),
            })
            .collect();
        values.extend((values.len()..p.inputs.len()).map(|_| rng.gen_range(0..2)));
        match agree(&p, &values, true) {
            Ok(_) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    assert!(ok > 50 && failed > 50, "ok {ok}, failed {failed}");
}

/// `r1 = x0 + x1` (u64) with a second use of `r1` of the given kind (`"none"`: no other use), and,
/// if `with_r2`, `r2 = r1 + x2` returned. Returns the program and `r1`.
fn used_twice(kind: &str, with_r2: bool) -> (Program, usize) {
    let mut d = Doc::default();
    let xs: Vec<usize> = (0..3).map(|_| d.input("u64")).collect();
    let c = d.input("bool");
    let r1 = d.inst("add", "u64", &[xs[0], xs[1]], None);
    let mut outs = Vec::new();
    match kind {
        "output" => outs.push(r1),
        "lt" => outs.push(d.inst("lt", "bool", &[r1, xs[2]], None)),
        "check" => {
            let le = d.inst("le", "bool", &[xs[2], r1], None);
            d.check(le);
        }
        "select" => outs.push(d.inst("select", "u64", &[c, r1, xs[2]], None)),
        "add" => outs.push(d.inst("add", "u64", &[xs[2], r1], None)),
        "cast" => outs.push(d.inst("cast", "field", &[r1], None)),
        "index" => outs.push(d.inst("index", "u64", &[r1, xs[0], xs[1]], None)),
        "sub" => outs.push(d.inst("sub", "u64", &[r1, xs[2]], None)),
        _ => {}
    }
    if with_r2 {
        let args = if kind == "self" { [r1, r1] } else { [r1, xs[2]] };
        outs.push(d.inst("add", "u64", &args, None));
    }
    (d.program(&outs), r1)
}

#[test]
fn a_chain_value_used_twice_keeps_its_check() {
    // Adding `r2 = r1 + x2` (and returning it) costs r2's check and its output, 65 + 1, when r1
    // has another use (r1 keeps its check); when it has none, r1's check moves to r2: 1. When the
    // other use is itself an add (`x2 + r1`), r1 was deferred to it without r2 and gets its check
    // back with r2: 65 + 65 + 1.
    for kind in ["none", "output", "lt", "check", "select", "add", "self", "cast", "index", "sub"] {
        let (p, r1) = used_twice(kind, true);
        let (without, _) = used_twice(kind, false);
        let deferred = kind == "none";
        assert_eq!(synth::chain_adds(&p)[r1], deferred, "{kind}");
        let extra = constraints(&p) - constraints(&without);
        let expected = match kind {
            "none" => 1,
            "add" => 131,
            _ => 66,
        };
        assert_eq!(extra, expected, "{kind}");
        // r1 = 1: in range for every use (an index into 2 elements included)
        agree(&p, &[0, 1, 1, 1], true).unwrap();
        let err = agree(&p, &[u64::MAX as i128, 1, 0, 1], false).unwrap_err();
        assert_eq!((err.kind, err.index), (FailureKind::Overflow, 0), "{kind}");
    }
}

#[test]
fn mixed_guards_keep_checks() {
    // r1 = x0 + x1 under guard G1, r2 = r1 + x2 under G2, for every pair of guards from
    // {none, g, h}: deferred exactly when G1 = G2, and eval ⇔ satisfiable on a value grid that
    // makes r1 overflow alone, r2 overflow alone, both, or neither
    let names = ["none", "g", "h"];
    for (i1, g1) in names.iter().enumerate() {
        for (i2, g2) in names.iter().enumerate() {
            let mut d = Doc::default();
            let xs: Vec<usize> = (0..3).map(|_| d.input("u8")).collect();
            let g = d.input("bool");
            let h = d.input("bool");
            let pick = |k: usize| [None, Some(g), Some(h)][k];
            let r1 = d.inst("add", "u8", &[xs[0], xs[1]], pick(i1));
            let r2 = d.inst("add", "u8", &[r1, xs[2]], pick(i2));
            let z = d.konst("u8", 0);
            // merge back to the top level as the front end does, so the output is well defined
            let out = match pick(i2) {
                Some(c) => d.inst("select", "u8", &[c, r2, z], None),
                None => r2,
            };
            let p = d.program(&[out]);
            assert_eq!(synth::chain_adds(&p)[r1], i1 == i2, "{g1}/{g2}");
            // a value of a guarded add is only used under its guard (docs/ir.md): r1 under `g` or
            // `h` feeding an add under another guard breaks that discipline unless the guards are
            // true together; evaluate only the combinations the discipline allows
            for values in [[255, 1, 0], [200, 50, 10], [100, 100, 50], [0, 0, 255], [255, 255, 255]] {
                for gv in 0..2 {
                    for hv in 0..2 {
                        let on = |k: usize| [1, gv, hv][k];
                        if on(i2) == 1 && on(i1) == 0 {
                            continue; // r1's value is unspecified where r2 uses it
                        }
                        let mut v = values.to_vec();
                        v.extend([gv, hv]);
                        agree(&p, &v, true).ok();
                    }
                }
            }
        }
    }
    // the unsound case the rule excludes: r1 unguarded overflows, r2 is guarded off. The
    // interpreter fails at r1; with r1's check deferred to r2 = g·(r1 + x2) the circuit would
    // be satisfied.
    let mut d = Doc::default();
    let xs: Vec<usize> = (0..3).map(|_| d.input("u8")).collect();
    let g = d.input("bool");
    let r1 = d.inst("add", "u8", &[xs[0], xs[1]], None);
    let r2 = d.inst("add", "u8", &[r1, xs[2]], Some(g));
    let z = d.konst("u8", 0);
    let out = d.inst("select", "u8", &[g, r2, z], None);
    let p = d.program(&[out]);
    let err = agree(&p, &[255, 1, 0, 0], false).unwrap_err();
    assert_eq!((err.kind, err.index), (FailureKind::Overflow, 0));
}

#[test]
fn signed_and_field_chains_are_unchanged() {
    let (d, _, sums, _) = chain("i64", 8, false);
    let p = d.program(&[*sums.last().unwrap()]);
    assert!(!synth::chain_adds(&p).contains(&true));
    // 8 inputs and 7 adds, each a two-sided 64-bit check (65), and the output
    assert_eq!(constraints(&p), 8 * 65 + 7 * 65 + 1);
    let (d, _, sums, _) = chain("field", 8, false);
    let p = d.program(&[*sums.last().unwrap()]);
    assert!(!synth::chain_adds(&p).contains(&true));
    assert_eq!(constraints(&p), 1);
}

#[test]
fn partial_sums_that_fit_are_free_and_the_end_is_checked_once() {
    // terms narrowed to [0, 100] by `% 101`: the first partial sum (≤ 200) fits u8 and costs
    // nothing; the later ones are deferred, and the end is checked once, `255 − r ≥ 0` in 8 bits
    // (9 constraints) from its exact interval [0, 100·n] (before: 9 per add beyond the first)
    for (n, expected) in [(2usize, 0usize), (3, 9), (4, 9), (6, 9)] {
        let mut d = Doc::default();
        let xs: Vec<usize> = (0..n).map(|_| d.input("u8")).collect();
        let k = d.konst("u8", 101);
        let ms: Vec<usize> = xs.iter().map(|&x| d.inst("mod", "u8", &[x, k], None)).collect();
        let without = d.program(&ms);
        let mut acc = ms[0];
        for &m in &ms[1..] {
            acc = d.inst("add", "u8", &[acc, m], None);
        }
        let mut outs = ms.clone();
        outs.push(acc);
        let p = d.program(&outs);
        assert_eq!(constraints(&p) - constraints(&without) - 1, expected, "{n} terms");
        let mut values = vec![100i128; n];
        assert_eq!(agree(&p, &values, true).is_err(), n > 2, "{n} terms");
        values[1..].fill(0);
        values[n - 1] = 254; // 254 % 101 = 52
        agree(&p, &values, true).unwrap();
    }
}

#[test]
fn a_sum_chain_proves_and_verifies() {
    let (d, _, sums, _) = chain("u64", 8, true);
    let p = d.program(&[*sums.last().unwrap()]);
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let (pk, vk) = groth16::setup(&p, &mut rng).unwrap();
    let text = |v: &[i128]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let half = (u64::MAX / 2) as i128;
    // the partial sums reach 2^64 − 2, 2^64 − 1: in range; guarded off, anything goes
    for (values, out) in [([half, half, 1, 0, 0, 0, 0, 0, 1], u64::MAX as i128), ([half; 9], 0)] {
        let mut values = values.to_vec();
        if out == 0 {
            values[8] = 0;
        }
        let inputs = p.parse_inputs(&text(&values)).unwrap();
        let proven = groth16::prove(&p, &pk, &inputs, &[], &mut rng).unwrap();
        assert_eq!(proven.public.last().unwrap(), &out.to_string());
        assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap());
        let mut wrong = proven.public.clone();
        *wrong.last_mut().unwrap() = (out ^ 1).to_string();
        assert!(!groth16::verify(&p, &vk, &wrong, &proven.proof).unwrap());
    }
    // one more unit anywhere in the chain overflows: no proof, and the interpreter names the add
    let inputs = p.parse_inputs(&text(&[half, half, 1, 0, 0, 0, 0, 1, 1])).unwrap();
    match groth16::prove(&p, &pk, &inputs, &[], &mut rng) {
        Err(zeenot_circuit::Error::Unsatisfied(u)) => {
            assert_eq!((u.kind, u.index), (FailureKind::Overflow, 6));
        }
        other => panic!("{other:?}"),
    }
}
