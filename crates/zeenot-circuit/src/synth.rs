//! Lowering IR v1 to R1CS.
//!
//! Instance variables follow the instance order of `docs/ir.md`: the public input leaves in
//! order; then `C.x`, `C.y` of each input commitment (one Pedersen commitment per run of
//! `joint` committed leaves); then per output its value, or `C.x`, `C.y` of its commitment where
//! one starts ([`lower_blinded`], "Committed values"). Private and committed input leaves are the
//! first witness variables, followed by the input commitments' blindings. Every integer input is range-checked, every
//! integer result that could leave its type's range is range-checked (with the guard applied
//! first, so an operation in an untaken branch cannot fail), and intervals propagated through
//! the program drop the checks that cannot fail; on a chain of unsigned additions (`sum(xs)`) only
//! the end of the chain is range-checked ([`chain_adds`]). See `docs/circuits.md` for the cost of
//! each op and why each encoding is sound.

use crate::gadgets::babyjub::pedersen::PedersenBases;
use crate::gadgets::babyjub::point::{self, PointWire};
use crate::gadgets::babyjub::poseidon;
use crate::gadgets::babyjub::{eddsa, fixed_base, scalar_bits, variable_base, SCALAR_BITS};
use crate::gadgets::{bits, cmp, divmod, eq, fr, lookup, select, AtTau, Builder, Evaluations, Wire};
use crate::ir::{self, Inst, Op, Program, Ty, Value, Visibility};
use ark_bn254::Fr;
use ark_ff::{BigInteger, Field, One, PrimeField, Zero};
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystemRef, LinearCombination, SynthesisError};
use std::collections::HashMap;
use zeenot_crypto::Scalar;

/// `index` selectors by (index value, element count, effective guard): lookups of several fields
/// of one record, or columns of one table row, share a selector.
/// Lowerings shared between instructions: one-hot selectors of `index` by (index, n, guard),
/// and Baby Jubjub sums by their four coordinates (`point_add_x` and `point_add_y` of the same
/// points are one addition).
#[derive(Default)]
struct Selectors {
    lookups: HashMap<(usize, usize, Option<usize>), lookup::Selector>,
    points: HashMap<[usize; 4], PointWire>,
    products: HashMap<[usize; 3], PointWire>,
    /// A field scalar's bits `s`, which the multiplications offset (`(s + 2^(n−1))·P`, `n` bits):
    /// the canonical bits of `k + c` for a field value `k`, or a scalar-only input's 251.
    scalar_bits: HashMap<usize, Vec<Wire>>,
}

/// A program as a circuit, with input values and blindings when proving (`None` during setup).
pub struct ProgramCircuit<'a> {
    /// The program.
    pub program: &'a Program,
    /// Input leaf values, in input order.
    pub inputs: Option<&'a [Value]>,
    /// Blindings of the Pedersen commitments: one per committed input (input order), then one
    /// per committed output (output order). See [`lower_blinded`].
    pub blindings: Option<&'a [Scalar]>,
}

impl ConstraintSynthesizer<Fr> for ProgramCircuit<'_> {
    fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
        lower_blinded(self.program, self.inputs, self.blindings, cs).map(|_| ())
    }
}

