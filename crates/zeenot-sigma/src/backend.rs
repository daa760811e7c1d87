//! The sigma back end (ZQL's, on Baby Jubjub): an IR program proved with a Bulletproofs
//! arithmetic circuit and sigma protocols over Pedersen commitments, with no trusted setup.
//!
//! Every private value is an affine combination of the circuit's variables ([`Var`]: gate
//! wires, the values of external Pedersen commitments `V = v·G + γ·H`, `G` = Base8, `H` =
//! zeenot's blinding base); public values stay in the clear and are computed by both sides with
//! the IR's own semantics ([`zeenot_ir::eval::step`]). Lowering, per operation on private
//! values:
//!
//! | IR | circuit |
//! |---|---|
//! | `add`, `sub`, `neg`, `cast`, a product with a public value, `not` | none: linear combinations |
//! | `mul`, `and`, `or`, `select` | a gate `a·b` (once per pair of values) |
//! | result that may leave its type | a range check on the result |
//! | range check `v − lo ∈ [0, 2^k)` | `k` bit gates (`b·(b − 1) = 0`) and `v = lo + Σ 2^i·b_i` |
//! | `lt`, `le`, `gt`, `ge` | a bit `c`, the gate `c·δ`, and a range check of `c·δ + (1−c)·(−δ−1) ≥ 0` |
//! | `eq`, `ne` | gates `c·(a−b) = 0` and `u·(a−b) = 1−c` |
//! | `floordiv`, `mod` | fresh `q` and `r`, `a = q·b + r`, `b ≠ 0` (a gate `u·b = 1`), range checks on `r`, `b − 1 − r` and `q` (signs handled) |
//! | `index` (ZØ's lookups, `First`) | a one-hot vector of the index (fresh bits `b_j`, `Σ b_j = 1`, `Σ j·b_j = i`; one per index), then `y = Σ x_j·b_j` (public table, no gate) or a fresh `y` with gates `b_j·(y − x_j) = 0` (private table) |
//! | `check` | the value is 1 |
//! | private input | its bits (`bool`: one bit gate) |
//! | committed input (one leaf) | the public `C` is an external commitment; a range check for its type |
//! | committed input (`k ≥ 2` joint leaves) | per leaf a wire, range-checked, and an opening (below); `C = Σ v_i·G_i + ρ·H` over the openings' value secrets |
//! | output | the value is the claimed public one |
//! | committed output | one leaf: `C` is an external commitment tied to the value; `k ≥ 2` leaves: `C − Σ_public v_i·G_i = Σ_private v_i·G_i + ρ·H` |
//! | `point_mul`, `point_add` (ElGamal) | none until output; a revealed point `Q = base + Σ sᵢ·Pᵢ` is one equation of the sigma statement |
//! | `eq` of a point's coordinates with a public point's, asserted by a `check` | the same equation with the public `Q`; the bools are the constant true |
//!
//! A guard that is a private value `g` is honoured the way the groth16 back end does it: an
//! operation that could fail yields `g·s` (so a guarded-off operation yields 0 and cannot fail),
//! a `check` proves `g·(1−c) = 0`, and an `index` looks up `g·i`.
//!
//! **Openings.** A value that a group equation uses (a point multiplication's scalar, a leaf of
//! a vector commitment) gets a fresh Pedersen commitment `V = v·G + γ·H`, carried by the proof:
//! an external commitment of the circuit, tied to the value there, and an opening `V = v·G +
//! γ·H` in the sigma statement, whose secret `v` the group equation uses. Pedersen commitments
//! bind, so both proofs speak of the same `v`.
//!
//! **Soundness of integer semantics.** The circuit works modulo `l` (≈ 2^251). Every private
//! value carries an interval computed from types and operations (the same on both sides,
//! independent of the witness); a value whose interval may leave its type is range-checked, so
//! every private integer lies within ±2^129 and congruences modulo `l` are equalities of
//! integers.
//!
//! **What crosses.** The proof carries the openings' commitments in the order lowering creates
//! them, one compressed sigma proof ([`crate::compressed`]) of the statement (the openings, the
//! revealed points, the vector commitments: an AND of linear equations), and one
//! arithmetic-circuit proof ([`crate::circuit`]) of the circuit, whose external commitments
//! are the instance's one-leaf commitments and the openings'. The Fiat–Shamir context binds
//! the program hash and every public value; the circuit proof's transcript binds the whole
//! circuit and its commitments, the sigma proof's the whole statement.
//!
//! **Committed values** cross between proofs as Pedersen commitments in the instance
//! ([`zeenot_ir::ir::commit_values`]): one leaf is `v·G + r·H`, exactly an external commitment
//! of the circuit, so it is used as is; `joint` leaves share one vector commitment
//! `Σ v_i·G_i + r·H`, proved in the sigma statement over the leaves' openings, each bound to
//! `C` in its place, since no relation between `G`, `H` and the `G_i` is known.
//!
//! **Points** ([`points`]): `point_mul` and `point_add` on public points and on points that
//! are linear in private scalars (an encryption, a sum of ciphertexts, a public multiple, a
//! re-randomisation) are proved as linear equations over the same secrets the openings open
//! to; a point is revealed as an output (both coordinates) and the verifier checks it on the
//! curve and in the prime-order subgroup, as every public point it uses.
//!
//! Not supported (the planner keeps these in the groth16 back end): arithmetic on private
//! `field` values (the circuit field is not the commitment group's scalar field; a private field
//! input may only be a point multiplication's scalar), Poseidon, signatures, private point
//! inputs, comparisons of private points, and a private scalar times a point computed from
//! private values (not linear).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use ark_ff::{Field, One, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{Point, Scalar};
use zeenot_ir::eval;
use zeenot_ir::ir::{
    commit_values, commitment_bases, commitment_decimals, Op, Program, Ty, Value, Visibility,
};
use zeroize::Zeroize;

use crate::bulletproofs::{BulletproofGens, MsmTerms};
use crate::circuit::{Assignment, Circuit, CircuitProof, Var};
use crate::compressed::{self, CompressedProof};
use crate::error::{Error, Result};
use crate::gens_cache;
use crate::proof;
use crate::statement::{Builder, Element, Node, Secret, Statement};

mod points;
use points::{is_point_op, Points};

/// The domain of the back end's Fiat–Shamir context.
pub const BACKEND_DOMAIN: &[u8] = b"zeenot/sigma-backend/v3";

/// A proof that a program ran: the commitments of values the sigma statement uses, one
/// compressed sigma proof of that statement, and one arithmetic-circuit proof of everything
/// else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramProof {
    /// Commitments to the private values that point equations and vector commitments use (in
    /// lowering order): the circuit's external commitments beside the instance's.
    pub aux: Vec<Point>,
    /// The compressed sigma proof of the lowered statement (an AND of equations).
    pub proof: CompressedProof,
    /// The arithmetic-circuit proof of the lowered circuit.
    pub circuit: CircuitProof,
}

impl ProgramProof {
    /// `len(aux)` ‖ aux points ‖ `len(sigma)` ‖ the sigma proof ‖ `len(circuit)` ‖ the circuit
    /// proof; every length 8 bytes, little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = (self.aux.len() as u64).to_le_bytes().to_vec();
        out.extend(Point::encode_batch(&self.aux).concat());
        for part in [self.proof.encode(), self.circuit.encode()] {
            out.extend((part.len() as u64).to_le_bytes());
            out.extend(part);
        }
        out
    }
}

/// Reads length-prefixed pieces of a [`ProgramProof`] encoding.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn len(&mut self, what: &str, unit: usize) -> Result<usize> {
        if self.bytes.len() < 8 {
            return Err(Error::Encoding(format!("truncated before the {what} count")));
        }
        let (head, rest) = self.bytes.split_at(8);
        self.bytes = rest;
        let n = u64::from_le_bytes(head.try_into().expect("8 bytes"));
        if n > (self.bytes.len() / unit) as u64 {
            return Err(Error::Encoding(format!("{n} {what} announced, {} bytes left", self.bytes.len())));
        }
        Ok(n as usize)
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        head
    }
}
/// The Bulletproof generators, derived once per process and grown on demand (the arithmetic
/// circuit's padded gates and the compressed proof's vector length need that many `G_i`, `H_i`;
/// growing derives only the new ones), read from disk where a one-shot verifier stored them
/// ([`gens_cache`]).
fn gens(capacity: usize) -> Arc<BulletproofGens> {
    static CACHE: Mutex<Option<Arc<BulletproofGens>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let wanted = capacity.max(1 << 10).next_power_of_two();
    if let Some(g) = cache.as_ref().filter(|g| g.capacity() >= capacity) {
        return g.clone();
    }
    let g = Arc::new(gens_cache::load(wanted).unwrap_or_else(|| {
        let g = match cache.as_ref() {
            Some(smaller) => smaller.extended(wanted),
            None => BulletproofGens::new(wanted),
        };
        gens_cache::store(&g);
        g
    }));
    *cache = Some(g.clone());
    g
}
/// Why a program cannot be proved with this back end, or what went wrong.
fn unsupported(p: &Program, index: usize, what: &str) -> Error {
    let loc = p.location(p.body.get(index).and_then(|i| i.loc));
    Error::Unsupported(format!("{what} at {loc}: the sigma back end does not support it"))
}

/// A value during lowering: public (both sides know it) or committed (the prover knows `v`
/// and `r`; the verifier sees only `c`); for point operations ([`points`]), a public field
/// element, a private `field` input (input index; a scalar only), or a coordinate of a point
/// computed from private values (point index, `y`).
#[derive(Clone, Copy, Debug)]
enum V {
    Pub(i128),
    Com(Com),
    Field(zeenot_crypto::Base),
    Scalar(usize),
    Coord(usize, bool),
}

