//! Scalar multiplication: constant-time for secret scalars, and the variable-time Straus
//! engine behind [`Point::msm_vartime`] for small public multi-exponentiations.
//!
//! # Constant time
//!
//! Code on the constant-time paths ([`FixedBaseTable::mul`], [`Point::mul_ct`],
//! [`Point::msm_ct`], [`Point::mul_base`]) never branches on, or indexes memory by, a bit of a
//! secret scalar: a scalar is split into 64 signed four-bit digits in `[−8, 8)` by shifts,
//! masks and a branch-free carry, each table entry is picked by a linear scan that
//! `subtle::ConditionallySelectable`-selects every limb of every candidate, and a negative
//! digit negates the pick with another select. The addition and doubling formulas underneath
//! are complete on Baby Jubjub (no special cases), so the sequence of field operations is fixed
//! by the public inputs alone (the number of terms, and which bases are the precomputed
//! generators `Base8` and Pedersen's `H`).
//!
//! Caveat: the field arithmetic underneath is arkworks' Montgomery arithmetic, which is not
//! audited as constant-time (for example, its final conditional subtraction is a branch). This
//! layer removes the scalar-dependent control flow that *we* would otherwise add; it does
//! not make the arithmetic itself constant-time.
//!
//! # Layout
//!
//! This module defines [`Point`]'s scalar multiplications (those named above, and
//! [`Point::mul_vartime`], [`Point::masked_sum`]), the [`FixedBaseTable`] comb (and
//! [`FixedBaseTable::msm`], constant time, over many of them), the variable-time
//! [`WideTable`] comb for public scalars, and the tables of
//! the two precomputed generators, `Base8` and Pedersen's `H` (from `crate::generators`). The
//! arithmetic it runs on (the `a = −1` model with its complete formulas, the constant-time
//! selections and signed digits, wNAF digits, and the reference subgroup check `l·P = O`
//! re-exported here as [`in_prime_subgroup_by_order`]) is `crate::arithmetic`, below
//! [`crate::curve`] and [`Point`]; the subgroup check the decoders use, re-exported here as
//! [`in_prime_subgroup`], is `crate::subgroup`.

use std::sync::OnceLock;

use ark_ec::CurveGroup;
use ark_ff::{AdditiveGroup, BigInt, PrimeField, Zero};
use subtle::Choice;

pub use crate::arithmetic::in_prime_subgroup_by_order;
use crate::arithmetic::{
    affine_cached_batch, cached_table, odd_multiples, select_affine, select_base, select_cached,
    signed_digits, wnaf, AffineCached, Cached, Ext, DIGITS, ENTRIES, KNOWN_NAF_WINDOW, NAF_WINDOW, WINDOW,
};
use crate::curve::{BabyJubjubProjective, Point, Scalar};
use crate::generators::blinding_generator;
pub use crate::subgroup::in_prime_subgroup;

// ---- Point's scalar multiplications ---------------------------------------------------

/// Terms per task of a long constant-time multi-scalar multiplication ([`Point::msm_ct`]): a
/// chunk's 252 shared doublings are then under 0.5 % of its work.
const CT_CHUNK: usize = 1024;

impl Point {
    /// `s·self` in variable time (wNAF on the a = −1 model; combs for `Base8` and `H`): only
    /// for *public* scalars. About twice as fast as arkworks' double-and-add, which matters to
    /// the Bulletproofs prover's generator folding (one of these per generator and round).
    pub fn mul_vartime(&self, s: &Scalar) -> Self {
        straus_vartime(std::slice::from_ref(self), std::slice::from_ref(s))
    }

