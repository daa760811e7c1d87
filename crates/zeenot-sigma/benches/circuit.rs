//! Arithmetic-circuit proofs ([`zeenot_sigma::circuit`]) against range proofs
//! ([`zeenot_sigma::bulletproofs`]) on the same statement: `N/64` committed 64-bit values are
//! each below `2^64`, shown by a bit-decomposition circuit of `N` gates (gate `i` has
//! `a_L = b_i`, `a_R = b_i − 1`, `a_O = 0`, and `v_j = Σ 2^i·b_i`) and by one aggregated range
//! proof of `m = N/64` values.
//!
//! * `circuit_prove/<impl>/<N>`, `circuit_verify/<impl>/<N>`, `<impl>` in `circuit`, `range`,
//!   `N = 2^10, 2^12, 2^14` bits; `circuit_prove/circuit_general/<N>` proves the same circuit
//!   with its bit gates hidden from the prover's masked-sum shortcut (the cost of a circuit of
//!   `N` general gates). Generators, circuits, witnesses and commitments are built
//!   outside the timed loops (the verifier's timing includes absorbing the circuit into the
//!   transcript and flattening its constraints).
//! * `gens/new/32768`: deriving `BulletproofGens::new(2^15)` (what a `2^15`-gate circuit needs).
//! * Proof sizes and the circuits' constraint counts are printed once at start-up.

use std::hint::black_box;
use std::time::Duration;

use ark_ff::{AdditiveGroup, One, UniformRand, Zero};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::{PedersenGenerators, Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeProof};
use zeenot_sigma::circuit::{Assignment, Circuit, CircuitProof, Var};

const BITS: usize = 64;
const CTX: &[u8] = b"zeenot bench circuit";

/// `values` committed values, each below `2^BITS` by bit decomposition. With `general`, each
/// `a_R = a_L − 1` is written with the constant split in two terms (`+2 − 1`), which hides the
/// bit gates from the prover: it then commits the wires with its general constant-time
/// multi-exponentiations, as for any circuit.
fn range_circuit(values: usize, general: bool) -> Circuit {
    let mut c = Circuit::new();
    for _ in 0..values {
        let v = c.commitment();
        let mut sum = vec![(v, -Scalar::one())];
        let mut two_i = Scalar::one();
        for _ in 0..BITS {
            let g = c.gate();
            let mut decrement = vec![(Var::Right(g), Scalar::one()), (Var::Left(g), -Scalar::one())];
            if general {
                decrement.extend([(Var::One, Scalar::from(2u64)), (Var::One, -Scalar::one())]);
            } else {
                decrement.push((Var::One, Scalar::one()));
            }
            c.constrain(decrement);
            c.constrain([(Var::Out(g), Scalar::one())]);
            sum.push((Var::Left(g), two_i));
            two_i.double_in_place();
        }
        c.constrain(sum);
    }
    c
}

fn range_assignment(values: &[u64]) -> Assignment {
    let mut a = Assignment::default();
    for &v in values {
        for i in 0..BITS {
            let b = Scalar::from((v >> i) & 1);
            a.left.push(b);
            a.right.push(b - Scalar::one());
            a.out.push(Scalar::zero());
        }
        a.values.push(Scalar::from(v));
    }
    a
}

fn bench(c: &mut Criterion) {
    let max = 1usize << 14;
    let gens = BulletproofGens::new(max);
    let ped = PedersenGenerators::new(0);
    let mut r = ChaCha20Rng::seed_from_u64(0x5eed);

    for log_n in [10u32, 12, 14] {
        let nn = 1usize << log_n;
        let m = nn / BITS;
        let values: Vec<u64> = (0..m).map(|_| r.next_u64()).collect();
        let gammas: Vec<Scalar> = (0..m).map(|_| Scalar::rand(&mut r)).collect();
        let commitments: Vec<Point> =
            values.iter().zip(&gammas).map(|(v, g)| ped.commit(&Scalar::from(*v), g).0).collect();
        let circuit = range_circuit(m, false);
        let general = range_circuit(m, true);
        let assignment = range_assignment(&values);

        let cp = CircuitProof::prove(&gens, &circuit, &commitments, &assignment, &gammas, CTX, &mut r)
            .expect("satisfied");
        cp.verify(&gens, &circuit, &commitments, CTX).expect("verifies");
        let (rp, rc) = RangeProof::prove(&gens, &values, &gammas, BITS, CTX, &mut r).expect("in range");
        assert_eq!(rc, commitments);
        rp.verify(&gens, &commitments, BITS, CTX).expect("verifies");
        eprintln!(
            "N = {nn} bits ({m} × {BITS}): circuit proof {} B ({} gates, {} constraints, {} terms), \
             range proof {} B",
            cp.encode().len(),
            circuit.gates(),
            circuit.constraints(),
            circuit.terms(),
            rp.encode().len()
        );

        let mut g = c.benchmark_group("circuit_prove");
        g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        g.bench_function(BenchmarkId::new("circuit", nn), |b| {
            b.iter(|| {
                CircuitProof::prove(
                    &gens,
                    &circuit,
                    &commitments,
                    black_box(&assignment),
                    &gammas,
                    CTX,
                    &mut r,
                )
                .expect("satisfied")
            })
        });
        g.bench_function(BenchmarkId::new("circuit_general", nn), |b| {
            b.iter(|| {
                CircuitProof::prove(
                    &gens,
                    &general,
                    &commitments,
                    black_box(&assignment),
                    &gammas,
                    CTX,
                    &mut r,
                )
                .expect("satisfied")
            })
        });
        g.bench_function(BenchmarkId::new("range", nn), |b| {
            b.iter(|| {
                RangeProof::prove(&gens, black_box(&values), &gammas, BITS, CTX, &mut r).expect("in range")
            })
        });
        g.finish();

        let mut g = c.benchmark_group("circuit_verify");
        g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        g.bench_function(BenchmarkId::new("circuit", nn), |b| {
            b.iter(|| black_box(&cp).verify(&gens, &circuit, &commitments, CTX).expect("verifies"))
        });
        g.bench_function(BenchmarkId::new("range", nn), |b| {
            b.iter(|| black_box(&rp).verify(&gens, &commitments, BITS, CTX).expect("verifies"))
        });
        g.finish();
    }

    let mut g = c.benchmark_group("gens");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    g.bench_function(BenchmarkId::new("new", 1 << 15), |b| {
        b.iter(|| BulletproofGens::new(black_box(1 << 15)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