/// A private value: an affine combination of the arithmetic circuit's variables (gate wires,
/// external commitments' values, the constant one), interned in the lowering's [`Arena`]
/// (`id`), and the prover's value `v` (the verifier's is 0 and unused).
#[derive(Clone, Copy, Debug)]
struct Com {
    id: u32,
    v: i128,
}

/// A linear combination in canonical form: sorted by variable, merged, no zero weights.
type Lc = Rc<[(Var, Scalar)]>;

/// Interned linear combinations: equal combinations, however they were formed (`a + b` and
/// `b + a`), share an id, so that the caches of products, openings and one-hot vectors find
/// them.
#[derive(Default)]
struct Arena {
    lcs: Vec<Lc>,
    ids: HashMap<Lc, u32>,
}

impl Arena {
    fn intern(&mut self, mut terms: Vec<(Var, Scalar)>) -> u32 {
        terms.sort_unstable_by_key(|t| t.0);
        let mut merged: Vec<(Var, Scalar)> = Vec::with_capacity(terms.len());
        for (v, w) in terms {
            match merged.last_mut() {
                Some((u, x)) if *u == v => *x += w,
                _ => merged.push((v, w)),
            }
        }
        merged.retain(|t| !t.1.is_zero());
        let lc: Lc = merged.into();
        if let Some(&id) = self.ids.get(&lc) {
            return id;
        }
        let id = u32::try_from(self.lcs.len()).expect("fewer than 2^32 values");
        self.lcs.push(lc.clone());
        self.ids.insert(lc, id);
        id
    }
}

/// `1/x` (0 for 0) as `x^(l−2)`: a fixed exponent, so the time does not depend on the secret
/// `x` (arkworks' `inverse` runs a binary extended Euclid, whose time does).
fn inverse_ct(x: Scalar) -> Scalar {
    use ark_ff::{BigInteger, PrimeField};
    let mut e = Scalar::MODULUS;
    e.sub_with_borrow(&2u64.into());
    x.pow(e)
}

fn sc(v: i128) -> Scalar {
    let s = Scalar::from(v.unsigned_abs());
    if v < 0 {
        -s
    } else {
        s
    }
}

/// `k·P` for a public integer `k`: as `−(|k|·P)` for negative `k`, so that the cost follows the
/// bits of `|k|` (typically ≤ 64), not of `l − |k|` (251).
fn mul_small(p: &Point, k: i128) -> Point {
    let m = p.mul_vartime(&Scalar::from(k.unsigned_abs()));
    if k < 0 {
        -m
    } else {
        m
    }
}

type Interval = (i128, i128);

fn iv_add(a: Interval, b: Interval) -> Option<Interval> {
    Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?))
}

fn iv_neg(a: Interval) -> Option<Interval> {
    Some((a.1.checked_neg()?, a.0.checked_neg()?))
}

fn iv_mul(a: Interval, b: Interval) -> Option<Interval> {
    let ps = [a.0.checked_mul(b.0)?, a.0.checked_mul(b.1)?, a.1.checked_mul(b.0)?, a.1.checked_mul(b.1)?];
    Some((*ps.iter().min()?, *ps.iter().max()?))
}

/// The smallest `w` with `[lo, hi] ⊆ [−2^w, 2^w)`.
fn signed_width(iv: Interval) -> u32 {
    (0..127).find(|&w| iv.0 >= -(1i128 << w) && iv.1 < (1i128 << w)).unwrap_or(127)
}

/// The lowering, shared by prover (`prover = true`: knows every value, draws randomness, emits
/// commitments) and verifier (reads commitments from the proof). Both build the same circuit
/// and the same statement.
struct Lowering<'a> {
    p: &'a Program,
    rng: Option<&'a mut dyn RngCore>,
    aux_out: Vec<Point>,
    aux_in: std::slice::Iter<'a, Point>,
    /// The sigma statement: openings of external commitments, revealed points, vector
    /// commitments of joint leaves.
    b: Builder,
    nodes: Vec<Node>,
    witness: Vec<Option<Scalar>>,
    elements: HashMap<Point, Element>,
    /// The arithmetic circuit, the prover's wire values, its external commitments and their
    /// blindings (the prover's).
    circuit: Circuit,
    wires: Assignment,
    commitments: Vec<Point>,
    blindings: Vec<Scalar>,
    /// A gate whose right wire is still free ([`Lowering::fresh`]).
    free_right: Option<usize>,
    arena: RefCell<Arena>,
    /// Openings in the sigma statement of values' commitments, by value.
    openings: HashMap<u32, (Secret, Secret)>,
    /// Products already made, by their factors.
    products: HashMap<(u32, u32), Com>,
    /// One-hot vectors of lookup indices, by the index and the table's length.
    one_hots: HashMap<(u32, usize), Vec<Com>>,
    /// The output commitments' blindings, when the prover chose them (`ir::split_blindings`).
    out_blindings: Option<std::slice::Iter<'a, Scalar>>,
    g: Point,
    h: Point,
    /// Counting a proof's size ([`shape`]): the index of the next stand-in for a fresh
    /// commitment ([`stand_in`]).
    stand_in: Option<u64>,
    /// Fresh commitments and statement equations made so far (for [`shape`]).
    fresh_count: usize,
    equation_count: usize,
    /// Terms of revealed points' equations, and public points checked (for [`shape`]).
    point_terms: usize,
    public_points: usize,
}

impl<'a> Lowering<'a> {
    fn prover(&self) -> bool {
        self.rng.is_some()
    }

    fn rand(&mut self) -> Scalar {
        Scalar::rand(self.rng.as_mut().expect("prover"))
    }

    /// The prover's `x` as a scalar; 0 for the verifier.
    fn val(&self, x: i128) -> Scalar {
        if self.prover() {
            sc(x)
        } else {
            Scalar::zero()
        }
    }

    fn secret(&mut self, name: &str, value: impl FnOnce() -> Scalar) -> Secret {
        let w = if self.prover() { Some(value()) } else { None };
        self.witness.push(w);
        self.b.secret(name)
    }

    fn el(&mut self, p: Point) -> Element {
        if let Some(e) = self.elements.get(&p) {
            return *e;
        }
        let e = self.b.element("", p);
        self.elements.insert(p, e);
        e
    }

    fn lc(&self, a: Com) -> Lc {
        self.arena.borrow().lcs[a.id as usize].clone()
    }

    fn make(&self, terms: Vec<(Var, Scalar)>, v: i128) -> Com {
        Com { id: self.arena.borrow_mut().intern(terms), v }
    }

    fn var(&self, x: Var, v: i128) -> Com {
        self.make(vec![(x, Scalar::one())], v)
    }

    /// The variable a value made by [`Lowering::var`] is.
    fn variable(&self, c: Com) -> Var {
        let lc = self.lc(c);
        debug_assert!(lc.len() == 1 && lc[0].1.is_one(), "a single variable");
        lc[0].0
    }

    fn constant(&self, k: i128) -> Com {
        self.make(vec![(Var::One, sc(k))], k)
    }

    fn com(&self, x: V) -> Com {
        match x {
            V::Pub(k) => self.constant(k),
            V::Com(c) => c,
            // IR type rules keep `field` values out of integer operations, and `lower` refuses
            // every non-point operation on them before it gets here.
            V::Field(_) | V::Scalar(_) | V::Coord(..) => {
                unreachable!("a field value in an integer operation")
            }
        }
    }

    /// `ka·a + kb·b`.
    fn combine(&self, a: Com, ka: i128, b: Com, kb: i128) -> Com {
        let (la, lb) = (self.lc(a), self.lc(b));
        let (ka_s, kb_s) = (sc(ka), sc(kb));
        let terms =
            la.iter().map(|&(x, w)| (x, w * ka_s)).chain(lb.iter().map(|&(x, w)| (x, w * kb_s))).collect();
        self.make(terms, ka * a.v + kb * b.v)
    }

    fn add(&self, a: Com, b: Com) -> Com {
        self.combine(a, 1, b, 1)
    }

    fn sub(&self, a: Com, b: Com) -> Com {
        self.combine(a, 1, b, -1)
    }

    fn scale(&self, a: Com, k: i128) -> Com {
        let k_s = sc(k);
        self.make(self.lc(a).iter().map(|&(x, w)| (x, w * k_s)).collect(), a.v * k)
    }

    fn add_const(&self, a: Com, k: i128) -> Com {
        self.add(a, self.constant(k))
    }

    /// A new gate with the prover's inputs `l`, `r` (its output is `l·r`).
    fn gate(&mut self, l: Scalar, r: Scalar) -> usize {
        self.wires.left.push(l);
        self.wires.right.push(r);
        self.wires.out.push(l * r);
        self.circuit.gate()
    }

    /// The circuit constraint `a = 0`.
    fn zero(&mut self, a: Com) {
        let lc = self.lc(a);
        self.circuit.constrain(lc.iter().copied());
    }

    /// The circuit constraint `x = a`, for a variable `x`.
    fn tie(&mut self, x: Var, a: Com) {
        let lc = self.lc(a);
        self.circuit.constrain(std::iter::once((x, Scalar::one())).chain(lc.iter().map(|&(y, w)| (y, -w))));
    }

    /// An external commitment `c` to `v` with blinding `r` (the prover's): the circuit's
    /// `Committed(j)`.
    fn external(&mut self, c: Point, v: i128, r: Scalar) -> Com {
        let x = self.circuit.commitment();
        self.commitments.push(c);
        self.blindings.push(r);
        self.wires.values.push(self.val(v));
        self.var(x, v)
    }

    /// A fresh private value, unconstrained: the right wire of the last gate whose right wire
    /// is free, or a new gate's left wire (two fresh values per gate).
    fn fresh(&mut self, v: i128) -> Com {
        let value = self.val(v);
        let x = match self.free_right.take() {
            Some(i) => {
                self.wires.right[i] = value;
                self.wires.out[i] = self.wires.left[i] * value;
                Var::Right(i)
            }
            None => {
                let i = self.gate(value, Scalar::zero());
                self.free_right = Some(i);
                Var::Left(i)
            }
        };
        self.var(x, v)
    }

