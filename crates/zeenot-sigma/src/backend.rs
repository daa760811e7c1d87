//! The sigma back end (ZQL's, on Baby Jubjub): an IR program proved with Pedersen commitments
//! and sigma protocols, with no trusted setup.
//!
//! Every private value is a commitment `C = v·G + r·H` (`G` = Base8, `H` = zeenot's Pedersen
//! blinding base); public values stay in the clear and are computed by both sides with the IR's
//! own semantics ([`zeenot_ir::eval::step`]). Lowering, per operation on private values:
//!
//! | IR | proof |
//! |---|---|
//! | `add`, `sub`, `neg`, `cast`, a product with a public value, `not` | none: commitments are homomorphic |
//! | `mul`, `and`, `or`, `select` | a product proof: fresh `C_c`, `C_a = a·G + r_a·H ∧ C_c = a·C_b + t·H` (once per pair of commitments) |
//! | result that may leave its type | a range proof on the result |
//! | `lt`, `le`, `gt`, `ge` | a bit `c`, the product `c·δ`, and a range proof that `c·δ + (1−c)·(−δ−1) ≥ 0` |
//! | `eq`, `ne` | `c·(a−b) = 0 ∧ u·(a−b) = 1−c` (two linear equations, no range proof) |
//! | `floordiv`, `mod` | commitments to `q` and `r`, `a = q·b + r`, `b ≠ 0`, range proofs on `r`, `b − 1 − r` and `q` (signs handled) |
//! | `index` (ZØ's lookups, `First`) | a one-hot vector of the index (fresh bits `b_j`, `Σ b_j = 1`, `Σ j·b_j = i`; one per index), then `y = Σ x_j·b_j` (public table, no proof) or a fresh `y` with `b_j·(y − x_j) = 0` (private table) |
//! | `check` | the commitment opens to 1 |
//! | private input | a range proof for its type (`b·(1 − b) = 0` for `bool`) |
//! | committed input (one leaf) | the public `C` is the value's commitment; a range proof for its type |
//! | committed input (`k ≥ 2` joint leaves) | a fresh `C_i` per leaf, range-proved, and `C = Σ v_i·G_i + ρ·H` over the leaves' value secrets |
//! | output | the commitment opens to the claimed public value |
//! | committed output | one leaf: `C − C_x = ρ·H`; `k ≥ 2` leaves: `C − Σ_public v_i·G_i = Σ_private v_i·G_i + ρ·H` |
//! | `point_mul`, `point_add` (ElGamal) | none until output; a revealed point `Q = base + Σ sᵢ·Pᵢ` is one equation |
//!
//! A guard that is a private value `g` is honoured the way the groth16 back end does it: an
//! operation that could fail yields `g·s` (so a guarded-off operation yields 0 and cannot fail),
//! a `check` proves `g·(1−c) = 0`, and an `index` looks up `g·i`.
//!
//! **Soundness of integer semantics.** Commitments bind values modulo `l` (≈ 2^251). Every
//! committed value carries an interval computed from types and operations (the same on both
//! sides, independent of the witness); a value whose interval may leave its type is range-proved,
//! so every committed integer lies within ±2^129 and congruences modulo `l` are equalities of
//! integers.
//!
//! **Range proofs** are aggregated Bulletproofs ([`crate::bulletproofs`]): every obligation
//! `v − lo ∈ [0, 2^bits)` becomes `u ∈ [0, 2^n)` for the smallest supported `n ≥ bits` (and,
//! when `bits < n`, also `u + 2^n − 2^bits ∈ [0, 2^n)`), or is split into supported pieces
//! (`u = low + 2^n·high`, one fresh commitment) when that is cheaper, as for 34 or over 64 bits;
//! obligations are grouped by `n` into a few logarithmic proofs.
//!
//! **What crosses.** The proof carries the auxiliary commitments (inputs, products, bits) in the
//! order lowering creates them, then one compressed sigma proof ([`crate::compressed`]) of the
//! conjunction of everything above (an AND of linear equations: the lowering emits no OR), then
//! the range proofs. The Fiat–Shamir context binds the program hash and every public value; the
//! statement binds every commitment.
//!
//! **Committed values** cross between proofs as Pedersen commitments in the instance
//! ([`zeenot_ir::ir::commit_values`]): one leaf is `v·G + r·H`, exactly the commitment this back
//! end computes on, so it is used as is; `joint` leaves share one vector commitment
//! `Σ v_i·G_i + r·H`. Computing on its leaves needs each as its own `v_i·G + r_i·H`, so every
//! leaf gets a fresh commitment, whose value secret (its opening's) is the one the vector
//! equation multiplies by `G_i`: the leaves are bound to `C` in their places, since no relation
//! between `G`, `H` and the `G_i` is known.
//!
//! **Points** ([`points`]): `point_mul` and `point_add` on public points and on points that
//! are linear in private scalars (an encryption, a sum of ciphertexts, a public multiple, a
//! re-randomisation) are proved as linear equations over the same secrets the commitments open
//! to; a point is revealed as an output (both coordinates) and the verifier checks it on the
//! curve and in the prime-order subgroup, as every public point it uses.
//!
//! Not supported (the planner keeps these in the groth16 back end): arithmetic on private
//! `field` values (the circuit field is not the commitment group's scalar field; a private field
//! input may only be a point multiplication's scalar), Poseidon, signatures, private point
//! inputs, comparisons of private points, and a private scalar times a point computed from
//! private values (not linear).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ark_ff::{Field, One, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{Point, Scalar};
use zeenot_ir::eval;
use zeenot_ir::ir::{
    commit_values, commitment_bases, commitment_decimals, Op, Program, Ty, Value, Visibility,
};

