//! Logarithmic-size range proofs: Bulletproofs (Bünz, Bootle, Boneh, Poelstra, Wuille and
//! Maxwell, *Bulletproofs: Short Proofs for Confidential Transactions and More*, IEEE S&P 2018),
//! the aggregated range proof of §4.3 with the inner-product argument of §3 (Protocol 2), made
//! non-interactive with Fiat–Shamir and verified with one multi-exponentiation (§6.2).
//!
//! **Statement.** For Pedersen commitments `V_j = v_j·G + γ_j·H`, `j < m` — zeenot's own
//! commitments, `G = Base8` and `H = `[`blinding_generator`], so anything committed elsewhere in
//! zeenot can be range-proved — every `v_j` lies in `[0, 2^n)`, `n ∈ {8, 16, 32, 64}`, `m` a
//! power of two. Write `N = n·m`.
//!
//! **Generators.** `G_i = hash_to_curve("zeenot/bulletproofs/v1", "G" ‖ i)`,
//! `H_i = hash_to_curve("zeenot/bulletproofs/v1", "H" ‖ i)` (`i` as 8-byte little-endian) and
//! `U = hash_to_curve("zeenot/bulletproofs/v1", "U")`: nobody knows a discrete-log relation
//! among them, `G` and `H` ([`BulletproofGens`] caches them).
//!
//! **Prover.** `a_L` is the concatenation of the bits of every `v_j`, `a_R = a_L − 1^N`.
//! 1. `A = α·H + ⟨a_L, G⟩ + ⟨a_R, H⟩`, `S = ρ·H + ⟨s_L, G⟩ + ⟨s_R, H⟩` for random `α, ρ, s_L, s_R`;
//!    challenges `y, z`.
//! 2. `l(X) = a_L − z·1^N + s_L·X`,
//!    `r(X) = y^N ∘ (a_R + z·1^N + s_R·X) + Σ_j z^{2+j}·(0^{jn} ‖ 2^n ‖ 0^{(m−1−j)n})`,
//!    `t(X) = ⟨l(X), r(X)⟩ = t_0 + t_1·X + t_2·X²`; `T_k = t_k·G + τ_k·H`; challenge `x`.
//! 3. `l = l(x)`, `r = r(x)`, `t̂ = ⟨l, r⟩`, `τ_x = τ_2·x² + τ_1·x + Σ_j z^{2+j}·γ_j`,
//!    `μ = α + ρ·x`; challenge `w`.
//! 4. The inner-product argument for `P = ⟨l, G⟩ + ⟨r, H'⟩ + t̂·w·U`, `H'_i = y^{−i}·H_i`: each
//!    round halves the vectors, sends `L = ⟨a_lo, g_hi⟩ + ⟨b_hi, h_lo⟩ + ⟨a_lo, b_hi⟩·wU` and
//!    `R = ⟨a_hi, g_lo⟩ + ⟨b_lo, h_hi⟩ + ⟨a_hi, b_lo⟩·wU`, gets a 128-bit challenge `u` and folds
//!    `a' = u·a_lo + a_hi`, `b' = b_lo + u·b_hi`, `g' = g_lo + u·g_hi`, `h' = u·h_lo + h_hi`, so
//!    that `P' = u·P + u²·L + R`; after `log2 N` rounds it sends the last `a, b`. (The paper's
//!    `u`/`u⁻¹` fold makes every generator multiplication full-length; this one folds `g` with
//!    128-bit scalars, a quarter less folding work. A round's soundness error is 2/2^128.)
//!
//! **Verifier.** With `s_i = Π u_k` over the rounds `k` where bit `log2 N − 1 − k` of `i` is
//! set, `π = Π_k u_k` and `π_k = Π_{k' > k} u_k'`, the two checks of the paper,
//! * `t̂·G + τ_x·H = Σ_j z^{2+j}·V_j + δ(y,z)·G + x·T_1 + x²·T_2` with
//!   `δ(y,z) = (z − z²)·Σ_i y^i − Σ_j z^{3+j}·(2^n − 1)`,
//! * the folded inner-product check `π·P₀ + Σ_k π_k·(u_k²·L_k + R_k) = a·Σ_i s_i·G_i +
//!   b·Σ_i y^{−i}·s_{N−1−i}·H_i + ab·wU` with `P₀ = A + x·S − μ·H + t̂·wU − z·Σ_i G_i +
//!   Σ_i (z + y^{−i}·z^{2+j}·2^{i mod n})·H_i`,
//!
//! are combined with a weight `c` (the first times `c`) into one [`Point::msm_vartime`] of
//! `2N + 2·log2 N + m + 7` points. `c` is one more Fiat–Shamir challenge, squeezed after the
//! whole proof is absorbed, so verification is deterministic; a false check survives only if
//! the hash hits one value out of `l`.
//!
//! **Batch verification** ([`RangeProof::batch_verify`], [`RangeProof::verify_each`]): many
//! proofs, each's equation above times an independent random 128-bit weight the verifier
//! draws, summed into one multi-exponentiation in which the shared generators enter once
//! (`2·max N + 3` of them, plus `2·log2 N + m + 4` points per proof). A false proof survives
//! with probability at most 2^−128; a failing batch is then verified proof by proof to name the
//! culprits (`benches/range_batch.rs`).
//!
//! **Transcript.** `Sha256Transcript("zeenot/bulletproofs/range/v2")`: the caller's context,
//! `n`, `m`, every `V_j`; `A, S` → `y, z`; `T_1, T_2` → `x`; `t̂, τ_x, μ` → `w`; `L_k, R_k` →
//! `u_k` per round; `a, b` → `c`. Every challenge hashes everything before it, so a proof
//! cannot be moved to other commitments, another range or another context ("Frozen Heart").
//! A zero challenge (probability `2^−251`) makes proving and verifying fail.
//!
//! **Size.** `32·(9 + 2·log2(n·m))` bytes: 4 points, 3 scalars, `2·log2(n·m)` points, 2 scalars.
//! For 64-bit values: **672 bytes** for one value (`m = 1`), 736 for two, **800 bytes for four**
//! (`m = 4`), 864 for eight. The bit-decomposition sigma proof (a Pedersen commitment and an OR
//! proof per bit, plus the linear proof that the bits sum to `V`) grows linearly: 12,352 bytes
//! for one 64-bit value, 49,408 for four (`benches/range.rs`).
//!
//! **Cost** (release, the 2-core development machine, `cargo bench -p zeenot-sigma --bench
//! range`, 2026-11-26): proving one 64-bit value takes 7.4 ms (four: 23 ms), verifying 1.3 ms
//! (four: 3.5 ms); the bit-decomposition proof takes 9.0 ms to prove and 1.9 ms to verify per
//! value (an earlier run on a loaded machine read 25 / 115 ms to prove). Most of the prover's
//! time is folding the generators (`n·m` half-length and `n·m` full-length variable-base
//! multiplications) and the constant-time `S`.
//!
//! **Small proofs** (`n·m ≤ 32`, [`crate::bp_tables`]): the prover uses fixed-base tables of
//! `G_i`, `H_i` and `U` built once per process (14 MiB for 16 bits). `S` is then a sum of
//! constant-time combs (64 mixed additions a term, no doublings), and the inner-product rounds
//! fold no generator: after the rounds so far the current `g_j` is `Σ_{i ≡ j mod n} cg_i·G_i`
//! (and `h_j` likewise), so each `L`, `R` is one variable-time multi-exponentiation over the
//! original generators' wide combs ([`ipa_prove_tabled`]). Same proof, same transcript, bit for
//! bit, as the folding prover (a unit test compares them on fixed random draws). A 16-bit proof
//! went from 3.3 to 1.6 ms on the loaded 2-core machine (one thread, the least of 60 runs
//! each, interleaved; `benches/range.rs`' `range_prove_16` compares the two, 2026-11-27), the
//! process's generators derived once ([`BulletproofGens::shared`]; another 0.9 ms per call
//! before).
//!
//! **Side channels.** Every multi-exponentiation with secret scalars (`A`, `S`, `T_k`, the
//! commitments) is constant time; `L`, `R` (over `l(x)`, `r(x)`, blinded by `s_L·x`, `s_R·x`
//! and sent in the clear by the paper's Protocol 1) and folding the public generators by
//! public challenges are variable time. Secret vectors are wiped after use.

