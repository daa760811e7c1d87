//! A collective authority in the manner of UnLynx (Froelicher et al., PETS 2017): `m` servers
//! that distrust each other hold a `t`-of-`m` shared ElGamal key, and every step they take on
//! ciphertexts comes with a proof that anyone can check.
//!
//! * [`dkg`]: Pedersen's distributed key generation (joint Feldman VSS with complaints and a
//!   proof of knowledge of each dealer's secret), Lagrange coefficients.
//! * [`keyswitch`]: threshold key switching of ciphertexts from the collective key to a
//!   querier's key, one aggregated proof per server and batch.
//! * [`tags`]: distributed deterministic tags (UnLynx's DDT) for `GROUP BY` and equality
//!   `WHERE`, threshold-aware, one aggregated proof per server and batch.
//! * [`noise`]: public lists of discrete-Laplace noise values for differential privacy
//!   (Drynx-style: trivially encrypted, shuffled by the servers, the first element used).
//!
//! # Conventions
//!
//! Servers are numbered `1..=m`; a server's Shamir evaluation point is its index. Ciphertexts
//! are exponential ElGamal `(K, C) = (r·B, m·B + r·X)` over `B = Base8`
//! ([`crate::elgamal::Ciphertext`], `c1 = K`, `c2 = C`). Every Fiat–Shamir challenge is drawn
//! from a [`Sha256Transcript`] with a versioned domain that absorbs the caller's `context`
//! (session or query identifier), every public value of the statement (indices, Lagrange
//! coefficient, keys, all input and output points) and then the prover's commitments.
//!
//! # Batched proofs
//!
//! A server's step on `n` ciphertexts is one statement with `n` instances of the same linear
//! relation. After the whole statement is absorbed, the transcript yields `n` 128-bit weights
//! `ρ_i`; the prover shows the relation for the weighted sums `Σ ρ_i·P_i` of every point
//! family with a single sigma proof. If any single instance were wrong (an error term
//! `E_i ≠ 0`), the weighted error `Σ ρ_i·E_i` vanishes for at most one value of the last
//! weight given the others, so a cheating prover succeeds with probability at most `2^-128`
//! per hash query (the random-linear-combination batching of Bellare, Garay and Rabin,
//! Eurocrypt 1998, in its non-interactive form, as in RFC 9497's batched DLEQ proofs). The
//! verifier's work is a few multi-scalar multiplications with 128-bit scalars over the
//! batch, plus one constant-size proof.

pub mod dkg;
pub mod keyswitch;
pub mod noise;
pub mod tags;

use ark_ff::PrimeField;
use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use sha2::{Digest, Sha256, Sha512};
use zeroize::Zeroize;

use crate::curve::{encode_scalar, Point, Scalar};
use crate::elgamal::{Ciphertext, CIPHERTEXT_LEN};
use crate::error::{Error, Result};
use crate::transcript::{Sha256Transcript, Transcript};

/// The most servers a collective authority may have (indices are `1..=MAX_SERVERS`).
pub const MAX_SERVERS: u32 = 1024;

/// The most ciphertexts (or points) one batch may hold: decoders refuse longer inputs before
/// allocating.
pub const MAX_BATCH: usize = 1 << 24;

/// Batches shorter than this are decoded and transformed on one thread.
const PAR_MIN: usize = 32;

/// Decodes `n` packed points (`32·n` bytes), each checked canonical, on the curve and in the
/// prime-order subgroup, in batches sharing a field inversion ([`Point::decode_batch_par`]: long
/// inputs are decoded on every core).
pub fn decode_points(bytes: &[u8]) -> Result<Vec<Point>> {
    if !bytes.len().is_multiple_of(32) {
        return Err(Error::LengthMismatch { what: "packed points must be a multiple of 32 bytes" });
    }
    if bytes.len() / 32 > MAX_BATCH {
        return Err(Error::InvalidParameter("too many points in one batch"));
    }
    Point::decode_batch_par(bytes).map_err(|(_, e)| e)
}

/// Decodes `n` ciphertexts `K ‖ C` (`64·n` bytes) with [`decode_points`]' checks.
pub fn decode_ciphertexts(bytes: &[u8]) -> Result<Vec<Ciphertext>> {
    if !bytes.len().is_multiple_of(CIPHERTEXT_LEN) {
        return Err(Error::LengthMismatch { what: "ciphertexts must be a multiple of 64 bytes" });
    }
    let points = decode_points(bytes)?;
    Ok(points.chunks_exact(2).map(|p| Ciphertext { c1: p[0], c2: p[1] }).collect())
}

/// Points decoded from bytes, kept with those bytes: a transcript can absorb the bytes without
/// re-encoding, and they are the points' canonical encoding by construction.
#[derive(Clone, Debug)]
pub struct DecodedPoints<'a> {
    bytes: &'a [u8],
    points: Vec<Point>,
}

impl<'a> DecodedPoints<'a> {
    /// [`decode_points`], keeping the bytes.
    pub fn decode(bytes: &'a [u8]) -> Result<Self> {
        Ok(DecodedPoints { bytes, points: decode_points(bytes)? })
    }

    /// The points.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Their canonical encoding.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The points, consumed.
    pub fn into_points(self) -> Vec<Point> {
        self.points
    }
}

/// Ciphertexts decoded from bytes, kept with those bytes (see [`DecodedPoints`]).
#[derive(Clone, Debug)]
pub struct DecodedCiphertexts<'a> {
    bytes: &'a [u8],
    cts: Vec<Ciphertext>,
}