    /// A fresh bit `b` in a gate of its own: `a_R = a_L − 1` and `a_O = 0`, so `b·(b − 1) = 0`
    /// (no witness check: a cheating prover's value fails the gate).
    fn fresh_bit(&mut self, v: i128) -> Com {
        let b = self.val(v);
        let i = self.gate(b, b - Scalar::one());
        let one = Scalar::one();
        self.circuit.constrain([(Var::Right(i), one), (Var::Left(i), -one), (Var::One, one)]);
        self.circuit.constrain([(Var::Out(i), one)]);
        self.var(Var::Left(i), v)
    }

    /// A fresh Pedersen commitment to `v` for the sigma statement (prover), the next one from
    /// the proof (verifier), or a stand-in (counting); with its blinding (the prover's).
    fn aux_commitment(&mut self, v: i128) -> Result<(Point, Scalar)> {
        self.fresh_count += 1;
        if let Some(k) = self.stand_in {
            self.stand_in = Some(k + 1);
            return Ok((stand_in(&self.h, k), Scalar::zero()));
        }
        if self.prover() {
            let r = self.rand();
            let c = Point::msm_ct(&[self.g, self.h], &[sc(v), r]);
            self.aux_out.push(c);
            Ok((c, r))
        } else {
            let c = *self
                .aux_in
                .next()
                .ok_or_else(|| Error::Encoding("the proof has too few commitments".into()))?;
            Ok((c, Scalar::zero()))
        }
    }

    /// `lhs = Σ secret·base` as a conjunct of the statement.
    fn equation(&mut self, lhs: Point, terms: &[(Secret, Point)]) -> Node {
        self.equation_count += 1;
        let lhs = self.el(lhs);
        let terms: Vec<(Secret, Element)> = terms.iter().map(|&(s, p)| (s, self.el(p))).collect();
        self.b.equation(lhs, &terms)
    }

    fn require(&mut self, lhs: Point, terms: &[(Secret, Point)]) {
        let n = self.equation(lhs, terms);
        self.nodes.push(n);
    }

    /// Secrets `(v, r)` of the sigma statement for a private value: a fresh commitment
    /// `C = v·G + r·H` (carried by the proof), the circuit's `Committed(j) = a`, and the
    /// statement's `C = v·G + r·H`; once per value. What point equations and vector
    /// commitments use.
    fn opening(&mut self, a: Com) -> Result<(Secret, Secret)> {
        if let Some(o) = self.openings.get(&a.id) {
            return Ok(*o);
        }
        let (c, r) = self.aux_commitment(a.v)?;
        let x = self.external(c, a.v, r);
        self.tie(self.variable(x), a);
        let v = self.secret("v", || sc(a.v));
        let r = self.secret("r", || r);
        let (g, h) = (self.g, self.h);
        self.require(c, &[(v, g), (r, h)]);
        self.openings.insert(a.id, (v, r));
        Ok((v, r))
    }

    /// `a` is the public `k`.
    fn opens_to(&mut self, a: Com, k: i128) {
        self.zero(self.add_const(a, -k));
    }

    /// `a` is 0 or 1 (with the prover's witness check).
    fn bit(&mut self, a: Com) -> Result<()> {
        if self.prover() && !(0..=1).contains(&a.v) {
            return Err(Error::Witness("internal: a bit is not 0 or 1".into()));
        }
        let one_minus = self.sub(self.constant(1), a);
        self.product_zero(a, one_minus);
        Ok(())
    }

    /// The one-hot vector of a private index `i < n`: fresh bits `b_j` with `Σ b_j = 1` and
    /// `Σ j·b_j = i` (so exactly one `b_j` is 1, the `i`-th), shared by every lookup at the same
    /// index.
    fn one_hot(&mut self, i: Com, n: usize) -> Vec<Com> {
        if let Some(b) = self.one_hots.get(&(i.id, n)) {
            return b.clone();
        }
        let bits: Vec<Com> = (0..n).map(|j| self.fresh_bit(i128::from(i.v == j as i128))).collect();
        self.constrain_one_hot(i, &bits);
        self.one_hots.insert((i.id, n), bits.clone());
        bits
    }

    /// The sums of a one-hot vector `bits` of index `i` (the bits are [`Lowering::fresh_bit`]s):
    /// `Σ b_j = 1`, `Σ j·b_j = i`.
    fn constrain_one_hot(&mut self, i: Com, bits: &[Com]) {
        let sum = bits.iter().fold(self.constant(0), |s, b| self.add(s, *b));
        self.opens_to(sum, 1);
        let weighted =
            bits.iter().enumerate().fold(self.constant(0), |s, (j, b)| self.combine(s, 1, *b, j as i128));
        self.zero(self.sub(i, weighted));
    }

    /// `v − lo ∈ [0, 2^bits)`: `v = `[`Lowering::ranged`]`(lo, bits)`.
    fn range(&mut self, a: Com, lo: i128, bits: u32) -> Result<()> {
        if bits == 1 && lo == 0 {
            return self.bit(a);
        }
        let r = self.ranged(a.v, lo, bits)?;
        self.zero(self.sub(a, r));
        Ok(())
    }

    /// A private value `v ∈ [lo, lo + 2^bits)` made of `bits` fresh bits (a gate each):
    /// `lo + Σ 2^k·b_k`, no wire of its own. The sum is below `2^127`, far below `l`, so an
    /// equation modulo `l` with it is one of integers.
    fn ranged(&mut self, v: i128, lo: i128, bits: u32) -> Result<Com> {
        let u = v.wrapping_sub(lo);
        if self.prover() && !(u >= 0 && (bits >= 127 || u < (1i128 << bits))) {
            return Err(Error::Witness("internal: a range-checked value is out of range".into()));
        }
        debug_assert!(bits <= 127, "intervals are within ±2^127");
        let mut terms = vec![(Var::One, sc(lo))];
        for k in 0..bits {
            let b = self.fresh_bit((u >> k) & 1);
            terms.push((self.variable(b), Scalar::from(1u128 << k)));
        }
        Ok(self.make(terms, v))
    }

    /// `a·b`: a gate with inputs tied to `a` and `b`, made once per pair of values (a guard
    /// times an index, say, is shared by every lookup it guards).
    fn product(&mut self, a: Com, b: Com) -> Com {
        if let Some(c) = self.products.get(&(a.id, b.id)) {
            return *c;
        }
        let i = self.gate(self.val(a.v), self.val(b.v));
        self.tie(Var::Left(i), a);
        self.tie(Var::Right(i), b);
        let c = self.var(Var::Out(i), a.v * b.v);
        self.products.insert((a.id, b.id), c);
        c
    }

    /// `x·y` for values, a gate only when both are private.
    fn times(&mut self, x: V, y: V) -> V {
        match (x, y) {
            (V::Pub(a), V::Pub(b)) => V::Pub(a * b),
            (V::Pub(k), V::Com(c)) | (V::Com(c), V::Pub(k)) => V::Com(self.scale(c, k)),
            (a, b) => V::Com(self.product(self.com(a), self.com(b))),
        }
    }

    /// `a·b = 0`.
    fn product_zero(&mut self, a: Com, b: Com) {
        let c = self.product(a, b);
        self.zero(c);
    }

    /// `[d = 0]`: gates `c·d = 0` and `u·d = 1 − c` (with `u = 1/d`, or 0 when `d = 0`): for
    /// `d ≠ 0` the first forces `c = 0`, for `d = 0` the second forces `c = 1`.
    fn is_zero(&mut self, d: Com) -> Com {
        let c_v = i128::from(d.v == 0);
        let (c_s, d_s) = (self.val(c_v), self.val(d.v));
        let first = self.gate(c_s, d_s);
        self.tie(Var::Right(first), d);
        self.circuit.constrain([(Var::Out(first), Scalar::one())]);
        let u = if self.prover() { inverse_ct(d_s) } else { Scalar::zero() };
        let second = self.gate(u, d_s);
        self.tie(Var::Right(second), d);
        let one = Scalar::one();
        self.circuit.constrain([(Var::Out(second), one), (Var::Left(first), one), (Var::One, -one)]);
        self.var(Var::Left(first), c_v)
    }

    /// `[δ ≥ 0]` for `δ` in `iv`.
    fn nonnegative(&mut self, delta: Com, iv: Interval) -> Result<Com> {
        let w = signed_width(iv);
        let c = self.fresh_bit(i128::from(delta.v >= 0));
        let cd = self.product(c, delta);
        // e = c·δ + (1−c)·(−δ−1) = 2·cδ + c − δ − 1 ∈ [0, 2^w).
        let e = self.add_const(self.sub(self.add(self.scale(cd, 2), c), delta), -1);
        self.range(e, 0, w)?;
        Ok(c)
    }
}

/// An output as the instance shows it: a value, a field element (a point's coordinate), a
/// commitment (with its blinding, for the prover) where an output commitment starts, or nothing
/// for a `joint` output (a leaf of the commitment shown at an earlier output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    Value(i128),
    Field(zeenot_crypto::Base),
    Commitment(Point, Scalar),
    Joint,
}