use ark_ff::{batch_inversion, Field, One, UniformRand, Zero};
use rand::{CryptoRng, RngCore};
use std::sync::{Arc, Mutex};
use zeenot_crypto::ct::{FixedBaseTable, WideTable};
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{
    decode_scalar, encode_scalar, hash_to_curve, hash_to_curve_batch, PedersenGenerators, Point, Scalar,
    Sha256Transcript, Transcript,
};
use zeroize::Zeroize;

use crate::bp_tables::{prover_tables, ProverTables};
use crate::error::{Error, Result};

/// The domain of the vector generators `G_i`, `H_i` and of `U`.
pub const GENERATORS_DOMAIN: &[u8] = b"zeenot/bulletproofs/v1";

/// The Fiat–Shamir domain separator of range proofs.
pub const RANGE_PROOF_DOMAIN: &[u8] = b"zeenot/bulletproofs/range/v2";

/// The supported bit lengths `n` of a range `[0, 2^n)`.
pub const SUPPORTED_BITS: [usize; 4] = [8, 16, 32, 64];

/// The most inner-product rounds a decoded proof may carry (`n·m ≤ 2^32`).
pub const MAX_ROUNDS: usize = 32;

/// The fewest rounds any proof has (`n·m ≥ 8`).
const MIN_ROUNDS: usize = 3;

/// Generators for range proofs over up to `capacity` bits in all (`n·m ≤ capacity`): the
/// vector generators `G_i`, `H_i`, the inner-product base `U`, and zeenot's Pedersen bases.
#[derive(Clone, Debug)]
pub struct BulletproofGens {
    pub(crate) pedersen: PedersenGenerators,
    pub(crate) h: Point,
    u: Point,
    g_vec: Vec<Point>,
    h_vec: Vec<Point>,
}

/// `G_i` (`tag = b'G'`) or `H_i` (`b'H'`) for `i` in `indices`.
fn indexed_generators(tag: u8, indices: std::ops::Range<u64>) -> Vec<Point> {
    let msgs: Vec<[u8; 9]> = indices
        .map(|i| {
            let mut msg = [0u8; 9];
            msg[0] = tag;
            msg[1..].copy_from_slice(&i.to_le_bytes());
            msg
        })
        .collect();
    hash_to_curve_batch(GENERATORS_DOMAIN, &msgs)
}

/// A multi-exponentiation under construction: proof-specific terms, and one coefficient per
/// shared base (`G`, `H`, `U`, `G_i`, `H_i` of [`BulletproofGens`]) however many proofs add to
/// it. [`RangeProof::verification_terms`] fills it; the sigma back end's batch verification adds
/// its sigma equations to the same sum.
#[derive(Clone, Debug, Default)]
pub struct MsmTerms {
    /// Bases that are not shared generators.
    pub bases: Vec<Point>,
    /// Their scalars.
    pub scalars: Vec<Scalar>,
    /// The coefficient of `G` (Base8).
    pub g: Scalar,
    /// The coefficient of `H` (the blinding generator).
    pub h: Scalar,
    /// The coefficient of `U`.
    pub u: Scalar,
    /// The coefficients of `G_0, G_1, …` (as long as the widest proof added).
    pub g_vec: Vec<Scalar>,
    /// The coefficients of `H_0, H_1, …`.
    pub h_vec: Vec<Scalar>,
}

impl MsmTerms {
    /// Adds `k·p`.
    pub fn add(&mut self, p: Point, k: Scalar) {
        self.bases.push(p);
        self.scalars.push(k);
    }

    /// The folded inner-product check's round terms, times `weight`: `later_{k+1}·(u_k²·L_k +
    /// R_k)` ([`folding_weights`]).
    pub(crate) fn add_rounds(
        &mut self,
        weight: Scalar,
        l: &[Point],
        r: &[Point],
        us: &[Scalar],
        later: &[Scalar],
    ) {
        for (k, (l, r)) in l.iter().zip(r).enumerate() {
            self.add(*l, weight * later[k + 1] * us[k].square());
            self.add(*r, weight * later[k + 1]);
        }
    }

    /// These terms plus `other`'s (two partial sums of one batch, built on different cores).
    pub fn merged(mut self, mut other: MsmTerms) -> MsmTerms {
        if self.g_vec.len() < other.g_vec.len() {
            std::mem::swap(&mut self, &mut other);
        }
        self.bases.append(&mut other.bases);
        self.scalars.append(&mut other.scalars);
        self.g += other.g;
        self.h += other.h;
        self.u += other.u;
        for (acc, k) in self.g_vec.iter_mut().zip(&other.g_vec) {
            *acc += k;
        }
        for (acc, k) in self.h_vec.iter_mut().zip(&other.h_vec) {
            *acc += k;
        }
        self
    }

    pub(crate) fn reserve(&mut self, generators: usize, others: usize) {
        if self.g_vec.len() < generators {
            self.g_vec.resize(generators, Scalar::zero());
            self.h_vec.resize(generators, Scalar::zero());
        }
        self.bases.reserve(others);
        self.scalars.reserve(others);
    }

    /// Whether the terms sum to the identity (one multi-exponentiation). `gens` must cover
    /// every generator index added.
    pub fn is_identity(mut self, gens: &BulletproofGens) -> bool {
        let n = self.g_vec.len();
        if gens.capacity() < n {
            return false;
        }
        self.bases.extend([Point::generator(), gens.h, gens.u]);
        self.scalars.extend([self.g, self.h, self.u]);
        self.bases.extend_from_slice(&gens.g_vec[..n]);
        self.scalars.append(&mut self.g_vec);
        self.bases.extend_from_slice(&gens.h_vec[..n]);
        self.scalars.append(&mut self.h_vec);
        Point::msm_vartime(&self.bases, &self.scalars).is_identity()
    }
}

impl BulletproofGens {
    /// Derives `G_0 … G_{capacity−1}`, `H_0 … H_{capacity−1}` and `U` (two hashes to the curve
    /// per index, about 6 µs of CPU each: derive once and reuse).
    pub fn new(capacity: usize) -> Self {
        BulletproofGens {
            pedersen: PedersenGenerators::new(0),
            h: blinding_generator(),
            u: hash_to_curve(GENERATORS_DOMAIN, b"U"),
            g_vec: Vec::new(),
            h_vec: Vec::new(),
        }
        .extended(capacity)
    }

    /// Generators stored before ([`crate::gens_cache`]): `g_vec` and `h_vec` of one length.
    pub(crate) fn from_vectors(g_vec: Vec<Point>, h_vec: Vec<Point>) -> Self {
        debug_assert_eq!(g_vec.len(), h_vec.len());
        BulletproofGens { g_vec, h_vec, ..BulletproofGens::new(0) }
    }

    /// These generators and more, up to `capacity` (deriving only the indices past these).
    pub fn extended(&self, capacity: usize) -> Self {
        let mut out = self.clone();
        let (from, to) = (self.capacity() as u64, capacity as u64);
        if to > from {
            out.g_vec.extend(indexed_generators(b'G', from..to));
            out.h_vec.extend(indexed_generators(b'H', from..to));
        }
        out
    }

    /// Generators covering at least `capacity` bits, derived once per process and shared
    /// (grown, deriving only the new indices, when a wider proof asks; above
    /// [`MAX_ENCODED_ITEM_BITS`], derived afresh per call). Deriving costs two hashes to the
    /// curve per index and a comb for `H`: about 0.9 ms for a 16-bit proof, more than half of
    /// what the proof itself then costs.
    pub fn shared(capacity: usize) -> Arc<BulletproofGens> {
        if capacity > MAX_ENCODED_ITEM_BITS {
            return Arc::new(BulletproofGens::new(capacity));
        }
        static CACHE: Mutex<Option<Arc<BulletproofGens>>> = Mutex::new(None);
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = cache.as_ref().filter(|g| g.capacity() >= capacity) {
            return g.clone();
        }
        // At least a 64-bit proof's.
        let wanted = capacity.next_power_of_two().max(64);
        let g = Arc::new(match cache.as_ref() {
            Some(smaller) => smaller.extended(wanted),
            None => BulletproofGens::new(wanted),
        });
        *cache = Some(g.clone());
        g
    }

    /// How many bits (`n·m`) these generators cover.
    pub fn capacity(&self) -> usize {
        self.g_vec.len()
    }

    /// `G_0 … G_{capacity−1}`.
    pub fn g_vec(&self) -> &[Point] {
        &self.g_vec
    }

    /// `H_0 … H_{capacity−1}`.
    pub fn h_vec(&self) -> &[Point] {
        &self.h_vec
    }

