//! R1CS gadgets over BN254's scalar field, written against raw linear combinations (additions
//! and constant multiples are free).
//!
//! Naming follows arkworks: `is_*` returns a boolean [`Wire`], `enforce_*` only adds
//! constraints. Every gadget upholds one design rule: **each witness variable it allocates is a
//! function of its inputs** (no free witness values). That is what makes
//! [`crate::soundness::check_mutations`] meaningful: changing any single variable of a valid
//! assignment must break a constraint, so an under-constrained gadget is caught by tests.
//!
//! A [`Wire`] also carries the interval its integer value is known to lie in. The lowering uses
//! it to drop range checks that cannot fail and to size comparisons (see `docs/circuits.md`).

pub mod babyjub;
pub mod bits;
pub mod cmp;
pub mod divmod;
pub mod eq;
pub mod lookup;
pub mod select;

use ark_bn254::Fr;
use ark_ff::{One, Zero};
use ark_relations::lc;
use ark_relations::r1cs::{ConstraintSystemRef, LinearCombination, SynthesisError, Variable};

/// Result of a gadget.
pub type Result<T> = std::result::Result<T, SynthesisError>;

/// A value in the circuit: a linear combination of variables, its value when known (proving),
/// and, when the value is a known constant, that constant.
#[derive(Clone, Debug)]
pub struct Wire {
    /// The linear combination that equals the value.
    pub lc: LinearCombination<Fr>,
    /// The value, when assignments are being computed.
    pub value: Option<Fr>,
    /// Set when the value is a compile-time constant.
    pub konst: Option<Fr>,
    /// Inclusive integer interval the value is known to lie in (integers and bools only).
    pub range: Option<(i128, i128)>,
}

impl Wire {
    /// A constant.
    pub fn constant(v: Fr, range: Option<(i128, i128)>) -> Wire {
        Wire { lc: lc!() + (v, Variable::One), value: Some(v), konst: Some(v), range }
    }

    /// A variable with a value and interval.
    pub fn var(v: Variable, value: Option<Fr>, range: Option<(i128, i128)>) -> Wire {
        Wire { lc: LinearCombination::from(v), value, konst: None, range }
    }

    /// `self + k * other`, with value and constant propagated (interval left to the caller).
    pub fn add_scaled(&self, k: Fr, other: &Wire) -> Wire {
        Wire {
            lc: &self.lc + (k, &other.lc),
            value: self.value.zip(other.value).map(|(a, b)| a + k * b),
            konst: self.konst.zip(other.konst).map(|(a, b)| a + k * b),
            range: None,
        }
    }

    /// `k * self + c`.
    pub fn affine(&self, k: Fr, c: Fr) -> Wire {
        Wire {
            lc: (&self.lc * k) + (c, Variable::One),
            value: self.value.map(|a| k * a + c),
            konst: self.konst.map(|a| k * a + c),
            range: None,
        }
    }

    /// The same wire with a known interval.
    pub fn with_range(mut self, range: Option<(i128, i128)>) -> Wire {
        self.range = range;
        self
    }
}

/// Each constraint's three sides evaluated at the assignment, in constraint order: `A·z`,
/// `B·z` and `C·z`. All a Groth16 prover reads of the constraint system besides the assignment
/// (its quotient polynomial is computed from these), at 96 bytes per constraint instead of the
/// constraints' linear combinations (arkworks' constraint system holds ~1.5 kB per constraint).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluations {
    /// `A·z`, one per constraint.
    pub a: Vec<Fr>,
    /// `B·z`.
    pub b: Vec<Fr>,
    /// `C·z`.
    pub c: Vec<Fr>,
}

impl Evaluations {
    /// The first constraint the assignment breaks (`A·z · B·z ≠ C·z`), if any.
    pub fn first_unsatisfied(&self) -> Option<usize> {
        (0..self.a.len()).find(|&i| self.a[i] * self.b[i] != self.c[i])
    }
}

/// The constraints evaluated at setup's secret point `τ`, per variable: `a_k = Σ_i u_i(τ)·A_ik`
/// over the constraints `i` (`u_i` the Lagrange basis of the QAP's domain), and the same for
/// `B` and `C`: all Groth16's setup reads of the constraints (`crate::setup`), at 96 bytes per
/// variable instead of the constraint matrices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AtTau {
    /// `u_i(τ)` for every row of the domain (the constraints', then the instance's rows).
    pub lagrange: Vec<Fr>,
    /// `A`, `B`, `C` per instance variable (the constant `1` first).
    pub instance: [Vec<Fr>; 3],
    /// `A`, `B`, `C` per witness variable.
    pub witness: [Vec<Fr>; 3],
    /// The constraints accumulated so far.
    pub constraints: usize,
}