    /// `Σ scalars[i]·bases[i]` in variable time: only for *public* scalars (verification).
    /// Up to [`STRAUS_MAX_TERMS`] terms by Straus' method over wNAF digits (precomputed
    /// tables for `Base8` and Pedersen's `H`, see [`crate::ct`]), more by Pippenger's.
    /// Extra scalars or bases beyond the shorter slice are ignored.
    pub fn msm_vartime(bases: &[Point], scalars: &[Scalar]) -> Self {
        use ark_ec::VariableBaseMSM;
        let n = bases.len().min(scalars.len());
        if n <= STRAUS_MAX_TERMS {
            return straus_vartime(&bases[..n], &scalars[..n]);
        }
        let proj: Vec<BabyJubjubProjective> = bases[..n].iter().map(|p| p.0).collect();
        let affine = BabyJubjubProjective::normalize_batch(&proj);
        // The sum of subgroup multiples stays in the subgroup.
        Point(BabyJubjubProjective::msm_unchecked(&affine, &scalars[..n]))
    }

    /// `Σ bases[i]` over the `i` with `bits[i] = 1` (each bit 0 or 1), in constant time: for
    /// sums selected by secret bits (a Bulletproof's `⟨a_L, G⟩`). Extra entries are ignored.
    pub fn masked_sum(bases: &[Point], bits: &[u8]) -> Self {
        masked_sum(bases, bits)
    }

    /// `Σ scalars[i]·bases[i]` in constant time (Straus with shared doublings and signed 4-bit
    /// windows selected without secret-dependent branches or indices; `Base8` and Pedersen's
    /// `H` through precomputed combs, see [`crate::ct`]): for secret scalars.
    /// Long inputs are split into chunks of 1,024 terms spread over the cores (each chunk
    /// constant time, the split a function of the length alone).
    pub fn msm_ct(bases: &[Point], scalars: &[Scalar]) -> Self {
        use rayon::prelude::*;
        let n = bases.len().min(scalars.len());
        if n <= 2 * CT_CHUNK {
            return multi_mul(bases, scalars);
        }
        bases[..n]
            .par_chunks(CT_CHUNK)
            .zip(scalars[..n].par_chunks(CT_CHUNK))
            .map(|(b, s)| multi_mul(b, s))
            .reduce(Point::identity, |a, b| a + b)
    }

    /// `s·self` with a constant-time fixed-window ladder (no branch or table index depends on
    /// the scalar's bits): use it for secret scalars.
    pub fn mul_ct(&self, s: &Scalar) -> Self {
        variable_base_mul(self, s)
    }

    /// `s·Base8` through the precomputed fixed-base table, in constant time.
    pub fn mul_base(s: &Scalar) -> Self {
        base8_mul(s)
    }
}

// ---- fixed-base comb -------------------------------------------------------------------

/// A fixed-base comb for one point `P`: `table[i][j] = (j + 1)·16^i·P` in affine cached form,
/// 64 × 8 entries (48 KiB). A multiplication is 64 mixed additions of a constant-time-selected
/// signed multiple and no doublings.
#[derive(Clone)]
pub struct FixedBaseTable {
    table: Vec<[AffineCached; ENTRIES]>,
}

impl core::fmt::Debug for FixedBaseTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FixedBaseTable").field("windows", &self.table.len()).finish()
    }
}

impl FixedBaseTable {
    /// Precomputes the table for `base` (about 500 additions and one batched inversion).
    pub fn new(base: &Point) -> Self {
        let mut proj = Vec::with_capacity(DIGITS * ENTRIES);
        let mut b = base.to_projective();
        for _ in 0..DIGITS {
            let mut acc = b;
            proj.push(acc);
            for _ in 1..ENTRIES {
                acc += b;
                proj.push(acc);
            }
            // acc is 8·b; the next row starts at 16·b.
            b = acc.double();
        }
        let table = affine_cached_batch(&proj)
            .chunks_exact(ENTRIES)
            .map(|c| {
                let mut row = [AffineCached::IDENTITY; ENTRIES];
                row.copy_from_slice(c);
                row
            })
            .collect();
        FixedBaseTable { table }
    }

