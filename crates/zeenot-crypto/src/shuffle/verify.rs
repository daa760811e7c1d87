//! The verifier: every equation of the proof, weighted and checked in one multi-scalar
//! multiplication.

use ark_ff::{One, Zero};
use rayon::prelude::*;

use super::{
    challenge, challenge_vector, generators, shape, short_scalars, statement_transcript, ShuffleProof,
};
use crate::curve::{encode_scalar, Point, Scalar};
use crate::elgamal::{Ciphertext, PublicKey};
use crate::error::{Error, Result};
use crate::generators::blinding_generator;
use crate::transcript::Transcript;

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
    let h = generators(n);
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

    let b = Point::generator();
    let big_h = blinding_generator();
    let u_prod = u.iter().fold(Scalar::one(), |a, x| a * x);
    let cu: Vec<Scalar> = u.iter().map(|x| c * x).collect();
    let cap = 6 + 4 * n + 4 * n * w + 2 * w;
    let mut bases: Vec<Point> = Vec::with_capacity(cap);
    let mut scalars: Vec<Scalar> = Vec::with_capacity(cap);
    let mut push = |p: Point, x: Scalar| {
        bases.push(p);
        scalars.push(x);
    };

    // B, H, pk.
    let mut coeff_b = alpha[0] * proof.s1 + alpha[1] * proof.s2 + alpha[2] * proof.s3;
    let mut coeff_pk = Scalar::zero();
    for k in 0..w {
        coeff_b -= beta_gamma[2 * k] * proof.s4[k];
        coeff_pk -= beta_gamma[2 * k + 1] * proof.s4[k];
    }
    coeff_b += delta.iter().zip(s_hat).map(|(d, x)| *d * x).sum::<Scalar>();
    push(b, coeff_b);
    push(big_h, alpha[1] * c * u_prod + delta[0] * s_prime[0]);
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
    // h_i: α_1·c + α_3·s'_i; c_j: −(α_1 + α_3·u_j)·c.
    let a1c = alpha[0] * c;
    for (p, x) in h.iter().zip(s_prime) {
        push(*p, a1c + alpha[2] * x);
    }
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
    if msm_par(&bases, &scalars).is_identity() {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
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
