//! zeenot's sigma engine on Baby Jubjub against `sigma-proofs` 0.4.1 on ristretto255
//! (curve25519-dalek), on the same statements:
//!
//! * `schnorr`:  `X = x·G`
//! * `pedersen`: `C = v·G + r·H`
//! * `dleq`:     `X = x·G ∧ Y = x·H`
//! * `msm128`:   `Σ s_i·P_i` over 128 random bases and full-width scalars, variable-time and
//!   constant-time.
//!
//! Statements (zeenot `Statement`, sigma-proofs `Instance`) are built once, outside the timed
//! loop; prove and verify are timed separately. Both produce the *batchable* form (commitments
//! and responses), as bytes. Every benchmark is `<op>/<implementation>` (`zeenot`,
//! `zeenot_from_bytes` or `sigma_proofs`), so criterion leaves its figures in
//! `target/criterion/<op>/<implementation>/new/estimates.json`, which
//! `benchmarks/sigma_vs_sigma_proofs.sh` turns into a table.

use std::hint::black_box;
use std::time::Duration;

use ark_ff::UniformRand;
use criterion::{criterion_group, criterion_main, Criterion};
use curve25519_dalek::traits::Identity;
use curve25519_dalek::{RistrettoPoint, Scalar as DScalar};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sigma_proofs::{
    derive_session_id, prove_batchable_with, verify_batchable_with, DefaultHash, Instance, LinearRelation,
    MultiScalarMul, ProverRng,
};
use zeenot_crypto::{pedersen::blinding_generator, Point, Scalar};
use zeenot_sigma::{prove, verify, Builder, Proof, Statement};

type G = RistrettoPoint;

const CTX: &[u8] = b"zeenot bench vs sigma-proofs";
const TAG: &[u8] = b"ZEENOT-BENCH-V01-DSFS-with-sigma-proofs_TurboShake128_Ristretto255";
const MSM_N: usize = 128;

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

fn dscalar<R: RngCore>(r: &mut R) -> DScalar {
    let mut wide = [0u8; 64];
    r.fill_bytes(&mut wide);
    DScalar::from_bytes_mod_order_wide(&wide)
}

fn dpoint<R: RngCore>(r: &mut R) -> G {
    let mut wide = [0u8; 64];
    r.fill_bytes(&mut wide);
    G::from_uniform_bytes(&wide)
}

// ---- the three statements on each side -------------------------------------------------

fn z_schnorr(r: &mut ChaCha20Rng) -> (Statement, Vec<Option<Scalar>>) {
    let xv = Scalar::rand(r);
    let mut b = Builder::new();
    let x = b.secret("x");
    let g = b.element("G", Point::generator());
    let y = b.element("X", Point::mul_base(&xv));
    b.equation(y, &[(x, g)]);
    (b.build_and().expect("statement"), vec![Some(xv)])
}

fn z_pedersen(r: &mut ChaCha20Rng) -> (Statement, Vec<Option<Scalar>>) {
    let (vv, rv) = (Scalar::rand(r), Scalar::rand(r));
    let h_pt = blinding_generator();
    let c_pt = Point::mul_base(&vv) + h_pt.mul_vartime(&rv);
    let mut b = Builder::new();
    let v = b.secret("v");
    let rs = b.secret("r");
    let g = b.element("G", Point::generator());
    let h = b.element("H", h_pt);
    let c = b.element("C", c_pt);
    b.equation(c, &[(v, g), (rs, h)]);
    (b.build_and().expect("statement"), vec![Some(vv), Some(rv)])
}

fn z_dleq(r: &mut ChaCha20Rng) -> (Statement, Vec<Option<Scalar>>) {
    let xv = Scalar::rand(r);
    // A random second base, as on the sigma-proofs side (and as in zeenot's own use: a
    // decryption share proves `X = x·G ∧ D = x·C₁` for a ciphertext's random `C₁`).
    let h_pt = Point::mul_base(&Scalar::rand(r));
    let mut b = Builder::new();
    let x = b.secret("x");
    let g = b.element("G", Point::generator());
    let h = b.element("H", h_pt);
    let xe = b.element("X", Point::mul_base(&xv));
    let ye = b.element("Y", h_pt.mul_vartime(&xv));
    b.equation(xe, &[(x, g)]);
    b.equation(ye, &[(x, h)]);
    (b.build_and().expect("statement"), vec![Some(xv)])
}

fn s_schnorr(r: &mut ChaCha20Rng) -> (Instance<G>, Vec<DScalar>) {
    let xv = dscalar(r);
    let mut rel = LinearRelation::<G>::new();
    let x = rel.allocate_scalar();
    rel.allocate_eq_with(G::mul_base(&xv), x * rel.generator());
    (rel.compile().expect("instance"), vec![xv])
}

fn s_pedersen(r: &mut ChaCha20Rng) -> (Instance<G>, Vec<DScalar>) {
    let (vv, rv) = (dscalar(r), dscalar(r));
    let h_pt = dpoint(r);
    let mut rel = LinearRelation::<G>::new();
    let [v, rs] = rel.allocate_scalars();
    let h = rel.allocate_element_with(h_pt);
    rel.allocate_eq_with(G::mul_base(&vv) + h_pt * rv, v * rel.generator() + rs * h);
    (rel.compile().expect("instance"), vec![vv, rv])
}

