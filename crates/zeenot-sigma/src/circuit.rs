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
//! Below, `n` is the gate count rounded up to a power of two ([`Circuit::padded_gates`]; the
//! padding gates' wires are 0 and no constraint refers to them), `m` the commitments, `Q` the
//! constraints, and `G_i`, `H_i`, `U` the range proofs' vector generators
//! ([`BulletproofGens`], which must cover `n`).
//!
//! **Flattening.** With a challenge `z`, constraint `k` (from 0) is weighted by `z^{k+1}` and
//! the constraints summed: `w_L[i] = Σ_k z^{k+1}·(weight of Left(i) in k)`, likewise `w_R`,
//! `w_O` (length `n`, zero on the padding gates), `w_V[j]` for `Committed(j)` and `w_c` for
//! `One`, in `O(terms + n)`. A valid assignment has `⟨w_L, a_L⟩ + ⟨w_R, a_R⟩ + ⟨w_O, a_O⟩ +
//! ⟨w_V, v⟩ + w_c = 0`; an assignment violating a constraint has it for at most `Q` values
//! of `z`.
//!
//! **Prover.**
//! 1. `A_I = α·H + ⟨a_L, G⟩ + ⟨a_R, H⟩`, `A_O = β·H + ⟨a_O, G⟩`, `S = ρ·H + ⟨s_L, G⟩ +
//!    ⟨s_R, H⟩` for random `α, β, ρ` and `s_L, s_R` (random on the real gates, 0 on the
//!    padding gates, whose entries of `l` and `r` are public anyway); challenges `y, z`.
//! 2. `l(X) = (a_L + y^{−n}∘w_R)·X + a_O·X² + s_L·X³`,
//!    `r(X) = (w_O − y^n) + (y^n∘a_R + w_L)·X + (y^n∘s_R)·X³`, and
//!    `t(X) = ⟨l(X), r(X)⟩ = Σ_{i=1}^{6} t_i·X^i`, where
//!    `t_2 = ⟨a_L∘a_R − a_O, y^n⟩ + ⟨w_L, a_L⟩ + ⟨w_R, a_R⟩ + ⟨w_O, a_O⟩ + δ(y, z)` with
//!    `δ(y, z) = ⟨y^{−n}∘w_R, w_L⟩`: for a valid assignment `t_2 = δ(y, z) − w_c − ⟨w_V, v⟩`.
//!    `T_i = t_i·G + τ_i·H` for `i ∈ {1, 3, 4, 5, 6}` (random `τ_i`; `t_2` is not sent);
//!    challenge `x`.
//! 3. `l = l(x)`, `r = r(x)`, `t̂ = ⟨l, r⟩`, `τ_x = Σ_{i≠2} τ_i·x^i − x²·⟨w_V, γ⟩`,
//!    `μ = α·x + β·x² + ρ·x³`; challenge `w`.
//! 4. The range proofs' inner-product argument for `P = ⟨l, G⟩ + ⟨r, H'⟩ + t̂·w·U`,
//!    `H'_i = y^{−i}·H_i` (same folding, 128-bit round challenges, `log2 n` rounds; none for
//!    `n = 1`, where `a = l`, `b = r`).
//!
//! **Verifier.** It flattens the constraints itself, and checks
//! * `t̂·G + τ_x·H = x²·(δ(y, z) − w_c)·G − x²·Σ_j w_V[j]·V_j + Σ_{i≠2} x^i·T_i`, and
//! * the inner-product argument's folded check (exactly the range proof's) on
//!   `P₀ = x·A_I + x²·A_O + x³·S − μ·H + t̂·wU + Σ_i x·y^{−i}·w_R[i]·G_i +
//!   Σ_i (y^{−i}·(x·w_L[i] + w_O[i]) − 1)·H_i`,
//!
//! combined with a last challenge `c` (the first times `c`) into one [`Point::msm_vartime`] of
//! `2n + 2·log2 n + m + 11` points, or into a batch's [`MsmTerms`] with range proofs, other
//! circuit proofs and sigma proofs.
//!
//! **Soundness.** That of the paper's Protocol 3 (computational witness-extended emulation
//! under the discrete logarithm, with `G`, `H`, `U`, `G_i`, `H_i` of unknown relations), made
//! non-interactive by Fiat–Shamir: `t_2`'s identity holds for all `y` only if every gate does,
//! and for all `z` only if every constraint does; a round's folding challenge fails with
//! probability at most `2/2^128`. Two limits of the statement, as in the paper:
//! * the committed values enter only through `Σ_j w_V[j]·V_j`: the proof shows knowledge of an
//!   opening of every *combination* the constraints make of the commitments, hence of each
//!   `V_j` only when the columns `(weight of Committed(j) in constraint k)_k` are linearly
//!   independent. A commitment no constraint uses is hashed but nothing is proved about it
//!   (even that the prover can open it); tie each commitment to the circuit on its own (for
//!   example `Committed(j) − Left(i) = 0`) when its opening matters;
//! * a cheating prover may put any `a_L·a_R = a_O` on the padding gates, which no constraint
//!   sees.
//!
//! **Transcript.** `Sha256Transcript("zeenot/bulletproofs/circuit/v1")`: the caller's context,
//! the whole circuit ([`Circuit::absorb`]: gates, commitments, every constraint's terms), every
//! `V_j`; `A_I, A_O, S` → `y, z`; `T_1, T_3, T_4, T_5, T_6` → `x`; `t̂, τ_x, μ` → `w`;
//! `L_k, R_k` → `u_k` per round; `a, b` → `c`. Every challenge hashes everything before it, so
//! a proof cannot be moved to another circuit, other commitments or another context. A zero
//! challenge (probability `2^−251`) makes proving and verifying fail.
//!
//! **Size.** `32·(13 + 2·log2 n)` bytes: 8 points, 3 scalars, `2·log2 n` points, 2 scalars —
//! 416 bytes for one gate, 1,056 for `2^10` gates, 1,312 for `2^14`, 1,440 for `2^16`
//! (a range proof over as many bits is 128 bytes, four points, shorter).
//!
//! **Cost** (release, the 2-core development machine, `cargo bench -p zeenot-sigma --bench
//! circuit`, 2026-11-26), for a bit-decomposition circuit of `N` gates (`N/64` committed
//! 64-bit values, `≈ 2N` constraints, `≈ 5N` terms) against the range proof of the same bits:
//!
//! | `N` | prove | prove, general gates | verify | range proof: prove | verify |
//! |---|---|---|---|---|---|
//! | `2^10` | 71 ms | 82 ms | 10.8 ms | 70 ms | 10.4 ms |
//! | `2^12` | 262 ms | 310 ms | 33 ms | 261 ms | 30.5 ms |
//! | `2^14` | 979 ms | 1.17 s | 111 ms | 967 ms | 103 ms |
//!
//! ("general gates": the same circuit with its bit gates hidden from the shortcut below.)
//! Most of the prover's time is the inner-product argument's folding of the generators, as
//! for range proofs; the rest the three constant-time multi-exponentiations. The verifier's is
//! the multi-exponentiation; hashing the circuit and flattening it, `O(terms + n)`, make most
//! of the 8 ms by which it trails the range proof's verifier at `2^14`. Deriving
//! `BulletproofGens::new(2^15)` takes about 1 s of CPU (half what hashing one point at a time
//! took): derive once (the back end keeps them in memory, and on disk for the next process).
//!
//! **Bit gates.** A gate whose wires the constraints alone fix to a bit — a one-term
//! constraint on `Out(i)` and a constraint `w·Right(i) − w·Left(i) + w·One = 0` (any order,
//! any `w ≠ 0`), so that `a_L ∈ {0, 1}`, `a_R = a_L − 1`, `a_O = 0` in every valid assignment —
//! enters `A_I` through the range proof's constant-time masked sum
//! (`Σ_{a_L[i] = 1} (G_i + H_i) − Σ H_i`), and any output a one-term constraint fixes to 0
//! is left out of `A_O`. Which gates those are depends on the circuit only, never the witness.
//!
//! **Side channels.** Every multi-exponentiation with secret scalars (`A_I`, `A_O`, `S`, `T_i`)
//! is constant time, as are the masked sums; the inner-product argument's `L`, `R` and the
//! folding of the public generators are variable time, as in the range proof (`l` and `r` are
//! blinded by `s_L·x³`, `s_R·x³`). [`CircuitProof::prove`]'s witness checks (the gates, the
//! constraints, the openings) take variable time only when they fail. Secret vectors and
//! scalars are wiped after use; the caller's [`Assignment`] is the caller's to wipe.