/// Lowers the program. `inputs`: every input leaf's value (prover) or the public ones only
/// (verifier: `None` elsewhere); `committed`: each input commitment ([`Program::input_commitments`])
/// and its blinding (the verifier's blindings are unused); `claimed`: the verifier's view of the
/// outputs. Returns the outputs as shown (the prover draws output commitments' blindings).
fn lower(
    lw: &mut Lowering<'_>,
    inputs: &[Option<Value>],
    committed: &[(Point, Scalar)],
    claimed: Option<&[Shown]>,
) -> Result<Vec<Shown>> {
    let p = lw.p;
    let mut vals: Vec<V> = Vec::with_capacity(p.types.len());
    let mut ivs: Vec<Interval> = Vec::with_capacity(p.types.len());
    let groups = p.input_commitments();
    if committed.len() != groups.len() {
        return Err(Error::Input(format!(
            "expected {} input commitments, got {}",
            groups.len(),
            committed.len()
        )));
    }
    // A one-leaf commitment is the leaf's own; the leaves of a vector commitment are committed
    // afresh and tied to it after the inputs.
    let mut own: Vec<Option<(Point, Scalar)>> = vec![None; p.inputs.len()];
    for (g, &c) in groups.iter().zip(committed) {
        if let [i] = g[..] {
            own[i] = Some(c);
        }
    }
    let mut points = Points::default();
    let asserted = asserted_bools(p);
    let mut equal: Vec<(usize, bool, zeenot_crypto::Base)> = Vec::new(); // asserted `point == public point`
    for (k, inp) in p.inputs.iter().enumerate() {
        let Some((lo, hi)) = inp.ty.range() else {
            // A field element: public (a point's coordinate), or private (a point
            // multiplication's scalar, [`points`]); either is refused where used otherwise.
            vals.push(match (inp.vis, inputs[k]) {
                (Visibility::Public, Some(Value::Field(f))) => V::Field(f),
                (Visibility::Public, _) => {
                    return Err(Error::Input(format!(
                        "input `{}` is missing or not a field element",
                        inp.name
                    )))
                }
                _ => V::Scalar(k),
            });
            ivs.push((0, 0));
            continue;
        };
        let v = match inputs[k] {
            Some(Value::Int(v)) => v,
            _ if !lw.prover() && inp.vis != Visibility::Public => 0,
            _ => return Err(Error::Input(format!("input `{}` is missing or not an integer", inp.name))),
        };
        let c = match inp.vis {
            Visibility::Public => {
                vals.push(V::Pub(v));
                ivs.push((v, v));
                continue;
            }
            Visibility::Committed => match own[k] {
                Some((c, r)) => lw.external(c, v, r),
                None => lw.fresh(v),
            },
            // a private bool is a gate of its own; other values a free wire, range-checked
            Visibility::Private if inp.ty == Ty::Bool => lw.fresh_bit(v),
            // other private values are their bits
            Visibility::Private => lw.ranged(v, lo, inp.ty.bits())?,
        };
        match (inp.ty, inp.vis) {
            (_, Visibility::Private) => {}
            (Ty::Bool, _) => lw.bit(c)?,
            _ => lw.range(c, lo, inp.ty.bits())?,
        }
        vals.push(V::Com(c));
        ivs.push((lo, hi));
    }
    for (g, &(c, r)) in groups.iter().zip(committed).filter(|(g, _)| g.len() > 1) {
        let leaves: Vec<V> = g.iter().map(|&i| vals[i]).collect();
        commits_to(lw, c, r, &leaves)?;
    }

    for (index, inst) in p.body.iter().enumerate() {
        let ty = inst.ty;
        let arg = |k: usize| vals[inst.args[k]];
        let iv = |k: usize| ivs[inst.args[k]];
        // Guard: active, inactive, or a private bit.
        #[derive(Clone, Copy)]
        enum Guard {
            On,
            Off,
            Private(Com),
        }
        let guard = match inst.guard.map(|g| vals[g]) {
            None | Some(V::Pub(1)) => Guard::On,
            Some(V::Pub(_)) => Guard::Off,
            Some(V::Com(c)) => Guard::Private(c),
            Some(_) => unreachable!("validated: a guard is a bool"),
        };
        // Point operations (public ones too: every public point is checked on first use).
        if is_point_op(inst.op) {
            let v = points.coordinate(lw, &vals, inputs, index)?;
            vals.push(v);
            ivs.push((0, 0));
            continue;
        }
        // All-public instructions are evaluated in the clear, with the IR's own semantics.
        let public = |v: V| matches!(v, V::Pub(_) | V::Field(_));
        if inst.args.iter().all(|&a| public(vals[a])) && !matches!(guard, Guard::Private(_)) {
            let a = |k: usize| match vals[inst.args[k]] {
                V::Pub(v) => Value::Int(v),
                V::Field(f) => Value::Field(f),
                _ => unreachable!("all public"),
            };
            match eval::step(p, inst, &a, matches!(guard, Guard::On)) {
                Ok(Some(Value::Int(v))) => {
                    vals.push(V::Pub(v));
                    ivs.push((v, v));
                }
                Ok(Some(Value::Field(f))) => {
                    vals.push(V::Field(f));
                    ivs.push((0, 0));
                }
                Ok(None) => {}
                // The verifier's public values make the program fail: no honest proof exists.
                Err(_) if !lw.prover() => return Err(Error::InvalidProof),
                Err(kind) => {
                    return Err(Error::Witness(format!(
                        "the program fails ({}) at instruction {index}",
                        kind.name()
                    )))
                }
            }
            continue;
        }
        // `check(encrypt(m, pk, r) == ct)`: an asserted equality of a computed point's
        // coordinate with a public one is a group equation ([`Points::equal`]); the bool is
        // the constant true, as every proof asserts it.
        if inst.op == Op::Eq && matches!(guard, Guard::On) && inst.dst.is_some_and(|d| asserted[d]) {
            let pair = match (arg(0), arg(1)) {
                (V::Coord(at, y), V::Field(f)) | (V::Field(f), V::Coord(at, y)) => Some((at, y, f)),
                _ => None,
            };
            if let Some(coordinate) = pair {
                equal.push(coordinate);
                vals.push(V::Pub(1));
                ivs.push((1, 1));
                continue;
            }
        }
        if ty == Ty::Field || inst.args.iter().any(|&a| p.types[a] == Ty::Field) {
            return Err(unsupported(p, index, &format!("`{}` on private field elements", inst.op.name())));
        }
        let type_range = ty.range().unwrap_or((0, 0));
        // Homomorphic result `s` with interval `siv`; range-checked (and guarded) if it may
        // leave its type.
        let arith = |lw: &mut Lowering<'_>, s: V, siv: Option<Interval>| -> Result<(V, Interval)> {
            let fits = siv.is_some_and(|(lo, hi)| lo >= type_range.0 && hi <= type_range.1);
            if fits {
                return Ok((s, siv.expect("fits")));
            }
            let s = match guard {
                Guard::On => s,
                Guard::Off => V::Pub(0),
                Guard::Private(g) => lw.times(V::Com(g), s),
            };
            if let V::Com(c) = s {
                if ty == Ty::Bool {
                    lw.bit(c)?;
                } else {
                    lw.range(c, type_range.0, ty.bits())?;
                }
            }
            Ok((s, type_range))
        };
        let result: Option<(V, Interval)> = match inst.op {
            Op::Const => unreachable!("constants are public"),
            Op::Add | Op::Sub => {
                let (a, b) = (lw.com(arg(0)), lw.com(arg(1)));
                let (s, siv) = if inst.op == Op::Add {
                    (lw.add(a, b), iv_add(iv(0), iv(1)))
                } else {
                    (lw.sub(a, b), iv_neg(iv(1)).and_then(|n| iv_add(iv(0), n)))
                };
                Some(arith(lw, V::Com(s), siv)?)
            }
            Op::Neg => {
                let a = lw.com(arg(0));
                Some(arith(lw, V::Com(lw.scale(a, -1)), iv_neg(iv(0)))?)
            }
            Op::Mul => {
                let s = lw.times(arg(0), arg(1));
                Some(arith(lw, s, iv_mul(iv(0), iv(1)))?)
            }
            Op::Cast => Some(arith(lw, arg(0), Some(iv(0)))?),
            Op::Eq | Op::Ne => {
                let d = lw.sub(lw.com(arg(0)), lw.com(arg(1)));
                let c = lw.is_zero(d);
                let c = if inst.op == Op::Eq { c } else { lw.sub(lw.constant(1), c) };
                Some((V::Com(c), (0, 1)))
            }
            Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                let (a, b) = (lw.com(arg(0)), lw.com(arg(1)));
                let (x, y, xiv, yiv) = match inst.op {
                    Op::Lt | Op::Le => (b, a, iv(1), iv(0)),
                    _ => (a, b, iv(0), iv(1)),
                };
                // lt/gt: x − y − 1 ≥ 0; le/ge: x − y ≥ 0.
                let strict = matches!(inst.op, Op::Lt | Op::Gt);
                let shift = if strict { -1 } else { 0 };
                let delta = lw.add_const(lw.sub(x, y), shift);
                let div = (xiv.0 - yiv.1 + shift, xiv.1 - yiv.0 + shift);
                Some((V::Com(lw.nonnegative(delta, div)?), (0, 1)))
            }
            Op::And => Some((lw.times(arg(0), arg(1)), (0, 1))),
            Op::Or => {
                let ab = lw.times(arg(0), arg(1));
                let s = lw.sub(lw.add(lw.com(arg(0)), lw.com(arg(1))), lw.com(ab));
                Some((V::Com(s), (0, 1)))
            }
            Op::Not => Some((V::Com(lw.sub(lw.constant(1), lw.com(arg(0)))), (0, 1))),
            Op::Select => match arg(0) {
                V::Pub(c) => Some((if c == 1 { arg(1) } else { arg(2) }, if c == 1 { iv(1) } else { iv(2) })),
                c => {
                    let c = lw.com(c);
                    let diff = match (arg(1), arg(2)) {
                        (V::Pub(x), V::Pub(y)) => V::Pub(x - y),
                        (x, y) => V::Com(lw.sub(lw.com(x), lw.com(y))),
                    };
                    let cd = lw.times(V::Com(c), diff);
                    let s = lw.add(lw.com(arg(2)), lw.com(cd));
                    Some((V::Com(s), (iv(1).0.min(iv(2).0), iv(1).1.max(iv(2).1))))
                }
            },
            Op::Check => {
                match (guard, arg(0)) {
                    (Guard::Off, _) => {}
                    (Guard::On, V::Pub(_)) => unreachable!("public checks are evaluated"),
                    (Guard::On, c) => {
                        let c = lw.com(c);
                        lw.opens_to(c, 1)
                    }
                    (Guard::Private(g), x) => {
                        let not_c = lw.sub(lw.constant(1), lw.com(x));
                        lw.product_zero(g, not_c);
                    }
                }
                None
            }
            Op::Index => {
                let n = inst.args.len() - 1;
                let table: Vec<V> = (1..=n).map(arg).collect();
                let union = (1..=n).map(iv).fold((i128::MAX, i128::MIN), |u, x| (u.0.min(x.0), u.1.max(x.1)));
                match (guard, arg(0)) {
                    (Guard::Off, _) => Some((V::Pub(0), (0, 0))),
                    (Guard::On, V::Pub(i)) if (0..n as i128).contains(&i) => {
                        Some((table[i as usize], iv(1 + i as usize)))
                    }
                    (Guard::On, V::Pub(_)) => {
                        return Err(if lw.prover() {
                            Error::Witness(format!("index out of range at instruction {index}"))
                        } else {
                            Error::InvalidProof
                        })
                    }
                    (Guard::Private(g), V::Pub(i)) if !(0..n as i128).contains(&i) => {
                        // Only a guarded-off lookup may have this index: prove g = 0.
                        lw.opens_to(g, 0);
                        Some((V::Pub(0), (0, 0)))
                    }
                    (guard, i) => {
                        let i = match guard {
                            Guard::Private(g) => lw.times(V::Com(g), i),
                            _ => i,
                        };
                        let i = lw.com(i);
                        Some((V::Com(lookup(lw, i, &table, n)?), union))
                    }
                }
            }
            Op::FloorDiv | Op::Mod => {
                let quotient = inst.op == Op::FloorDiv;
                match (guard, arg(1)) {
                    (Guard::Off, _) => Some((V::Pub(0), (0, 0))),
                    (Guard::On, V::Pub(0)) => {
                        return Err(if lw.prover() {
                            Error::Witness(format!("division by zero at instruction {index}"))
                        } else {
                            Error::InvalidProof
                        })
                    }
                    (Guard::Private(g), V::Pub(0)) => {
                        // Only a guarded-off division may divide by zero: prove g = 0.
                        lw.opens_to(g, 0);
                        Some((V::Pub(0), (0, 0)))
                    }
                    // `a // -1 = -a` may overflow (i_min): the negation path checks it.
                    (_, V::Pub(-1)) if quotient => {
                        let a = lw.com(arg(0));
                        Some(arith(lw, V::Com(lw.scale(a, -1)), iv_neg(iv(0)))?)
                    }
                    (_, V::Pub(-1)) => Some((V::Pub(0), (0, 0))),
                    (_, V::Pub(b)) => Some(divide(lw, lw.com(arg(0)), iv(0), Divisor::Public(b), quotient)?),
                    (guard, b) => {
                        let b = lw.com(b);
                        // A guarded-off division divides by 1 instead: b' = 1 + g·(b − 1).
                        let b = match guard {
                            Guard::Private(g) => {
                                let gb = lw.times(V::Com(g), V::Com(lw.add_const(b, -1)));
                                lw.add_const(lw.com(gb), 1)
                            }
                            _ => b,
                        };
                        Some(divide(lw, lw.com(arg(0)), iv(0), Divisor::Private(b, iv(1)), quotient)?)
                    }
                }
            }
            // Unreachable in practice: these all take or make `field` values, refused above.
            Op::Poseidon
            | Op::PointAddX
            | Op::PointAddY
            | Op::PointMulX
            | Op::PointMulY
            | Op::PointCheck
            | Op::EddsaCheck => return Err(unsupported(p, index, &format!("`{}`", inst.op.name()))),
        };
        if let Some((v, i)) = result {
            vals.push(v);
            ivs.push(i);
        }
    }

    let mut outputs = Vec::with_capacity(p.outputs.len());
    let mut coords = Vec::new();
    let mut out_groups = p.output_commitments().into_iter();
    for (k, &o) in p.outputs.iter().enumerate() {
        let claim = claimed.map(|c| c[k]);
        let x = vals[o];
        let shown = match (p.output_vis[k], x, claim) {
            // a joint leaf: proved with its commitment, shown at the commitment's first leaf
            (Visibility::Committed, _, None | Some(Shown::Joint)) if p.output_joint[k] => Shown::Joint,
            (Visibility::Committed, _, None | Some(Shown::Commitment(..))) if !p.output_joint[k] => {
                let group = out_groups.next().expect("an output commitment starts here");
                let leaves: Vec<V> = group.iter().map(|&j| vals[p.outputs[j]]).collect();
                let (c, r) = match claim {
                    Some(Shown::Commitment(c, _)) => (c, Scalar::zero()),
                    _ => {
                        let r = match lw.out_blindings.as_mut().and_then(Iterator::next) {
                            Some(&r) => r, // chosen by the prover of a region (ir::split_blindings)
                            None if lw.prover() => lw.rand(),
                            None => Scalar::zero(), // zero: [`shape`]
                        };
                        let values: Vec<i128> = leaves.iter().map(|&x| lw.com(x).v).collect();
                        (commit_values(&values, &r), r)
                    }
                };
                commits_to(lw, c, r, &leaves)?;
                Shown::Commitment(c, r)
            }
            // a claim of another kind (`parse_public` makes none)
            (Visibility::Committed, ..) => return Err(Error::InvalidProof),
            (_, V::Pub(v), claim) => {
                if claim.is_some_and(|c| c != Shown::Value(v)) {
                    return Err(Error::InvalidProof);
                }
                Shown::Value(v)
            }
            (_, V::Com(c), claim) => {
                let v = match claim {
                    Some(Shown::Value(v)) => v,
                    Some(_) => return Err(Error::InvalidProof),
                    None => c.v,
                };
                lw.opens_to(c, v);
                Shown::Value(v)
            }
            (_, V::Field(f), claim) => {
                if claim.is_some_and(|c| c != Shown::Field(f)) {
                    return Err(Error::InvalidProof);
                }
                Shown::Field(f)
            }
            (_, V::Coord(at, y), claim) => {
                let f = match claim {
                    Some(Shown::Field(f)) => f,
                    Some(_) => return Err(Error::InvalidProof),
                    None => points.value_of(at, y),
                };
                coords.push((at, y, f));
                Shown::Field(f)
            }
            (_, V::Scalar(_), _) => {
                return Err(Error::Unsupported(format!(
                    "output `{}` is a private field input: the sigma back end does not support it",
                    p.output_names[k]
                )))
            }
        };
        outputs.push(shown);
    }
    // the points the program asserts equal to public ones, and those the outputs reveal: each
    // equals its combination of secrets
    points.equal(lw, &equal)?;
    points.reveal(lw, &coords)?;
    Ok(outputs)
}

