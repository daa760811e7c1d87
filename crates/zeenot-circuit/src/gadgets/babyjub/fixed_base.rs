//! Fixed-base scalar multiplication `s·Q` for a constant `Q` in the prime-order subgroup.
//!
//! # Method
//!
//! **Signed digits.** The scalar's bits (little-endian boolean wires, decomposition not counted
//! here) are read as `σ_i = 2·b_i − 1 ∈ {±1}`, so `Σ_{i<n} σ_i·2^i = 2s − (2^n − 1)`. With
//! `Q_h = ((l + 1)/2)·Q` (so `2·Q_h = Q`; `Q_h` has order `l` too):
//!
//! `(s + e)·Q = Σ_j D_j·2^(p_j)·Q_h + K`, with the constant `K = (2^n − 1)·Q_h + e·Q`,
//!
//! where window `j` covers the bits `p_j..p_j + w_j` (`w_j ≤ 4`) and contributes the **odd**
//! digit `D_j = Σ_{i<w_j} σ_(p_j+i)·2^i ∈ [−(2^w_j − 1), 2^w_j − 1]`. Complementing a window's
//! bits negates its digit, so its table `T_j(b) = D_j·2^(p_j)·Q_h` satisfies
//! `T_j(¬b) = −T_j(b)`.
//!
//! **Segments.** Consecutive windows are summed in **Montgomery form** (`v² = u³ + 168698·u² +
//! u`, circomlib's map `u = (1+y)/(1−y)`, `v = u/x`), where an affine addition costs 3
//! constraints, in segments of at most [`MAX_SEGMENT_BITS`] = 250 bits; a segment's sum is
//! mapped back to twisted Edwards (2 constraints), and segments are summed with the complete
//! Edwards law ([`super::point::add`], 6). A segment may also be a single window looked up
//! directly in Edwards form. The constant `K` costs nothing when it joins the table of an
//! Edwards window of at most 3 bits (a generic table), 2 when it joins a segment's conversion
//! (`montgomery::to_edwards_plus`: conversion and complete constant addition in 4 instead of
//! 2 + 3), else 3 (a constant addition). The layout (segment boundaries) is the cheapest under
//! this cost model, found by a small dynamic program (`layout`).
//!
//! ## Lookups
//!
//! A table over the `k` bits of a window is a multilinear polynomial in the bits, or in the
//! `σ_i`: `Σ_S c_S·σ^S` with `σ^S = Π_{i∈S} σ_i`. Complementing the bits maps `σ → −σ`, so the
//! symmetry `T(¬b) = −T(b)` makes the Montgomery `u` and the Edwards `y` **even** (only `|S|`
//! even: for 4 bits a constant, 6 pairs and the quartic term) and `v` and `x` **odd** (only
//! `|S|` odd: 4 linear and 4 cubic terms). Linear terms are free in R1CS.
//!
//! * 4 bits, one base (`PlanSym`): **3 constraints** for both coordinates,
//!   - `w1 = (α·σ)·(β·σ)`: a product of two linear forms has the pair coefficients
//!     `α_i·β_j + α_j·β_i`, and reaches any 6 of them: `α_r = 1`, `β_r = 0`, `β_j = q_rj`, and the
//!     three other pairs are linear in the remaining `α_i`;
//!   - `w2 = (γ·σ)·w1`: odd; its cubic coefficient at `T` is `Σ_{i∈T} γ_i·q_(T∖i)`, 4 linear
//!     equations making it the odd table's cubic part (the rest of `w2` is linear);
//!   - `w3 = (ε·σ)·(w2 + κ·σ)`: even, with a quartic term. `κ = κ' − λ2` cancels `w2`'s linear
//!     part `λ2`, so `w3 = (ε·σ)·(cubic + κ'·σ)` is known before `w1`: with `f3` matching the
//!     quartic coefficient, `w1`'s pairs are chosen as the even table's minus `f3·w3`'s.
//!
//!   Then even `= e0 + w1 + f3·w3` and odd `= o0 + Σ o_i·σ_i + w2` on all 16 assignments.
//!   `ε`, `κ'` come from a fixed seed (retried when a system is singular), so the circuit's
//!   shape depends on the tables only; the plan is checked on every assignment when the circuit
//!   is built, and a table without one would fall back to the 11 monomials (a test finds a plan
//!   for every 4- and 3-bit window of two bases, Montgomery and Edwards tables). 3 bits: the
//!   same without `w3`, 2 constraints.
//! * 3 bits, a generic table (an Edwards window holding `K`), `Plan3`: **2 constraints**. Take
//!   a combination `F = α·U + β·V` of the two tables whose cubic coefficient (of `b0b1b2`)
//!   vanishes; its quadratic part `Σ q_ij·b_i·b_j` is that of the single product
//!   `w1 = (b0 + b1 + b2)·(c0·b0 + c1·b1 + c2·b2)` with `c_i + c_j = q_ij` (`b_i² = b_i`), so
//!   `F − w1` is affine. Then `w2 = b_k·(f_i·b_i + f_j·b_j + f_w·w1)` supplies the remaining
//!   direction, the coefficients solving a linear system over the 8 assignments (checked when
//!   the circuit is built; fallback: the 4 monomial products).
//! * 2 bits: `b0·b1` (1 constraint); 1 bit: none.
//! * [`mul_many`] with three bases or more: 3-bit windows whose 4 monomials are shared by the
//!   bases, every table then linear (`4 + 3·k` per 3 bits against `6·k` per 4 bits).
//!
//! circomlib's `WindowMulFix` spends 3 constraints on a 3-bit lookup (`MultiMux3`).
//!
//! # Why the incomplete Montgomery addition is sound here
//!
//! Montgomery's affine addition fails only when the two operands have the same `u`, i.e. are
//! equal or opposite (then `λ·(u2 − u1) = v2 − v1` leaves `λ` free or is unsatisfiable), or
//! when one is the identity (not representable). circomlib's `EscalarMulAny`/`MontgomeryAdd`
//! do not rule this out; here it is *impossible for every bit assignment*. Take a segment over
//! the bits `p0..p0 + B`, `B ≤ 250`, and `Q' = 2^p0·Q_h` (order `l`, as 2 is invertible mod
//! `l`). Its windows have relative offsets `r_0 = 0`, `r_(j+1) = r_j + w_j` and add
//! `n_j·Q'` with `n_j = D_j·2^(r_j)`. Before window `k` the accumulator is `m·Q'`,
//! `m = Σ_{j<k} n_j`:
//!
//! * `m` is **odd** (`D_0` is odd, the other terms even), so `m ≠ 0`;
//! * `|m| ≤ Σ_{j<k} (2^(w_j) − 1)·2^(r_j) = 2^(r_k) − 1 < 2^(r_k) ≤ |n_k|` (`D_k` is odd, so
//!   `|D_k| ≥ 1`); hence `m − n_k` and `m + n_k` are nonzero integers;
//! * `|m ± n_k| ≤ 2^(r_k + w_k) − 1 ≤ 2^B − 1 < l` (`2^250 < l`, test `segment_bound`), so
//!   neither is `≡ 0 (mod l)`: `m·Q' ≠ ±n_k·Q'`, the operands never share `u`;
//! * every table entry and every partial sum is `c·Q'` with `0 < |c| < l`: not the identity,
//!   and not of order 2 (`l` is an odd prime), so it has an affine Montgomery image and the
//!   conversion back meets `v ≠ 0`, `u ≠ −1`.
//!
//! Every witness (the lookup products, `λ`, `u3`, `v3`, `x`, `y`) is therefore uniquely
//! determined by the bits. The bound is tight: over 251 bits the signed sums reach every odd
//! value below `2^251`, `l` among them, i.e. the identity (`segment_bound`). So 251 and 252
//! bits take two segments, and their join is the complete law, which some scalars need: the
//! top window meets the Montgomery segment with **equal** operands for some scalars and with
//! **opposite** ones for `s ≡ 0` (test `top_join_equal_and_opposite_operands`). The merged
//! conversion's denominators are `v·(u + 1)·(1 ± d·x·y·k_x·k_y)`, nonzero for a point of order
//! above 2 and any constant on the curve; every other step is the complete law.
//!
//! # Cost
//!
//! Per base, a window of `w` bits inside a segment costs `w + 2` (lookup `w − 1`, addition 3;
//! the segment's first window has no addition). 252 bits: a segment over bits `0..248`
//! (62 windows: lookups 186, 61 additions 183, conversion with `K` 4) and the top 4-bit window
//! in Edwards form (symmetric lookup 3, complete addition 6): **382** (the former 3-bit design:
//! 422). 251 bits: the same segment with a plain conversion (2), and a 3-bit top window holding
//! `K` (2) and the complete addition (6): 379. 32 bits (8 windows, one segment): 24 + 21 + 4 =
//! 49. [`mul_many`] with two bases: twice [`mul_plus`] (758 for 251 bits, against 841 with
//! shared 3-bit monomials); with three, 333 shared products and 254 per base.