    /// `acc + s·P` in the `a = −1` model, with `T`.
    fn mul_add(&self, s: &Scalar, mut acc: Ext) -> Ext {
        let d = signed_digits(s);
        for (row, &digit) in self.table.iter().zip(d.iter()) {
            acc = acc.add_affine(&select_affine(row, digit)).ext();
        }
        acc
    }

    /// `s·P` in constant time (see the module documentation).
    pub fn mul(&self, s: &Scalar) -> Point {
        Point(self.mul_add(s, Ext::IDENTITY).to_projective())
    }
}

impl FixedBaseTable {
    /// `Σ scalars[i]·P_i` for the bases `P_i` of `tables`, in constant time: every comb's 64
    /// constant-time-selected mixed additions go into one accumulator (no doublings, no table
    /// built per call). The sequence of operations depends on the number of terms alone: each
    /// term runs [`FixedBaseTable::mul`]'s digit split and linear-scan selections (see the module
    /// documentation), so it is for secret scalars (a Bulletproof's `S`). Extra entries of the
    /// longer slice are ignored.
    pub fn msm(tables: &[&FixedBaseTable], scalars: &[Scalar]) -> Point {
        let acc = tables.iter().zip(scalars).fold(Ext::IDENTITY, |acc, (t, s)| t.mul_add(s, acc));
        Point(acc.to_projective())
    }
}

// ---- wide fixed-base comb (variable time) ----------------------------------------------

/// Bits per signed digit of a [`WideTable`].
const WIDE_WINDOW: usize = 8;
/// Signed digits per scalar (enough for `l < 2^251` and the recoding's last carry).
const WIDE_DIGITS: usize = 252 / WIDE_WINDOW + 1;
/// Entries per row: the digit magnitudes `1 … 2^(w−1)`.
const WIDE_ENTRIES: usize = 1 << (WIDE_WINDOW - 1);

/// A wide fixed-base comb for **public** scalars: `table[i][j] = (j + 1)·2^(8i)·P`, 32 rows of
/// 128 affine entries (384 KiB). A multiplication is at most 32 mixed additions and no
/// doublings, about a fifth of [`Point::mul_vartime`]; worth its memory for a few bases used
/// over and over (the Bulletproofs prover's generators, whose inner-product rounds then need
/// no folding). Variable time: the digits of the scalar pick the entries and skip zeros.
#[derive(Clone)]
pub struct WideTable {
    table: Vec<AffineCached>,
}

impl core::fmt::Debug for WideTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WideTable").field("rows", &WIDE_DIGITS).finish()
    }
}

/// Signed `WIDE_WINDOW`-bit digits of `s`, least significant first: `s = Σ d_i·2^(w·i)`,
/// `d_i ∈ [−2^(w−1), 2^(w−1))`.
fn wide_digits(s: &Scalar) -> [i32; WIDE_DIGITS] {
    let l = s.into_bigint().0;
    let limbs = [l[0], l[1], l[2], l[3], 0];
    let mut out = [0i32; WIDE_DIGITS];
    let mut carry = 0i32;
    for (i, d) in out.iter_mut().enumerate() {
        let (bit, at) = (i * WIDE_WINDOW, (i * WIDE_WINDOW) / 64);
        let off = bit % 64;
        let mut x = limbs[at] >> off;
        if off + WIDE_WINDOW > 64 {
            x |= limbs[at + 1] << (64 - off);
        }
        let v = (x & ((1 << WIDE_WINDOW) - 1)) as i32 + carry;
        carry = (v + WIDE_ENTRIES as i32) >> WIDE_WINDOW;
        *d = v - (carry << WIDE_WINDOW);
    }
    debug_assert_eq!(carry, 0);
    out
}

