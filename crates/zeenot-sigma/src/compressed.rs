//! Compressed sigma proofs of AND statements: logarithmic in the number of secrets and
//! independent of the number of equations (Attema and Cramer, *Compressed Σ-Protocol Theory and
//! Practical Application to Plug & Play Secure Algorithmics*, CRYPTO 2020: commit to the
//! witness, amortise the linear relations with one challenge, and replace the response by a
//! folding argument).
//!
//! **Statement.** Secrets `x ∈ Z_l^n` with `X_e = Σ_{(s,E) ∈ e} x_s·E` for every equation `e`
//! (an AND of equations, no OR). Write `N` for `n` rounded up to a power of two, `x` padded
//! with zeros, and `G_0 … G_{N−1}` for the Bulletproof vector generators ([`BulletproofGens`]),
//! `H` for zeenot's blinding generator.
//!
//! **Prover.**
//! 1. `P = ⟨x, G⟩ + γ·H` (random `γ`) fixes the witness; challenge `ρ`. The equations become
//!    one, `Y = ⟨x, B⟩`, with `Y = Σ_e ρ^e·X_e` and `B_s = Σ_{(s,E) ∈ e} ρ^e·E`.
//! 2. `A₁ = ⟨r, G⟩ + η·H`, `A₂ = ⟨r, B⟩` for random `r`, `η`; challenge `c`; `z = r + c·x`,
//!    `φ = η + c·γ`, and `φ` is sent. What remains is knowledge of `z` with
//!    `⟨z, G⟩ = A₁ + c·P − φ·H` and `⟨z, B⟩ = A₂ + c·Y`.
//! 3. Instead of `z` (`N` scalars), `log2 N` folding rounds: send `L = (⟨z_lo, G_hi⟩, ⟨z_lo, B_hi⟩)`
//!    and `R = (⟨z_hi, G_lo⟩, ⟨z_hi, B_lo⟩)`, get a 128-bit `u`, fold `z' = u·z_lo + z_hi`,
//!    `G' = G_lo + u·G_hi`, `B' = B_lo + u·B_hi` (`⟨z', G'⟩ = u·⟨z, G⟩ + u²·L + R`); the targets
//!    become `u·T + u²·L + R`. Then send the last `z`. (The usual `u`/`u⁻¹` fold would make every
//!    generator multiplication full-length; this one halves the prover's folding.)
//!
//! **Verifier.** With `s_i = Π u_k` over the rounds that put `i` in the high half, both final
//! checks `z·Σ s_i·G_i = T₁` and `z·Σ s_i·B_i = T₂`, where the targets start at
//! `A₁ + c·P − φ·H` and `A₂ + c·Y` and fold as above, each times a random weight, in one
//! multi-exponentiation over the statement's elements (`B` and `Y` are never formed: their
//! coefficients are merged per element), the generators and the proof's `2 + 4·log2 N` points.
//!
//! **Soundness.** Folding is special-sound for any group homomorphism (three transcripts of a
//! round give a preimage by Vandermonde interpolation, with no computational assumption; with
//! 128-bit challenges a round's soundness error is at most 2/2^128), and
//! steps 2–3 form a sigma protocol for `(x, γ) ↦ (⟨x, G⟩ + γ·H, ⟨x, B⟩)`. Combining the equations
//! with `ρ` needs the witness fixed first: `P` binds `x` (a second opening is a discrete-log
//! relation among `G_i` and `H`, which nobody knows), so witnesses extracted for `m` distinct
//! `ρ` are one `x` satisfying `Σ_e ρ^e·(X_e − ⟨x, B_e⟩) = 0` for each, hence every equation
//! (Vandermonde again); a false statement passes a random `ρ` with probability at most `m/l`.
//! The generators are the range proofs': each argument's extractor needs only that no relation
//! among them is known.
//!
//! **Zero knowledge.** `P`, `A₁` hide `x` and `r` (`γ`, `η`); `z` is uniform given the rest (it is
//! what the uncompressed protocol sends in the clear), and the folding messages are functions of
//! `z` and public values, so a simulator picks `z`, `φ`, `P` and solves for `A₁`, `A₂`.
//! Multi-exponentiations with `x` or `r` are constant time; the folding, whose scalars are
//! functions of `z`, is variable time.
//!
//! **Transcript.** `Sha256Transcript("zeenot/sigma/compressed/v1")`: the caller's context, the
//! whole statement ([`Statement::absorb`]), `P` → `ρ`; `A₁, A₂` → `c`; `φ`; `L₁, L₂, R₁, R₂` → `u`
//! per round; the proof ends with `z`. Every challenge hashes everything before it.
//!
//! **Size.** `32·(5 + 4·log2 N)` bytes: 1,824 bytes for up to 8,192 secrets (loyalty at 64
//! purchases), against `32·(n + m)` for [`crate::proof::Proof`] (one response per secret, one
//! commitment per equation).