/// `c` is the commitment ([`commit_values`]) of `leaves` with blinding `r` (the prover's). One
/// leaf: `C` is an external commitment of the circuit, whose value is tied to the leaf's. More:
/// `C − Σ_public v_i·G_i = Σ_private x_i·G_i + ρ·H` in the sigma statement, each `x_i` the
/// value secret of the leaf's own commitment (its [`Lowering::opening`], tied to the leaf in
/// the circuit), so that `C` binds the very values the program computes on, each in its place.
/// The bools every proof asserts, by value: the argument of an unguarded `check`, and both
/// sides of an asserted `and` (a check of `a and b` holds only if both do).
fn asserted_bools(p: &Program) -> Vec<bool> {
    let mut asserted = vec![false; p.types.len()];
    for inst in p.body.iter().rev() {
        match inst.op {
            Op::Check if inst.guard.is_none() => asserted[inst.args[0]] = true,
            Op::And if inst.dst.is_some_and(|d| asserted[d]) => {
                for &a in &inst.args {
                    asserted[a] = true;
                }
            }
            _ => {}
        }
    }
    asserted
}

fn commits_to(lw: &mut Lowering<'_>, c: Point, r: Scalar, leaves: &[V]) -> Result<()> {
    if let [x] = leaves {
        let x = lw.com(*x);
        let cx = lw.external(c, x.v, r);
        lw.zero(lw.sub(cx, x));
        return Ok(());
    }
    let mut lhs = c;
    let mut terms = Vec::with_capacity(leaves.len() + 1);
    for (&x, g) in leaves.iter().zip(commitment_bases(leaves.len())) {
        match x {
            V::Pub(v) => lhs -= mul_small(&g, v),
            x => {
                let (v, _) = lw.opening(lw.com(x))?;
                terms.push((v, g));
            }
        }
    }
    let rho = lw.secret("rho", || r);
    terms.push((rho, lw.h));
    lw.require(lhs, &terms);
    Ok(())
}

enum Divisor {
    /// A public non-zero divisor other than −1.
    Public(i128),
    /// A private non-zero divisor, with its interval.
    Private(Com, Interval),
}

