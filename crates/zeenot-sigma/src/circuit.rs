//! Arithmetic-circuit proofs: the Bulletproofs argument for arithmetic circuits (Bünz, Bootle,
//! Boneh, Poelstra, Wuille and Maxwell, *Bulletproofs*, IEEE S&P 2018, §5.3, Protocol 3), with
//! the inner-product argument of the range proofs ([`crate::bulletproofs`]).
//!
//! **Statement.** A [`Circuit`]: `n` multiplication gates with wires `a_L[i]·a_R[i] = a_O[i]`,
//! `m` external Pedersen commitments `V_j = v_j·G + γ_j·H` (zeenot's own commitments, so that
//! values committed elsewhere — an instance's input commitments, a sigma statement's openings —
//! enter the circuit), and linear constraints, each `Σ w·var = 0` over the variables
//! [`Var`]: the constant one, the committed values `v_j` and the gates' wires.
//!
//! PROOF SYSTEM: to be written (see the design in the session's note).

use zeenot_crypto::{Point, Scalar, Sha256Transcript, Transcript};

use ark_ff::{One, Zero};

/// A variable of a [`Circuit`]'s linear constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    /// The constant 1.
    One,
    /// The value `v_j` of the `j`-th external commitment.
    Committed(usize),
    /// The left input `a_L[i]` of gate `i`.
    Left(usize),
    /// The right input `a_R[i]` of gate `i`.
    Right(usize),
    /// The output `a_O[i] = a_L[i]·a_R[i]` of gate `i`.
    Out(usize),
}

/// The public description of an arithmetic circuit: gates, external commitments and linear
/// constraints (each `Σ w·var = 0`), stored flat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Circuit {
    gates: usize,
    committed: usize,
    terms: Vec<(Var, Scalar)>,
    /// Where each constraint's terms end in `terms`.
    ends: Vec<usize>,
}

/// The prover's values of a circuit's variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// `a_L`, one per gate.
    pub left: Vec<Scalar>,
    /// `a_R`, one per gate.
    pub right: Vec<Scalar>,
    /// `a_O`, one per gate.
    pub out: Vec<Scalar>,
    /// The committed values `v_j`, one per external commitment.
    pub values: Vec<Scalar>,
}

impl Circuit {
    /// An empty circuit.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a multiplication gate; returns its index `i` (wires `Left(i)`, `Right(i)`, `Out(i)`).
    pub fn gate(&mut self) -> usize {
        self.gates += 1;
        self.gates - 1
    }

    /// Adds an external commitment; returns its variable `Committed(j)`.
    pub fn commitment(&mut self) -> Var {
        self.committed += 1;
        Var::Committed(self.committed - 1)
    }

    /// Adds the constraint `Σ w·var = 0` (terms with a zero weight are dropped; a variable may
    /// appear more than once, its weights add up).
    pub fn constrain(&mut self, terms: impl IntoIterator<Item = (Var, Scalar)>) {
        self.terms.extend(terms.into_iter().filter(|(_, w)| !w.is_zero()));
        self.ends.push(self.terms.len());
    }

    /// Multiplication gates.
    pub fn gates(&self) -> usize {
        self.gates
    }

    /// The gates a proof covers: `gates()` rounded up to a power of two (at least 1); the
    /// padding gates' wires are 0.
    pub fn padded_gates(&self) -> usize {
        self.gates.max(1).next_power_of_two()
    }

    /// External commitments.
    pub fn committed(&self) -> usize {
        self.committed
    }

    /// Linear constraints.
    pub fn constraints(&self) -> usize {
        self.ends.len()
    }

    /// Terms of all linear constraints together.
    pub fn terms(&self) -> usize {
        self.terms.len()
    }

