//! Variable-base scalar multiplication for a point `P` on the curve.
//!
//! Three gadgets:
//!
//! * [`mul_offset`] computes `(s + 2^(n−1))·P` for `n` bits in about 6 constraints per bit
//!   (1,522 for 251 bits) and rejects `P` of order at most 8 (the identity included).
//! * [`mul`] computes `s·P` exactly, for every `P` on the curve (2,057 for 251 bits): a
//!   right-to-left signed-binary Montgomery chain plus complete-formula corrections.
//! * [`mul_complete`] does the same with complete formulas only (2,763 for 251 bits).
//!
//! # `mul_offset`: signed-digit double-and-add in Montgomery form
//!
//! **Setup (9 constraints).** `x_P ≠ 0` is enforced (1), which rules out the identity and
//! `(0, −1)`, the only points with `x = 0`, and on the curve implies `y ≠ ±1`; so the
//! Montgomery image `(u, v) = ((1 + y)/(1 − y), u/x)` is unique (2) and `v ≠ 0`. Montgomery
//! doubling gives `2P` (4; its slope `(3u² + 2Au + 1)/(2v)` is unique as `v ≠ 0`), and
//! `v_2P·(u_2P − 1) ≠ 0` is enforced (2): `v_2P = 0` exactly when `2P` has order 2 (`P` of
//! order 4), and `u_2P = 1` (Edwards `y = 0`) exactly when `2P` has order 4 (`P` of order 8).
//! So `ord(P) ∈ {l, 2l, 4l, 8l}` (the group is `Z/8 × Z/l`), and every small-order point makes
//! the circuit unsatisfiable. (circomlib's `EscalarMulAny` has no such check.)
//!
//! **Chain.** With `σ_i = 2·b_i − 1 ∈ {±1}`, the accumulator starts at `A = 2P` (`m_0 = 2`) and
//! for `i = n−1, …` becomes `2A + σ_i·P` in 6 constraints (`b_i·v_P`, then
//! `montgomery::double_add`).
//!
//! **No exceptional case.** Write `A = m·P`. After `k` steps `2^k + 1 ≤ m ≤ 3·2^k − 1`. A step
//! adds `T = σ·P` to `A` and then `A` to `R = A + T`; it fails only if `m ≡ ±σ`,
//! `m + σ ≡ ±m` or `2m + σ ≡ 0` modulo `ord(P)`, i.e. if `ord(P)` divides one of `m − 1`,
//! `m + 1`, `1`, `2m + 1`, `2m − 1`, `2m + σ` — all in `(0, l)` while `2·(3·2^k − 1) + 1 < l`,
//! and `ord(P) ≥ l`. That holds for the first [`INCOMPLETE_STEPS`] = 249 steps (a test checks
//! the bound). Every intermediate multiple is nonzero below `l`, so it has order `≥ l` and a
//! Montgomery image (`v ≠ 0`); every slope and coordinate witness is then uniquely determined.
//!
//! **End.** For `n = 251` (250 steps) the chain stops after 249 steps, at bit 2, with
//! `m ∈ [2^249 + 1, 3·2^249 − 1]`, and the last two bits give
//! `2A + σ_1·P + (b_0 − 1)·P = 2·(A − (1 − b_1)·P) + b_0·P` (19 constraints): `A − P` by a
//! Montgomery addition (3; `m ≢ ±1` and `m − 1 ≢ 0` as `1 < m < l − 1`), a selection by `b_1`
//! (2), a Montgomery doubling (4; the multiple `m' ∈ [2^249, 3·2^249 − 1]` has `v ≠ 0`, and `2m'`
//! is not a multiple of the odd `l`, so `2A'` is not the identity), the conversion to Edwards
//! (2), and `+ b_0·P` with the complete law (gate 2, addition 6). For other lengths the
//! remaining steps use complete Edwards doubling and addition (12 each) and the least
//! significant bit one complete addition of `(b_0 − 1)·P` (8). Either way the result is
//! `(s + 2^(n−1))·P`.
//!
//! # `mul_complete`: complete windows
//!
//! 2-bit fixed windows, most significant first, with the **complete** twisted Edwards
//! law only. The table `[O, P, 2P, 3P]` costs one doubling and one addition; each window
//! costs two doublings (5 each), a 4-way selection of both coordinates (3 each) and one
//! addition (6): 22 constraints per 2 bits. No exceptional case exists (completeness on the
//! curve), so nothing depends on the point's order and every witness is a function of `P` and
//! the bits. `P` must be on the curve: use [`super::PointWire::witness`] (or a point computed
//! by these gadgets).

