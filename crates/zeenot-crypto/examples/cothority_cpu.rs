//! CPU time (not wall time) of the collective authority's steps per ciphertext, on a batch of
//! 1,000: a measurement that a loaded machine does not inflate (criterion's wall-clock figures
//! in `benches/cothority.rs` are the reference on a quiet one). Process CPU time from
//! `/proc/self/stat` (Linux; 10 ms ticks), so run it on one thread:
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p zeenot-crypto --example cothority_cpu`

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::cothority::{self, dkg, keyswitch, tags};
use zeenot_crypto::elgamal::{Ciphertext, PublicKey, SecretKey};
use zeenot_crypto::{Point, Scalar};

const N: usize = 1000;

/// User + system CPU seconds of this process so far.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn measure<T>(name: &str, reps: usize, mut f: impl FnMut() -> T) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    let cpu = (cpu_seconds() - c0) / (reps * N) as f64;
    let wall = w0.elapsed().as_secs_f64() / (reps * N) as f64;
    println!("{name:<44} {:>8.1} µs CPU per ciphertext ({:>8.1} µs wall)", cpu * 1e6, wall * 1e6);
}

fn main() {
    let reps: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (t, m) = (2, 3);
    let (dealings, shares): (Vec<_>, Vec<_>) =
        (1..=m).map(|i| dkg::deal(i, t, m, b"cpu", &mut rng).expect("deal")).unzip();
    let mine: Vec<Scalar> = shares.iter().map(|s: &Vec<dkg::Share>| s[0].0).collect();
    let key = dkg::combine(t, m, &dealings, 1, &mine).expect("combine");
    let x = PublicKey::from_point(key.public.collective).expect("key");
    let cts: Vec<Ciphertext> = (0..N as u64).map(|v| x.encrypt(v, &mut rng)).collect();
    let q = SecretKey::random(&mut rng).public_key();
    let lam = dkg::lagrange_at_zero(&[1, 2], 1).expect("lagrange");
    let xj = key.public.verification_keys[0];
    let share = key.secret.0;

    println!("{N} ciphertexts, {reps} repetitions, {} rayon threads", rayon::current_num_threads());
    measure("key switch with proof", reps, || {
        keyswitch::key_switch(&share, 1, &lam, &q, &cts, b"q", &mut rng)
    });
    let batch = keyswitch::key_switch(&share, 1, &lam, &q, &cts, b"q", &mut rng).expect("switch");
    measure("verify key switch (decoded)", reps, || {
        keyswitch::verify_key_switch(&batch, &xj, &lam, &q, &cts, b"q").expect("valid")
    });
    let (cb, ab, bb) = (
        cothority::encode_ciphertexts(&cts),
        cothority::encode_points(&batch.a),
        cothority::encode_points(&batch.b),
    );
    let decoded = cothority::DecodedCiphertexts::decode(&cb).expect("decode");
    measure("verify key switch (A, B from bytes)", reps, || {
        let (a, b) = (
            cothority::DecodedPoints::decode(&ab).expect("a"),
            cothority::DecodedPoints::decode(&bb).expect("b"),
        );
        keyswitch::verify_key_switch_decoded(1, a, b, batch.proof, &xj, &lam, &q, &decoded, b"q")
            .expect("valid")
    });
    measure("decode ciphertexts (2 points each)", reps, || {
        cothority::decode_ciphertexts(&cb).expect("decode")
    });
    let (s, big_s): (Scalar, Point) = tags::tag_secret(&mut rng);
    measure("tag step with proof", reps, || tags::tag_step(&s, &share, 1, &lam, &cts, b"q", &mut rng));
    let (out, proof) = tags::tag_step(&s, &share, 1, &lam, &cts, b"q", &mut rng).expect("tag");
    measure("verify tag step (decoded)", reps, || {
        tags::verify_tag_step(&out, &proof, &big_s, &xj, 1, &lam, &cts, b"q").expect("valid")
    });
    measure("aggregate", reps * 20, || cothority::aggregate(&cts));
    measure("fixed-base multiplication (x1000)", reps, || {
        (0..N).map(|i| Point::mul_base(&Scalar::from(i as u64 + 7))).fold(Point::identity(), |a, p| a + p)
    });
}
