//! Non-interactive proofs for [`Statement`]s: Maurer's protocol for linear relations, the
//! Cramer–Damgård–Schoenmakers composition for OR, Fiat–Shamir over SHA-256, and batch
//! verification with one multi-exponentiation.
//!
//! **Prover.** For every equation `X = Σ x_s·B_s` in a scope that holds, commit `T = Σ k_s·B_s`
//! with fresh nonces; for every scope it cannot prove (an OR branch that does not hold), pick the
//! branch challenge and responses at random and solve `T = Σ z_s·B_s − c·X`. Hash the
//! transcript to the root challenge `c`; each OR's true branch gets `c_parent − Σ c_other`; the
//! responses are `z_s = k_s + c_scope·x_s`.
//!
//! **Verifier.** Recompute `c` from the transcript, derive every scope's challenge (the last
//! child of each OR gets the remainder), and check `Σ z_s·B_s − c_scope·X − T = 0` for every
//! equation: all at once, each equation weighted by an independent random 128-bit scalar, in
//! one multi-exponentiation (a false equation survives with probability 2^-128).
//!
//! **Transcript.** `Sha256Transcript("zeenot/sigma/v1")`, then the caller's context, the whole
//! statement ([`Statement::absorb`]), every commitment, then the challenge. Nothing the
//! verifier checks is left out, so a proof cannot be moved to another statement (the "Frozen
//! Heart" class of Fiat–Shamir bugs).

use std::collections::hash_map::{Entry, HashMap};

use ark_ff::{UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use zeenot_crypto::{decode_scalar, encode_scalar, Point, Scalar, Sha256Transcript, Transcript};
use zeroize::Zeroize;

use crate::error::{Error, Result};
use crate::statement::Statement;

/// The Fiat–Shamir domain separator of sigma proofs.
pub const SIGMA_DOMAIN: &[u8] = b"zeenot/sigma/v1";

/// A proof in *batchable* form: one commitment per equation, the challenges of every OR
/// branch but the last, one response per secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// `T_e` per equation, in the statement's equation order.
    pub commitments: Vec<Point>,
    /// For each OR node in preorder, the challenges of all its children but the last.
    pub challenges: Vec<Scalar>,
    /// `z_s` per secret.
    pub responses: Vec<Scalar>,
}

impl Proof {
    /// The encoded length for `statement`.
    pub fn encoded_len(statement: &Statement) -> usize {
        32 * (statement.equations().len() + statement.layout.n_challenges() + statement.secret_names().len())
    }