use ark_ff::{Field, One, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::{Point, Scalar, Sha256Transcript, Transcript};
use zeroize::Zeroize;

use crate::bulletproofs::{
    bit_vector_commitment, challenge, decode_wire, encode_wire, folding_weights, inner_product, ipa_prove,
    powers, random_vec, replay_rounds, BulletproofGens, MsmTerms, MAX_ROUNDS,
};
use crate::error::{Error, Result};

/// The Fiat–Shamir domain separator of circuit proofs.
pub const CIRCUIT_PROOF_DOMAIN: &[u8] = b"zeenot/bulletproofs/circuit/v1";

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
        let sizes =
            a.left.len() == n && a.right.len() == n && a.out.len() == n && a.values.len() == self.committed;
        sizes && self.first_violation(a).is_none()
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

/// A circuit's constraints combined with the powers of `z` (constraint `k` weighted by
/// `z^{k+1}`): `⟨w_L, a_L⟩ + ⟨w_R, a_R⟩ + ⟨w_O, a_O⟩ + ⟨w_V, v⟩ + w_c = 0` for a valid
/// assignment. The gate vectors have the padded length.
struct Flattened {
    w_l: Vec<Scalar>,
    w_r: Vec<Scalar>,
    w_o: Vec<Scalar>,
    w_v: Vec<Scalar>,
    w_c: Scalar,
}

/// Gates whose wires the constraints alone fix to a bit, publicly: `Out(i) = 0` (a constraint
/// with that one term) and `Right(i) = Left(i) − 1` (a constraint `r·a_R − r·a_L + r·1 = 0`),
/// so `a_L·(a_L − 1) = 0`. Which gates they are depends on the circuit only, so the prover may
/// treat them differently without leaking anything about the witness.
struct PublicBits {
    /// `a_O[i] = 0` in every valid assignment.
    out_zero: Vec<bool>,
    /// `a_L[i] ∈ {0, 1}` and `a_R[i] = a_L[i] − 1` in every valid assignment.
    bit: Vec<bool>,
}

impl Circuit {
    /// Checks that every constraint's variables exist.
    fn check_variables(&self) -> Result<()> {
        for (k, c) in self.iter_constraints().enumerate() {
            for (v, _) in c {
                let ok = match *v {
                    Var::One => true,
                    Var::Committed(j) => j < self.committed,
                    Var::Left(i) | Var::Right(i) | Var::Out(i) => i < self.gates,
                };
                if !ok {
                    return Err(Error::Statement(format!(
                        "constraint {k} refers to {v:?}, but the circuit has {} gates and {} commitments",
                        self.gates, self.committed
                    )));
                }
            }
        }
        Ok(())
    }

    /// The constraints combined with `z` (see [`Flattened`]); gate vectors of length `n`.
    /// The variables must have been checked.
    fn flatten(&self, z: Scalar, n: usize) -> Flattened {
        let mut f = Flattened {
            w_l: vec![Scalar::zero(); n],
            w_r: vec![Scalar::zero(); n],
            w_o: vec![Scalar::zero(); n],
            w_v: vec![Scalar::zero(); self.committed],
            w_c: Scalar::zero(),
        };
        let mut zk = z;
        for c in self.iter_constraints() {
            for (v, w) in c {
                let zw = zk * w;
                match *v {
                    Var::One => f.w_c += zw,
                    Var::Committed(j) => f.w_v[j] += zw,
                    Var::Left(i) => f.w_l[i] += zw,
                    Var::Right(i) => f.w_r[i] += zw,
                    Var::Out(i) => f.w_o[i] += zw,
                }
            }
            zk *= z;
        }
        f
    }

    /// The gates the constraints fix to bits (see [`PublicBits`]). The variables must have been
    /// checked.
    fn public_bits(&self) -> PublicBits {
        let mut out_zero = vec![false; self.gates];
        let mut decrement = vec![false; self.gates];
        for c in self.iter_constraints() {
            match c {
                [(Var::Out(i), _)] => out_zero[*i] = true,
                [_, _, _] => {
                    let (mut one, mut left, mut right) = (None, None, None);
                    for (v, w) in c {
                        let slot = match v {
                            Var::One => &mut one,
                            Var::Left(_) => &mut left,
                            Var::Right(_) => &mut right,
                            _ => break,
                        };
                        *slot = Some((*v, *w));
                    }
                    if let (Some((_, w1)), Some((Var::Left(i), wl)), Some((Var::Right(j), wr))) =
                        (one, left, right)
                    {
                        if i == j && wr == w1 && wl == -w1 {
                            decrement[i] = true;
                        }
                    }
                }
                _ => {}
            }
        }
        let bit = out_zero.iter().zip(&decrement).map(|(o, d)| *o && *d).collect();
        PublicBits { out_zero, bit }
    }
}

/// Checks the circuit against the generators; returns the padded gate count `n` and `log2 n`.
fn check_shape(gens: &BulletproofGens, circuit: &Circuit) -> Result<(usize, usize)> {
    circuit.check_variables()?;
    let n = circuit.padded_gates();
    let rounds = n.trailing_zeros() as usize;
    if n > gens.capacity() || rounds > MAX_ROUNDS {
        return Err(Error::Statement(format!(
            "the circuit's {n} padded gates exceed the generators' capacity ({})",
            gens.capacity()
        )));
    }
    Ok((n, rounds))
}

fn check_count(what: &str, got: usize, want: usize) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(Error::Input(format!("{got} {what}, the circuit needs {want}")))
    }
}