impl WideTable {
    /// Precomputes the table for `base` (about 4,100 additions and one batched inversion:
    /// half a millisecond).
    pub fn new(base: &Point) -> Self {
        let mut proj = Vec::with_capacity(WIDE_DIGITS * WIDE_ENTRIES);
        let mut b = base.to_projective();
        for _ in 0..WIDE_DIGITS {
            let mut acc = b;
            proj.push(acc);
            for _ in 1..WIDE_ENTRIES {
                acc += b;
                proj.push(acc);
            }
            // acc is 2^(w−1)·b; the next row starts at 2^w·b.
            b = acc.double();
        }
        WideTable { table: affine_cached_batch(&proj) }
    }

    /// `Σ scalars[i]·P_i` for the bases `P_i` of `tables`, in **variable time** (public
    /// scalars only): one accumulator, at most 32 mixed additions per term. Extra entries of
    /// the longer slice are ignored.
    pub fn msm_vartime(tables: &[&WideTable], scalars: &[Scalar]) -> Point {
        // The entries are gathered first, then added: the gathering loads do not wait on the
        // additions, so the processor keeps many of them in flight (the tables of a few dozen
        // bases outgrow the caches, and an addition chain waiting on each load ran 2.5× slower).
        let mut picks: Vec<(&AffineCached, bool)> = Vec::with_capacity(tables.len() * WIDE_DIGITS);
        let mut gathered: Vec<AffineCached> = Vec::with_capacity(tables.len() * WIDE_DIGITS);
        for (t, s) in tables.iter().zip(scalars) {
            for (row, &d) in t.table.chunks_exact(WIDE_ENTRIES).zip(wide_digits(s).iter()) {
                if d != 0 {
                    picks.push((&row[d.unsigned_abs() as usize - 1], d < 0));
                }
            }
        }
        gathered.extend(picks.iter().map(|(e, _)| **e));
        let mut acc = Ext::IDENTITY;
        for (e, (_, negative)) in gathered.iter().zip(&picks) {
            acc = if *negative { acc.sub_affine(e) } else { acc.add_affine(e) }.ext();
        }
        Point(acc.to_projective())
    }
}

// ---- precomputed generators ------------------------------------------------------------

/// A generator with precomputed tables: the comb for constant-time use and odd multiples
/// for variable-time Straus.
struct Known {
    point: Point,
    comb: FixedBaseTable,
    naf: Vec<AffineCached>,
}

impl Known {
    fn new(point: Point) -> Self {
        let p = point.to_projective();
        let p2 = p.double();
        let mut odd = Vec::with_capacity(1 << (KNOWN_NAF_WINDOW - 2));
        let mut acc = p;
        for _ in 0..1 << (KNOWN_NAF_WINDOW - 2) {
            odd.push(acc);
            acc += p2;
        }
        Known { point, comb: FixedBaseTable::new(&point), naf: affine_cached_batch(&odd) }
    }
}

/// `Base8` and Pedersen's blinding base `H`, the two bases of nearly every statement and
/// commitment zeenot makes, with tables built on first use (about a millisecond).
fn known() -> &'static [Known; 2] {
    static KNOWN: OnceLock<[Known; 2]> = OnceLock::new();
    KNOWN.get_or_init(|| [Known::new(Point::generator()), Known::new(blinding_generator())])
}

/// Which precomputed generator `p` is, if any. `p` is public: comparing it is not a leak.
fn known_index(p: &Point) -> Option<usize> {
    known().iter().position(|k| k.point == *p)
}

/// Whether `p` is one of the generators with precomputed tables (`Base8` and Pedersen's `H`):
/// a constant-time multiple of one costs a comb (64 mixed additions, no doublings), about a
/// fifth of a variable-base multiplication, and [`Point::msm_vartime`] uses its width-8 table.
pub fn is_precomputed(p: &Point) -> bool {
    known_index(p).is_some()
}

/// `s·Base8` in constant time via the fixed-base comb.
pub(crate) fn base8_mul(s: &Scalar) -> Point {
    known()[0].comb.mul(s)
}

// ---- constant-time variable-base -------------------------------------------------------

