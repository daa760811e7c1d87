//! Fixed-base scalar multiplication `s·Q` for a constant `Q` in the prime-order subgroup.
//!
//! # Method
//!
//! The scalar bits (little-endian boolean wires, decomposition not counted here) are cut into
//! 3-bit windows (the last one may be shorter). Window `j` looks up the constant point
//! `(v_j + 2)·8^j·Q` (`v_j` the window's value) from its table, and the windows are summed in
//! **Montgomery form** (`v² = u³ + 168698·u² + u`, circomlib's map `u = (1+y)/(1−y)`,
//! `v = u/x`), where an affine addition costs 3 constraints, in segments of at most
//! [`max_segment_windows`] windows; each segment is mapped back to twisted Edwards (2
//! constraints), and segments are summed with the complete Edwards law ([`super::point::add`],
//! 6). A segment of a single window is looked up directly in Edwards coordinates and then
//! absorbs the constant offset `e·Q − Σ_j 2·8^j·Q`; otherwise the offset costs one constant
//! addition (3).
//!
//! ## Lookups
//!
//! A table over the bits of a window is a function on `{0,1}^k`, i.e. a multilinear
//! polynomial in the bits. Both coordinates of a window are made *linear combinations* of
//! `1`, the bits and a few product wires:
//!
//! * 1 bit: no product; 2 bits: `b0·b1` (1 constraint).
//! * 3 bits, one base ([`mul`], [`mul_plus`]): **2 constraints** for both coordinates. Take
//!   a combination `F = α·U + β·V` of the two tables whose cubic coefficient (of `b0b1b2`)
//!   vanishes; its quadratic part `Σ q_ij·b_i·b_j` is that of the single product
//!   `w1 = (b0 + b1 + b2)·(c0·b0 + c1·b1 + c2·b2)` with `c_i + c_j = q_ij` (`b_i² = b_i`), so
//!   `F − w1` is affine. Then `w2 = b_k·(f_i·b_i + f_j·b_j + f_w·w1)` supplies the remaining
//!   direction (its cubic coefficient is `f_w` times `w1`'s `b_i·b_j` coefficient), the
//!   coefficients being found by solving a linear system over the 8 assignments (`Plan3`).
//!   The solution reproduces the table on all 8 assignments by construction (it is solved on
//!   them when the circuit is built); a degenerate table with no solution would fall back to
//!   the 4 monomial products (a test finds a solution for all 84 windows of two bases, Edwards
//!   and Montgomery tables).
//! * 3 bits, several bases ([`mul_many`]): the 4 monomials `b0b1, b0b2, b1b2, b0b1b2`,
//!   shared by every base, make every table linear.
//!
//! circomlib's `WindowMulFix` spends 3 constraints on the same 3-bit lookup (`MultiMux3`).
//!
//! # Why the incomplete Montgomery addition is sound here
//!
//! Montgomery's affine addition fails only when the two operands have the same `u`, i.e. are
//! equal or opposite (then `λ·(u2 − u1) = v2 − v1` leaves `λ` free or is unsatisfiable), or
//! when one is the identity (not representable). circomlib's `EscalarMulAny`/`MontgomeryAdd`
//! do not rule this out; here it is *impossible for every bit assignment*: inside a segment
//! the accumulator before window `k` (segment-relative index) is `m·Q'` with
//! `m = Σ_{j<k} d_j·W^j` (`W = 8`), `d_j ∈ [2, W + 1]`, so
//! `0 < m ≤ (W + 1)·(W^k − 1)/(W − 1) < 2·W^k`, and the looked-up point is `n·Q'` with
//! `n = d_k·W^k ≥ 2·W^k > m`. With `K` windows per segment, `m + n ≤ (W + 1)·(W^K − 1)/(W − 1)`,
//! which is `< l` for `K ≤ 83` (checked by a test), so `n − m` and `n + m` lie in `(0, l)`:
//! `m·Q' ≠ ±n·Q'` because `Q'` (a power-of-2 multiple of `Q`) has prime order `l`. Every
//! accumulated point is a nonzero multiple below `l`, hence not the identity and not of order
//! 2 (so `v ≠ 0` and `u ≠ −1` in the conversion back). Every witness (the lookup products,
//! `λ`, `u3`, `v3`, `x`, `y`) is therefore uniquely determined by the bits.
//!
//! A segment cannot cover 252 bits: its sums would take `2^252 > l` values, one of them the
//! identity, which Montgomery's affine form cannot hold. Hence the last window of a 252-bit
//! scalar forms its own (Edwards) segment, joined by one complete addition; no shift of its
//! digits would make a Montgomery join safe (`tests::no_montgomery_join_for_the_last_window`).
//!
//! # Cost
//!
//! 252 bits (84 windows: a segment of 83, then one): 83 lookups (166), 82 additions (246), a
//! conversion (2), the last window's Edwards lookup (2) and a complete addition (6): **422**.
//! 251 bits: the last window has 2 bits (1 product): 421. 32 bits (11 windows, one segment):
//! 21 + 30 + 2 + 3 (offset) = 56. [`mul_many`] with two bases and 251 bits (segments of 83 and
//! 1 windows): 333 shared products, then per base 82 additions, a conversion and a complete
//! addition (254): 841.

