//! The shuffler: re-encryption under a random permutation, and the proof.

use ark_ff::{One, Zero};
use rand::seq::SliceRandom;
use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use zeroize::Zeroize;

use super::{challenge, challenge_vector, generators, shape, statement_transcript, Rows, ShuffleProof};
use crate::ct::FixedBaseTable;
use crate::curve::{Point, Scalar};
use crate::elgamal::{Ciphertext, PublicKey};
use crate::error::{Error, Result};
use crate::generators::{blinding_generator, random_nonzero_scalar};

/// Shuffles `rows` under `pk`: output row `i` is input row `π(i)` for a uniformly random
/// permutation `π`, each ciphertext re-randomised with fresh randomness; returns the output
/// rows and a proof bound to `context` (see [`crate::shuffle`]).
pub fn shuffle<R: RngCore + CryptoRng>(
    pk: &PublicKey,
    rows: &[Vec<Ciphertext>],
    context: &[u8],
    rng: &mut R,
) -> Result<(Rows, ShuffleProof)> {
    let (n, w) = shape(rows)?;
    let mut perm: Vec<usize> = (0..n).collect();
    perm.shuffle(rng);
    let mut rho: Rows2 = (0..n).map(|_| (0..w).map(|_| random_nonzero_scalar(rng)).collect()).collect();
    let table = FixedBaseTable::new(pk.point());
    let out: Rows = (0..n)
        .into_par_iter()
        .map(|i| {
            rows[perm[i]]
                .iter()
                .zip(&rho[i])
                .map(|(e, r)| Ciphertext { c1: e.c1 + Point::mul_base(r), c2: e.c2 + table.mul(r) })
                .collect()
        })
        .collect();
    let proof = prove_with_table(pk, &table, rows, &out, &perm, &rho, context, rng);
    perm.zeroize();
    rho.iter_mut().for_each(|r| r.zeroize());
    Ok((out, proof?))
}

type Rows2 = Vec<Vec<Scalar>>;

/// Proves that `output[i][k] = input[permutation[i]][k] + randomness[i][k]·(B, pk)`. The
/// shapes and the permutation are checked; whether the witness fits the ciphertexts is not (a
/// proof from a wrong witness does not verify). For callers that re-encrypt themselves;
/// [`shuffle`] does both.
pub fn prove_shuffle<R: RngCore + CryptoRng>(
    pk: &PublicKey,
    input: &[Vec<Ciphertext>],
    output: &[Vec<Ciphertext>],
    permutation: &[usize],
    randomness: &[Vec<Scalar>],
    context: &[u8],
    rng: &mut R,
) -> Result<ShuffleProof> {
    let table = FixedBaseTable::new(pk.point());
    prove_with_table(pk, &table, input, output, permutation, randomness, context, rng)
}