/// `s·P` for any `P` in constant time (a comb when `P` is `Base8` or `H`, otherwise signed
/// 4-bit windows: 252 doublings and 64 additions of a constant-time-selected multiple).
pub(crate) fn variable_base_mul(p: &Point, s: &Scalar) -> Point {
    multi_mul(core::slice::from_ref(p), core::slice::from_ref(s))
}

/// `Σ scalars[i]·points[i]` in constant time. Terms whose base is `Base8` or `H` go through
/// their fixed-base combs (no doublings); the rest share one run of 252 doublings (Straus),
/// each adding one constant-time-selected signed multiple from a per-point table per 4-bit
/// window. The sequence of operations depends on the number of terms and on which bases are
/// precomputed generators, both public, never on a scalar.
pub(crate) fn multi_mul(points: &[Point], scalars: &[Scalar]) -> Point {
    let n = points.len().min(scalars.len());
    let mut fixed = Ext::IDENTITY;
    let mut tables = Vec::with_capacity(n);
    let mut digits = Vec::with_capacity(n);
    for (p, s) in points[..n].iter().zip(&scalars[..n]) {
        match known_index(p) {
            Some(k) => fixed = known()[k].comb.mul_add(s, fixed),
            None => {
                tables.push(cached_table(&p.0));
                digits.push(signed_digits(s));
            }
        }
    }
    if tables.is_empty() {
        return Point(fixed.to_projective());
    }
    let m = tables.len();
    let mut acc = Ext::IDENTITY;
    for i in (0..DIGITS).rev() {
        if i != DIGITS - 1 {
            for _ in 0..WINDOW - 1 {
                acc = acc.double().proj();
            }
            acc = acc.double().ext();
        }
        for (j, (table, d)) in tables.iter().zip(&digits).enumerate() {
            let sum = acc.add_cached(&select_cached(table, d[i]));
            // Only the last addition before a doubling may drop T.
            acc = if j + 1 == m && i != 0 { sum.proj() } else { sum.ext() };
        }
    }
    Point(acc.add_cached(&fixed.cached()).ext().to_projective())
}

// ---- variable-time Straus --------------------------------------------------------------

/// [`Point::msm_vartime`] uses Straus' method (below) up to this many terms and arkworks'
/// Pippenger above. Single-threaded on a 2-core AMD EPYC, Straus was ahead up to 512 terms
/// (2.2× at 64, 1.8× at 128–256, 1.3× at 512) and behind at 1024; with arkworks' `parallel`
/// feature Pippenger also gets the other cores.
pub const STRAUS_MAX_TERMS: usize = 512;

enum NafTable<'a> {
    Known(&'a [AffineCached]),
    Owned(Vec<Cached>),
}