fn raw_interval(op: Op, a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> Option<(i128, i128)> {
    let (al, ah) = a?;
    match op {
        Op::Neg => Some((ah.checked_neg()?, al.checked_neg()?)),
        _ => {
            let (bl, bh) = b?;
            match op {
                Op::Add => Some((al.checked_add(bl)?, ah.checked_add(bh)?)),
                Op::Sub => Some((al.checked_sub(bh)?, ah.checked_sub(bl)?)),
                Op::Mul => {
                    let c =
                        [al.checked_mul(bl)?, al.checked_mul(bh)?, ah.checked_mul(bl)?, ah.checked_mul(bh)?];
                    Some((*c.iter().min()?, *c.iter().max()?))
                }
                _ => None,
            }
        }
    }
}

/// Bring `raw` into `ty`'s range: free when its interval already fits, otherwise gate it by the
/// guard (so an untaken branch yields 0) and range-check it.
fn fit(
    b: &Builder,
    raw: Wire,
    ty: Ty,
    guard: Option<&Wire>,
    from_field: bool,
) -> Result<Wire, SynthesisError> {
    let (lo, hi) = ty.range().expect("integer type");
    if let Some((rl, rh)) = raw.range {
        if !from_field && rl >= lo && rh <= hi {
            return Ok(raw);
        }
    }
    let w = match guard {
        Some(g) => select::gate(b, g, &raw)?,
        None => raw,
    };
    // When the interval shows that only one bound can be crossed, prove just that bound, with as
    // many bits as the interval needs: `w - lo ∈ [0, 2^k)` with `2^k > rh - lo` proves `w ≥ lo`
    // because `w`'s integer value lies in `[rl, rh]`, far from p/2 (a negative value would be a
    // huge field element). Symmetrically for the upper bound.
    if let (false, Some((rl, rh))) = (from_field, w.range) {
        if rh <= hi {
            bits::enforce_range(b, &w.affine(Fr::one(), -fr(lo)), bit_len(rh - lo))?;
            return Ok(w.with_range(Some((lo, rh))));
        }
        if rl >= lo {
            bits::enforce_range(b, &w.affine(-Fr::one(), fr(hi)), bit_len(hi - rl))?;
            return Ok(w.with_range(Some((rl, hi))));
        }
    }
    match ty {
        Ty::U(n) => bits::enforce_range(b, &w, n)?,
        // a field element read as a signed integer must be a non-negative one in range
        Ty::I(n) if from_field => bits::enforce_range(b, &w, n - 1)?,
        Ty::I(n) => bits::enforce_interval(b, &w, lo, n)?,
        _ => unreachable!("integer type"),
    }
    let range = if from_field { (0, hi) } else { (lo, hi) };
    Ok(w.with_range(Some(range)))
}

/// Bits needed to write every integer in `[0, x]` (at least 1).
fn bit_len(x: i128) -> u32 {
    (128 - (x.max(1) as u128).leading_zeros()).max(1)
}

/// After an unguarded `check(a OP k)` with a constant `k`, every satisfying assignment has `a` in
/// the narrower interval: later comparisons and range checks on `a` get cheaper. Sound because the
/// check is enforced (`c = 1`) and the comparison is exact under the range invariant.
fn narrow_after_check(defs: &[Option<&Inst>], inst: &Inst, w: &mut [Wire]) {
    let Some(&c) = inst.args.first() else { return };
    let Some(def) = defs.get(c).copied().flatten() else { return };
    if !matches!(def.op, Op::Lt | Op::Le | Op::Gt | Op::Ge) {
        return;
    }
    let (x, y) = (def.args[0], def.args[1]);
    let konst =
        |i: usize| w[i].range.filter(|(l, h)| l == h).map(|(l, _)| l).filter(|_| w[i].konst.is_some());
    // normalise to `var OP const`
    let (var, op, k) = match (konst(x), konst(y)) {
        (None, Some(k)) => (x, def.op, k),
        (Some(k), None) => {
            let flipped = match def.op {
                Op::Lt => Op::Gt,
                Op::Le => Op::Ge,
                Op::Gt => Op::Lt,
                _ => Op::Le,
            };
            (y, flipped, k)
        }
        _ => return,
    };
    let Some((lo, hi)) = w[var].range else { return };
    let (lo, hi) = match op {
        Op::Lt => (lo, hi.min(k - 1)),
        Op::Le => (lo, hi.min(k)),
        Op::Gt => (lo.max(k + 1), hi),
        _ => (lo.max(k), hi),
    };
    if lo <= hi {
        w[var].range = Some((lo, hi));
    }
}

/// Which values are equalities (`eq`) read by nothing but `check`s: not an output, not a
/// guard, no other instruction's argument. `check(a == b)` then needs no equality gadget (an
/// inverse witness and three constraints): the `eq` is lowered to the difference `a - b` and
/// each `check` of it to one constraint `guard · (a - b) = 0` (`(a - b) · 1 = 0` unguarded),
/// which holds exactly when the guard is off or `a = b`, as the check requires.
fn checked_equalities(p: &Program) -> Vec<bool> {
    let mut eq = vec![false; p.types.len()];
    for inst in &p.body {
        if let (Op::Eq, Some(d)) = (inst.op, inst.dst) {
            eq[d] = true;
        }
    }
    for inst in &p.body {
        if inst.op != Op::Check {
            for &a in &inst.args {
                eq[a] = false;
            }
        }
        if let Some(g) = inst.guard {
            eq[g] = false;
        }
    }
    for &o in &p.outputs {
        eq[o] = false;
    }
    eq
}

/// `guard · d = 0` (`d = 0` without a guard, or under a guard that is the constant 1): one
/// constraint, none for a constant `d` of zero or a constant-off guard.
fn enforce_zero(b: &Builder, d: &Wire, guard: Option<&Wire>) -> Result<(), SynthesisError> {
    let guard = guard.filter(|g| g.konst != Some(Fr::one()));
    if d.konst == Some(Fr::zero()) || guard.is_some_and(|g| g.konst == Some(Fr::zero())) {
        return Ok(());
    }
    let one = ark_relations::lc!() + ark_relations::r1cs::Variable::One;
    let g = guard.map_or(one, |g| g.lc.clone());
    b.enforce(g, d.lc.clone(), ark_relations::lc!())
}

/// The last instruction that reads each value's linear combination (`usize::MAX` for the
/// outputs, read after the body): its arguments and guard, and for a deferred `add`
/// ([`chain_adds`]) also its guard where its user settles it.
fn last_uses(p: &Program, chain: &[bool]) -> Vec<usize> {
    let mut last = vec![0usize; p.types.len()];
    for (k, inst) in p.body.iter().enumerate() {
        for &a in inst.args.iter().chain(&inst.guard) {
            last[a] = k;
        }
    }
    for inst in &p.body {
        if let (Some(d), Some(g)) = (inst.dst, inst.guard) {
            if chain[d] {
                last[g] = last[g].max(last[d]);
            }
        }
    }
    for &o in &p.outputs {
        last[o] = usize::MAX;
    }
    last
}

/// Which inputs are *scalar-only*: private `field` inputs read only as the scalar of point
/// multiplications (`point_mul_x`, `point_mul_y`; an encryption's randomness, a secret key),
/// by at least one, and by nothing else: no other instruction's argument, no guard, no output.
///
/// Such an input enters the circuit as 251 bits `s` that the multiplications read as
/// `(s + 2^250)·P`, as the encryption gadget takes its randomness, instead of as a field
/// element with the canonical decomposition a field scalar otherwise needs (387 constraints
/// more): the language's `encrypt` then costs what the gadget costs. The bits are the input
/// (the mutation checker and `zeenot check` treat them as such: [`Roles`]). Sound because
/// nothing else reads the input: any bits make every product `(s + 2^250)·P`, which is what
/// the program computes for the private input `(s + 2^250) mod l` (a field element); the
/// prover's own `x` gives `s = (x − 2^250) mod l`, and `x·P` is the same point for `P` in the
/// prime-order subgroup (the only points `point_mul` takes, docs/ir.md). See docs/circuits.md,
/// "Scalar-only inputs".
pub fn scalar_only_inputs(p: &Program) -> Vec<bool> {
    let mut only: Vec<bool> =
        p.inputs.iter().map(|i| i.vis == Visibility::Private && i.ty == Ty::Field).collect();
    let mut multiplied = vec![false; only.len()];
    let n = only.len();
    let input = |v: usize| (v < n).then_some(v);
    for inst in &p.body {
        let scalar = matches!(inst.op, Op::PointMulX | Op::PointMulY);
        for (pos, &a) in inst.args.iter().enumerate() {
            if let Some(i) = input(a) {
                if scalar && pos == 0 {
                    multiplied[i] = true;
                } else {
                    only[i] = false;
                }
            }
        }
        if let Some(i) = inst.guard.and_then(input) {
            only[i] = false;
        }
    }
    for &o in &p.outputs {
        if let Some(i) = input(o) {
            only[i] = false;
        }
    }
    only.iter().zip(&multiplied).map(|(&o, &m)| o && m).collect()
}

/// Which values are unsigned `add`s whose own range check is *deferred* to their only user: the
/// structural part of the rule (indexed by value id; inputs and other instructions are `false`).
///
/// `r = add(a, b)` of an unsigned type `T` qualifies when `r` has exactly one use — counting every
/// argument of every instruction, every `guard` and every output — and that use is an argument of
/// an `add` `r2 = r + c` of the same type `T` with the same `guard` (both `None` or the same id).
/// The lowering then leaves `r` as the exact sum `a + b` (no gate, no range check, an interval not
/// clamped to `T`) provided both operands' intervals are non-negative, and `r2`'s check covers it:
/// with `c ≥ 0`, `0 ≤ r ≤ r2 ≤ 2^n − 1` in every satisfying assignment, by induction along the
/// chain to its last `add`, which is checked as usual (it has another use, or a user of another
/// kind). A deferred value only ever flows into such an `add`, never into a comparison, division,
/// `select`, `cast`, `index`, `check` or output, so every operation that relies on the range
/// invariant (`docs/ir.md`) still sees in-range operands. A mixed guard would be unsound (an
/// unguarded `r` that overflows, feeding `r2 = g·(r + c)` with `g = 0`), hence the same-guard rule.
/// See `docs/circuits.md`, "Why each encoding is sound", "Deferred range checks on unsigned sums".
pub fn chain_adds(p: &Program) -> Vec<bool> {
    let n = p.types.len();
    let mut uses = vec![0usize; n];
    // the instruction that used the value last (meaningful when `uses == 1`; `None`: an output)
    let mut user: Vec<Option<usize>> = vec![None; n];
    for (k, inst) in p.body.iter().enumerate() {
        for &a in inst.args.iter().chain(&inst.guard) {
            uses[a] += 1;
            user[a] = Some(k);
        }
    }
    for &o in &p.outputs {
        uses[o] += 1;
        user[o] = None;
    }
    let mut defer = vec![false; n];
    for inst in &p.body {
        let (Op::Add, Ty::U(_), Some(d)) = (inst.op, inst.ty, inst.dst) else { continue };
        let Some(u) = user[d].filter(|_| uses[d] == 1).map(|k| &p.body[k]) else { continue };
        defer[d] = u.op == Op::Add && u.ty == inst.ty && u.guard == inst.guard;
    }
    defer
}

/// `a + b` for a deferred chain `add` (see [`chain_adds`]), when the value-level conditions hold:
/// both operands' intervals are known and non-negative, and the exact sum's interval is
/// representable (`i128`: below `2^127`, far below p, so the field sum is the integer sum). `None`
/// when the add must be lowered (and checked) as usual, or when its interval already fits the type
/// (then nothing is skipped and the usual lowering returns the same wire).
fn unchecked_sum(inst: &Inst, w: &[Wire]) -> Option<Wire> {
    let (a, b) = (&w[inst.args[0]], &w[inst.args[1]]);
    let non_negative = |x: &Wire| x.range.is_some_and(|(lo, _)| lo >= 0);
    if !(non_negative(a) && non_negative(b)) {
        return None;
    }
    let range = raw_interval(Op::Add, a.range, b.range)?;
    let (_, hi) = inst.ty.range()?;
    (range.1 > hi).then(|| a.add_scaled(Fr::one(), b).with_range(Some(range)))
}

/// Before `inst` runs: a deferred (unchecked) argument may only be consumed as `r` in `r + c` of
/// its own type and guard with `c ≥ 0` (that `add`'s check then covers it). [`chain_adds`] makes
/// that the only use; should `c`'s interval not be known non-negative, the deferred value gets its
/// own check here (gated by its guard) as if it had never been deferred.
fn settle_deferred(
    b: &Builder,
    defs: &[Option<&Inst>],
    inst: &Inst,
    w: &mut [Wire],
    pending: &mut [bool],
) -> Result<(), SynthesisError> {
    for (k, &a) in inst.args.iter().enumerate() {
        if !pending[a] {
            continue;
        }
        let def = defs[a].expect("a deferred value is an instruction's");
        let other = (inst.args.len() == 2).then(|| inst.args[1 - k]);
        let covered = inst.op == Op::Add
            && inst.ty == def.ty
            && inst.guard == def.guard
            && other.is_some_and(|c| c != a && w[c].range.is_some_and(|(lo, _)| lo >= 0));
        if !covered {
            let guard = def.guard.map(|g| w[g].clone()).filter(|g| g.konst != Some(Fr::one()));
            w[a] = fit(b, w[a].clone(), def.ty, guard.as_ref(), false)?;
        }
        pending[a] = false;
    }
    Ok(())
}

/// Lower the program into `cs`; returns the output wires. For programs without committed
/// values: [`lower_blinded`] with no blindings.
pub fn lower(
    p: &Program,
    inputs: Option<&[Value]>,
    cs: ConstraintSystemRef<Fr>,
) -> Result<Vec<Wire>, SynthesisError> {
    lower_blinded(p, inputs, None, cs)
}

/// A Baby Jubjub scalar (in `[0, l)`, `l < p`) as the field element of the same integer: what a
/// fixed-base multiplication reads as its scalar (so `ir::value_scalar(-1)` gives `l − 1`, not
/// the field's `p − 1`).
fn scalar_fr(s: &Scalar) -> Fr {
    Fr::from_le_bytes_mod_order(&s.into_bigint().to_bytes_le())
}

/// The Pedersen commitment of `docs/ir.md` ("Committed values") of one committed value's
/// leaves: `v·G + r·H` for one leaf, `Σ v_i·G_i + r·H` for more ([`ir::commit_values`]). Each
/// leaf is given by little-endian boolean wires over an offset `lo` (booleanity is the
/// caller's) or by a constant. `r` is decomposed here into 251 bits.
///
/// Cost: 252 (`r`'s bits) + 379 (`r·H`), once per commitment; per leaf the fixed-base
/// multiplication of its bits (49 for 32 bits, 97 for 64, 0 for one bit; none for a constant)
/// and 6 for the sum (3 with a constant value, 0 when it is 0). So a tuple of `k` values
/// committed together saves `(k − 1)·633` constraints over `k` commitments (the blinding's
/// bits and multiple, and the equality with `C`).
fn pedersen_commit(
    b: &Builder,
    bases: &PedersenBases,
    values: Vec<ValueBits>,
    r: &Wire,
) -> Result<PointWire, SynthesisError> {
    let r_bits = scalar_bits(b, r, SCALAR_BITS)?;
    let mut acc = fixed_base::mul(b, bases.h(), &r_bits)?;
    let gs: Vec<&fixed_base::FixedBase> = match values.len() {
        1 => vec![bases.g()],
        _ => bases.vector_generators().iter().collect(),
    };
    for (value, g) in values.into_iter().zip(gs) {
        let term = match value {
            ValueBits::Const(v) => {
                PointWire::constant(point::native::mul(&g.base(), &scalar_fr(&ir::value_scalar(v))))
            }
            // `mul_plus` adds `e·G` for the integer `e`: `lo mod l`, so a negative offset counts
            // modulo the group order (the field element of `lo` would be `p + lo`, a different
            // multiple of `G`)
            ValueBits::Bits(bits, lo) => fixed_base::mul_plus(b, g, &bits, scalar_fr(&ir::value_scalar(lo)))?,
        };
        acc = point::add(b, &term, &acc)?;
    }
    Ok(acc)
}

/// A scalar-only input's bits ([`scalar_only_inputs`]): 251 boolean witnesses holding
/// `s = (x − 2^250) mod l`, so that the offset multiplications' `(s + 2^250)·P` is `x·P` for
/// `P` in the subgroup (as the encryption gadget's randomness), recorded as the input in
/// `roles`.
fn scalar_input_bits(b: &Builder, x: Option<Fr>, roles: &mut Roles) -> Result<Vec<Wire>, SynthesisError> {
    let offset = Scalar::from(2u64).pow([u64::from(SCALAR_BITS) - 1]);
    let reduced =
        x.map(|x| (Scalar::from_le_bytes_mod_order(&x.into_bigint().to_bytes_le()) - offset).into_bigint());
    (0..SCALAR_BITS as usize)
        .map(|k| {
            let bit = reduced.map(|r| r.get_bit(k));
            let wire = b.boolean(bit)?;
            if let Some(v) = wire.lc.0.first().map(|t| t.1) {
                roles.input_witnesses.push(witness_index(v));
            }
            Ok(wire)
        })
        .collect()
}

/// Two instance variables holding a point (a commitment; constrained by the caller).
fn input_point(b: &Builder, c: Option<point::native::Affine>) -> Result<PointWire, SynthesisError> {
    let x = b.input(c.map(|c| c.0))?;
    let y = b.input(c.map(|c| c.1))?;
    Ok(PointWire { x: Wire::var(x, c.map(|c| c.0), None), y: Wire::var(y, c.map(|c| c.1), None) })
}

/// A committed value as the fixed-base multiplication takes it.
enum ValueBits {
    /// `lo + Σ 2^i·bits_i`: boolean wires and the offset.
    Bits(Vec<Wire>, i128),
    /// A circuit constant.
    Const(i128),
}

/// The bits of a committed output `w` of type `ty`: of `w − lo` over `w`'s interval `[lo, hi]`
/// (`⌈log2(hi − lo + 1)⌉` bits, `+1` constraint; the interval is an invariant of the lowering,
/// so honest values always pass, and the decomposition itself proves that `w`'s field value
/// is the integer `lo + Σ 2^i·b_i`); a bool is its own bit (booleanity is an invariant of
/// every bool wire, as `and`/`or` rely on).
fn output_bits(b: &Builder, w: &Wire, ty: Ty) -> Result<ValueBits, SynthesisError> {
    if let Some(k) = w.konst {
        return ir::fr_to_int(&k, ty).map(ValueBits::Const).ok_or(SynthesisError::Unsatisfiable);
    }
    if ty == Ty::Bool {
        return Ok(ValueBits::Bits(vec![w.clone()], 0));
    }
    let (lo, hi) = w.range.or(ty.range()).ok_or(SynthesisError::Unsatisfiable)?;
    let bits = bits::to_bits(b, &w.affine(Fr::one(), -fr(lo)), bit_len(hi - lo))?;
    Ok(ValueBits::Bits(bits, lo))
}

/// Lower the program into `cs` with the blindings of its committed values (`None` during setup,
/// or for a program without any): one per input commitment in input order, then one per
/// output commitment in output order. Returns the output wires (for a committed output, the
/// value's wire; the instance holds its commitment).
///
/// # Committed values
///
/// A committed input is a private witness `v` (range-checked as a private input of its type);
/// each input commitment (one leaf, or a run of `joint` leaves) is a witness blinding `r` and
/// two instance variables `C = (x, y)`, allocated after every public input leaf; the circuit
/// enforces `C = v·G + r·H` ([`pedersen_commit`], `G` = Base8 and `H` = zeenot's Pedersen `H`,
/// the generators of [`ir::commit_value`]), or `C = Σ v_i·G_i + r·H` for a run
/// ([`ir::commit_values`]). An output commitment is a witness blinding `r` and two instance
/// variables constrained equal to the commitment of its outputs' values. The argument below
/// holds leaf by leaf for a vector: two openings of one `C` that differ in any leaf give a
/// discrete-log relation among the hashed generators `G_0 … G_{k−1}, H`.
///
/// Why a proof binds `C` to `v` (the integer, not just something congruent to it):
///
/// * `v`'s bits are those of its range check (`v − lo` for `v ∈ [lo, hi]`, a unique
///   decomposition as `2^n < p`), so the committed scalar is the integer `v` read modulo `l`
///   (the offset `lo` enters as `lo mod l`); distinct integers of one type differ by less than
///   `2^64 < l`, so they are distinct modulo `l`.
/// * `r` is decomposed into 251 bits (`scalar_bits`): any integer in `[0, 2^251)`, acting as
///   `r mod l`. The decomposition is not canonical modulo `l` (`r` and `r + l < 2^251` give the
///   same point), and need not be: both are openings with the same `r mod l`, a choice the
///   prover has anyway. Every other witness (window lookups, Montgomery sums, the complete
///   additions) is a function of the bits (see [`fixed_base`], [`point::add`]).
/// * So a satisfying assignment exhibits `(v, r)` with `C = v·G + r·H`. Opening the same `C` to
///   another value `v' ≠ v` with some `r'` would give `(v − v')·G = (r' − r)·H` with
///   `v − v' ≢ 0 (mod l)`, i.e. the discrete logarithm of `H` to the base `G`, unknown since `H`
///   is hashed to the curve (computational binding). A `C` off the curve or outside the
///   prime-order subgroup has no opening at all; verifiers reject such public values before
///   the pairing check (`groth16::instance`).
pub fn lower_blinded(
    p: &Program,
    inputs: Option<&[Value]>,
    blindings: Option<&[Scalar]>,
    cs: ConstraintSystemRef<Fr>,
) -> Result<Vec<Wire>, SynthesisError> {
    lower_with_roles(p, inputs, blindings, cs, &mut Roles::default())
}

/// Which witness variables are the program's inputs: the private and committed input leaves,
/// and the Pedersen blindings (committed inputs' and outputs'), which the prover also chooses.
/// Everything else is computed from them (what `zeenot check` proves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roles {
    /// Witness indices of the private and committed input leaves, in input order.
    pub input_witnesses: Vec<usize>,
    /// Witness indices of the blindings: committed inputs', then committed outputs'.
    pub blinding_witnesses: Vec<usize>,
}

