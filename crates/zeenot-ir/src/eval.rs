//! The IR's meaning, evaluated directly: Python semantics with exact integers.
//!
//! This is what decides whether a proof can exist. The prover runs it before synthesis and stops
//! with an [`Unsatisfied`] error (carrying the source location) instead of building an
//! unsatisfiable witness. Values of instructions whose guard is false are unspecified by the IR;
//! here they are the zero of the type (division by 1), which is in range.

use crate::babyjub as native;
use crate::ir::{Inst, Op, Program, Ty, Value};
use ark_bn254::Fr;
use ark_ff::{One, Zero};
use std::fmt;

/// What made the program fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// An integer result outside its type's range.
    Overflow,
    /// A `check` whose condition is false.
    Check,
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// A field element cast to an integer type whose range does not contain it (Python's
    /// `RangeFailure`; an integer-to-integer cast out of range is an [`FailureKind::Overflow`]).
    Range,
    /// An `index` outside `[0, n)` for its `n` elements.
    Index,
}

impl FailureKind {
    /// A short stable name: `overflow`, `check`, `division_by_zero`, `range`, `index`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Overflow => "overflow",
            FailureKind::Check => "check",
            FailureKind::DivisionByZero => "division_by_zero",
            FailureKind::Range => "range",
            FailureKind::Index => "index",
        }
    }
}

/// The program fails on the given inputs, so no proof exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsatisfied {
    /// What failed.
    pub kind: FailureKind,
    /// The failing operation.
    pub op: &'static str,
    /// Instruction index.
    pub index: usize,
    /// `file:line:col` of the instruction (as precise as the IR allows).
    pub location: String,
    /// `(line, col)` of the instruction, when the IR has it (1-based line, 0-based col).
    pub loc: Option<(u32, u32)>,
    /// The `check` message, if any; for [`FailureKind::Index`], which index and how many
    /// elements (`index 7 out of range for 5 elements`).
    pub msg: Option<String>,
}