use super::super::{Builder, Result, Wire};
use super::montgomery;
use super::point::{self, native, native::Affine, PointWire};
use ark_bn254::Fr;
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::{AdditiveGroup, BigInteger, Field, One, PrimeField, Zero};
use std::ops::Range;
use zeenot_crypto::curve::{BabyJubjubAffine, BabyJubjubProjective};

/// The most bits a Montgomery segment covers: the largest `B` with `2^B − 1 < l`
/// (`2^250 < l < 2^251`; checked by a test).
pub const MAX_SEGMENT_BITS: usize = 250;

/// Möbius inversion: the coefficient of `Π_{i∈S} b_i` in the multilinear polynomial taking the
/// value `t[Σ 2^i·b_i]`, for every mask `S`.
fn mobius(t: &[Fr]) -> Vec<Fr> {
    (0..t.len())
        .map(|s| {
            let mut c = Fr::zero();
            for (sub, v) in t.iter().enumerate() {
                if sub & !s == 0 {
                    if (s ^ sub).count_ones() % 2 == 0 {
                        c += v;
                    } else {
                        c -= v;
                    }
                }
            }
            c
        })
        .collect()
}

/// `t[Σ 2^i·b_i]` as a linear combination of the monomials `mono[S] = Π_{i∈S} b_i`.
fn linear(t: &[Fr], mono: &[Wire]) -> Wire {
    let mut acc = Wire::constant(Fr::zero(), None);
    for (c, m) in mobius(t).into_iter().zip(mono) {
        if !c.is_zero() {
            acc = acc.add_scaled(c, m);
        }
    }
    acc
}

/// The `2^k` monomials of `k` bits, indexed by mask (`2^k − k − 1` products).
fn monomials(b: &Builder, bits: &[Wire]) -> Result<Vec<Wire>> {
    let mut mono = vec![Wire::constant(Fr::one(), Some((1, 1)))];
    for s in 1usize..1 << bits.len() {
        let top = (usize::BITS - 1 - s.leading_zeros()) as usize;
        let rest = s & !(1 << top);
        mono.push(if rest == 0 { bits[top].clone() } else { b.mul(&mono[rest], &bits[top])? });
    }
    Ok(mono)
}

/// Values of a function of 3 bits at the 8 assignments (index `Σ 2^i·b_i`).
type Values = [Fr; 8];

fn bit_values(i: usize) -> Values {
    std::array::from_fn(|p| if (p >> i) & 1 == 1 { Fr::one() } else { Fr::zero() })
}

/// A solution `x` of `Σ_c x_c·cols[c] = rhs` over the 8 assignments (free unknowns 0), or
/// `None`.
fn solve(cols: &[Values], rhs: &Values) -> Option<Vec<Fr>> {
    let a: Vec<Vec<Fr>> = (0..8).map(|r| cols.iter().map(|c| c[r]).collect()).collect();
    solve_system(&a, rhs)
}

/// A solution of `a·x = rhs` (free unknowns 0), or `None`.
fn solve_system(a: &[Vec<Fr>], rhs: &[Fr]) -> Option<Vec<Fr>> {
    let n = a.first().map_or(0, Vec::len);
    let mut m: Vec<Vec<Fr>> =
        a.iter().zip(rhs).map(|(row, r)| row.iter().copied().chain(std::iter::once(*r)).collect()).collect();
    let rows = m.len();
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..n {
        if r == rows {
            break;
        }
        let Some(p) = (r..rows).find(|&i| !m[i][c].is_zero()) else { continue };
        m.swap(r, p);
        let inv = m[r][c].inverse()?;
        m[r].iter_mut().for_each(|x| *x *= inv);
        let pivot_row = m[r].clone();
        for (i, row) in m.iter_mut().enumerate() {
            let f = row[c];
            if i != r && !f.is_zero() {
                row.iter_mut().zip(&pivot_row).for_each(|(x, y)| *x -= f * y);
            }
        }
        pivots.push(c);
        r += 1;
    }
    if m[r..].iter().any(|row| !row[n].is_zero()) {
        return None;
    }
    let mut x = vec![Fr::zero(); n];
    for (i, &c) in pivots.iter().enumerate() {
        x[c] = m[i][n];
    }
    Some(x)
}

/// A 2-constraint lookup of two tables over 3 bits (see the module documentation):
/// `w1 = (b0 + b1 + b2)·(c0·b0 + c1·b1 + c2·b2)`, `w2 = b_k·(f0·b_i + f1·b_j + f2·w1)` and each
/// table `= coef · [1, b0, b1, b2, w1, w2]` on all 8 assignments.
#[derive(Clone, Debug)]
struct Plan3 {
    c: [Fr; 3],
    k: usize,
    f: [Fr; 3],
    coef: [Vec<Fr>; 2],
}

impl Plan3 {
    fn others(k: usize) -> (usize, usize) {
        match k {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        }
    }