    /// The inner-product base `U`.
    pub fn u(&self) -> &Point {
        &self.u
    }
}

/// A range proof for `m` commitments to `n`-bit values (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeProof {
    /// `A`, the commitment to the bits `a_L` and `a_R`.
    pub a_commit: Point,
    /// `S`, the commitment to the blinding vectors `s_L`, `s_R`.
    pub s_commit: Point,
    /// `T_1`, the commitment to `t_1`.
    pub t1: Point,
    /// `T_2`, the commitment to `t_2`.
    pub t2: Point,
    /// `t̂ = ⟨l, r⟩`.
    pub t_hat: Scalar,
    /// `τ_x`, the blinding of `t̂`.
    pub tau_x: Scalar,
    /// `μ`, the blinding of `A + x·S`.
    pub mu: Scalar,
    /// The inner-product argument's `L_k`, one per round.
    pub ipa_l: Vec<Point>,
    /// The inner-product argument's `R_k`, one per round.
    pub ipa_r: Vec<Point>,
    /// The inner-product argument's final `a`.
    pub ipa_a: Scalar,
    /// The inner-product argument's final `b`.
    pub ipa_b: Scalar,
}

/// Checks `n` and `m` against what is supported and what `gens` covers; returns `N = n·m` and
/// `log2 N`.
fn check_shape(gens: &BulletproofGens, bits: usize, m: usize) -> Result<(usize, usize)> {
    if !SUPPORTED_BITS.contains(&bits) {
        return Err(Error::Range(format!("unsupported bit length {bits} (supported: 8, 16, 32, 64)")));
    }
    if m == 0 || !m.is_power_of_two() {
        return Err(Error::Range(format!("the number of values ({m}) must be a power of two")));
    }
    let nn = bits
        .checked_mul(m)
        .filter(|&nn| nn <= gens.capacity())
        .ok_or_else(|| Error::Range(format!("{m} values of {bits} bits exceed the generators' capacity")))?;
    Ok((nn, nn.trailing_zeros() as usize))
}

/// A folding round's challenge (range proofs' inner-product argument, compressed sigma
/// proofs): 128 bits, so that folding `G' = G_lo + u·G_hi` costs half-length multiplications; a
/// round's soundness error is at most 2/2^128. Never zero.
pub(crate) fn folding_challenge(t: &mut Sha256Transcript) -> Result<Scalar> {
    let full = encode_scalar(&t.challenge_scalar(b"u"));
    let u = u128::from_le_bytes(full[..16].try_into().expect("16 bytes"));
    if u == 0 {
        Err(Error::InvalidProof)
    } else {
        Ok(Scalar::from(u))
    }
}

/// What `k` folding rounds with challenges `us` (`G' = G_lo + u·G_hi`, `P' = u·P + u²·L + R`)
/// make of the generators and the target: `s_i = Π u_j` over the rounds `j` that put `i` in the
/// high half (round `j` splits on bit `k − 1 − j`), for `i < 2^k`, and `later_j = Π_{j' ≥ j}
/// u_j'` (`later_0` multiplies the first target, `later_{j+1}` round `j`'s `L` and `R`).
pub(crate) fn folding_weights(us: &[Scalar]) -> (Vec<Scalar>, Vec<Scalar>) {
    let k = us.len();
    let nn = 1usize << k;
    let mut s = Vec::with_capacity(nn);
    s.push(Scalar::one());
    for i in 1..nn {
        let top = (usize::BITS - 1 - i.leading_zeros()) as usize;
        s.push(s[i - (1 << top)] * us[k - 1 - top]);
    }
    let mut later = vec![Scalar::one(); k + 1];
    for j in (0..k).rev() {
        later[j] = later[j + 1] * us[j];
    }
    (s, later)
}

/// A challenge that must be invertible.
pub(crate) fn challenge(t: &mut Sha256Transcript, label: &'static [u8]) -> Result<Scalar> {
    let c = t.challenge_scalar(label);
    if c.is_zero() {
        Err(Error::InvalidProof)
    } else {
        Ok(c)
    }
}

fn start_transcript(context: &[u8], bits: usize, commitments: &[Point]) -> Sha256Transcript {
    let mut t = Sha256Transcript::new(RANGE_PROOF_DOMAIN);
    t.append_message(b"context", context);
    t.append_message(b"n", &(bits as u64).to_le_bytes());
    t.append_message(b"m", &(commitments.len() as u64).to_le_bytes());
    for v in Point::encode_batch(commitments) {
        t.append_message(b"V", &v);
    }
    t
}

pub(crate) fn inner_product(a: &[Scalar], b: &[Scalar]) -> Scalar {
    a.iter().zip(b).map(|(x, y)| *x * y).sum()
}

/// `1, x, x², …` (`len` terms).
pub(crate) fn powers(x: Scalar, len: usize) -> Vec<Scalar> {
    let mut out = Vec::with_capacity(len);
    let mut p = Scalar::one();
    for _ in 0..len {
        out.push(p);
        p *= x;
    }
    out
}

/// `z^{2+j}·2^{i mod n}` for `i` in block `j`: the weights that tie `a_L` to the values.
fn value_weights(z: Scalar, bits: usize, m: usize) -> Vec<Scalar> {
    let two = Scalar::from(2u64);
    let twos = powers(two, bits);
    let mut zj = z.square();
    let mut out = Vec::with_capacity(bits * m);
    for _ in 0..m {
        out.extend(twos.iter().map(|p| zj * p));
        zj *= z;
    }
    out
}

pub(crate) fn random_vec<R: RngCore + CryptoRng>(len: usize, rng: &mut R) -> Vec<Scalar> {
    (0..len).map(|_| Scalar::rand(rng)).collect()
}

/// The inner-product argument's messages: `L_k`, `R_k` per round and the final `a`, `b`.
pub(crate) struct IpaOutput {
    pub(crate) l: Vec<Point>,
    pub(crate) r: Vec<Point>,
    pub(crate) a: Scalar,
    pub(crate) b: Scalar,
}

/// The inner-product argument's prover for `P = ⟨a, g⟩ + ⟨b, hf ∘ h⟩ + ⟨a, b⟩·q`, where the
/// `h`-generators are `hf_i·h_i`. `g` folds as `g_lo + u·g_hi` (a 128-bit multiplication per
/// pair); `h` keeps its factors so that folding costs one multiplication per pair:
/// `u·f_lo·h_lo + f_hi·h_hi = (u·f_lo)·(h_lo + (f_hi/(u·f_lo))·h_hi)`.
pub(crate) fn ipa_prove(
    t: &mut Sha256Transcript,
    g_vec: &[Point],
    h_vec: &[Point],
    mut hf: Vec<Scalar>,
    q: Point,
    mut a: Vec<Scalar>,
    mut b: Vec<Scalar>,
) -> Result<IpaOutput> {
    let mut g = g_vec.to_vec();
    let mut h = h_vec.to_vec();
    let mut n = a.len();
    let mut ls = Vec::new();
    let mut rs = Vec::new();
    let (mut l_scalars, mut r_scalars) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
    let (mut l_bases, mut r_bases) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
    while n > 1 {
        let half = n / 2;
        let c_l = inner_product(&a[..half], &b[half..n]);
        let c_r = inner_product(&a[half..n], &b[..half]);

        l_bases.clear();
        l_bases.extend_from_slice(&g[half..n]);
        l_bases.extend_from_slice(&h[..half]);
        l_bases.push(q);
        l_scalars.zeroize();
        l_scalars.extend_from_slice(&a[..half]);
        l_scalars.extend((0..half).map(|i| b[half + i] * hf[i]));
        l_scalars.push(c_l);

        r_bases.clear();
        r_bases.extend_from_slice(&g[..half]);
        r_bases.extend_from_slice(&h[half..n]);
        r_bases.push(q);
        r_scalars.zeroize();
        r_scalars.extend_from_slice(&a[half..n]);
        r_scalars.extend((0..half).map(|i| b[i] * hf[half + i]));
        r_scalars.push(c_r);
        // Variable time is safe here: `a` and `b` are `l(x)` and `r(x)`, blinded by `s_L·x` and
        // `s_R·x` — the paper's Protocol 1 sends them in the clear.
        let (l, r) = rayon::join(
            || Point::msm_vartime(&l_bases, &l_scalars),
            || Point::msm_vartime(&r_bases, &r_scalars),
        );
        l_scalars.zeroize();
        r_scalars.zeroize();

        t.append_point(b"L", &l);
        t.append_point(b"R", &r);
        ls.push(l);
        rs.push(r);
        let u = folding_challenge(t)?;

        for i in 0..half {
            a[i] = a[i] * u + a[half + i];
            b[i] = b[i] + b[half + i] * u;
        }
        a[half..n].iter_mut().for_each(Zeroize::zeroize);
        b[half..n].iter_mut().for_each(Zeroize::zeroize);

        if half > 1 {
            // g' = g_lo + u·g_hi: a 128-bit multiplication per pair. h' = u·hf_lo·h_lo +
            // hf_hi·h_hi = (u·hf_lo)·(h_lo + hf_hi/(u·hf_lo)·h_hi): one full-length one, the
            // factor kept.
            let mut h_lo_inv: Vec<Scalar> = hf[..half].iter().map(|f| *f * u).collect();
            batch_inversion(&mut h_lo_inv);
            let h_k: Vec<Scalar> = (0..half).map(|i| hf[half + i] * h_lo_inv[i]).collect();
            // One variable-base multiplication per generator: most of the prover's time, and
            // independent across generators, so spread over the cores.
            fold(&mut g[..n], &vec![u; half]);
            fold(&mut h[..n], &h_k);
            hf[..half].iter_mut().for_each(|f| *f *= u);
        }
        n = half;
    }
    let out = IpaOutput { l: ls, r: rs, a: a[0], b: b[0] };
    a.zeroize();
    b.zeroize();
    Ok(out)
}

