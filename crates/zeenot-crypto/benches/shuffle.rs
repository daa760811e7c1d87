//! Criterion benchmarks of the verifiable shuffle (`zeenot_crypto::shuffle`): 1,000 rows of
//! width 1 and 5, prove (re-encryption included) and verify (proof decoding included), and
//! verification from bytes (every input and output point decoded and checked as well).
//!
//! `cargo bench -p zeenot-crypto --bench shuffle` (`-- --quick` for a short run).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::shuffle::{decode_rows, encode_rows, shuffle, verify_shuffle, ShuffleProof};
use zeenot_crypto::SecretKey;

fn bench_shuffle(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let pk = SecretKey::random(&mut rng).public_key();
    let mut g = c.benchmark_group("shuffle");
    g.sample_size(10);
    for w in [1usize, 5] {
        let n = 1000;
        let rows: Vec<Vec<_>> =
            (0..n).map(|j| (0..w).map(|_| pk.encrypt(j as u64, &mut rng)).collect()).collect();
        let ctx = b"bench";
        // Warm the generator cache and the fixed-base tables outside the timings.
        let (out, proof) = shuffle(&pk, &rows, ctx, &mut rng).unwrap_or_else(|e| panic!("{e}"));
        let bytes = proof.encode();
        let (in_bytes, out_bytes) = (encode_rows(&rows), encode_rows(&out));
        g.bench_function(format!("prove_{n}x{w}"), |b| {
            b.iter(|| shuffle(&pk, black_box(&rows), ctx, &mut rng))
        });
        g.bench_function(format!("verify_{n}x{w}"), |b| {
            b.iter(|| {
                let p = ShuffleProof::decode(black_box(&bytes), n, w)?;
                verify_shuffle(&pk, &rows, &out, &p, ctx)
            })
        });
        g.bench_function(format!("verify_from_bytes_{n}x{w}"), |b| {
            b.iter(|| {
                let input = decode_rows(black_box(&in_bytes), n, w)?;
                let output = decode_rows(black_box(&out_bytes), n, w)?;
                let p = ShuffleProof::decode(black_box(&bytes), n, w)?;
                verify_shuffle(&pk, &input, &output, &p, ctx)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_shuffle);
criterion_main!(benches);