    fn new(t: [&Values; 2]) -> Option<Plan3> {
        let bv: [Values; 3] = std::array::from_fn(bit_values);
        let one = [Fr::one(); 8];
        let (mu, mv) = (mobius(t[0]), mobius(t[1]));
        let comb =
            |a: Fr, x: &Values, c: Fr, y: &Values| -> Values { std::array::from_fn(|p| a * x[p] + c * y[p]) };
        // combinations without a cubic term
        let mut fs = Vec::new();
        if !mv[7].is_zero() {
            fs.push(comb(Fr::one(), t[0], -mu[7] / mv[7], t[1]));
        } else {
            fs.push(*t[1]);
        }
        if !mu[7].is_zero() {
            fs.push(comb(-mv[7] / mu[7], t[0], Fr::one(), t[1]));
        } else {
            fs.push(*t[0]);
        }
        let half = Fr::from(2u64).inverse()?;
        for f in fs {
            let mf = mobius(&f);
            let (q01, q02, q12) = (mf[3], mf[5], mf[6]);
            let c = [(q01 + q02 - q12) * half, (q01 + q12 - q02) * half, (q02 + q12 - q01) * half];
            let w1: Values = std::array::from_fn(|p| {
                (bv[0][p] + bv[1][p] + bv[2][p]) * (c[0] * bv[0][p] + c[1] * bv[1][p] + c[2] * bv[2][p])
            });
            for k in [2, 1, 0] {
                let (i, j) = Plan3::others(k);
                let prod = |x: &Values| -> Values { std::array::from_fn(|p| bv[k][p] * x[p]) };
                let cols = [one, bv[0], bv[1], bv[2], w1, prod(&bv[i]), prod(&bv[j]), prod(&w1)];
                for g in t {
                    let Some(x) = solve(&cols, g) else { continue };
                    let fk = [x[5], x[6], x[7]];
                    let w2: Values = std::array::from_fn(|p| {
                        bv[k][p] * (fk[0] * bv[i][p] + fk[1] * bv[j][p] + fk[2] * w1[p])
                    });
                    let basis = [one, bv[0], bv[1], bv[2], w1, w2];
                    if let (Some(cu), Some(cv)) = (solve(&basis, t[0]), solve(&basis, t[1])) {
                        return Some(Plan3 { c, k, f: fk, coef: [cu, cv] });
                    }
                }
            }
        }
        None
    }

    /// Allocate `w1`, `w2` (2 constraints) and return both table values.
    fn lookup(&self, b: &Builder, bits: &[Wire]) -> Result<[Wire; 2]> {
        let zero = Wire::constant(Fr::zero(), None);
        let sum = bits.iter().fold(zero.clone(), |a, x| a.add_scaled(Fr::one(), x));
        let lin = bits.iter().zip(self.c).fold(zero.clone(), |a, (x, c)| a.add_scaled(c, x));
        let w1 = b.mul(&sum, &lin)?;
        let (i, j) = Plan3::others(self.k);
        let inner =
            zero.add_scaled(self.f[0], &bits[i]).add_scaled(self.f[1], &bits[j]).add_scaled(self.f[2], &w1);
        let w2 = b.mul(&bits[self.k], &inner)?;
        let basis = [&bits[0], &bits[1], &bits[2], &w1, &w2];
        Ok(std::array::from_fn(|t| {
            let coef = &self.coef[t];
            basis.iter().zip(&coef[1..]).fold(Wire::constant(coef[0], None), |a, (w, c)| a.add_scaled(*c, w))
        }))
    }
}

/// Both coordinates of a window's table `(tx, ty)` (`2^k` entries for `k = bits.len() ≤ 3`) as
/// linear combinations: 0, 1 and 2 constraints for 1, 2 and 3 bits.
fn lookup_pair(b: &Builder, bits: &[Wire], tx: &[Fr], ty: &[Fr]) -> Result<(Wire, Wire)> {
    if bits.len() == 3 {
        let (vx, vy): (Values, Values) = (std::array::from_fn(|p| tx[p]), std::array::from_fn(|p| ty[p]));
        if let Some(plan) = Plan3::new([&vx, &vy]) {
            let [x, y] = plan.lookup(b, bits)?;
            return Ok((x, y));
        }
    }
    let mono = monomials(b, bits)?;
    Ok((linear(tx, &mono), linear(ty, &mono)))
}

/// `σ_i = 2·b_i − 1` at the assignment `p` (index `Σ 2^i·b_i`).
fn sigma(p: usize, i: usize) -> Fr {
    if (p >> i) & 1 == 1 {
        Fr::one()
    } else {
        -Fr::one()
    }
}

/// The coefficients of `f` (its values at the `2^k` assignments) in the basis
/// `σ^S = Π_{i∈S} σ_i`, indexed by the mask `S`.
fn walsh(f: &[Fr]) -> Vec<Fr> {
    let n = f.len();
    let scale = Fr::from(n as u64).inverse().unwrap_or_default();
    (0..n)
        .map(|s| {
            let mut c = Fr::zero();
            for (p, v) in f.iter().enumerate() {
                // σ^S(p) = (−1)^(number of i ∈ S with b_i = 0)
                if (s & !p).count_ones() % 2 == 0 {
                    c += v;
                } else {
                    c -= v;
                }
            }
            c * scale
        })
        .collect()
}

/// Values of `Σ c_i·σ_i` at the `n` assignments.
fn sigma_values(c: &[Fr], n: usize) -> Vec<Fr> {
    (0..n).map(|p| c.iter().enumerate().map(|(i, ci)| *ci * sigma(p, i)).sum()).collect()
}

fn pointwise(a: &[Fr], b: &[Fr], f: impl Fn(Fr, Fr) -> Fr) -> Vec<Fr> {
    a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect()
}

/// `(α·σ)·(β·σ)` with the given pair coefficients `α_i·β_j + α_j·β_i = q[{i, j}]` (`q` indexed
/// by mask): `α_r = 1`, `β_r = 0`, `β_j = q[{r, j}]`, and the other pairs are linear in the
/// remaining `α_i`; every pivot `r` is tried.
fn rank_two(k: usize, q: &[Fr]) -> Option<(Vec<Fr>, Vec<Fr>)> {
    let pair = |i: usize, j: usize| q[(1 << i) | (1 << j)];
    for r in 0..k {
        let others: Vec<usize> = (0..k).filter(|&i| i != r).collect();
        let mut beta = vec![Fr::zero(); k];
        for &j in &others {
            beta[j] = pair(r, j);
        }
        let (mut rows, mut rhs) = (Vec::new(), Vec::new());
        for (x, &i) in others.iter().enumerate() {
            for &j in &others[x + 1..] {
                rows.push(
                    others
                        .iter()
                        .map(|&o| {
                            if o == i {
                                beta[j]
                            } else if o == j {
                                beta[i]
                            } else {
                                Fr::zero()
                            }
                        })
                        .collect(),
                );
                rhs.push(pair(i, j));
            }
        }
        if let Some(a) = solve_system(&rows, &rhs) {
            let mut alpha = vec![Fr::zero(); k];
            alpha[r] = Fr::one();
            for (&o, v) in others.iter().zip(a) {
                alpha[o] = v;
            }
            return Some((alpha, beta));
        }
    }
    None
}

