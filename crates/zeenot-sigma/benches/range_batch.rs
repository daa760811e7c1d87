//! Batch verification of Bulletproofs range proofs ([`RangeProof::batch_verify`]) against
//! verifying them one by one, for `k = 1, 16, 128, 1024` proofs of one 16-bit value each (a
//! provider's attribute in `[0, 2^16)`, each proof under its own context as the cothority's
//! records are).
//!
//! * `range_batch_verify/batch/<k>`: one call, one multi-exponentiation;
//! * `range_batch_verify/each/<k>`: `k` calls of [`RangeProof::verify`].
//!
//! Divide by `k` for the time per proof. Proofs are made outside the timed loops. Run:
//! `cargo bench -p zeenot-sigma --bench range_batch` (and say the machine's load).

use std::hint::black_box;
use std::time::Duration;

use ark_ff::UniformRand;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeItem, RangeProof};

const BITS: usize = 16;

fn bench(c: &mut Criterion) {
    let gens = BulletproofGens::new(BITS);
    let mut r = ChaCha20Rng::seed_from_u64(0x5eed);
    let max = 1024;
    let cases: Vec<(RangeProof, Vec<Point>, Vec<u8>)> = (0..max)
        .map(|i| {
            let ctx = format!("zeenot bench range batch {i}").into_bytes();
            let v: u64 = r.gen_range(0..1 << BITS);
            let (p, cs) = RangeProof::prove(&gens, &[v], &[Scalar::rand(&mut r)], BITS, &ctx, &mut r)
                .expect("in range");
            (p, cs, ctx)
        })
        .collect();
    eprintln!("one {BITS}-bit range proof: {} bytes", cases[0].0.encode().len());

    let mut g = c.benchmark_group("range_batch_verify");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for k in [1usize, 16, 128, 1024] {
        let items: Vec<RangeItem<'_>> = cases[..k]
            .iter()
            .map(|(p, cs, ctx)| RangeItem { proof: p, commitments: cs, bits: BITS, context: ctx })
            .collect();
        RangeProof::batch_verify(&gens, &items, &mut r).expect("valid batch");
        g.throughput(Throughput::Elements(k as u64));
        g.bench_function(BenchmarkId::new("batch", k), |b| {
            b.iter(|| RangeProof::batch_verify(&gens, black_box(&items), &mut r).expect("valid batch"))
        });
        g.bench_function(BenchmarkId::new("each", k), |b| {
            b.iter(|| {
                for it in black_box(&items) {
                    it.proof.verify(&gens, it.commitments, BITS, it.context).expect("verifies");
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
