//! The range-proof prover's precomputed tables of its generators ([`prover_tables`]): for
//! proofs of at most [`MAX_TABLED_BITS`] bits in all (`n·m`), fixed-base tables of `G_i`, `H_i`
//! and `U` (the range-proof generators), built once per process: a
//! constant-time comb of each
//! `G_i`, `H_i` (48 KiB) for `S`, and a wide variable-time comb of each and of `U` (384 KiB)
//! for the inner-product argument, whose rounds then need no generator folding (each `L`, `R`
//! is one multi-exponentiation over the original generators, see [`crate::bulletproofs`]). A
//! 16-bit proof's tables take 14 MiB and about 60 ms of CPU to build (spread over the cores);
//! larger proofs fold as before.

use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use zeenot_crypto::ct::{FixedBaseTable, WideTable};
use zeenot_crypto::Point;

/// The most bits (`n·m`) a proof may cover for the prover to use [`ProverTables`] (their memory
/// grows with it: 28 MiB at 32).
pub const MAX_TABLED_BITS: usize = 32;

/// Tables of the first `len` generators `G_i`, `H_i` and of `U` (see the module documentation).
pub struct ProverTables {
    g_points: Vec<Point>,
    h_points: Vec<Point>,
    u_point: Point,
    /// Constant-time combs of `G_i`.
    pub(crate) g_comb: Vec<FixedBaseTable>,
    /// Constant-time combs of `H_i`.
    pub(crate) h_comb: Vec<FixedBaseTable>,
    /// Variable-time wide combs of `G_i`.
    pub(crate) g_wide: Vec<WideTable>,
    /// Variable-time wide combs of `H_i`.
    pub(crate) h_wide: Vec<WideTable>,
    /// The variable-time wide comb of `U`.
    pub(crate) u_wide: WideTable,
}

impl core::fmt::Debug for ProverTables {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ProverTables").field("len", &self.len()).finish()
    }
}

impl ProverTables {
    /// Builds the tables of `g`, `h` (of one length) and `u` (on every core).
    pub fn new(g: &[Point], h: &[Point], u: &Point) -> Self {
        debug_assert_eq!(g.len(), h.len());
        let len = g.len();
        let (g_points, h_points, u_point) = (g.to_vec(), h.to_vec(), *u);
        let mut all: Vec<Point> = g_points.iter().chain(&h_points).copied().collect();
        let combs: Vec<FixedBaseTable> = all.par_iter().map(FixedBaseTable::new).collect();
        all.push(u_point);
        let mut wides: Vec<WideTable> = all.par_iter().map(WideTable::new).collect();
        let u_wide = wides.pop().expect("U's table");
        let h_wide = wides.split_off(len);
        let mut g_comb = combs;
        let h_comb = g_comb.split_off(len);
        ProverTables { g_points, h_points, u_point, g_comb, h_comb, g_wide: wides, h_wide, u_wide }
    }

    /// How many `G_i` (and `H_i`) the tables cover.
    pub fn len(&self) -> usize {
        self.g_points.len()
    }

    /// Whether the tables cover no generator.
    pub fn is_empty(&self) -> bool {
        self.g_points.is_empty()
    }

    /// Whether these tables start with `g`, `h` and are of `u` (they do whenever both come
    /// from the generators' derivation: checked anyway, points being cheap to compare).
    pub(crate) fn covers(&self, g: &[Point], h: &[Point], u: &Point) -> bool {
        let len = g.len();
        len <= self.len()
            && h.len() == len
            && self.u_point == *u
            && self.g_points[..len] == *g
            && self.h_points[..len] == *h
    }
}

/// The prover's tables of the generators `g`, `h` (one per bit of a proof) and `u`, built on
/// first use and kept for the process; `None` above [`MAX_TABLED_BITS`] bits or for vectors
/// of different lengths.
pub fn prover_tables(g: &[Point], h: &[Point], u: &Point) -> Option<Arc<ProverTables>> {
    if g.len() > MAX_TABLED_BITS || g.len() != h.len() {
        return None;
    }
    static CACHE: Mutex<Option<Arc<ProverTables>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = cache.as_ref().filter(|t| t.covers(g, h, u)) {
        return Some(t.clone());
    }
    let t = Arc::new(ProverTables::new(g, h, u));
    *cache = Some(t.clone());
    Some(t)
}
