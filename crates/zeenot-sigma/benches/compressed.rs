//! Compressed sigma proofs ([`zeenot_sigma::compressed`]) against Maurer proofs
//! ([`zeenot_sigma::proof`]) of the same AND statements: `k` Pedersen openings and `k − 1`
//! product equations chained as the sigma back end states them (`D_i = v_i·C_{i+1} + t_i·H`),
//! so `3k − 1` secrets and `2k − 1` equations.
//!
//! * `sigma_prove/<form>/<k>`, `sigma_verify/<form>/<k>` with `<form>` in `maurer`,
//!   `compressed` and `k` in 64, 512, 4096. Generators and statements are built outside the
//!   timed loops.
//! * Proof sizes are printed once at start-up.
//!
//! `cargo bench -p zeenot-sigma --bench compressed`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::Scalar;
use zeenot_sigma::bulletproofs::BulletproofGens;
use zeenot_sigma::compressed::{self, CompressedProof};
use zeenot_sigma::{prove, verify, Proof, Statement};

#[path = "../tests/support/chain.rs"]
mod chain;
use chain::chain;

const SIZES: [usize; 3] = [64, 512, 4096];
const CTX: &[u8] = b"zeenot bench compressed";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

fn bench(c: &mut Criterion) {
    let gens = BulletproofGens::new(4 * SIZES[SIZES.len() - 1]);
    let cases: Vec<(usize, Statement, Vec<Scalar>)> = SIZES
        .iter()
        .map(|&k| {
            let (st, w) = chain(k, 0x5eed);
            (k, st, w)
        })
        .collect();
    for (k, st, w) in &cases {
        let some: Vec<Option<Scalar>> = w.iter().copied().map(Some).collect();
        let maurer = prove(st, &some, CTX, &mut rng()).expect("proves").encode().len();
        let comp = compressed::prove(&gens, st, w, CTX, &mut rng()).expect("proves").encode().len();
        println!(
            "k = {k}: Maurer {maurer} B, compressed {comp} B ({:.0}× smaller)",
            maurer as f64 / comp as f64
        );
    }

    let mut group = c.benchmark_group("sigma_prove");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for (k, st, w) in &cases {
        let some: Vec<Option<Scalar>> = w.iter().copied().map(Some).collect();
        group.bench_with_input(BenchmarkId::new("maurer", k), k, |b, _| {
            b.iter(|| black_box(prove(st, &some, CTX, &mut rng()).expect("proves")))
        });
        group.bench_with_input(BenchmarkId::new("compressed", k), k, |b, _| {
            b.iter(|| black_box(compressed::prove(&gens, st, w, CTX, &mut rng()).expect("proves")))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("sigma_verify");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for (k, st, w) in &cases {
        let some: Vec<Option<Scalar>> = w.iter().copied().map(Some).collect();
        let maurer: Proof = prove(st, &some, CTX, &mut rng()).expect("proves");
        let comp: CompressedProof = compressed::prove(&gens, st, w, CTX, &mut rng()).expect("proves");
        group.bench_with_input(BenchmarkId::new("maurer", k), k, |b, _| {
            b.iter(|| verify(st, &maurer, CTX).expect("verifies"))
        });
        group.bench_with_input(BenchmarkId::new("compressed", k), k, |b, _| {
            b.iter(|| compressed::verify(&gens, st, &comp, CTX).expect("verifies"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
