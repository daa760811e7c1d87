//! Range proofs on Baby Jubjub: Bulletproofs ([`zeenot_sigma::bulletproofs`]) against the
//! bit-decomposition sigma proof (one Pedersen commitment per bit, an OR proof that each opens
//! to 0 or 1, and a linear proof that they sum to the value's commitment), for 64-bit values.
//!
//! * `range_prove/<impl>/<m>`, `range_verify/<impl>/<m>` with `<impl>` in `bulletproofs`,
//!   `bits`, and `m` values (`m = 1, 4`; the bit-decomposition proof of `m` values is `m`
//!   proofs). Generators and statements are built outside the timed loops, except that the
//!   bit-decomposition prover builds its statement (it depends on the fresh bit commitments).
//! * `range_prove_16/<prover>/1`: one 16-bit value (the cothority provider's proof), with the
//!   precomputed generator tables (`tables`, what `RangeProof::prove` uses up to 32 bits) and
//!   without (`folding`, the prover for larger proofs): the same proof either way.
//! * Proof sizes are printed once at start-up.

use std::hint::black_box;
use std::time::Duration;

use ark_ff::UniformRand;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{CryptoRng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{pedersen::blinding_generator, PedersenGenerators, Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeProof};
use zeenot_sigma::{prove, verify, Builder, Node, Proof, Statement};

const BITS: usize = 64;
const CTX: &[u8] = b"zeenot bench range";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

/// The bit-decomposition statement for `v` committed as `commitment`, given the bit
/// commitments `c_i = b_i·G + r_i·H`.
fn bits_statement(commitment: Point, bit_commitments: &[Point]) -> Statement {
    let g = Point::generator();
    let h_point = blinding_generator();
    let mut b = Builder::new();
    let h = b.element("H", h_point);
    let mut nodes = Vec::new();
    let mut sum = Point::identity();
    for (i, c) in bit_commitments.iter().enumerate() {
        let zero = b.element(format!("C_{i}"), *c);
        let one = b.element(format!("C_{i} - G"), *c - g);
        let r0 = b.secret(format!("r0_{i}"));
        let r1 = b.secret(format!("r1_{i}"));
        let e0 = b.equation(zero, &[(r0, h)]);
        let e1 = b.equation(one, &[(r1, h)]);
        nodes.push(Node::or([e0, e1]));
        let mut weighted = *c;
        for _ in 0..i {
            weighted = weighted.double();
        }
        sum += weighted;
    }
    // Σ 2^i·C_i − V = (Σ 2^i·r_i − γ)·H.
    let diff = b.element("sum - V", sum - commitment);
    let rho = b.secret("rho");
    nodes.push(b.equation(diff, &[(rho, h)]));
    b.build(Node::and(nodes)).expect("a valid statement")
}

/// A bit-decomposition proof: the bit commitments and the sigma proof.
fn bits_prove<R: RngCore + CryptoRng>(
    ped: &PedersenGenerators,
    commitment: Point,
    v: u64,
    gamma: Scalar,
    rng: &mut R,
) -> (Vec<Point>, Proof) {
    let mut cs = Vec::with_capacity(BITS);
    let mut witness = Vec::with_capacity(2 * BITS + 1);
    let mut rho = -gamma;
    let mut two_i = Scalar::from(1u64);
    for i in 0..BITS {
        let bit = (v >> i) & 1;
        let r = Scalar::rand(rng);
        cs.push(ped.commit(&Scalar::from(bit), &r).0);
        witness.push(if bit == 0 { Some(r) } else { None });
        witness.push(if bit == 1 { Some(r) } else { None });
        rho += two_i * r;
        two_i += two_i;
    }
    witness.push(Some(rho));
    let statement = bits_statement(commitment, &cs);
    let proof = prove(&statement, &witness, CTX, rng).expect("the witness holds");
    (cs, proof)
}

/// The 16-bit proof with and without the prover's tables.
fn bench_16(c: &mut Criterion) {
    let gens = BulletproofGens::shared(16);
    let tables = zeenot_sigma::bp_tables::prover_tables(&gens.g_vec()[..16], &gens.h_vec()[..16], gens.u())
        .expect("16 bits are tabled");
    let mut r = rng();
    let gamma = [Scalar::rand(&mut r)];
    let v = 40_000u64;
    let value = [Scalar::from(v)];
    let bits: Vec<Scalar> = (0..16).map(|i| Scalar::from((v >> i) & 1)).collect();
    let mut g = c.benchmark_group("range_prove_16");
    g.sample_size(20).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for (name, t) in [("tables", Some(&*tables)), ("folding", None)] {
        g.bench_function(BenchmarkId::new(name, 1), |b| {
            b.iter(|| {
                RangeProof::prove_with(&gens, t, black_box(&value), &bits, &gamma, 16, CTX, &mut r)
                    .expect("in range")
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let gens = BulletproofGens::new(BITS * 4);
    let ped = PedersenGenerators::new(0);
    let mut r = rng();

    for m in [1usize, 4] {
        let values: Vec<u64> = (0..m).map(|_| r.next_u64()).collect();
        let gammas: Vec<Scalar> = (0..m).map(|_| Scalar::rand(&mut r)).collect();

        // Bulletproofs.
        let (proof, commitments) =
            RangeProof::prove(&gens, &values, &gammas, BITS, CTX, &mut r).expect("in range");
        proof.verify(&gens, &commitments, BITS, CTX).expect("verifies");
        let bp_size = proof.encode().len();

        // Bit decomposition, one proof per value.
        let bit_proofs: Vec<(Statement, Vec<Point>, Proof)> = (0..m)
            .map(|j| {
                let (cs, p) = bits_prove(&ped, commitments[j], values[j], gammas[j], &mut r);
                let statement = bits_statement(commitments[j], &cs);
                verify(&statement, &p, CTX).expect("verifies");
                (statement, cs, p)
            })
            .collect();
        let bits_size: usize = bit_proofs.iter().map(|(_, cs, p)| 32 * cs.len() + p.encode().len()).sum();
        eprintln!(
            "range proof sizes, {m} × {BITS}-bit: bulletproofs {bp_size} B, bit decomposition {bits_size} B"
        );

        let mut g = c.benchmark_group("range_prove");
        g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        g.bench_function(BenchmarkId::new("bulletproofs", m), |b| {
            b.iter(|| {
                RangeProof::prove(&gens, black_box(&values), &gammas, BITS, CTX, &mut r).expect("in range")
            })
        });
        g.bench_function(BenchmarkId::new("bits", m), |b| {
            b.iter(|| {
                (0..m)
                    .map(|j| bits_prove(&ped, commitments[j], black_box(values[j]), gammas[j], &mut r))
                    .collect::<Vec<_>>()
            })
        });
        g.finish();

        let mut g = c.benchmark_group("range_verify");
        g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        g.bench_function(BenchmarkId::new("bulletproofs", m), |b| {
            b.iter(|| black_box(&proof).verify(&gens, &commitments, BITS, CTX).expect("verifies"))
        });
        g.bench_function(BenchmarkId::new("bits", m), |b| {
            b.iter(|| {
                for (statement, _, p) in &bit_proofs {
                    verify(statement, black_box(p), CTX).expect("verifies");
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench_16, bench);
criterion_main!(benches);