/// Checks the sizes of the prover's inputs.
fn check_witness_shape(
    circuit: &Circuit,
    commitments: &[Point],
    assignment: &Assignment,
    blindings: &[Scalar],
) -> Result<()> {
    let (n, m) = (circuit.gates(), circuit.committed());
    check_count("commitments", commitments.len(), m)?;
    check_count("blindings", blindings.len(), m)?;
    check_count("committed values", assignment.values.len(), m)?;
    check_count("left wires", assignment.left.len(), n)?;
    check_count("right wires", assignment.right.len(), n)?;
    check_count("output wires", assignment.out.len(), n)
}

fn start_transcript(context: &[u8], circuit: &Circuit, commitments: &[Point]) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(CIRCUIT_PROOF_DOMAIN);
    t.append_message(b"context", context);
    circuit.absorb(&mut t);
    for v in Point::encode_batch(commitments) {
        t.append_message(b"V", &v);
    }
    t
}

/// `δ(y, z) = ⟨y^{−n} ∘ w_R, w_L⟩`.
fn delta(y_inv_pows: &[Scalar], f: &Flattened) -> Scalar {
    y_inv_pows.iter().zip(&f.w_r).zip(&f.w_l).map(|((y, r), l)| *y * r * l).sum()
}

/// The coefficients `t_0 … t_6` of `t(X) = ⟨l(X), r(X)⟩` for `l(X) = l1·X + l2·X² + l3·X³` and
/// `r(X) = r0 + r1·X + r3·X³` (`t_0 = 0`).
fn t_coefficients(
    l1: &[Scalar],
    l2: &[Scalar],
    l3: &[Scalar],
    r0: &[Scalar],
    r1: &[Scalar],
    r3: &[Scalar],
) -> [Scalar; 7] {
    let ip = inner_product;
    [
        Scalar::zero(),
        ip(l1, r0),
        ip(l1, r1) + ip(l2, r0),
        ip(l2, r1) + ip(l3, r0),
        ip(l1, r3) + ip(l3, r1),
        ip(l2, r3),
        ip(l3, r3),
    ]
}