impl<'a> DecodedCiphertexts<'a> {
    /// [`decode_ciphertexts`], keeping the bytes.
    pub fn decode(bytes: &'a [u8]) -> Result<Self> {
        Ok(DecodedCiphertexts { bytes, cts: decode_ciphertexts(bytes)? })
    }

    /// The ciphertexts.
    pub fn ciphertexts(&self) -> &[Ciphertext] {
        &self.cts
    }

    /// Their canonical encoding.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// The packed encodings of `points`, concatenated (one batched inversion per chunk).
pub fn encode_points(points: &[Point]) -> Vec<u8> {
    points
        .par_chunks(256)
        .with_min_len(1)
        .flat_map_iter(|c| Point::encode_batch(c).into_iter().flatten())
        .collect()
}

/// `K ‖ C` of every ciphertext, concatenated.
pub fn encode_ciphertexts(cts: &[Ciphertext]) -> Vec<u8> {
    let points: Vec<Point> = cts.iter().flat_map(|c| [c.c1, c.c2]).collect();
    encode_points(&points)
}

/// The homomorphic sum of the ciphertexts (it encrypts the sum of the plaintexts).
pub fn aggregate(cts: &[Ciphertext]) -> Ciphertext {
    cts.par_iter().with_min_len(256).copied().reduce(Ciphertext::zero, |a, b| a + b)
}

/// The trivial encryption `(0, v·B)` of a signed value (`v` reduced modulo `l`): what a public
/// constant looks like as a ciphertext under any key.
pub fn trivial_ciphertext(v: i64) -> Ciphertext {
    Ciphertext { c1: Point::identity(), c2: Point::generator().mul_vartime(&signed_scalar(v)) }
}

/// `v` as a scalar modulo `l` (negative values wrap to `l − |v|`).
pub fn signed_scalar(v: i64) -> Scalar {
    let s = Scalar::from(v.unsigned_abs());
    if v < 0 {
        -s
    } else {
        s
    }
}

/// Checks that a server index lies in `1..=MAX_SERVERS`.
pub(crate) fn check_index(index: u32) -> Result<()> {
    if index == 0 || index > MAX_SERVERS {
        return Err(Error::InvalidParameter("server index outside 1..=1024"));
    }
    Ok(())
}

/// The 128-bit batching weights `ρ_0..ρ_{n−1}`: a seed squeezed from the transcript (after
/// the whole statement), expanded by SHA-256 with the index.
pub(crate) fn batch_weights(t: &mut Sha256Transcript, n: usize) -> Vec<Scalar> {
    let seed = encode_scalar(&t.challenge_scalar(b"batch-weights"));
    (0..n)
        .into_par_iter()
        .with_min_len(1024)
        .map(|i| {
            let mut h = Sha256::new();
            h.update(b"zeenot/cothority/batch-weight/v1");
            h.update(seed);
            h.update((i as u64).to_le_bytes());
            let d: [u8; 32] = h.finalize().into();
            let mut w = [0u8; 16];
            w.copy_from_slice(&d[..16]);
            Scalar::from(u128::from_le_bytes(w))
        })
        .collect()
}

/// `count` hedged nonces: SHA-512 of the domain, a digest of the statement so far, the
/// secrets, 32 bytes from the RNG and the nonce's index, reduced modulo `l`. A weak RNG alone
/// then neither repeats a nonce across statements nor leaks a secret.
pub(crate) fn hedged_nonces<R: RngCore + CryptoRng>(
    domain: &[u8],
    statement: &Sha256Transcript,
    secrets: &[&Scalar],
    count: usize,
    rng: &mut R,
) -> Vec<Scalar> {
    let digest = encode_scalar(&statement.clone().challenge_scalar(b"nonce-binding"));
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    let out = (0..count)
        .map(|i| {
            let mut h = Sha512::new();
            h.update(domain);
            h.update(b"/nonce");
            h.update(digest);
            for s in secrets {
                let mut b = encode_scalar(s);
                h.update(b);
                b.zeroize();
            }
            h.update(seed);
            h.update((i as u64).to_le_bytes());
            let mut wide: [u8; 64] = h.finalize().into();
            let k = Scalar::from_le_bytes_mod_order(&wide);
            wide.zeroize();
            k
        })
        .collect();
    seed.zeroize();
    out
}

/// Whether the recomputed challenge equals the proof's.
pub(crate) fn same_challenge(a: &Scalar, b: &Scalar) -> Result<()> {
    use subtle::ConstantTimeEq;
    if bool::from(encode_scalar(a).ct_eq(&encode_scalar(b))) {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
}

/// Decodes `N` canonical scalars from `32·N` bytes.
pub(crate) fn decode_scalars<const N: usize>(bytes: &[u8]) -> Result<[Scalar; N]> {
    if bytes.len() != 32 * N {
        return Err(Error::Length { expected: 32 * N, actual: bytes.len() });
    }
    let mut out = [Scalar::from(0u8); N];
    for (o, c) in out.iter_mut().zip(bytes.chunks_exact(32)) {
        let mut b = [0u8; 32];
        b.copy_from_slice(c);
        *o = crate::curve::decode_scalar(&b)?;
    }
    Ok(out)
}

/// The canonical encodings of the scalars, concatenated.
pub(crate) fn encode_scalars(scalars: &[Scalar]) -> Vec<u8> {
    scalars.iter().flat_map(encode_scalar).collect()
}
