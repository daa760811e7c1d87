//! Constant-time scalar multiplication for secret scalars.
//!
//! Code here never branches on, or indexes memory by, a bit of a secret scalar: a scalar is
//! split into 64 four-bit digits by shifts and masks, and each table entry is picked by a
//! linear scan that `subtle::ConditionallySelectable`-selects every limb of every candidate.
//! The twisted Edwards formulas of arkworks are unified (no special cases) and complete on
//! Baby Jubjub, so the sequence of group operations is fixed.
//!
//! Caveat: the field arithmetic underneath is arkworks' Montgomery arithmetic, which is not
//! audited as constant-time (for example, its final conditional subtraction is a branch). This
//! layer removes the scalar-dependent control flow that *we* would otherwise add; it does
//! not make the arithmetic itself constant-time.

use std::sync::OnceLock;

use ark_ec::CurveGroup;
use ark_ff::{AdditiveGroup, BigInt, Fp, PrimeField, Zero};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::curve::{BabyJubjubAffine, BabyJubjubProjective, Base, Point, Scalar};

const WINDOW: usize = 4;
const DIGITS: usize = 64; // 64 · 4 = 256 ≥ 251 bits of l.
const ENTRIES: usize = 1 << WINDOW;

fn select_base(a: &Base, b: &Base, choice: Choice) -> Base {
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        *limb = u64::conditional_select(&a.0 .0[i], &b.0 .0[i], choice);
    }
    // Both inputs are valid Montgomery representations, so the selected limbs are too.
    Fp(BigInt(limbs), core::marker::PhantomData)
}

/// Four-bit digits of a scalar, least significant first.
fn digits(s: &Scalar) -> [u8; DIGITS] {
    let limbs = s.into_bigint().0;
    let mut out = [0u8; DIGITS];
    for (i, d) in out.iter_mut().enumerate() {
        *d = ((limbs[i / 16] >> (4 * (i % 16))) & 0xf) as u8;
    }
    out
}

fn select_affine(table: &[BabyJubjubAffine; ENTRIES], idx: u8) -> BabyJubjubAffine {
    let mut x = table[0].x;
    let mut y = table[0].y;
    for (j, e) in table.iter().enumerate().skip(1) {
        let c = (j as u8).ct_eq(&idx);
        x = select_base(&x, &e.x, c);
        y = select_base(&y, &e.y, c);
    }
    BabyJubjubAffine::new_unchecked(x, y)
}

fn select_projective(table: &[BabyJubjubProjective; ENTRIES], idx: u8) -> BabyJubjubProjective {
    let mut r = table[0];
    for (j, e) in table.iter().enumerate().skip(1) {
        let c = (j as u8).ct_eq(&idx);
        r.x = select_base(&r.x, &e.x, c);
        r.y = select_base(&r.y, &e.y, c);
        r.t = select_base(&r.t, &e.t, c);
        r.z = select_base(&r.z, &e.z, c);
    }
    r
}

/// A fixed-base comb for one point `P`: `table[i][j] = j·16^i·P` (affine), 64 × 16 entries
/// (64 KiB). A multiplication is 64 mixed additions and no doublings.
#[derive(Clone)]
pub struct FixedBaseTable {
    table: Vec<[BabyJubjubAffine; ENTRIES]>,
}

impl core::fmt::Debug for FixedBaseTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FixedBaseTable").field("windows", &self.table.len()).finish()
    }
}

impl FixedBaseTable {
    /// Precomputes the table for `base` (about 1,000 additions and one batched inversion).
    pub fn new(base: &Point) -> Self {
        let mut proj = Vec::with_capacity(DIGITS * ENTRIES);
        let mut b = base.0;
        for _ in 0..DIGITS {
            let mut acc = BabyJubjubProjective::zero();
            for _ in 0..ENTRIES {
                proj.push(acc);
                acc += b;
            }
            // acc is now 16·b.
            b = acc;
        }
        let affine = BabyJubjubProjective::normalize_batch(&proj);
        let table = affine
            .chunks_exact(ENTRIES)
            .map(|c| {
                let mut row = [BabyJubjubAffine::zero(); ENTRIES];
                row.copy_from_slice(c);
                row
            })
            .collect();
        FixedBaseTable { table }
    }

    /// `s·P` in constant time (see the module documentation).
    pub fn mul(&self, s: &Scalar) -> Point {
        let d = digits(s);
        let mut acc = BabyJubjubProjective::zero();
        for (row, &digit) in self.table.iter().zip(d.iter()) {
            acc += select_affine(row, digit);
        }
        Point(acc)
    }
}

/// The process-wide table for `Base8`, built on first use.
pub(crate) fn base8_table() -> &'static FixedBaseTable {
    static TABLE: OnceLock<FixedBaseTable> = OnceLock::new();
    TABLE.get_or_init(|| FixedBaseTable::new(&Point::generator()))
}

/// `s·Base8` in constant time via the fixed-base table.
pub(crate) fn base8_mul(s: &Scalar) -> Point {
    base8_table().mul(s)
}

/// `s·P` for any `P`: fixed 4-bit windows, 252 doublings and 64 additions of a
/// constant-time-selected multiple.
pub(crate) fn variable_base_mul(p: &Point, s: &Scalar) -> Point {
    let mut table = [BabyJubjubProjective::zero(); ENTRIES];
    for j in 1..ENTRIES {
        table[j] = table[j - 1] + p.0;
    }
    let d = digits(s);
    let mut acc = BabyJubjubProjective::zero();
    for (i, &digit) in d.iter().enumerate().rev() {
        if i != DIGITS - 1 {
            for _ in 0..WINDOW {
                acc.double_in_place();
            }
        }
        acc += select_projective(&table, digit);
    }
    Point(acc)
}

/// `Σ scalars[i]·points[i]` in constant time: a 4-bit window table per point, one shared run
/// of 252 doublings, and one constant-time table selection and addition per point and window.
pub(crate) fn multi_mul(points: &[Point], scalars: &[Scalar]) -> Point {
    let n = points.len().min(scalars.len());
    let tables: Vec<[BabyJubjubProjective; ENTRIES]> = points[..n]
        .iter()
        .map(|p| {
            let mut table = [BabyJubjubProjective::zero(); ENTRIES];
            for j in 1..ENTRIES {
                table[j] = table[j - 1] + p.0;
            }
            table
        })
        .collect();
    let digits: Vec<[u8; DIGITS]> = scalars[..n].iter().map(digits).collect();
    let mut acc = BabyJubjubProjective::zero();
    for i in (0..DIGITS).rev() {
        if i != DIGITS - 1 {
            for _ in 0..WINDOW {
                acc.double_in_place();
            }
        }
        for (table, d) in tables.iter().zip(digits.iter()) {
            acc += select_projective(table, d[i]);
        }
    }
    Point(acc)
}