/// A deterministic stream of field elements for the free choices of [`PlanSym`] (the circuit's
/// shape depends on the tables only).
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> Fr {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        Fr::from(self.0 >> 11)
    }
}

/// The lookup of a pair of tables over `k ∈ {3, 4}` bits, one **even** (`E(¬b) = E(b)`) and one
/// **odd** (`O(¬b) = −O(b)`), in `k − 1` constraints (see the module documentation):
/// `w1 = (α·σ)·(β·σ)`, `w2 = (γ·σ)·w1`, for 4 bits `w3 = (ε·σ)·(w2 + κ·σ)`; then
/// `E = e0 + w1 + f3·w3` and `O = o0 + Σ o_i·σ_i + w2` on every assignment.
#[derive(Clone, Debug)]
struct PlanSym {
    alpha: Vec<Fr>,
    beta: Vec<Fr>,
    gamma: Vec<Fr>,
    /// `(ε, κ, f3)` when the even table has a quartic term.
    third: Option<(Vec<Fr>, Vec<Fr>, Fr)>,
    e0: Fr,
    o0: Fr,
    olin: Vec<Fr>,
}

impl PlanSym {
    fn new(even: &[Fr], odd: &[Fr]) -> Option<PlanSym> {
        let n = even.len();
        let k = n.trailing_zeros() as usize;
        if !(k == 3 || k == 4) || odd.len() != n || n != 1 << k {
            return None;
        }
        let (we, wo) = (walsh(even), walsh(odd));
        let odd_degree = |s: usize| s.count_ones() % 2 == 1;
        if (0..n).any(|s| if odd_degree(s) { !we[s].is_zero() } else { !wo[s].is_zero() }) {
            return None;
        }
        let full = n - 1;
        let triples: Vec<usize> = (0..n).filter(|s| s.count_ones() == 3).collect();
        // the cubic part of the odd table, as values
        let cubic: Vec<Fr> = (0..n)
            .map(|p| {
                triples.iter().map(|&t| if (t & !p).count_ones() % 2 == 0 { wo[t] } else { -wo[t] }).sum()
            })
            .collect();
        let mut stream = Stream(0x5eed);
        for _ in 0..16 {
            // w3 (4 bits, quartic term): W3 = (ε·σ)·(cubic + κ'·σ) carries the quartic term, w1
            // the rest of the pairs
            let (third, q1) = if k == 4 && !we[full].is_zero() {
                let eps: Vec<Fr> = (0..k).map(|_| stream.next()).collect();
                let kap: Vec<Fr> = (0..k).map(|_| stream.next()).collect();
                let w3 = pointwise(
                    &sigma_values(&eps, n),
                    &pointwise(&cubic, &sigma_values(&kap, n), |a, b| a + b),
                    |a, b| a * b,
                );
                let ww = walsh(&w3);
                if ww[full].is_zero() {
                    continue;
                }
                let f3 = we[full] / ww[full];
                (Some((eps, kap, f3)), pointwise(&we, &ww, |a, b| a - f3 * b))
            } else {
                (None, we.clone())
            };
            let Some((alpha, beta)) = rank_two(k, &q1) else { continue };
            let w1 = pointwise(&sigma_values(&alpha, n), &sigma_values(&beta, n), |a, b| a * b);
            // the coefficient of σ^T (|T| = 3) in (γ·σ)·w1 is Σ_{i∈T} γ_i·q1[T∖i]
            let rows: Vec<Vec<Fr>> = triples
                .iter()
                .map(|&t| {
                    (0..k).map(|i| if (t >> i) & 1 == 1 { q1[t & !(1 << i)] } else { Fr::zero() }).collect()
                })
                .collect();
            let rhs: Vec<Fr> = triples.iter().map(|&t| wo[t]).collect();
            let Some(gamma) = solve_system(&rows, &rhs) else { continue };
            let w2 = pointwise(&sigma_values(&gamma, n), &w1, |a, b| a * b);
            let (third, w3) = match third {
                Some((eps, kap, f3)) => {
                    // w2 = cubic + λ2·σ: κ = κ' − λ2 makes w2 + κ·σ = cubic + κ'·σ
                    let w2h = walsh(&w2);
                    let kappa: Vec<Fr> = (0..k).map(|i| kap[i] - w2h[1 << i]).collect();
                    let inner = pointwise(&w2, &sigma_values(&kappa, n), |a, b| a + b);
                    let w3 = pointwise(&sigma_values(&eps, n), &inner, |a, b| a * b);
                    let scaled = w3.iter().map(|v| f3 * v).collect();
                    (Some((eps, kappa, f3)), scaled)
                }
                None => (None, vec![Fr::zero(); n]),
            };
            let re: Vec<Fr> = (0..n).map(|p| even[p] - w1[p] - w3[p]).collect();
            if re.iter().any(|v| *v != re[0]) {
                continue;
            }
            let ro = walsh(&pointwise(odd, &w2, |a, b| a - b));
            if (0..n).any(|s| s.count_ones() > 1 && !ro[s].is_zero()) {
                continue;
            }
            let olin = (0..k).map(|i| ro[1 << i]).collect();
            return Some(PlanSym { alpha, beta, gamma, third, e0: re[0], o0: ro[0], olin });
        }
        None
    }

    /// Allocate `w1`, `w2` (and `w3`) and return the even and the odd table's values.
    fn lookup(&self, b: &Builder, bits: &[Wire]) -> Result<(Wire, Wire)> {
        let sig: Vec<Wire> = bits.iter().map(|x| x.affine(Fr::from(2u64), -Fr::one())).collect();
        let lin = |c: &[Fr]| {
            sig.iter().zip(c).fold(Wire::constant(Fr::zero(), None), |a, (s, c)| a.add_scaled(*c, s))
        };
        let w1 = b.mul(&lin(&self.alpha), &lin(&self.beta))?;
        let w2 = b.mul(&lin(&self.gamma), &w1)?;
        let mut even = w1.affine(Fr::one(), self.e0);
        if let Some((eps, kappa, f3)) = &self.third {
            let w3 = b.mul(&lin(eps), &w2.add_scaled(Fr::one(), &lin(kappa)))?;
            even = even.add_scaled(*f3, &w3);
        }
        let odd = lin(&self.olin).add_scaled(Fr::one(), &w2).affine(Fr::one(), self.o0);
        Ok((even, odd))
    }
}

/// An even and an odd table (`2^k` entries, `k ≤ 4`) as linear combinations: 0, 1, 2 and 3
/// constraints for 1 to 4 bits (the generic lookups where [`PlanSym`] finds no plan).
fn lookup_sym(b: &Builder, bits: &[Wire], even: &[Fr], odd: &[Fr]) -> Result<(Wire, Wire)> {
    if bits.len() >= 3 {
        if let Some(plan) = PlanSym::new(even, odd) {
            return plan.lookup(b, bits);
        }
    }
    lookup_pair(b, bits, even, odd)
}
/// A segment of the layout: a Montgomery chain over consecutive windows, or a single window
/// looked up in Edwards form. Windows are bit ranges of the scalar.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Montgomery(Vec<Range<usize>>),
    Edwards(Range<usize>),
}