fn s_dleq(r: &mut ChaCha20Rng) -> (Instance<G>, Vec<DScalar>) {
    let xv = dscalar(r);
    let h_pt = dpoint(r);
    let mut rel = LinearRelation::<G>::new();
    let x = rel.allocate_scalar();
    let h = rel.allocate_element_with(h_pt);
    rel.allocate_eq_with(G::mul_base(&xv), x * rel.generator());
    rel.allocate_eq_with(h_pt * xv, x * h);
    (rel.compile().expect("instance"), vec![xv])
}

// ---- protocols -------------------------------------------------------------------------

type ZMaker = fn(&mut ChaCha20Rng) -> (Statement, Vec<Option<Scalar>>);
type SMaker = fn(&mut ChaCha20Rng) -> (Instance<G>, Vec<DScalar>);

fn protocol(c: &mut Criterion, name: &str, z: ZMaker, s: SMaker) {
    let mut r = rng();

    // zeenot
    let (st, w) = z(&mut r);
    let proof = prove(&st, &w, CTX, &mut r).expect("prove");
    verify(&st, &proof, CTX).expect("zeenot proof verifies");
    // sigma-proofs
    let (inst, sw) = s(&mut r);
    let sid = derive_session_id::<DefaultHash>(TAG);
    let mut prng = ProverRng::from_seed([7u8; 32]);
    let narg = prove_batchable_with::<DefaultHash, _>(&sid, &inst, &sw[..], &mut prng).expect("prove");
    verify_batchable_with::<DefaultHash, _>(&sid, &inst, &narg).expect("sigma-proofs proof verifies");

    let bytes = proof.encode();
    assert_eq!(Proof::decode(&st, &bytes).expect("decode"), proof);

    // Both sides output the encoded proof.
    let mut g = c.benchmark_group(format!("{name}_prove"));
    g.bench_function("zeenot", |b| {
        b.iter(|| prove(black_box(&st), black_box(&w), CTX, &mut r).expect("prove").encode())
    });
    g.bench_function("sigma_proofs", |b| {
        b.iter(|| {
            prove_batchable_with::<DefaultHash, _>(&sid, black_box(&inst), black_box(&sw[..]), &mut prng)
                .expect("prove")
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{name}_verify"));
    // zeenot's verifier takes a decoded `Proof`; `zeenot_from_bytes` adds `Proof::decode`
    // (curve and subgroup checks of every commitment), as sigma-proofs always parses bytes.
    g.bench_function("zeenot", |b| {
        b.iter(|| verify(black_box(&st), black_box(&proof), CTX).expect("verify"))
    });
    g.bench_function("zeenot_from_bytes", |b| {
        b.iter(|| {
            let p = Proof::decode(black_box(&st), black_box(&bytes)).expect("decode");
            verify(&st, &p, CTX).expect("verify")
        })
    });
    g.bench_function("sigma_proofs", |b| {
        b.iter(|| {
            verify_batchable_with::<DefaultHash, _>(&sid, black_box(&inst), black_box(&narg)).expect("verify")
        })
    });
    g.finish();
}

fn bench_protocols(c: &mut Criterion) {
    protocol(c, "schnorr", z_schnorr, s_schnorr);
    protocol(c, "pedersen", z_pedersen, s_pedersen);
    protocol(c, "dleq", z_dleq, s_dleq);
}

// ---- multi-scalar multiplication -------------------------------------------------------

fn bench_msm(c: &mut Criterion) {
    let mut r = rng();
    let zb: Vec<Point> = (0..MSM_N).map(|_| Point::mul_base(&Scalar::rand(&mut r))).collect();
    let zs: Vec<Scalar> = (0..MSM_N).map(|_| Scalar::rand(&mut r)).collect();
    let db: Vec<G> = (0..MSM_N).map(|_| dpoint(&mut r)).collect();
    let ds: Vec<DScalar> = (0..MSM_N).map(|_| dscalar(&mut r)).collect();

    // Same answer both ways before timing anything.
    assert_eq!(Point::msm_vartime(&zb, &zs), Point::msm_ct(&zb, &zs));
    assert_eq!(<G as MultiScalarMul>::msm_vartime(&ds, &db), <G as MultiScalarMul>::msm(&ds, &db));
    assert_ne!(<G as MultiScalarMul>::msm(&ds, &db), G::identity());

    let mut g = c.benchmark_group(format!("msm{MSM_N}_vartime"));
    g.sample_size(20);
    g.bench_function("zeenot", |b| b.iter(|| Point::msm_vartime(black_box(&zb), black_box(&zs))));
    g.bench_function("sigma_proofs", |b| {
        b.iter(|| <G as MultiScalarMul>::msm_vartime(black_box(&ds), black_box(&db)))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("msm{MSM_N}_ct"));
    g.sample_size(20);
    g.bench_function("zeenot", |b| b.iter(|| Point::msm_ct(black_box(&zb), black_box(&zs))));
    g.bench_function("sigma_proofs", |b| {
        b.iter(|| <G as MultiScalarMul>::msm(black_box(&ds), black_box(&db)))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(40)
        .warm_up_time(Duration::from_millis(700))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_protocols, bench_msm
}
criterion_main!(benches);
