//! The shared sources of group elements and scalars that the scalar multiplications and the
//! protocols above them draw on: Pedersen's blinding base `H` and vector bases `G_i` (hashed to
//! the curve, see [`crate::pedersen`] for their role), and uniformly random non-zero scalars
//! (keys, nonces, blindings). [`crate::ct`] precomputes tables for `H` beside `Base8`;
//! [`crate::pedersen`] and [`crate::elgamal`] use all of them and re-export them.

use ark_ec::twisted_edwards::TECurveConfig;
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{batch_inversion, Field, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::curve::{hash_to_curve, Point, Scalar};
use crate::encoding::{decode_base, encode_base, is_negative};
use crate::params::{BabyJubjubAffine, BabyJubjubConfig, BabyJubjubProjective, Base};
use crate::sqrt::sqrt;

/// The domain separator of Pedersen generators.
pub const PEDERSEN_DOMAIN: &[u8] = b"zeenot/pedersen/v1";

/// The blinding base `H`.
pub fn blinding_generator() -> Point {
    hash_to_curve(PEDERSEN_DOMAIN, b"H")
}

/// The vector base `G_i`.
pub fn vector_generator(i: u64) -> Point {
    let mut msg = b"G".to_vec();
    msg.extend_from_slice(&i.to_le_bytes());
    hash_to_curve(PEDERSEN_DOMAIN, &msg)
}

/// Messages hashed together by one thread of [`hash_to_curve_batch`] (one batch inversion each).
const BATCH: usize = 256;

/// [`hash_to_curve`] of every message under one domain, in order: the same points, about five
/// times faster a point, on every core. Per message it walks the same counters, but tests a
/// candidate `y` by the square root of `u·v` (`x² = u/v`, `u = 1 − y²`, `v = a − d·y²`: a
/// square iff `u·v` is) with a faster square root than arkworks' ([`crate::sqrt`]), and divides
/// by `v` with one inversion per [`BATCH`] messages; the cofactor is cleared as there.
pub fn hash_to_curve_batch<M: AsRef<[u8]> + Sync>(domain: &[u8], msgs: &[M]) -> Vec<Point> {
    let chunks: Vec<Vec<Point>> = msgs.par_chunks(BATCH).map(|c| hash_chunk(domain, c)).collect();
    chunks.concat()
}

/// A candidate that is on the curve: `y`, the sign bit of `x`, `√(u·v)` and `v`.
struct Found {
    y: Base,
    negative: bool,
    root: Base,
    v: Base,
}

fn hash_chunk<M: AsRef<[u8]>>(domain: &[u8], msgs: &[M]) -> Vec<Point> {
    let a = <BabyJubjubConfig as TECurveConfig>::COEFF_A;
    let d = <BabyJubjubConfig as TECurveConfig>::COEFF_D;
    let mut found: Vec<Found> = msgs
        .iter()
        .map(|msg| {
            let msg = msg.as_ref();
            let mut prefix = Sha256::new();
            prefix.update((domain.len() as u64).to_le_bytes());
            prefix.update(domain);
            prefix.update((msg.len() as u64).to_le_bytes());
            prefix.update(msg);
            let mut counter: u32 = 0;
            loop {
                let mut bytes: [u8; 32] =
                    prefix.clone().chain_update(counter.to_le_bytes()).finalize().into();
                counter = counter.wrapping_add(1);
                let negative = bytes[31] & 0x80 != 0;
                bytes[31] &= 0x7f;
                let Ok(y) = decode_base(&bytes) else { continue };
                let y2 = y.square();
                let (u, v) = (Base::ONE - y2, a - d * y2);
                // u = 0 is x = 0: (0, ±1), rejected there either way (a sign bit for x = 0,
                // or the identity after the cofactor)
                if u.is_zero() {
                    continue;
                }
                if let Some(root) = sqrt(&(u * v)) {
                    return Found { y, negative, root, v };
                }
            }
        })
        .collect();
    let mut inverses: Vec<Base> = found.iter().map(|f| f.v).collect();
    batch_inversion(&mut inverses);
    found
        .iter_mut()
        .zip(inverses)
        .zip(msgs)
        .map(|((f, v_inv), msg)| {
            let mut x = f.root * v_inv; // x² = u·v/v² = u/v
            if is_negative(&x) != f.negative {
                x = -x;
            }
            let q = BabyJubjubAffine::new_unchecked(x, f.y).mul_by_cofactor_to_group();
            if q.is_zero() {
                // a point of small order (y = 0): the counters go on past it
                hash_to_curve(domain, msg.as_ref())
            } else {
                Point(q)
            }
        })
        .collect()
}

/// The bytes of a table of points (of hashed generators, to store them): each point's affine
/// `x ‖ y`, 32 bytes each, little-endian.
pub fn encode_table(points: &[Point]) -> Vec<u8> {
    let projective: Vec<_> = points.iter().map(|p| p.0).collect();
    let mut out = Vec::with_capacity(64 * points.len());
    for p in BabyJubjubProjective::normalize_batch(&projective) {
        out.extend_from_slice(&encode_base(&p.x));
        out.extend_from_slice(&encode_base(&p.y));
    }
    out
}

/// Reads an [`encode_table`] table whose SHA-256 is `digest`, or `None` if it is not. The
/// points are not checked one by one: the caller pins `digest` to the table it derived (with
/// [`hash_to_curve_batch`]) and stored, so other bytes pass only with a SHA-256 second
/// preimage. Any length is rejected but a whole number of points; the digest is checked first.
pub fn decode_table(bytes: &[u8], digest: &[u8; 32]) -> Option<Vec<Point>> {
    if !bytes.len().is_multiple_of(64) || Sha256::digest(bytes).as_slice() != digest {
        return None;
    }
    bytes
        .chunks_exact(64)
        .map(|c| {
            let x = decode_base(c[..32].try_into().ok()?).ok()?;
            let y = decode_base(c[32..].try_into().ok()?).ok()?;
            Some(Point(BabyJubjubAffine::new_unchecked(x, y).into()))
        })
        .collect()
}

/// A non-zero scalar drawn uniformly from `[1, l)`.
pub fn random_nonzero_scalar<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar {
    loop {
        let s = Scalar::rand(rng);
        if !s.is_zero() {
            return s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_hashes_to_the_same_points_as_one_at_a_time() {
        // several batches, messages of several lengths, the empty one among them
        let msgs: Vec<Vec<u8>> = (0..700u32)
            .map(|i| i.to_le_bytes()[..(i % 5) as usize].iter().copied().chain([i as u8; 3]).collect())
            .chain([Vec::new()])
            .collect();
        for domain in [PEDERSEN_DOMAIN, b"zeenot/bulletproofs/v1".as_slice(), b""] {
            let batch = hash_to_curve_batch(domain, &msgs);
            assert_eq!(batch.len(), msgs.len());
            for (p, m) in batch.iter().zip(&msgs) {
                assert_eq!(*p, hash_to_curve(domain, m), "{domain:?} {m:?}");
            }
        }
        assert!(hash_to_curve_batch::<&[u8]>(b"d", &[]).is_empty());
    }

    #[test]
    fn a_table_reads_back_only_with_its_digest() {
        let points = hash_to_curve_batch(b"t", &[b"a".as_slice(), b"b", b"c"]);
        let bytes = encode_table(&points);
        assert_eq!(bytes.len(), 3 * 64);
        let digest: [u8; 32] = Sha256::digest(&bytes).into();
        assert_eq!(decode_table(&bytes, &digest), Some(points));
        let mut other = bytes.clone();
        other[5] ^= 1;
        assert_eq!(decode_table(&other, &digest), None);
        assert_eq!(decode_table(&bytes[..64 * 2], &digest), None);
        assert_eq!(decode_table(&bytes[..100], &digest), None);
        assert_eq!(decode_table(&[], &Sha256::digest([]).into()), Some(Vec::new()));
    }
}