use super::super::select::select;
use super::super::{Builder, Result, Wire};
use super::montgomery;
use super::point::{self, PointWire};
use ark_bn254::Fr;
use ark_ff::{Field, One, Zero};

/// Steps of [`mul_offset`] done with the incomplete Montgomery double-and-add: the largest
/// `K` with `6·2^(K−1) − 1 < l`.
pub const INCOMPLETE_STEPS: usize = 249;

/// The offset of [`mul_offset`] for `n` bits: `2^(n−1)`.
pub fn offset(n: usize) -> Fr {
    Fr::from(2u64).pow([n.saturating_sub(1) as u64])
}

/// `(s + 2^(n−1))·P` where `s = Σ 2^i·bits[i]`, `n = bits.len() ≥ 1` (little-endian boolean
/// wires; booleanity is the caller's). Unsatisfiable when `P` has order at most 8 (the
/// identity and the seven other small-order points). `P` must be on the curve. Cost for 251
/// bits: 1,522 constraints (`6·n + 13` for `n ≤ 250`).
pub fn mul_offset(b: &Builder, p: &PointWire, bits: &[Wire]) -> Result<PointWire> {
    assert!(!bits.is_empty(), "mul_offset needs at least one bit");
    // x ≠ 0: P is neither the identity nor (0, −1), and its Montgomery image is unique
    montgomery::enforce_nonzero(b, &p.x)?;
    let mp = montgomery::from_edwards(b, p)?;
    let m2 = montgomery::double(b, &mp)?;
    // 2P of order neither 2 (v = 0) nor 4 (u = 1)
    let check = b.mul(&m2.1, &m2.0.affine(Fr::one(), -Fr::one()))?;
    montgomery::enforce_nonzero(b, &check)?;
    let steps: Vec<&Wire> = bits[1..].iter().rev().collect();
    let n_inc = steps.len().min(INCOMPLETE_STEPS);
    let mut acc = m2;
    for bit in &steps[..n_inc] {
        // T = σ·P: v_T = (2b − 1)·v_P
        let bv = b.mul(bit, &mp.1)?;
        let t = (mp.0.clone(), bv.affine(Fr::from(2u64), Fr::zero()).add_scaled(-Fr::one(), &mp.1));
        acc = montgomery::double_add(b, &acc, &t)?;
    }
    if steps.len() == INCOMPLETE_STEPS + 1 {
        // the chain stopped at bit 2: 2·(A − (1 − b_1)·P) + b_0·P
        let a_minus_p = montgomery::add(b, &acc, &(mp.0.clone(), mp.1.affine(-Fr::one(), Fr::zero())))?;
        let sel = (select(b, &bits[1], &acc.0, &a_minus_p.0)?, select(b, &bits[1], &acc.1, &a_minus_p.1)?);
        let doubled = montgomery::to_edwards(b, &montgomery::double(b, &sel)?)?;
        return point::add(b, &doubled, &point::gate(b, &bits[0], p)?);
    }
    let mut acc = montgomery::to_edwards(b, &acc)?;
    for bit in &steps[n_inc..] {
        let t = point::conditional_neg(b, &bit.affine(-Fr::one(), Fr::one()), p)?;
        acc = point::add(b, &point::double(b, &acc)?, &t)?;
    }
    // + (b_0 − 1)·P
    let t = point::select(b, &bits[0], &PointWire::identity(), &p.neg())?;
    point::add(b, &acc, &t)
}

/// 4-way selection `t[b0 + 2·b1]` (3 constraints per coordinate, fewer with constant bits).
fn lookup(b: &Builder, t: &[PointWire; 4], b0: &Wire, b1: &Wire) -> Result<PointWire> {
    let lo = point::select(b, b0, &t[1], &t[0])?;
    let hi = point::select(b, b0, &t[3], &t[2])?;
    point::select(b, b1, &hi, &lo)
}

