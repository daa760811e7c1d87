//! `t`-of-`m` distributed key generation: Pedersen's DKG (joint Feldman VSS) with complaints
//! and a proof of knowledge of each dealer's constant term.
//!
//! # Protocol (Pedersen 1991, "A threshold cryptosystem without a trusted party"; the form of
//! Gennaro, Jarecki, Krawczyk and Rabin, "Secure distributed key generation for discrete-log
//! based cryptosystems", Eurocrypt 1999 / J. Cryptology 2007, §3 "JF-DKG")
//!
//! Servers `1..=m`, threshold `t` (`1 ≤ t ≤ m`: any `t` servers can use the key, fewer learn
//! nothing of it), a session identifier `sid` agreed beforehand, `B = Base8`.
//!
//! 1. **Deal.** Dealer `i` draws a random polynomial `f_i(z) = a_i0 + a_i1·z + … +
//!    a_i(t−1)·z^(t−1)` and publishes the Feldman commitments `A_ik = a_ik·B` (`k < t`) with a
//!    Schnorr proof of knowledge of `a_i0` (below). It sends `s_ij = f_i(j)` to server `j`
//!    privately (over an authenticated, encrypted channel; this module does not transport).
//! 2. **Verify.** Everyone checks each dealing ([`verify_dealing`]: `t` commitments, no
//!    identity `A_i0`, the proof). Server `j` checks its share ([`verify_share`]:
//!    `s_ij·B = Σ_k j^k·A_ik`) and broadcasts a complaint `(i, j)` against each dealer whose
//!    share fails (or never came).
//! 3. **Resolve.** A dealer answers a complaint `(i, j)` by publishing `s_ij`; everyone checks
//!    it with [`resolve_complaint`] (the same equation). A dealer whose dealing is invalid, or
//!    who leaves a complaint unanswered or answers it with a wrong share, is disqualified. `Q`
//!    is the set of dealers not disqualified (the same for every honest server, as it depends
//!    only on broadcast messages).
//! 4. **Combine** ([`combine`]). Collective key `X = Σ_{i∈Q} A_i0`; server `j`'s secret share
//!    `x_j = Σ_{i∈Q} s_ij`; every server's public verification key
//!    `X_j = Σ_{i∈Q} Σ_k j^k·A_ik = x_j·B`, computable by anyone. The shares `x_j` are points
//!    of the degree-`t−1` polynomial `F = Σ_{i∈Q} f_i` with `F(0) = x`, `X = x·B`, so for any
//!    set `S` of `t` servers `x = Σ_{j∈S} λ_j·x_j` with the Lagrange coefficients at zero
//!    `λ_j = Π_{k∈S, k≠j} k/(k − j)` ([`lagrange_at_zero`]).
//!
//! **Proof of knowledge** (no rogue keys): `R = k·B`, `c = H("zeenot/cothority/dkg/v1";
//! sid, t, m, i, A_i0..A_i(t−1), R)`, `z = k + c·a_i0`; proof `(c, z)`, checked by recomputing
//! `R = z·B − c·A_i0`. As the proof binds the dealer's index and the session, a dealer cannot
//! copy another's commitment (nor choose `A_i0` as a function of others' to cancel them
//! without knowing its discrete log) and a proof does not replay into another session.
//!
//! # What each party learns
//!
//! Everyone: all commitments, hence `X` and every `X_j`, and the shares revealed in answer to
//! complaints (a complaint by a corrupt server makes the dealer reveal that server's share,
//! which it could have had anyway). Server `j`: additionally `s_ij` for every `i`, hence
//! `x_j`. Fewer than `t` servers together learn nothing about `x` beyond `X`.
//!
//! # Known caveat
//!
//! Gennaro et al. (1999) show that in JF-DKG an adversary controlling dealers can bias the
//! distribution of the public key `X` (by deciding, after seeing the honest dealings, whether
//! its own dealers get disqualified, e.g. by making complaints resolve badly). The key is then
//! not uniformly distributed, and their "New-DKG" (Pedersen-VSS commitments first) fixes that.
//! They also prove (Gennaro, Jarecki, Krawczyk, Rabin, "Secure applications of Pedersen's
//! distributed key generation protocol", CT-RSA 2003) that JF-DKG is nonetheless secure for
//! threshold Schnorr signatures and ElGamal-type encryption / threshold decryption: the
//! adversary's influence over `X` does not help it decrypt. Key switching and deterministic
//! tags here are threshold decryption operations in that sense, so this module uses JF-DKG.

