//! Criterion benchmarks of the verifiable shuffle (`zeenot_crypto::shuffle`): 1,000 rows of
//! width 1 and 5, prove (re-encryption included) and verify (proof decoding included), and
//! verification from bytes (every input and output point decoded and checked as well).
//!
//! Batches: `k = 1, 4, 16` shuffles of 1,000 rows of width 1 (a chain, as the answering
//! servers produce them) verified one by one and in one batch (`verify_shuffles`).
//!
//! `cargo bench -p zeenot-crypto --bench shuffle` (`-- --quick` for a short run; `-- batch`
//! for the batches only).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::shuffle::{
    decode_rows, encode_rows, shuffle, verify_shuffle, verify_shuffles, ShuffleProof, ShuffleStatement,
};
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

fn bench_batch(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let pk = SecretKey::random(&mut rng).public_key();
    let n = 1000;
    let mut lists = vec![(0..n).map(|j| vec![pk.encrypt(j as u64, &mut rng)]).collect::<Vec<_>>()];
    let mut proofs = Vec::new();
    for _ in 0..16 {
        let (out, proof) =
            shuffle(&pk, &lists[lists.len() - 1], b"bench", &mut rng).unwrap_or_else(|e| panic!("{e}"));
        lists.push(out);
        proofs.push(proof);
    }
    let mut g = c.benchmark_group("shuffle_batch");
    g.sample_size(10);
    for k in [1usize, 4, 16] {
        let st: Vec<ShuffleStatement<'_>> = (0..k)
            .map(|i| ShuffleStatement {
                pk: &pk,
                input: &lists[i],
                output: &lists[i + 1],
                proof: &proofs[i],
                context: b"bench",
            })
            .collect();
        g.bench_function(format!("one_by_one_{k}x{n}"), |b| {
            b.iter(|| {
                for s in black_box(&st) {
                    verify_shuffle(s.pk, s.input, s.output, s.proof, s.context)?;
                }
                Ok::<_, zeenot_crypto::Error>(())
            })
        });
        g.bench_function(format!("batched_{k}x{n}"), |b| b.iter(|| verify_shuffles(black_box(&st))));
    }
    g.finish();
}

criterion_group!(benches, bench_shuffle, bench_batch);
criterion_main!(benches);