/// `Σ scalars[i]·points[i]` for **public** scalars, by Straus' method over wNAF digits:
/// zero terms are dropped, a scalar above `l/2` is negated together with its base (so every
/// scalar is at most 250 bits, and a short negative coefficient such as a batch weight `−ρ`
/// costs what `ρ` does), a coefficient `±1` is added directly, `Base8` and `H` use
/// precomputed width-8 tables and every other base a width-5 table built here. When every
/// term left is `Base8` or `H`, their combs (no doublings) are used instead. Its running
/// time depends on the scalars: never use it on secrets.
pub(crate) fn straus_vartime(points: &[Point], scalars: &[Scalar]) -> Point {
    let half = Scalar::MODULUS_MINUS_ONE_DIV_TWO;
    let mut ones = Ext::IDENTITY;
    let mut tables: Vec<NafTable<'_>> = Vec::new();
    let mut nafs: Vec<([i8; 256], usize)> = Vec::new();
    let mut known_terms: Vec<(usize, Scalar)> = Vec::new();
    for (p, s) in points.iter().zip(scalars) {
        if s.is_zero() || p.is_identity() {
            continue;
        }
        let mut k = s.into_bigint();
        let mut base = Ext::from_projective(&p.0);
        if k > half {
            k = (-*s).into_bigint();
            base = base.neg();
        }
        if k == BigInt::one() {
            ones = ones.add_cached(&base.cached()).ext();
            continue;
        }
        match known_index(p) {
            Some(i) => known_terms.push((i, *s)),
            None => {
                tables.push(NafTable::Owned(odd_multiples(&base, NAF_WINDOW)));
                nafs.push(wnaf(&k, NAF_WINDOW));
            }
        }
    }
    if tables.is_empty() {
        // Only precomputed generators: 64 additions each and no doublings.
        let sum = known_terms.iter().fold(ones, |acc, (i, s)| known()[*i].comb.mul_add(s, acc));
        return Point(sum.to_projective());
    }
    for (i, s) in known_terms {
        // Sharing the doublings, a width-8 NAF costs about 28 additions.
        let (k, negated) =
            if s.into_bigint() > half { ((-s).into_bigint(), true) } else { (s.into_bigint(), false) };
        let mut naf = wnaf(&k, KNOWN_NAF_WINDOW);
        if negated {
            naf.0.iter_mut().for_each(|d| *d = -*d);
        }
        tables.push(NafTable::Known(&known()[i].naf));
        nafs.push(naf);
    }
    let len = nafs.iter().map(|n| n.1).max().unwrap_or(0);
    let mut acc = Ext::IDENTITY;
    for i in (0..len).rev() {
        let adds = nafs.iter().filter(|n| n.0[i] != 0).count();
        if i + 1 != len {
            // T only when an addition follows, or at the very end.
            let dbl = acc.double();
            acc = if adds > 0 || i == 0 { dbl.ext() } else { dbl.proj() };
        }
        let mut left = adds;
        for (table, naf) in tables.iter().zip(&nafs) {
            let d = naf.0[i];
            if d == 0 {
                continue;
            }
            let idx = (d.unsigned_abs() / 2) as usize;
            let sum = match (table, d > 0) {
                (NafTable::Known(t), true) => acc.add_affine(&t[idx]),
                (NafTable::Known(t), false) => acc.sub_affine(&t[idx]),
                (NafTable::Owned(t), true) => acc.add_cached(&t[idx]),
                (NafTable::Owned(t), false) => acc.sub_cached(&t[idx]),
            };
            left -= 1;
            acc = if left == 0 && i != 0 { sum.proj() } else { sum.ext() };
        }
    }
    // The last step (at bit 0) always produced `T`, so `acc` can be added to.
    Point(acc.add_cached(&ones.cached()).ext().to_projective())
}