/// Window width of the per-base lookups ([`PlanSym`]: 3 constraints for 4 bits).
const WIDTH: usize = 4;
/// Window width when several bases share the window monomials (4 products for 3 bits).
const SHARED_WIDTH: usize = 3;
/// From this many bases on, [`mul_many`] shares 3-bit window monomials between the bases
/// (`4 + 3·k` constraints per 3 bits) rather than looking up 4-bit windows per base (`6·k`
/// per 4 bits).
const SHARE_FROM: usize = 3;

/// Products of one window lookup: per base (`shared = None`) `w − 1` for `w ≤ 4` bits; with
/// monomials shared by `k` bases, the `2^w − w − 1` monomials once.
fn lookup_cost(w: usize, shared: Option<usize>) -> usize {
    match shared {
        None => w - 1,
        Some(_) => (1 << w) - w - 1,
    }
}

/// The segments for `n` bits, cheapest first under the cost model (ties: the first found).
/// Per base, a Montgomery segment costs its lookups, 3 per addition and 2 for the conversion; an
/// Edwards window its lookup; each join 6; the constant `K` nothing when an Edwards window of at
/// most 3 bits (any table: no symmetry needed) absorbs it, else 2 more in a Montgomery
/// segment's conversion ([`montgomery::to_edwards_plus`]), else one constant addition (3).
/// A Montgomery segment holds at most [`MAX_SEGMENT_BITS`] bits (the soundness argument).
fn layout(n: usize, shared: Option<usize>) -> Vec<Segment> {
    let width = if shared.is_some() { SHARED_WIDTH } else { WIDTH };
    let per_base = shared.unwrap_or(1);
    let windows = |r: Range<usize>| -> Vec<Range<usize>> {
        r.clone().step_by(width).map(|s| s..(s + width).min(r.end)).collect()
    };
    // (products shared by the bases, products per base)
    let window_cost = |w: usize| match shared {
        None => (0, lookup_cost(w, None)),
        Some(_) => (lookup_cost(w, shared), 0),
    };
    let total = |(s, p): (usize, usize)| s + per_base * p;
    let mont: Vec<usize> = (0..=MAX_SEGMENT_BITS.min(n))
        .map(|bits| {
            if bits == 0 {
                return usize::MAX;
            }
            let ws = windows(0..bits);
            let (s, p) = ws.iter().fold((0, 0), |(s, p), w| {
                let (a, c) = window_cost(w.len());
                (s + a, p + c)
            });
            total((s, p + 3 * (ws.len() - 1) + 2))
        })
        .collect();
    let absorbs = |w: usize| shared.is_some() || w <= 3;
    // best[pos][state]: state bit 0 = `K` absorbed, bit 1 = a Montgomery segment exists;
    // (cost, previous position, previous state, Montgomery?)
    type Entry = Option<(usize, usize, usize, bool)>;
    let mut best: Vec<[Entry; 4]> = vec![[None; 4]; n + 1];
    best[0][0] = Some((0, 0, 0, false));
    for pos in 0..n {
        for st in 0..4 {
            let Some((c, ..)) = best[pos][st] else { continue };
            let join = if pos > 0 { total((0, 6)) } else { 0 };
            let mut relax = |end: usize, nst: usize, cost: usize, montgomery: bool| {
                if best[end][nst].is_none_or(|e| cost <= e.0) {
                    best[end][nst] = Some((cost, pos, st, montgomery));
                }
            };
            for bits in (1..=MAX_SEGMENT_BITS.min(n - pos)).rev() {
                relax(pos + bits, st | 2, c + join + mont[bits], true);
            }
            for w in 1..=width.min(n - pos) {
                relax(pos + w, st | usize::from(absorbs(w)), c + join + total(window_cost(w)), false);
            }
        }
    }
    let constant = |st: usize| total((0, [3, 0, 2, 0][st]));
    let Some(mut st) = (0..4)
        .filter_map(|st| best[n][st].as_ref().map(|e| (e.0 + constant(st), st)))
        .min()
        .map(|(_, st)| st)
    else {
        return Vec::new();
    };
    let mut segments = Vec::new();
    let mut pos = n;
    while pos > 0 {
        let Some((_, prev, prev_st, montgomery)) = best[pos][st] else { break };
        segments.push(if montgomery {
            Segment::Montgomery(windows(prev..pos))
        } else {
            Segment::Edwards(prev..pos)
        });
        pos = prev;
        st = prev_st;
    }
    segments.reverse();
    segments
}

/// A window of the layout: its bits, and its monomials when they are shared by several bases.
struct Window {
    range: Range<usize>,
    bits: Vec<Wire>,
    shared: Option<Vec<Wire>>,
}

impl Window {
    /// Both coordinates of any table over the window's bits.
    fn pair(&self, b: &Builder, tx: &[Fr], ty: &[Fr]) -> Result<(Wire, Wire)> {
        match &self.shared {
            Some(mono) => Ok((linear(tx, mono), linear(ty, mono))),
            None => lookup_pair(b, &self.bits, tx, ty),
        }
    }

    /// An even and an odd table over the window's bits (cheaper per base).
    fn pair_sym(&self, b: &Builder, even: &[Fr], odd: &[Fr]) -> Result<(Wire, Wire)> {
        match &self.shared {
            Some(mono) => Ok((linear(even, mono), linear(odd, mono))),
            None => lookup_sym(b, &self.bits, even, odd),
        }
    }
}

/// The layout's segments and windows (keyed by their first bit), the monomials computed once
/// when shared.
struct Prepared {
    segments: Vec<Segment>,
    windows: std::collections::BTreeMap<usize, Window>,
    shared: bool,
    n: usize,
}

fn prepare(b: &Builder, bits: &[Wire], shared: Option<usize>) -> Result<Prepared> {
    let segments = layout(bits.len(), shared);
    let mut windows = std::collections::BTreeMap::new();
    for r in segments.iter().flat_map(|s| match s {
        Segment::Montgomery(ws) => ws.clone(),
        Segment::Edwards(w) => vec![w.clone()],
    }) {
        let wb = bits[r.clone()].to_vec();
        let mono = if shared.is_some() { Some(monomials(b, &wb)?) } else { None };
        windows.insert(r.start, Window { range: r, bits: wb, shared: mono });
    }
    Ok(Prepared { segments, windows, shared: shared.is_some(), n: bits.len() })
}

/// A constant base in the prime-order subgroup, other than the identity.
#[derive(Clone, Debug)]
pub struct FixedBase {
    base: Affine,
}

impl FixedBase {
    /// Checks the base.
    ///
    /// # Panics
    ///
    /// If `base` is the identity or not in the subgroup of order `l` (the soundness argument
    /// above needs prime order).
    pub fn new(base: Affine) -> FixedBase {
        assert!(
            base != native::identity() && native::is_in_subgroup(&base),
            "fixed-base multiplication needs a non-identity point of the prime-order subgroup"
        );
        FixedBase { base }
    }

    /// circomlib's `Base8`.
    pub fn base8() -> FixedBase {
        FixedBase::new(native::base8())
    }