use rand::{CryptoRng, RngCore};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{check_index, hedged_nonces, same_challenge};
use crate::curve::{Point, Scalar};
use crate::error::{Error, Result};
use crate::generators::random_nonzero_scalar;
use crate::transcript::{Sha256Transcript, Transcript};

const DOMAIN: &[u8] = b"zeenot/cothority/dkg/v1";

/// Length of an encoded [`Pok`].
pub const POK_LEN: usize = 64;

/// A Schnorr proof of knowledge of `a_i0` with `A_i0 = a_i0·B`, bound to the dealing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pok {
    /// The challenge.
    pub c: Scalar,
    /// The response `k + c·a_i0`.
    pub z: Scalar,
}

impl Pok {
    /// `c ‖ z`.
    pub fn encode(&self) -> [u8; POK_LEN] {
        let mut out = [0u8; POK_LEN];
        out[..32].copy_from_slice(&crate::curve::encode_scalar(&self.c));
        out[32..].copy_from_slice(&crate::curve::encode_scalar(&self.z));
        out
    }

    /// Decodes `c ‖ z` (canonical scalars).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let [c, z] = super::decode_scalars::<2>(bytes)?;
        Ok(Pok { c, z })
    }
}

/// A dealer's public message: its index, its Feldman commitments `A_i0..A_i(t−1)` and the
/// proof of knowledge of `a_i0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealing {
    /// The dealer's index `i ∈ 1..=m`.
    pub dealer: u32,
    /// `A_ik = a_ik·B`, `k = 0..t`.
    pub commitments: Vec<Point>,
    /// The proof of knowledge of `a_i0`.
    pub pok: Pok,
}

/// A secret share `s_ij` (wiped on drop).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct Share(pub Scalar);

impl core::fmt::Debug for Share {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Share(<redacted>)")
    }
}

/// Checks `1 ≤ t ≤ m ≤ MAX_SERVERS`.
pub fn check_params(t: u32, m: u32) -> Result<()> {
    if t == 0 || t > m {
        return Err(Error::InvalidParameter("threshold t must satisfy 1 <= t <= m"));
    }
    check_index(m)
}

fn pok_transcript(session: &[u8], t: u32, m: u32, dealer: u32, commitments: &[Point]) -> Sha256Transcript {
    let mut tr = Sha256Transcript::new(DOMAIN);
    tr.append_message(b"session", session);
    tr.append_message(b"t", &t.to_le_bytes());
    tr.append_message(b"m", &m.to_le_bytes());
    tr.append_message(b"dealer", &dealer.to_le_bytes());
    tr.append_message(b"commitments", &super::encode_points(commitments));
    tr
}

/// Dealer `dealer`'s dealing for threshold `t` of `m` in `session`: the public [`Dealing`]
/// and the private shares, `shares[j − 1] = f(j)` for `j = 1..=m` (the dealer's own included).
pub fn deal<R: RngCore + CryptoRng>(
    dealer: u32,
    t: u32,
    m: u32,
    session: &[u8],
    rng: &mut R,
) -> Result<(Dealing, Vec<Share>)> {
    check_params(t, m)?;
    if dealer > m {
        return Err(Error::InvalidParameter("dealer index outside 1..=m"));
    }
    check_index(dealer)?;
    let mut coeffs: Vec<Scalar> = (0..t).map(|_| random_nonzero_scalar(rng)).collect();
    let commitments: Vec<Point> = coeffs.iter().map(Point::mul_base).collect();
    let shares = (1..=m).map(|j| Share(eval(&coeffs, j))).collect();
    let mut tr = pok_transcript(session, t, m, dealer, &commitments);
    let mut k = hedged_nonces(DOMAIN, &tr, &[&coeffs[0]], 1, rng).remove(0);
    tr.append_point(b"R", &Point::mul_base(&k));
    let c = tr.challenge_scalar(b"c");
    let z = k + c * coeffs[0];
    k.zeroize();
    coeffs.zeroize();
    Ok((Dealing { dealer, commitments, pok: Pok { c, z } }, shares))
}

/// `f(j)` by Horner's rule.
fn eval(coeffs: &[Scalar], j: u32) -> Scalar {
    let x = Scalar::from(j);
    coeffs.iter().rev().fold(Scalar::from(0u8), |acc, a| acc * x + a)
}