use ark_ff::{Field, One, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{decode_scalar, encode_scalar, Point, Scalar, Sha256Transcript, Transcript};
use zeroize::Zeroize;

use crate::bulletproofs::{
    challenge, fold, folding_challenge, folding_weights, powers, BulletproofGens, MsmTerms, MAX_ROUNDS,
};
use crate::error::{Error, Result};
use crate::statement::Statement;

/// The Fiat–Shamir domain separator of compressed sigma proofs.
pub const COMPRESSED_DOMAIN: &[u8] = b"zeenot/sigma/compressed/v1";

/// A compressed proof of an AND statement (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedProof {
    /// `P = ⟨x, G⟩ + γ·H`.
    pub commitment: Point,
    /// `A₁ = ⟨r, G⟩ + η·H`.
    pub a1: Point,
    /// `A₂ = ⟨r, B⟩`.
    pub a2: Point,
    /// `φ = η + c·γ`.
    pub phi: Scalar,
    /// Per round `[L₁, L₂, R₁, R₂]`.
    pub rounds: Vec<[Point; 4]>,
    /// The folded response.
    pub z: Scalar,
}

/// The vector length `N`: the secrets, rounded up to a power of two.
pub fn padded_len(statement: &Statement) -> usize {
    statement.secret_names().len().next_power_of_two()
}

fn start(statement: &Statement, context: &[u8]) -> Result<Sha256Transcript> {
    if !statement.layout.ors.is_empty() {
        return Err(Error::Statement(
            "a compressed proof covers AND statements only (this one has an OR)".into(),
        ));
    }
    let mut t = Sha256Transcript::new(COMPRESSED_DOMAIN);
    t.append_message(b"context", context);
    statement.absorb(&mut t);
    Ok(t)
}

/// `B_s = Σ_{(s,E) ∈ e} ρ^e·E` per secret (the prover folds these points).
fn combined_bases(statement: &Statement, rho_pows: &[Scalar]) -> Vec<Point> {
    use rayon::prelude::*;
    let mut terms: Vec<Vec<(usize, Scalar)>> = vec![Vec::new(); statement.secret_names().len()];
    for (eq, w) in statement.equations().iter().zip(rho_pows) {
        for (s, e) in &eq.terms {
            terms[s.0].push((e.0, *w));
        }
    }
    let elements = statement.elements();
    terms
        .par_iter()
        .with_min_len(64)
        .map(|ts| {
            let bases: Vec<Point> = ts.iter().map(|(e, _)| elements[*e]).collect();
            let scalars: Vec<Scalar> = ts.iter().map(|(_, w)| *w).collect();
            Point::msm_vartime(&bases, &scalars)
        })
        .collect()
}