    /// The base point.
    pub fn base(&self) -> Affine {
        self.base
    }

    /// The base in arkworks' projective form (same curve and coordinates), for fast tables.
    fn projective(p: &Affine) -> BabyJubjubProjective {
        BabyJubjubAffine::new_unchecked(p.0, p.1).into()
    }

    /// `Q_h = ((l + 1)/2)·Q`, so that `2·Q_h = Q`.
    fn half(&self) -> BabyJubjubProjective {
        let h = (native::subgroup_order() + Fr::one()) * Fr::from(2u64).inverse().unwrap_or_default();
        FixedBase::projective(&self.base).mul_bigint(h.into_bigint())
    }

    /// The tables of windows (bit ranges, increasing): entry `p` (the bits' value) of the window
    /// `r` is `D·2^(r.start)·Q_h` with the signed digit `D = Σ_i σ_i·2^i = 2p − (2^len − 1)`.
    fn tables<'a>(&self, windows: impl Iterator<Item = &'a Range<usize>>) -> Vec<Vec<Affine>> {
        let mut bj = self.half();
        let mut at = 0;
        let mut sizes = Vec::new();
        let mut all: Vec<BabyJubjubProjective> = Vec::new();
        for r in windows {
            while at < r.start {
                bj.double_in_place();
                at += 1;
            }
            let m = 1usize << r.len();
            let mut mult = vec![BabyJubjubProjective::zero(); m];
            for i in 1..m {
                mult[i] = mult[i - 1] + bj;
            }
            all.extend((0..m).map(|p| {
                let d = 2 * p as i64 - (m as i64 - 1);
                if d >= 0 {
                    mult[d as usize]
                } else {
                    -mult[(-d) as usize]
                }
            }));
            sizes.push(m);
        }
        let mut points = BabyJubjubProjective::normalize_batch(&all).into_iter().map(|p| (p.x, p.y));
        sizes.into_iter().map(|m| points.by_ref().take(m).collect()).collect()
    }

    /// The constant `K = (2^n − 1)·Q_h + e·Q` completing `Σ_j D_j·2^(start_j)·Q_h` to
    /// `(s + e)·Q`.
    fn constant(&self, n: usize, e: Fr) -> Affine {
        let ones = <Fr as PrimeField>::BigInt::from_bits_le(&vec![true; n]);
        let k = self.half().mul_bigint(ones) + FixedBase::projective(&self.base).mul_bigint(e.into_bigint());
        let k = k.into_affine();
        (k.x, k.y)
    }
}

/// Montgomery images `(u, v) = ((1 + y)/(1 − y), u/x)` of points of order above 2, with two
/// batched inversions.
fn to_mont_batch(points: &[Affine]) -> Vec<(Fr, Fr)> {
    let mut den: Vec<Fr> = points.iter().map(|p| Fr::one() - p.1).collect();
    let mut xs: Vec<Fr> = points.iter().map(|p| p.0).collect();
    ark_ff::batch_inversion(&mut den);
    ark_ff::batch_inversion(&mut xs);
    points
        .iter()
        .zip(den.iter().zip(&xs))
        .map(|(p, (d, ix))| {
            let u = (Fr::one() + p.1) * d;
            (u, u * ix)
        })
        .collect()
}

/// `s·Q` where `s = Σ 2^i·bits[i]` (little-endian boolean wires; the caller enforces
/// booleanity, e.g. with [`super::scalar_bits`]). See the module documentation for the cost
/// (382 constraints for 252 bits, 379 for 251) and the soundness argument.
pub fn mul(b: &Builder, base: &FixedBase, bits: &[Wire]) -> Result<PointWire> {
    mul_plus(b, base, bits, Fr::zero())
}

/// `(s + e)·Q` for a constant integer `e` (same cost as [`mul`]: `e·Q` joins the constant
/// `K`).
pub fn mul_plus(b: &Builder, base: &FixedBase, bits: &[Wire], e: Fr) -> Result<PointWire> {
    let prep = prepare(b, bits, None)?;
    mul_prepared(b, base, &prep, e)
}

/// `(s + e)·Q_i` for several constant bases and one scalar. Up to two bases: per-base 4-bit
/// lookups, as [`mul_plus`]; from three on, 3-bit windows whose monomials are shared.
pub fn mul_many(b: &Builder, bases: &[FixedBase], bits: &[Wire], e: Fr) -> Result<Vec<PointWire>> {
    let shared = (bases.len() >= SHARE_FROM).then_some(bases.len());
    let prep = prepare(b, bits, shared)?;
    bases.iter().map(|base| mul_prepared(b, base, &prep, e)).collect()
}