    /// The linear constraints, in order, each as its terms.
    pub fn iter_constraints(&self) -> impl Iterator<Item = &[(Var, Scalar)]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter().copied()).map(move |(s, e)| &self.terms[s..e])
    }

    /// Absorbs the whole circuit into a transcript: gates, commitments, and every constraint's
    /// terms (a variable as a tag byte and an 8-byte index, a weight in its canonical encoding).
    pub fn absorb(&self, t: &mut Sha256Transcript) {
        t.append_message(b"gates", &(self.gates as u64).to_le_bytes());
        t.append_message(b"committed", &(self.committed as u64).to_le_bytes());
        let mut bytes = Vec::with_capacity(8 * (self.ends.len() + 1) + 41 * self.terms.len());
        bytes.extend((self.ends.len() as u64).to_le_bytes());
        for c in self.iter_constraints() {
            bytes.extend((c.len() as u64).to_le_bytes());
            for (v, w) in c {
                let (tag, i) = match *v {
                    Var::One => (0u8, 0),
                    Var::Committed(j) => (1, j),
                    Var::Left(i) => (2, i),
                    Var::Right(i) => (3, i),
                    Var::Out(i) => (4, i),
                };
                bytes.push(tag);
                bytes.extend((i as u64).to_le_bytes());
                bytes.extend(zeenot_crypto::encode_scalar(w));
            }
        }
        t.append_message(b"constraints", &bytes);
    }

    /// The value of `var` under `a` (`None` for a variable out of range).
    pub fn value(&self, a: &Assignment, var: Var) -> Option<Scalar> {
        match var {
            Var::One => Some(Scalar::one()),
            Var::Committed(j) => a.values.get(j).copied(),
            Var::Left(i) => a.left.get(i).copied(),
            Var::Right(i) => a.right.get(i).copied(),
            Var::Out(i) => a.out.get(i).copied(),
        }
    }

    /// Whether `a` satisfies the circuit: the right number of values, every gate
    /// `a_L·a_R = a_O`, every linear constraint.
    pub fn is_satisfied(&self, a: &Assignment) -> bool {
        let n = self.gates;
        if a.left.len() != n || a.right.len() != n || a.out.len() != n || a.values.len() != self.committed {
            return false;
        }
        if (0..n).any(|i| a.left[i] * a.right[i] != a.out[i]) {
            return false;
        }
        self.iter_constraints().all(|c| {
            c.iter()
                .try_fold(Scalar::zero(), |s, (v, w)| Some(s + self.value(a, *v)? * w))
                .is_some_and(|s| s.is_zero())
        })
    }

    /// The first linear constraint `a` violates, or the first gate (as `usize::MAX − i`): for
    /// diagnostics.
    pub fn first_violation(&self, a: &Assignment) -> Option<usize> {
        let n = self.gates.min(a.left.len()).min(a.right.len()).min(a.out.len());
        if let Some(i) = (0..n).find(|&i| a.left[i] * a.right[i] != a.out[i]) {
            return Some(usize::MAX - i);
        }
        self.iter_constraints().position(|c| {
            !c.iter()
                .try_fold(Scalar::zero(), |s, (v, w)| Some(s + self.value(a, *v)? * w))
                .is_some_and(|s| s.is_zero())
        })
    }
}

/// A proof that the prover knows an [`Assignment`] satisfying a [`Circuit`] whose committed
/// values are the openings of the given commitments. `32·(13 + 2·log2 n)` bytes for `n` padded
/// gates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircuitProof {
    /// `A_I = α·H + ⟨a_L, G⟩ + ⟨a_R, H⟩`.
    pub a_i: Point,
    /// `A_O = β·H + ⟨a_O, G⟩`.
    pub a_o: Point,
    /// `S = ρ·H + ⟨s_L, G⟩ + ⟨s_R, H⟩`.
    pub s: Point,
    /// `T_1, T_3, T_4, T_5, T_6`: commitments to `t(X)`'s coefficients (all but `t_2`).
    pub t: [Point; 5],
    /// `t̂ = ⟨l, r⟩`.
    pub t_hat: Scalar,
    /// `τ_x`, the blinding of `t̂`.
    pub tau_x: Scalar,
    /// `μ`, the blinding of `x·A_I + x²·A_O + x³·S`.
    pub mu: Scalar,
    /// The inner-product argument's `L_k`, one per round.
    pub ipa_l: Vec<Point>,
    /// The inner-product argument's `R_k`, one per round.
    pub ipa_r: Vec<Point>,
    /// The inner-product argument's final `a`.
    pub ipa_a: Scalar,
    /// The inner-product argument's final `b`.
    pub ipa_b: Scalar,
}