impl AtTau {
    /// Adds `u_i(τ)` times each side of constraint `i` (the next one) to its variables. The
    /// columns are sized by a count of the same lowering: a variable past them is an error.
    fn add(&mut self, sides: [&LinearCombination<Fr>; 3]) -> Result<()> {
        let u = *self.lagrange.get(self.constraints).ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
        self.constraints += 1;
        for (side, lc) in sides.into_iter().enumerate() {
            for &(k, v) in lc.0.iter() {
                let slot = match v {
                    Variable::Zero => continue,
                    Variable::One => self.instance[side].get_mut(0),
                    Variable::Instance(i) => self.instance[side].get_mut(i),
                    Variable::Witness(j) => self.witness[side].get_mut(j),
                    Variable::SymbolicLc(_) => return Err(SynthesisError::AssignmentMissing),
                };
                *slot.ok_or(SynthesisError::PolynomialDegreeTooLarge)? += u * k;
            }
        }
        Ok(())
    }
}

/// Where a [`Builder`]'s constraints go.
#[derive(Clone)]
enum Sink {
    /// Into the constraint system (setup, tests, the checkers).
    Constraints,
    /// Evaluated at the assignment ([`Builder::evaluating`]): a prover's.
    Evaluations(std::rc::Rc<std::cell::RefCell<Evaluations>>),
    /// Counted only ([`Builder::counting`]).
    Count(std::rc::Rc<std::cell::Cell<usize>>),
    /// Evaluated at setup's secret point ([`Builder::at_tau`]).
    AtTau(std::rc::Rc<std::cell::RefCell<AtTau>>),
}

/// Allocation and constraint helpers over a constraint system.
#[derive(Clone)]
pub struct Builder {
    /// The constraint system: its variables, and its constraints unless the builder evaluates
    /// or counts them instead.
    pub cs: ConstraintSystemRef<Fr>,
    sink: Sink,
}

impl Builder {
    /// Wrap a constraint system.
    pub fn new(cs: ConstraintSystemRef<Fr>) -> Builder {
        Builder { cs, sink: Sink::Constraints }
    }

    /// Wrap a constraint system being assigned, evaluating each constraint as it is enforced
    /// instead of keeping it: all a prover needs of the constraints. Every variable a
    /// constraint reads is assigned before it (gadgets allocate, then constrain).
    pub fn evaluating(
        cs: ConstraintSystemRef<Fr>,
    ) -> (Builder, std::rc::Rc<std::cell::RefCell<Evaluations>>) {
        let evaluations = std::rc::Rc::default();
        (Builder { cs, sink: Sink::Evaluations(std::rc::Rc::clone(&evaluations)) }, evaluations)
    }

    /// Wrap a constraint system whose constraints are only counted: a program's size (or, in
    /// prove mode, its assignment) without holding its constraints.
    pub fn counting(cs: ConstraintSystemRef<Fr>) -> (Builder, std::rc::Rc<std::cell::Cell<usize>>) {
        let count = std::rc::Rc::default();
        (Builder { cs, sink: Sink::Count(std::rc::Rc::clone(&count)) }, count)
    }

    /// Wrap a constraint system in setup mode, accumulating each constraint into `at` (whose
    /// `lagrange` holds the domain's Lagrange basis at `τ`) instead of keeping it.
    pub fn at_tau(
        cs: ConstraintSystemRef<Fr>,
        at: AtTau,
    ) -> (Builder, std::rc::Rc<std::cell::RefCell<AtTau>>) {
        let at = std::rc::Rc::new(std::cell::RefCell::new(at));
        (Builder { cs, sink: Sink::AtTau(std::rc::Rc::clone(&at)) }, at)
    }

    /// The value of `lc` at the current assignment.
    fn evaluate(&self, lc: &LinearCombination<Fr>) -> Result<Fr> {
        let cs = self.cs.borrow().ok_or(SynthesisError::MissingCS)?;
        let value = |v: Variable| -> Result<Fr> {
            match v {
                Variable::Zero => Some(Fr::zero()),
                Variable::One => Some(Fr::one()),
                Variable::Instance(i) => cs.instance_assignment.get(i).copied(),
                Variable::Witness(j) => cs.witness_assignment.get(j).copied(),
                Variable::SymbolicLc(_) => None,
            }
            .ok_or(SynthesisError::AssignmentMissing)
        };
        lc.0.iter().try_fold(Fr::zero(), |acc, &(k, v)| Ok(acc + k * value(v)?))
    }

