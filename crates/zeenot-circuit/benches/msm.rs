//! The prover's multi-scalar multiplication (`zeenot_circuit::msm`) against arkworks'
//! `msm_bigint`, side by side on the same random bases and scalars, in G1 and G2.
//!
//!     cargo bench -p zeenot-circuit --bench msm
//!     RAYON_NUM_THREADS=1 cargo bench -p zeenot-circuit --bench msm   # one thread

use ark_bn254::{Fr, G1Projective, G2Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{PrimeField, UniformRand};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_circuit::msm::msm;

/// `n` bases (multiples of one random point, normalised together) and `n` random scalars.
fn instance<G: CurveGroup<ScalarField = Fr>>(n: usize) -> (Vec<G::Affine>, Vec<<Fr as PrimeField>::BigInt>) {
    let mut rng = ChaCha20Rng::seed_from_u64(n as u64);
    let g = G::rand(&mut rng);
    let mut p = g;
    let bases: Vec<G> = (0..n)
        .map(|_| {
            p += g;
            p.double()
        })
        .collect();
    let scalars = (0..n).map(|_| Fr::rand(&mut rng).into_bigint()).collect();
    (G::normalize_batch(&bases), scalars)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("msm");
    g.sample_size(10);
    for k in [12u32, 16, 18] {
        let (bases, scalars) = instance::<G1Projective>(1 << k);
        g.bench_with_input(BenchmarkId::new("g1/zeenot", k), &k, |b, _| b.iter(|| msm(&bases, &scalars)));
        g.bench_with_input(BenchmarkId::new("g1/arkworks", k), &k, |b, _| {
            b.iter(|| G1Projective::msm_bigint(&bases, &scalars))
        });
    }
    for k in [12u32, 16] {
        let (bases, scalars) = instance::<G2Projective>(1 << k);
        g.bench_with_input(BenchmarkId::new("g2/zeenot", k), &k, |b, _| b.iter(|| msm(&bases, &scalars)));
        g.bench_with_input(BenchmarkId::new("g2/arkworks", k), &k, |b, _| {
            b.iter(|| G2Projective::msm_bigint(&bases, &scalars))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
