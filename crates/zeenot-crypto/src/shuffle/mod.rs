//! A verifiable re-encryption shuffle of exponential-ElGamal ciphertexts, row by row: the
//! proof of a shuffle of Terelius and Wikström ("Proofs of Restricted Shuffles",
//! AFRICACRYPT 2010), in the algorithmic form of the CHVote protocol specification
//! (`GenShuffleProof` / `CheckShuffleProof`) and of Wikström's "A commitment-consistent proof
//! of a shuffle" (ACISP 2009), generalised to rows of `w` ciphertexts.
//!
//! # Statement
//!
//! Public: a key `pk`, input rows `E_j = (E_{j,1}, …, E_{j,w})` and output rows `Ẽ_i`
//! (`j, i ∈ [1, N]`, each `E = (K, C) = (r·B, m·B + r·pk)`, `B = Base8`) and a caller's
//! `context`. The prover knows a permutation `π` and scalars `ρ_{i,k}` with
//! `Ẽ_{i,k} = E_{π(i),k} + ρ_{i,k}·(B, pk)` for every `i` and `k`: each record is moved as a
//! unit and each of its ciphertexts re-randomised independently, so the output cannot be linked
//! to the input (under DDH), and every plaintext row survives unchanged.
//!
//! # Protocol (additive notation)
//!
//! Generators: `B`, Pedersen's `H` ([`crate::pedersen`], also the chain's start `ĉ_0`) and
//! `h_i = G_{i−1}`, Pedersen's vector bases (`hash_to_curve("zeenot/pedersen/v1", "G" ‖ i)`,
//! `crate::generators`): nobody knows a discrete-log relation among them.
//!
//! 1. Permutation commitment: `c_{π(i)} = r_{π(i)}·B + h_i`, i.e. column `j` of the permutation
//!    matrix `M` (`M_{i,j} = 1` iff `π(i) = j`) is committed as `c_j = r_j·B + Σ_i M_{i,j}·h_i`.
//! 2. Challenge vector: `u_1..u_N`, 128-bit integers derived from a hash of the whole statement
//!    and the `c_j` (see "Fiat–Shamir" below); `ũ_i = u_{π(i)}`.
//! 3. Commitment chain: `ĉ_i = r̂_i·B + ũ_i·ĉ_{i−1}`, so `ĉ_N = R̂·B + (Π u_j)·H`.
//! 4. Sigma protocol with nonces `ω_1, ω_2, ω_3, ω_{4,k}, ω̂_i, ω'_i`:
//!    `t_1 = ω_1·B`, `t_2 = ω_2·B`, `t_3 = ω_3·B + Σ ω'_i·h_i`,
//!    `t_{4,k} = −ω_{4,k}·(B, pk) + Σ_i ω'_i·Ẽ_{i,k}`, `t̂_i = ω̂_i·B + ω'_i·ĉ_{i−1}`;
//!    challenge `c`; responses `s_1 = ω_1 + c·Σ r_j`, `s_2 = ω_2 + c·R̂` (`R̂ = Σ_i r̂_i·Π_{l>i} ũ_l`),
//!    `s_3 = ω_3 + c·Σ r_j·u_j`, `s_{4,k} = ω_{4,k} + c·Σ_i ρ_{i,k}·ũ_i`, `ŝ_i = ω̂_i + c·r̂_i`,
//!    `s'_i = ω'_i + c·ũ_i`.
//! 5. The verifier checks
//!    `s_1·B − c·(Σ c_j − Σ h_i) = t_1`, `s_2·B − c·(ĉ_N − (Π u_j)·H) = t_2`,
//!    `s_3·B + Σ s'_i·h_i − c·Σ u_j·c_j = t_3`,
//!    `−s_{4,k}·(B, pk) + Σ_i s'_i·Ẽ_{i,k} − c·Σ_j u_j·E_{j,k} = t_{4,k}` (two equations per `k`),
//!    `ŝ_i·B + s'_i·ĉ_{i−1} − c·ĉ_i = t̂_i`,
//!    all at once: each equation is weighted by a 128-bit scalar derived from a hash of the
//!    statement *and the whole proof*, and the weighted sum (one multi-scalar multiplication of
//!    about `4N + 4Nw` terms) must be the identity. Every point is in the prime-order subgroup
//!    (the decoders check it), so a false equation survives the batch with probability at most
//!    `2^−128`.
//!
//! # Soundness (sketch; Terelius–Wikström, Theorem 1 and the extractor of §4)
//!
//! * *Permutation matrices.* A matrix `M` over `Z_l` is a permutation matrix iff
//!   `M·1 = 1` and `Π_i (M·x)_i = Π_i x_i` as polynomials in the indeterminates `x`.
//! * *Special soundness of the sigma part.* From two accepting transcripts with the same
//!   commitments and challenges `c ≠ c*`, the responses give openings: `Σ c_j − Σ h_i` opens to
//!   `0` (the first condition, `M·1 = 1`, by the binding of the generalised Pedersen
//!   commitment under the discrete-log assumption), `Σ u_j·c_j` opens to the vector
//!   `ũ = (s' − s'*)/(c − c*)`, so `ũ = M·u`; the chain `ĉ` proves `Π ũ_i = Π u_j`; and the
//!   `t_{4,k}` equations show `Σ_i ũ_i·Ẽ_{i,k} − Σ_j u_j·E_{j,k}` to be an encryption of zero
//!   whose randomness the prover knows.
//! * *Schwartz–Zippel.* If `M` is not a permutation matrix, `Π (M·x)_i − Π x_i` is a non-zero
//!   polynomial of degree `N`, so for `u` drawn from `[0, 2^128)` after `M` is committed it
//!   vanishes with probability at most `N / 2^128`. So `M` is the matrix of a permutation
//!   `π`, and the last equations read `Σ_j u_j·(Ẽ_{π^{−1}(j),k} − E_{j,k}) = Enc(0; ρ̃_k)`
//!   for a random `u` (fixed after the rows are hashed): again by Schwartz–Zippel (or by
//!   rewinding over `N` independent `u`), every output row is its input row re-encrypted,
//!   except with probability `≈ 2^−128`. The *same* `ũ` (the same `s'`) multiplies every
//!   attribute `k`, so all `w` ciphertexts of a record follow the same permutation: attributes
//!   cannot be swapped across records.
//! * *Zero knowledge.* The sigma protocol is special honest-verifier zero-knowledge (the
//!   commitments `c_j` and `ĉ_i` are perfectly hiding, the responses uniformly masked);
//!   Fiat–Shamir makes it a NIZK in the random-oracle model.
//!
//! # Fiat–Shamir
//!
//! One [`Sha256Transcript`] (domain [`SHUFFLE_DOMAIN`]) absorbs, in order: the caller's
//! `context`; the generators' seed (the Pedersen domain and label of the `h_i`); `N` and `w`;
//! `pk`; every input and output ciphertext; the `c_j`. The challenge vector `u` is derived from
//! a challenge squeezed there (`u_j` = the first 16 bytes, little-endian, of
//! `SHA-256(SHUFFLE_DOMAIN ‖ "u" ‖ seed ‖ j)`). The transcript then absorbs the `ĉ_i` and every
//! `t`, and squeezes `c`. The verifier's batch weights come from the same transcript after it
//! has absorbed every response. A proof is therefore bound to the whole statement and context.
//!
//! # Encoding
//!
//! See [`ShuffleProof::encode`]: a 12-byte header with `N` and `w`, checked against the
//! statement before anything is allocated, then `3N + 3 + 2w` packed points and `2N + 3 + w`
//! scalars (for `N = 1000`, `w = 1`: 160 KB).
//!
//! # Costs
//!
//! The prover's secret multiplications are constant time: fixed-base combs for `B`, `H` and
//! `pk` (re-encryption, `c_j`, the chain and `t̂_i` in closed form, `R̂_i·B + U_i·H` with
//! `U_i = Π_{l≤i} ũ_l`) and [`Point::msm_ct`] for `t_3` and `t_{4,k}`. The verifier decodes
//! `3N + 3 + 2w` points (each with its subgroup check) and runs one variable-time multi-scalar
//! multiplication; both spread over the cores with rayon.