fn witness_index(v: ark_relations::r1cs::Variable) -> usize {
    match v {
        ark_relations::r1cs::Variable::Witness(j) => j,
        other => unreachable!("a fresh witness is a witness variable, not {other:?}"),
    }
}

/// [`lower_blinded`], recording in `roles` where the inputs and blindings are.
pub fn lower_with_roles(
    p: &Program,
    inputs: Option<&[Value]>,
    blindings: Option<&[Scalar]>,
    cs: ConstraintSystemRef<Fr>,
    roles: &mut Roles,
) -> Result<Vec<Wire>, SynthesisError> {
    lower_into(p, inputs, blindings, &Builder::new(cs), roles)
}

/// The prover's lowering: assigns every variable of `cs` (which should not construct matrices)
/// and returns each constraint's sides evaluated at the assignment instead of the constraints
/// themselves (see [`Evaluations`]): a proof needs nothing more of the constraint system.
pub fn lower_evaluated(
    p: &Program,
    inputs: &[Value],
    blindings: &[Scalar],
    cs: ConstraintSystemRef<Fr>,
) -> Result<Evaluations, SynthesisError> {
    let (b, evaluations) = Builder::evaluating(cs);
    lower_into(p, Some(inputs), Some(blindings), &b, &mut Roles::default())?;
    Ok(evaluations.take())
}