/// Exact `s·P` for every `P` on the curve, where `s = Σ 2^i·bits[i]` (little-endian boolean
/// wires; booleanity is the caller's). 251 bits: 2,057 constraints.
///
/// Right-to-left signed binary in Montgomery form: with `σ_i = 2b_i − 1` and `T_i = 2^(i−1)·P'`,
/// `Σ_{i=1}^{n−1} σ_i·T_i = (s − b_0 − 2^(n−1) + 1)·P'`; each bit costs a Montgomery doubling
/// (4) and a signed addition (4). The correction `+ 2^(n−1)·P' + (b_0 − 1)·P'` uses the next
/// doubling and complete Edwards additions. Exceptional cases: `P'` has order `≥ l` (below);
/// before step `i` the accumulator is `m·P'` with `m` odd and `|m| ≤ 2^(i−1) − 1`, the addend
/// `±2^(i−1)·P'`, so `m ∓ 2^(i−1)` and the result are nonzero with absolute value
/// `< 2^i ≤ 2^250 < l` (for `n ≤ 251`): never equal, opposite or the identity; every `T_i` has
/// order `≥ l`, so `v ≠ 0` in the doublings.
///
/// Small-order points: `is_small = (x(8P) = 0)`; then `P' = B8` (the chain's value is ignored)
/// and the result is `(s mod 8)·P = b_0·P + b_1·2P + b_2·4P` with complete additions;
/// otherwise `P' = P`, of order `≥ l`.
pub fn mul(b: &Builder, p: &PointWire, bits: &[Wire]) -> Result<PointWire> {
    let n = bits.len();
    if n < 3 {
        return mul_complete(b, p, bits);
    }
    assert!(n <= 251, "exact variable-base multiplication takes at most 251 bits");
    let p2 = point::double(b, p)?;
    let p4 = point::double(b, &p2)?;
    let p8 = point::double(b, &p4)?;
    let is_small = super::super::eq::is_zero(b, &p8.x)?;
    let pp = point::select(b, &is_small, &PointWire::constant(point::native::base8()), p)?;
    let mut t = montgomery::from_edwards(b, &pp)?;
    let signed = |b: &Builder, bit: &Wire, t: &montgomery::MontWire| -> Result<montgomery::MontWire> {
        let bv = b.mul(bit, &t.1)?;
        Ok((t.0.clone(), bv.affine(Fr::from(2u64), Fr::zero()).add_scaled(-Fr::one(), &t.1)))
    };
    let mut acc = signed(b, &bits[1], &t)?;
    for bit in &bits[2..] {
        t = montgomery::double(b, &t)?;
        let st = signed(b, bit, &t)?;
        acc = montgomery::add(b, &acc, &st)?;
    }
    let top = montgomery::to_edwards(b, &montgomery::double(b, &t)?)?;
    let acc = point::add(b, &montgomery::to_edwards(b, &acc)?, &top)?;
    let lsb = point::select(b, &bits[0], &PointWire::identity(), &pp.neg())?;
    let big = point::add(b, &acc, &lsb)?;
    // (s mod 8)·P for a small-order P
    let small = point::add(
        b,
        &point::add(b, &point::gate(b, &bits[0], p)?, &point::gate(b, &bits[1], &p2)?)?,
        &point::gate(b, &bits[2], &p4)?,
    )?;
    point::select(b, &is_small, &small, &big)
}

/// Exact `s·P` with complete formulas only (2-bit windows over `[O, P, 2P, 3P]`, 22
/// constraints per 2 bits; 251 bits: 2,763). Any `P` on the curve, any number of bits.
pub fn mul_complete(b: &Builder, p: &PointWire, bits: &[Wire]) -> Result<PointWire> {
    if bits.is_empty() {
        return Ok(PointWire::identity());
    }
    let p2 = point::double(b, p)?;
    let p3 = point::add(b, &p2, p)?;
    let table = [PointWire::identity(), p.clone(), p2, p3];
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    let mut acc: Option<PointWire> = None;
    for c in bits.chunks(2).rev() {
        let b1 = c.get(1).unwrap_or(&zero);
        let (b0, b1) = (&c[0], b1);
        acc = Some(match acc {
            None => {
                if c.len() == 1 {
                    point::gate(b, b0, p)?
                } else {
                    lookup(b, &table, b0, b1)?
                }
            }
            Some(a) => {
                let a4 = point::double(b, &point::double(b, &a)?)?;
                let t = lookup(b, &table, b0, b1)?;
                point::add(b, &a4, &t)?
            }
        });
    }
    Ok(acc.unwrap_or_else(PointWire::identity))
}