/// `lo_i += k_i·hi_i` for the two halves of `points`, in parallel.
pub(crate) fn fold(points: &mut [Point], k: &[Scalar]) {
    use rayon::prelude::*;
    let (lo, hi) = points.split_at_mut(k.len());
    // At least 16 multiplications (~1 ms) per task: small proofs' last rounds stay serial.
    lo.par_iter_mut().zip(hi.par_iter()).zip(k.par_iter()).with_min_len(16).for_each(|((lo, hi), k)| {
        *lo += hi.mul_vartime(k);
    });
}

/// [`ipa_prove`] for `P = ⟨a, G⟩ + ⟨b, hf ∘ H⟩ + ⟨a, b⟩·w·U` over the first `a.len()`
/// generators of `tables`, without folding them: after the rounds so far, the current
/// generator `g_j` (of `n` left) is `Σ_{i ≡ j mod n} cg_i·G_i` and `h_j` is
/// `Σ_{i ≡ j mod n} ch_i·H_i` (`cg_i` the product of the challenges of the rounds that put
/// `i` in the high half, `ch_i = hf_i·` those that put it in the low half), so each round's
/// `L` and `R` is one variable-time multi-exponentiation of `N + 1` terms over the original
/// generators' wide combs (at most 32 additions a term, no doublings) instead of `N/2`
/// generator foldings plus two Straus runs. Same messages, same transcript as [`ipa_prove`].
/// Variable time is safe for the same reason: `a` and `b` are `l(x)`, `r(x)`, blinded.
pub(crate) fn ipa_prove_tabled(
    t: &mut Sha256Transcript,
    tables: &ProverTables,
    hf: Vec<Scalar>,
    w: Scalar,
    mut a: Vec<Scalar>,
    mut b: Vec<Scalar>,
) -> Result<IpaOutput> {
    let nn = a.len();
    let mut cg = vec![Scalar::one(); nn];
    let mut ch = hf;
    let mut n = nn;
    let (mut ls, mut rs) = (Vec::new(), Vec::new());
    // Each round, every index i enters one of L, R as a G_i term and the other as an H_i
    // term; U enters both, last.
    let mut l_tables: Vec<&WideTable> = Vec::with_capacity(nn + 1);
    let mut r_tables: Vec<&WideTable> = Vec::with_capacity(nn + 1);
    let (mut l_scalars, mut r_scalars) = (Vec::with_capacity(nn + 1), Vec::with_capacity(nn + 1));
    while n > 1 {
        let half = n / 2;
        let c_l = inner_product(&a[..half], &b[half..n]);
        let c_r = inner_product(&a[half..n], &b[..half]);
        l_tables.clear();
        r_tables.clear();
        for i in 0..nn {
            let j = i % n;
            if j >= half {
                // g_j in the high half: ⟨a_lo, g_hi⟩ in L; h_j in the high half: ⟨b_lo, h_hi⟩ in R.
                l_tables.push(&tables.g_wide[i]);
                l_scalars.push(a[j - half] * cg[i]);
                r_tables.push(&tables.h_wide[i]);
                r_scalars.push(b[j - half] * ch[i]);
            } else {
                // ⟨a_hi, g_lo⟩ in R, ⟨b_hi, h_lo⟩ in L.
                r_tables.push(&tables.g_wide[i]);
                r_scalars.push(a[half + j] * cg[i]);
                l_tables.push(&tables.h_wide[i]);
                l_scalars.push(b[half + j] * ch[i]);
            }
        }
        l_tables.push(&tables.u_wide);
        l_scalars.push(c_l * w);
        r_tables.push(&tables.u_wide);
        r_scalars.push(c_r * w);
        let (l, r) = rayon::join(
            || WideTable::msm_vartime(&l_tables, &l_scalars),
            || WideTable::msm_vartime(&r_tables, &r_scalars),
        );
        l_scalars.zeroize();
        r_scalars.zeroize();

        t.append_point(b"L", &l);
        t.append_point(b"R", &r);
        ls.push(l);
        rs.push(r);
        let u = folding_challenge(t)?;

        for i in 0..half {
            a[i] = a[i] * u + a[half + i];
            b[i] = b[i] + b[half + i] * u;
        }
        a[half..n].iter_mut().for_each(Zeroize::zeroize);
        b[half..n].iter_mut().for_each(Zeroize::zeroize);
        // g' = g_lo + u·g_hi, h' = u·h_lo + h_hi.
        for i in 0..nn {
            if i % n >= half {
                cg[i] *= u;
            } else {
                ch[i] *= u;
            }
        }
        n = half;
    }
    let out = IpaOutput { l: ls, r: rs, a: a[0], b: b[0] };
    a.zeroize();
    b.zeroize();
    Ok(out)
}

/// `⟨b, G⟩ + ⟨b − 1, H⟩` for bits `b` (`bits[i]` 0 or 1): `Σ_{b_i = 1} (G_i + H_i) − Σ H_i`, a
/// constant-time masked sum of one addition per bit instead of a multi-exponentiation.
pub(crate) fn bit_vector_commitment(g: &[Point], h: &[Point], bits: &[u8]) -> Point {
    let sums: Vec<Point> = g.iter().zip(h).map(|(g, h)| *g + *h).collect();
    let h_total: Point = h.iter().copied().sum();
    Point::masked_sum(&sums, bits) - h_total
}

/// Replays the inner-product argument's part of a transcript: each round's `L`, `R` give its
/// folding challenge, then the final `a`, `b` give the batching challenge `c`.
pub(crate) fn replay_rounds(
    t: &mut Sha256Transcript,
    l: &[Point],
    r: &[Point],
    a: &Scalar,
    b: &Scalar,
) -> Result<(Vec<Scalar>, Scalar)> {
    let mut us = Vec::with_capacity(l.len());
    for (l, r) in l.iter().zip(r) {
        t.append_point(b"L", l);
        t.append_point(b"R", r);
        us.push(folding_challenge(t)?);
    }
    t.append_scalar(b"a", a);
    t.append_scalar(b"b", b);
    Ok((us, challenge(t, b"c")?))
}

impl RangeProof {
    /// The encoded length of a proof for `m` values of `bits` bits: `32·(9 + 2·log2(bits·m))`
    /// (672 bytes for one 64-bit value, 800 for four).
    pub fn encoded_len(bits: usize, m: usize) -> usize {
        let rounds = (bits * m).max(1).trailing_zeros() as usize;
        32 * (9 + 2 * rounds)
    }