/// Python's `a // b` or `a % b`: commit `q` and `r`, prove `a = q·b + r`, `0 ≤ r < b` (or
/// `b < r ≤ 0` for `b < 0`) and `q` within its interval. The last one matters: for *any* `r`
/// there is a `q ≡ (a − r)·b⁻¹ (mod l)`; only a small `q` makes `a = q·b + r` an equation of
/// integers, and so `r = a mod b`.
fn divide(
    lw: &mut Lowering<'_>,
    a: Com,
    a_iv: Interval,
    b: Divisor,
    quotient: bool,
) -> Result<(V, Interval)> {
    let bv = match b {
        Divisor::Public(k) => k,
        Divisor::Private(c, _) => c.v,
    };
    let (qv, rv) = if lw.prover() { eval::floor_divmod(a.v, if bv == 0 { 1 } else { bv }) } else { (0, 0) };
    let q = lw.fresh(qv);
    let r = lw.fresh(rv);
    let (q_iv, r_iv) = match b {
        Divisor::Public(k) => {
            let qs = [
                a_iv.0.div_euclid(k),
                a_iv.1.div_euclid(k),
                eval::floor_divmod(a_iv.0, k).0,
                eval::floor_divmod(a_iv.1, k).0,
            ];
            let q_iv = (*qs.iter().min().expect("4"), *qs.iter().max().expect("4"));
            // a − k·q − r = 0
            let d = lw.sub(lw.sub(a, lw.scale(q, k)), r);
            lw.opens_to(d, 0);
            // |r| < |k|, with the sign of k: r' = sign(k)·r ∈ [0, |k| − 1].
            let (sign, m) = (k.signum(), k.abs());
            let r_pos = lw.scale(r, sign);
            if m == 1 {
                lw.opens_to(r_pos, 0);
            } else {
                let bits = 128 - (m - 1).leading_zeros();
                lw.range(r_pos, 0, bits)?;
                lw.range(lw.add_const(lw.scale(r_pos, -1), m - 1), 0, bits)?;
            }
            (q_iv, if k > 0 { (0, m - 1) } else { (1 - m, 0) })
        }
        Divisor::Private(c, b_iv) => {
            // b ≠ 0: a gate u·b = 1 (u = 1/b).
            let inv = if lw.prover() { inverse_ct(sc(c.v)) } else { Scalar::zero() };
            let gate = lw.gate(inv, lw.val(c.v));
            lw.tie(Var::Right(gate), c);
            lw.opens_to(lw.var(Var::Out(gate), 1), 1);
            let qb = lw.product(q, c);
            lw.opens_to(lw.sub(lw.sub(a, qb), r), 0);
            // r has b's sign: with σ = ±1 the sign of b, 0 ≤ σ·r < σ·b.
            let (r_pos, b_abs, m) = if b_iv.0 >= 0 {
                (r, c, b_iv.1)
            } else {
                let positive = lw.nonnegative(lw.add_const(c, -1), (b_iv.0 - 1, b_iv.1 - 1))?;
                let sign = lw.add_const(lw.scale(positive, 2), -1);
                (lw.product(sign, r), lw.product(sign, c), b_iv.0.abs().max(b_iv.1))
            };
            let bits = signed_width((0, m.max(1)));
            lw.range(r_pos, 0, bits)?;
            lw.range(lw.add_const(lw.sub(b_abs, r_pos), -1), 0, bits)?;
            let a_max = a_iv.0.abs().max(a_iv.1.abs());
            let q_iv = if b_iv.0 >= 0 && a_iv.0 >= 0 { (0, a_max) } else { (-a_max, a_max) };
            (q_iv, if b_iv.0 >= 0 { (0, m.max(1) - 1) } else { (1 - m.max(1), m.max(1) - 1) })
        }
    };
    let span = q_iv.1 - q_iv.0;
    if span == 0 {
        lw.opens_to(q, q_iv.0);
    } else {
        lw.range(q, q_iv.0, 128 - span.leading_zeros())?;
    }
    Ok(if quotient { (V::Com(q), q_iv) } else { (V::Com(r), r_iv) })
}

/// `y = table[i]` for a committed `i < n`: through the one-hot vector of `i` ([`Lowering::one_hot`]),
/// `y = Σ x_j·b_j` homomorphically for a public table, else a fresh `y` with `b_j·(y − x_j) = 0`.
fn lookup(lw: &mut Lowering<'_>, i: Com, table: &[V], n: usize) -> Result<Com> {
    if lw.prover() && !(0..n as i128).contains(&i.v) {
        return Err(Error::Witness("internal: a lookup index is out of range".into()));
    }
    if n == 1 {
        lw.opens_to(i, 0);
        return Ok(lw.com(table[0]));
    }
    let bits = lw.one_hot(i, n);
    if table.iter().all(|x| matches!(x, V::Pub(_))) {
        // `y = Σ x_j·b_j`, homomorphically: no commitment, no equation.
        return Ok(table
            .iter()
            .zip(&bits)
            .fold(lw.constant(0), |y, (x, b)| lw.add(y, lw.scale(*b, lw.com(*x).v))));
    }
    // A private entry: a fresh `y` with `b_j·(y − x_j) = 0` for every `j`.
    let y_val = usize::try_from(i.v).ok().and_then(|j| table.get(j)).map_or(0, |x| lw.com(*x).v);
    let y = lw.fresh(y_val);
    for (x, b) in table.iter().zip(&bits) {
        let d = lw.sub(y, lw.com(*x));
        lw.product_zero(*b, d);
    }
    Ok(y)
}

fn context(p: &Program, public: &[String]) -> Vec<u8> {
    let mut c = BACKEND_DOMAIN.to_vec();
    c.extend_from_slice(p.hash().as_bytes());
    for v in public {
        c.extend_from_slice(&(v.len() as u64).to_le_bytes());
        c.extend_from_slice(v.as_bytes());
    }
    c
}

fn new_lowering<'a>(p: &'a Program, rng: Option<&'a mut dyn RngCore>, aux: &'a [Point]) -> Lowering<'a> {
    Lowering {
        p,
        rng,
        aux_out: Vec::new(),
        aux_in: aux.iter(),
        b: Builder::new(),
        nodes: Vec::new(),
        witness: Vec::new(),
        elements: HashMap::new(),
        openings: HashMap::new(),
        one_hots: HashMap::new(),
        products: HashMap::new(),
        circuit: Circuit::new(),
        wires: Assignment::default(),
        commitments: Vec::new(),
        blindings: Vec::new(),
        free_right: None,
        arena: RefCell::new(Arena::default()),
        out_blindings: None,
        g: Point::generator(),
        h: blinding_generator(),
        stand_in: None,
        fresh_count: 0,
        equation_count: 0,
        point_terms: 0,
        public_points: 0,
    }
}

/// The size of a program's proof, counted without proving: what the planner's cost models
/// read (python/zeenot/plan). Prover and verifier work, and the proof's bytes, follow these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Fresh commitments the proof carries (openings of the values the sigma statement uses).
    pub commitments: usize,
    /// Secrets of the sigma statement.
    pub secrets: usize,
    /// Equations of the sigma statement.
    pub equations: usize,
    /// The compressed proof's vector length (the secrets rounded up to a power of two): the
    /// prover folds this many generators twice, the verifier's multi-exponentiation has them.
    pub sigma_generators: usize,
    /// Its folding rounds (four points each).
    pub sigma_rounds: usize,
    /// Multiplication gates of the arithmetic circuit.
    pub gates: usize,
    /// The gates a circuit proof covers (rounded up to a power of two): the prover folds
    /// `2·padded_gates` generators, the verifier's multi-exponentiation has them.
    pub padded_gates: usize,
    /// The circuit proof's inner-product rounds (two points each).
    pub circuit_rounds: usize,
    /// Linear constraints of the circuit.
    pub constraints: usize,
    /// Their terms (what both sides' flattening of the constraints costs).
    pub constraint_terms: usize,
    /// Terms of the equations of revealed points (each a scalar multiplication of a public
    /// point, for prover and verifier), one more per point for its own check.
    pub point_terms: usize,
    /// Public points checked on the curve and in the subgroup (keys, published ciphertexts).
    pub public_points: usize,
}

/// Counts what proving `p` takes by lowering it as the verifier does, with stand-in
/// commitments. `public`: every input leaf's value where it is known (public inputs); a public
/// input left `None` is counted as if private (a wire and its range check), so the count is an
/// upper bound when public values are not known yet.
pub fn shape(p: &Program, public: &[Option<Value>]) -> Result<Shape> {
    if public.len() != p.inputs.len() {
        return Err(Error::Input(format!("expected {} input leaves, got {}", p.inputs.len(), public.len())));
    }
    let mut p = p.clone();
    let mut public = public.to_vec();
    for (inp, v) in p.inputs.iter_mut().zip(public.iter_mut()) {
        if inp.vis == Visibility::Public && v.is_none() {
            if inp.ty == Ty::Field {
                // a point's coordinate, say: public whatever its value (a stand-in point)
                *v = Some(Value::Field(zeenot_crypto::Base::zero()));
            } else {
                inp.vis = Visibility::Private;
            }
        }
    }
    let (p, public) = (&p, &public[..]);
    let mut lw = new_lowering(p, None, &[]);
    let committed: Vec<(Point, Scalar)> = (0..p.input_commitments().len())
        .map(|k| (stand_in(&lw.h, u64::MAX - k as u64), Scalar::zero()))
        .collect();
    lw.stand_in = Some(0);
    lower(&mut lw, public, &committed, None)?;
    // `finish` adds one secret to a statement with none; `compressed::padded_len` rounds up.
    let sigma_generators = lw.witness.len().max(1).next_power_of_two();
    let padded_gates = lw.circuit.padded_gates();
    Ok(Shape {
        commitments: lw.fresh_count,
        secrets: lw.witness.len(),
        equations: lw.equation_count,
        sigma_generators,
        sigma_rounds: sigma_generators.trailing_zeros() as usize,
        gates: lw.circuit.gates(),
        padded_gates,
        circuit_rounds: padded_gates.trailing_zeros() as usize,
        constraints: lw.circuit.constraints(),
        constraint_terms: lw.circuit.terms(),
        point_terms: lw.point_terms,
        public_points: lw.public_points,
    })
}

/// The `k`-th stand-in commitment for counting: a pseudo-random multiple of `H`, so that
/// combinations the lowering forms (and looks up in its caches of openings, products and
/// one-hot vectors) coincide only where a proof's commitments would. (Stand-ins in arithmetic
/// progression made `C₁ + C₃ = 2·C₂` and merged entries a proof keeps apart.)
fn stand_in(h: &Point, k: u64) -> Point {
    // splitmix64
    let mut z = k.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h.mul_vartime(&Scalar::from(z ^ (z >> 31)))
}

