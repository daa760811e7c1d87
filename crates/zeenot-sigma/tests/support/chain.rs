//! A statement shaped like the sigma back end's, shared by the compressed-proof tests and
//! benchmark (`#[path]`-included: not a test crate of its own).

use ark_ff::UniformRand;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::{Builder, Statement};

/// `k` Pedersen commitments `C_i = v_i·G + r_i·H`, and products `C_{i+1}·v_i` chained as the
/// sigma back end states them (`D_i = v_i·C_{i+1} + t_i·H`): secrets shared across equations,
/// several bases per equation, equations on points computed from the witness.
pub fn chain(k: usize, seed: u64) -> (Statement, Vec<Scalar>) {
    let mut r = ChaCha20Rng::seed_from_u64(seed);
    let (g, h) = (Point::generator(), blinding_generator());
    let vs: Vec<Scalar> = (0..k).map(|_| Scalar::rand(&mut r)).collect();
    let rs: Vec<Scalar> = (0..k).map(|_| Scalar::rand(&mut r)).collect();
    let cs: Vec<Point> = vs.iter().zip(&rs).map(|(v, r)| g.mul_vartime(v) + h.mul_vartime(r)).collect();
    let mut b = Builder::new();
    let mut witness = Vec::new();
    let ge = b.element("G", g);
    let he = b.element("H", h);
    let mut v_secrets = Vec::new();
    for i in 0..k {
        let v = b.secret(format!("v{i}"));
        let rr = b.secret(format!("r{i}"));
        witness.extend([vs[i], rs[i]]);
        let c = b.element(format!("C{i}"), cs[i]);
        b.equation(c, &[(v, ge), (rr, he)]);
        v_secrets.push(v);
    }
    for i in 0..k.saturating_sub(1) {
        let t = Scalar::rand(&mut r);
        let d = cs[i + 1].mul_vartime(&vs[i]) + h.mul_vartime(&t);
        let tt = b.secret(format!("t{i}"));
        witness.push(t);
        let base = b.element(format!("C{}'", i + 1), cs[i + 1]);
        let de = b.element(format!("D{i}"), d);
        b.equation(de, &[(v_secrets[i], base), (tt, he)]);
    }
    (b.build_and().expect("a valid statement"), witness)
}
