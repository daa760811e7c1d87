//! Criterion benchmarks of zeenot-crypto's primitives.
//!
//! `cargo bench -p zeenot-crypto --bench crypto -- --quick` for a short run.

use ark_ff::UniformRand;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{poseidon, Base, DlogTable, Point, Scalar, SecretKey, SigningKey};

fn scalar_mul(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let s = Scalar::rand(&mut rng);
    let p = Point::mul_base(&Scalar::rand(&mut rng));
    let b = Point::generator();
    let _ = Point::mul_base(&s); // build the fixed-base table outside the timing
    let mut g = c.benchmark_group("scalar_mul");
    g.bench_function("base8_fixed_base_table_ct", |bench| bench.iter(|| Point::mul_base(black_box(&s))));
    g.bench_function("base8_vartime_comb", |bench| bench.iter(|| b.mul_vartime(black_box(&s))));
    g.bench_function("variable_base_ct_window", |bench| bench.iter(|| p.mul_ct(black_box(&s))));
    g.bench_function("variable_base_vartime_wnaf", |bench| bench.iter(|| p.mul_vartime(black_box(&s))));
    // The baseline: arkworks' own double-and-add on the same curve (its ed_on_bn254 model).
    let ark = p.to_ed_on_bn254();
    g.bench_function("variable_base_arkworks_vartime", |bench| bench.iter(|| black_box(ark) * black_box(s)));
    g.finish();
}

fn elgamal(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let sk = SecretKey::random(&mut rng);
    let pk = sk.public_key();
    let a = pk.encrypt(5, &mut rng);
    let b = pk.encrypt(7, &mut rng);
    let mut g = c.benchmark_group("elgamal");
    g.bench_function("keygen", |bench| bench.iter(|| SecretKey::random(&mut rng).public_key()));
    g.bench_function("encrypt", |bench| bench.iter(|| pk.encrypt(black_box(12345), &mut rng)));
    let prepared = zeenot_crypto::PreparedPublicKey::new(&pk);
    g.bench_function("encrypt_prepared_key", |bench| {
        bench.iter(|| prepared.encrypt(black_box(12345), &mut rng))
    });
    g.bench_function("add", |bench| bench.iter(|| black_box(a) + black_box(b)));
    g.bench_function("rerandomize", |bench| bench.iter(|| pk.rerandomize(black_box(&a), &mut rng)));
    g.bench_function("key_switch", |bench| bench.iter(|| sk.key_switch(black_box(&a), &pk, &mut rng)));
    g.bench_function("partial_decrypt_with_proof", |bench| {
        bench.iter(|| sk.partial_decrypt(black_box(&a), &mut rng))
    });
    let share = sk.partial_decrypt(&a, &mut rng).unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("verify_decryption_share", |bench| bench.iter(|| share.verify(&pk, black_box(&a))));
    g.finish();
}

fn dlog(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let sk = SecretKey::random(&mut rng);
    let pk = sk.public_key();
    let mut g = c.benchmark_group("decrypt");
    g.sample_size(10);
    g.bench_function("table_build_2^16", |bench| bench.iter(|| DlogTable::new(16)));
    g.bench_function("table_build_2^32", |bench| bench.iter(|| DlogTable::new(32)));
    let t16 = DlogTable::new(16).unwrap_or_else(|e| panic!("{e}"));
    let t32 = DlogTable::new(32).unwrap_or_else(|e| panic!("{e}"));
    for (name, table, m) in [
        ("2^16_mid", &t16, 1u64 << 15),
        ("2^16_worst", &t16, (1 << 16) - 1),
        ("2^32_mid", &t32, 1u64 << 31),
        ("2^32_worst", &t32, (1 << 32) - 1),
    ] {
        let ct = pk.encrypt(m, &mut rng);
        g.bench_function(name, |bench| bench.iter(|| sk.decrypt(black_box(&ct), table)));
    }
    g.finish();
}

fn hashes_and_signatures(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let (x, y) = (Base::rand(&mut rng), Base::rand(&mut rng));
    let _ = poseidon(&[x, y]);
    c.bench_function("poseidon_2", |bench| bench.iter(|| poseidon(black_box(&[x, y]))));
    let five: Vec<Base> = (0..5).map(|_| Base::rand(&mut rng)).collect();
    c.bench_function("poseidon_5", |bench| bench.iter(|| poseidon(black_box(&five))));
    let sk = SigningKey::random(&mut rng);
    let pk = sk.verifying_key();
    let sig = sk.sign(&x);
    c.bench_function("eddsa_poseidon_sign", |bench| bench.iter(|| sk.sign(black_box(&x))));
    c.bench_function("eddsa_poseidon_verify", |bench| bench.iter(|| pk.verify(black_box(&x), &sig)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scalar_mul, elgamal, dlog, hashes_and_signatures
}
criterion_main!(benches);