mod proof;
mod prove;
mod verify;

#[cfg(test)]
mod tests;

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::sync::{OnceLock, RwLock};

use crate::curve::{encode_scalar, Point, Scalar};
use crate::elgamal::{Ciphertext, PublicKey, CIPHERTEXT_LEN};
use crate::error::{Error, Result};
use crate::generators::{vector_generator, PEDERSEN_DOMAIN};
use crate::transcript::{Sha256Transcript, Transcript};

pub use proof::ShuffleProof;
pub use prove::{prove_shuffle, shuffle};
pub use verify::{invalid_shuffles, verify_shuffle, verify_shuffles, ShuffleStatement};

/// The domain separator of shuffle transcripts.
pub const SHUFFLE_DOMAIN: &[u8] = b"zeenot/shuffle/v1";

/// The most rows a shuffle takes.
pub const MAX_ROWS: usize = 1 << 20;

/// The most ciphertexts in a row.
pub const MAX_WIDTH: usize = 256;

/// The most ciphertexts in a shuffle (rows times width).
pub const MAX_CIPHERTEXTS: usize = 1 << 22;

/// The number of generators `h_i` kept in memory between shuffles (128 bytes each in memory).
const CACHED_GENERATORS: usize = 1 << 16;

/// Rows of ciphertexts, all of one width.
pub type Rows = Vec<Vec<Ciphertext>>;

