//! Distributed deterministic tags (UnLynx's DDT), threshold-aware: equal plaintexts get equal
//! tags, so the servers can `GROUP BY` an encrypted attribute or match `WHERE attr = v`
//! without decrypting.
//!
//! # Protocol
//!
//! Before a query, each server `j` of the answering set `S` (`t` servers, in a fixed order
//! `j_1, …, j_t`) draws a fresh per-query secret `s_j ≠ 0` and publishes `S_j = s_j·B`
//! ([`tag_secret`]). Starting from the ciphertexts `(K, C) = (r·B, m·B + r·X)`, server `j`
//! in turn maps every ciphertext of its predecessor's output
//!
//! `(K, C) ↦ (s_j·K, s_j·(C − λ_j·x_j·K))`.
//!
//! By induction, after servers `j_1..j_k` the pair is `(σ·r·B, σ·(m + r·(x − Σ_{l≤k}
//! λ_{j_l}·x_{j_l}))·B)` with `σ = s_{j_1}···s_{j_k}` and `X = x·B`, so after all of `S`
//! (where `Σ_{j∈S} λ_j·x_j = x`) the second component is `(Π_{j∈S} s_j)·m·B`: the tag of `m` for this query, and the
//! first is discarded. The tag of a public value `v` ([`value_ciphertext`]) is obtained by
//! running the trivial ciphertext `(0, v·B)` through the same chain, so the querier (or
//! anyone) can find which group is `WHERE attr = v`.
//!
//! # Proof (one per server and step)
//!
//! With `u = s_j·λ_j·x_j`, the step is linear in the witness `(s_j, x_j, u)`:
//! `S_j = s_j·B`, `X_j = x_j·B`, `0 = u·B − x_j·(λ_j·S_j)` (which pins `u = s_j·λ_j·x_j`),
//! `K'_i = s_j·K_i`, `C'_i = s_j·C_i − u·K_i`. The transcript (domain
//! `"zeenot/cothority/tag/v1"`) absorbs `context, j, λ_j, S_j, X_j`, all inputs and all
//! outputs, and yields 128-bit weights `ρ_i` ([`super`]); the per-ciphertext equations are
//! proved for `K̂ = Σρ_i K_i`, `Ĉ = Σρ_i C_i`, `K̂' = Σρ_i K'_i`, `Ĉ' = Σρ_i C'_i` by one
//! sigma protocol with nonces `k_s, k_x, k_u`: `T_S = k_s·B`, `T_X = k_x·B`, `T_O = k_u·B −
//! k_x·λ_j·S_j`, `T_K = k_s·K̂`, `T_C = k_s·Ĉ − k_u·K̂`; responses `z_s, z_x, z_u`. The proof
//! is `(c, z_s, z_x, z_u)` (128 bytes).
//!
//! # What each party learns
//!
//! The tags reveal which records share a value (the point of `GROUP BY`) and nothing else
//! while one server of `S` keeps its `s_j` secret: a tag `σ·m·B` is a DDH-style blinding of
//! `m·B`, and tags of one query are unlinkable to another query's (fresh `s_j`). The
//! intermediate pairs are likewise blinded. A querier with the tag of `v` learns which group
//! has `attr = v`, which it asked for.

use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use zeroize::Zeroize;

use super::{
    batch_weights, check_index, encode_ciphertexts, hedged_nonces, same_challenge, DecodedCiphertexts,
    PAR_MIN,
};
use crate::curve::{Point, Scalar};
use crate::elgamal::{random_nonzero_scalar, Ciphertext};
use crate::error::{Error, Result};
use crate::transcript::{Sha256Transcript, Transcript};

const DOMAIN: &[u8] = b"zeenot/cothority/tag/v1";

/// Length of an encoded [`TagProof`].
pub const TAG_PROOF_LEN: usize = 128;

/// The aggregated proof of one server's tagging step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagProof {
    /// The challenge.
    pub c: Scalar,
    /// `k_s + c·s_j`.
    pub z_s: Scalar,
    /// `k_x + c·x_j`.
    pub z_x: Scalar,
    /// `k_u + c·s_j·λ_j·x_j`.
    pub z_u: Scalar,
}

impl TagProof {
    /// `c ‖ z_s ‖ z_x ‖ z_u`.
    pub fn encode(&self) -> [u8; TAG_PROOF_LEN] {
        let mut out = [0u8; TAG_PROOF_LEN];
        out.copy_from_slice(&super::encode_scalars(&[self.c, self.z_s, self.z_x, self.z_u]));
        out
    }