    /// `commitments ‖ challenges ‖ responses`, 32 bytes each.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Point::encode_batch(&self.commitments).concat();
        for s in self.challenges.iter().chain(&self.responses) {
            out.extend_from_slice(&encode_scalar(s));
        }
        out
    }

    /// Decodes a proof for `statement`, checking its length, every point (on the curve, in
    /// the subgroup) and every scalar (canonical).
    pub fn decode(statement: &Statement, bytes: &[u8]) -> Result<Self> {
        let expected = Self::encoded_len(statement);
        if bytes.len() != expected {
            return Err(Error::Encoding(format!("expected {expected} bytes, got {}", bytes.len())));
        }
        let (points, scalars) = bytes.split_at(32 * statement.equations().len());
        let commitments =
            Point::decode_batch(points).map_err(|(i, e)| Error::Encoding(format!("commitment {i}: {e}")))?;
        let mut chunks = scalars.chunks_exact(32);
        let mut next =
            || -> &[u8; 32] { chunks.next().and_then(|c| c.try_into().ok()).expect("length checked") };
        let challenges = (0..statement.layout.n_challenges())
            .map(|i| decode_scalar(next()).map_err(|e| Error::Encoding(format!("challenge {i}: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        let responses = (0..statement.secret_names().len())
            .map(|i| decode_scalar(next()).map_err(|e| Error::Encoding(format!("response {i}: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        Ok(Proof { commitments, challenges, responses })
    }
}

fn root_challenge(statement: &Statement, context: &[u8], commitments: &[Point]) -> Scalar {
    let mut t = Sha256Transcript::new(SIGMA_DOMAIN);
    t.append_message(b"sigma/context", context);
    statement.absorb(&mut t);
    t.append_message(b"sigma/commitments", &Point::encode_batch(commitments).concat());
    t.challenge_scalar(b"sigma/challenge")
}

/// Up to this many root-scope equations, the prover checks each with a constant-time MSM; beyond
/// it, it verifies the finished proof instead (one variable-time MSM over public values, which
/// is cheaper for big statements and leaks nothing about the witness).
const CHECK_EACH_UP_TO: usize = 8;

/// Which scopes hold under `witness` (computed bottom-up: a scope holds when its own
/// equations do and each of its ORs has a child that holds). With `root_equations` false the
/// root scope's own equations are left to the final verification.
fn scopes_that_hold(statement: &Statement, witness: &[Option<Scalar>], root_equations: bool) -> Vec<bool> {
    let l = &statement.layout;
    let mut holds = vec![true; l.n_scopes];
    for (i, &s) in l.eq_scope.iter().enumerate() {
        // Every equation is checked, even in a scope already known to fail: skipping would
        // show which OR branches are true.
        if (s != 0 || root_equations) && !statement.equation_holds(i, witness) {
            holds[s] = false;
        }
    }
    // Children have larger scope numbers than their parents and ORs are in preorder, so
    // walking ORs backwards settles every child before its parent.
    for or in l.ors.iter().rev() {
        if !or.children.iter().any(|&c| holds[c]) {
            holds[or.parent] = false;
        }
    }
    holds
}

/// Proves `statement` with `witness` (one entry per secret; `None` for secrets of OR branches
/// the prover cannot open). `context` binds the proof to its use (a session, a request).
pub fn prove<R: RngCore + CryptoRng>(
    statement: &Statement,
    witness: &[Option<Scalar>],
    context: &[u8],
    rng: &mut R,
) -> Result<Proof> {
    let l = &statement.layout;
    let n_secrets = statement.secret_names().len();
    if witness.len() != n_secrets {
        return Err(Error::Witness(format!(
            "{} secrets given, the statement has {n_secrets}",
            witness.len()
        )));
    }
    let check_each = l.eq_scope.iter().filter(|&&s| s == 0).count() <= CHECK_EACH_UP_TO;
    let holds = scopes_that_hold(statement, witness, check_each);
    if !holds[0] {
        return Err(Error::Witness("the statement does not hold for these secrets".into()));
    }

    // Which scopes are proved for real: the root, and the first true child of each real OR.
    let mut real = vec![false; l.n_scopes];
    real[0] = true;
    // Challenges: fixed now for simulated scopes; real ones once the root challenge is known.
    let mut challenge: Vec<Option<Scalar>> = vec![None; l.n_scopes];
    for or in &l.ors {
        if real[or.parent] {
            let pick = *or.children.iter().find(|&&c| holds[c]).expect("a real OR has a true child");
            real[pick] = true;
            for &c in &or.children {
                if c != pick {
                    challenge[c] = Some(Scalar::rand(rng));
                }
            }
        } else {
            let parent = challenge[or.parent].expect("simulated parents are settled first");
            let (last, rest) = or.children.split_last().expect("an OR has children");
            let mut sum = Scalar::zero();
            for &c in rest {
                let x = Scalar::rand(rng);
                sum += x;
                challenge[c] = Some(x);
            }
            challenge[*last] = Some(parent - sum);
        }
    }

    // Nonces for real secrets, random responses for simulated ones.
    let mut nonces = vec![Scalar::zero(); n_secrets];
    let mut responses = vec![Scalar::zero(); n_secrets];
    for (s, scope) in l.secret_scope.iter().enumerate() {
        let scope = scope.expect("every secret is used");
        if real[scope] {
            nonces[s] = Scalar::rand(rng);
        } else {
            responses[s] = Scalar::rand(rng);
        }
    }

    let elements = statement.elements();
    let commitments: Vec<Point> = statement
        .equations()
        .iter()
        .zip(&l.eq_scope)
        .map(|(eq, &scope)| {
            let mut bases: Vec<Point> = eq.terms.iter().map(|(_, e)| elements[e.0]).collect();
            if scope == 0 {
                // Always real: `Σ k_i·B_i`.
                let ks: Vec<Scalar> = eq.terms.iter().map(|(s, _)| nonces[s.0]).collect();
                return Point::msm_ct(&bases, &ks);
            }
            // Inside an OR, which branch is real is secret, so a real commitment
            // (`Σ k_i·B_i − 0·P`) and a simulated one (`Σ z_i·B_i − c·P`) cost the same
            // constant-time multi-exponentiation. A secret has a nonce or a response, never
            // both (the other is zero), so no branch picks between them.
            let mut ks: Vec<Scalar> = eq.terms.iter().map(|(s, _)| nonces[s.0] + responses[s.0]).collect();
            bases.push(elements[eq.lhs.0]);
            ks.push(-challenge[scope].unwrap_or_else(Scalar::zero));
            let c = Point::msm_ct(&bases, &ks);
            ks.zeroize();
            c
        })
        .collect();

    challenge[0] = Some(root_challenge(statement, context, &commitments));
    for or in &l.ors {
        if real[or.parent] {
            let parent = challenge[or.parent].expect("set in preorder");
            let others: Scalar =
                or.children.iter().filter(|&&c| !real[c]).map(|&c| challenge[c].expect("set")).sum();
            let pick = *or.children.iter().find(|&&c| real[c]).expect("one real child");
            challenge[pick] = Some(parent - others);
        }
    }
    for (s, scope) in l.secret_scope.iter().enumerate() {
        let scope = scope.expect("every secret is used");
        if real[scope] {
            let x = witness[s].ok_or_else(|| {
                Error::Witness(format!("secret {:?} is missing", statement.secret_names()[s]))
            })?;
            responses[s] = nonces[s] + challenge[scope].expect("set") * x;
        }
    }
    nonces.zeroize();

    let challenges = l
        .ors
        .iter()
        .flat_map(|or| or.children[..or.children.len() - 1].iter().map(|&c| challenge[c].expect("set")))
        .collect::<Vec<_>>();
    let proof = Proof { commitments, challenges, responses };
    if check_each {
        return Ok(proof);
    }
    // A proof verifies exactly when every equation of the proved scopes holds.
    match verify(statement, &proof, context) {
        Ok(()) => Ok(proof),
        Err(Error::InvalidProof) => {
            Err(Error::Witness("the statement does not hold for these secrets".into()))
        }
        Err(e) => Err(e),
    }
}

/// The terms of one proof's verification equation, weighted by `weight(e)` per equation,
/// appended to `bases`/`scalars` (for one or many proofs at once).
pub(crate) fn verification_terms(
    statement: &Statement,
    proof: &Proof,
    context: &[u8],
    mut weight: impl FnMut() -> Scalar,
    bases: &mut Vec<Point>,
    scalars: &mut Vec<Scalar>,
) -> Result<()> {
    let l = &statement.layout;
    if proof.commitments.len() != statement.equations().len()
        || proof.challenges.len() != l.n_challenges()
        || proof.responses.len() != statement.secret_names().len()
    {
        return Err(Error::Encoding("the proof's shape does not match the statement".into()));
    }
    let mut challenge = vec![Scalar::zero(); l.n_scopes];
    challenge[0] = root_challenge(statement, context, &proof.commitments);
    let mut given = proof.challenges.iter();
    for or in &l.ors {
        let (last, rest) = or.children.split_last().expect("an OR has children");
        let mut sum = Scalar::zero();
        for &c in rest {
            let x = *given.next().expect("count checked");
            challenge[c] = x;
            sum += x;
        }
        challenge[*last] = challenge[or.parent] - sum;
    }

    // Coefficients per element are merged so each distinct base enters the MSM once.
    let elements = statement.elements();
    let mut coeff = vec![Scalar::zero(); elements.len()];
    for ((eq, &scope), t) in statement.equations().iter().zip(&l.eq_scope).zip(&proof.commitments) {
        let rho = weight();
        for (s, e) in &eq.terms {
            coeff[e.0] += rho * proof.responses[s.0];
        }
        coeff[eq.lhs.0] -= rho * challenge[scope];
        bases.push(*t);
        scalars.push(-rho);
    }
    bases.extend_from_slice(elements);
    scalars.extend(coeff);
    Ok(())
}

pub(crate) fn random_weight<R: RngCore>(rng: &mut R) -> Scalar {
    Scalar::from(((rng.next_u64() as u128) << 64) | rng.next_u64() as u128)
}

/// Verifies a proof of `statement` made with `context`.
pub fn verify(statement: &Statement, proof: &Proof, context: &[u8]) -> Result<()> {
    batch_verify(&[(statement, proof, context)], &mut rand::thread_rng())
}

/// Verifies many proofs with one multi-exponentiation; fails if any one fails (then verify
/// them one by one to find which).
pub fn batch_verify<R: RngCore + CryptoRng>(
    items: &[(&Statement, &Proof, &[u8])],
    rng: &mut R,
) -> Result<()> {
    let mut bases = Vec::new();
    let mut scalars = Vec::new();
    let single_equation = items.len() == 1 && items[0].0.equations().len() == 1;
    for (statement, proof, context) in items {
        // One equation needs no random weight: weight 1 is exact.
        verification_terms(
            statement,
            proof,
            context,
            || if single_equation { Scalar::from(1u64) } else { random_weight(rng) },
            &mut bases,
            &mut scalars,
        )?;
    }
    let (bases, scalars) = merge_equal_bases(&bases, &scalars);
    if Point::msm_vartime(&bases, &scalars).is_identity() {
        Ok(())
    } else {
        Err(Error::InvalidProof)
    }
}

/// One term per distinct base: `Σ a_i·P + Σ b_j·P = (Σ a_i + Σ b_j)·P`, so the sum is the same
/// and the multi-exponentiation shorter when statements share generators and keys. Bases are
/// matched by their projective coordinates (free to compare, no inversion): decoded points
/// have `Z = 1`, so every copy of a decoded point matches; equal points with different
/// coordinates merely stay separate terms.
fn merge_equal_bases(bases: &[Point], scalars: &[Scalar]) -> (Vec<Point>, Vec<Scalar>) {
    let mut index: HashMap<[u64; 12], usize> = HashMap::with_capacity(bases.len());
    let (mut out_b, mut out_s) = (Vec::with_capacity(bases.len()), Vec::with_capacity(bases.len()));
    for (p, s) in bases.iter().zip(scalars) {
        let q = p.to_projective();
        let mut key = [0u64; 12];
        for (k, c) in [q.x, q.y, q.z].iter().enumerate() {
            key[4 * k..4 * k + 4].copy_from_slice(&c.0 .0);
        }
        match index.entry(key) {
            Entry::Occupied(e) => out_s[*e.get()] += s,
            Entry::Vacant(e) => {
                e.insert(out_b.len());
                out_b.push(*p);
                out_s.push(*s);
            }
        }
    }
    (out_b, out_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_equal_bases_keeps_the_sum_and_drops_repeats() {
        let g = Point::generator();
        let h = g.mul_vartime(&Scalar::from(7u64));
        // a decoded copy of h (Z = 1) and a computed 2·g (Z ≠ 1 in general) next to its decoded copy
        let h2 = Point::decode(&h.encode()).unwrap();
        let g2 = g.double();
        let g2_decoded = Point::decode(&g2.encode()).unwrap();
        let bases = [g, h, g, h2, g2, g2_decoded, h];
        let scalars: Vec<Scalar> = (1..=7u64).map(Scalar::from).collect();
        let (b, s) = merge_equal_bases(&bases, &scalars);
        assert_eq!(Point::msm_vartime(&b, &s), Point::msm_vartime(&bases, &scalars));
        assert!(b.len() < bases.len() && b.len() >= 3, "{}", b.len());
        assert_eq!(b[0], g);
        assert_eq!(s[0], Scalar::from(1u64 + 3));
        let (b, s) = merge_equal_bases(&[], &[]);
        assert!(b.is_empty() && s.is_empty());
    }
}