/// Lowers `p` into `cs` counting its constraints instead of keeping them: with `values` (the
/// inputs and blindings; `cs` in prove mode) `cs` gets its assignment, without them only its
/// variables. Returns the constraint count.
pub fn count_into(
    p: &Program,
    values: Option<(&[Value], &[Scalar])>,
    cs: ConstraintSystemRef<Fr>,
) -> Result<usize, SynthesisError> {
    let (b, constraints) = Builder::counting(cs);
    lower_into(p, values.map(|v| v.0), values.map(|v| v.1), &b, &mut Roles::default())?;
    Ok(constraints.get())
}

/// Lowers `p` (no inputs: setup's) accumulating its constraints at setup's secret point into
/// `at` instead of keeping them (see [`AtTau`]).
pub fn lower_at_tau(p: &Program, at: AtTau) -> Result<AtTau, SynthesisError> {
    let cs = ark_relations::r1cs::ConstraintSystem::<Fr>::new_ref();
    cs.set_mode(ark_relations::r1cs::SynthesisMode::Setup);
    let (b, at) = Builder::at_tau(cs, at);
    lower_into(p, None, None, &b, &mut Roles::default())?;
    drop(b);
    std::rc::Rc::try_unwrap(at).map(|cell| cell.into_inner()).map_err(|_| SynthesisError::MissingCS)
}

