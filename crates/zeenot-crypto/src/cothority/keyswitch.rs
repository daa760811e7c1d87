//! Threshold key switching with proofs (UnLynx §4's key switching, generalised to a `t`-of-`m`
//! key with Lagrange coefficients).
//!
//! # Protocol
//!
//! Ciphertexts `(K_i, C_i) = (r_i·B, m_i·B + r_i·X)` under the collective key `X`; a querier's
//! key `U = u·B`; an answering set `S` of `t` servers. Server `j ∈ S`, with share `x_j`,
//! verification key `X_j = x_j·B` and Lagrange coefficient `λ_j` (of `S`), publishes for every
//! ciphertext, with a fresh secret `v_i`,
//!
//! `A_ij = v_i·B`, `B_ij = v_i·U − λ_j·x_j·K_i`,
//!
//! and one proof for the whole batch. Anyone combines `K'_i = Σ_{j∈S} A_ij`,
//! `C'_i = C_i + Σ_{j∈S} B_ij` ([`combine_switches`]); since `Σ_{j∈S} λ_j·x_j = x`,
//! `C'_i − u·K'_i = m_i·B`: `(K'_i, C'_i)` encrypts `m_i` under `U` with fresh randomness
//! `Σ v_ij`. No server ever forms `m_i·B`.
//!
//! # Proof (one per server and batch)
//!
//! Statement: `context, j, λ_j, X_j, U, (K_i, C_i)_i, (A_i)_i, (B_i)_i`; witness `(x_j,
//! v_1..v_n)` with `X_j = x_j·B`, `A_i = v_i·B`, `B_i = v_i·U − λ_j·x_j·K_i`. The transcript
//! (domain `"zeenot/cothority/keyswitch/v1"`) absorbs the whole statement and yields 128-bit
//! weights `ρ_i` (see [`super`]); with `Â = Σρ_i A_i`, `B̂ = Σρ_i B_i`, `K̂ = Σρ_i K_i` and
//! `V = Σρ_i v_i` the relation becomes `Â = V·B`, `B̂ = V·U − λ_j·x_j·K̂`, proved by a
//! sigma protocol: nonces `k_x, k_v`; `T_1 = k_x·B`, `T_2 = k_v·B`, `T_3 = k_v·U −
//! λ_j·k_x·K̂`; `c` = the transcript's challenge after `T_1, T_2, T_3`; `z_x = k_x + c·x_j`,
//! `z_v = k_v + c·V`. The proof is `(c, z_x, z_v)` (96 bytes). The verifier computes `Â, B̂, K̂`
//! (three multi-scalar multiplications with 128-bit scalars), `T_1 = z_x·B − c·X_j`,
//! `T_2 = z_v·B − c·Â`, `T_3 = z_v·U − λ_j·z_x·K̂ − c·B̂`, and recomputes `c`.
//!
//! Why one aggregated proof rather than one per ciphertext: the proof is 96 bytes for any
//! batch instead of `96·n`, the prover's extra work per ciphertext is a share of one
//! multi-scalar multiplication instead of three scalar multiplications, and the verifier's is
//! three 128-bit terms of multi-scalar multiplications instead of a proof check; the price is
//! that a failing proof names the server but not which ciphertext it falsified (a server that
//! falsifies any is excluded as a whole, which is what a verifier does anyway).
//!
//! # What each party learns
//!
//! The switched ciphertexts reveal nothing to anyone without `u` (they are ElGamal encryptions
//! under `U` with randomness unknown to any single server); `A_ij, B_ij` alone are `v·B` and a
//! one-time-padded `−λ_j·x_j·K_i`. The querier learns the `m_i`, nothing of `x_j`.

use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use zeroize::Zeroize;

use super::{
    batch_weights, check_index, encode_points, hedged_nonces, same_challenge, DecodedCiphertexts,
    DecodedPoints, PAR_MIN,
};
use crate::ct::FixedBaseTable;
use crate::curve::{Point, Scalar};
use crate::elgamal::{random_nonzero_scalar, Ciphertext, PublicKey};
use crate::error::{Error, Result};
use crate::transcript::{Sha256Transcript, Transcript};

const DOMAIN: &[u8] = b"zeenot/cothority/keyswitch/v1";

/// Length of an encoded [`SwitchProof`].
pub const SWITCH_PROOF_LEN: usize = 96;

/// The aggregated proof of one server's key-switching batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchProof {
    /// The challenge.
    pub c: Scalar,
    /// `k_x + c·x_j`.
    pub z_x: Scalar,
    /// `k_v + c·Σρ_i v_i`.
    pub z_v: Scalar,
}

