//! Fixed-base scalar multiplication `s·Q` for a constant `Q` in the prime-order subgroup.
//!
//! # Method
//!
//! The scalar bits (little-endian boolean wires, decomposition not counted here) are cut into
//! `w`-bit windows (`w = 2` for one base; `w = 3` in [`mul_many`] with several bases). Window
//! `j` looks up the constant point `(v_j + 2)·2^(wj)·Q` (`v_j` the window's value) from a
//! `2^w`-entry table: once the products of the window's bits are known (`b0·b1` for `w = 2`;
//! `b0b1, b0b2, b1b2, b0b1b2` for `w = 3`: 1 or 4 constraints, shared by every base that uses
//! the same bits) each coordinate is a *linear* combination of those monomials. The windows
//! are summed in **Montgomery form** (`v² = u³ + 168698·u² + u`, circomlib's map
//! `u = (1+y)/(1−y)`, `v = u/x`), where an affine addition costs 3 constraints, in segments of
//! at most [`max_segment_windows`] windows; each segment is mapped back to twisted Edwards
//! (2 constraints), and segments are summed with the complete Edwards law
//! ([`super::point::add`], 6). A segment of a single window is looked up directly in Edwards
//! coordinates (free after the products), and then absorbs the constant offset
//! `e·Q − Σ_j 2·2^(wj)·Q`; otherwise the offset costs one constant addition (3).
//!
//! # Why the incomplete Montgomery addition is sound here
//!
//! Montgomery's affine addition fails only when the two operands have the same `u`, i.e. are
//! equal or opposite (then `λ·(u2 − u1) = v2 − v1` leaves `λ` free or is unsatisfiable), or
//! when one is the identity (not representable). circomlib's `EscalarMulAny`/`MontgomeryAdd`
//! do not rule this out; here it is *impossible for every bit assignment*: inside a segment
//! the accumulator before window `k` (segment-relative index) is `m·Q'` with
//! `m = Σ_{j<k} d_j·W^j` (`W = 2^w`), `d_j ∈ [2, W + 1]`, so
//! `0 < m ≤ (W + 1)·(W^k − 1)/(W − 1) < 2·W^k`, and the looked-up point is `n·Q'` with
//! `n = d_k·W^k ≥ 2·W^k > m`. With `K` windows per segment, `m + n ≤ (W + 1)·(W^K − 1)/(W − 1)`,
//! which is `< l` for `K ≤ 124` (`w = 2`) and `K ≤ 83` (`w = 3`) (checked by a test), so
//! `n − m` and `n + m` lie in `(0, l)`: `m·Q' ≠ ±n·Q'` because `Q'` (a power-of-2 multiple of
//! `Q`) has prime order `l`. Every accumulated point is a nonzero multiple below `l`, hence
//! not the identity and not of order 2 (so `v ≠ 0` and `u ≠ −1` in the conversion back). Every witness (`λ`, `u3`, `v3`,
//! `x`, `y`) is therefore uniquely determined by the bits.
//!
//! Cost for 252 bits (`w = 2`, segments of 124, 1 and 1 windows): 126 products, 123 additions
//! (369), one conversion (2), two complete additions (12): **509**. [`mul_many`] with two
//! bases and 251 bits (`w = 3`, segments of 83 and 1 windows): 333 shared products, then per
//! base 82 additions, a conversion and a complete addition (254): 841.

use super::super::{Builder, Result, Wire};
use super::montgomery::{self, to_mont_native};
use super::point::{self, native, native::Affine, PointWire};
use ark_bn254::Fr;
use ark_ff::{One, Zero};

/// Windows per Montgomery segment for `w`-bit windows: the largest `K` with
/// `(2^w + 1)·(2^(wK) − 1)/(2^w − 1) < l`.
pub fn max_segment_windows(w: usize) -> usize {
    match w {
        2 => 124,
        3 => 83,
        _ => panic!("window width must be 2 or 3"),
    }
}

/// The monomials `Π_{i∈S} b_i` of a window's bits, indexed by the bit mask `S`.
struct Window(Vec<Wire>);