/// The program's size as setup would build it, without holding its constraints: constraints,
/// instance variables (the constant `1` included) and witness variables.
pub fn count(p: &Program) -> Result<(usize, usize, usize), SynthesisError> {
    let cs = ark_relations::r1cs::ConstraintSystem::<Fr>::new_ref();
    cs.set_mode(ark_relations::r1cs::SynthesisMode::Setup);
    let constraints = count_into(p, None, cs.clone())?;
    Ok((constraints, cs.num_instance_variables(), cs.num_witness_variables()))
}

fn lower_into(
    p: &Program,
    inputs: Option<&[Value]>,
    blindings: Option<&[Scalar]>,
    builder: &Builder,
    roles: &mut Roles,
) -> Result<Vec<Wire>, SynthesisError> {
    let b = builder.clone(); // a handle (the constraint system and evaluations are shared)
    let mut w: Vec<Wire> = Vec::with_capacity(p.types.len());
    let mut selectors = Selectors::default();
    let scalar_only = scalar_only_inputs(p);
    // Allocate every input before any range-check bit, so that private (and committed) inputs
    // are the first witness variables; `roles` records which (a scalar-only input is 251).
    for (i, inp) in p.inputs.iter().enumerate() {
        let value = inputs.map(|v| v[i].to_fr());
        if scalar_only[i] {
            let bits = scalar_input_bits(&b, value, roles)?;
            // no wire reads the input (scalar-only): its products read `scalar_bits`
            w.push(Wire { lc: LinearCombination::zero(), value: None, konst: None, range: None });
            selectors.scalar_bits.insert(i, bits);
            continue;
        }
        let var = match inp.vis {
            Visibility::Public => b.input(value)?,
            Visibility::Private | Visibility::Committed => {
                let v = b.witness(value)?;
                roles.input_witnesses.push(witness_index(v));
                v
            }
        };
        w.push(Wire::var(var, value, inp.ty.range()));
    }
    let committed = p.input_commitments();
    let committed_outputs = p.output_commitments();
    let widest = committed.iter().chain(&committed_outputs).map(Vec::len).max();
    // vector generators only for commitments of several leaves (one leaf commits with `G`)
    let bases = widest.map(|n| PedersenBases::new(if n > 1 { n } else { 0 }));
    let blinding = |k: usize| blindings.and_then(|r| r.get(k));
    // the input commitments' blindings, then the commitments: instance variables after every
    // public input leaf
    let mut openings = Vec::with_capacity(committed.len());
    for k in 0..committed.len() {
        let rv = blinding(k).map(scalar_fr);
        let r = b.witness(rv)?;
        roles.blinding_witnesses.push(witness_index(r));
        openings.push(Wire::var(r, rv, None));
    }
    let mut commitments = Vec::with_capacity(committed.len());
    for (k, leaves) in committed.iter().enumerate() {
        let ints: Option<Vec<i128>> = inputs.and_then(|v| {
            leaves
                .iter()
                .map(|&i| match v[i] {
                    Value::Int(v) => Some(v),
                    Value::Field(_) => None,
                })
                .collect()
        });
        let c = ints.zip(blinding(k)).map(|(vs, r)| ir::commit_values(&vs, r).xy());
        commitments.push(input_point(&b, c)?);
    }
    // range checks; a committed input keeps the bits of its check for its commitment
    let mut value_bits: Vec<Option<ValueBits>> = Vec::with_capacity(p.inputs.len());
    for (wire, inp) in w.iter().zip(&p.inputs) {
        let bits = match inp.ty {
            Ty::Field => None,
            Ty::Bool => {
                b.enforce(
                    wire.lc.clone(),
                    wire.lc.clone() - (Fr::one(), ark_relations::r1cs::Variable::One),
                    ark_relations::lc!(),
                )?;
                Some(ValueBits::Bits(vec![wire.clone()], 0))
            }
            Ty::U(n) => Some(ValueBits::Bits(bits::to_bits(&b, wire, n)?, 0)),
            Ty::I(n) => {
                let lo = -(1i128 << (n - 1));
                Some(ValueBits::Bits(bits::to_bits(&b, &wire.affine(Fr::one(), -fr(lo)), n)?, lo))
            }
        };
        value_bits.push(bits.filter(|_| inp.vis == Visibility::Committed));
    }
    for ((leaves, r), c) in committed.iter().zip(&openings).zip(&commitments) {
        let bases = bases.as_ref().expect("bases exist when a value is committed");
        let vs = leaves.iter().map(|&i| value_bits[i].take()).collect::<Option<Vec<_>>>();
        let d = pedersen_commit(&b, bases, vs.ok_or(SynthesisError::Unsatisfiable)?, r)?;
        point::enforce_equal(&b, c, &d)?;
    }
    let mut defs: Vec<Option<&Inst>> = vec![None; p.types.len()];
    for inst in &p.body {
        if let Some(d) = inst.dst {
            defs[d] = Some(inst);
        }
    }
    let chain = chain_adds(p);
    let last_use = last_uses(p, &chain);
    let checked_eq = checked_equalities(p);
    // values lowered without their range check whose (only) user has not been lowered yet
    let mut pending = vec![false; p.types.len()];
    for (k, inst) in p.body.iter().enumerate() {
        settle_deferred(&b, &defs, inst, &mut w, &mut pending)?;
        let deferred = inst.dst.filter(|&d| chain[d]).and_then(|_| unchecked_sum(inst, &w));
        let out = match deferred {
            Some(sum) => {
                pending[inst.dst.expect("deferred add defines a value")] = true;
                Some(sum)
            }
            None if inst.op == Op::Eq && inst.dst.is_some_and(|d| checked_eq[d]) => {
                // read only by `check`s: the difference stands for it (see `checked_equalities`)
                Some(w[inst.args[0]].add_scaled(-Fr::one(), &w[inst.args[1]]))
            }
            None if inst.op == Op::Check && checked_eq[inst.args[0]] => {
                enforce_zero(&b, &w[inst.args[0]], inst.guard.map(|g| &w[g]))?;
                None
            }
            None => lower_inst(&b, p, inst, &w, &mut selectors)?,
        };
        if let Some(out) = out {
            w.push(out);
        }
        let unguarded = inst.guard.is_none_or(|g| w[g].konst == Some(Fr::one()));
        if inst.op == Op::Check && unguarded {
            narrow_after_check(&defs, inst, &mut w);
        }
        // A value no later instruction reads lets its linear combination go (its interval and
        // value stay, for `narrow_after_check`): a sum built by free additions grows one term
        // per step, and keeping every step's copy would hold quadratic memory.
        for &a in inst.args.iter().chain(&inst.guard) {
            if last_use[a] == k {
                w[a].lc = LinearCombination::zero();
            }
        }
    }
    // every deferred value was consumed by the `add` whose check covers it (`chain_adds`)
    debug_assert!(!pending.contains(&true), "a deferred add was never covered");
    let mut outs = Vec::with_capacity(p.outputs.len());
    // each output commitment is made where its first leaf stands (its instance position)
    let mut output_commitments = committed_outputs.iter();
    let mut k = committed.len();
    for (j, (&o, &vis)) in p.outputs.iter().zip(&p.output_vis).enumerate() {
        if vis == Visibility::Committed {
            outs.push(w[o].clone());
            if p.output_joint[j] {
                continue;
            }
            let leaves = output_commitments.next().expect("a commitment starts at each unjoined leaf");
            let bases = bases.as_ref().expect("bases exist when a value is committed");
            let r = blinding(k);
            k += 1;
            let rv = r.map(scalar_fr);
            let r = b.witness(rv)?;
            roles.blinding_witnesses.push(witness_index(r));
            let r = Wire::var(r, rv, None);
            let vs = leaves
                .iter()
                .map(|&j| output_bits(&b, &w[p.outputs[j]], p.types[p.outputs[j]]))
                .collect::<Result<Vec<_>, _>>()?;
            let d = pedersen_commit(&b, bases, vs, &r)?;
            let c = input_point(&b, d.value())?;
            point::enforce_equal(&b, &c, &d)?;
            continue;
        }
        let var = b.input(w[o].value)?;
        let out = Wire::var(var, w[o].value, w[o].range);
        b.enforce_equal(&out, &w[o])?;
        outs.push(out);
    }
    Ok(outs)
}