fn mul_prepared(b: &Builder, base: &FixedBase, prep: &Prepared, e: Fr) -> Result<PointWire> {
    let constant = base.constant(prep.n, e);
    let window = |r: &Range<usize>| &prep.windows[&r.start];
    let tables: std::collections::BTreeMap<usize, Vec<Affine>> =
        prep.windows.keys().copied().zip(base.tables(prep.windows.values().map(|w| &w.range))).collect();
    let table = |r: &Range<usize>| tables[&r.start].clone();
    // `K` goes into the first Edwards window that needs no symmetry, else into the first
    // Montgomery conversion, else into a constant addition at the end
    let absorber =
        prep.segments.iter().position(|s| matches!(s, Segment::Edwards(w) if prep.shared || w.len() <= 3));
    let merger = match absorber {
        Some(_) => None,
        None => prep.segments.iter().position(|s| matches!(s, Segment::Montgomery(_))),
    };
    let mut result: Option<PointWire> = None;
    for (i, seg) in prep.segments.iter().enumerate() {
        let seg_point = match seg {
            Segment::Edwards(r) => {
                let mut t = table(r);
                if absorber == Some(i) {
                    t.iter_mut().for_each(|p| *p = native::add(p, &constant));
                }
                let xs: Vec<Fr> = t.iter().map(|p| p.0).collect();
                let ys: Vec<Fr> = t.iter().map(|p| p.1).collect();
                let (x, y) = if absorber == Some(i) {
                    window(r).pair(b, &xs, &ys)?
                } else {
                    // `T(¬b) = −T(b)`: `y` even, `x` odd
                    let (y, x) = window(r).pair_sym(b, &ys, &xs)?;
                    (x, y)
                };
                PointWire { x, y }
            }
            Segment::Montgomery(ws) => {
                let mut acc: Option<(Wire, Wire)> = None;
                for r in ws {
                    let m = to_mont_batch(&table(r));
                    let us: Vec<Fr> = m.iter().map(|p| p.0).collect();
                    let vs: Vec<Fr> = m.iter().map(|p| p.1).collect();
                    // `T(¬b) = −T(b)`: `u` even, `v` odd
                    let q = window(r).pair_sym(b, &us, &vs)?;
                    acc = Some(match acc {
                        None => q,
                        Some(a) => montgomery::add(b, &a, &q)?,
                    });
                }
                match acc {
                    Some(a) if merger == Some(i) => montgomery::to_edwards_plus(b, &a, constant)?,
                    Some(a) => montgomery::to_edwards(b, &a)?,
                    // (`layout` makes no empty segment)
                    None => PointWire::identity(),
                }
            }
        };
        result = Some(match result {
            None => seg_point,
            Some(r) => point::add(b, &r, &seg_point)?,
        });
    }
    let r = result.unwrap_or_else(PointWire::identity);
    if absorber.is_none() && merger.is_none() {
        point::add_constant(b, &r, constant)
    } else {
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::super::montgomery::to_mont_native;
    use super::*;

    fn check_plan3(tx: &Values, ty: &Values, what: &str) {
        let plan = Plan3::new([tx, ty]).unwrap_or_else(|| panic!("{what}"));
        let bv: [Values; 3] = std::array::from_fn(bit_values);
        let (i, k) = (Plan3::others(plan.k), plan.k);
        for p in 0..8 {
            let bit = |n: usize| bv[n][p];
            let w1 =
                (bit(0) + bit(1) + bit(2)) * (plan.c[0] * bit(0) + plan.c[1] * bit(1) + plan.c[2] * bit(2));
            let w2 = bit(k) * (plan.f[0] * bit(i.0) + plan.f[1] * bit(i.1) + plan.f[2] * w1);
            let basis = [Fr::one(), bit(0), bit(1), bit(2), w1, w2];
            for (coef, want) in plan.coef.iter().zip([tx[p], ty[p]]) {
                let got: Fr = coef.iter().zip(basis).map(|(c, v)| *c * v).sum();
                assert_eq!(got, want, "{what}, assignment {p}");
            }
        }
    }

    /// The symmetric plan reproduces both tables on every assignment (evaluated natively from
    /// the plan's coefficients, independently of the circuit).
    fn check_sym(even: &[Fr], odd: &[Fr], what: &str) -> PlanSym {
        let plan = PlanSym::new(even, odd).unwrap_or_else(|| panic!("{what}"));
        let n = even.len();
        let k = n.trailing_zeros() as usize;
        for p in 0..n {
            let lin = |c: &[Fr]| -> Fr { (0..k).map(|i| c[i] * sigma(p, i)).sum() };
            let w1 = lin(&plan.alpha) * lin(&plan.beta);
            let w2 = lin(&plan.gamma) * w1;
            let w3 =
                plan.third.as_ref().map_or(Fr::zero(), |(eps, kappa, f3)| *f3 * lin(eps) * (w2 + lin(kappa)));
            assert_eq!(plan.e0 + w1 + w3, even[p], "{what}, even, assignment {p}");
            assert_eq!(plan.o0 + lin(&plan.olin) + w2, odd[p], "{what}, odd, assignment {p}");
        }
        assert_eq!(plan.third.is_some(), k == 4, "{what}: a 4-bit window has a quartic term");
        plan
    }

    /// Every window of the layouts of 251 and 252 bits, for `Base8` and another base, gets its
    /// cheap lookup: [`PlanSym`] for the Montgomery tables (`u` even, `v` odd) of 3- and 4-bit
    /// windows and for the Edwards tables (`y` even, `x` odd) of 4-bit windows, [`Plan3`] for
    /// the 3-bit Edwards tables that absorb the constant.
    #[test]
    fn plans_cover_every_window_table() {
        let q = native::mul(&native::base8(), &Fr::from(123_456_789u64));
        for base in [FixedBase::base8(), FixedBase::new(q)] {
            // every 4-bit window up to bit 252, 3-bit windows at every third bit
            let windows: Vec<Range<usize>> =
                (0..63).map(|j| 4 * j..4 * j + 4).chain((0..84).map(|j| 3 * j..3 * j + 3)).collect();
            let mut sorted = windows.clone();
            sorted.sort_by_key(|r| (r.start, r.end));
            let tables = base.tables(sorted.iter());
            let constant = base.constant(252, Fr::zero());
            for (r, t) in sorted.iter().zip(&tables) {
                let mont: Vec<(Fr, Fr)> = t.iter().map(to_mont_native).collect();
                let us: Vec<Fr> = mont.iter().map(|p| p.0).collect();
                let vs: Vec<Fr> = mont.iter().map(|p| p.1).collect();
                check_sym(&us, &vs, &format!("Montgomery {r:?}"));
                let xs: Vec<Fr> = t.iter().map(|p| p.0).collect();
                let ys: Vec<Fr> = t.iter().map(|p| p.1).collect();
                check_sym(&ys, &xs, &format!("Edwards {r:?}"));
                if r.len() == 3 {
                    let shifted: Vec<Affine> = t.iter().map(|p| native::add(p, &constant)).collect();
                    let tx: Values = std::array::from_fn(|p| shifted[p].0);
                    let ty: Values = std::array::from_fn(|p| shifted[p].1);
                    check_plan3(&tx, &ty, &format!("Edwards + K {r:?}"));
                }
            }
        }
    }

    #[test]
    fn solver_finds_and_rejects() {
        let bv: [Values; 3] = std::array::from_fn(bit_values);
        let one = [Fr::one(); 8];
        let target: Values = std::array::from_fn(|p| Fr::from(3u64) + Fr::from(5u64) * bv[1][p]);
        assert_eq!(
            solve(&[one, bv[0], bv[1]], &target),
            Some(vec![Fr::from(3u64), Fr::zero(), Fr::from(5u64)])
        );
        let prod: Values = std::array::from_fn(|p| bv[0][p] * bv[1][p]);
        assert_eq!(solve(&[one, bv[0], bv[1], bv[2]], &prod), None);
    }

    /// Random, affine and constant tables: the lookup is right on every assignment, costs at
    /// 2 constraints (no fallback needed) and leaves no witness free.
    #[test]
    fn lookup_pair_all_assignments() {
        use crate::gadgets::test_util::*;
        let mut r = 1u64;
        let mut next = || {
            r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            Fr::from(r >> 11)
        };
        let tables: Vec<(Values, Values)> = vec![
            (std::array::from_fn(|_| next()), std::array::from_fn(|_| next())),
            // degenerate: both affine in the bits
            (
                std::array::from_fn(|p| Fr::from(p as u64)),
                std::array::from_fn(|p| Fr::from(2 * p as u64 + 1)),
            ),
            // equal tables
            ([next(); 8], [next(); 8]),
        ];
        for (tx, ty) in tables {
            for v in 0..8i128 {
                let b = builder();
                let bits: Vec<Wire> = (0..3).map(|i| wit(&b, (v >> i) & 1, Some((0, 1)))).collect();
                let (x, y) = lookup_pair(&b, &bits, &tx, &ty).unwrap();
                assert_eq!((x.value, y.value), (Some(tx[v as usize]), Some(ty[v as usize])));
                assert_eq!(b.cs.num_constraints(), 2);
                assert_sound(&b, 3);
            }
        }
    }

    /// Random even/odd tables over 3 and 4 bits, and window tables: the symmetric lookup is
    /// right on every assignment in the circuit, costs `k − 1` constraints and leaves no witness
    /// free; tables that are not even/odd get no plan.
    #[test]
    fn lookup_sym_all_assignments() {
        use crate::gadgets::test_util::*;
        let mut stream = Stream(7);
        let q = FixedBase::base8();
        let window: Range<usize> = 100..104;
        let t4 = &q.tables(std::iter::once(&window))[0];
        let mont: Vec<(Fr, Fr)> = t4.iter().map(to_mont_native).collect();
        for k in [3usize, 4] {
            let n = 1 << k;
            let rand: Vec<Fr> = (0..n).map(|_| stream.next()).collect();
            let rand2: Vec<Fr> = (0..n).map(|_| stream.next()).collect();
            let even: Vec<Fr> = (0..n).map(|p| rand[p] + rand[(n - 1) ^ p]).collect();
            let odd: Vec<Fr> = (0..n).map(|p| rand2[p] - rand2[(n - 1) ^ p]).collect();
            let mut cases = vec![(even.clone(), odd.clone())];
            if k == 4 {
                cases.push((mont.iter().map(|p| p.0).collect(), mont.iter().map(|p| p.1).collect()));
                cases.push((t4.iter().map(|p| p.1).collect(), t4.iter().map(|p| p.0).collect()));
            }
            for (e, o) in cases {
                check_sym(&e, &o, &format!("{k} bits"));
                for v in 0..n as i128 {
                    let b = builder();
                    let bits: Vec<Wire> = (0..k).map(|i| wit(&b, (v >> i) & 1, Some((0, 1)))).collect();
                    let (x, y) = lookup_sym(&b, &bits, &e, &o).unwrap();
                    assert_eq!((x.value, y.value), (Some(e[v as usize]), Some(o[v as usize])));
                    assert_eq!(b.cs.num_constraints(), k - 1);
                    assert_sound(&b, k);
                }
            }
            // not symmetric: no plan
            assert!(PlanSym::new(&rand, &odd).is_none());
            assert!(PlanSym::new(&even, &rand2).is_none());
        }
    }

    /// The layouts behind the documented counts, and the cost model's invariants: windows tile
    /// the bits in order and no Montgomery segment exceeds [`MAX_SEGMENT_BITS`].
    #[test]
    fn layouts() {
        use Segment::*;
        let mont =
            |r: Range<usize>| Montgomery(r.clone().step_by(4).map(|s| s..(s + 4).min(r.end)).collect());
        assert_eq!(layout(252, None), vec![mont(0..248), Edwards(248..252)]);
        assert_eq!(layout(251, None), vec![mont(0..248), Edwards(248..251)]);
        assert_eq!(layout(32, None), vec![mont(0..32)]);
        assert_eq!(layout(3, None), vec![Edwards(0..3)]);
        assert_eq!(layout(0, None), vec![]);
        for shared in [None, Some(3)] {
            for n in (0..=300).step_by(7).chain([249, 250, 251, 252, 253, 254, 500, 501]) {
                let segs = layout(n, shared);
                let mut at = 0;
                for s in &segs {
                    let ws = match s {
                        Montgomery(ws) => {
                            assert!(ws.last().unwrap().end - ws[0].start <= MAX_SEGMENT_BITS, "{n}");
                            ws.clone()
                        }
                        Edwards(w) => vec![w.clone()],
                    };
                    for w in ws {
                        assert_eq!(w.start, at, "{n}: {segs:?}");
                        assert!(!w.is_empty() && w.len() <= 4);
                        at = w.end;
                    }
                }
                assert_eq!(at, n);
            }
        }
    }

    /// The one complete join of 251 and 252 bits meets both of its exceptional cases for some
    /// scalars, and the result is still exact. With the Montgomery segment `A` over bits
    /// `0..248` (`A = (2·s_low − 2^248 + 1)·Q_h`) and the top window `t` (`T = (2t − 2^w + 1)·
    /// 2^248·Q_h`, `w = n − 248`), `K = (2^n − 1)·Q_h` joins `A` (252 bits: merged into the
    /// conversion) or `T` (251 bits: in the table). Solving `A' = ±T'` mod `l` gives
    /// `s_low ≡ (t − 15)·2^248` (252, equal), `(t + 1)·2^248 − 1` (251, equal) and `−t·2^248`
    /// (both, opposite: `s ≡ 0`); every solution below `2^248` is a scalar whose operands are
    /// equal or opposite (asserted natively first), and the circuit must still return `s·Q`.
    #[test]
    fn top_join_equal_and_opposite_operands() {
        use crate::gadgets::test_util::*;
        use ark_ff::{BigInteger, PrimeField};
        use num_bigint::{BigInt, BigUint};
        let l = BigInt::from(BigUint::from_bytes_le(&native::subgroup_order().into_bigint().to_bytes_le()));
        let two = |e: usize| BigInt::from(1) << e;
        let to_fr = |x: &BigInt| -> Fr {
            let r = ((x % &l) + &l) % &l;
            Fr::from_le_bytes_mod_order(&r.to_biguint().unwrap_or_default().to_bytes_le())
        };
        let base = FixedBase::base8();
        let qh = {
            let h = base.half().into_affine();
            (h.x, h.y)
        };
        let mut equal_cases = 0;
        for n in [251usize, 252] {
            let w = n - 248;
            let k = base.constant(n, Fr::zero());
            for t in 0..1i64 << w {
                let t_big = BigInt::from(t);
                let top = (BigInt::from(2) * &t_big - two(w) + 1) * two(248);
                let candidates = [
                    (true, if n == 252 { (&t_big - 15) * two(248) } else { (&t_big + 1) * two(248) - 1 }),
                    (false, -&t_big * two(248)),
                ];
                for (equal, s_low) in candidates {
                    let s_low = ((s_low % &l) + &l) % &l;
                    if s_low >= two(248) {
                        continue;
                    }
                    let a = native::mul(&qh, &to_fr(&(BigInt::from(2) * &s_low - two(248) + 1)));
                    let tt = native::mul(&qh, &to_fr(&top));
                    let (a, tt) =
                        if n == 252 { (native::add(&a, &k), tt) } else { (a, native::add(&tt, &k)) };
                    assert_eq!(a, if equal { tt } else { native::neg(&tt) }, "{n} bits, t = {t}");
                    equal_cases += usize::from(equal);
                    let s = &s_low + &t_big * two(248);
                    // s < 2^252 < p: the same integer as a field element
                    let sv = Fr::from_le_bytes_mod_order(&s.to_biguint().unwrap_or_default().to_bytes_le());
                    let b = builder();
                    let var = b.witness(Some(sv)).unwrap();
                    let bits =
                        super::super::scalar_bits(&b, &Wire::var(var, Some(sv), None), n as u32).unwrap();
                    let r = mul(&b, &base, &bits).unwrap();
                    assert_eq!(r.value(), Some(native::mul(&base.base, &sv)), "{n} bits, t = {t}, {s}");
                    if !equal {
                        assert_eq!(r.value(), Some(native::identity()));
                    }
                    assert_sound(&b, 1);
                }
            }
        }
        assert!(equal_cases >= 2, "{equal_cases}");
    }
}