    /// Decodes `c ‖ z_s ‖ z_x ‖ z_u` (canonical scalars).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let [c, z_s, z_x, z_u] = super::decode_scalars::<4>(bytes)?;
        Ok(TagProof { c, z_s, z_x, z_u })
    }
}

/// A fresh per-query tagging secret `s_j` and its commitment `S_j = s_j·B` (publish `S_j`
/// before the query).
pub fn tag_secret<R: RngCore + CryptoRng>(rng: &mut R) -> (Scalar, Point) {
    let s = random_nonzero_scalar(rng);
    (s, Point::mul_base(&s))
}

/// The trivial ciphertext `(0, v·B)` whose chain output is the tag of the public value `v`.
pub fn value_ciphertext(v: i64) -> Ciphertext {
    super::trivial_ciphertext(v)
}

#[allow(clippy::too_many_arguments)]
fn transcript(
    context: &[u8],
    index: u32,
    lagrange: &Scalar,
    s_commit: &Point,
    share_key: &Point,
    inputs: &[u8],
    outputs: &[u8],
) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(DOMAIN);
    t.append_message(b"context", context);
    t.append_message(b"index", &index.to_le_bytes());
    t.append_scalar(b"lagrange", lagrange);
    t.append_point(b"S_j", s_commit);
    t.append_point(b"X_j", share_key);
    t.append_message(b"inputs", inputs);
    t.append_message(b"outputs", outputs);
    t
}

fn columns(cts: &[Ciphertext]) -> (Vec<Point>, Vec<Point>) {
    cts.iter().map(|c| (c.c1, c.c2)).unzip()
}

/// Server `index`'s tagging step on `cts` with its per-query secret `s_j`, share `x_j` and
/// Lagrange coefficient `λ_j`: the transformed ciphertexts and the step's proof.
pub fn tag_step<R: RngCore + CryptoRng>(
    secret: &Scalar,
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    cts: &[Ciphertext],
    context: &[u8],
    rng: &mut R,
) -> Result<(Vec<Ciphertext>, TagProof)> {
    step(secret, share, index, lagrange, cts, &encode_ciphertexts(cts), context, rng)
}

/// [`tag_step`] on ciphertexts decoded from bytes (the transcript absorbs those bytes).
pub fn tag_step_decoded<R: RngCore + CryptoRng>(
    secret: &Scalar,
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    cts: &DecodedCiphertexts<'_>,
    context: &[u8],
    rng: &mut R,
) -> Result<(Vec<Ciphertext>, TagProof)> {
    step(secret, share, index, lagrange, cts.ciphertexts(), cts.bytes(), context, rng)
}

#[allow(clippy::too_many_arguments)]
fn step<R: RngCore + CryptoRng>(
    secret: &Scalar,
    share: &Scalar,
    index: u32,
    lagrange: &Scalar,
    cts: &[Ciphertext],
    cts_bytes: &[u8],
    context: &[u8],
    rng: &mut R,
) -> Result<(Vec<Ciphertext>, TagProof)> {
    use ark_ff::Zero;
    check_index(index)?;
    if cts.is_empty() || cts.len() > super::MAX_BATCH {
        return Err(Error::InvalidParameter("a tagging batch holds 1 to 2^24 ciphertexts"));
    }
    if secret.is_zero() {
        return Err(Error::ZeroScalar);
    }
    let mut u = *secret * lagrange * share;
    let neg_u = -u;
    let out: Vec<Ciphertext> = cts
        .par_iter()
        .with_min_len(PAR_MIN)
        .map(|ct| Ciphertext {
            c1: ct.c1.mul_ct(secret),
            c2: Point::msm_ct(&[ct.c2, ct.c1], &[*secret, neg_u]),
        })
        .collect();
    let s_commit = Point::mul_base(secret);
    let share_key = Point::mul_base(share);
    let mut t =
        transcript(context, index, lagrange, &s_commit, &share_key, cts_bytes, &encode_ciphertexts(&out));
    let rho = batch_weights(&mut t, cts.len());
    let (ks, cs) = columns(cts);
    let (k_hat, c_hat) = rayon::join(|| Point::msm_vartime(&ks, &rho), || Point::msm_vartime(&cs, &rho));
    let mut n = hedged_nonces(DOMAIN, &t, &[secret, share, &u], 3, rng);
    let (k_s, k_x, k_u) = (n[0], n[1], n[2]);
    t.append_point(b"T_S", &Point::mul_base(&k_s));
    t.append_point(b"T_X", &Point::mul_base(&k_x));
    t.append_point(b"T_O", &(Point::mul_base(&k_u) - s_commit.mul_ct(&(k_x * lagrange))));
    t.append_point(b"T_K", &k_hat.mul_ct(&k_s));
    t.append_point(b"T_C", &Point::msm_ct(&[c_hat, k_hat], &[k_s, -k_u]));
    let c = t.challenge_scalar(b"c");
    let proof = TagProof { c, z_s: k_s + c * secret, z_x: k_x + c * share, z_u: k_u + c * u };
    n.zeroize();
    u.zeroize();
    Ok((out, proof))
}