/// What a lowering builds: the sigma statement and its witness (the prover's), the circuit,
/// its external commitments, and the prover's wires and blindings.
struct Lowered {
    statement: Statement,
    witness: Vec<Option<Scalar>>,
    circuit: Circuit,
    commitments: Vec<Point>,
    wires: Assignment,
    blindings: Vec<Scalar>,
}

fn finish(lw: Lowering<'_>) -> Result<Lowered> {
    let mut nodes = lw.nodes;
    let (mut b, mut witness) = (lw.b, lw.witness);
    if nodes.is_empty() {
        // Nothing for the sigma statement: a trivial true equation keeps the format uniform.
        let s = b.secret("one");
        let g = b.element("G", lw.g);
        nodes.push(b.equation(g, &[(s, g)]));
        witness.push(Some(Scalar::one()));
    }
    Ok(Lowered {
        statement: b.build(Node::And(nodes))?,
        witness,
        circuit: lw.circuit,
        commitments: lw.commitments,
        wires: lw.wires,
        blindings: lw.blindings,
    })
}

/// A proved program: the sigma proof, its public values and output blindings.
pub type Proven = zeenot_ir::ir::Proven<ProgramProof>;

/// Proves `p` on its input leaves, with one blinding per input commitment (and optionally one
/// per output commitment: `ir::split_blindings`). Fails with
/// [`Error::Unsatisfied`] when the program fails on these inputs and [`Error::Unsupported`] for
/// programs this back end cannot express.
pub fn prove<R: RngCore + CryptoRng>(
    p: &Program,
    inputs: &[Value],
    blindings: &[Scalar],
    rng: &mut R,
) -> Result<Proven> {
    p.check_values(inputs).map_err(Error::Input)?;
    let (blindings, given) = zeenot_ir::ir::split_blindings(p, blindings).map_err(Error::Input)?;
    let vals = eval::evaluate(p, inputs).map_err(Error::Unsatisfied)?;
    let expected = eval::outputs(p, &vals);
    let int = |i: usize| match vals[i] {
        Value::Int(v) => v,
        Value::Field(_) => unreachable!("validated: committed values are integers"),
    };
    let committed: Vec<(Point, Scalar)> = p
        .input_commitments()
        .iter()
        .zip(blindings)
        .map(|(g, r)| (commit_values(&g.iter().map(|&i| int(i)).collect::<Vec<_>>(), r), *r))
        .collect();
    let ins: Vec<Option<Value>> = inputs.iter().copied().map(Some).collect();
    let mut lw = new_lowering(p, Some(rng as &mut dyn RngCore), &[]);
    lw.out_blindings = given.map(|g| g.iter());
    let shown = lower(&mut lw, &ins, &committed, None)?;
    let mut public: Vec<String> = p.public_inputs().map(|i| vals[i].to_decimal()).collect();
    public.extend(committed.iter().flat_map(|(c, _)| commitment_decimals(c)));
    let mut out_blindings = Vec::new();
    for (k, s) in shown.iter().enumerate() {
        match s {
            Shown::Value(v) => {
                if v.to_string() != expected[k] {
                    return Err(Error::Witness(
                        "internal: the sigma lowering disagrees with the IR's semantics".into(),
                    ));
                }
                public.push(v.to_string());
            }
            Shown::Field(f) => {
                let f = zeenot_ir::ir::fr_to_decimal(f);
                if f != expected[k] {
                    return Err(Error::Witness(
                        "internal: the sigma lowering disagrees with the IR's semantics".into(),
                    ));
                }
                public.push(f);
            }
            Shown::Commitment(c, r) => {
                public.extend(commitment_decimals(c));
                out_blindings.push(*r);
            }
            Shown::Joint => {}
        }
    }
    let aux = std::mem::take(&mut lw.aux_out);
    let ctx = context(p, &public);
    let Lowered { statement, witness, circuit, commitments, mut wires, mut blindings } = finish(lw)?;
    let witness = witness
        .into_iter()
        .collect::<Option<Vec<Scalar>>>()
        .ok_or_else(|| Error::Witness("internal: a secret of the lowered statement is missing".into()))?;
    let generators = gens(compressed::padded_len(&statement).max(circuit.padded_gates()));
    let proof = compressed::prove(&generators, &statement, &witness, &ctx, rng)?;
    // The proof verifies exactly when every equation holds (one variable-time
    // multi-exponentiation over public values, cheaper than checking each equation).
    match compressed::verify(&generators, &statement, &proof, &ctx) {
        Ok(()) => {}
        Err(Error::InvalidProof) => {
            return Err(Error::Witness("the statement does not hold for these secrets".into()))
        }
        Err(e) => return Err(e),
    }
    // The circuit proof checks the wires first: a violation here is the lowering's fault.
    let circuit_proof =
        CircuitProof::prove(&generators, &circuit, &commitments, &wires, &blindings, &ctx, rng).map_err(
            |e| match e {
                Error::Witness(m) => Error::Witness(format!("internal: the lowered circuit: {m}")),
                e => e,
            },
        );
    for v in [&mut wires.left, &mut wires.right, &mut wires.out, &mut wires.values, &mut blindings] {
        v.zeroize();
    }
    Ok(Proven {
        proof: ProgramProof { aux, proof, circuit: circuit_proof? },
        public,
        blindings: out_blindings,
    })
}

/// Public input values (by input position), input commitments, outputs as shown.
type PublicView = (Vec<Option<Value>>, Vec<(Point, Scalar)>, Vec<Shown>);

/// The verifier's view of the public values: public inputs, input commitments and the outputs
/// as shown (an output commitment where it starts); every commitment checked to be a subgroup
/// point.
fn parse_public(p: &Program, public: &[String]) -> Result<PublicView> {
    let types = p.instance_types();
    if public.len() != types.len() {
        return Err(Error::Input(format!("expected {} public values, got {}", types.len(), public.len())));
    }
    let parsed: Vec<Value> = types
        .iter()
        .zip(public)
        .enumerate()
        .map(|(i, (&ty, v))| Value::parse(ty, v).map_err(|e| Error::Input(format!("public value {i}: {e}"))))
        .collect::<Result<_>>()?;
    let mut values = parsed.into_iter();
    let mut inputs = vec![None; p.inputs.len()];
    let mut committed = Vec::new();
    let mut outputs = Vec::new();
    for i in p.public_inputs() {
        inputs[i] = values.next();
    }
    let take_point = |values: &mut std::vec::IntoIter<Value>, what: String| -> Result<Point> {
        let (x, y) = (values.next().expect("counted"), values.next().expect("counted"));
        Point::from_xy(x.to_fr(), y.to_fr())
            .map_err(|e| Error::Input(format!("{what} is not a valid commitment: {e}")))
    };
    for g in p.input_commitments() {
        let names: Vec<&str> = g.iter().map(|&i| p.inputs[i].name.as_str()).collect();
        let what = format!("input{} `{}`", if names.len() > 1 { "s" } else { "" }, names.join("`, `"));
        committed.push((take_point(&mut values, what)?, Scalar::zero()));
    }
    for k in 0..p.outputs.len() {
        outputs.push(match p.output_vis[k] {
            Visibility::Committed if p.output_joint[k] => Shown::Joint,
            Visibility::Committed => Shown::Commitment(
                take_point(&mut values, format!("output `{}`", p.output_names[k]))?,
                Scalar::zero(),
            ),
            _ => match values.next().expect("counted") {
                Value::Int(v) => Shown::Value(v),
                Value::Field(f) => Shown::Field(f),
            },
        });
    }
    Ok((inputs, committed, outputs))
}

/// Verifies a proof of `p` against its public values (typed decimals: inputs, commitments and
/// outputs in the instance order of `docs/ir.md`): its sigma equations and its range proofs,
/// with one multi-exponentiation ([`verify_batch`] of one).
pub fn verify(p: &Program, public: &[String], bytes: &[u8]) -> Result<()> {
    verify_batch(p, &[(public, bytes)], &mut rand::thread_rng())
}

