//! Process-wide range-proof generators and the prover's precomputed tables of them.
//!
//! * [`shared_gens`]: the range-proof generators, derived once per process and grown on demand
//!   (deriving them costs two hashes to the curve per index and a comb for `H`: about 0.9 ms
//!   for a 16-bit proof, more than half of what the proof itself then costs).
//! * [`prover_tables`]: for proofs of at most [`MAX_TABLED_BITS`] bits in all (`n·m`), fixed-base
//!   tables of `G_i`, `H_i` and `U`, built once per process: a constant-time comb of each
//!   `G_i`, `H_i` (48 KiB) for `S`, and a wide variable-time comb of each and of `U` (384 KiB)
//!   for the inner-product argument, whose rounds then need no generator folding (each `L`,
//!   `R` is one multi-exponentiation over the original generators, see
//!   [`crate::bulletproofs`]). A 16-bit proof's tables take 14 MiB and about 60 ms of CPU to
//!   build (spread over the cores); larger proofs fold as before.

use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use zeenot_crypto::ct::{FixedBaseTable, WideTable};
use zeenot_crypto::Point;

use crate::bulletproofs::BulletproofGens;

/// The most bits (`n·m`) a proof may cover for the prover to use [`ProverTables`] (their memory
/// grows with it: 28 MiB at 32).
pub const MAX_TABLED_BITS: usize = 32;

/// The fewest generators [`shared_gens`] derives (a 64-bit proof's).
const MIN_SHARED: usize = 64;

/// The most generators [`shared_gens`] keeps (as [`crate::bulletproofs::MAX_ENCODED_ITEM_BITS`]
/// bounds what a batch may ask for): beyond, fresh generators are derived per call.
const MAX_SHARED: usize = 1 << 12;

/// Range-proof generators covering at least `capacity` bits, derived once per process and
/// shared (grown, deriving only the new indices, when a wider proof asks).
pub fn shared_gens(capacity: usize) -> Arc<BulletproofGens> {
    if capacity > MAX_SHARED {
        return Arc::new(BulletproofGens::new(capacity));
    }
    static CACHE: Mutex<Option<Arc<BulletproofGens>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(g) = cache.as_ref().filter(|g| g.capacity() >= capacity) {
        return g.clone();
    }
    let wanted = capacity.next_power_of_two().max(MIN_SHARED);
    let g = Arc::new(match cache.as_ref() {
        Some(smaller) => smaller.extended(wanted),
        None => BulletproofGens::new(wanted),
    });
    *cache = Some(g.clone());
    g
}

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
    /// Builds the tables of `gens`' first `len` generators (on every core).
    pub fn new(gens: &BulletproofGens, len: usize) -> Self {
        let g_points = gens.g_vec()[..len].to_vec();
        let h_points = gens.h_vec()[..len].to_vec();
        let u_point = *gens.u();
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

    /// Whether these are tables of `gens`' first `len` generators and `U` (they are whenever
    /// both come from [`BulletproofGens`]' derivation: checked anyway, points being cheap to
    /// compare).
    fn covers(&self, gens: &BulletproofGens, len: usize) -> bool {
        len <= self.len()
            && gens.capacity() >= len
            && self.u_point == *gens.u()
            && self.g_points[..len] == gens.g_vec()[..len]
            && self.h_points[..len] == gens.h_vec()[..len]
    }
}

