//! A generator of random well-formed IR programs (respecting the guard discipline of
//! `docs/ir.md`) with random inputs, shared by the back ends' differential tests
//! (`#[path]`-included: zeenot-circuit's `random_programs`, zeenot-sigma's `backend`).

#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value as Json};
use zeenot_ir::ir;

/// Which operations the generated programs may use (a back end that lacks some opts out).
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// `field` values.
    pub field: bool,
    /// `floordiv` and `mod`.
    pub divmod: bool,
}

impl Features {
    pub const ALL: Features = Features { field: true, divmod: true };
}

const TYPES: [&str; 8] = ["u8", "i8", "u16", "i16", "u32", "i32", "u64", "field"];

pub struct Gen {
    rng: ChaCha20Rng,
    body: Vec<Json>,
    // (id, type, scope guard id)
    vals: Vec<(u64, &'static str, Option<u64>)>,
    next: u64,
}

impl Gen {
    fn pick(&mut self, ty: &str, scope: Option<u64>) -> Option<u64> {
        let c: Vec<u64> = self
            .vals
            .iter()
            .filter(|(_, t, s)| *t == ty && (s.is_none() || *s == scope))
            .map(|v| v.0)
            .collect();
        (!c.is_empty()).then(|| c[self.rng.gen_range(0..c.len())])
    }

    /// A value of any integer type, usable in `scope`.
    fn pick_int(&mut self, scope: Option<u64>) -> Option<u64> {
        let c: Vec<u64> = self
            .vals
            .iter()
            .filter(|(_, t, s)| !matches!(*t, "bool" | "field") && (s.is_none() || *s == scope))
            .map(|v| v.0)
            .collect();
        (!c.is_empty()).then(|| c[self.rng.gen_range(0..c.len())])
    }

    fn push(&mut self, mut inst: Json, ty: &'static str, scope: Option<u64>) {
        let id = self.next;
        self.next += 1;
        inst["id"] = json!(id);
        inst["ty"] = json!(ty);
        self.body.push(inst);
        self.vals.push((id, ty, scope));
    }

