//! The verifier: every equation of the proof, weighted and checked in one multi-scalar
//! multiplication; and many proofs at once, each proof's sum weighted again by a random
//! 128-bit scalar, in one multi-scalar multiplication ([`verify_shuffles`]).

use ark_ff::{One, Zero};
use rand::Rng;
use rayon::prelude::*;

use super::{
    challenge, challenge_vector, generators, shape, short_scalars, statement_transcript, ShuffleProof,
};
use crate::curve::{encode_scalar, Point, Scalar};
use crate::elgamal::{Ciphertext, PublicKey};
use crate::error::{Error, Result};
use crate::generators::blinding_generator;
use crate::transcript::Transcript;

/// One shuffle to verify: the statement (`pk`, `input`, `output`, `context`) and its proof.
#[derive(Clone, Copy, Debug)]
pub struct ShuffleStatement<'a> {
    /// The key the rows are encrypted under.
    pub pk: &'a PublicKey,
    /// The rows shuffled.
    pub input: &'a [Vec<Ciphertext>],
    /// The shuffled rows.
    pub output: &'a [Vec<Ciphertext>],
    /// The proof.
    pub proof: &'a ShuffleProof,
    /// The context the proof is bound to.
    pub context: &'a [u8],
}

/// One proof's check as a weighted sum that must be the identity: the coefficients of the
/// shared bases `B`, `H` and `h_1..h_N` apart (so a batch adds them up), then every other term.
struct Terms {
    b: Scalar,
    big_h: Scalar,
    h: Vec<Scalar>,
    bases: Vec<Point>,
    scalars: Vec<Scalar>,
}

/// Checks that `output` is a re-encryption shuffle of `input` under `pk`, proved for
/// `context`. `Err(InvalidProof)` when the proof does not verify, `Err(LengthMismatch)` when
/// the rows or the proof have different shapes.
pub fn verify_shuffle(
    pk: &PublicKey,
    input: &[Vec<Ciphertext>],
    output: &[Vec<Ciphertext>],
    proof: &ShuffleProof,
    context: &[u8],
) -> Result<()> {
    let t = terms(&ShuffleStatement { pk, input, output, proof, context })?;
    let h = generators(t.h.len());
    let mut bases = vec![Point::generator(), blinding_generator()];
    bases.extend(h);
    bases.extend(t.bases);
    let mut scalars = vec![t.b, t.big_h];
    scalars.extend(t.h);
    scalars.extend(t.scalars);
    identity_or_invalid(&bases, &scalars)
}