/// Checks a dealing's shape for `(t, m)` and its proof of knowledge in `session`.
pub fn verify_dealing(d: &Dealing, t: u32, m: u32, session: &[u8]) -> Result<()> {
    check_params(t, m)?;
    check_index(d.dealer)?;
    if d.dealer > m {
        return Err(Error::InvalidParameter("dealer index outside 1..=m"));
    }
    if d.commitments.len() != t as usize {
        return Err(Error::LengthMismatch { what: "a dealing has exactly t commitments" });
    }
    if d.commitments[0].is_identity() {
        return Err(Error::Identity);
    }
    let mut tr = pok_transcript(session, t, m, d.dealer, &d.commitments);
    let r = Point::msm_vartime(&[Point::generator(), d.commitments[0]], &[d.pok.z, -d.pok.c]);
    tr.append_point(b"R", &r);
    same_challenge(&tr.challenge_scalar(b"c"), &d.pok.c)
}

/// `Σ_k j^k·A_k`: the public image `f(j)·B` of server `j`'s share under these commitments.
pub fn share_image(commitments: &[Point], j: u32) -> Point {
    let x = Scalar::from(j);
    let mut pow = Scalar::from(1u8);
    let powers: Vec<Scalar> = commitments
        .iter()
        .map(|_| {
            let p = pow;
            pow *= x;
            p
        })
        .collect();
    Point::msm_vartime(commitments, &powers)
}

/// Server `j`'s check of its share from a dealing: `s·B = Σ_k j^k·A_ik`.
pub fn verify_share(d: &Dealing, j: u32, share: &Scalar) -> Result<()> {
    check_index(j)?;
    if Point::mul_base(share) == share_image(&d.commitments, j) {
        Ok(())
    } else {
        Err(Error::InvalidShare)
    }
}

/// Everyone's check of the share `s_ij` that dealer `i` revealed in answer to server `j`'s
/// complaint: the same equation as [`verify_share`], on a now public share. A failure
/// disqualifies the dealer.
pub fn resolve_complaint(d: &Dealing, complainer: u32, revealed: &Scalar) -> Result<()> {
    verify_share(d, complainer, revealed)
}

/// The public outcome of a DKG: the collective key and every server's verification key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKeys {
    /// `X = Σ_{i∈Q} A_i0`.
    pub collective: Point,
    /// `X_j` for `j = 1..=m` (`verification_keys[j − 1]`).
    pub verification_keys: Vec<Point>,
}

/// A server's result of the DKG: its index, its secret share and the public keys.
#[derive(Clone)]
pub struct KeyShare {
    /// The server's index `j`.
    pub index: u32,
    /// `x_j = Σ_{i∈Q} s_ij`.
    pub secret: Share,
    /// The collective key and every verification key.
    pub public: PublicKeys,
}

impl core::fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyShare").field("index", &self.index).field("public", &self.public).finish()
    }
}

/// The collective key and verification keys from the qualified dealings (each already
/// checked with [`verify_dealing`]; here only their shape and distinct dealers are checked).
pub fn combine_public(t: u32, m: u32, qualified: &[Dealing]) -> Result<PublicKeys> {
    check_params(t, m)?;
    if qualified.is_empty() {
        return Err(Error::InvalidParameter("no qualified dealings"));
    }
    let mut seen = vec![false; m as usize + 1];
    let mut sums = vec![Point::identity(); t as usize];
    for d in qualified {
        if d.dealer == 0 || d.dealer > m || std::mem::replace(&mut seen[d.dealer as usize], true) {
            return Err(Error::InvalidParameter("dealers must be distinct indices in 1..=m"));
        }
        if d.commitments.len() != t as usize {
            return Err(Error::LengthMismatch { what: "a dealing has exactly t commitments" });
        }
        for (s, a) in sums.iter_mut().zip(&d.commitments) {
            *s += *a;
        }
    }
    if sums[0].is_identity() {
        return Err(Error::Identity);
    }
    let verification_keys = (1..=m).map(|j| share_image(&sums, j)).collect();
    Ok(PublicKeys { collective: sums[0], verification_keys })
}

/// Server `j`'s [`KeyShare`] from the qualified dealings and the shares it received from them
/// (`shares[k]` from `qualified[k]`), each share checked against its dealing.
pub fn combine(t: u32, m: u32, qualified: &[Dealing], j: u32, shares: &[Scalar]) -> Result<KeyShare> {
    let public = combine_public(t, m, qualified)?;
    if j == 0 || j > m {
        return Err(Error::InvalidParameter("server index outside 1..=m"));
    }
    if shares.len() != qualified.len() {
        return Err(Error::LengthMismatch { what: "one share per qualified dealing" });
    }
    let mut x = Scalar::from(0u8);
    for (d, s) in qualified.iter().zip(shares) {
        verify_share(d, j, s)?;
        x += s;
    }
    Ok(KeyShare { index: j, secret: Share(x), public })
}