/// `t[Σ 2^i·b_i]` as a linear combination of the monomials (Möbius inversion of the table).
fn lookup(t: &[Fr], win: &Window) -> Wire {
    let mut acc = Wire::constant(Fr::zero(), None);
    for (s, mono) in win.0.iter().enumerate() {
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
        if !c.is_zero() {
            acc = acc.add_scaled(c, mono);
        }
    }
    acc
}

fn windows(b: &Builder, bits: &[Wire], w: usize) -> Result<Vec<Window>> {
    let zero = Wire::constant(Fr::zero(), Some((0, 0)));
    bits.chunks(w)
        .map(|c| {
            let mut mono = vec![Wire::constant(Fr::one(), Some((1, 1)))];
            for s in 1usize..1 << w {
                let top = usize::BITS - 1 - s.leading_zeros();
                let bit = c.get(top as usize).cloned().unwrap_or_else(|| zero.clone());
                let rest = s & !(1 << top);
                mono.push(if rest == 0 { bit } else { b.mul(&mono[rest], &bit)? });
            }
            Ok(Window(mono))
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

    /// Per window `j`: the Edwards entries `(v + 2)·2^(wj)·Q`, `v ∈ [0, 2^w)`; and the offset
    /// `−Σ_j 2·2^(wj)·Q`.
    fn tables(&self, windows: usize, w: usize) -> (Vec<Vec<Affine>>, Affine) {
        let mut bj = self.base;
        let mut offset = native::identity();
        let mut tables = Vec::with_capacity(windows);
        for _ in 0..windows {
            let mut e = native::add(&bj, &bj);
            offset = native::add(&offset, &native::neg(&e));
            let mut t = Vec::with_capacity(1 << w);
            for _ in 0..1 << w {
                t.push(e);
                e = native::add(&e, &bj);
            }
            tables.push(t);
            for _ in 0..w {
                bj = native::add(&bj, &bj);
            }
        }
        (tables, offset)
    }
}

/// `s·Q` where `s = Σ 2^i·bits[i]` (little-endian boolean wires; the caller enforces
/// booleanity, e.g. with [`super::scalar_bits`]). See the module documentation for the cost
/// (509 constraints for 252 bits) and the soundness argument.
pub fn mul(b: &Builder, base: &FixedBase, bits: &[Wire]) -> Result<PointWire> {
    mul_plus(b, base, bits, Fr::zero())
}

/// `(s + e)·Q` for a constant integer `e` (same cost as [`mul`]: `e·Q` joins the constant
/// offset).
pub fn mul_plus(b: &Builder, base: &FixedBase, bits: &[Wire], e: Fr) -> Result<PointWire> {
    let wins = windows(b, bits, 2)?;
    mul_windows(b, base, &wins, 2, e)
}

/// `(s + e)·Q_i` for several constant bases and one scalar, with 3-bit windows whose
/// monomials are shared (one base: as [`mul_plus`]).
pub fn mul_many(b: &Builder, bases: &[FixedBase], bits: &[Wire], e: Fr) -> Result<Vec<PointWire>> {
    let w = if bases.len() > 1 { 3 } else { 2 };
    let wins = windows(b, bits, w)?;
    bases.iter().map(|base| mul_windows(b, base, &wins, w, e)).collect()
}

fn mul_windows(b: &Builder, base: &FixedBase, wins: &[Window], w: usize, e: Fr) -> Result<PointWire> {
    let (tables, offset) = base.tables(wins.len(), w);
    let mut constant = native::add(&offset, &native::mul(&base.base, &e));
    // segments of at most K windows; a segment of two becomes two single windows (one
    // complete addition, 6, instead of an addition, a conversion and the offset, 8)
    let k_max = max_segment_windows(w);
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
            PointWire { x: lookup(&xs, &wins[seg.start]), y: lookup(&ys, &wins[seg.start]) }
        } else {
            let mut acc: Option<(Wire, Wire)> = None;
            for j in seg {
                let m: Vec<(Fr, Fr)> = tables[j].iter().map(to_mont_native).collect();
                let us: Vec<Fr> = m.iter().map(|p| p.0).collect();
                let vs: Vec<Fr> = m.iter().map(|p| p.1).collect();
                let q = (lookup(&us, &wins[j]), lookup(&vs, &wins[j]));
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