use super::super::{Builder, Result, Wire};
use super::montgomery::{self, to_mont_native};
use super::point::{self, native, native::Affine, PointWire};
use ark_bn254::Fr;
use ark_ff::{Field, One, Zero};

/// Bits per window.
const WIDTH: usize = 3;

/// Windows per Montgomery segment for `w`-bit windows: the largest `K` with
/// `(2^w + 1)·(2^(wK) − 1)/(2^w − 1) < l`.
pub fn max_segment_windows(w: usize) -> usize {
    match w {
        2 => 124,
        3 => 83,
        _ => panic!("window width must be 2 or 3"),
    }
}

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

/// A solution `x` of `Σ_c x_c·cols[c] = rhs` (free unknowns 0), or `None`.
fn solve(cols: &[Values], rhs: &Values) -> Option<Vec<Fr>> {
    let n = cols.len();
    let mut m: Vec<Vec<Fr>> =
        (0..8).map(|r| cols.iter().map(|c| c[r]).chain(std::iter::once(rhs[r])).collect()).collect();
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..n {
        if r == 8 {
            break;
        }
        let Some(p) = (r..8).find(|&i| !m[i][c].is_zero()) else { continue };
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

/// A window: its bits (at most 3), and the monomials of all 3 when they are shared by several
/// bases (missing bits read as constant zeros).
struct Window {
    bits: Vec<Wire>,
    shared: Option<Vec<Wire>>,
}

impl Window {
    /// The entries `t[v]` for the window's value `v`, both coordinates.
    fn pair(&self, b: &Builder, tx: &[Fr], ty: &[Fr]) -> Result<(Wire, Wire)> {
        match &self.shared {
            Some(mono) => Ok((linear(tx, mono), linear(ty, mono))),
            None => {
                let n = 1 << self.bits.len();
                lookup_pair(b, &self.bits, &tx[..n], &ty[..n])
            }
        }
    }
}

fn windows(b: &Builder, bits: &[Wire], shared: bool) -> Result<Vec<Window>> {
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    bits.chunks(WIDTH)
        .map(|c| {
            let shared = if shared {
                let mut padded = c.to_vec();
                padded.resize(WIDTH, zero.clone());
                Some(monomials(b, &padded)?)
            } else {
                None
            };
            Ok(Window { bits: c.to_vec(), shared })
        })
        .collect()
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

    /// Per window `j`: the Edwards entries `(v + 2)·8^j·Q`, `v ∈ [0, 8)`; and the offset
    /// `−Σ_j 2·8^j·Q`.
    fn tables(&self, windows: usize) -> (Vec<Vec<Affine>>, Affine) {
        let mut bj = self.base;
        let mut offset = native::identity();
        let mut tables = Vec::with_capacity(windows);
        for _ in 0..windows {
            let mut e = native::add(&bj, &bj);
            offset = native::add(&offset, &native::neg(&e));
            let mut t = Vec::with_capacity(1 << WIDTH);
            for _ in 0..1 << WIDTH {
                t.push(e);
                e = native::add(&e, &bj);
            }
            tables.push(t);
            for _ in 0..WIDTH {
                bj = native::add(&bj, &bj);
            }
        }
        (tables, offset)
    }
}

/// `s·Q` where `s = Σ 2^i·bits[i]` (little-endian boolean wires; the caller enforces
/// booleanity, e.g. with [`super::scalar_bits`]). See the module documentation for the cost
/// (422 constraints for 252 bits, 421 for 251) and the soundness argument.
pub fn mul(b: &Builder, base: &FixedBase, bits: &[Wire]) -> Result<PointWire> {
    mul_plus(b, base, bits, Fr::zero())
}

/// `(s + e)·Q` for a constant integer `e` (same cost as [`mul`]: `e·Q` joins the constant
/// offset).
pub fn mul_plus(b: &Builder, base: &FixedBase, bits: &[Wire], e: Fr) -> Result<PointWire> {
    let wins = windows(b, bits, false)?;
    mul_windows(b, base, &wins, e)
}

/// `(s + e)·Q_i` for several constant bases and one scalar, with 3-bit windows whose four
/// monomials are shared (one base: as [`mul_plus`]).
pub fn mul_many(b: &Builder, bases: &[FixedBase], bits: &[Wire], e: Fr) -> Result<Vec<PointWire>> {
    let wins = windows(b, bits, bases.len() > 1)?;
    bases.iter().map(|base| mul_windows(b, base, &wins, e)).collect()
}

fn mul_windows(b: &Builder, base: &FixedBase, wins: &[Window], e: Fr) -> Result<PointWire> {
    let (tables, offset) = base.tables(wins.len());
    let mut constant = native::add(&offset, &native::mul(&base.base, &e));
    // segments of at most K windows; a segment of two becomes two single windows (one
    // complete addition instead of an addition, a conversion and the offset)
    let k_max = max_segment_windows(WIDTH);
    let mut segments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    while start < wins.len() {
        let end = (start + k_max).min(wins.len());
        if end - start == 2 {
            segments.push(start..start + 1);
            segments.push(start + 1..end);
        } else {
            segments.push(start..end);
        }
        start = end;
    }
    let mut result: Option<PointWire> = None;
    for seg in segments {
        let seg_point = if seg.len() == 1 {
            // Edwards lookup; the constant offset joins the table
            let t: Vec<Affine> = tables[seg.start].iter().map(|p| native::add(p, &constant)).collect();
            constant = native::identity();
            let xs: Vec<Fr> = t.iter().map(|p| p.0).collect();
            let ys: Vec<Fr> = t.iter().map(|p| p.1).collect();
            let (x, y) = wins[seg.start].pair(b, &xs, &ys)?;
            PointWire { x, y }
        } else {
            let mut acc: Option<(Wire, Wire)> = None;
            for j in seg {
                let m: Vec<(Fr, Fr)> = tables[j].iter().map(to_mont_native).collect();
                let us: Vec<Fr> = m.iter().map(|p| p.0).collect();
                let vs: Vec<Fr> = m.iter().map(|p| p.1).collect();
                let q = wins[j].pair(b, &us, &vs)?;
                acc = Some(match acc {
                    None => q,
                    Some(a) => montgomery::add(b, &a, &q)?,
                });
            }
            match acc {
                Some(a) => montgomery::to_edwards(b, &a)?,
                None => PointWire::identity(),
            }
        };
        result = Some(match result {
            None => seg_point,
            Some(r) => point::add(b, &r, &seg_point)?,
        });
    }
    let r = result.unwrap_or_else(PointWire::identity);
    point::add_constant(b, &r, constant)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every window table of `Base8` and of another base gets the 2-constraint lookup, and it
    /// reproduces both coordinates on all 8 assignments (Montgomery and Edwards tables).
    #[test]
    fn plan3_covers_every_window_table() {
        let q = native::mul(&native::base8(), &Fr::from(123_456_789u64));
        for base in [FixedBase::base8(), FixedBase::new(q)] {
            let (tables, offset) = base.tables(84);
            for (j, t) in tables.iter().enumerate() {
                let mont: Vec<(Fr, Fr)> = t.iter().map(to_mont_native).collect();
                let edw: Vec<Affine> = t.iter().map(|p| native::add(p, &offset)).collect();
                for pts in [mont, edw] {
                    let tx: Values = std::array::from_fn(|p| pts[p].0);
                    let ty: Values = std::array::from_fn(|p| pts[p].1);
                    let plan = Plan3::new([&tx, &ty]).unwrap_or_else(|| panic!("window {j}"));
                    let bv: [Values; 3] = std::array::from_fn(bit_values);
                    let (i, k) = (Plan3::others(plan.k), plan.k);
                    for p in 0..8 {
                        let bit = |n: usize| bv[n][p];
                        let w1 = (bit(0) + bit(1) + bit(2))
                            * (plan.c[0] * bit(0) + plan.c[1] * bit(1) + plan.c[2] * bit(2));
                        let w2 = bit(k) * (plan.f[0] * bit(i.0) + plan.f[1] * bit(i.1) + plan.f[2] * w1);
                        let basis = [Fr::one(), bit(0), bit(1), bit(2), w1, w2];
                        for (coef, want) in plan.coef.iter().zip([tx[p], ty[p]]) {
                            let got: Fr = coef.iter().zip(basis).map(|(c, v)| *c * v).sum();
                            assert_eq!(got, want, "window {j}, assignment {p}");
                        }
                    }
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
}