/// The Lagrange coefficient at zero of server `j` in the set `set` (distinct indices in
/// `1..=MAX_SERVERS`, containing `j`): `λ_j = Π_{k∈S, k≠j} k / (k − j)`.
pub fn lagrange_at_zero(set: &[u32], j: u32) -> Result<Scalar> {
    use ark_ff::Field;
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            return Err(Error::InvalidParameter("repeated index in the answering set"));
        }
    }
    for &k in set {
        check_index(k)?;
    }
    if !set.contains(&j) {
        return Err(Error::InvalidParameter("the server is not in the answering set"));
    }
    let (mut num, mut den) = (Scalar::from(1u8), Scalar::from(1u8));
    for &k in set.iter().filter(|&&k| k != j) {
        num *= Scalar::from(k);
        den *= Scalar::from(k) - Scalar::from(j);
    }
    let inv = den.inverse().ok_or(Error::InvalidParameter("repeated index in the answering set"))?;
    Ok(num * inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn run(t: u32, m: u32, rng: &mut ChaCha20Rng) -> (Vec<Dealing>, Vec<Vec<Share>>) {
        (1..=m).map(|i| deal(i, t, m, b"sid", rng).unwrap()).unzip()
    }

    #[test]
    fn dkg_shares_reconstruct_the_key_from_any_t() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let (t, m) = (2, 3);
        let (dealings, shares) = run(t, m, &mut rng);
        for d in &dealings {
            verify_dealing(d, t, m, b"sid").unwrap();
        }
        let keys: Vec<KeyShare> = (1..=m)
            .map(|j| {
                let mine: Vec<Scalar> = shares.iter().map(|s| s[j as usize - 1].0).collect();
                combine(t, m, &dealings, j, &mine).unwrap()
            })
            .collect();
        let x_pub = keys[0].public.collective;
        for k in &keys {
            assert_eq!(k.public, keys[0].public);
            assert_eq!(Point::mul_base(&k.secret.0), k.public.verification_keys[k.index as usize - 1]);
        }
        for set in [[1u32, 2], [1, 3], [2, 3], [3, 1]] {
            let x: Scalar =
                set.iter().map(|&j| lagrange_at_zero(&set, j).unwrap() * keys[j as usize - 1].secret.0).sum();
            assert_eq!(Point::mul_base(&x), x_pub);
        }
        // Fewer than t do not give the key.
        let lone = lagrange_at_zero(&[1], 1).unwrap() * keys[0].secret.0;
        assert_ne!(Point::mul_base(&lone), x_pub);
    }

    #[test]
    fn forged_dealings_and_shares_are_rejected() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let (t, m) = (2, 3);
        let (d, shares) = deal(1, t, m, b"sid", &mut rng).unwrap();
        assert_eq!(verify_dealing(&d, t, m, b"other session"), Err(Error::InvalidProof));
        let mut moved = d.clone();
        moved.dealer = 2;
        assert_eq!(verify_dealing(&moved, t, m, b"sid"), Err(Error::InvalidProof));
        // A rogue key: someone else's A_0 with a proof made for another dealing.
        let (other, _) = deal(2, t, m, b"sid", &mut rng).unwrap();
        let mut rogue = d.clone();
        rogue.commitments[0] = other.commitments[0];
        assert_eq!(verify_dealing(&rogue, t, m, b"sid"), Err(Error::InvalidProof));
        let mut short = d.clone();
        short.commitments.pop();
        assert!(verify_dealing(&short, t, m, b"sid").is_err());
        assert!(verify_dealing(&d, 4, 3, b"sid").is_err());
        // shares: right one accepted, a wrong value or index rejected
        verify_share(&d, 2, &shares[1].0).unwrap();
        assert_eq!(verify_share(&d, 2, &(shares[1].0 + Scalar::from(1u8))), Err(Error::InvalidShare));
        assert_eq!(verify_share(&d, 3, &shares[1].0), Err(Error::InvalidShare));
        resolve_complaint(&d, 3, &shares[2].0).unwrap();
        assert!(resolve_complaint(&d, 3, &shares[0].0).is_err());
        // combine checks the shares it is given
        let mine = [shares[0].0];
        assert!(combine(t, m, std::slice::from_ref(&d), 2, &mine).is_err());
        assert!(combine(t, m, &[d.clone(), d.clone()], 1, &[mine[0], mine[0]]).is_err());
    }

    #[test]
    fn lagrange_rejects_bad_sets() {
        assert!(lagrange_at_zero(&[1, 1], 1).is_err());
        assert!(lagrange_at_zero(&[1, 2], 3).is_err());
        assert!(lagrange_at_zero(&[0, 2], 2).is_err());
        assert_eq!(lagrange_at_zero(&[5], 5).unwrap(), Scalar::from(1u8));
    }
}