/// Checks server `index`'s step from `inputs` to `outputs` against its commitment `S_j`, its
/// verification key `X_j`, its Lagrange coefficient and `context`.
#[allow(clippy::too_many_arguments)]
pub fn verify_tag_step(
    outputs: &[Ciphertext],
    proof: &TagProof,
    s_commit: &Point,
    share_key: &Point,
    index: u32,
    lagrange: &Scalar,
    inputs: &[Ciphertext],
    context: &[u8],
) -> Result<()> {
    verify(
        outputs,
        proof,
        [s_commit, share_key],
        index,
        lagrange,
        inputs,
        context,
        [&encode_ciphertexts(inputs), &encode_ciphertexts(outputs)],
    )
}

/// [`verify_tag_step`] on inputs and outputs decoded from bytes (the transcript absorbs those
/// bytes: no re-encoding).
#[allow(clippy::too_many_arguments)]
pub fn verify_tag_step_decoded(
    outputs: &DecodedCiphertexts<'_>,
    proof: &TagProof,
    s_commit: &Point,
    share_key: &Point,
    index: u32,
    lagrange: &Scalar,
    inputs: &DecodedCiphertexts<'_>,
    context: &[u8],
) -> Result<()> {
    verify(
        outputs.ciphertexts(),
        proof,
        [s_commit, share_key],
        index,
        lagrange,
        inputs.ciphertexts(),
        context,
        [inputs.bytes(), outputs.bytes()],
    )
}

