//! Groth16 on IR programs of growing size: synthesis, setup, proving-key validation, prove and
//! verify. The program is a chain of `n` steps `acc = acc * x_i + 1` over `u64` with a check
//! `x_i < 1000` per step (a comparison, a multiplication and an addition that may overflow).
//!
//!     cargo bench -p zeenot-circuit --bench groth16

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::{groth16, Program, Value};

fn chain(n: usize) -> (Program, Vec<Value>) {
    let mut inputs = vec![];
    let mut body = vec![
        json!({"id": 1000, "op": "const", "ty": "u64", "value": "1000"}),
        json!({"id": 1001, "op": "const", "ty": "u64", "value": "1"}),
    ];
    let mut acc = 1001u64;
    let mut next = 2000u64;
    for i in 0..n {
        inputs.push(json!({"id": i, "name": format!("x[{i}]"), "ty": "u64", "vis": "private"}));
        body.push(json!({"id": next, "op": "lt", "ty": "bool", "args": [i, 1000]}));
        body.push(json!({"op": "check", "args": [next]}));
        body.push(json!({"id": next + 1, "op": "mul", "ty": "u64", "args": [acc, i]}));
        body.push(json!({"id": next + 2, "op": "add", "ty": "u64", "args": [next + 1, 1001]}));
        acc = next + 2;
        next += 3;
    }
    let doc = json!({"version": 1, "name": "chain", "inputs": inputs, "body": body,
                     "outputs": [{"name": "acc", "value": acc}]});
    let p = Program::from_json(&doc.to_string()).expect("valid program");
    // x_i = 1 keeps the accumulator small: acc = n + 1
    let values = vec!["1".to_owned(); n];
    let v = p.parse_inputs(&values).expect("valid inputs");
    (p, v)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("groth16");
    g.sample_size(10);
    for n in [16usize, 64, 256] {
        let (p, inputs) = chain(n);
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        g.bench_with_input(BenchmarkId::new("stats", n), &n, |b, _| b.iter(|| groth16::stats(&p).unwrap()));
        g.bench_with_input(BenchmarkId::new("setup", n), &n, |b, _| {
            b.iter(|| groth16::setup(&p, &mut rng).unwrap())
        });
        let (pk, vk) = groth16::setup(&p, &mut rng).unwrap();
        let pk_bytes = groth16::encode_proving_key(&pk);
        g.bench_with_input(BenchmarkId::new("validate_proving_key", n), &n, |b, _| {
            b.iter(|| groth16::decode_proving_key(&pk_bytes).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("prove", n), &n, |b, _| {
            b.iter(|| groth16::prove(&p, &pk, &inputs, &[], &mut rng).unwrap())
        });
        let proven = groth16::prove(&p, &pk, &inputs, &[], &mut rng).unwrap();
        g.bench_with_input(BenchmarkId::new("verify", n), &n, |b, _| {
            b.iter(|| assert!(groth16::verify(&p, &vk, &proven.public, &proven.proof).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