    /// Proves that each commitment `V_j = v_j·G + γ_j·H` (`γ_j = blindings[j]`) opens to a `v_j`
    /// in `[0, 2^bits)`; `bits ∈ {8, 16, 32, 64}`, `values.len()` a power of two (one aggregated
    /// proof of `32·(9 + 2·log2(bits·m))` bytes). Returns the proof and the commitments.
    /// `context` binds the proof to its use (a session, a request).
    ///
    /// Fails with [`Error::Range`] if a value is out of range, the shape is unsupported or
    /// exceeds `gens`' capacity, or the blindings do not match the values.
    pub fn prove<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        values: &[u64],
        blindings: &[Scalar],
        bits: usize,
        context: &[u8],
        rng: &mut R,
    ) -> Result<(RangeProof, Vec<Point>)> {
        check_shape(gens, bits, values.len())?;
        if values.iter().any(|&v| bits < 64 && v >> bits != 0) {
            return Err(Error::Range(format!("a value is not below 2^{bits}")));
        }
        let mut a_l: Vec<Scalar> =
            values.iter().flat_map(|&v| (0..bits).map(move |i| Scalar::from((v >> i) & 1))).collect();
        let mut vs: Vec<Scalar> = values.iter().map(|&v| Scalar::from(v)).collect();
        let out = Self::prove_unchecked(gens, &vs, &a_l, blindings, bits, context, rng);
        a_l.zeroize();
        vs.zeroize();
        out
    }

    /// The prover's arithmetic on an arbitrary witness: commits to `values` and uses `a_l` as
    /// the bit vector without checking that it is binary or sums to the values. For testing
    /// soundness only (a proof made from a false witness must not verify).
    #[doc(hidden)]
    pub fn prove_unchecked<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        values: &[Scalar],
        a_l: &[Scalar],
        blindings: &[Scalar],
        bits: usize,
        context: &[u8],
        rng: &mut R,
    ) -> Result<(RangeProof, Vec<Point>)> {
        let nn = check_shape(gens, bits, values.len())?.0;
        let tables = prover_tables(&gens.g_vec[..nn], &gens.h_vec[..nn], &gens.u);
        Self::prove_with(gens, tables.as_deref(), values, a_l, blindings, bits, context, rng)
    }

    /// [`RangeProof::prove_unchecked`] with the generators' precomputed tables (`A`, `S` and the
    /// inner-product rounds from fixed-base combs, no folding) or without (`None`: `S` as a
    /// constant-time multi-exponentiation, the rounds folding the generators). Both make the
    /// same proof from the same random draws.
    #[allow(clippy::too_many_arguments)]
    #[doc(hidden)]
    pub fn prove_with<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        tables: Option<&ProverTables>,
        values: &[Scalar],
        a_l: &[Scalar],
        blindings: &[Scalar],
        bits: usize,
        context: &[u8],
        rng: &mut R,
    ) -> Result<(RangeProof, Vec<Point>)> {
        let m = values.len();
        let (nn, _) = check_shape(gens, bits, m)?;
        let tables = tables.filter(|t| t.len() >= nn);
        if blindings.len() != m {
            return Err(Error::Range(format!("{} blindings for {m} values", blindings.len())));
        }
        if a_l.len() != nn {
            return Err(Error::Range(format!("{} bits for {m} values of {bits} bits", a_l.len())));
        }
        let commitments: Vec<Point> =
            values.iter().zip(blindings).map(|(v, gamma)| gens.pedersen.commit(v, gamma).0).collect();
        let mut t = start_transcript(context, bits, &commitments);
        let g_vec = &gens.g_vec[..nn];
        let h_vec = &gens.h_vec[..nn];

        // 1. A and S.
        let mut vector_bases = Vec::with_capacity(2 * nn + 1);
        vector_bases.push(gens.h);
        vector_bases.extend_from_slice(g_vec);
        vector_bases.extend_from_slice(h_vec);
        let mut a_r: Vec<Scalar> = a_l.iter().map(|a| *a - Scalar::one()).collect();
        let mut alpha = Scalar::rand(rng);
        let mut scalars: Vec<Scalar> = Vec::with_capacity(2 * nn + 1);
        // With binary a_L (always, except in soundness tests): ⟨a_L, G⟩ + ⟨a_L − 1, H⟩ =
        // Σ_{a_i = 1} (G_i + H_i) − Σ H_i, a constant-time masked sum of N additions instead of
        // a 2N-term multi-scalar multiplication.
        let binary = a_l.iter().all(|a| a.is_zero() || a.is_one());
        let a_commit = if binary {
            let mut bits: Vec<u8> = a_l.iter().map(|a| u8::from(a.is_one())).collect();
            let out =
                gens.pedersen.commit(&Scalar::zero(), &alpha).0 + bit_vector_commitment(g_vec, h_vec, &bits);
            bits.zeroize();
            out
        } else {
            scalars.push(alpha);
            scalars.extend_from_slice(a_l);
            scalars.extend_from_slice(&a_r);
            let a = Point::msm_ct(&vector_bases, &scalars);
            scalars.zeroize();
            a
        };
        let mut s_l = random_vec(nn, rng);
        let mut s_r = random_vec(nn, rng);
        let mut rho = Scalar::rand(rng);
        let s_commit = match tables {
            // Every term through its generator's constant-time comb (`H`'s is precomputed in
            // zeenot-crypto): no doublings and no per-call tables.
            Some(tb) => {
                let combs: Vec<&FixedBaseTable> = tb.g_comb[..nn].iter().chain(&tb.h_comb[..nn]).collect();
                scalars.extend_from_slice(&s_l);
                scalars.extend_from_slice(&s_r);
                // The G half and the H half on two cores (a split by length: still constant time).
                let (sg, sh) = rayon::join(
                    || FixedBaseTable::msm(&combs[..nn], &scalars[..nn]),
                    || FixedBaseTable::msm(&combs[nn..], &scalars[nn..]),
                );
                let out = Point::msm_ct(std::slice::from_ref(&gens.h), std::slice::from_ref(&rho)) + sg + sh;
                scalars.zeroize();
                out
            }
            None => {
                scalars.push(rho);
                scalars.extend_from_slice(&s_l);
                scalars.extend_from_slice(&s_r);
                let out = Point::msm_ct(&vector_bases, &scalars);
                scalars.zeroize();
                out
            }
        };
        t.append_point(b"A", &a_commit);
        t.append_point(b"S", &s_commit);
        let y = challenge(&mut t, b"y")?;
        let z = challenge(&mut t, b"z")?;

        // 2. l(X) = l0 + l1·X, r(X) = r0 + r1·X; T1, T2.
        let y_pows = powers(y, nn);
        let weights = value_weights(z, bits, m);
        let mut l0: Vec<Scalar> = a_l.iter().map(|a| *a - z).collect();
        let mut r0: Vec<Scalar> = (0..nn).map(|i| y_pows[i] * (a_r[i] + z) + weights[i]).collect();
        let mut r1: Vec<Scalar> = (0..nn).map(|i| y_pows[i] * s_r[i]).collect();
        let l1 = &s_l;
        let mut t1 = inner_product(&l0, &r1) + inner_product(l1, &r0);
        let mut t2 = inner_product(l1, &r1);
        let mut tau1 = Scalar::rand(rng);
        let mut tau2 = Scalar::rand(rng);
        let t1_commit = gens.pedersen.commit(&t1, &tau1).0;
        let t2_commit = gens.pedersen.commit(&t2, &tau2).0;
        t.append_point(b"T1", &t1_commit);
        t.append_point(b"T2", &t2_commit);
        let x = challenge(&mut t, b"x")?;

        // 3. l, r, t̂, τ_x, μ.
        let l: Vec<Scalar> = (0..nn).map(|i| l0[i] + x * l1[i]).collect();
        let r: Vec<Scalar> = (0..nn).map(|i| r0[i] + x * r1[i]).collect();
        let t_hat = inner_product(&l, &r);
        let mut zj = z.square();
        let mut tau_x = tau2 * x.square() + tau1 * x;
        for gamma in blindings {
            tau_x += zj * gamma;
            zj *= z;
        }
        let mu = alpha + rho * x;
        t.append_scalar(b"t_hat", &t_hat);
        t.append_scalar(b"tau_x", &tau_x);
        t.append_scalar(b"mu", &mu);
        let w = challenge(&mut t, b"w")?;

        for v in [&mut a_r, &mut s_l, &mut s_r, &mut l0, &mut r0, &mut r1] {
            v.zeroize();
        }
        for s in [&mut alpha, &mut rho, &mut tau1, &mut tau2, &mut t1, &mut t2] {
            s.zeroize();
        }

        // 4. The inner-product argument (it takes `l` and `r` and wipes them).
        let y_inv_pows = powers(y.inverse().ok_or(Error::InvalidProof)?, nn);
        let ipa = match tables {
            Some(tb) => ipa_prove_tabled(&mut t, tb, y_inv_pows, w, l, r)?,
            None => ipa_prove(&mut t, g_vec, h_vec, y_inv_pows, gens.u.mul_vartime(&w), l, r)?,
        };

        let proof = RangeProof {
            a_commit,
            s_commit,
            t1: t1_commit,
            t2: t2_commit,
            t_hat,
            tau_x,
            mu,
            ipa_l: ipa.l,
            ipa_r: ipa.r,
            ipa_a: ipa.a,
            ipa_b: ipa.b,
        };
        Ok((proof, commitments))
    }

    /// Verifies that every `commitments[j]` opens to a value in `[0, 2^bits)`, for a proof made
    /// with `context`: one multi-exponentiation of `2·bits·m + 2·log2(bits·m) + m + 7` points.
    ///
    /// Fails with [`Error::Range`] for an unsupported shape, [`Error::Encoding`] if the proof's
    /// round count does not match `bits·m`, and [`Error::InvalidProof`] if it does not verify.
    pub fn verify(
        &self,
        gens: &BulletproofGens,
        commitments: &[Point],
        bits: usize,
        context: &[u8],
    ) -> Result<()> {
        let mut terms = MsmTerms::default();
        self.verification_terms(gens, commitments, bits, context, Scalar::one(), &mut terms)?;
        if terms.is_identity(gens) {
            Ok(())
        } else {
            Err(Error::InvalidProof)
        }
    }

    /// Verifies many range proofs with one multi-exponentiation: each proof's equation (as
    /// [`RangeProof::verify`] checks it) times an independent random 128-bit weight drawn from
    /// `rng` after the proofs are fixed, summed, the shared generators `G`, `H`, `U`, `G_i`,
    /// `H_i` entering once. A false proof's equation is a non-identity point of the prime-order
    /// group, so the sum is the identity for at most one value of its weight: a batch with a
    /// false proof passes with probability at most 2^−128. `gens` must cover the widest item.
    /// One item is checked exactly as [`RangeProof::verify`] does (weight 1); no items pass.
    ///
    /// Fails with the first malformed item's error (as [`RangeProof::verify`]'s, its index
    /// named), or [`Error::InvalidProof`] if the sum is not the identity: then some proof is
    /// false, and [`RangeProof::verify_each`] says which.
    pub fn batch_verify<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        items: &[RangeItem<'_>],
        rng: &mut R,
    ) -> Result<()> {
        if let [one] = items {
            return one.proof.verify(gens, one.commitments, one.bits, one.context);
        }
        let weights: Vec<Scalar> = items.iter().map(|_| batch_weight(rng)).collect();
        let (terms, failed) = batch_terms(gens, items, &weights);
        if let Some((i, e)) = failed.into_iter().next() {
            return Err(at_item(i, e));
        }
        if terms.is_identity(gens) {
            Ok(())
        } else {
            Err(Error::InvalidProof)
        }
    }

    /// Each item's verdict, in order: `Ok(())` for a valid proof, else the error
    /// [`RangeProof::verify`] gives it. The well-formed items are checked as one batch
    /// ([`RangeProof::batch_verify`]'s sum); only if the batch fails is each of them verified
    /// on its own, so a batch of valid proofs costs one multi-exponentiation and a batch with
    /// false ones about twice the proofs' separate verification.
    pub fn verify_each<R: RngCore + CryptoRng>(
        gens: &BulletproofGens,
        items: &[RangeItem<'_>],
        rng: &mut R,
    ) -> Vec<Result<()>> {
        let weights: Vec<Scalar> = items.iter().map(|_| batch_weight(rng)).collect();
        let (terms, failed) = batch_terms(gens, items, &weights);
        let mut out: Vec<Result<()>> = items.iter().map(|_| Ok(())).collect();
        let good = items.len() - failed.len();
        let bad: Vec<usize> = failed.iter().map(|(i, _)| *i).collect();
        for (i, e) in failed {
            out[i] = Err(e);
        }
        if good == 0 || terms.is_identity(gens) {
            return out;
        }
        // Some well-formed proof is false: find which, one by one (in parallel).
        use rayon::prelude::*;
        out.par_iter_mut().zip(items).enumerate().filter(|(i, _)| !bad.contains(i)).for_each(
            |(_, (verdict, it))| {
                *verdict = it.proof.verify(gens, it.commitments, it.bits, it.context);
            },
        );
        out
    }

    /// The verification equation of [`RangeProof::verify`], times `weight`, added to `terms`
    /// (the equation holds iff these terms sum to the identity). A batch adds many proofs'
    /// equations, each with an independent random weight, and checks the sum once: the shared
    /// generators then enter the multi-exponentiation once, whatever the batch's size.
    ///
    /// Fails as [`RangeProof::verify`] does for a malformed proof (and with
    /// [`Error::InvalidProof`] for a zero challenge, probability 2^−251), and then adds nothing
    /// to `terms`: every check comes before the first term is added.
    pub fn verification_terms(
        &self,
        gens: &BulletproofGens,
        commitments: &[Point],
        bits: usize,
        context: &[u8],
        weight: Scalar,
        terms: &mut MsmTerms,
    ) -> Result<()> {
        let m = commitments.len();
        let (nn, rounds) = check_shape(gens, bits, m)?;
        if self.ipa_l.len() != rounds || self.ipa_r.len() != rounds {
            return Err(Error::Encoding(format!(
                "the proof has {}/{} inner-product rounds, {m} values of {bits} bits need {rounds}",
                self.ipa_l.len(),
                self.ipa_r.len()
            )));
        }

        // Replay the transcript, the proof's points encoded with one inversion
        // (`append_point` is `append_message` of the encoding).
        let mut t = start_transcript(context, bits, commitments);
        let mut points = vec![self.a_commit, self.s_commit, self.t1, self.t2];
        for (l, r) in self.ipa_l.iter().zip(&self.ipa_r) {
            points.extend([*l, *r]);
        }
        let enc = Point::encode_batch(&points);
        t.append_message(b"A", &enc[0]);
        t.append_message(b"S", &enc[1]);
        let y = challenge(&mut t, b"y")?;
        let z = challenge(&mut t, b"z")?;
        t.append_message(b"T1", &enc[2]);
        t.append_message(b"T2", &enc[3]);
        let x = challenge(&mut t, b"x")?;
        t.append_scalar(b"t_hat", &self.t_hat);
        t.append_scalar(b"tau_x", &self.tau_x);
        t.append_scalar(b"mu", &self.mu);
        let w = challenge(&mut t, b"w")?;
        let mut us = Vec::with_capacity(rounds);
        for lr in enc[4..].chunks_exact(2) {
            t.append_message(b"L", &lr[0]);
            t.append_message(b"R", &lr[1]);
            us.push(folding_challenge(&mut t)?);
        }
        t.append_scalar(b"a", &self.ipa_a);
        t.append_scalar(b"b", &self.ipa_b);
        let c = challenge(&mut t, b"c")?;
        let y_inv = y.inverse().ok_or(Error::InvalidProof)?;

        // The high half's generators `G` fold as `G_lo + u·G_hi`, and `H`'s low half takes `u`
        // (`u·H_lo + H_hi`), so `H_i`'s product is `s_{N−1−i}`.
        let (s, later) = folding_weights(&us);
        let all = later[0];

        let (a, b) = (self.ipa_a, self.ipa_b);
        let z2 = z.square();
        let x2 = x.square();
        let y_inv_pows = powers(y_inv, nn);
        let sum_y: Scalar = powers(y, nn).iter().sum();
        let weights = value_weights(z, bits, m);
        let two_n_minus_one = Scalar::from(((1u128 << bits) - 1) as u64);
        let z_pows = powers(z, m + 3);
        let delta = (z - z2) * sum_y - two_n_minus_one * z_pows[3..].iter().sum::<Scalar>();

        terms.reserve(nn, 2 * rounds + m + 4);
        let mut term = |p: Point, k: Scalar| terms.add(p, weight * k);
        // c·(Σ z^{2+j}·V_j + δ·G + x·T1 + x²·T2 − t̂·G − τ_x·H) + (inner-product check) = 0.
        term(self.a_commit, all);
        term(self.s_commit, all * x);
        term(self.t1, c * x);
        term(self.t2, c * x2);
        for (v, zj) in commitments.iter().zip(&z_pows[2..]) {
            term(*v, c * zj);
        }
        terms.add_rounds(weight, &self.ipa_l, &self.ipa_r, &us, &later);
        terms.g += weight * c * (delta - self.t_hat);
        terms.h -= weight * (all * self.mu + c * self.tau_x);
        terms.u += weight * w * (all * self.t_hat - a * b);
        for (i, s_i) in s.iter().enumerate() {
            terms.g_vec[i] += weight * (-(all * z) - a * s_i);
            terms.h_vec[i] +=
                weight * (all * (z + y_inv_pows[i] * weights[i]) - b * y_inv_pows[i] * s[nn - 1 - i]);
        }
        Ok(())
    }

    /// `A ‖ S ‖ T1 ‖ T2 ‖ t̂ ‖ τ_x ‖ μ ‖ (L_k ‖ R_k)_k ‖ a ‖ b`, 32 bytes each ([`encode_wire`]).
    pub fn encode(&self) -> Vec<u8> {
        encode_wire(
            &[self.a_commit, self.s_commit, self.t1, self.t2],
            [&self.t_hat, &self.tau_x, &self.mu],
            &self.ipa_l,
            &self.ipa_r,
            [&self.ipa_a, &self.ipa_b],
        )
    }

    /// Decodes a proof, checking its length (`32·(9 + 2k)` bytes, `3 ≤ k ≤ 32` rounds), every
    /// point (on the curve, in the subgroup) and every scalar (canonical). Whether `k` fits the
    /// statement is checked by [`RangeProof::verify`].
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let w = decode_wire(bytes, &["A", "S", "T1", "T2"], MIN_ROUNDS, "a range proof")?;
        let [a_commit, s_commit, t1, t2] = w.head[..] else {
            return Err(Error::Encoding("internal: four head points".into()));
        };
        let [t_hat, tau_x, mu] = w.scalars;
        Ok(RangeProof {
            a_commit,
            s_commit,
            t1,
            t2,
            t_hat,
            tau_x,
            mu,
            ipa_l: w.l,
            ipa_r: w.r,
            ipa_a: w.ab[0],
            ipa_b: w.ab[1],
        })
    }
}

