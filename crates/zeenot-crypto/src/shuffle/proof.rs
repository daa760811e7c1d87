//! The shuffle proof and its bounded, checked encoding.

use rayon::prelude::*;

use super::decode_points;
use crate::curve::{decode_scalar, encode_scalar, Point, Scalar};
use crate::encoding::fixed;
use crate::error::{Error, Result};

/// The first four bytes of an encoded proof (`"ZSH"`, version 1).
const MAGIC: &[u8; 4] = b"ZSH\x01";

/// Header: magic, `N` and `w` as 4-byte little-endian integers.
const HEADER_LEN: usize = 12;

/// A Terelius–Wikström proof of a shuffle of `N` rows of `w` ciphertexts (see
/// [`crate::shuffle`] for what each part is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShuffleProof {
    /// `N`.
    pub(crate) rows: usize,
    /// `w`.
    pub(crate) width: usize,
    /// The permutation commitment `c_1..c_N`.
    pub(crate) commitments: Vec<Point>,
    /// The commitment chain `ĉ_1..ĉ_N`.
    pub(crate) chain: Vec<Point>,
    pub(crate) t1: Point,
    pub(crate) t2: Point,
    pub(crate) t3: Point,
    /// `t_{4,k}`, one `(K, C)` pair per attribute.
    pub(crate) t4: Vec<(Point, Point)>,
    /// `t̂_1..t̂_N`.
    pub(crate) t_hat: Vec<Point>,
    pub(crate) s1: Scalar,
    pub(crate) s2: Scalar,
    pub(crate) s3: Scalar,
    /// `s_{4,k}`, one per attribute.
    pub(crate) s4: Vec<Scalar>,
    /// `ŝ_1..ŝ_N`.
    pub(crate) s_hat: Vec<Scalar>,
    /// `s'_1..s'_N`.
    pub(crate) s_prime: Vec<Scalar>,
}

impl ShuffleProof {
    /// The number of rows `N` this proof is for.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The width `w` (ciphertexts per row) this proof is for.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The length of an encoded proof for `n` rows of `w` ciphertexts (`None` if it overflows).
    pub fn encoded_len(n: usize, w: usize) -> Option<usize> {
        let points = n.checked_mul(3)?.checked_add(w.checked_mul(2)?)?.checked_add(3)?;
        let scalars = n.checked_mul(2)?.checked_add(w)?.checked_add(3)?;
        points.checked_add(scalars)?.checked_mul(32)?.checked_add(HEADER_LEN)
    }

    /// The sigma commitments in transcript order: `t_1, t_2, t_3, (K, C) of each t_{4,k},
    /// t̂_1..t̂_N`.
    pub(crate) fn t_points(&self) -> Vec<Point> {
        let mut v = vec![self.t1, self.t2, self.t3];
        v.extend(self.t4.iter().flat_map(|&(k, c)| [k, c]));
        v.extend_from_slice(&self.t_hat);
        v
    }

    /// The responses in transcript order: `s_1, s_2, s_3, s_{4,1..w}, ŝ_1..ŝ_N, s'_1..s'_N`.
    pub(crate) fn responses(&self) -> Vec<Scalar> {
        let mut v = vec![self.s1, self.s2, self.s3];
        v.extend_from_slice(&self.s4);
        v.extend_from_slice(&self.s_hat);
        v.extend_from_slice(&self.s_prime);
        v
    }

    /// `"ZSH" 0x01 ‖ N ‖ w` (4-byte little-endian each), then packed points
    /// `c_1..c_N, ĉ_1..ĉ_N, t_1, t_2, t_3, (K, C) of t_{4,1..w}, t̂_1..t̂_N`, then canonical
    /// little-endian scalars `s_1, s_2, s_3, s_{4,1..w}, ŝ_1..ŝ_N, s'_1..s'_N`.
    pub fn encode(&self) -> Vec<u8> {
        let mut points = Vec::with_capacity(3 * self.rows + 3 + 2 * self.width);
        points.extend_from_slice(&self.commitments);
        points.extend_from_slice(&self.chain);
        points.extend(self.t_points());
        let mut out = Vec::with_capacity(Self::encoded_len(self.rows, self.width).unwrap_or(0));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.rows as u32).to_le_bytes());
        out.extend_from_slice(&(self.width as u32).to_le_bytes());
        out.extend(super::encode_points(&points));
        for s in self.responses() {
            out.extend_from_slice(&encode_scalar(&s));
        }
        out
    }

    /// Decodes a proof for a statement of `n` rows of `w` ciphertexts. The header's `N` and `w`
    /// must equal `n` and `w` and the length must be exact before anything is allocated; every
    /// point is checked (canonical, on the curve, in the prime-order subgroup) and every scalar
    /// canonical.
    pub fn decode(bytes: &[u8], n: usize, w: usize) -> Result<Self> {
        if bytes.len() < HEADER_LEN || &bytes[..4] != MAGIC {
            return Err(Error::LengthMismatch { what: "not a shuffle proof (bad header)" });
        }
        let pn = u32::from_le_bytes(fixed(&bytes[4..8])?) as usize;
        let pw = u32::from_le_bytes(fixed(&bytes[8..12])?) as usize;
        if pn != n || pw != w {
            return Err(Error::LengthMismatch { what: "the proof is for another number of rows or width" });
        }
        if n == 0 || n > super::MAX_ROWS || w == 0 || w > super::MAX_WIDTH {
            return Err(Error::LengthMismatch { what: "shuffle proof shape out of bounds" });
        }
        let expected = Self::encoded_len(n, w).ok_or(Error::LengthMismatch { what: "proof length" })?;
        if bytes.len() != expected {
            return Err(Error::Length { expected, actual: bytes.len() });
        }
        let n_points = 3 * n + 3 + 2 * w;
        let (point_bytes, scalar_bytes) = bytes[HEADER_LEN..].split_at(32 * n_points);
        let points = decode_points(point_bytes)?;
        let scalars: Vec<Scalar> =
            scalar_bytes.par_chunks_exact(32).map(|c| decode_scalar(&fixed(c)?)).collect::<Result<_>>()?;
        let (commitments, rest) = points.split_at(n);
        let (chain, rest) = rest.split_at(n);
        let (t123, rest) = rest.split_at(3);
        let (t4, t_hat) = rest.split_at(2 * w);
        let (s123, rest) = scalars.split_at(3);
        let (s4, rest) = rest.split_at(w);
        let (s_hat, s_prime) = rest.split_at(n);
        Ok(ShuffleProof {
            rows: n,
            width: w,
            commitments: commitments.to_vec(),
            chain: chain.to_vec(),
            t1: t123[0],
            t2: t123[1],
            t3: t123[2],
            t4: t4.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
            t_hat: t_hat.to_vec(),
            s1: s123[0],
            s2: s123[1],
            s3: s123[2],
            s4: s4.to_vec(),
            s_hat: s_hat.to_vec(),
            s_prime: s_prime.to_vec(),
        })
    }
}