impl SwitchProof {
    /// `c ‖ z_x ‖ z_v`.
    pub fn encode(&self) -> [u8; SWITCH_PROOF_LEN] {
        let mut out = [0u8; SWITCH_PROOF_LEN];
        out.copy_from_slice(&super::encode_scalars(&[self.c, self.z_x, self.z_v]));
        out
    }

    /// Decodes `c ‖ z_x ‖ z_v` (canonical scalars).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let [c, z_x, z_v] = super::decode_scalars::<3>(bytes)?;
        Ok(SwitchProof { c, z_x, z_v })
    }
}

/// One server's key-switching contribution for a batch of ciphertexts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchBatch {
    /// The server's index `j`.
    pub index: u32,
    /// `A_i = v_i·B`.
    pub a: Vec<Point>,
    /// `B_i = v_i·U − λ_j·x_j·K_i`.
    pub b: Vec<Point>,
    /// The proof.
    pub proof: SwitchProof,
}

#[allow(clippy::too_many_arguments)]
fn transcript(
    context: &[u8],
    index: u32,
    lagrange: &Scalar,
    share_key: &Point,
    querier: &Point,
    cts: &[u8],
    a: &[u8],
    b: &[u8],
) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(DOMAIN);
    t.append_message(b"context", context);
    t.append_message(b"index", &index.to_le_bytes());
    t.append_scalar(b"lagrange", lagrange);
    t.append_point(b"X_j", share_key);
    t.append_point(b"U", querier);
    t.append_message(b"ciphertexts", cts);
    t.append_message(b"A", a);
    t.append_message(b"B", b);
    t
}

fn check_batch(n: usize) -> Result<()> {
    if n == 0 {
        return Err(Error::InvalidParameter("an empty batch"));
    }
    if n > super::MAX_BATCH {
        return Err(Error::InvalidParameter("too many ciphertexts in one batch"));
    }
    Ok(())
}

/// Server `index`'s key switch of `cts` to `querier` with its share `x_j` and Lagrange
/// coefficient `λ_j`, with the batch's proof bound to `context`.
pub fn key_switch<R: RngCore + CryptoRng>(
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &[Ciphertext],
    context: &[u8],
    rng: &mut R,
) -> Result<SwitchBatch> {
    switch(share, index, lagrange, querier, cts, &super::encode_ciphertexts(cts), context, rng)
}

/// [`key_switch`] of ciphertexts decoded from bytes (the transcript absorbs those bytes: no
/// re-encoding).
pub fn key_switch_decoded<R: RngCore + CryptoRng>(
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &DecodedCiphertexts<'_>,
    context: &[u8],
    rng: &mut R,
) -> Result<SwitchBatch> {
    switch(share, index, lagrange, querier, cts.ciphertexts(), cts.bytes(), context, rng)
}

#[allow(clippy::too_many_arguments)]
fn switch<R: RngCore + CryptoRng>(
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &[Ciphertext],
    cts_bytes: &[u8],
    context: &[u8],
    rng: &mut R,
) -> Result<SwitchBatch> {
    check_index(index)?;
    check_batch(cts.len())?;
    let u = *querier.point();
    let u_table = FixedBaseTable::new(&u);
    let mut w = *lagrange * share;
    let mut vs: Vec<Scalar> = (0..cts.len()).map(|_| random_nonzero_scalar(rng)).collect();
    let (a, b): (Vec<Point>, Vec<Point>) = cts
        .par_iter()
        .zip(vs.par_iter())
        .with_min_len(PAR_MIN)
        .map(|(ct, v)| (Point::mul_base(v), u_table.mul(v) - ct.c1.mul_ct(&w)))
        .unzip();
    let share_key = Point::mul_base(share);
    let mut t = transcript(
        context,
        index,
        lagrange,
        &share_key,
        &u,
        cts_bytes,
        &encode_points(&a),
        &encode_points(&b),
    );
    let rho = batch_weights(&mut t, cts.len());
    let ks: Vec<Point> = cts.iter().map(|c| c.c1).collect();
    let k_hat = Point::msm_vartime(&ks, &rho);
    let mut big_v: Scalar = vs.iter().zip(&rho).map(|(v, r)| *v * r).sum();
    let mut nonces = hedged_nonces(DOMAIN, &t, &[share, &big_v], 2, rng);
    let (kx, kv) = (nonces[0], nonces[1]);
    t.append_point(b"T1", &Point::mul_base(&kx));
    t.append_point(b"T2", &Point::mul_base(&kv));
    t.append_point(b"T3", &(u_table.mul(&kv) - k_hat.mul_ct(&(*lagrange * kx))));
    let c = t.challenge_scalar(b"c");
    let proof = SwitchProof { c, z_x: kx + c * share, z_v: kv + c * big_v };
    nonces.zeroize();
    big_v.zeroize();
    vs.zeroize();
    w.zeroize();
    Ok(SwitchBatch { index, a, b, proof })
}