/// Proves `statement` (AND only) with `witness` (one value per secret).
pub fn prove<R: RngCore + CryptoRng>(
    gens: &BulletproofGens,
    statement: &Statement,
    witness: &[Scalar],
    context: &[u8],
    rng: &mut R,
) -> Result<CompressedProof> {
    let n = statement.secret_names().len();
    if witness.len() != n {
        return Err(Error::Witness(format!("{} secrets given, the statement has {n}", witness.len())));
    }
    let nn = padded_len(statement);
    if gens.capacity() < nn {
        return Err(Error::Statement(format!("{nn} generators needed, {} derived", gens.capacity())));
    }
    let h = blinding_generator();
    let mut t = start(statement, context)?;

    let mut gamma = Scalar::rand(rng);
    let mut x = witness.to_vec();
    x.push(gamma);
    let mut g_and_h: Vec<Point> = gens.g_vec()[..n].to_vec();
    g_and_h.push(h);
    let commitment = Point::msm_ct(&g_and_h, &x);
    x.pop();
    t.append_point(b"P", &commitment);
    let rho = challenge(&mut t, b"rho")?;
    let b_vec = combined_bases(statement, &powers(rho, statement.equations().len()));

    // Padding positions carry x = 0 and a random nonce like every other.
    let mut r: Vec<Scalar> = (0..nn).map(|_| Scalar::rand(rng)).collect();
    let mut eta = Scalar::rand(rng);
    r.push(eta);
    let mut g_pad_h: Vec<Point> = gens.g_vec()[..nn].to_vec();
    g_pad_h.push(h);
    let a1 = Point::msm_ct(&g_pad_h, &r);
    r.pop();
    let a2 = Point::msm_ct(&b_vec, &r[..n]);
    t.append_point(b"A1", &a1);
    t.append_point(b"A2", &a2);
    let c = challenge(&mut t, b"c")?;

    let mut z: Vec<Scalar> =
        (0..nn).map(|i| r[i] + c * x.get(i).copied().unwrap_or_else(Scalar::zero)).collect();
    r.zeroize();
    x.zeroize();
    let phi = eta + c * gamma;
    gamma.zeroize();
    eta.zeroize();
    t.append_scalar(b"phi", &phi);

    // Folding with 128-bit challenges: `G' = G_lo + u·G_hi` costs one half-length
    // multiplication per pair. `z` is public-equivalent (see the module documentation), so
    // every multi-exponentiation below is variable time.
    let mut g = gens.g_vec()[..nn].to_vec();
    let mut b = b_vec;
    b.resize(nn, Point::identity());
    let mut rounds = Vec::with_capacity(nn.trailing_zeros() as usize);
    let mut len = nn;
    while len > 1 {
        let half = len / 2;
        let ((l1, l2), (r1, r2)) = rayon::join(
            || {
                rayon::join(
                    || Point::msm_vartime(&g[half..len], &z[..half]),
                    || Point::msm_vartime(&b[half..len], &z[..half]),
                )
            },
            || {
                rayon::join(
                    || Point::msm_vartime(&g[..half], &z[half..len]),
                    || Point::msm_vartime(&b[..half], &z[half..len]),
                )
            },
        );
        let msg = [l1, l2, r1, r2];
        for p in &msg {
            t.append_point(b"LR", p);
        }
        rounds.push(msg);
        let u = folding_challenge(&mut t)?;
        for i in 0..half {
            z[i] = z[i] * u + z[half + i];
        }
        z.truncate(half);
        if half > 1 {
            let k = vec![u; half];
            fold(&mut g[..len], &k);
            fold(&mut b[..len], &k);
        }
        len = half;
    }
    Ok(CompressedProof { commitment, a1, a2, phi, rounds, z: z[0] })
}

/// The verification equations of `proof`, each times an independent weight from `weight`,
/// added to `terms` (they hold iff the terms sum to the identity). Fails for a malformed proof
/// (never [`Error::InvalidProof`], except for a zero challenge: the caller checks the sum).
pub fn verification_terms(
    statement: &Statement,
    proof: &CompressedProof,
    context: &[u8],
    mut weight: impl FnMut() -> Scalar,
    terms: &mut MsmTerms,
) -> Result<()> {
    let nn = padded_len(statement);
    let k = nn.trailing_zeros() as usize;
    if proof.rounds.len() != k {
        return Err(Error::Encoding(format!(
            "the proof has {} folding rounds, {} secrets need {k}",
            proof.rounds.len(),
            statement.secret_names().len()
        )));
    }
    let mut t = start(statement, context)?;
    t.append_point(b"P", &proof.commitment);
    let rho = challenge(&mut t, b"rho")?;
    t.append_point(b"A1", &proof.a1);
    t.append_point(b"A2", &proof.a2);
    let c = challenge(&mut t, b"c")?;
    t.append_scalar(b"phi", &proof.phi);
    let mut us = Vec::with_capacity(k);
    for msg in &proof.rounds {
        for p in msg {
            t.append_point(b"LR", p);
        }
        us.push(folding_challenge(&mut t)?);
    }

    // The targets fold as `T' = u·T + u²·L + R`, so the last one is
    // `(Π u)·T_0 + Σ_j (Π_{j' > j} u_j')·(u_j²·L_j + R_j)`.
    let (s, suffix) = folding_weights(&us);
    let all = suffix[0];

    let (w1, w2) = (weight(), weight());
    let z = proof.z;
    // w1·(z·Σ s_i·G_i − Π u·(A₁ + c·P − φ·H) − Σ_j suffix_{j+1}·(u_j²·L₁ⱼ + R₁ⱼ))
    // + w2·(z·Σ s_i·B_i − Π u·(A₂ + c·Y) − Σ_j suffix_{j+1}·(u_j²·L₂ⱼ + R₂ⱼ)) = 0
    if terms.g_vec.len() < nn {
        terms.g_vec.resize(nn, Scalar::zero());
        terms.h_vec.resize(nn, Scalar::zero());
    }
    for (i, s_i) in s.iter().enumerate() {
        terms.g_vec[i] += w1 * z * s_i;
    }
    terms.h += w1 * all * proof.phi;
    terms.add(proof.a1, -(w1 * all));
    terms.add(proof.commitment, -(w1 * all * c));
    terms.add(proof.a2, -(w2 * all));
    for (j, msg) in proof.rounds.iter().enumerate() {
        let after = suffix[j + 1];
        let lw = after * us[j].square();
        terms.add(msg[0], -(w1 * lw));
        terms.add(msg[2], -(w1 * after));
        terms.add(msg[1], -(w2 * lw));
        terms.add(msg[3], -(w2 * after));
    }
    let elements = statement.elements();
    let mut coeff = vec![Scalar::zero(); elements.len()];
    let mut rho_e = Scalar::one();
    let wz = w2 * z;
    let wc = w2 * all * c;
    for eq in statement.equations() {
        let k = wz * rho_e;
        for (sec, e) in &eq.terms {
            coeff[e.0] += k * s[sec.0];
        }
        coeff[eq.lhs.0] -= wc * rho_e;
        rho_e *= rho;
    }
    terms.bases.extend_from_slice(elements);
    terms.scalars.extend(coeff);
    Ok(())
}