fn lower_inst(
    b: &Builder,
    p: &Program,
    inst: &Inst,
    w: &[Wire],
    selectors: &mut Selectors,
) -> Result<Option<Wire>, SynthesisError> {
    let arg = |k: usize| &w[inst.args[k]];
    let guard = inst.guard.map(|g| &w[g]).filter(|g| g.konst != Some(Fr::one()));
    let ty = inst.ty;
    let arg_ty = inst.args.first().map(|&a| p.types[a]);
    let boolean = |x: Wire| x.with_range(Some((0, 1)));
    let out = match inst.op {
        Op::Const => {
            let v = inst.konst.expect("validated const");
            let range = match v {
                Value::Int(i) => Some((i, i)),
                Value::Field(_) => None,
            };
            Wire::constant(v.to_fr(), range)
        }
        Op::Add if ty == Ty::Field => arg(0).add_scaled(Fr::one(), arg(1)),
        Op::Sub if ty == Ty::Field => arg(0).add_scaled(-Fr::one(), arg(1)),
        Op::Mul if ty == Ty::Field => b.mul(arg(0), arg(1))?,
        Op::Neg if ty == Ty::Field => arg(0).affine(-Fr::one(), Fr::zero()),
        Op::Add | Op::Sub | Op::Mul | Op::Neg => {
            let raw = match inst.op {
                Op::Add => arg(0).add_scaled(Fr::one(), arg(1)),
                Op::Sub => arg(0).add_scaled(-Fr::one(), arg(1)),
                Op::Mul => b.mul(arg(0), arg(1))?,
                _ => arg(0).affine(-Fr::one(), Fr::zero()),
            };
            let rb = (inst.op != Op::Neg).then(|| arg(1).range).flatten();
            let raw = raw.with_range(raw_interval(inst.op, arg(0).range, rb));
            fit(b, raw, ty, guard, false)?
        }
        Op::FloorDiv | Op::Mod => {
            let d = arg(1);
            let safe_const =
                d.konst.is_some_and(|k| !(k.is_zero() || matches!(ty, Ty::I(_)) && k == -Fr::one()));
            let d = match guard {
                Some(g) if !safe_const => select::select(b, g, d, &Wire::constant(Fr::one(), Some((1, 1))))?,
                _ => d.clone(),
            };
            let (q, r) = divmod::floor_divmod(b, arg(0), &d, ty, inst.op == Op::FloorDiv)?;
            if inst.op == Op::FloorDiv {
                q
            } else {
                r
            }
        }
        Op::Eq => eq::is_eq(b, arg(0), arg(1), arg_ty == Some(Ty::Bool))?,
        Op::Ne => cmp::not(&eq::is_eq(b, arg(0), arg(1), arg_ty == Some(Ty::Bool))?),
        Op::Ge => cmp::is_ge(b, arg(0), arg(1))?,
        Op::Le => cmp::is_ge(b, arg(1), arg(0))?,
        Op::Lt => cmp::not(&cmp::is_ge(b, arg(0), arg(1))?),
        Op::Gt => cmp::not(&cmp::is_ge(b, arg(1), arg(0))?),
        Op::And => boolean(b.mul(arg(0), arg(1))?),
        Op::Or => {
            let ab = b.mul(arg(0), arg(1))?;
            boolean(arg(0).add_scaled(Fr::one(), arg(1)).add_scaled(-Fr::one(), &ab))
        }
        Op::Not => cmp::not(arg(0)),
        Op::Select => select::select(b, arg(0), arg(1), arg(2))?,
        Op::Cast => match (arg_ty.expect("one argument"), ty) {
            (_, Ty::Field) => arg(0).clone().with_range(None),
            (Ty::Field, _) => fit(b, arg(0).clone(), ty, guard, true)?,
            _ => fit(b, arg(0).clone(), ty, guard, false)?,
        },
        Op::Poseidon => {
            let xs: Vec<Wire> = inst.args.iter().map(|&a| w[a].clone()).collect();
            poseidon::poseidon(b, &xs)?.with_range(None)
        }
        Op::PointAddX | Op::PointAddY => {
            let key = [inst.args[0], inst.args[1], inst.args[2], inst.args[3]];
            let sum = match selectors.points.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let p = PointWire { x: arg(0).clone(), y: arg(1).clone() };
                    let q = PointWire { x: arg(2).clone(), y: arg(3).clone() };
                    e.insert(point::add(b, &p, &q)?)
                }
            };
            let c = if inst.op == Op::PointAddX { &sum.x } else { &sum.y };
            c.clone().with_range(None)
        }
        Op::PointMulX | Op::PointMulY => {
            let key = [inst.args[0], inst.args[1], inst.args[2]];
            if !selectors.products.contains_key(&key) {
                let k = inst.args[0];
                if let std::collections::hash_map::Entry::Vacant(e) = selectors.scalar_bits.entry(k) {
                    e.insert(match p.types[k] {
                        Ty::U(n) => bits::to_bits(b, arg(0), n)?,
                        _ => eddsa::field_scalar_bits(b, arg(0))?,
                    });
                }
                let bits = &selectors.scalar_bits[&k];
                let pt = PointWire { x: arg(1).clone(), y: arg(2).clone() };
                let konst = pt.konst().filter(|c| *c != point::native::identity());
                let q = match (konst, p.types[k]) {
                    // a constant base (B8, a constant key): windowed fixed-base tables
                    (Some(c), ty) => {
                        let shift =
                            if ty == Ty::Field { variable_base::offset(bits.len()) } else { Fr::zero() };
                        fixed_base::mul_plus(b, &fixed_base::FixedBase::new(c), bits, shift)?
                    }
                    (None, ty) => match ty {
                        // exact: handles the identity (any small-order point) itself
                        Ty::U(_) => variable_base::mul(b, &pt, bits)?,
                        // (k + 7l)·P' with P' ≠ O; the identity times anything is the identity
                        _ => {
                            let is_id = eq::is_zero(b, &pt.x)?;
                            let safe =
                                point::select(b, &is_id, &PointWire::constant(point::native::base8()), &pt)?;
                            let r = variable_base::mul_offset(b, &safe, bits)?;
                            point::select(b, &is_id, &PointWire::identity(), &r)?
                        }
                    },
                };
                selectors.products.insert(key, q);
            }
            let q = &selectors.products[&key];
            let c = if inst.op == Op::PointMulX { &q.x } else { &q.y };
            c.clone().with_range(None)
        }
        Op::EddsaCheck => {
            let mut x: Vec<Wire> = (0..6).map(|k| arg(k).clone()).collect();
            if let Some(g) = guard {
                // under a false guard, verify a fixed valid signature instead (6 selects)
                for (w, c) in x.iter_mut().zip(eddsa::dummy_signature()) {
                    *w = select::select(b, g, w, &Wire::constant(c, None))?;
                }
            }
            let a = PointWire { x: x[0].clone(), y: x[1].clone() };
            let r8 = PointWire { x: x[3].clone(), y: x[4].clone() };
            eddsa::verify(b, &a, &x[2], &r8, &x[5])?;
            return Ok(None);
        }
        Op::PointCheck => {
            point::enforce_in_subgroup(b, &PointWire { x: arg(0).clone(), y: arg(1).clone() })?;
            return Ok(None);
        }
        Op::Index => {
            let zero_range = (ty != Ty::Field).then_some((0, 0));
            if guard.is_some_and(|g| g.konst == Some(Fr::zero())) {
                // never runs: any in-range value will do
                return Ok(Some(Wire::constant(Fr::zero(), zero_range)));
            }
            let n = inst.args.len() - 1;
            let key = (inst.args[0], n, inst.guard.filter(|_| guard.is_some()));
            let sel = match selectors.lookups.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(lookup::selector(b, arg(0), n, guard)?)
                }
            };
            let elems: Vec<&Wire> = inst.args[1..].iter().map(|&a| &w[a]).collect();
            let r = lookup::lookup(b, sel, &elems, guard.is_some())?;
            if ty == Ty::Field {
                r.with_range(None)
            } else {
                r
            }
        }
        Op::Check => {
            let c = arg(0);
            let one = Wire::constant(Fr::one(), Some((1, 1)));
            match guard {
                None => b.enforce_equal(c, &one)?,
                Some(g) => {
                    let not_c = cmp::not(c);
                    if not_c.konst != Some(Fr::zero()) {
                        b.enforce(g.lc.clone(), not_c.lc, ark_relations::lc!())?;
                    }
                }
            }
            return Ok(None);
        }
    };
    Ok(Some(out))
}