/// Checks server `batch.index`'s batch against its verification key `X_j`, its Lagrange
/// coefficient, the input ciphertexts, the querier's key and `context`.
pub fn verify_key_switch(
    batch: &SwitchBatch,
    share_key: &Point,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &[Ciphertext],
    context: &[u8],
) -> Result<()> {
    verify(
        batch,
        share_key,
        lagrange,
        querier,
        cts,
        context,
        [&super::encode_ciphertexts(cts), &encode_points(&batch.a), &encode_points(&batch.b)],
    )
}

/// [`verify_key_switch`] of a batch and ciphertexts decoded from bytes (the transcript absorbs
/// those bytes: no re-encoding). The batch is `(index, a, b, proof)`.
#[allow(clippy::too_many_arguments)]
pub fn verify_key_switch_decoded(
    index: u32,
    a: DecodedPoints<'_>,
    b: DecodedPoints<'_>,
    proof: SwitchProof,
    share_key: &Point,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &DecodedCiphertexts<'_>,
    context: &[u8],
) -> Result<()> {
    let (a_bytes, b_bytes) = (a.bytes(), b.bytes());
    let batch = SwitchBatch { index, a: a.into_points(), b: b.into_points(), proof };
    verify(&batch, share_key, lagrange, querier, cts.ciphertexts(), context, [cts.bytes(), a_bytes, b_bytes])
}

/// `encoded`: the canonical encodings of the ciphertexts, `A` and `B`.
fn verify(
    batch: &SwitchBatch,
    share_key: &Point,
    lagrange: &Scalar,
    querier: &PublicKey,
    cts: &[Ciphertext],
    context: &[u8],
    encoded: [&[u8]; 3],
) -> Result<()> {
    let [cts_bytes, a_bytes, b_bytes] = encoded;
    check_index(batch.index)?;
    check_batch(cts.len())?;
    if batch.a.len() != cts.len() || batch.b.len() != cts.len() {
        return Err(Error::LengthMismatch { what: "one A and one B per ciphertext" });
    }
    let u = *querier.point();
    let mut t = transcript(context, batch.index, lagrange, share_key, &u, cts_bytes, a_bytes, b_bytes);
    let rho = batch_weights(&mut t, cts.len());
    let ks: Vec<Point> = cts.iter().map(|c| c.c1).collect();
    let (a_hat, (b_hat, k_hat)) = rayon::join(
        || Point::msm_vartime(&batch.a, &rho),
        || rayon::join(|| Point::msm_vartime(&batch.b, &rho), || Point::msm_vartime(&ks, &rho)),
    );
    let SwitchProof { c, z_x, z_v } = batch.proof;
    let g = Point::generator();
    t.append_point(b"T1", &Point::msm_vartime(&[g, *share_key], &[z_x, -c]));
    t.append_point(b"T2", &Point::msm_vartime(&[g, a_hat], &[z_v, -c]));
    t.append_point(b"T3", &Point::msm_vartime(&[u, k_hat, b_hat], &[z_v, -(*lagrange * z_x), -c]));
    same_challenge(&t.challenge_scalar(b"c"), &c)
}