/// Verifies many proofs of `p` with one multi-exponentiation: every sigma equation and every
/// range proof of every proof, each times an independent random weight from `rng` (a
/// cryptographic generator), summed, the shared generators once. The sum is the identity for
/// valid proofs; if any proof is invalid it is not, except with probability about `2^−128` per
/// equation. Fails on the first malformed proof ([`Error::Encoding`] and friends) and with
/// [`Error::InvalidProof`] if the batch does not verify (then check each alone to find which).
pub fn verify_batch<R: RngCore + CryptoRng>(
    p: &Program,
    items: &[(&[String], &[u8])],
    rng: &mut R,
) -> Result<()> {
    let mut terms = MsmTerms::default();
    for (public, bytes) in items {
        let proof = DecodedProof::decode(p, public, bytes)?;
        proof.add_terms(rng, &mut terms)?;
    }
    let generators = gens(terms.g_vec.len());
    if terms.is_identity(&generators) {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
}

/// A program proof decoded and its statement rebuilt from the public values: what its
/// verification equations need.
struct DecodedProof {
    statement: Statement,
    proof: CompressedProof,
    circuit: Circuit,
    commitments: Vec<Point>,
    circuit_proof: CircuitProof,
    context: Vec<u8>,
}

impl DecodedProof {
    fn decode(p: &Program, public: &[String], bytes: &[u8]) -> Result<Self> {
        let (inputs, committed, outputs) = parse_public(p, public)?;
        let mut r = Reader { bytes };
        let n = r.len("commitments", 32)?;
        let aux = Point::decode_batch(r.take(32 * n))
            .map_err(|(i, e)| Error::Encoding(format!("commitment {i}: {e}")))?;
        let sigma_len = r.len("sigma proof bytes", 1)?;
        let sigma = r.take(sigma_len);
        let circuit_len = r.len("circuit proof bytes", 1)?;
        let circuit_proof = CircuitProof::decode(r.take(circuit_len))?;
        if !r.bytes.is_empty() {
            return Err(Error::Encoding(format!("{} bytes after the proof", r.bytes.len())));
        }
        let mut lw = new_lowering(p, None, &aux);
        lower(&mut lw, &inputs, &committed, Some(&outputs))?;
        if lw.aux_in.len() != 0 {
            return Err(Error::Encoding("the proof has too many commitments".into()));
        }
        let lowered = finish(lw)?;
        let proof = CompressedProof::decode(sigma)?;
        Ok(DecodedProof {
            statement: lowered.statement,
            proof,
            circuit: lowered.circuit,
            commitments: lowered.commitments,
            circuit_proof,
            context: context(p, public),
        })
    }

    fn add_terms<R: RngCore + CryptoRng>(&self, rng: &mut R, terms: &mut MsmTerms) -> Result<()> {
        compressed::verification_terms(
            &self.statement,
            &self.proof,
            &self.context,
            || proof::random_weight(rng),
            terms,
        )?;
        // the shape first: a forged proof must not cost this verifier the generators
        self.circuit_proof.check_rounds(&self.circuit)?;
        let gens = gens(self.circuit.padded_gates());
        let weight = proof::random_weight(rng);
        self.circuit_proof.verification_terms(
            &gens,
            &self.circuit,
            &self.commitments,
            &self.context,
            weight,
            terms,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{finish, gens, inverse_ct, new_lowering, Com, Lowering};
    use crate::circuit::{Assignment, CircuitProof, Var};
    use ark_ff::{Field, One, Zero};
    use rand::SeedableRng;
    use std::cell::Cell;
    use zeenot_crypto::Scalar;
    use zeenot_ir::Program;

    fn program() -> Program {
        Program::from_json(
            r#"{"version":1,"name":"t","inputs":[{"id":0,"name":"a","ty":"u8","vis":"private"}],
            "body":[],"outputs":[{"name":"x","value":0}]}"#,
        )
        .unwrap()
    }

    /// Whether the circuit `gadget` lowers, with the wires the prover holds after `cheat`
    /// changed them, is satisfied — and, the same answer, whether a proof made from those
    /// wires without checking them verifies.
    fn provable_after(gadget: impl FnOnce(&mut Lowering<'_>), cheat: impl FnOnce(&mut Assignment)) -> bool {
        let p = program();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let mut lw = new_lowering(&p, Some(&mut rng), &[]);
        gadget(&mut lw);
        let mut low = finish(lw).unwrap();
        cheat(&mut low.wires);
        let satisfied = low.circuit.is_satisfied(&low.wires);
        let generators = gens(low.circuit.padded_gates());
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let proof = CircuitProof::prove_unchecked(
            &generators,
            &low.circuit,
            &low.commitments,
            &low.wires,
            &low.blindings,
            b"",
            &mut rng,
        )
        .unwrap();
        let verified = proof.verify(&generators, &low.circuit, &low.commitments, b"").is_ok();
        assert_eq!(satisfied, verified, "a proof verifies exactly when the circuit is satisfied");
        satisfied
    }

    fn provable(gadget: impl FnOnce(&mut Lowering<'_>)) -> bool {
        provable_after(gadget, |_| {})
    }

    fn set(w: &mut Assignment, x: Var, v: i128) {
        let v = super::sc(v);
        match x {
            Var::Left(i) => w.left[i] = v,
            Var::Right(i) => w.right[i] = v,
            Var::Out(i) => w.out[i] = v,
            Var::Committed(j) => w.values[j] = v,
            Var::One => unreachable!(),
        }
    }

    /// Recomputes every gate's output from its inputs (a cheater keeps the gates consistent).
    fn regate(w: &mut Assignment) {
        for i in 0..w.left.len() {
            w.out[i] = w.left[i] * w.right[i];
        }
    }

    #[test]
    fn a_bit_is_zero_or_one() {
        for (v, ok) in [(0, true), (1, true), (2, false), (-1, false)] {
            // a free wire made a bit, and a bit made fresh: a cheating prover's value fails
            let proved = provable(|lw| {
                let b = lw.fresh(v);
                let one_minus = lw.sub(lw.constant(1), b);
                lw.product_zero(b, one_minus);
            });
            assert_eq!(proved, ok, "bit {v}");
            assert_eq!(provable(|lw| _ = lw.fresh_bit(v)), ok, "fresh bit {v}");
        }
    }

    #[test]
    fn a_one_hot_vector_has_exactly_one_bit_at_the_index() {
        // (bits, index): only a single 1 at the index is provable.
        let cases: [(&[i128], i128, bool); 5] = [
            (&[0, 1, 0], 1, true),
            (&[0, 1, 0], 2, false),
            (&[1, 1, 0], 1, false),
            (&[0, 0, 0], 0, false),
            // sums and index agree (2 − 1 = 1, 0·2 + 1·(−1) = −1): only bitness fails
            (&[2, -1, 0], -1, false),
        ];
        for (bits, index, ok) in cases {
            let proved = provable(|lw| {
                let i = lw.fresh(index);
                let bs: Vec<Com> = bits.iter().map(|&b| lw.fresh_bit(b)).collect();
                lw.constrain_one_hot(i, &bs);
            });
            assert_eq!(proved, ok, "bits {bits:?} at {index}");
        }
    }

    #[test]
    fn a_private_table_lookup_returns_the_entry_at_the_index() {
        // One-hot at index 1 of a private table [5, 7, 9]: y must be 7.
        for (y, ok) in [(7, true), (5, false), (9, false), (8, false)] {
            let proved = provable(|lw| {
                let xs: Vec<Com> = [5, 7, 9].iter().map(|&x| lw.fresh(x)).collect();
                let bs: Vec<Com> = [0, 1, 0].iter().map(|&b| lw.fresh_bit(b)).collect();
                let y = lw.fresh(y);
                for (x, b) in xs.iter().zip(&bs) {
                    let d = lw.sub(y, *x);
                    lw.product_zero(*b, d);
                }
            });
            assert_eq!(proved, ok, "y = {y}");
        }
    }

    #[test]
    fn a_shared_product_is_the_product() {
        // `product` twice on the same values (however formed) is one gate; a cheater's wrong
        // output fails the gate.
        let p = program();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let mut lw = new_lowering(&p, Some(&mut rng), &[]);
        let (a, b, c) = (lw.fresh(3), lw.fresh(4), lw.fresh(5));
        let (ab, ba) = (lw.add(a, b), lw.add(b, a));
        let p1 = lw.product(ab, c);
        let p2 = lw.product(ba, c);
        assert_eq!((p1.id, p1.v), (p2.id, 35));
        assert_eq!(lw.circuit.gates(), 3);
        for (v, ok) in [(12, true), (13, false)] {
            let out = Cell::new(None);
            let proved = provable_after(
                |lw| {
                    let (a, b) = (lw.fresh(3), lw.fresh(4));
                    let ab = lw.product(a, b);
                    out.set(Some(lw.variable(ab)));
                },
                |w| set(w, out.get().unwrap(), v),
            );
            assert_eq!(proved, ok, "product {v}");
        }
    }

    #[test]
    fn a_range_check_binds_the_value_to_its_bits() {
        for (v, bits, ok) in [(5, 3, true), (0, 3, true), (7, 3, true), (-3, 3, true)] {
            let lo = if v < 0 { -4 } else { 0 };
            let proved = provable(|lw| {
                let x = lw.fresh(v);
                lw.range(x, lo, bits).unwrap()
            });
            assert_eq!(proved, ok, "{v} in {bits} bits");
        }
        // 9 in 3 bits: the value changed after the fact fails the sum; bits (1, 0, 2) that sum
        // to 9 fail their gate.
        let at = Cell::new(None);
        let gadget = |lw: &mut Lowering<'_>| {
            let x = lw.fresh(5);
            at.set(Some((lw.variable(x), lw.circuit.gates())));
            lw.range(x, 0, 3).unwrap();
        };
        assert!(!provable_after(gadget, |w| set(w, at.get().unwrap().0, 9)));
        assert!(!provable_after(gadget, |w| {
            let (x, first) = at.get().unwrap();
            set(w, x, 9);
            for (k, b) in [1, 0, 2].into_iter().enumerate() {
                set(w, Var::Left(first + k), b);
                set(w, Var::Right(first + k), b - 1);
            }
            regate(w);
        }));
    }

    #[test]
    fn is_zero_is_one_exactly_for_zero() {
        for d in [0, 1, -5, 1 << 40] {
            let c_wire = Cell::new(None);
            assert!(provable(|lw| {
                let x = lw.fresh(d);
                let c = lw.is_zero(x);
                assert_eq!(c.v, i128::from(d == 0));
            }));
            // the other answer, with any inverse: refused
            for u in [0, 1, 7] {
                let proved = provable_after(
                    |lw| {
                        let x = lw.fresh(d);
                        let c = lw.is_zero(x);
                        c_wire.set(Some(lw.variable(c)));
                    },
                    |w| {
                        set(w, c_wire.get().unwrap(), i128::from(d != 0));
                        if let Some(Var::Left(first)) = c_wire.get() {
                            set(w, Var::Left(first + 1), u);
                        }
                        regate(w);
                    },
                );
                assert!(!proved, "[{d} = 0] flipped, u = {u}");
            }
        }
    }

    #[test]
    fn constant_time_inverse_is_the_inverse() {
        assert!(inverse_ct(Scalar::zero()).is_zero());
        for x in [1u64, 2, 3, 255, 1 << 40, u64::MAX] {
            let x = Scalar::from(x);
            assert_eq!(inverse_ct(x), x.inverse().unwrap());
            assert_eq!(inverse_ct(-x), (-x).inverse().unwrap());
        }
        assert!(Scalar::one().inverse().is_some());
    }
}