/// Verifies `proof` of `statement` made with `context`.
pub fn verify(
    gens: &BulletproofGens,
    statement: &Statement,
    proof: &CompressedProof,
    context: &[u8],
) -> Result<()> {
    let mut rng = rand::thread_rng();
    let mut terms = MsmTerms::default();
    verification_terms(statement, proof, context, || crate::proof::random_weight(&mut rng), &mut terms)?;
    if terms.is_identity(gens) {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
}

impl CompressedProof {
    /// The encoded length for `statement`.
    pub fn encoded_len(statement: &Statement) -> usize {
        32 * (5 + 4 * padded_len(statement).trailing_zeros() as usize)
    }

    /// `P ‖ A₁ ‖ A₂ ‖ (L₁ ‖ L₂ ‖ R₁ ‖ R₂)_k ‖ φ ‖ z`, 32 bytes each.
    pub fn encode(&self) -> Vec<u8> {
        let mut points = vec![self.commitment, self.a1, self.a2];
        points.extend(self.rounds.iter().flatten());
        let mut out = Point::encode_batch(&points).concat();
        out.extend_from_slice(&encode_scalar(&self.phi));
        out.extend_from_slice(&encode_scalar(&self.z));
        out
    }

    /// Decodes a proof of any size (its round count is checked against the statement when it
    /// is verified), checking every point (on the curve, in the subgroup) and scalar
    /// (canonical).
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 32 * 5
            || !bytes.len().is_multiple_of(32)
            || !(bytes.len() / 32 - 5).is_multiple_of(4)
        {
            return Err(Error::Encoding(format!(
                "{} bytes is not a compressed sigma proof's length",
                bytes.len()
            )));
        }
        let k = (bytes.len() / 32 - 5) / 4;
        if k > MAX_ROUNDS {
            return Err(Error::Encoding(format!("{k} folding rounds: at most {MAX_ROUNDS}")));
        }
        // The 3 + 4k points first, decoded as one batch (one field inversion), then 2 scalars.
        let (points, scalars) = bytes.split_at(32 * (3 + 4 * k));
        let points =
            Point::decode_batch(points).map_err(|(i, e)| Error::Encoding(format!("point {i}: {e}")))?;
        let (commitment, a1, a2) = (points[0], points[1], points[2]);
        let rounds = points[3..].chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let mut chunks = scalars.chunks_exact(32);
        let mut next =
            || -> &[u8; 32] { chunks.next().and_then(|c| c.try_into().ok()).expect("length checked") };
        let phi = decode_scalar(next()).map_err(|e| Error::Encoding(format!("phi: {e}")))?;
        let z = decode_scalar(next()).map_err(|e| Error::Encoding(format!("z: {e}")))?;
        Ok(CompressedProof { commitment, a1, a2, phi, rounds, z })
    }
}