/// One proof of a batch ([`RangeProof::batch_verify`], [`RangeProof::verify_each`]): the
/// proof, the commitments it is about, their bit length and the context it was made with.
#[derive(Clone, Copy, Debug)]
pub struct RangeItem<'a> {
    /// The proof.
    pub proof: &'a RangeProof,
    /// `V_0 … V_{m−1}`.
    pub commitments: &'a [Point],
    /// `n`: the range is `[0, 2^n)`.
    pub bits: usize,
    /// The context the proof is bound to.
    pub context: &'a [u8],
}

/// One proof of a batch in wire form ([`verify_each_encoded`]): the packed commitments, the
/// proof's bytes ([`RangeProof::encode`]), the bit length and the context.
#[derive(Clone, Copy, Debug)]
pub struct EncodedRangeItem<'a> {
    /// `V_0 … V_{m−1}`, 32 bytes each (packed as circomlib does).
    pub commitments: &'a [Vec<u8>],
    /// The proof.
    pub proof: &'a [u8],
    /// `n`: the range is `[0, 2^n)`.
    pub bits: usize,
    /// The context the proof is bound to.
    pub context: &'a [u8],
}

/// The most bits (`n·m`) one item of [`verify_each_encoded`] may cover: generators are derived
/// for the widest item, so this bounds the work an untrusted batch can ask for.
pub const MAX_ENCODED_ITEM_BITS: usize = 1 << 12;