use crate::bulletproofs::{BulletproofGens, MsmTerms, RangeProof, SUPPORTED_BITS};
use crate::compressed::{self, CompressedProof};
use crate::error::{Error, Result};
use crate::proof;
use crate::statement::{Builder, Element, Node, Secret, Statement};

mod points;
use points::{is_point_op, Points};

/// The domain of the back end's Fiat–Shamir context.
pub const BACKEND_DOMAIN: &[u8] = b"zeenot/sigma-backend/v2";

/// A proof that a program ran: the auxiliary commitments, one compressed sigma proof of the
/// lowered statement, and the aggregated Bulletproofs of its range obligations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramProof {
    /// Commitments to private inputs, to the leaves of input vector commitments and to
    /// intermediate values, in lowering order.
    pub aux: Vec<Point>,
    /// The compressed sigma proof of the lowered statement (an AND of equations).
    pub proof: CompressedProof,
    /// One Bulletproof per chunk of range obligations ([`range_chunks`] order).
    pub ranges: Vec<RangeProof>,
}

impl ProgramProof {
    /// `len(aux)` ‖ aux points ‖ `len(sigma)` ‖ the sigma proof ‖ `len(ranges)` ‖ per range
    /// proof `len` ‖ bytes; every length 8 bytes, little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = (self.aux.len() as u64).to_le_bytes().to_vec();
        out.extend(Point::encode_batch(&self.aux).concat());
        let sigma = self.proof.encode();
        out.extend((sigma.len() as u64).to_le_bytes());
        out.extend(sigma);
        out.extend((self.ranges.len() as u64).to_le_bytes());
        for r in &self.ranges {
            let bytes = r.encode();
            out.extend((bytes.len() as u64).to_le_bytes());
            out.extend(bytes);
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

/// At most this many Bulletproof generators (`n·m`) per aggregated range proof: bigger sets of
/// obligations are split, so that generators stay cheap to derive and cache.
pub const MAX_RANGE_CAPACITY: usize = 1 << 14;

fn gens(capacity: usize) -> Arc<BulletproofGens> {
    static CACHE: Mutex<Option<Arc<BulletproofGens>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    match cache.as_ref() {
        Some(g) if g.capacity() >= capacity => g.clone(),
        _ => {
            let g = Arc::new(BulletproofGens::new(capacity.max(MAX_RANGE_CAPACITY / 16)));
            *cache = Some(g.clone());
            g
        }
    }
}

/// The aggregated range proofs' statements: for each width `n` (8, 16, 32, 64), the
/// obligations of that width in lowering order, in chunks of at most `MAX_RANGE_CAPACITY / n`,
/// each padded to a power of two with the identity (a commitment to 0 with blinding 0).
fn range_chunks(entries: &[RangeEntry]) -> Vec<(usize, Vec<RangeEntry>)> {
    let mut out = Vec::new();
    for n in SUPPORTED_BITS {
        let of_n: Vec<RangeEntry> = entries.iter().filter(|e| e.n == n).copied().collect();
        for chunk in of_n.chunks(MAX_RANGE_CAPACITY / n) {
            let mut chunk = chunk.to_vec();
            let pad = RangeEntry { n, c: Point::identity(), u: 0, r: Scalar::zero() };
            chunk.resize(chunk.len().next_power_of_two(), pad);
            out.push((n, chunk));
        }
    }
    out
}

fn prove_ranges<R: RngCore + CryptoRng>(
    entries: &[RangeEntry],
    ctx: &[u8],
    rng: &mut R,
) -> Result<Vec<RangeProof>> {
    range_chunks(entries)
        .into_iter()
        .map(|(n, chunk)| {
            let values: Vec<u64> = chunk.iter().map(|e| e.u).collect();
            let blindings: Vec<Scalar> = chunk.iter().map(|e| e.r).collect();
            let (proof, commitments) =
                RangeProof::prove(&gens(n * chunk.len()), &values, &blindings, n, ctx, rng)?;
            if commitments.iter().zip(&chunk).any(|(c, e)| *c != e.c) {
                return Err(Error::Witness("internal: range commitments disagree".into()));
            }
            Ok(proof)
        })
        .collect()
}

/// How [`Lowering::range`] proves `u ∈ [0, 2^bits)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// One obligation of `n ≥ bits` bits, and a second (shifted) one when `n > bits`.
    Whole(usize),
    /// Split off the low `n` bits (a supported width) and prove the rest separately.
    Split(u32),
}

/// What a fresh commitment costs, in Bulletproof bits (prover and verifier work alike).
const SPLIT_COST: usize = 8;

/// The cheapest way to prove `u ∈ [0, 2^bits)` and its cost in Bulletproof bits: a width the
/// range proofs support is one obligation; another takes two of the next supported width
/// (34 bits: 2 × 64) or a split into supported pieces (34 = 32 + 2: 32 + 2 × 8 + a commitment),
/// whichever is cheaper. A 1-bit rest is a bit (`b·(1 − b) = 0`).
fn range_plan(bits: u32) -> (usize, Plan) {
    if bits == 1 {
        return (SPLIT_COST, Plan::Whole(SUPPORTED_BITS[0]));
    }
    let whole = SUPPORTED_BITS
        .into_iter()
        .find(|&n| n as u32 >= bits)
        .map(|n| (if n as u32 == bits { n } else { 2 * n }, Plan::Whole(n)));
    let split = SUPPORTED_BITS
        .into_iter()
        .rev()
        .find(|&n| (n as u32) < bits)
        .map(|n| (n + range_plan(bits - n as u32).0 + SPLIT_COST, Plan::Split(n as u32)));
    // On a tie the whole obligation wins: no extra commitment.
    [whole, split]
        .into_iter()
        .flatten()
        .min_by_key(|plan| plan.0)
        .expect("a width is either at most 64 bits or has a 64-bit piece")
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

#[derive(Clone, Copy, Debug)]
struct Com {
    c: Point,
    v: i128,
    r: Scalar,
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
/// commitments) and verifier (reads commitments from the proof). Both build the same statement.
struct Lowering<'a> {
    p: &'a Program,
    rng: Option<&'a mut dyn RngCore>,
    aux_out: Vec<Point>,
    aux_in: std::slice::Iter<'a, Point>,
    b: Builder,
    nodes: Vec<Node>,
    witness: Vec<Option<Scalar>>,
    elements: HashMap<Point, Element>,
    openings: HashMap<Point, (Secret, Secret)>,
    /// Products already committed to, by their factors' commitments.
    products: HashMap<(Point, Point), Com>,
    /// One-hot vectors of lookup indices, by the index's commitment and the table's length.
    one_hots: HashMap<(Point, usize), Vec<Com>>,
    /// Range obligations proved by aggregated Bulletproofs after the sigma proof.
    ranges: Vec<RangeEntry>,
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

/// `c` commits to `u ∈ [0, 2^n)` (with blinding `r`; `u` and `r` are the prover's).
#[derive(Clone, Copy, Debug)]
struct RangeEntry {
    n: usize,
    c: Point,
    u: u64,
    r: Scalar,
}

impl RangeEntry {
    fn new(n: usize, c: Com) -> Self {
        // The verifier's `v` is 0; the prover's was checked to be in range.
        RangeEntry { n, c: c.c, u: u64::try_from(c.v).unwrap_or(0), r: c.r }
    }
}

impl<'a> Lowering<'a> {
    fn prover(&self) -> bool {
        self.rng.is_some()
    }

    fn rand(&mut self) -> Scalar {
        Scalar::rand(self.rng.as_mut().expect("prover"))
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

    /// A fresh commitment to `v` (prover) or the next one from the proof (verifier).
    fn fresh(&mut self, v: i128) -> Result<Com> {
        self.fresh_count += 1;
        if let Some(k) = self.stand_in {
            self.stand_in = Some(k + 1);
            return Ok(Com { c: stand_in(&self.h, k), v: 0, r: Scalar::zero() });
        }
        if self.prover() {
            let r = self.rand();
            let c = Point::msm_ct(&[self.g, self.h], &[sc(v), r]);
            self.aux_out.push(c);
            Ok(Com { c, v, r })
        } else {
            let c = *self
                .aux_in
                .next()
                .ok_or_else(|| Error::Encoding("the proof has too few commitments".into()))?;
            Ok(Com { c, v: 0, r: Scalar::zero() })
        }
    }

    fn constant(&self, k: i128) -> Com {
        Com { c: mul_small(&self.g, k), v: k, r: Scalar::zero() }
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

    fn add(&self, a: Com, b: Com) -> Com {
        Com { c: a.c + b.c, v: a.v + b.v, r: a.r + b.r }
    }

    fn sub(&self, a: Com, b: Com) -> Com {
        Com { c: a.c - b.c, v: a.v - b.v, r: a.r - b.r }
    }

    fn scale(&self, a: Com, k: i128) -> Com {
        Com { c: mul_small(&a.c, k), v: a.v * k, r: a.r * sc(k) }
    }

    fn add_const(&self, a: Com, k: i128) -> Com {
        self.add(a, self.constant(k))
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

    /// Secrets `(v, r)` with `C = v·G + r·H`, proved once per commitment.
    fn opening(&mut self, a: Com) -> (Secret, Secret) {
        if let Some(o) = self.openings.get(&a.c) {
            return *o;
        }
        let v = self.secret("v", || sc(a.v));
        let r = self.secret("r", || a.r);
        let (g, h) = (self.g, self.h);
        self.require(a.c, &[(v, g), (r, h)]);
        self.openings.insert(a.c, (v, r));
        (v, r)
    }

    /// `C` opens to the public `k`: `C − k·G = r·H`.
    fn opens_to(&mut self, a: Com, k: i128) {
        let r = self.secret("r", || a.r);
        let h = self.h;
        self.require(a.c - mul_small(&self.g, k), &[(r, h)]);
    }

    /// `C` opens to 0 or 1: `b·(1 − b) = 0`, a product with `G − C` (two equations in the
    /// statement's root, no OR: what a compressed proof carries for free).
    fn bit(&mut self, a: Com) -> Result<()> {
        if self.prover() && !(0..=1).contains(&a.v) {
            return Err(Error::Witness("internal: a bit is not 0 or 1".into()));
        }
        self.bitness(a);
        Ok(())
    }

    /// `b·(1 − b) = 0` for `C` (no witness check: [`Lowering::bit`] has it).
    fn bitness(&mut self, b: Com) {
        let one_minus = self.sub(self.constant(1), b);
        self.product_zero(b, one_minus);
    }

    /// The one-hot vector of a private index `i < n`: fresh bits `b_j` with `Σ b_j = 1` and
    /// `Σ j·b_j = i` (so exactly one `b_j` is 1, the `i`-th), shared by every lookup at the same
    /// index (the same commitment).
    fn one_hot(&mut self, i: Com, n: usize) -> Result<Vec<Com>> {
        if let Some(b) = self.one_hots.get(&(i.c, n)) {
            return Ok(b.clone());
        }
        let bits = (0..n).map(|j| self.fresh(i128::from(i.v == j as i128))).collect::<Result<Vec<_>>>()?;
        self.constrain_one_hot(i, &bits);
        self.one_hots.insert((i.c, n), bits.clone());
        Ok(bits)
    }

    /// The equations of a one-hot vector `bits` of index `i` (as a cheating prover meets them:
    /// no witness checks here): each `b_j·(1 − b_j) = 0`, `Σ b_j = 1`, `Σ j·b_j = i`.
    fn constrain_one_hot(&mut self, i: Com, bits: &[Com]) {
        for b in bits {
            self.bitness(*b);
        }
        let sum = bits.iter().fold(self.constant(0), |s, b| self.add(s, *b));
        self.opens_to(sum, 1);
        let weighted = bits
            .iter()
            .enumerate()
            .fold(self.constant(0), |s, (j, b)| self.add(s, self.scale(*b, j as i128)));
        self.opens_to(self.sub(i, weighted), 0);
    }

    /// `v − lo ∈ [0, 2^bits)`: Bulletproof obligations, planned by [`range_plan`].
    fn range(&mut self, a: Com, lo: i128, bits: u32) -> Result<()> {
        if bits == 1 && lo == 0 {
            return self.bit(a);
        }
        let u = a.v - lo;
        if self.prover() && !(u >= 0 && (bits >= 127 || u < (1i128 << bits))) {
            return Err(Error::Witness("internal: a range-checked value is out of range".into()));
        }
        let shifted = self.add_const(a, -lo);
        match range_plan(bits).1 {
            Plan::Split(n) => {
                // u = low + 2^n·high, low ∈ [0, 2^n) and high ∈ [0, 2^(bits−n)), so u < 2^bits;
                // one fresh commitment, `low`'s follows from it.
                let high = self.fresh(u >> n)?;
                let low = self.sub(shifted, self.scale(high, 1i128 << n));
                self.range(low, 0, n)?;
                self.range(high, 0, bits - n)
            }
            Plan::Whole(n) => {
                // u ∈ [0, 2^n); for bits < n also u + 2^n − 2^bits ∈ [0, 2^n), so u < 2^bits.
                self.ranges.push(RangeEntry::new(n, shifted));
                if (bits as usize) < n {
                    let top = self.add_const(shifted, (1i128 << n) - (1i128 << bits));
                    self.ranges.push(RangeEntry::new(n, top));
                }
                Ok(())
            }
        }
    }

    /// A fresh commitment to `a·b` with a product proof, made once per pair of commitments
    /// (a guard times an index, say, is shared by every lookup it guards).
    fn product(&mut self, a: Com, b: Com) -> Result<Com> {
        if let Some(c) = self.products.get(&(a.c, b.c)) {
            return Ok(*c);
        }
        let (va, _) = self.opening(a);
        let c = self.fresh(a.v * b.v)?;
        let t = self.secret("t", || c.r - sc(a.v) * b.r);
        let h = self.h;
        self.require(c.c, &[(va, b.c), (t, h)]);
        self.products.insert((a.c, b.c), c);
        Ok(c)
    }

    /// `x·y` for values, committing only when both are private.
    fn times(&mut self, x: V, y: V) -> Result<V> {
        Ok(match (x, y) {
            (V::Pub(a), V::Pub(b)) => V::Pub(a * b),
            (V::Pub(k), V::Com(c)) | (V::Com(c), V::Pub(k)) => V::Com(self.scale(c, k)),
            (a, b) => V::Com(self.product(self.com(a), self.com(b))?),
        })
    }

    /// Proves `a·b = 0`: `0 = a·C_b + t·H`, `a` tied to `C_a`'s opening.
    fn product_zero(&mut self, a: Com, b: Com) {
        let (va, _) = self.opening(a);
        let t = self.secret("t", || -(sc(a.v) * b.r));
        let h = self.h;
        self.require(Point::identity(), &[(va, b.c), (t, h)]);
    }

    /// `[d = 0]`: `c·d = 0 ∧ u·d = 1 − c` (with `u = 1/d`, or 0 when `d = 0`).
    fn is_zero(&mut self, d: Com) -> Result<Com> {
        let c = self.fresh(i128::from(d.v == 0))?;
        self.product_zero(c, d);
        let u = self.secret("u", || inverse_ct(sc(d.v)));
        let uv = if self.prover() { inverse_ct(sc(d.v)) } else { Scalar::zero() };
        let t = self.secret("t", || -c.r - uv * d.r);
        let h = self.h;
        self.require(self.g - c.c, &[(u, d.c), (t, h)]);
        Ok(c)
    }

    /// `[δ ≥ 0]` for `δ` in `iv`.
    fn nonnegative(&mut self, delta: Com, iv: Interval) -> Result<Com> {
        let w = signed_width(iv);
        let c = self.fresh(i128::from(delta.v >= 0))?;
        self.bit(c)?;
        let cd = self.product(c, delta)?;
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
                Some((c, r)) => Com { c, v, r },
                None => lw.fresh(v)?,
            },
            Visibility::Private => lw.fresh(v)?,
        };
        if inp.ty == Ty::Bool {
            lw.bit(c)?;
        } else {
            lw.range(c, lo, inp.ty.bits())?;
        }
        vals.push(V::Com(c));
        ivs.push((lo, hi));
    }
    for (g, &(c, r)) in groups.iter().zip(committed).filter(|(g, _)| g.len() > 1) {
        let leaves: Vec<V> = g.iter().map(|&i| vals[i]).collect();
        commits_to(lw, c, r, &leaves);
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
                Guard::Private(g) => lw.times(V::Com(g), s)?,
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
                let s = lw.times(arg(0), arg(1))?;
                Some(arith(lw, s, iv_mul(iv(0), iv(1)))?)
            }
            Op::Cast => Some(arith(lw, arg(0), Some(iv(0)))?),
            Op::Eq | Op::Ne => {
                let d = lw.sub(lw.com(arg(0)), lw.com(arg(1)));
                let c = lw.is_zero(d)?;
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
            Op::And => Some((lw.times(arg(0), arg(1))?, (0, 1))),
            Op::Or => {
                let ab = lw.times(arg(0), arg(1))?;
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
                    let cd = lw.times(V::Com(c), diff)?;
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
                            Guard::Private(g) => lw.times(V::Com(g), i)?,
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
                                let gb = lw.times(V::Com(g), V::Com(lw.add_const(b, -1)))?;
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
                commits_to(lw, c, r, &leaves);
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
    // the points the outputs reveal: each equals its combination of secrets
    points.reveal(lw, &coords)?;
    Ok(outputs)
}

/// Two commitments hold the same value: `A − B = ρ·H`.
fn equal_commitments(lw: &mut Lowering<'_>, a: Com, b: Com) {
    let d = lw.sub(a, b);
    let rho = lw.secret("rho", || d.r);
    let h = lw.h;
    lw.require(d.c, &[(rho, h)]);
}

/// `c` is the commitment ([`commit_values`]) of `leaves` with blinding `r` (the prover's). One
/// leaf: `C − C_x = ρ·H` ([`equal_commitments`]). More: `C − Σ_public v_i·G_i = Σ_private
/// x_i·G_i + ρ·H`, each `x_i` the value secret of the leaf's own commitment `v_i·G + r_i·H` (its
/// opening), so that `C` binds the very values the program computes on, each in its place.
fn commits_to(lw: &mut Lowering<'_>, c: Point, r: Scalar, leaves: &[V]) {
    if let [x] = leaves {
        let x = lw.com(*x);
        equal_commitments(lw, Com { c, v: x.v, r }, x);
        return;
    }
    let mut lhs = c;
    let mut terms = Vec::with_capacity(leaves.len() + 1);
    for (&x, g) in leaves.iter().zip(commitment_bases(leaves.len())) {
        match x {
            V::Pub(v) => lhs -= mul_small(&g, v),
            x => {
                let (v, _) = lw.opening(lw.com(x));
                terms.push((v, g));
            }
        }
    }
    let rho = lw.secret("rho", || r);
    terms.push((rho, lw.h));
    lw.require(lhs, &terms);
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
    let q = lw.fresh(qv)?;
    let r = lw.fresh(rv)?;
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
            // b ≠ 0: G = u·C_b + t·H with u = 1/b.
            let inv = if lw.prover() { inverse_ct(sc(c.v)) } else { Scalar::zero() };
            let u = lw.secret("u", || inv);
            let t = lw.secret("t", || -(inv * c.r));
            let (g, h) = (lw.g, lw.h);
            lw.require(g, &[(u, c.c), (t, h)]);
            let qb = lw.product(q, c)?;
            lw.opens_to(lw.sub(lw.sub(a, qb), r), 0);
            // r has b's sign: with σ = ±1 the sign of b, 0 ≤ σ·r < σ·b.
            let (r_pos, b_abs, m) = if b_iv.0 >= 0 {
                (r, c, b_iv.1)
            } else {
                let positive = lw.nonnegative(lw.add_const(c, -1), (b_iv.0 - 1, b_iv.1 - 1))?;
                let sign = lw.add_const(lw.scale(positive, 2), -1);
                (lw.product(sign, r)?, lw.product(sign, c)?, b_iv.0.abs().max(b_iv.1))
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
    let bits = lw.one_hot(i, n)?;
    if table.iter().all(|x| matches!(x, V::Pub(_))) {
        // `y = Σ x_j·b_j`, homomorphically: no commitment, no equation.
        return Ok(table
            .iter()
            .zip(&bits)
            .fold(lw.constant(0), |y, (x, b)| lw.add(y, lw.scale(*b, lw.com(*x).v))));
    }
    // A private entry: a fresh `y` with `b_j·(y − x_j) = 0` for every `j`.
    let y_val = usize::try_from(i.v).ok().and_then(|j| table.get(j)).map_or(0, |x| lw.com(*x).v);
    let y = lw.fresh(y_val)?;
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
        ranges: Vec::new(),
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
    /// Fresh commitments the proof carries (private inputs, leaves of input vector commitments
    /// and intermediate values).
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
    /// Range obligations.
    pub range_obligations: usize,
    /// Bulletproof bits after padding each aggregated proof's obligations to a power of two
    /// (the prover's and verifier's work is linear in these).
    pub range_bits: usize,
    /// Aggregated range proofs.
    pub range_proofs: usize,
    /// The sum of the range proofs' log2 sizes (a proof has 2·log2(n·m) points).
    pub range_rounds: usize,
    /// Bits of the largest aggregated range proof: the proofs are made one after the other, so
    /// the prover's memory follows the largest one's vectors and generators.
    pub range_largest_bits: usize,
    /// Terms of the equations of revealed points (each a scalar multiplication of a public
    /// point, for prover and verifier), one more per point for its own check.
    pub point_terms: usize,
    /// Public points checked on the curve and in the subgroup (keys, published ciphertexts).
    pub public_points: usize,
}

/// Counts what proving `p` takes by lowering it as the verifier does, with stand-in
/// commitments. `public`: every input leaf's value where it is known (public inputs); a public
/// input left `None` is counted as if private (a commitment and its range proof), so the
/// count is an upper bound when public values are not known yet.
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
    let chunks = range_chunks(&lw.ranges);
    // `finish` adds one secret to a statement with none; `compressed::padded_len` rounds up.
    let sigma_generators = lw.witness.len().max(1).next_power_of_two();
    Ok(Shape {
        commitments: lw.fresh_count,
        secrets: lw.witness.len(),
        equations: lw.equation_count,
        sigma_generators,
        sigma_rounds: sigma_generators.trailing_zeros() as usize,
        range_obligations: lw.ranges.len(),
        range_bits: chunks.iter().map(|(n, c)| n * c.len()).sum(),
        range_proofs: chunks.len(),
        range_rounds: chunks.iter().map(|(n, c)| (n * c.len()).trailing_zeros() as usize).sum(),
        range_largest_bits: chunks.iter().map(|(n, c)| n * c.len()).max().unwrap_or(0),
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

fn finish(lw: Lowering<'_>) -> Result<(Statement, Vec<Option<Scalar>>)> {
    let mut nodes = lw.nodes;
    if nodes.is_empty() {
        // Nothing private: a trivial true equation keeps the proof format uniform.
        let mut b = lw.b;
        let s = b.secret("one");
        let g = b.element("G", lw.g);
        nodes.push(b.equation(g, &[(s, g)]));
        let mut witness = lw.witness;
        witness.push(Some(Scalar::one()));
        return Ok((b.build(Node::And(nodes))?, witness));
    }
    Ok((lw.b.build(Node::And(nodes))?, lw.witness))
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
    let entries = std::mem::take(&mut lw.ranges);
    let ctx = context(p, &public);
    let (statement, witness) = finish(lw)?;
    let witness = witness
        .into_iter()
        .collect::<Option<Vec<Scalar>>>()
        .ok_or_else(|| Error::Witness("internal: a secret of the lowered statement is missing".into()))?;
    let generators = gens(compressed::padded_len(&statement));
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
    let ranges = prove_ranges(&entries, &ctx, rng)?;
    Ok(Proven { proof: ProgramProof { aux, proof, ranges }, public, blindings: out_blindings })
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
    ranges: Vec<RangeEntry>,
    range_proofs: Vec<RangeProof>,
    context: Vec<u8>,
}

impl DecodedProof {
    fn decode(p: &Program, public: &[String], bytes: &[u8]) -> Result<Self> {
        let (inputs, committed, outputs) = parse_public(p, public)?;
        let mut r = Reader { bytes };
        let n = r.len("commitments", 32)?;
        let aux = r
            .take(32 * n)
            .chunks_exact(32)
            .enumerate()
            .map(|(i, c)| {
                Point::decode(c.try_into().expect("32 bytes"))
                    .map_err(|e| Error::Encoding(format!("commitment {i}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        let sigma_len = r.len("sigma proof bytes", 1)?;
        let sigma = r.take(sigma_len);
        let n_ranges = r.len("range proofs", 8)?;
        let range_proofs = (0..n_ranges)
            .map(|_| {
                let len = r.len("range proof bytes", 1)?;
                RangeProof::decode(r.take(len))
            })
            .collect::<Result<Vec<_>>>()?;
        if !r.bytes.is_empty() {
            return Err(Error::Encoding(format!("{} bytes after the proof", r.bytes.len())));
        }
        let mut lw = new_lowering(p, None, &aux);
        lower(&mut lw, &inputs, &committed, Some(&outputs))?;
        if lw.aux_in.len() != 0 {
            return Err(Error::Encoding("the proof has too many commitments".into()));
        }
        let ranges = std::mem::take(&mut lw.ranges);
        let (statement, _) = finish(lw)?;
        let proof = CompressedProof::decode(sigma)?;
        Ok(DecodedProof { statement, proof, ranges, range_proofs, context: context(p, public) })
    }

    /// This proof's equations, each times a fresh random weight, added to `terms`.
    fn add_terms<R: RngCore + CryptoRng>(&self, rng: &mut R, terms: &mut MsmTerms) -> Result<()> {
        compressed::verification_terms(
            &self.statement,
            &self.proof,
            &self.context,
            || proof::random_weight(rng),
            terms,
        )?;
        let chunks = range_chunks(&self.ranges);
        if chunks.len() != self.range_proofs.len() {
            return Err(Error::Encoding(format!(
                "{} range proofs, the program needs {}",
                self.range_proofs.len(),
                chunks.len()
            )));
        }
        for ((n, chunk), range_proof) in chunks.iter().zip(&self.range_proofs) {
            let commitments: Vec<Point> = chunk.iter().map(|e| e.c).collect();
            let gens = gens(n * chunk.len());
            let weight = proof::random_weight(rng);
            range_proof.verification_terms(&gens, &commitments, *n, &self.context, weight, terms)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{compressed, finish, gens, inverse_ct, new_lowering, range_plan, sc, Com, Lowering, Plan};
    use ark_ff::{Field, Zero};
    use rand::SeedableRng;
    use zeenot_crypto::{Point, Scalar};
    use zeenot_ir::Program;

    fn program() -> Program {
        Program::from_json(
            r#"{"version":1,"name":"t","inputs":[{"id":0,"name":"a","ty":"u8","vis":"private"}],
            "body":[],"outputs":[{"name":"x","value":0}]}"#,
        )
        .unwrap()
    }

    /// A commitment to any value, as a cheating prover would make it (no checks).
    fn commit(lw: &mut Lowering<'_>, v: i128) -> Com {
        let r = lw.rand();
        let c = Point::msm_ct(&[lw.g, lw.h], &[sc(v), r]);
        lw.aux_out.push(c);
        Com { c, v, r }
    }

    /// Whether the statement `gadget` lowers, with the values the prover holds, has a
    /// verifying compressed proof.
    fn provable(gadget: impl FnOnce(&mut Lowering<'_>)) -> bool {
        let p = program();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let mut lw = new_lowering(&p, Some(&mut rng), &[]);
        gadget(&mut lw);
        let (statement, witness) = finish(lw).unwrap();
        let witness: Vec<Scalar> = witness.into_iter().map(Option::unwrap).collect();
        let generators = gens(compressed::padded_len(&statement));
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let proof = compressed::prove(&generators, &statement, &witness, b"", &mut rng).unwrap();
        compressed::verify(&generators, &statement, &proof, b"").is_ok()
    }

    #[test]
    fn a_bit_is_zero_or_one() {
        for (v, ok) in [(0, true), (1, true), (2, false), (-1, false)] {
            let proved = provable(|lw| {
                let b = commit(lw, v);
                // `bit` refuses a wrong value up front; its equations are what a cheater faces.
                let one_minus = lw.sub(lw.constant(1), b);
                lw.product_zero(b, one_minus);
            });
            assert_eq!(proved, ok, "bit {v}");
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
                let i = commit(lw, index);
                let bs: Vec<Com> = bits.iter().map(|&b| commit(lw, b)).collect();
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
                let xs: Vec<Com> = [5, 7, 9].iter().map(|&x| commit(lw, x)).collect();
                let bs: Vec<Com> = [0, 1, 0].iter().map(|&b| commit(lw, b)).collect();
                let y = commit(lw, y);
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
        // `product` twice on the same commitments returns the same commitment; a cheater's
        // product commitment to a wrong value fails its equation.
        let p = program();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let mut lw = new_lowering(&p, Some(&mut rng), &[]);
        let (a, b) = (commit(&mut lw, 3), commit(&mut lw, 4));
        let c1 = lw.product(a, b).unwrap();
        let c2 = lw.product(a, b).unwrap();
        assert_eq!((c1.c, c1.v), (c2.c, c2.v));
        assert_eq!(c1.v, 12);
        for (v, ok) in [(12, true), (13, false)] {
            let proved = provable(|lw| {
                let (a, b) = (commit(lw, 3), commit(lw, 4));
                let (va, _) = lw.opening(a);
                let c = commit(lw, v);
                let t = lw.secret("t", || c.r - sc(a.v) * b.r);
                let h = lw.h;
                lw.require(c.c, &[(va, b.c), (t, h)]);
            });
            assert_eq!(proved, ok, "product {v}");
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
    }

    #[test]
    fn range_plans_are_the_cheapest_covering_ones() {
        assert_eq!(range_plan(32), (32, Plan::Whole(32)));
        assert_eq!(range_plan(3), (16, Plan::Whole(8)));
        assert_eq!(range_plan(34), (32 + 16 + 8, Plan::Split(32)));
        assert_eq!(range_plan(17), (16 + 8 + 8, Plan::Split(16)));
        assert_eq!(range_plan(10), (32, Plan::Whole(16)));
        assert_eq!(range_plan(130).1, Plan::Split(64));
        // Every plan covers exactly `bits`: the pieces' widths add up.
        fn covered(bits: u32) -> u32 {
            match range_plan(bits).1 {
                Plan::Whole(_) => bits,
                Plan::Split(n) => n + covered(bits - n),
            }
        }
        for bits in 1..=200 {
            assert_eq!(covered(bits), bits);
        }
    }
}