/// The shape `(N, w)` of `rows`: 1 to [`MAX_ROWS`] rows of 1 to [`MAX_WIDTH`] ciphertexts
/// each, at most [`MAX_CIPHERTEXTS`] in all, every row of the same width.
pub fn shape(rows: &[Vec<Ciphertext>]) -> Result<(usize, usize)> {
    let n = rows.len();
    if n == 0 || n > MAX_ROWS {
        return Err(Error::LengthMismatch { what: "a shuffle takes 1 to 2^20 rows" });
    }
    let w = rows[0].len();
    if w == 0 || w > MAX_WIDTH {
        return Err(Error::LengthMismatch { what: "a shuffled row holds 1 to 256 ciphertexts" });
    }
    if rows.iter().any(|r| r.len() != w) {
        return Err(Error::LengthMismatch { what: "every shuffled row must have the same width" });
    }
    if n * w > MAX_CIPHERTEXTS {
        return Err(Error::LengthMismatch { what: "a shuffle takes at most 2^22 ciphertexts" });
    }
    Ok((n, w))
}

/// Decodes `n` rows of `w` packed ciphertexts (`K ‖ C`, 64 bytes each) laid end to end, every
/// point checked (see [`Ciphertext::decode`]); in parallel.
pub fn decode_rows(bytes: &[u8], n: usize, w: usize) -> Result<Rows> {
    let width = w.checked_mul(CIPHERTEXT_LEN).ok_or(Error::LengthMismatch { what: "row width" })?;
    let expected = n.checked_mul(width).ok_or(Error::LengthMismatch { what: "number of rows" })?;
    if n == 0 || w == 0 || bytes.len() != expected {
        return Err(Error::Length { expected, actual: bytes.len() });
    }
    let points = decode_points(bytes)?;
    Ok(points
        .chunks_exact(2 * w)
        .map(|row| row.chunks_exact(2).map(|c| Ciphertext { c1: c[0], c2: c[1] }).collect())
        .collect())
}

/// The rows' ciphertexts `K ‖ C` laid end to end (64 bytes each); in parallel.
pub fn encode_rows(rows: &[Vec<Ciphertext>]) -> Vec<u8> {
    let points: Vec<Point> = rows.iter().flatten().flat_map(|c| [c.c1, c.c2]).collect();
    encode_points(&points)
}