impl fmt::Display for Unsatisfied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FailureKind::Overflow => format!("overflow in `{}`", self.op),
            FailureKind::Check => "check failed".to_owned(),
            FailureKind::DivisionByZero => format!("division by zero in `{}`", self.op),
            FailureKind::Range => format!("range error in `{}` (field element outside the type)", self.op),
            // the message is the whole story: `index 7 out of range for 5 elements at app.py:3:4`
            FailureKind::Index => self.msg.clone().unwrap_or_else(|| "index out of range".to_owned()),
        };
        write!(f, "{what} at {}", self.location)?;
        if let (Some(m), false) = (&self.msg, self.kind == FailureKind::Index) {
            write!(f, ": {m}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Unsatisfied {}

/// Python's floor division and remainder (`b != 0`).
pub fn floor_divmod(a: i128, b: i128) -> (i128, i128) {
    let (mut q, mut r) = (a / b, a % b);
    if r != 0 && ((r < 0) != (b < 0)) {
        q -= 1;
        r += b;
    }
    (q, r)
}

fn int(v: Value) -> i128 {
    match v {
        Value::Int(i) => i,
        Value::Field(_) => unreachable!("validated: integer operand"),
    }
}

/// Why [`run`] has no outputs.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An input leaf is malformed, out of range, or of the wrong count.
    #[error("{0}")]
    Input(String),
    /// The program fails on these inputs.
    #[error(transparent)]
    Unsatisfied(#[from] Unsatisfied),
}

/// Evaluate the program on input leaves given as typed decimal strings (the boundary format);
/// returns the output leaves as typed decimal strings.
pub fn run(p: &Program, inputs: &[String]) -> Result<Vec<String>, RunError> {
    let values = p.parse_inputs(inputs).map_err(RunError::Input)?;
    let vals = evaluate(p, &values)?;
    Ok(outputs(p, &vals))
}

/// Evaluate the program; returns the value of every IR value (inputs first).
///
/// `inputs` must come from [`Program::parse_inputs`] (or pass [`Program::check_values`]): one
/// value of the right type per input leaf.
pub fn evaluate(p: &Program, inputs: &[Value]) -> Result<Vec<Value>, Unsatisfied> {
    let mut vals: Vec<Value> = Vec::with_capacity(p.types.len());
    vals.extend_from_slice(inputs);
    for (index, inst) in p.body.iter().enumerate() {
        let active = inst.guard.is_none_or(|g| vals[g] == Value::Int(1));
        let fail = |kind| Unsatisfied {
            kind,
            op: inst.op.name(),
            index,
            location: p.location(inst.loc),
            loc: inst.loc,
            msg: if kind == FailureKind::Index {
                let i = vals[inst.args[0]].to_decimal();
                Some(format!("index {i} out of range for {} elements", inst.args.len() - 1))
            } else {
                inst.msg.clone()
            },
        };
        let a = |k: usize| vals[inst.args[k]];
        let result = step(p, inst, &a, active).map_err(fail)?;
        if let Some(v) = result {
            vals.push(v);
        }
    }
    Ok(vals)
}

/// Evaluate as far as the known inputs allow: `None` inputs are not known yet (a region's
/// results from another region, docs/ir.md "Regions"), and so is every value computed from one.
/// Instructions whose operands are all known run as in [`evaluate`] (a failing one is an
/// error); those that read an unknown value are skipped, checks included: the full evaluation
/// that follows, once every input is known, runs them.
pub fn evaluate_partial(p: &Program, inputs: &[Option<Value>]) -> Result<Vec<Option<Value>>, Unsatisfied> {
    let mut vals: Vec<Option<Value>> = Vec::with_capacity(p.types.len());
    vals.extend_from_slice(inputs);
    for (index, inst) in p.body.iter().enumerate() {
        let known = inst.args.iter().chain(&inst.guard).all(|&a| vals[a].is_some());
        if !known {
            if inst.dst.is_some() {
                vals.push(None);
            }
            continue;
        }
        let active = inst.guard.is_none_or(|g| vals[g] == Some(Value::Int(1)));
        let a = |k: usize| vals[inst.args[k]].expect("known");
        let result = step(p, inst, &a, active).map_err(|kind| Unsatisfied {
            kind,
            op: inst.op.name(),
            index,
            location: p.location(inst.loc),
            loc: inst.loc,
            msg: inst.msg.clone(),
        })?;
        if let Some(v) = result {
            vals.push(Some(v));
        }
    }
    Ok(vals)
}

fn in_range(ty: Ty, v: Option<i128>) -> Result<Value, FailureKind> {
    let (lo, hi) = ty.range().expect("integer type");
    match v {
        Some(v) if v >= lo && v <= hi => Ok(Value::Int(v)),
        _ => Err(FailureKind::Overflow),
    }
}

/// One instruction's meaning: its result (`None` for `check`-like instructions) from its
/// arguments (`a(k)` is argument `k`'s value) and whether its guard holds. Back ends that
/// compute part of a program in the clear (the sigma back end's public values) call this so
/// that there is one definition of every operation.
pub fn step(
    p: &Program,
    inst: &Inst,
    a: &dyn Fn(usize) -> Value,
    active: bool,
) -> Result<Option<Value>, FailureKind> {
    let ty = inst.ty;
    let arg_ty = inst.args.first().map(|&i| p.types[i]);
    let field2 = |f: fn(Fr, Fr) -> Fr| Value::Field(f(a(0).to_fr(), a(1).to_fr()));
    let zero = || {
        if ty == Ty::Field {
            Value::Field(Fr::zero())
        } else {
            Value::Int(0)
        }
    };
    let b = |v: bool| Value::Int(i128::from(v));
    let v = match inst.op {
        Op::Const => inst.konst.expect("validated const"),
        Op::Add | Op::Sub | Op::Mul if ty == Ty::Field => match inst.op {
            Op::Add => field2(|x, y| x + y),
            Op::Sub => field2(|x, y| x - y),
            _ => field2(|x, y| x * y),
        },
        Op::Add | Op::Sub | Op::Mul | Op::Neg | Op::Cast if !active && ty != Ty::Field => zero(),
        Op::Add => in_range(ty, int(a(0)).checked_add(int(a(1))))?,
        Op::Sub => in_range(ty, int(a(0)).checked_sub(int(a(1))))?,
        Op::Mul => in_range(ty, int(a(0)).checked_mul(int(a(1))))?,
        Op::Neg if ty == Ty::Field => Value::Field(-a(0).to_fr()),
        Op::Neg => in_range(ty, int(a(0)).checked_neg())?,
        Op::FloorDiv | Op::Mod => {
            let x = int(a(0));
            let y = if active { int(a(1)) } else { 1 };
            if y == 0 {
                return Err(FailureKind::DivisionByZero);
            }
            let (q, r) = floor_divmod(x, y);
            in_range(ty, Some(if inst.op == Op::FloorDiv { q } else { r }))?
        }
        Op::Eq => b(a(0).to_fr() == a(1).to_fr()),
        Op::Ne => b(a(0).to_fr() != a(1).to_fr()),
        Op::Lt => b(int(a(0)) < int(a(1))),
        Op::Le => b(int(a(0)) <= int(a(1))),
        Op::Gt => b(int(a(0)) > int(a(1))),
        Op::Ge => b(int(a(0)) >= int(a(1))),
        Op::And => b(int(a(0)) == 1 && int(a(1)) == 1),
        Op::Or => b(int(a(0)) == 1 || int(a(1)) == 1),
        Op::Not => b(int(a(0)) == 0),
        Op::Select => {
            if int(a(0)) == 1 {
                a(1)
            } else {
                a(2)
            }
        }
        Op::Cast => match (arg_ty.expect("one argument"), ty) {
            (_, Ty::Field) => Value::Field(a(0).to_fr()),
            (Ty::Field, _) => {
                let f = a(0).to_fr();
                // The canonical representative must be a non-negative value in range.
                let v = crate::ir::fr_to_int(&f, Ty::Field).filter(|v| *v >= 0);
                in_range(ty, v).map_err(|_| FailureKind::Range)?
            }
            _ => in_range(ty, Some(int(a(0))))?,
        },
        Op::Poseidon => {
            let xs: Vec<Fr> = (0..inst.args.len()).map(|k| a(k).to_fr()).collect();
            Value::Field(zeenot_crypto::poseidon::poseidon(&xs).expect("1..=16 inputs, validated"))
        }
        Op::PointAddX | Op::PointAddY => {
            let p = (a(0).to_fr(), a(1).to_fr());
            let q = (a(2).to_fr(), a(3).to_fr());
            Value::Field(point_add_coordinate(p, q, inst.op == Op::PointAddX))
        }
        Op::PointMulX | Op::PointMulY => {
            // k·P for P in the prime-order subgroup: k read as its integer (a field element's
            // canonical representative), which acts modulo l
            let k = a(0).to_fr();
            let q = native::mul(&(a(1).to_fr(), a(2).to_fr()), &k);
            Value::Field(if inst.op == Op::PointMulX { q.0 } else { q.1 })
        }
        Op::EddsaCheck => {
            let x: Vec<Fr> = (0..6).map(|k| a(k).to_fr()).collect();
            if active && !eddsa_valid(&x) {
                return Err(FailureKind::Check);
            }
            return Ok(None);
        }
        Op::PointCheck => {
            let p = (a(0).to_fr(), a(1).to_fr());
            if !native::is_in_subgroup(&p) {
                return Err(FailureKind::Check);
            }
            return Ok(None);
        }
        Op::Index if !active => zero(),
        Op::Index => {
            let n = inst.args.len() - 1;
            match usize::try_from(int(a(0))) {
                Ok(i) if i < n => a(1 + i),
                _ => return Err(FailureKind::Index),
            }
        }
        Op::Check => {
            if active && int(a(0)) != 1 {
                return Err(FailureKind::Check);
            }
            return Ok(None);
        }
    };
    Ok(Some(v))
}

/// One coordinate (`x` if `want_x`) of the complete twisted Edwards sum of two Baby Jubjub
/// points (circomlib's model). Its denominators `1 ± d·x1x2y1y2` never vanish for points on the
/// curve; for other inputs (which the front end never produces) they may, and both coordinates
/// are then `0` here while the circuit has no witness. One inversion per coordinate, and none
/// when either point is the identity `(0, 1)`, for which the formula gives the other point
/// exactly (a list's padding is the identity).
fn point_add_coordinate(p: native::Affine, q: native::Affine, want_x: bool) -> Fr {
    use ark_ff::Field;
    let identity = native::identity();
    if q == identity || p == identity {
        let r = if q == identity { p } else { q };
        return if want_x { r.0 } else { r.1 };
    }
    let (a, d) = (Fr::from(native::COEFF_A), Fr::from(native::COEFF_D));
    let t = d * p.0 * q.0 * p.1 * q.1;
    let (dx, dy) = (Fr::one() + t, Fr::one() - t);
    if dx.is_zero() || dy.is_zero() {
        return Fr::zero();
    }
    if want_x {
        (p.0 * q.1 + p.1 * q.0) * dx.inverse().expect("non-zero")
    } else {
        (p.1 * q.1 - a * p.0 * q.0) * dy.inverse().expect("non-zero")
    }
}

/// Whether `(A, M, R8, S) = (x[0..2], x[2], x[3..5], x[5])` is a valid EdDSA-Poseidon signature
/// (zeenot-crypto's verifier: `A` a non-identity point of the subgroup, `R8` in the subgroup,
/// `S < l`, `S·B8 = R8 + 8·h·A`).
pub fn eddsa_valid(x: &[Fr]) -> bool {
    use ark_ff::{BigInteger, PrimeField};
    let (Ok(a), Ok(r8)) =
        (zeenot_crypto::Point::from_xy(x[0], x[1]), zeenot_crypto::Point::from_xy(x[3], x[4]))
    else {
        return false;
    };
    if x[5] >= native::subgroup_order() {
        return false;
    }
    let s = zeenot_crypto::Scalar::from_le_bytes_mod_order(&x[5].into_bigint().to_bytes_le());
    let Ok(key) = zeenot_crypto::VerifyingKey::from_point(a) else {
        return false;
    };
    key.verify(&x[2], &zeenot_crypto::Signature { r8, s }).is_ok()
}

/// Output values of an evaluation, as typed decimal strings.
pub fn outputs(p: &Program, vals: &[Value]) -> Vec<String> {
    p.outputs.iter().map(|&o| vals[o].to_decimal()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_evaluation_stops_at_unknown_values() {
        // a + 1 is known without b; a * b is not, and neither is the check on it
        let p = Program::from_json(
            r#"{"version":1,"name":"t","inputs":[{"id":0,"name":"a","ty":"u8","vis":"private"},
            {"id":1,"name":"b","ty":"u8","vis":"private"}],
            "body":[{"id":2,"op":"const","ty":"u8","value":"1"},
            {"id":3,"op":"add","ty":"u8","args":[0,2]},
            {"id":4,"op":"mul","ty":"u8","args":[0,1]},
            {"id":5,"op":"lt","ty":"bool","args":[2,4]},
            {"op":"check","args":[5]}],
            "outputs":[{"name":"x","value":3},{"name":"y","value":4}]}"#,
        );
        let Ok(p) = p else { panic!("valid IR: {:?}", p.err()) };
        let vals = evaluate_partial(&p, &[Some(Value::Int(4)), None]).expect("runs");
        assert_eq!(vals[3], Some(Value::Int(5)));
        assert_eq!(vals[4], None);
        // a known failure is still a failure
        assert!(evaluate_partial(&p, &[Some(Value::Int(255)), None]).is_err());
    }

    #[test]
    fn python_floor_semantics() {
        for a in -9i128..=9 {
            for b in [-4i128, -3, -1, 1, 2, 5] {
                let (q, r) = floor_divmod(a, b);
                assert_eq!(q * b + r, a);
                assert!(if b > 0 { (0..b).contains(&r) } else { (b + 1..=0).contains(&r) });
            }
        }
        assert_eq!(floor_divmod(-7, 2), (-4, 1));
        assert_eq!(floor_divmod(7, -2), (-4, -1));
        assert_eq!(floor_divmod(-7, -2), (3, -1));
    }
}

#[cfg(test)]
mod point_tests {
    use super::*;
    use ark_ff::{Field, UniformRand};
    use rand::SeedableRng;

    /// The sum as the formula defines it, both inversions taken.
    fn reference(p: native::Affine, q: native::Affine) -> native::Affine {
        let (a, d) = (Fr::from(native::COEFF_A), Fr::from(native::COEFF_D));
        let t = d * p.0 * q.0 * p.1 * q.1;
        match ((Fr::one() + t).inverse(), (Fr::one() - t).inverse()) {
            (Some(ix), Some(iy)) => ((p.0 * q.1 + p.1 * q.0) * ix, (p.1 * q.1 - a * p.0 * q.0) * iy),
            _ => (Fr::zero(), Fr::zero()),
        }
    }

    #[test]
    fn one_coordinate_at_a_time_is_the_sum() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let b = native::base8();
        let mut pairs = vec![(b, native::identity()), (native::identity(), b), (b, native::neg(&b))];
        pairs.extend((0..8).map(|_| {
            let k = Fr::rand(&mut rng);
            (native::mul(&b, &k), native::mul(&b, &Fr::rand(&mut rng)))
        }));
        // off the curve, and a pair whose x denominator vanishes: t = -1
        pairs.push(((Fr::from(2u64), Fr::from(3u64)), (Fr::from(5u64), Fr::from(7u64))));
        let d = Fr::from(native::COEFF_D);
        let x = -(d.inverse().unwrap());
        pairs.push(((x, Fr::one()), (Fr::one(), Fr::one())));
        for (p, q) in pairs {
            let want = reference(p, q);
            assert_eq!((point_add_coordinate(p, q, true), point_add_coordinate(p, q, false)), want);
        }
    }
}
