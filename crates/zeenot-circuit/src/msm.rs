//! Multi-scalar multiplication `Σ scalar_i · base_i` for the prover's five MSMs (85–93 % of a
//! proof's time). Pippenger's bucket method, as arkworks' `msm_bigint`, with two changes that
//! make each point addition cheaper:
//!
//! * **Buckets stay affine and are added to in batches.** An affine addition needs one field
//!   inversion; Montgomery's trick shares one inversion across a batch of independent additions
//!   (three multiplications each), so a bucket addition costs about 6 multiplications against
//!   11 for arkworks' mixed Jacobian addition. Two additions to one bucket are not independent:
//!   the second one, while the first waits in the batch, goes to a Jacobian *spill* bucket
//!   instead (rare for random scalars; all of them when every scalar is `1`, where this costs
//!   what arkworks does).
//! * **Signed digits, and a window chosen by cost.** Digits in `[−2^(c−1), 2^(c−1)]` need half
//!   the buckets (negating an affine point is free), and `c` minimises the estimated field
//!   multiplications of the bucket additions against the bucket sums.
//! * **The GLV split** ([`crate::glv`]): `k·P = k₁·P + k₂·φ(P)` with 127-bit halves, so `2n`
//!   terms of 128 bits instead of `n` of 254: as many bucket additions, half the windows' bucket
//!   sums, and a wider window for the same work. `φ(P)` costs one field multiplication per
//!   base (held for the call: `n` affine points more), a half's sign goes into its digits.
//!
//! Windows run in parallel (rayon). Small inputs go to arkworks, whose fixed costs are lower.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, VariableBaseMSM};
use ark_ff::{Field, PrimeField, Zero};
use rayon::prelude::*;

use crate::glv::{split, Glv};

type BigInt<P> = <<P as ark_ec::CurveConfig>::ScalarField as PrimeField>::BigInt;

/// Below this many terms arkworks' MSM is as fast (measured in G1 on one thread: within 5 % at
/// 2^9, 13 % slower at 2^11, 18 % at 2^12, 29 % at 2^16).
const SMALL: usize = 1 << 9;

/// `Σ scalar_i · base_i` over the shorter of the two slices.
pub fn msm<P: Glv>(bases: &[Affine<P>], scalars: &[BigInt<P>]) -> Projective<P> {
    let n = bases.len().min(scalars.len());
    let (bases, scalars) = (&bases[..n], &scalars[..n]);
    if n < SMALL {
        return Projective::<P>::msm_bigint(bases, scalars);
    }
    // GLV: k·P = k₁·P + k₂·φ(P), |k₁|, |k₂| < 2^127: 2n terms of 127 bits, scalar-major
    // (term 2i is base i, term 2i + 1 is φ(base i)).
    let halves: Vec<(i128, i128)> = scalars.par_iter().map(split::<P>).collect();
    let phi: Vec<Affine<P>> = bases.par_iter().map(P::phi).collect();
    let bits = 128;
    let c = window_bits(2 * n, bits, inversion_cost::<P::BaseField>(), rayon::current_num_threads());
    let windows = bits / c + 1;
    let digits = glv_digits(&halves, c, windows);
    drop(halves);
    let sums: Vec<Projective<P>> = (0..windows)
        .into_par_iter()
        .map(|w| {
            let terms = bases.iter().zip(&phi).flat_map(|(b, p)| [b, p]);
            window_sum(terms, digits.iter().skip(w).step_by(windows), c)
        })
        .collect();
    // Σ_w sums_w · 2^(c·w), highest window first
    sums.iter().rev().fold(Projective::<P>::zero(), |mut acc, s| {
        for _ in 0..c {
            acc.double_in_place();
        }
        acc + s
    })
}

/// The signed digits ([`signed_digits_into`]) of both halves of each scalar, a half's sign
/// applied to its digits (negating a point is free): `digits[(2i + h)·windows + w]`.
fn glv_digits(halves: &[(i128, i128)], c: usize, windows: usize) -> Vec<i16> {
    let mut digits = vec![0i16; 2 * windows * halves.len()];
    digits.par_chunks_mut(2 * windows).zip(halves.par_iter()).for_each(|(out, &(k1, k2))| {
        for (half, k) in out.chunks_mut(windows).zip([k1, k2]) {
            let m = k.unsigned_abs();
            signed_digits_into(&[m as u64, (m >> 64) as u64], c, half);
            if k < 0 {
                half.iter_mut().for_each(|d| *d = -*d);
            }
        }
    });
    digits
}

/// The widest window. (Digits fit an `i16` up to 15 bits; at 2^18 terms a 15-bit window was
/// 2–20 % slower than 13 or 14 bits, its buckets no longer in the cache.)
const MAX_WINDOW: usize = 14;