    fn konst(&mut self, ty: &'static str) -> u64 {
        let v: i128 = match ty {
            "bool" => self.rng.gen_range(0..2),
            // the edges: a type's minimum (for `i_min // -1`, `i_min % -1`) and maximum
            "i8" | "i16" | "i32" | "u8" | "u16" | "u32" | "u64" if self.rng.gen_bool(0.15) => {
                let (lo, hi) = ir::Ty::parse(ty).unwrap().range().unwrap();
                if self.rng.gen_bool(0.5) {
                    lo
                } else {
                    hi
                }
            }
            "i8" | "i16" | "i32" => self.rng.gen_range(-3..4),
            _ => self.rng.gen_range(0..5),
        };
        self.push(json!({"op": "const", "value": v.to_string()}), ty, None);
        self.next - 1
    }
}

pub fn random_value(rng: &mut ChaCha20Rng, ty: &str) -> String {
    let edge = rng.gen_bool(0.3);
    match ty {
        "bool" => rng.gen_range(0..2).to_string(),
        "field" => rng.gen_range(0u64..1000).to_string(),
        _ => {
            let t = ir::Ty::parse(ty).unwrap();
            let (lo, hi) = t.range().unwrap();
            let v: i128 = if edge {
                [lo, hi, 0, 1, lo + 1, hi - 1][rng.gen_range(0..6)]
            } else {
                let small: i128 = rng.gen_range(-20..20);
                if lo == 0 {
                    small.abs()
                } else {
                    small
                }
            };
            v.clamp(lo, hi).to_string()
        }
    }
}

pub fn program(seed: u64) -> (String, Vec<String>) {
    program_with(seed, Features::ALL)
}

/// A random program and inputs for it, using only `features`.
pub fn program_with(seed: u64, features: Features) -> (String, Vec<String>) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let types = if features.field { &TYPES[..] } else { &TYPES[..7] };
    let t: &'static str = types[rng.gen_range(0..types.len())];
    let t2: &'static str = types[rng.gen_range(0..types.len())];
    let mut inputs = Vec::new();
    let mut values = Vec::new();
    let mut g = Gen { rng: ChaCha20Rng::seed_from_u64(seed ^ 1), body: vec![], vals: vec![], next: 0 };
    for (k, ty) in [t, t, t2, "bool"].into_iter().enumerate() {
        let vis = if k % 2 == 0 { "private" } else { "public" };
        inputs.push(json!({"id": g.next, "name": format!("x{k}"), "ty": ty, "vis": vis, "tier": null}));
        values.push(random_value(&mut rng, ty));
        g.vals.push((g.next, ty, None));
        g.next += 1;
    }
    let n = g.rng.gen_range(3..18);
    for _ in 0..n {
        let guard = if g.rng.gen_bool(0.4) { g.pick("bool", None) } else { None };
        let ty: &'static str = if g.rng.gen_bool(0.7) { t } else { t2 };
        let int = ty != "field";
        let signed = ty.starts_with('i');
        let choice = g.rng.gen_range(0..14);
        let (Some(a), Some(b)) = (g.pick(ty, guard), g.pick(ty, guard)) else {
            continue;
        };
        let b = if g.rng.gen_bool(0.2) { g.konst(ty) } else { b };
        match choice {
            0..=2 => {
                let op = ["add", "sub", "mul"][choice];
                g.push(json!({"op": op, "args": [a, b], "guard": guard, "loc": [1, choice]}), ty, guard);
            }
            3 if int && features.divmod => {
                let op = if g.rng.gen_bool(0.5) { "floordiv" } else { "mod" };
                g.push(json!({"op": op, "args": [a, b], "guard": guard, "loc": [2, 0]}), ty, guard);
            }
            4 if signed || ty == "field" => {
                g.push(json!({"op": "neg", "args": [a], "guard": guard}), ty, guard)
            }
            5 => {
                let op = if int { ["lt", "le", "gt", "ge", "eq", "ne"][g.rng.gen_range(0..6)] } else { "eq" };
                g.push(json!({"op": op, "args": [a, b], "guard": guard}), "bool", guard);
            }
            6 => {
                if let (Some(x), Some(y)) = (g.pick("bool", guard), g.pick("bool", guard)) {
                    let op = ["and", "or", "eq", "ne"][g.rng.gen_range(0..4)];
                    g.push(json!({"op": op, "args": [x, y]}), "bool", guard);
                    let z = g.next - 1;
                    g.push(json!({"op": "not", "args": [z]}), "bool", guard);
                }
            }
            7 => {
                // select merges a guarded value back to the enclosing scope
                if let Some(c) = guard {
                    if let Some(other) = g.pick(ty, None) {
                        g.push(json!({"op": "select", "args": [c, a, other]}), ty, None);
                    }
                } else if let Some(c) = g.pick("bool", None) {
                    g.push(json!({"op": "select", "args": [c, a, b]}), ty, None);
                }
            }
            8 => {
                let to: &'static str = if ty == t { t2 } else { t };
                if to != ty || to != "field" {
                    g.push(json!({"op": "cast", "args": [a], "guard": guard, "loc": [3, 0]}), to, guard);
                }
            }
            9 => {
                let op = if int { ["lt", "ne"][g.rng.gen_range(0..2)] } else { "ne" };
                g.push(json!({"op": op, "args": [a, b]}), "bool", guard);
                let c = g.next - 1;
                g.body
                    .push(json!({"op": "check", "args": [c], "guard": guard, "loc": [4, 0], "msg": "check"}));
            }
            10 if int => {
                if let Some(x) = g.pick("bool", guard) {
                    g.push(json!({"op": "cast", "args": [x], "guard": guard}), ty, guard);
                }
            }
            11 => {
                // a private lookup, sometimes a second one with the same index and count (the
                // next column of a table row: a shared selector)
                let ety: &'static str = if g.rng.gen_bool(0.2) { "bool" } else { ty };
                let idx = if g.rng.gen_bool(0.2) {
                    Some(g.konst(if int { ty } else { "u8" }))
                } else {
                    g.pick_int(guard)
                };
                let Some(mut idx) = idx else { continue };
                let n = g.rng.gen_range(1..=6);
                if features.divmod && ty.starts_with('u') && g.rng.gen_bool(0.4) {
                    // `a % n`: a private index that is always in range
                    g.push(json!({"op": "const", "value": n.to_string()}), ty, None);
                    let c = g.next - 1;
                    g.push(json!({"op": "mod", "args": [a, c], "guard": guard}), ty, guard);
                    idx = g.next - 1;
                }
                for _ in 0..if g.rng.gen_bool(0.3) { 2 } else { 1 } {
                    let mut args = vec![idx];
                    for _ in 0..n {
                        let x = if g.rng.gen_bool(0.2) { Some(g.konst(ety)) } else { g.pick(ety, guard) };
                        args.extend(x);
                    }
                    if args.len() == n + 1 {
                        g.push(
                            json!({"op": "index", "args": args, "guard": guard, "loc": [5, 0]}),
                            ety,
                            guard,
                        );
                    }
                }
            }
            12 => {
                // `sum(xs)` as the front end lowers it: `acc = acc + select(active, x, 0)` (or
                // `acc + x`), every add under the same guard. For unsigned types only the chain's
                // end is range-checked (deferred checks); a partial sum is sometimes used again,
                // which keeps its check.
                g.push(json!({"op": "const", "value": "0"}), ty, None);
                let zero = g.next - 1;
                let mut acc = a;
                for step in 0..g.rng.gen_range(2..7) {
                    // half the type's maximum sometimes: two such terms fit, three overflow
                    let x = match g.rng.gen_range(0..5) {
                        0 if ty.starts_with('u') => {
                            let half = ir::Ty::parse(ty).unwrap().range().unwrap().1 / 2;
                            g.push(json!({"op": "const", "value": half.to_string()}), ty, None);
                            Some(g.next - 1)
                        }
                        1 => Some(g.konst(ty)),
                        _ => g.pick(ty, guard),
                    };
                    let Some(x) = x else { break };
                    let active = if g.rng.gen_bool(0.5) { g.pick("bool", guard) } else { None };
                    let term = match active {
                        Some(c) => {
                            g.push(json!({"op": "select", "args": [c, x, zero]}), ty, guard);
                            g.next - 1
                        }
                        None => x,
                    };
                    if step > 0 && g.rng.gen_bool(0.8) {
                        g.vals.retain(|v| v.0 != acc); // a partial sum with a single use
                    }
                    g.push(
                        json!({"op": "add", "args": [acc, term], "guard": guard, "loc": [6, step]}),
                        ty,
                        guard,
                    );
                    acc = g.next - 1;
                }
            }
            _ => {}
        }
    }
    let outs: Vec<u64> = g.vals.iter().rev().filter(|v| v.2.is_none()).take(3).map(|v| v.0).collect();
    let doc = json!({
        "version": 1, "name": "gen", "source": {"file": "gen.py"},
        "inputs": inputs, "body": g.body,
        "outputs": outs.iter().enumerate().map(|(i, o)| json!({"name": format!("o{i}"), "value": o})).collect::<Vec<_>>(),
    });
    (doc.to_string(), values)
}