/// The prover's tables for a proof of `len` bits in all with `gens`, built on first use and
/// kept for the process; `None` above [`MAX_TABLED_BITS`].
pub fn prover_tables(gens: &BulletproofGens, len: usize) -> Option<Arc<ProverTables>> {
    if len > MAX_TABLED_BITS || len > gens.capacity() {
        return None;
    }
    static CACHE: Mutex<Option<Arc<ProverTables>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = cache.as_ref().filter(|t| t.covers(gens, len)) {
        return Some(t.clone());
    }
    let t = Arc::new(ProverTables::new(gens, len));
    *cache = Some(t.clone());
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulletproofs::RangeProof;
    use crate::error::Error;
    use ark_ff::UniformRand;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use zeenot_crypto::Scalar;

    const CTX: &[u8] = b"bp_tables test";

    fn bits_of(values: &[u64], bits: usize) -> Vec<Scalar> {
        values.iter().flat_map(|&v| (0..bits).map(move |i| Scalar::from((v >> i) & 1))).collect()
    }

    /// The tabled prover (no folding, combs for `S`) and the folding one make the same proof
    /// from the same random draws, and it verifies.
    #[test]
    fn tabled_and_folding_provers_agree() {
        let gens = shared_gens(MAX_TABLED_BITS);
        for (bits, m) in [(8, 1), (16, 1), (8, 2), (16, 2), (8, 4), (32, 1)] {
            let tables = prover_tables(&gens, bits * m).expect("tabled size");
            for seed in 0..3u64 {
                let mut r = ChaCha20Rng::seed_from_u64(seed);
                let values: Vec<u64> = (0..m as u64)
                    .map(|j| match (seed + j) % 3 {
                        0 => 0,
                        1 => (1u64 << bits) - 1,
                        _ => u64::from(u32::rand(&mut r)) & ((1u64 << bits) - 1),
                    })
                    .collect();
                let gammas: Vec<Scalar> = (0..m).map(|_| Scalar::rand(&mut r)).collect();
                let vs: Vec<Scalar> = values.iter().map(|&v| Scalar::from(v)).collect();
                let a_l = bits_of(&values, bits);
                let prove = |t: Option<&ProverTables>| {
                    let mut r = ChaCha20Rng::seed_from_u64(100 + seed);
                    RangeProof::prove_with(&gens, t, &vs, &a_l, &gammas, bits, CTX, &mut r).unwrap()
                };
                let (tabled, c1) = prove(Some(&tables));
                let (folded, c2) = prove(None);
                assert_eq!(c1, c2);
                assert_eq!(tabled.encode(), folded.encode(), "{m} × {bits} bits, seed {seed}");
                tabled.verify(&gens, &c1, bits, CTX).expect("verifies");
                // What `prove` makes (tables picked by size) is that proof too.
                let mut r = ChaCha20Rng::seed_from_u64(100 + seed);
                let (public, _) = RangeProof::prove(&gens, &values, &gammas, bits, CTX, &mut r).unwrap();
                assert_eq!(public, tabled);
            }
        }
    }

    /// A witness outside the range has no proof from the tabled prover, and a forged one
    /// (bits of another value, non-binary bits, another commitment) does not verify.
    #[test]
    fn tabled_prover_refuses_or_fails_on_false_witnesses() {
        let gens = shared_gens(16);
        let mut r = ChaCha20Rng::seed_from_u64(7);
        let gamma = Scalar::rand(&mut r);
        let err = RangeProof::prove(&gens, &[1 << 16], &[gamma], 16, CTX, &mut r).unwrap_err();
        assert!(matches!(err, Error::Range(_)), "{err:?}");
        let value = Scalar::from(70_000u64); // above 2^16; its low 16 bits as the witness
        let forgeries = [bits_of(&[70_000 & 0xffff], 16), bits_of(&[0xffff], 16), {
            // 70,000 = 2·35,000 with 35,000 < 2^16: a "bit" of 2 at position 0 absorbs it.
            let mut b = bits_of(&[35_000], 16);
            b.iter_mut().for_each(|x| *x += *x);
            b
        }];
        for (i, a_l) in forgeries.iter().enumerate() {
            assert!(prover_tables(&gens, 16).is_some());
            let (p, c) =
                RangeProof::prove_unchecked(&gens, &[value], a_l, &[gamma], 16, CTX, &mut r).unwrap();
            assert!(p.verify(&gens, &c, 16, CTX).is_err(), "forgery {i} verified");
        }
        // An honest proof does not verify for another commitment (a wrong opening).
        let (p, c) = RangeProof::prove(&gens, &[1234], &[gamma], 16, CTX, &mut r).unwrap();
        p.verify(&gens, &c, 16, CTX).expect("honest proof");
        let other = [c[0] + Point::generator()];
        assert!(p.verify(&gens, &other, 16, CTX).is_err());
    }

    /// Tables are only used for the generators they were built from: other generators get
    /// their own (and a proof with them verifies against them).
    #[test]
    fn tables_follow_the_generators() {
        let gens = shared_gens(16);
        assert!(gens.capacity() >= MIN_SHARED);
        assert!(Arc::ptr_eq(&gens, &shared_gens(8)));
        assert!(prover_tables(&gens, MAX_TABLED_BITS * 2).is_none());
        // G and H swapped: a different generator set of the same size.
        let swapped = BulletproofGens::from_vectors(gens.h_vec()[..16].to_vec(), gens.g_vec()[..16].to_vec());
        let t = prover_tables(&swapped, 16).expect("tables");
        assert!(t.covers(&swapped, 16) && !t.covers(&gens, 16));
        let mut r = ChaCha20Rng::seed_from_u64(8);
        let gamma = Scalar::rand(&mut r);
        let (p, c) = RangeProof::prove(&swapped, &[999], &[gamma], 16, CTX, &mut r).unwrap();
        p.verify(&swapped, &c, 16, CTX).expect("verifies with its generators");
        assert!(p.verify(&gens, &c, 16, CTX).is_err());
    }
}