/// Field multiplications an inversion costs in the curve's base field, measured on BN254:
/// 314 in `F_q` (4.0 µs against 12.8 ns), 75 in `F_q²` (4.1 µs against 54 ns).
fn inversion_cost<F: Field>() -> f64 {
    if F::extension_degree() == 1 {
        314.0
    } else {
        75.0
    }
}

/// Estimated field multiplications of one bucket addition in a batch of `b` among `k` buckets:
/// the affine addition and Montgomery's trick (6), a share of the inversion, and the spill's
/// extra cost (11 against 6) for the additions that collide, about `b / 2k` of them.
fn addition_cost(inversion: f64, b: usize, k: usize) -> f64 {
    6.0 + inversion / b as f64 + 5.0 * b as f64 / (2 * k) as f64
}

/// How many bucket additions share one inversion, for `k` buckets: the `b` that minimises
/// [`addition_cost`], `√(2·inversion·k / 5)`.
fn batch_size(inversion: f64, k: usize) -> usize {
    ((2.0 * inversion * k as f64 / 5.0).sqrt() as usize).clamp(16, 4096)
}

/// The window width `c` (in 2..=14) with the fewest estimated field multiplications on the
/// critical path: each of the `bits / c + 1` windows adds `n` points and sums `k = 2^(c−1)`
/// buckets (a mixed and a full Jacobian addition, ~27 multiplications), and `threads` windows
/// run at once (an odd window count on two threads leaves one alone: 11 windows cost what 12
/// do, measured).
fn window_bits(n: usize, bits: usize, inversion: f64, threads: usize) -> usize {
    let cost = |c: usize| {
        let k = 1usize << (c - 1);
        let add = addition_cost(inversion, batch_size(inversion, k), k);
        (bits / c + 1).div_ceil(threads.max(1)) as f64 * (n as f64 * add + k as f64 * 27.0)
    };
    (2..=MAX_WINDOW).min_by(|&a, &b| cost(a).total_cmp(&cost(b))).unwrap_or(8)
}

/// Each scalar's signed base-`2^c` digits, scalar-major (`digits[i · windows + w]` is scalar
/// `i`'s digit `w`): `s = Σ_w d_w · 2^(c·w)` with `d_w ∈ [−2^(c−1), 2^(c−1)]`. A digit above
/// `2^(c−1)` becomes `d − 2^c` and carries one into the next window. `bits / c + 1` windows hold
/// every carry: the top window's own bits number `bits mod c ≤ c − 1`, so its digit is at most
/// `2^(c−1) − 1` plus a carry, and never carries out. `i16` holds them while `c ≤ 15`.
#[cfg(test)]
fn signed_digits<P: SWCurveConfig>(scalars: &[BigInt<P>], c: usize, windows: usize) -> Vec<i16> {
    debug_assert!((2..=MAX_WINDOW).contains(&c));
    let mut digits = vec![0i16; windows * scalars.len()];
    digits.par_chunks_mut(windows).zip(scalars.par_iter()).for_each(|(out, s)| {
        signed_digits_into(s.as_ref(), c, out);
    });
    digits
}

/// One scalar's (little-endian limbs) signed digits, into `out` (one per window).
fn signed_digits_into(limbs: &[u64], c: usize, out: &mut [i16]) {
    let half = 1i32 << (c - 1);
    let mut carry = 0;
    for (w, d) in out.iter_mut().enumerate() {
        let mut v = bits_at(limbs, w * c, c) as i32 + carry;
        carry = 0;
        if v > half {
            v -= 1 << c;
            carry = 1;
        }
        *d = v as i16;
    }
    debug_assert_eq!(carry, 0, "the top window holds the last carry");
}

/// Bits `start .. start + len` of `s` (`len` < 64), as an integer.
fn bits_at(limbs: &[u64], start: usize, len: usize) -> u64 {
    let (limb, shift) = (start / 64, start % 64);
    if limb >= limbs.len() {
        return 0;
    }
    let mut v = limbs[limb] >> shift;
    if shift + len > 64 && limb + 1 < limbs.len() {
        v |= limbs[limb + 1] << (64 - shift);
    }
    v & ((1u64 << len) - 1)
}

/// `Σ_i digits_i · bases_i` for one window.
fn window_sum<'a, P: SWCurveConfig + 'a>(
    bases: impl Iterator<Item = &'a Affine<P>>,
    digits: impl Iterator<Item = &'a i16>,
    c: usize,
) -> Projective<P> {
    let mut w = Window::<P>::new(1 << (c - 1));
    for (&d, base) in digits.zip(bases) {
        if d == 0 || base.infinity {
            continue;
        }
        let point = if d > 0 { *base } else { -*base };
        w.add(d.unsigned_abs() as usize - 1, point);
    }
    w.flush();
    w.sum()
}