#[allow(clippy::too_many_arguments)]
fn prove_with_table<R: RngCore + CryptoRng>(
    pk: &PublicKey,
    pk_table: &FixedBaseTable,
    input: &[Vec<Ciphertext>],
    output: &[Vec<Ciphertext>],
    perm: &[usize],
    rho: &[Vec<Scalar>],
    context: &[u8],
    rng: &mut R,
) -> Result<ShuffleProof> {
    let (n, w) = shape(input)?;
    if shape(output)? != (n, w) {
        return Err(Error::LengthMismatch { what: "input and output rows differ in shape" });
    }
    if perm.len() != n || rho.len() != n || rho.iter().any(|r| r.len() != w) {
        return Err(Error::LengthMismatch { what: "the witness does not match the rows" });
    }
    let mut inv = vec![usize::MAX; n];
    for (i, &j) in perm.iter().enumerate() {
        if j >= n || inv[j] != usize::MAX {
            return Err(Error::LengthMismatch { what: "not a permutation" });
        }
        inv[j] = i;
    }
    let h = generators(n);
    let b = Point::generator();
    let big_h = blinding_generator();
    let mut rand_vec = |len: usize| -> Vec<Scalar> { (0..len).map(|_| random_nonzero_scalar(rng)).collect() };

    // 1. Permutation commitment c_j = r_j·B + h_{π⁻¹(j)}.
    let mut r = rand_vec(n);
    let commitments: Vec<Point> =
        (0..n).into_par_iter().map(|j| Point::mul_base(&r[j]) + h[inv[j]]).collect();
    let mut t = statement_transcript(context, pk, input, output, n, w);
    let u = challenge_vector(&mut t, &commitments);
    let mut ut: Vec<Scalar> = perm.iter().map(|&j| u[j]).collect();

    // 2. Chain ĉ_i = r̂_i·B + ũ_i·ĉ_{i−1} = R̂_i·B + U_i·H, ĉ_0 = H.
    let mut r_hat = rand_vec(n);
    let mut big_r = vec![Scalar::zero(); n + 1];
    let mut big_u = vec![Scalar::one(); n + 1];
    for i in 1..=n {
        big_r[i] = r_hat[i - 1] + ut[i - 1] * big_r[i - 1];
        big_u[i] = ut[i - 1] * big_u[i - 1];
    }
    let chain: Vec<Point> =
        (1..=n).into_par_iter().map(|i| Point::msm_ct(&[b, big_h], &[big_r[i], big_u[i]])).collect();

    // 3. Sigma commitments.
    let mut w123 = rand_vec(3);
    let mut w4 = rand_vec(w);
    let mut w_hat = rand_vec(n);
    let mut w_prime = rand_vec(n);
    // t̂_i = ω̂_i·B + ω'_i·ĉ_{i−1} = (ω̂_i + ω'_i·R̂_{i−1})·B + ω'_i·U_{i−1}·H.
    let t_hat: Vec<Point> = (0..n)
        .into_par_iter()
        .map(|i| Point::msm_ct(&[b, big_h], &[w_hat[i] + w_prime[i] * big_r[i], w_prime[i] * big_u[i]]))
        .collect();
    // Σ ω'_i·h_i, then Σ_i ω'_i·K̃_{i,k} and Σ_i ω'_i·C̃_{i,k} for each k, as parallel jobs.
    let mut bases: Vec<Vec<Point>> = vec![h];
    for k in 0..w {
        bases.push(output.iter().map(|row| row[k].c1).collect());
        bases.push(output.iter().map(|row| row[k].c2).collect());
    }
    let sums: Vec<Point> = bases.par_iter().map(|bs| Point::msm_ct(bs, &w_prime)).collect();
    let t4 = (0..w)
        .map(|k| {
            let neg = -w4[k];
            (sums[1 + 2 * k] + Point::mul_base(&neg), sums[2 + 2 * k] + pk_table.mul(&neg))
        })
        .collect();
    let mut proof = ShuffleProof {
        rows: n,
        width: w,
        commitments,
        chain,
        t1: Point::mul_base(&w123[0]),
        t2: Point::mul_base(&w123[1]),
        t3: Point::mul_base(&w123[2]) + sums[0],
        t4,
        t_hat,
        s1: Scalar::zero(),
        s2: Scalar::zero(),
        s3: Scalar::zero(),
        s4: Vec::new(),
        s_hat: Vec::new(),
        s_prime: Vec::new(),
    };
    let c = challenge(&mut t, &proof);

    // 4. Responses.
    let r_sum: Scalar = r.iter().sum();
    let r_u: Scalar = r.iter().zip(&u).map(|(a, b)| *a * b).sum();
    proof.s1 = w123[0] + c * r_sum;
    proof.s2 = w123[1] + c * big_r[n];
    proof.s3 = w123[2] + c * r_u;
    proof.s4 =
        (0..w).map(|k| w4[k] + c * rho.iter().zip(&ut).map(|(row, x)| row[k] * x).sum::<Scalar>()).collect();
    proof.s_hat = w_hat.iter().zip(&r_hat).map(|(o, x)| *o + c * x).collect();
    proof.s_prime = w_prime.iter().zip(&ut).map(|(o, x)| *o + c * x).collect();

    for v in
        [&mut r, &mut ut, &mut r_hat, &mut big_r, &mut big_u, &mut w123, &mut w4, &mut w_hat, &mut w_prime]
    {
        v.zeroize();
    }
    inv.zeroize();
    Ok(proof)
}