/// Each wire-form item's verdict, in order ([`RangeProof::verify_each`]): the commitments and
/// proofs decoded (every point checked on the curve and in the subgroup) in parallel, a
/// malformed item given its decoding error (an item over [`MAX_ENCODED_ITEM_BITS`] an
/// [`Error::Range`]), the rest verified as one batch, one by one only if the batch fails.
pub fn verify_each_encoded<R: RngCore + CryptoRng>(
    items: &[EncodedRangeItem<'_>],
    rng: &mut R,
) -> Vec<Result<()>> {
    use rayon::prelude::*;
    type Decoded = Result<(RangeProof, Vec<Point>)>;
    let decoded: Vec<Decoded> = items
        .par_iter()
        .with_min_len(8)
        .map(|it| {
            if it.bits.checked_mul(it.commitments.len()).is_none_or(|nn| nn > MAX_ENCODED_ITEM_BITS) {
                return Err(Error::Range(format!(
                    "{} values of {} bits exceed {MAX_ENCODED_ITEM_BITS} bits",
                    it.commitments.len(),
                    it.bits
                )));
            }
            let points = it
                .commitments
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    Point::decode_slice(c).map_err(|e| Error::Encoding(format!("commitment {j}: {e}")))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((RangeProof::decode(it.proof)?, points))
        })
        .collect();
    let widest = decoded
        .iter()
        .zip(items)
        .filter(|(d, _)| d.is_ok())
        .map(|(_, it)| it.bits * it.commitments.len())
        .max()
        .unwrap_or(0);
    let gens = BulletproofGens::new(widest);
    let mut index = Vec::with_capacity(items.len());
    let mut good = Vec::with_capacity(items.len());
    for (i, (d, it)) in decoded.iter().zip(items).enumerate() {
        if let Ok((proof, commitments)) = d {
            index.push(i);
            good.push(RangeItem { proof, commitments, bits: it.bits, context: it.context });
        }
    }
    let verdicts = RangeProof::verify_each(&gens, &good, rng);
    let mut out: Vec<Result<()>> = decoded.into_iter().map(|d| d.map(|_| ())).collect();
    for (i, v) in index.into_iter().zip(verdicts) {
        out[i] = v;
    }
    out
}

/// A batch weight: uniform in `[1, 2^128)`, from the verifier's `rng` (never from the proofs).
fn batch_weight<R: RngCore + CryptoRng>(rng: &mut R) -> Scalar {
    loop {
        let mut bytes = [0u8; 16];
        rng.fill_bytes(&mut bytes);
        let w = u128::from_le_bytes(bytes);
        if w != 0 {
            return Scalar::from(w);
        }
    }
}

/// Names the item in a batch error.
fn at_item(i: usize, e: Error) -> Error {
    match e {
        Error::Range(m) => Error::Range(format!("item {i}: {m}")),
        Error::Encoding(m) => Error::Encoding(format!("item {i}: {m}")),
        other => other,
    }
}

/// The weighted sum of the items' equations (`weights[i]` for item `i`), built in parallel;
/// the items that fail [`RangeProof::verification_terms`] (malformed) are left out and listed
/// with their errors, by index.
fn batch_terms(
    gens: &BulletproofGens,
    items: &[RangeItem<'_>],
    weights: &[Scalar],
) -> (MsmTerms, Vec<(usize, Error)>) {
    use rayon::prelude::*;
    let (terms, mut failed) = items
        .par_iter()
        .zip(weights)
        .enumerate()
        // About 50 µs of transcript and scalar work per proof: chunks of 32 at least.
        .with_min_len(32)
        .fold(
            || (MsmTerms::default(), Vec::new()),
            |(mut terms, mut failed), (i, (it, w))| {
                if let Err(e) =
                    it.proof.verification_terms(gens, it.commitments, it.bits, it.context, *w, &mut terms)
                {
                    failed.push((i, e));
                }
                (terms, failed)
            },
        )
        .reduce(
            || (MsmTerms::default(), Vec::new()),
            |(a, mut fa), (b, fb)| {
                fa.extend(fb);
                (a.merged(b), fa)
            },
        );
    failed.sort_by_key(|(i, _)| *i);
    (terms, failed)
}

/// A Bulletproof's parts as its wire form holds them ([`encode_wire`]).
pub(crate) struct Wire {
    pub(crate) head: Vec<Point>,
    pub(crate) scalars: [Scalar; 3],
    pub(crate) l: Vec<Point>,
    pub(crate) r: Vec<Point>,
    pub(crate) ab: [Scalar; 2],
}

/// The wire form range and circuit proofs share: the `head` points ‖ `t̂ ‖ τ_x ‖ μ` ‖
/// `(L_k ‖ R_k)_k` ‖ the inner-product argument's `a ‖ b`, 32 bytes each (points packed as
/// circomlib does, scalars little-endian).
pub(crate) fn encode_wire(
    head: &[Point],
    scalars: [&Scalar; 3],
    l: &[Point],
    r: &[Point],
    ab: [&Scalar; 2],
) -> Vec<u8> {
    let mut points = head.to_vec();
    for (l, r) in l.iter().zip(r) {
        points.push(*l);
        points.push(*r);
    }
    let enc = Point::encode_batch(&points);
    let mut out = Vec::with_capacity(32 * (points.len() + 5));
    for p in &enc[..head.len()] {
        out.extend_from_slice(p);
    }
    for s in scalars {
        out.extend_from_slice(&encode_scalar(s));
    }
    for p in &enc[head.len()..] {
        out.extend_from_slice(p);
    }
    for s in ab {
        out.extend_from_slice(&encode_scalar(s));
    }
    out
}

/// Decodes [`encode_wire`]'s form with `names.len()` head points and `min_rounds ≤ k ≤`
/// [`MAX_ROUNDS`] rounds, checking the length before reading, every point (on the curve, in the
/// subgroup) and every scalar (canonical); `what` names the proof in errors.
pub(crate) fn decode_wire(bytes: &[u8], names: &[&str], min_rounds: usize, what: &str) -> Result<Wire> {
    let fixed = names.len() + 5;
    let words = bytes.len() / 32;
    if words * 32 != bytes.len() || words < fixed || (words - fixed) & 1 == 1 {
        return Err(Error::Encoding(format!("{} bytes is not {what}'s length", bytes.len())));
    }
    let rounds = (words - fixed) / 2;
    if !(min_rounds..=MAX_ROUNDS).contains(&rounds) {
        return Err(Error::Encoding(format!("{rounds} inner-product rounds (at most {MAX_ROUNDS})")));
    }
    let word = |i: usize| -> Result<&[u8; 32]> {
        bytes[32 * i..32 * i + 32]
            .try_into()
            .map_err(|_| Error::Encoding("internal: a 32-byte word of a checked length".into()))
    };
    let scalar =
        |i: usize, what: &str| decode_scalar(word(i)?).map_err(|e| Error::Encoding(format!("{what}: {e}")));
    let at = names.len();
    // The head points and the rounds' L_k, R_k, decoded as one batch (one field inversion).
    let lr = &bytes[32 * (at + 3)..32 * (words - 2)];
    let packed = [&bytes[..32 * at], lr].concat();
    let mut points = Point::decode_batch(&packed).map_err(|(i, e)| {
        let what = match i.checked_sub(at) {
            None => names[i].to_string(),
            Some(j) => format!("{}_{}", if j % 2 == 0 { "L" } else { "R" }, j / 2),
        };
        Error::Encoding(format!("{what}: {e}"))
    })?;
    let lr = points.split_off(at);
    let head = points;
    let scalars = [scalar(at, "t_hat")?, scalar(at + 1, "tau_x")?, scalar(at + 2, "mu")?];
    let l = lr.iter().step_by(2).copied().collect();
    let r = lr.iter().skip(1).step_by(2).copied().collect();
    Ok(Wire { head, scalars, l, r, ab: [scalar(words - 2, "a")?, scalar(words - 1, "b")?] })
}

#[cfg(test)]
mod tabled_tests {
    use super::*;
    use crate::bp_tables::MAX_TABLED_BITS;
    use ark_ff::UniformRand;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use zeenot_crypto::Scalar;

    const CTX: &[u8] = b"bp_tables test";

    fn bits_of(values: &[u64], bits: usize) -> Vec<Scalar> {
        values.iter().flat_map(|&v| (0..bits).map(move |i| Scalar::from((v >> i) & 1))).collect()
    }

    /// The tabled prover (no folding, combs for `S`) and the folding one make the same proof
    /// from the same random draws, and it verifies.
    #[test]
    fn tabled_and_folding_provers_agree() {
        let gens = BulletproofGens::shared(MAX_TABLED_BITS);
        for (bits, m) in [(8, 1), (16, 1), (8, 2), (16, 2), (8, 4), (32, 1)] {
            let tables = prover_tables(&gens.g_vec()[..bits * m], &gens.h_vec()[..bits * m], gens.u())
                .expect("tabled size");
            for seed in 0..3u64 {
                let mut r = ChaCha20Rng::seed_from_u64(seed);
                let values: Vec<u64> = (0..m as u64)
                    .map(|j| match (seed + j) % 3 {
                        0 => 0,
                        1 => (1u64 << bits) - 1,
                        _ => u64::from(u32::rand(&mut r)) & ((1u64 << bits) - 1),
                    })
                    .collect();
                let gammas: Vec<Scalar> = (0..m).map(|_| Scalar::rand(&mut r)).collect();
                let vs: Vec<Scalar> = values.iter().map(|&v| Scalar::from(v)).collect();
                let a_l = bits_of(&values, bits);
                let prove = |t: Option<&ProverTables>| {
                    let mut r = ChaCha20Rng::seed_from_u64(100 + seed);
                    RangeProof::prove_with(&gens, t, &vs, &a_l, &gammas, bits, CTX, &mut r).unwrap()
                };
                let (tabled, c1) = prove(Some(&tables));
                let (folded, c2) = prove(None);
                assert_eq!(c1, c2);
                assert_eq!(tabled.encode(), folded.encode(), "{m} × {bits} bits, seed {seed}");
                tabled.verify(&gens, &c1, bits, CTX).expect("verifies");
                // What `prove` makes (tables picked by size) is that proof too.
                let mut r = ChaCha20Rng::seed_from_u64(100 + seed);
                let (public, _) = RangeProof::prove(&gens, &values, &gammas, bits, CTX, &mut r).unwrap();
                assert_eq!(public, tabled);
            }
        }
    }

    /// A witness outside the range has no proof from the tabled prover, and a forged one
    /// (bits of another value, non-binary bits, another commitment) does not verify.
    #[test]
    fn tabled_prover_refuses_or_fails_on_false_witnesses() {
        let gens = BulletproofGens::shared(16);
        let mut r = ChaCha20Rng::seed_from_u64(7);
        let gamma = Scalar::rand(&mut r);
        let err = RangeProof::prove(&gens, &[1 << 16], &[gamma], 16, CTX, &mut r).unwrap_err();
        assert!(matches!(err, Error::Range(_)), "{err:?}");
        let value = Scalar::from(70_000u64); // above 2^16; its low 16 bits as the witness
        let forgeries = [bits_of(&[70_000 & 0xffff], 16), bits_of(&[0xffff], 16), {
            // 70,000 = 2·35,000 with 35,000 < 2^16: a "bit" of 2 at position 0 absorbs it.
            let mut b = bits_of(&[35_000], 16);
            b.iter_mut().for_each(|x| *x += *x);
            b
        }];
        for (i, a_l) in forgeries.iter().enumerate() {
            assert!(prover_tables(&gens.g_vec()[..16], &gens.h_vec()[..16], gens.u()).is_some());
            let (p, c) =
                RangeProof::prove_unchecked(&gens, &[value], a_l, &[gamma], 16, CTX, &mut r).unwrap();
            assert!(p.verify(&gens, &c, 16, CTX).is_err(), "forgery {i} verified");
        }
        // An honest proof does not verify for another commitment (a wrong opening).
        let (p, c) = RangeProof::prove(&gens, &[1234], &[gamma], 16, CTX, &mut r).unwrap();
        p.verify(&gens, &c, 16, CTX).expect("honest proof");
        let other = [c[0] + Point::generator()];
        assert!(p.verify(&gens, &other, 16, CTX).is_err());
    }

    /// Tables are only used for the generators they were built from: other generators get
    /// their own (and a proof with them verifies against them).
    #[test]
    fn tables_follow_the_generators() {
        let gens = BulletproofGens::shared(16);
        assert!(gens.capacity() >= 64);
        assert!(Arc::ptr_eq(&gens, &BulletproofGens::shared(8)));
        let wide = BulletproofGens::shared(2 * MAX_TABLED_BITS);
        let n = 2 * MAX_TABLED_BITS;
        assert!(prover_tables(&wide.g_vec()[..n], &wide.h_vec()[..n], wide.u()).is_none());
        // G and H swapped: a different generator set of the same size.
        let swapped = BulletproofGens::from_vectors(gens.h_vec()[..16].to_vec(), gens.g_vec()[..16].to_vec());
        let t = prover_tables(swapped.g_vec(), swapped.h_vec(), swapped.u()).expect("tables");
        assert!(t.covers(swapped.g_vec(), swapped.h_vec(), swapped.u()));
        assert!(!t.covers(&gens.g_vec()[..16], &gens.h_vec()[..16], gens.u()));
        let mut r = ChaCha20Rng::seed_from_u64(8);
        let gamma = Scalar::rand(&mut r);
        let (p, c) = RangeProof::prove(&swapped, &[999], &[gamma], 16, CTX, &mut r).unwrap();
        p.verify(&swapped, &c, 16, CTX).expect("verifies with its generators");
        assert!(p.verify(&gens, &c, 16, CTX).is_err());
    }
}