/// `v` extended with zeros to length `n`.
fn padded(v: &[Scalar], n: usize) -> Vec<Scalar> {
    let mut out = Vec::with_capacity(n);
    out.extend_from_slice(v);
    out.resize(n, Scalar::zero());
    out
}

/// The indices of the powers `x^i` the proof commits to: `t_2` is the verifier's own.
const T_POWERS: [usize; 5] = [1, 3, 4, 5, 6];

impl CircuitProof {
    /// The encoded length of a proof for a circuit of `padded_gates` gates (rounded up to a
    /// power of two, `n`): `32·(13 + 2·log2 n)` bytes.
    pub fn encoded_len(padded_gates: usize) -> usize {
        let rounds = padded_gates.max(1).next_power_of_two().trailing_zeros() as usize;
        32 * (13 + 2 * rounds)
    }

    /// Proves that the prover knows an assignment of `circuit` satisfying every gate and
    /// linear constraint, whose committed values open `commitments` (`commitments[j] = v_j·G +
    /// blindings[j]·H`, [`zeenot_crypto::PedersenGenerators::commit`]). `context` binds the proof
    /// to its use (a session, a request). `gens` must cover the padded gate count.
    ///
    /// Fails with [`Error::Statement`] if a constraint refers to a variable the circuit lacks
    /// or the circuit exceeds `gens`, [`Error::Input`] if a count does not match the circuit,
    /// and [`Error::Witness`] if the assignment violates a gate or constraint or a commitment
    /// does not open to its value.
    pub fn prove<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        circuit: &Circuit,
        commitments: &[Point],
        assignment: &Assignment,
        blindings: &[Scalar],
        context: &[u8],
        rng: &mut R,
    ) -> Result<CircuitProof> {
        let (n, _) = check_shape(gens, circuit)?;
        check_witness_shape(circuit, commitments, assignment, blindings)?;
        // (the sizes are checked: the first violation is the only way to fail)
        match circuit.first_violation(assignment) {
            Some(k) if k > usize::MAX / 2 => {
                return Err(Error::Witness(format!("gate {} has a_L·a_R ≠ a_O", usize::MAX - k)))
            }
            Some(k) => return Err(Error::Witness(format!("constraint {k} is violated"))),
            None => {}
        }
        for (j, ((v, gamma), c)) in assignment.values.iter().zip(blindings).zip(commitments).enumerate() {
            if gens.pedersen.commit(v, gamma).0 != *c {
                return Err(Error::Witness(format!(
                    "commitment {j} does not open to the committed value {j}"
                )));
            }
        }
        Self::prove_inner(gens, n, circuit, commitments, assignment, blindings, context, rng, true)
    }

    /// The prover's arithmetic on an arbitrary assignment: neither the gates, the constraints
    /// nor the commitments' openings are checked (only the sizes). For testing soundness only
    /// (a proof made from a false witness must not verify).
    #[doc(hidden)]
    pub fn prove_unchecked<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        circuit: &Circuit,
        commitments: &[Point],
        assignment: &Assignment,
        blindings: &[Scalar],
        context: &[u8],
        rng: &mut R,
    ) -> Result<CircuitProof> {
        let (n, _) = check_shape(gens, circuit)?;
        check_witness_shape(circuit, commitments, assignment, blindings)?;
        Self::prove_inner(gens, n, circuit, commitments, assignment, blindings, context, rng, false)
    }

    /// The prover, on checked shapes (`n` padded gates); `satisfied` says the witness was
    /// checked.
    #[allow(clippy::too_many_arguments)]
    fn prove_inner<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        n: usize,
        circuit: &Circuit,
        commitments: &[Point],
        assignment: &Assignment,
        blindings: &[Scalar],
        context: &[u8],
        rng: &mut R,
        satisfied: bool,
    ) -> Result<CircuitProof> {
        let gates = circuit.gates();
        let mut t = start_transcript(context, circuit, commitments);
        let g_vec = &gens.g_vec()[..n];
        let h_vec = &gens.h_vec()[..n];
        let mut a_l = padded(&assignment.left, n);
        let mut a_r = padded(&assignment.right, n);
        let mut a_o = padded(&assignment.out, n);

        // 1. A_I, A_O, S. Padding gates carry zeros (and no blinding: their entries of l and r
        // are public), so every multi-exponentiation covers the real gates only.
        let mut public = circuit.public_bits();
        if !satisfied {
            // A false witness may break what the constraints force: then the general path.
            let holds = (0..gates).all(|i| {
                (!public.out_zero[i] || a_o[i].is_zero())
                    && (!public.bit[i]
                        || ((a_l[i].is_zero() || a_l[i].is_one()) && a_r[i] == a_l[i] - Scalar::one()))
            });
            if !holds {
                public.out_zero.iter_mut().for_each(|b| *b = false);
                public.bit.iter_mut().for_each(|b| *b = false);
            }
        }
        let mut alpha = Scalar::rand(rng);
        let mut beta = Scalar::rand(rng);
        let mut rho = Scalar::rand(rng);
        let mut bases = Vec::with_capacity(2 * gates + 1);
        let mut scalars = Vec::with_capacity(2 * gates + 1);

        // A_I: bit gates (public) as a constant-time masked sum, Σ_{a_L[i] = 1} (G_i + H_i) −
        // Σ H_i, as the range proof does; the others through a constant-time multi-exponentiation.
        bases.push(gens.h);
        scalars.push(alpha);
        let general: Vec<usize> = (0..gates).filter(|&i| !public.bit[i]).collect();
        bases.extend(general.iter().map(|&i| g_vec[i]));
        bases.extend(general.iter().map(|&i| h_vec[i]));
        scalars.extend(general.iter().map(|&i| a_l[i]));
        scalars.extend(general.iter().map(|&i| a_r[i]));
        let mut a_i = Point::msm_ct(&bases, &scalars);
        scalars.zeroize();
        if general.len() < gates {
            let bit_gates: Vec<usize> = (0..gates).filter(|&i| public.bit[i]).collect();
            let g: Vec<Point> = bit_gates.iter().map(|&i| g_vec[i]).collect();
            let h: Vec<Point> = bit_gates.iter().map(|&i| h_vec[i]).collect();
            let mut mask: Vec<u8> = bit_gates.iter().map(|&i| u8::from(a_l[i].is_one())).collect();
            a_i += bit_vector_commitment(&g, &h, &mask);
            mask.zeroize();
        }

        // A_O: the outputs the constraints do not force to zero.
        bases.clear();
        bases.push(gens.h);
        scalars.push(beta);
        for i in (0..gates).filter(|&i| !public.out_zero[i]) {
            bases.push(g_vec[i]);
            scalars.push(a_o[i]);
        }
        let a_o_commit = Point::msm_ct(&bases, &scalars);
        scalars.zeroize();

        // S.
        let mut s_l = random_vec(gates, rng);
        let mut s_r = random_vec(gates, rng);
        bases.clear();
        bases.push(gens.h);
        bases.extend_from_slice(&g_vec[..gates]);
        bases.extend_from_slice(&h_vec[..gates]);
        scalars.push(rho);
        scalars.extend_from_slice(&s_l);
        scalars.extend_from_slice(&s_r);
        let s_commit = Point::msm_ct(&bases, &scalars);
        scalars.zeroize();
        s_l.resize(n, Scalar::zero());
        s_r.resize(n, Scalar::zero());

        t.append_point(b"A_I", &a_i);
        t.append_point(b"A_O", &a_o_commit);
        t.append_point(b"S", &s_commit);
        let y = challenge(&mut t, b"y")?;
        let z = challenge(&mut t, b"z")?;

        // 2. l(X) = l1·X + l2·X² + l3·X³, r(X) = r0 + r1·X + r3·X³; T_1, T_3 … T_6.
        let f = circuit.flatten(z, n);
        let y_pows = powers(y, n);
        let y_inv_pows = powers(y.inverse().ok_or(Error::InvalidProof)?, n);
        let mut l1: Vec<Scalar> = (0..n).map(|i| a_l[i] + y_inv_pows[i] * f.w_r[i]).collect();
        let l2 = &a_o;
        let l3 = &s_l;
        let r0: Vec<Scalar> = (0..n).map(|i| f.w_o[i] - y_pows[i]).collect();
        let mut r1: Vec<Scalar> = (0..n).map(|i| y_pows[i] * a_r[i] + f.w_l[i]).collect();
        let mut r3: Vec<Scalar> = (0..n).map(|i| y_pows[i] * s_r[i]).collect();
        let mut tc = t_coefficients(&l1, l2, l3, &r0, &r1, &r3);
        if satisfied {
            debug_assert_eq!(
                tc[2],
                delta(&y_inv_pows, &f) - f.w_c - inner_product(&f.w_v, &assignment.values),
                "t_2 = δ(y, z) − w_c − ⟨w_V, v⟩ for a valid witness"
            );
        }
        let mut taus = [Scalar::zero(); 7];
        let mut t_commits = [Point::identity(); 5];
        for (k, &i) in T_POWERS.iter().enumerate() {
            taus[i] = Scalar::rand(rng);
            t_commits[k] = gens.pedersen.commit(&tc[i], &taus[i]).0;
        }
        for (k, p) in t_commits.iter().enumerate() {
            t.append_point(T_LABELS[k], p);
        }
        let x = challenge(&mut t, b"x")?;

        // 3. l, r, t̂, τ_x, μ.
        let xs = powers(x, 7);
        let l: Vec<Scalar> = (0..n).map(|i| l1[i] * xs[1] + l2[i] * xs[2] + l3[i] * xs[3]).collect();
        let r: Vec<Scalar> = (0..n).map(|i| r0[i] + r1[i] * xs[1] + r3[i] * xs[3]).collect();
        let t_hat = inner_product(&l, &r);
        let tau_x = T_POWERS.iter().map(|&i| taus[i] * xs[i]).sum::<Scalar>()
            - xs[2] * inner_product(&f.w_v, blindings);
        let mu = alpha * xs[1] + beta * xs[2] + rho * xs[3];
        t.append_scalar(b"t_hat", &t_hat);
        t.append_scalar(b"tau_x", &tau_x);
        t.append_scalar(b"mu", &mu);
        let w = challenge(&mut t, b"w")?;

        for v in [&mut a_l, &mut a_r, &mut a_o, &mut s_l, &mut s_r, &mut l1, &mut r1, &mut r3] {
            v.zeroize();
        }
        for s in [&mut alpha, &mut beta, &mut rho] {
            s.zeroize();
        }
        taus.zeroize();
        tc.zeroize();

        // 4. The inner-product argument on l and r (it wipes them).
        let q = gens.u().mul_vartime(&w);
        let ipa = ipa_prove(&mut t, g_vec, h_vec, y_inv_pows, q, l, r)?;
        Ok(CircuitProof {
            a_i,
            a_o: a_o_commit,
            s: s_commit,
            t: t_commits,
            t_hat,
            tau_x,
            mu,
            ipa_l: ipa.l,
            ipa_r: ipa.r,
            ipa_a: ipa.a,
            ipa_b: ipa.b,
        })
    }

    /// Verifies the proof for `circuit` with the committed values opening `commitments`, made
    /// with `context`: one multi-exponentiation of `2n + 2·log2 n + m + 11` points.
    ///
    /// Fails as [`CircuitProof::verification_terms`] does, and with [`Error::InvalidProof`] if
    /// the proof does not verify.
    pub fn verify(
        &self,
        gens: &BulletproofGens,
        circuit: &Circuit,
        commitments: &[Point],
        context: &[u8],
    ) -> Result<()> {
        let mut terms = MsmTerms::default();
        self.verification_terms(gens, circuit, commitments, context, Scalar::one(), &mut terms)?;
        if terms.is_identity(gens) {
            Ok(())
        } else {
            Err(Error::InvalidProof)
        }
    }

    /// Fails with [`Error::Encoding`] unless the proof has the `log2 n` inner-product rounds
    /// that the circuit's `n` padded gates need. It costs nothing, so a verifier makes it before
    /// deriving `n` generators (seconds for `n = 2^17`) for a proof that cannot verify.
    pub fn check_rounds(&self, circuit: &Circuit) -> Result<()> {
        let n = circuit.padded_gates();
        let rounds = n.trailing_zeros() as usize;
        if self.ipa_l.len() != rounds || self.ipa_r.len() != rounds {
            return Err(Error::Encoding(format!(
                "the proof has {}/{} inner-product rounds, a circuit of {n} padded gates needs {rounds}",
                self.ipa_l.len(),
                self.ipa_r.len()
            )));
        }
        Ok(())
    }

    /// The verification equation of [`CircuitProof::verify`], times `weight`, added to `terms`
    /// (the equation holds iff these terms sum to the identity): batches with other circuit
    /// proofs, range proofs and sigma proofs, each with an independent random weight, share
    /// one multi-exponentiation.
    ///
    /// Fails with [`Error::Statement`] for a circuit that refers to missing variables or exceeds
    /// `gens`, [`Error::Input`] if the number of commitments is not the circuit's, and
    /// [`Error::Encoding`] if the proof's round count is not `log2 n` (never
    /// [`Error::InvalidProof`] unless a challenge is zero, probability `2^−251`: that is for the
    /// caller's check of the sum).
    pub fn verification_terms(
        &self,
        gens: &BulletproofGens,
        circuit: &Circuit,
        commitments: &[Point],
        context: &[u8],
        weight: Scalar,
        terms: &mut MsmTerms,
    ) -> Result<()> {
        let (n, rounds) = check_shape(gens, circuit)?;
        let m = circuit.committed();
        check_count("commitments", commitments.len(), m)?;
        self.check_rounds(circuit)?;

        // Replay the transcript.
        let mut t = start_transcript(context, circuit, commitments);
        t.append_point(b"A_I", &self.a_i);
        t.append_point(b"A_O", &self.a_o);
        t.append_point(b"S", &self.s);
        let y = challenge(&mut t, b"y")?;
        let z = challenge(&mut t, b"z")?;
        for (k, p) in self.t.iter().enumerate() {
            t.append_point(T_LABELS[k], p);
        }
        let x = challenge(&mut t, b"x")?;
        t.append_scalar(b"t_hat", &self.t_hat);
        t.append_scalar(b"tau_x", &self.tau_x);
        t.append_scalar(b"mu", &self.mu);
        let w = challenge(&mut t, b"w")?;
        let (us, c) = replay_rounds(&mut t, &self.ipa_l, &self.ipa_r, &self.ipa_a, &self.ipa_b)?;

        let f = circuit.flatten(z, n);
        let y_inv_pows = powers(y.inverse().ok_or(Error::InvalidProof)?, n);
        let delta = delta(&y_inv_pows, &f);
        let xs = powers(x, 7);
        // The inner-product argument's folding, as the range proof's: G_i takes s_i, H_i
        // (`u·H_lo + H_hi`) takes s_{n−1−i}, the first target later_0 and round k's L, R
        // later_{k+1}.
        let (s, later) = folding_weights(&us);
        let all = later[0];
        let (a, b) = (self.ipa_a, self.ipa_b);

        terms.reserve(n, 2 * rounds + m + 8);
        let mut term = |p: Point, k: Scalar| terms.add(p, weight * k);
        // c·(x²·(δ − w_c)·G − x²·Σ w_V[j]·V_j + Σ x^i·T_i − t̂·G − τ_x·H) + (the folded
        // inner-product check on P = x·A_I + x²·A_O + x³·S − μ·H + …) = 0.
        term(self.a_i, all * xs[1]);
        term(self.a_o, all * xs[2]);
        term(self.s, all * xs[3]);
        for (p, &i) in self.t.iter().zip(&T_POWERS) {
            term(*p, c * xs[i]);
        }
        let cx2 = c * xs[2];
        for (v, wv) in commitments.iter().zip(&f.w_v) {
            term(*v, -(cx2 * wv));
        }
        terms.add_rounds(weight, &self.ipa_l, &self.ipa_r, &us, &later);
        terms.g += weight * (cx2 * (delta - f.w_c) - c * self.t_hat);
        terms.h -= weight * (all * self.mu + c * self.tau_x);
        terms.u += weight * w * (all * self.t_hat - a * b);
        let all_x = all * xs[1];
        for i in 0..n {
            terms.g_vec[i] += weight * (all_x * y_inv_pows[i] * f.w_r[i] - a * s[i]);
            terms.h_vec[i] += weight
                * (all * (y_inv_pows[i] * (xs[1] * f.w_l[i] + f.w_o[i]) - Scalar::one())
                    - b * y_inv_pows[i] * s[n - 1 - i]);
        }
        Ok(())
    }

    /// `A_I ‖ A_O ‖ S ‖ T_1 ‖ T_3 ‖ … ‖ T_6 ‖ t̂ ‖ τ_x ‖ μ ‖ (L_k ‖ R_k)_k ‖ a ‖ b`, 32 bytes each
    /// (the range proofs' wire form, [`crate::bulletproofs`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut head = vec![self.a_i, self.a_o, self.s];
        head.extend_from_slice(&self.t);
        encode_wire(
            &head,
            [&self.t_hat, &self.tau_x, &self.mu],
            &self.ipa_l,
            &self.ipa_r,
            [&self.ipa_a, &self.ipa_b],
        )
    }

    /// Decodes a proof, checking its length (`32·(13 + 2k)` bytes, `k ≤ 32` rounds; `k = 0` for
    /// a one-gate circuit), every point (on the curve, in the subgroup) and every scalar
    /// (canonical). Whether `k` fits the circuit is checked by [`CircuitProof::verify`].
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let names = ["A_I", "A_O", "S", "T_1", "T_3", "T_4", "T_5", "T_6"];
        let w = decode_wire(bytes, &names, 0, "a circuit proof")?;
        let [a_i, a_o, s, t1, t3, t4, t5, t6] = w.head[..] else {
            return Err(Error::Encoding("internal: eight head points".into()));
        };
        let [t_hat, tau_x, mu] = w.scalars;
        Ok(CircuitProof {
            a_i,
            a_o,
            s,
            t: [t1, t3, t4, t5, t6],
            t_hat,
            tau_x,
            mu,
            ipa_l: w.l,
            ipa_r: w.r,
            ipa_a: w.ab[0],
            ipa_b: w.ab[1],
        })
    }
}