/// Packed encodings of many points laid end to end, normalised in batches over the cores.
pub(crate) fn encode_points(points: &[Point]) -> Vec<u8> {
    points.par_chunks(512).flat_map_iter(Point::encode_batch).flatten().collect()
}

/// Decodes packed points laid end to end, every point checked; in parallel batches
/// ([`Point::decode_batch_par`]). The length must be a multiple of 32.
pub(crate) fn decode_points(bytes: &[u8]) -> Result<Vec<Point>> {
    Point::decode_batch_par(bytes).map_err(|(_, e)| e)
}

/// The permutation-commitment generators `h_1..h_n` (Pedersen's `G_0..G_{n−1}`), hashed to
/// the curve in parallel and the first [`CACHED_GENERATORS`] kept for later shuffles.
pub(crate) fn generators(n: usize) -> Vec<Point> {
    static CACHE: OnceLock<RwLock<Vec<Point>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| RwLock::new(Vec::new()));
    let have = {
        let c = cache.read().unwrap_or_else(|e| e.into_inner());
        if c.len() >= n {
            return c[..n].to_vec();
        }
        c[..].to_vec()
    };
    let more: Vec<Point> = (have.len()..n).into_par_iter().map(|i| vector_generator(i as u64)).collect();
    let mut all = have;
    all.extend(more);
    let mut c = cache.write().unwrap_or_else(|e| e.into_inner());
    if c.len() < all.len().min(CACHED_GENERATORS) {
        *c = all[..all.len().min(CACHED_GENERATORS)].to_vec();
    }
    all
}

/// The transcript after the statement: context, generators' seed, shape, key, rows.
pub(crate) fn statement_transcript(
    context: &[u8],
    pk: &PublicKey,
    input: &[Vec<Ciphertext>],
    output: &[Vec<Ciphertext>],
    n: usize,
    w: usize,
) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(SHUFFLE_DOMAIN);
    t.append_message(b"context", context);
    t.append_message(b"generators", &[PEDERSEN_DOMAIN, b"/G"].concat());
    let mut dims = (n as u64).to_le_bytes().to_vec();
    dims.extend_from_slice(&(w as u64).to_le_bytes());
    t.append_message(b"shape", &dims);
    t.append_point(b"pk", pk.point());
    t.append_message(b"input", &encode_rows(input));
    t.append_message(b"output", &encode_rows(output));
    t
}

/// `count` 128-bit scalars derived from a challenge `seed`: the first 16 bytes of
/// `SHA-256(SHUFFLE_DOMAIN ‖ label ‖ seed ‖ i)`, little-endian.
pub(crate) fn short_scalars(seed: &Scalar, label: &[u8], count: usize) -> Vec<Scalar> {
    let mut prefix = Sha256::new();
    prefix.update(SHUFFLE_DOMAIN);
    prefix.update(label);
    prefix.update(encode_scalar(seed));
    (0..count as u64)
        .into_par_iter()
        .map(|i| {
            let mut h = prefix.clone();
            h.update(i.to_le_bytes());
            let d = h.finalize();
            let mut b = [0u8; 16];
            b.copy_from_slice(&d[..16]);
            Scalar::from(u128::from_le_bytes(b))
        })
        .collect()
}

/// Absorbs the permutation commitments and returns the challenge vector `u`.
pub(crate) fn challenge_vector(t: &mut Sha256Transcript, commitments: &[Point]) -> Vec<Scalar> {
    t.append_message(b"permutation-commitment", &encode_points(commitments));
    let seed = t.challenge_scalar(b"u");
    short_scalars(&seed, b"u", commitments.len())
}

/// Absorbs the chain and the sigma commitments and returns the challenge `c`.
pub(crate) fn challenge(t: &mut Sha256Transcript, proof: &ShuffleProof) -> Scalar {
    t.append_message(b"chain", &encode_points(&proof.chain));
    t.append_message(b"t", &encode_points(&proof.t_points()));
    t.challenge_scalar(b"c")
}