/// Checks many shuffles at once: `Ok(())` iff (with overwhelming probability) every one of
/// them verifies; `Err(InvalidProof)` if one does not (which one: [`invalid_shuffles`]) and
/// `Err(LengthMismatch)` if one has a proof of another shape than its rows.
///
/// # Batching and its soundness
///
/// Each proof's equations are first combined, exactly as [`verify_shuffle`] does, into one
/// weighted sum `P_p` that is the identity for a valid proof: its Fiat–Shamir challenges
/// (`u`, `c`) and its own equation weights are derived from its own transcript, as for a
/// single proof, so nothing of the transcript or the proof format changes. The batch then
/// draws independent uniform 128-bit weights `ρ_1..ρ_k` from the operating system's
/// randomness (`rand::thread_rng`, a CSPRNG seeded from it), *after* every statement and
/// proof is fixed, and checks `Σ_p ρ_p·P_p = 0` in one multi-scalar multiplication, the
/// coefficients of the bases every proof shares (`B`, `H` and the `h_i`) added up.
///
/// If some proof `q` is false, then `P_q ≠ 0` except with the single proof's soundness error
/// (its `2^−128` equation weighting plus the Terelius–Wikström bound). Every point is in the
/// prime-order subgroup (the decoders check it; `Point` arithmetic stays there), a group of
/// prime order `l > 2^250`, so for any fixed values of the other `ρ_p` the sum vanishes for
/// at most one residue of `ρ_q` modulo `l`, and `ρ_q` is uniform on `[0, 2^128)`, independent
/// of everything else: the batch accepts with probability at most `2^−128`. A false proof
/// therefore passes a batch with probability at most `2^−128` plus the single proofs'
/// soundness error. The weights are secret from the prover (fresh per call), so a prover cannot
/// tune proofs that cancel each other.
pub fn verify_shuffles(statements: &[ShuffleStatement<'_>]) -> Result<()> {
    if statements.is_empty() {
        return Ok(());
    }
    let all: Vec<Terms> = statements.par_iter().map(terms).collect::<Result<_>>()?;
    let mut rng = rand::thread_rng();
    let rho: Vec<Scalar> = all.iter().map(|_| Scalar::from(rng.gen::<u128>())).collect();
    let n_max = all.iter().map(|t| t.h.len()).max().unwrap_or(0);
    let others: usize = all.iter().map(|t| t.bases.len()).sum();
    let mut bases = Vec::with_capacity(2 + n_max + others);
    bases.push(Point::generator());
    bases.push(blinding_generator());
    bases.extend(generators(n_max));
    let mut scalars = vec![Scalar::zero(); 2 + n_max];
    for (t, r) in all.iter().zip(&rho) {
        scalars[0] += *r * t.b;
        scalars[1] += *r * t.big_h;
        for (acc, x) in scalars[2..].iter_mut().zip(&t.h) {
            *acc += *r * x;
        }
    }
    for (t, r) in all.into_iter().zip(&rho) {
        bases.extend(t.bases);
        let start = scalars.len();
        scalars.extend(t.scalars);
        scalars[start..].par_iter_mut().for_each(|x| *x *= r);
    }
    identity_or_invalid(&bases, &scalars)
}

/// The positions of the statements whose proofs do not verify (shape mismatches included),
/// in order; empty when all do. One batch first ([`verify_shuffles`]); only if it fails is
/// each proof checked on its own, to name the culprits.
pub fn invalid_shuffles(statements: &[ShuffleStatement<'_>]) -> Vec<usize> {
    if verify_shuffles(statements).is_ok() {
        return Vec::new();
    }
    (0..statements.len())
        .filter(|&i| {
            let s = &statements[i];
            verify_shuffle(s.pk, s.input, s.output, s.proof, s.context).is_err()
        })
        .collect()
}

fn identity_or_invalid(bases: &[Point], scalars: &[Scalar]) -> Result<()> {
    if msm_par(bases, scalars).is_identity() {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
}

/// One proof's equations, weighted by scalars from its own transcript (see the module docs).
fn terms(s: &ShuffleStatement<'_>) -> Result<Terms> {
    let ShuffleStatement { pk, input, output, proof, context } = *s;
    let (n, w) = shape(input)?;
    if shape(output)? != (n, w) {
        return Err(Error::LengthMismatch { what: "input and output rows differ in shape" });
    }
    if (proof.rows, proof.width) != (n, w)
        || proof.commitments.len() != n
        || proof.chain.len() != n
        || proof.t_hat.len() != n
        || proof.s_hat.len() != n
        || proof.s_prime.len() != n
        || proof.t4.len() != w
        || proof.s4.len() != w
    {
        return Err(Error::LengthMismatch { what: "the proof is for another number of rows or width" });
    }
    let mut t = statement_transcript(context, pk, input, output, n, w);
    let u = challenge_vector(&mut t, &proof.commitments);
    let c = challenge(&mut t, proof);
    let responses: Vec<u8> = proof.responses().iter().flat_map(encode_scalar).collect();
    t.append_message(b"responses", &responses);
    let seed = t.challenge_scalar(b"batch");
    // Weights: α_1..α_3 (t_1..t_3), β_k and γ_k (the K and C halves of t_{4,k}), δ_i (t̂_i).
    let weights = short_scalars(&seed, b"batch", 3 + 2 * w + n);
    let (alpha, rest) = weights.split_at(3);
    let (beta_gamma, delta) = rest.split_at(2 * w);
    let (s_prime, s_hat) = (&proof.s_prime, &proof.s_hat);

    let u_prod = u.iter().fold(Scalar::one(), |a, x| a * x);
    let cu: Vec<Scalar> = u.iter().map(|x| c * x).collect();
    let cap = 4 + 3 * n + 4 * n * w + 2 * w;
    let mut bases: Vec<Point> = Vec::with_capacity(cap);
    let mut scalars: Vec<Scalar> = Vec::with_capacity(cap);
    let mut push = |p: Point, x: Scalar| {
        bases.push(p);
        scalars.push(x);
    };

    // B, H (shared), pk.
    let mut coeff_b = alpha[0] * proof.s1 + alpha[1] * proof.s2 + alpha[2] * proof.s3;
    let mut coeff_pk = Scalar::zero();
    for k in 0..w {
        coeff_b -= beta_gamma[2 * k] * proof.s4[k];
        coeff_pk -= beta_gamma[2 * k + 1] * proof.s4[k];
    }
    coeff_b += delta.iter().zip(s_hat).map(|(d, x)| *d * x).sum::<Scalar>();
    let coeff_h = alpha[1] * c * u_prod + delta[0] * s_prime[0];
    push(*pk.point(), coeff_pk);
    // The sigma commitments.
    push(proof.t1, -alpha[0]);
    push(proof.t2, -alpha[1]);
    push(proof.t3, -alpha[2]);
    for (k, (tk, tc)) in proof.t4.iter().enumerate() {
        push(*tk, -beta_gamma[2 * k]);
        push(*tc, -beta_gamma[2 * k + 1]);
    }
    for (p, d) in proof.t_hat.iter().zip(delta) {
        push(*p, -*d);
    }
    // h_i (shared): α_1·c + α_3·s'_i; c_j: −(α_1 + α_3·u_j)·c.
    let a1c = alpha[0] * c;
    let coeff_hi: Vec<Scalar> = s_prime.iter().map(|x| a1c + alpha[2] * x).collect();
    for (p, x) in proof.commitments.iter().zip(&cu) {
        push(*p, -a1c - alpha[2] * x);
    }
    // ĉ_i: −δ_i·c + δ_{i+1}·s'_{i+1}, and −(α_2 + δ_N)·c for ĉ_N.
    for i in 0..n {
        let next = if i + 1 < n { delta[i + 1] * s_prime[i + 1] } else { -alpha[1] * c };
        push(proof.chain[i], next - delta[i] * c);
    }
    // Ẽ_{i,k}: (β_k, γ_k)·s'_i; E_{j,k}: −(β_k, γ_k)·c·u_j.
    for (k, bg) in beta_gamma.chunks_exact(2).enumerate() {
        for (row, x) in output.iter().zip(s_prime) {
            push(row[k].c1, bg[0] * x);
            push(row[k].c2, bg[1] * x);
        }
        for (row, x) in input.iter().zip(&cu) {
            push(row[k].c1, -bg[0] * x);
            push(row[k].c2, -bg[1] * x);
        }
    }
    Ok(Terms { b: coeff_b, big_h: coeff_h, h: coeff_hi, bases, scalars })
}

/// [`Point::msm_vartime`] split over the cores (each share a Pippenger of its own when long).
fn msm_par(bases: &[Point], scalars: &[Scalar]) -> Point {
    let threads = rayon::current_num_threads().max(1);
    let chunk = bases.len().div_ceil(threads).max(2048);
    bases
        .par_chunks(chunk)
        .zip(scalars.par_chunks(chunk))
        .map(|(b, s)| Point::msm_vartime(b, s))
        .reduce(Point::identity, |a, b| a + b)
}
