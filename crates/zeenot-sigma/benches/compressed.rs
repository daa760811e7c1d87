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

use ark_ff::UniformRand;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{pedersen::blinding_generator, Point, Scalar};
use zeenot_sigma::bulletproofs::BulletproofGens;
use zeenot_sigma::compressed::{self, CompressedProof};
use zeenot_sigma::{prove, verify, Builder, Proof, Statement};

const SIZES: [usize; 3] = [64, 512, 4096];
const CTX: &[u8] = b"zeenot bench compressed";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

/// The statement and its witness (see the module documentation).
fn chain(k: usize) -> (Statement, Vec<Scalar>) {
    let mut r = rng();
    let (g, h) = (Point::generator(), blinding_generator());
    let vs: Vec<Scalar> = (0..k).map(|_| Scalar::rand(&mut r)).collect();
    let rs: Vec<Scalar> = (0..k).map(|_| Scalar::rand(&mut r)).collect();
    let cs: Vec<Point> = vs.iter().zip(&rs).map(|(v, r)| g.mul_vartime(v) + h.mul_vartime(r)).collect();
    let mut b = Builder::new();
    let mut witness = Vec::new();
    let (ge, he) = (b.element("G", g), b.element("H", h));
    let mut v_secrets = Vec::new();
    for i in 0..k {
        let (v, rr) = (b.secret(format!("v{i}")), b.secret(format!("r{i}")));
        witness.extend([vs[i], rs[i]]);
        let c = b.element(format!("C{i}"), cs[i]);
        b.equation(c, &[(v, ge), (rr, he)]);
        v_secrets.push(v);
    }
    for i in 0..k - 1 {
        let t = Scalar::rand(&mut r);
        let d = cs[i + 1].mul_vartime(&vs[i]) + h.mul_vartime(&t);
        let tt = b.secret(format!("t{i}"));
        witness.push(t);
        let base = b.element(format!("C{}'", i + 1), cs[i + 1]);
        let de = b.element(format!("D{i}"), d);
        b.equation(de, &[(v_secrets[i], base), (tt, he)]);
    }
    (b.build_and().expect("a valid statement"), witness)
}

fn bench(c: &mut Criterion) {
    let gens = BulletproofGens::new(4 * SIZES[SIZES.len() - 1]);
    let cases: Vec<(usize, Statement, Vec<Scalar>)> = SIZES
        .iter()
        .map(|&k| {
            let (st, w) = chain(k);
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
