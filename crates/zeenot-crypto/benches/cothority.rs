//! Criterion benchmarks of the collective authority's steps on a batch of 1,000 ciphertexts
//! (per server): key switching with its proof, batch verification (from decoded points and
//! from bytes, decoding included), a tagging step and its verification.
//!
//! `cargo bench -p zeenot-crypto --bench cothority` (`RAYON_NUM_THREADS=1` for one core).
//! Throughput is reported per ciphertext. Goals (issue 29): switch + proof ≤ 0.25 ms per
//! ciphertext and server, batch verification ≤ 0.1 ms per ciphertext.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::cothority::{self, dkg, keyswitch, tags};
use zeenot_crypto::elgamal::{Ciphertext, PublicKey, SecretKey};
use zeenot_crypto::{Point, Scalar};

const N: usize = 1000;

struct Setup {
    keys: Vec<dkg::KeyShare>,
    cts: Vec<Ciphertext>,
    querier: PublicKey,
    lam: Scalar,
}

fn setup(rng: &mut ChaCha20Rng) -> Setup {
    let (t, m) = (2, 3);
    let (dealings, shares): (Vec<_>, Vec<_>) =
        (1..=m).map(|i| dkg::deal(i, t, m, b"bench", rng).unwrap_or_else(|e| panic!("{e}"))).unzip();
    let keys: Vec<dkg::KeyShare> = (1..=m)
        .map(|j| {
            let mine: Vec<Scalar> = shares.iter().map(|s: &Vec<dkg::Share>| s[j as usize - 1].0).collect();
            dkg::combine(t, m, &dealings, j, &mine).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let x = PublicKey::from_point(keys[0].public.collective).unwrap_or_else(|e| panic!("{e}"));
    let cts = (0..N as u64).map(|v| x.encrypt(v, rng)).collect();
    let querier = SecretKey::random(rng).public_key();
    let lam = dkg::lagrange_at_zero(&[1, 2], 1).unwrap_or_else(|e| panic!("{e}"));
    Setup { keys, cts, querier, lam }
}

fn key_switch(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let s = setup(&mut rng);
    let k = &s.keys[0];
    let xj = k.public.verification_keys[0];
    let mut g = c.benchmark_group("cothority_keyswitch_1000");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("switch_with_proof", |b| {
        b.iter(|| {
            keyswitch::key_switch(&k.secret.0, 1, &s.lam, &s.querier, black_box(&s.cts), b"q", &mut rng)
        })
    });
    let batch = keyswitch::key_switch(&k.secret.0, 1, &s.lam, &s.querier, &s.cts, b"q", &mut rng)
        .unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("verify_batch_decoded", |b| {
        b.iter(|| keyswitch::verify_key_switch(black_box(&batch), &xj, &s.lam, &s.querier, &s.cts, b"q"))
    });
    let cts_bytes = cothority::encode_ciphertexts(&s.cts);
    let a_bytes = cothority::encode_points(&batch.a);
    let b_bytes = cothority::encode_points(&batch.b);
    g.bench_function("verify_batch_from_bytes_inputs_decoded", |b| {
        let cts = cothority::DecodedCiphertexts::decode(&cts_bytes).unwrap_or_else(|e| panic!("{e}"));
        b.iter(|| {
            let a = cothority::DecodedPoints::decode(black_box(&a_bytes))?;
            let bb = cothority::DecodedPoints::decode(black_box(&b_bytes))?;
            keyswitch::verify_key_switch_decoded(1, a, bb, batch.proof, &xj, &s.lam, &s.querier, &cts, b"q")
        })
    });
    g.bench_function("verify_batch_from_bytes_all", |b| {
        b.iter(|| {
            let cts = cothority::DecodedCiphertexts::decode(black_box(&cts_bytes))?;
            let a = cothority::DecodedPoints::decode(black_box(&a_bytes))?;
            let bb = cothority::DecodedPoints::decode(black_box(&b_bytes))?;
            keyswitch::verify_key_switch_decoded(1, a, bb, batch.proof, &xj, &s.lam, &s.querier, &cts, b"q")
        })
    });
    g.finish();
}

fn tagging(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let s = setup(&mut rng);
    let k = &s.keys[0];
    let xj = k.public.verification_keys[0];
    let (sec, commit): (Scalar, Point) = tags::tag_secret(&mut rng);
    let mut g = c.benchmark_group("cothority_tag_1000");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("tag_step_with_proof", |b| {
        b.iter(|| tags::tag_step(&sec, &k.secret.0, 1, &s.lam, black_box(&s.cts), b"q", &mut rng))
    });
    let (out, proof) = tags::tag_step(&sec, &k.secret.0, 1, &s.lam, &s.cts, b"q", &mut rng)
        .unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("verify_tag_step_decoded", |b| {
        b.iter(|| tags::verify_tag_step(black_box(&out), &proof, &commit, &xj, 1, &s.lam, &s.cts, b"q"))
    });
    g.finish();
}

fn misc(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let s = setup(&mut rng);
    let bytes = cothority::encode_ciphertexts(&s.cts);
    let mut g = c.benchmark_group("cothority_misc_1000");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("decode_ciphertexts", |b| b.iter(|| cothority::decode_ciphertexts(black_box(&bytes))));
    g.bench_function("aggregate", |b| b.iter(|| cothority::aggregate(black_box(&s.cts))));
    g.finish();
}

criterion_group!(benches, key_switch, tagging, misc);
criterion_main!(benches);