/// The switched ciphertexts `(Σ_j A_ij, C_i + Σ_j B_ij)` from the batches of a whole answering
/// set (each verified beforehand).
pub fn combine_switches(cts: &[Ciphertext], batches: &[&SwitchBatch]) -> Result<Vec<Ciphertext>> {
    if batches.is_empty() {
        return Err(Error::InvalidParameter("no key-switching batches"));
    }
    if batches.iter().any(|b| b.a.len() != cts.len() || b.b.len() != cts.len()) {
        return Err(Error::LengthMismatch { what: "one A and one B per ciphertext" });
    }
    Ok(cts
        .par_iter()
        .enumerate()
        .with_min_len(256)
        .map(|(i, ct)| {
            let mut out = Ciphertext { c1: Point::identity(), c2: ct.c2 };
            for b in batches {
                out.c1 += b.a[i];
                out.c2 += b.b[i];
            }
            out
        })
        .collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cothority::dkg::{combine, deal, lagrange_at_zero, KeyShare};
    use crate::dlog::DlogTable;
    use crate::elgamal::SecretKey;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    pub(crate) fn keys(t: u32, m: u32, rng: &mut ChaCha20Rng) -> Vec<KeyShare> {
        let (dealings, shares): (Vec<_>, Vec<_>) =
            (1..=m).map(|i| deal(i, t, m, b"sid", rng).unwrap()).unzip();
        (1..=m)
            .map(|j| {
                let mine: Vec<Scalar> = shares.iter().map(|s: &Vec<_>| s[j as usize - 1].0).collect();
                combine(t, m, &dealings, j, &mine).unwrap()
            })
            .collect()
    }

    #[test]
    fn threshold_switch_decrypts_under_the_querier_key() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let ks = keys(2, 3, &mut rng);
        let x = PublicKey::from_point(ks[0].public.collective).unwrap();
        let q = SecretKey::random(&mut rng);
        let msgs = [0u64, 1, 42, 65535, 7];
        let mut cts: Vec<Ciphertext> = msgs.iter().map(|&m| x.encrypt(m, &mut rng)).collect();
        cts.push(crate::cothority::trivial_ciphertext(9));
        let table = DlogTable::new(16).unwrap();
        for set in [[1u32, 3], [2, 3], [2, 1]] {
            let batches: Vec<SwitchBatch> = set
                .iter()
                .map(|&j| {
                    let k = &ks[j as usize - 1];
                    let lam = lagrange_at_zero(&set, j).unwrap();
                    let b = key_switch(&k.secret.0, j, &lam, &q.public_key(), &cts, b"q1", &mut rng).unwrap();
                    let xj = k.public.verification_keys[j as usize - 1];
                    verify_key_switch(&b, &xj, &lam, &q.public_key(), &cts, b"q1").unwrap();
                    b
                })
                .collect();
            let refs: Vec<&SwitchBatch> = batches.iter().collect();
            let out = combine_switches(&cts, &refs).unwrap();
            let got: Vec<u64> = out.iter().map(|c| q.decrypt(c, &table).unwrap()).collect();
            assert_eq!(got, [0, 1, 42, 65535, 7, 9]);
        }
    }

    #[test]
    fn forged_switches_are_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        let ks = keys(2, 3, &mut rng);
        let x = PublicKey::from_point(ks[0].public.collective).unwrap();
        let q = SecretKey::random(&mut rng).public_key();
        let cts: Vec<Ciphertext> = (0..4).map(|m| x.encrypt(m, &mut rng)).collect();
        let set = [1u32, 2];
        let lam = lagrange_at_zero(&set, 1).unwrap();
        let xj = ks[0].public.verification_keys[0];
        let good = key_switch(&ks[0].secret.0, 1, &lam, &q, &cts, b"q", &mut rng).unwrap();
        verify_key_switch(&good, &xj, &lam, &q, &cts, b"q").unwrap();
        let bad = |b: &SwitchBatch| verify_key_switch(b, &xj, &lam, &q, &cts, b"q");
        // a falsified B (shifts the plaintext by one)
        let mut f = good.clone();
        f.b[2] += Point::generator();
        assert_eq!(bad(&f), Err(Error::InvalidProof));
        let mut f = good.clone();
        f.a[0] = f.a[1];
        assert_eq!(bad(&f), Err(Error::InvalidProof));
        // replayed to another query, another querier, another server's key, other inputs
        assert!(verify_key_switch(&good, &xj, &lam, &q, &cts, b"other").is_err());
        let q2 = SecretKey::random(&mut rng).public_key();
        assert!(verify_key_switch(&good, &xj, &lam, &q2, &cts, b"q").is_err());
        assert!(verify_key_switch(&good, &ks[1].public.verification_keys[1], &lam, &q, &cts, b"q").is_err());
        let mut other = cts.clone();
        other.swap(0, 1);
        assert!(verify_key_switch(&good, &xj, &lam, &q, &other, b"q").is_err());
        let mut f = good.clone();
        f.index = 2;
        assert!(bad(&f).is_err());
        // the wrong witness: a key share that is not x_j, or the wrong Lagrange coefficient
        let wrong =
            key_switch(&(ks[0].secret.0 + Scalar::from(1u8)), 1, &lam, &q, &cts, b"q", &mut rng).unwrap();
        assert!(bad(&wrong).is_err());
        let lam3 = lagrange_at_zero(&[1, 3], 1).unwrap();
        let wrong = key_switch(&ks[0].secret.0, 1, &lam3, &q, &cts, b"q", &mut rng).unwrap();
        assert!(bad(&wrong).is_err());
        // truncated
        let mut f = good.clone();
        f.a.pop();
        f.b.pop();
        assert!(bad(&f).is_err());
        assert!(key_switch(&ks[0].secret.0, 1, &lam, &q, &[], b"q", &mut rng).is_err());
    }
}