/// `Σ points[i]` over the `i` with `bits[i] = 1` (bits 0 or 1), in constant time: every point
/// is added, replaced by the identity where its bit is 0 without a secret-dependent branch or
/// index (arkworks' twisted Edwards addition is unified and branch-free).
pub(crate) fn masked_sum(points: &[Point], bits: &[u8]) -> Point {
    let id = BabyJubjubProjective::zero();
    let mut acc = id;
    for (p, &b) in points.iter().zip(bits) {
        let c = Choice::from(b & 1);
        let q = BabyJubjubProjective::new_unchecked(
            select_base(&id.x, &p.0.x, c),
            select_base(&id.y, &p.0.y, c),
            select_base(&id.t, &p.0.t, c),
            select_base(&id.z, &p.0.z, c),
        );
        acc += q;
    }
    Point(acc)
}
#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::UniformRand;
    use rand::SeedableRng;

    fn naive(points: &[Point], scalars: &[Scalar]) -> Point {
        points.iter().zip(scalars).map(|(p, s)| p.mul_vartime(s)).sum()
    }

    #[test]
    fn all_paths_match_naive() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let g = Point::generator();
        let h = blinding_generator();
        let one = Scalar::from(1u64);
        let p = Point::mul_base(&Scalar::rand(&mut r));
        let q = p.mul_vartime(&Scalar::rand(&mut r));
        let specials = [
            Scalar::from(0u64),
            one,
            -one,
            Scalar::from(2u64),
            -Scalar::from(2u64),
            Scalar::from(u64::MAX),
            -Scalar::from(u128::MAX),
        ];
        let pool = [g, h, p, q, Point::identity(), -g, p];
        for n in 0..12usize {
            for trial in 0..6 {
                let pts: Vec<Point> = (0..n).map(|i| pool[(i * 3 + trial) % pool.len()]).collect();
                let scs: Vec<Scalar> = (0..n)
                    .map(|i| {
                        if (i + trial) % 3 == 0 {
                            specials[(i + trial) % specials.len()]
                        } else {
                            Scalar::rand(&mut r)
                        }
                    })
                    .collect();
                let want = naive(&pts, &scs);
                assert_eq!(multi_mul(&pts, &scs), want, "ct n={n} trial={trial}");
                assert_eq!(straus_vartime(&pts, &scs), want, "vartime n={n} trial={trial}");
            }
        }
        // Only precomputed generators (the comb path of `straus_vartime`), with and without ±1.
        for pts in [vec![g], vec![h], vec![g, h], vec![g, h, p], vec![h, g, g]] {
            for scs in [
                pts.iter().map(|_| Scalar::rand(&mut r)).collect::<Vec<_>>(),
                pts.iter()
                    .enumerate()
                    .map(|(i, _)| if i == 0 { -one } else { Scalar::rand(&mut r) })
                    .collect(),
            ] {
                assert_eq!(straus_vartime(&pts, &scs), naive(&pts, &scs));
                assert_eq!(multi_mul(&pts, &scs), naive(&pts, &scs));
            }
        }
        for s in specials.iter().copied().chain((0..4).map(|_| Scalar::rand(&mut r))) {
            for b in [g, h, p, Point::identity()] {
                assert_eq!(variable_base_mul(&b, &s), b.mul_vartime(&s));
                assert_eq!(FixedBaseTable::new(&b).mul(&s), b.mul_vartime(&s));
            }
            assert_eq!(base8_mul(&s), g.mul_vartime(&s));
        }
    }

    #[test]
    fn table_msms_match_naive() {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let one = Scalar::from(1u64);
        let p = Point::mul_base(&Scalar::rand(&mut r));
        let bases = [Point::generator(), blinding_generator(), p, p.double(), Point::identity()];
        let combs: Vec<FixedBaseTable> = bases.iter().map(FixedBaseTable::new).collect();
        let wides: Vec<WideTable> = bases.iter().map(WideTable::new).collect();
        // Digit patterns at the recoding's edges: 0, ±1, the carries of 2^(w·k)−1 and of l − 1.
        let mut specials = vec![Scalar::from(0u64), one, -one, Scalar::from(127u64), Scalar::from(128u64)];
        specials.extend([Scalar::from(u64::MAX), Scalar::from(u128::MAX), -Scalar::from(u128::MAX)]);
        specials.push(-Scalar::from(128u64));
        for n in 0..=bases.len() {
            for trial in 0..4 {
                let scs: Vec<Scalar> = (0..n)
                    .map(|i| {
                        if trial == 0 {
                            specials[(i * 3 + n) % specials.len()]
                        } else {
                            Scalar::rand(&mut r)
                        }
                    })
                    .collect();
                let want = naive(&bases[..n], &scs);
                let c: Vec<&FixedBaseTable> = combs[..n].iter().collect();
                let w: Vec<&WideTable> = wides[..n].iter().collect();
                assert_eq!(FixedBaseTable::msm(&c, &scs), want, "comb n={n} trial={trial}");
                assert_eq!(WideTable::msm_vartime(&w, &scs), want, "wide n={n} trial={trial}");
            }
        }
        for s in &specials {
            assert_eq!(WideTable::msm_vartime(&[&wides[2]], &[*s]), p.mul_vartime(s), "{s}");
        }
    }
}