/// One window's buckets: bucket `k` accumulates the points whose digit is `±(k + 1)`.
struct Window<P: SWCurveConfig> {
    /// Affine buckets (`infinity` when empty).
    buckets: Vec<Affine<P>>,
    /// Jacobian buckets for the additions that found their affine bucket in the batch.
    spill: Vec<Projective<P>>,
    /// Whether bucket `k` has an addition waiting in the batch.
    busy: Vec<bool>,
    /// The waiting additions: (bucket, point).
    batch: Vec<(usize, Affine<P>)>,
    /// Montgomery's trick's prefix products.
    prefix: Vec<P::BaseField>,
    capacity: usize,
}

impl<P: SWCurveConfig> Window<P> {
    fn new(buckets: usize) -> Self {
        let capacity = batch_size(inversion_cost::<P::BaseField>(), buckets);
        Window {
            buckets: vec![Affine::<P>::identity(); buckets],
            spill: vec![Projective::<P>::zero(); buckets],
            busy: vec![false; buckets],
            batch: Vec::with_capacity(capacity),
            prefix: Vec::with_capacity(capacity),
            capacity,
        }
    }

    fn add(&mut self, k: usize, point: Affine<P>) {
        if self.busy[k] {
            self.spill[k] += &point;
        } else if self.buckets[k].infinity {
            self.buckets[k] = point;
        } else {
            self.busy[k] = true;
            self.batch.push((k, point));
            if self.batch.len() == self.capacity {
                self.flush();
            }
        }
    }

    /// The denominator of the slope of `bucket + point`: `x₂ − x₁`, or `2y` to double; `None`
    /// when the sum is the identity (`point = −bucket`).
    fn denominator(bucket: &Affine<P>, point: &Affine<P>) -> Option<P::BaseField> {
        if bucket.x != point.x {
            Some(point.x - bucket.x)
        } else if bucket.y == point.y && !bucket.y.is_zero() {
            Some(bucket.y.double())
        } else {
            None
        }
    }

    /// Performs the waiting additions, with one inversion for all of them.
    fn flush(&mut self) {
        self.prefix.clear();
        let mut product = P::BaseField::ONE;
        for (k, point) in &self.batch {
            self.prefix.push(product);
            if let Some(d) = Self::denominator(&self.buckets[*k], point) {
                product *= d;
            }
        }
        // every denominator is non-zero, so their product is
        let mut inverse = product.inverse().expect("a product of non-zero field elements");
        for ((k, point), before) in self.batch.iter().zip(&self.prefix).rev() {
            let bucket = &mut self.buckets[*k];
            self.busy[*k] = false;
            let Some(d) = Self::denominator(bucket, point) else {
                *bucket = Affine::<P>::identity();
                continue;
            };
            let d_inverse = inverse * before;
            inverse *= d;
            let slope = if bucket.x != point.x {
                (point.y - bucket.y) * d_inverse
            } else {
                (bucket.x.square().double() + bucket.x.square() + P::COEFF_A) * d_inverse
            };
            let x = slope.square() - bucket.x - point.x;
            let y = slope * (bucket.x - x) - bucket.y;
            *bucket = Affine::<P>::new_unchecked(x, y);
        }
        self.batch.clear();
    }

