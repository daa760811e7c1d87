//! Discrete logarithms of small multiples of `Base8` by baby-step giant-step.
//!
//! A [`DlogTable`] for `bits` answers "which `m ∈ [0, 2^bits)` has `m·Base8 = P`?". It holds
//! `2^b` baby steps `j·Base8` (`b = ⌈bits/2⌉` by default) keyed by the low 64 bits of their
//! y-coordinate, and walks at most `2^(bits−b)` giant steps `P − i·2^b·Base8`, normalising them
//! to affine in batches of 1024 (one field inversion per batch). A key hit is confirmed by a
//! full comparison of the candidate point, so 64-bit key collisions cannot give a wrong
//! answer; colliding baby-step keys are kept in a side list, so none is lost.
//!
//! Costs (`bits = 32`, default split): 65,536 baby steps, about 1.6 MiB of hash map
//! (16-byte entries with `hashbrown`'s ~1.1 bytes of control each, at a load factor ≤ 7/8),
//! built in tens of milliseconds; a decryption walks at most 65,536 giant steps. Build once and
//! share (`DlogTable` is `Sync`). [`DlogTable::with_baby_bits`] trades memory for time.

use std::collections::HashMap;

use ark_ec::CurveGroup;
use ark_ff::{PrimeField, Zero};

use crate::curve::{BabyJubjubProjective, Point, Scalar};
use crate::error::{Error, Result};

const BATCH: usize = 1024;

/// A reusable baby-step giant-step table for plaintexts in `[0, 2^bits)`.
#[derive(Clone)]
pub struct DlogTable {
    bits: u32,
    baby_bits: u32,
    baby: HashMap<u64, u32>,
    /// Baby steps whose 64-bit key collided with an earlier one (expected empty).
    collisions: Vec<(u64, u32)>,
    /// `−2^baby_bits · Base8`.
    giant: BabyJubjubProjective,
}

impl core::fmt::Debug for DlogTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DlogTable")
            .field("bits", &self.bits)
            .field("baby_bits", &self.baby_bits)
            .finish_non_exhaustive()
    }
}

fn key(y: &crate::curve::Base) -> u64 {
    let b = y.into_bigint();
    b.as_ref()[0]
}

impl DlogTable {
    /// The largest supported range, `2^48`.
    pub const MAX_BITS: u32 = 48;

    /// A table for `[0, 2^bits)` with `⌈bits/2⌉` baby-step bits.
    pub fn new(bits: u32) -> Result<Self> {
        Self::with_baby_bits(bits, bits.div_ceil(2))
    }

    /// A table for `[0, 2^bits)` with `2^baby_bits` baby steps (`1 ≤ baby_bits ≤ min(bits, 28)`).
    pub fn with_baby_bits(bits: u32, baby_bits: u32) -> Result<Self> {
        if bits == 0 || bits > Self::MAX_BITS || baby_bits == 0 || baby_bits > bits || baby_bits > 28 {
            return Err(Error::TableSize { bits });
        }
        let n = 1usize << baby_bits;
        let g = Point::generator().0;
        let mut baby = HashMap::with_capacity(n);
        let mut collisions = Vec::new();
        let mut acc = BabyJubjubProjective::zero();
        let mut j: u32 = 0;
        let mut chunk = Vec::with_capacity(BATCH.min(n));
        while (j as usize) < n {
            chunk.clear();
            let start = j;
            while chunk.len() < BATCH && (j as usize) < n {
                chunk.push(acc);
                acc += g;
                j += 1;
            }
            for (i, a) in BabyJubjubProjective::normalize_batch(&chunk).iter().enumerate() {
                let k = key(&a.y);
                let idx = start + i as u32;
                if let Some(prev) = baby.insert(k, idx) {
                    // Keep the first; remember the later one.
                    baby.insert(k, prev);
                    collisions.push((k, idx));
                }
            }
        }
        // acc = 2^baby_bits · G.
        Ok(DlogTable { bits, baby_bits, baby, collisions, giant: -acc })
    }

    /// The table covers `[0, 2^bits)`.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Finds `m ∈ [0, 2^bits)` with `m·Base8 = p`, or [`Error::PlaintextOutOfRange`].
    pub fn lookup(&self, p: &Point) -> Result<u64> {
        let giants: u64 = 1u64 << (self.bits - self.baby_bits);
        let stride: u64 = 1u64 << self.baby_bits;
        let mut cur = p.0;
        let mut i: u64 = 0;
        let mut chunk = Vec::with_capacity(BATCH);
        while i < giants {
            chunk.clear();
            let start = i;
            while chunk.len() < BATCH && i < giants {
                chunk.push(cur);
                cur += self.giant;
                i += 1;
            }
            for (off, a) in BabyJubjubProjective::normalize_batch(&chunk).iter().enumerate() {
                let k = key(&a.y);
                let gi = start + off as u64;
                let candidates = self
                    .baby
                    .get(&k)
                    .copied()
                    .into_iter()
                    .chain(self.collisions.iter().filter(|(ck, _)| *ck == k).map(|&(_, j)| j));
                for j in candidates {
                    let m = gi * stride + u64::from(j);
                    // Confirm: the key is only 64 bits of y, and y is shared by ±P.
                    if Point::mul_base(&Scalar::from(m)) == *p {
                        return Ok(m);
                    }
                }
            }
        }
        Err(Error::PlaintextOutOfRange { bits: self.bits })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_send_sync() {
        fn is_sync<T: Sync + Send>() {}
        is_sync::<super::DlogTable>();
    }
}