/// `keys`: `[S_j, X_j]`; `encoded`: the canonical encodings of the inputs and the outputs.
#[allow(clippy::too_many_arguments)]
fn verify(
    outputs: &[Ciphertext],
    proof: &TagProof,
    keys: [&Point; 2],
    index: u32,
    lagrange: &Scalar,
    inputs: &[Ciphertext],
    context: &[u8],
    encoded: [&[u8]; 2],
) -> Result<()> {
    let [s_commit, share_key] = keys;
    let [inputs_bytes, outputs_bytes] = encoded;
    check_index(index)?;
    if inputs.is_empty() || inputs.len() > super::MAX_BATCH {
        return Err(Error::InvalidParameter("a tagging batch holds 1 to 2^24 ciphertexts"));
    }
    if outputs.len() != inputs.len() {
        return Err(Error::LengthMismatch { what: "one output per input ciphertext" });
    }
    if s_commit.is_identity() {
        return Err(Error::Identity);
    }
    let mut t = transcript(context, index, lagrange, s_commit, share_key, inputs_bytes, outputs_bytes);
    let rho = batch_weights(&mut t, inputs.len());
    let (ks, cs) = columns(inputs);
    let (ks2, cs2) = columns(outputs);
    let ((k_hat, c_hat), (k2_hat, c2_hat)) = rayon::join(
        || rayon::join(|| Point::msm_vartime(&ks, &rho), || Point::msm_vartime(&cs, &rho)),
        || rayon::join(|| Point::msm_vartime(&ks2, &rho), || Point::msm_vartime(&cs2, &rho)),
    );
    let TagProof { c, z_s, z_x, z_u } = *proof;
    let g = Point::generator();
    t.append_point(b"T_S", &Point::msm_vartime(&[g, *s_commit], &[z_s, -c]));
    t.append_point(b"T_X", &Point::msm_vartime(&[g, *share_key], &[z_x, -c]));
    t.append_point(b"T_O", &Point::msm_vartime(&[g, *s_commit], &[z_u, -(z_x * lagrange)]));
    t.append_point(b"T_K", &Point::msm_vartime(&[k_hat, k2_hat], &[z_s, -c]));
    t.append_point(b"T_C", &Point::msm_vartime(&[c_hat, k_hat, c2_hat], &[z_s, -z_u, -c]));
    same_challenge(&t.challenge_scalar(b"c"), &c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cothority::dkg::lagrange_at_zero;
    use crate::cothority::keyswitch::tests::keys;
    use crate::elgamal::PublicKey;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn equal_plaintexts_get_equal_tags_and_values_match() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let ks = keys(2, 3, &mut rng);
        let x = PublicKey::from_point(ks[0].public.collective).unwrap();
        let msgs = [3u64, 5, 3, 0, 5, 9];
        let mut cts: Vec<Ciphertext> = msgs.iter().map(|&m| x.encrypt(m, &mut rng)).collect();
        cts.push(value_ciphertext(5));
        cts.push(value_ciphertext(-1));
        let set = [3u32, 1];
        let secrets: Vec<(Scalar, Point)> = set.iter().map(|_| tag_secret(&mut rng)).collect();
        let mut cur = cts.clone();
        for (&j, (s, big_s)) in set.iter().zip(&secrets) {
            let k = &ks[j as usize - 1];
            let lam = lagrange_at_zero(&set, j).unwrap();
            let (out, proof) = tag_step(s, &k.secret.0, j, &lam, &cur, b"q", &mut rng).unwrap();
            let xj = k.public.verification_keys[j as usize - 1];
            verify_tag_step(&out, &proof, big_s, &xj, j, &lam, &cur, b"q").unwrap();
            cur = out;
        }
        let tags: Vec<Point> = cur.iter().map(|c| c.c2).collect();
        assert_eq!(tags[0], tags[2]);
        assert_eq!(tags[1], tags[4]);
        assert_eq!(tags[1], tags[6], "the tag of the public value 5 matches the encrypted 5s");
        assert_ne!(tags[0], tags[1]);
        assert_ne!(tags[0], tags[3]);
        assert_ne!(tags[5], tags[0]);
        assert_ne!(tags[7], tags[6]);
        let sigma = secrets[0].0 * secrets[1].0;
        assert_eq!(tags[5], Point::mul_base(&(sigma * Scalar::from(9u8))));
    }

    #[test]
    fn wrong_steps_are_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(12);
        let ks = keys(2, 3, &mut rng);
        let x = PublicKey::from_point(ks[0].public.collective).unwrap();
        let cts: Vec<Ciphertext> = (0..5).map(|m| x.encrypt(m, &mut rng)).collect();
        let set = [1u32, 2];
        let lam = lagrange_at_zero(&set, 1).unwrap();
        let xj = ks[0].public.verification_keys[0];
        let (s, big_s) = tag_secret(&mut rng);
        let (out, proof) = tag_step(&s, &ks[0].secret.0, 1, &lam, &cts, b"q", &mut rng).unwrap();
        let check = |o: &[Ciphertext], p: &TagProof, big_s: &Point| {
            verify_tag_step(o, p, big_s, &xj, 1, &lam, &cts, b"q")
        };
        check(&out, &proof, &big_s).unwrap();
        // a changed output (a record moved to another group), swapped outputs, replays
        let mut f = out.clone();
        f[1].c2 = f[2].c2;
        assert_eq!(check(&f, &proof, &big_s), Err(Error::InvalidProof));
        let mut f = out.clone();
        f.swap(0, 3);
        assert_eq!(check(&f, &proof, &big_s), Err(Error::InvalidProof));
        assert!(verify_tag_step(&out, &proof, &big_s, &xj, 1, &lam, &cts, b"q2").is_err());
        // another secret than the committed one
        let (_, other_s) = tag_secret(&mut rng);
        assert!(check(&out, &proof, &other_s).is_err());
        let (s2, _) = tag_secret(&mut rng);
        let (o2, p2) = tag_step(&s2, &ks[0].secret.0, 1, &lam, &cts, b"q", &mut rng).unwrap();
        assert!(check(&o2, &p2, &big_s).is_err());
        // the wrong key share
        let (o3, p3) = tag_step(&s, &ks[1].secret.0, 1, &lam, &cts, b"q", &mut rng).unwrap();
        assert!(check(&o3, &p3, &big_s).is_err());
        // skipping the step (outputs = inputs)
        assert!(check(&cts, &proof, &big_s).is_err());
    }
}