    /// `Σ_k (k + 1) · bucket_k`, by running sums from the top bucket down.
    fn sum(&self) -> Projective<P> {
        let mut running = Projective::<P>::zero();
        let mut total = Projective::<P>::zero();
        for (bucket, spill) in self.buckets.iter().zip(&self.spill).rev() {
            if !bucket.infinity {
                running += bucket;
            }
            if !spill.is_zero() {
                running += spill;
            }
            total += &running;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{Fr, G1Affine, G1Projective, G2Projective};
    use ark_ec::CurveGroup;
    use ark_ff::UniformRand;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Bases with repeats and negations (so that batches double and cancel) and the identity;
    /// scalars with zeros, ones, −1 and repeats.
    fn instance<G: CurveGroup<ScalarField = Fr>>(n: usize, seed: u64) -> (Vec<G::Affine>, Vec<Fr>) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let some: Vec<G> = (0..8).map(|_| G::rand(&mut rng)).collect();
        let bases: Vec<G> = (0..n)
            .map(|i| match i % 11 {
                0 => some[i % 8],
                1 => -some[i % 8],
                2 => G::zero(),
                _ => G::rand(&mut rng),
            })
            .collect();
        let scalars = (0..n)
            .map(|i| match i % 7 {
                0 => Fr::from(0u64),
                1 => Fr::from(1u64),
                2 => -Fr::from(1u64),
                3 => Fr::from(5u64),
                _ => Fr::rand(&mut rng),
            })
            .collect();
        (G::normalize_batch(&bases), scalars)
    }

    fn big(s: &[Fr]) -> Vec<<Fr as PrimeField>::BigInt> {
        s.iter().map(|x| x.into_bigint()).collect()
    }

    #[test]
    fn digits_reconstruct_every_scalar_at_every_width() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let mut scalars = vec![Fr::from(0u64), Fr::from(1u64), -Fr::from(1u64), -Fr::from(2u64)];
        scalars.extend((0..60).map(|_| Fr::rand(&mut rng)));
        let bits = Fr::MODULUS_BIT_SIZE as usize;
        for c in 2..=MAX_WINDOW {
            let windows = bits / c + 1;
            let digits = signed_digits::<ark_bn254::g1::Config>(&big(&scalars), c, windows);
            for (i, s) in scalars.iter().enumerate() {
                let mut v = Fr::from(0u64);
                for w in (0..windows).rev() {
                    v *= Fr::from(1u64 << c);
                    let d = digits[i * windows + w];
                    assert!(d.unsigned_abs() <= 1 << (c - 1), "c = {c}: digit {d}");
                    v += if d < 0 { -Fr::from(d.unsigned_abs() as u64) } else { Fr::from(d as u64) };
                }
                assert_eq!(v, *s, "c = {c}");
            }
        }
    }

    #[test]
    fn window_is_at_most_fourteen_bits_and_grows_with_the_input() {
        let sizes = [1usize << 9, 1 << 12, 1 << 16, 1 << 20, 1 << 26];
        for threads in [1, 2, 16] {
            let c: Vec<usize> = sizes.iter().map(|&n| window_bits(n, 128, 314.0, threads)).collect();
            assert!(c.windows(2).all(|w| w[0] <= w[1]), "{c:?}");
            assert!(c.iter().all(|&c| (2..=MAX_WINDOW).contains(&c)));
        }
        // two threads: an even number of windows at 2^15 and 2^19 terms (2^14 and 2^18 bases)
        assert_eq!([1 << 15, 1 << 19].map(|n| (128 / window_bits(n, 128, 314.0, 2) + 1) % 2), [0, 0]);
    }

    #[test]
    fn equals_arkworks_in_g1_and_g2() {
        for (n, seed) in [(0usize, 1u64), (1, 2), (SMALL - 1, 3), (SMALL, 4), (1500, 5), (4100, 6)] {
            let (b1, s1) = instance::<G1Projective>(n, seed);
            assert_eq!(msm(&b1, &big(&s1)), G1Projective::msm_bigint(&b1, &big(&s1)), "G1, n = {n}");
            let (b2, s2) = instance::<G2Projective>(n.min(1600), seed);
            assert_eq!(msm(&b2, &big(&s2)), G2Projective::msm_bigint(&b2, &big(&s2)), "G2, n = {n}");
        }
    }

    /// Every scalar one (each window-0 addition after the first spills) and every point one
    /// base or its negation (each batch doubles or cancels).
    #[test]
    fn equals_arkworks_when_every_addition_collides() {
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let g = G1Affine::from(G1Projective::rand(&mut rng));
        let n = 3000;
        let ones = vec![Fr::from(1u64); n];
        let same = vec![g; n];
        let alternating: Vec<G1Affine> = (0..n).map(|i| if i % 3 == 0 { -g } else { g }).collect();
        for bases in [&same, &alternating] {
            assert_eq!(msm(bases, &big(&ones)), G1Projective::msm_bigint(bases, &big(&ones)));
            let twos = vec![Fr::from(2u64); n];
            assert_eq!(msm(bases, &big(&twos)), G1Projective::msm_bigint(bases, &big(&twos)));
        }
        let (b2, _) = instance::<G2Projective>(600, 10);
        let same2 = vec![b2[5]; 600];
        assert_eq!(
            msm::<ark_bn254::g2::Config>(&same2, &big(&ones[..600])),
            G2Projective::msm_bigint(&same2, &big(&ones[..600]))
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        #[test]
        fn equals_arkworks_on_random_inputs(n in SMALL..2500usize, seed in any::<u64>()) {
            let (b, s) = instance::<G1Projective>(n, seed);
            prop_assert_eq!(msm(&b, &big(&s)), G1Projective::msm_bigint(&b, &big(&s)));
        }
    }
}