    /// A new private witness variable.
    pub fn witness(&self, value: Option<Fr>) -> Result<Variable> {
        self.cs.new_witness_variable(|| value.ok_or(SynthesisError::AssignmentMissing))
    }

    /// A new public instance variable.
    pub fn input(&self, value: Option<Fr>) -> Result<Variable> {
        self.cs.new_input_variable(|| value.ok_or(SynthesisError::AssignmentMissing))
    }

    /// Enforce `a * b = c`.
    pub fn enforce(
        &self,
        a: LinearCombination<Fr>,
        b: LinearCombination<Fr>,
        c: LinearCombination<Fr>,
    ) -> Result<()> {
        match &self.sink {
            Sink::Constraints => self.cs.enforce_constraint(a, b, c),
            Sink::Evaluations(evaluations) => {
                let (x, y, z) = (self.evaluate(&a)?, self.evaluate(&b)?, self.evaluate(&c)?);
                let mut e = evaluations.borrow_mut();
                e.a.push(x);
                e.b.push(y);
                e.c.push(z);
                Ok(())
            }
            Sink::Count(n) => {
                n.set(n.get() + 1);
                Ok(())
            }
            Sink::AtTau(at) => at.borrow_mut().add([&a, &b, &c]),
        }
    }

    /// Enforce `a = b` (one constraint, or none when both are the same constant).
    pub fn enforce_equal(&self, a: &Wire, b: &Wire) -> Result<()> {
        if let (Some(x), Some(y)) = (a.konst, b.konst) {
            return if x == y { Ok(()) } else { self.enforce_false() };
        }
        self.enforce(&a.lc - &b.lc, lc!() + Variable::One, lc!())
    }

    /// A constraint no assignment satisfies (`1 · 1 = 0`), for a statement that is false
    /// whatever the inputs (e.g. `check(False)`): the circuit still compiles and sets up, and no
    /// proof ever exists — exactly as the program fails on every input.
    pub fn enforce_false(&self) -> Result<()> {
        self.enforce(lc!() + Variable::One, lc!() + Variable::One, lc!())
    }

    /// The product of two wires: free when either is a constant, one constraint otherwise.
    pub fn mul(&self, a: &Wire, b: &Wire) -> Result<Wire> {
        if let Some(k) = a.konst {
            return Ok(b.affine(k, Fr::zero()));
        }
        if let Some(k) = b.konst {
            return Ok(a.affine(k, Fr::zero()));
        }
        let value = a.value.zip(b.value).map(|(x, y)| x * y);
        let v = self.witness(value)?;
        self.enforce(a.lc.clone(), b.lc.clone(), lc!() + v)?;
        Ok(Wire::var(v, value, None))
    }

    /// A new boolean witness (one constraint: `b * (b - 1) = 0`).
    pub fn boolean(&self, value: Option<bool>) -> Result<Wire> {
        let fv = value.map(|b| if b { Fr::one() } else { Fr::zero() });
        let v = self.witness(fv)?;
        self.enforce(lc!() + v, lc!() + v - (Fr::one(), Variable::One), lc!())?;
        Ok(Wire::var(v, fv, Some((0, 1))))
    }
}

/// Field element of a (possibly negative) integer.
pub fn fr(v: i128) -> Fr {
    crate::ir::int_to_fr(v)
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;
    use ark_relations::r1cs::ConstraintSystem;

    /// A fresh constraint system and builder.
    pub fn builder() -> Builder {
        Builder::new(ConstraintSystem::<Fr>::new_ref())
    }

    /// Allocate `v` as a witness wire with a range.
    pub fn wit(b: &Builder, v: i128, range: Option<(i128, i128)>) -> Wire {
        let var = b.witness(Some(fr(v))).unwrap();
        Wire::var(var, Some(fr(v)), range)
    }

    /// The constraint system is satisfied, and mutating any single variable other than the
    /// first `inputs` witnesses (the gadget's inputs) breaks it.
    pub fn assert_sound(b: &Builder, inputs: usize) {
        assert!(b.cs.is_satisfied().unwrap(), "{:?}", b.cs.which_is_unsatisfied());
        crate::soundness::check_cs_mutations(&b.cs, &|v| v.is_witness_below(inputs)).unwrap();
    }

    /// The constraint system is not satisfied.
    pub fn assert_unsat(b: &Builder) {
        assert!(!b.cs.is_satisfied().unwrap());
    }
}