/// The transcript labels of `T_1, T_3, T_4, T_5, T_6`.
const T_LABELS: [&[u8]; 5] = [b"T1", b"T3", b"T4", b"T5", b"T6"];

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    /// A random satisfied circuit of `gates` gates and `m` commitments.
    fn random(gates: usize, m: usize, r: &mut ChaCha20Rng) -> (Circuit, Assignment) {
        let mut c = Circuit::new();
        let mut a = Assignment::default();
        for _ in 0..gates {
            c.gate();
            let (x, y) = (Scalar::rand(r), Scalar::rand(r));
            a.left.push(x);
            a.right.push(y);
            a.out.push(x * y);
        }
        for _ in 0..m {
            c.commitment();
            a.values.push(Scalar::rand(r));
        }
        for _ in 0..gates + 3 {
            let mut terms: Vec<(Var, Scalar)> = (0..4)
                .map(|_| {
                    let v = match r.gen_range(0..4) {
                        0 if m > 0 => Var::Committed(r.gen_range(0..m)),
                        1 if gates > 0 => Var::Left(r.gen_range(0..gates)),
                        2 if gates > 0 => Var::Right(r.gen_range(0..gates)),
                        3 if gates > 0 => Var::Out(r.gen_range(0..gates)),
                        _ => Var::One,
                    };
                    (v, Scalar::rand(r))
                })
                .collect();
            let sum: Scalar = terms.iter().map(|(v, w)| c.value(&a, *v).expect("in range") * w).sum();
            terms.push((Var::One, -sum));
            c.constrain(terms);
        }
        assert!(c.is_satisfied(&a));
        (c, a)
    }

    /// `t_2 = δ(y, z) − w_c − ⟨w_V, v⟩` for a valid witness (and not for a false one), and the
    /// coefficients are those of `⟨l(X), r(X)⟩`.
    #[test]
    fn t2_identity() {
        let mut r = ChaCha20Rng::seed_from_u64(1);
        for (gates, m) in [(0, 1), (1, 0), (3, 2), (8, 1), (13, 3)] {
            let (c, mut a) = random(gates, m, &mut r);
            let n = c.padded_gates();
            let (y, z, x) = (Scalar::rand(&mut r), Scalar::rand(&mut r), Scalar::rand(&mut r));
            let f = c.flatten(z, n);
            let y_pows = powers(y, n);
            let y_inv_pows = powers(y.inverse().expect("nonzero"), n);
            let (s_l, s_r) = (random_vec(n, &mut r), random_vec(n, &mut r));
            let coefficients = |a: &Assignment| {
                let (a_l, a_r, a_o) = (padded(&a.left, n), padded(&a.right, n), padded(&a.out, n));
                let l1: Vec<Scalar> = (0..n).map(|i| a_l[i] + y_inv_pows[i] * f.w_r[i]).collect();
                let r0: Vec<Scalar> = (0..n).map(|i| f.w_o[i] - y_pows[i]).collect();
                let r1: Vec<Scalar> = (0..n).map(|i| y_pows[i] * a_r[i] + f.w_l[i]).collect();
                let r3: Vec<Scalar> = (0..n).map(|i| y_pows[i] * s_r[i]).collect();
                let tc = t_coefficients(&l1, &a_o, &s_l, &r0, &r1, &r3);
                let xs = powers(x, 7);
                let l: Vec<Scalar> =
                    (0..n).map(|i| l1[i] * xs[1] + a_o[i] * xs[2] + s_l[i] * xs[3]).collect();
                let rx: Vec<Scalar> = (0..n).map(|i| r0[i] + r1[i] * xs[1] + r3[i] * xs[3]).collect();
                assert_eq!(inner_product(&l, &rx), (0..7).map(|i| tc[i] * xs[i]).sum::<Scalar>());
                tc[2]
            };
            let expected = delta(&y_inv_pows, &f) - f.w_c - inner_product(&f.w_v, &a.values);
            assert_eq!(coefficients(&a), expected, "{gates} gates, {m} commitments");
            // A false gate (gates > 0), or a false constraint (a changed value that one uses).
            if gates > 0 {
                a.out[0] += Scalar::one();
            } else {
                assert!(!f.w_v[0].is_zero());
                a.values[0] += Scalar::one();
            }
            let expected = delta(&y_inv_pows, &f) - f.w_c - inner_product(&f.w_v, &a.values);
            assert_ne!(coefficients(&a), expected, "a false witness, {gates} gates");
        }
    }

    #[test]
    fn public_bits_are_detected_from_the_constraints_only() {
        let one = Scalar::one();
        let mut c = Circuit::new();
        for _ in 0..5 {
            c.gate();
        }
        // Gate 0: b − 1 = a_R, a_O = 0, in any order and scaled.
        c.constrain([
            (Var::One, -Scalar::from(3u64)),
            (Var::Right(0), -Scalar::from(3u64)),
            (Var::Left(0), Scalar::from(3u64)),
        ]);
        c.constrain([(Var::Out(0), Scalar::from(7u64))]);
        // Gate 1: a_R = a_L + 1 (not a bit gate: a_L ∈ {0, −1}).
        c.constrain([(Var::Right(1), one), (Var::Left(1), -one), (Var::One, -one)]);
        c.constrain([(Var::Out(1), one)]);
        // Gate 2: a_R = a_L − 1 but a_O free; gate 3: a_O = 0 only.
        c.constrain([(Var::Right(2), one), (Var::Left(2), -one), (Var::One, one)]);
        c.constrain([(Var::Out(3), one)]);
        // Gate 4: the decrement across two gates' wires.
        c.constrain([(Var::Right(4), one), (Var::Left(3), -one), (Var::One, one)]);
        c.constrain([(Var::Out(4), one)]);
        let p = c.public_bits();
        assert_eq!(p.bit, [true, false, false, false, false]);
        assert_eq!(p.out_zero, [true, true, false, true, true]);
    }
}
