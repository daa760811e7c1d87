//! Completeness and soundness of statement proofs: Schnorr, DLEQ, equality, OR (flat and
//! nested), batch verification, and every way of tampering with a proof or its statement.

use ark_ff::{One, UniformRand};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::{batch_verify, prove, verify, Builder, Error, Node, Proof, Statement};

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn g() -> Point {
    Point::generator()
}

fn h() -> Point {
    blinding_generator()
}

fn schnorr(y: Point) -> Statement {
    let mut b = Builder::new();
    let x = b.secret("x");
    let gen = b.element("G", g());
    let y = b.element("Y", y);
    b.equation(y, &[(x, gen)]);
    b.build_and().unwrap()
}

/// `C` opens to 0 or to 1: `C = r·H` OR `C − G = r'·H`.
fn bit(c: Point) -> Statement {
    let mut b = Builder::new();
    let r0 = b.secret("r0");
    let r1 = b.secret("r1");
    let hh = b.element("H", h());
    let c0 = b.element("C", c);
    let c1 = b.element("C-G", c - g());
    let e0 = b.equation(c0, &[(r0, hh)]);
    let e1 = b.equation(c1, &[(r1, hh)]);
    b.build(Node::or([e0, e1])).unwrap()
}

/// Every single-value mutation of a proof: each commitment, challenge and response.
fn mutations(p: &Proof) -> Vec<(String, Proof)> {
    let mut out = Vec::new();
    for i in 0..p.commitments.len() {
        let mut q = p.clone();
        q.commitments[i] += g();
        out.push((format!("commitment {i}"), q));
    }
    for i in 0..p.challenges.len() {
        let mut q = p.clone();
        q.challenges[i] += Scalar::one();
        out.push((format!("challenge {i}"), q));
    }
    for i in 0..p.responses.len() {
        let mut q = p.clone();
        q.responses[i] += Scalar::one();
        out.push((format!("response {i}"), q));
    }
    out
}

fn assert_all_mutations_rejected(st: &Statement, p: &Proof, ctx: &[u8]) {
    verify(st, p, ctx).unwrap();
    let ms = mutations(p);
    assert!(!ms.is_empty());
    for (what, q) in ms {
        assert_eq!(verify(st, &q, ctx), Err(Error::InvalidProof), "{what} mutated was accepted");
    }
}

#[test]
fn schnorr_complete_and_sound() {
    let mut r = rng(1);
    let x = Scalar::rand(&mut r);
    let st = schnorr(Point::mul_base(&x));
    let p = prove(&st, &[Some(x)], b"ctx", &mut r).unwrap();
    assert_all_mutations_rejected(&st, &p, b"ctx");
    assert_eq!(verify(&st, &p, b"other ctx"), Err(Error::InvalidProof));
    // Statement changed after proving (Frozen Heart): another public key.
    let other = schnorr(Point::mul_base(&(x + Scalar::one())));
    assert_eq!(verify(&other, &p, b"ctx"), Err(Error::InvalidProof));
    // Wrong witness.
    assert!(matches!(prove(&st, &[Some(x + Scalar::one())], b"ctx", &mut r), Err(Error::Witness(_))));
    assert!(matches!(prove(&st, &[None], b"ctx", &mut r), Err(Error::Witness(_))));
    assert!(matches!(prove(&st, &[], b"ctx", &mut r), Err(Error::Witness(_))));
}

#[test]
fn dleq_binds_equality() {
    let mut r = rng(2);
    let x = Scalar::rand(&mut r);
    let build = |xg: Point, xh: Point| {
        let mut b = Builder::new();
        let s = b.secret("x");
        let (gg, hh) = (b.element("G", g()), b.element("H", h()));
        let (a, c) = (b.element("X", xg), b.element("Y", xh));
        b.equation(a, &[(s, gg)]);
        b.equation(c, &[(s, hh)]);
        b.build_and().unwrap()
    };
    let st = build(Point::mul_base(&x), h().mul_vartime(&x));
    let p = prove(&st, &[Some(x)], b"", &mut r).unwrap();
    assert_all_mutations_rejected(&st, &p, b"");
    // Different logs cannot be proved equal.
    let y = x + Scalar::one();
    let bad = build(Point::mul_base(&x), h().mul_vartime(&y));
    assert!(matches!(prove(&bad, &[Some(x)], b"", &mut r), Err(Error::Witness(_))));
}

#[test]
fn or_proof_hides_branch_and_rejects_tampering() {
    let mut r = rng(3);
    for v in [0u64, 1] {
        let rv = Scalar::rand(&mut r);
        let c = Point::mul_base(&Scalar::from(v)) + h().mul_vartime(&rv);
        let st = bit(c);
        let w = if v == 0 { [Some(rv), None] } else { [None, Some(rv)] };
        let p = prove(&st, &w, b"bit", &mut r).unwrap();
        assert_all_mutations_rejected(&st, &p, b"bit");
        // Swapping the structure (AND instead of OR) changes the transcript.
        assert_eq!(p.challenges.len(), 1);
    }
    // A commitment to 2 is neither 0 nor 1.
    let rv = Scalar::rand(&mut r);
    let c = Point::mul_base(&Scalar::from(2u64)) + h().mul_vartime(&rv);
    assert!(matches!(prove(&bit(c), &[Some(rv), Some(rv)], b"bit", &mut r), Err(Error::Witness(_))));
}

#[test]
fn nested_or_inside_and_inside_or() {
    // (A ∧ (B ∨ C)) ∨ D with the prover knowing only C's and A's secrets, then only D's.
    let mut r = rng(4);
    let ks: Vec<Scalar> = (0..4).map(|_| Scalar::rand(&mut r)).collect();
    let build = |pts: &[Point]| {
        let mut b = Builder::new();
        let gen = b.element("G", g());
        let mut leaves = Vec::new();
        for (i, p) in pts.iter().enumerate() {
            let s = b.secret(format!("k{i}"));
            let e = b.element(format!("P{i}"), *p);
            leaves.push(b.equation(e, &[(s, gen)]));
        }
        let [a, bb, c, d]: [Node; 4] = leaves.try_into().unwrap();
        b.build(Node::or([Node::and([a, Node::or([bb, c])]), d])).unwrap()
    };
    let pts: Vec<Point> = ks.iter().map(Point::mul_base).collect();
    let st = build(&pts);
    for w in [
        vec![Some(ks[0]), None, Some(ks[2]), None],
        vec![None, None, None, Some(ks[3])],
        vec![Some(ks[0]), Some(ks[1]), None, None],
        ks.iter().copied().map(Some).collect(),
    ] {
        let p = prove(&st, &w, b"n", &mut r).unwrap();
        assert_eq!(p.challenges.len(), 2);
        assert_all_mutations_rejected(&st, &p, b"n");
    }
    // B alone does not make the left branch true; D's secret wrong.
    let w = vec![None, Some(ks[1]), None, Some(ks[0])];
    assert!(matches!(prove(&st, &w, b"n", &mut r), Err(Error::Witness(_))));
}

#[test]
fn batch_verification_catches_one_bad_proof() {
    let mut r = rng(5);
    let items: Vec<(Statement, Proof)> = (0..8)
        .map(|_| {
            let x = Scalar::rand(&mut r);
            let st = schnorr(Point::mul_base(&x));
            let p = prove(&st, &[Some(x)], b"b", &mut r).unwrap();
            (st, p)
        })
        .collect();
    let refs: Vec<(&Statement, &Proof, &[u8])> = items.iter().map(|(s, p)| (s, p, &b"b"[..])).collect();
    batch_verify(&refs, &mut r).unwrap();
    for i in 0..items.len() {
        let mut bad = items[i].1.clone();
        bad.responses[0] += Scalar::one();
        let mut refs2 = refs.clone();
        refs2[i].1 = &bad;
        assert_eq!(batch_verify(&refs2, &mut r), Err(Error::InvalidProof), "bad proof {i} accepted in batch");
    }
    // A proof checked against the wrong statement inside a batch.
    let mut refs3 = refs.clone();
    refs3[0].0 = &items[1].0;
    assert_eq!(batch_verify(&refs3, &mut r), Err(Error::InvalidProof));
}

#[test]
fn encoding_round_trips_and_rejects_garbage() {
    let mut r = rng(6);
    let rv = Scalar::rand(&mut r);
    let st = bit(h().mul_vartime(&rv));
    let p = prove(&st, &[Some(rv), None], b"", &mut r).unwrap();
    let bytes = p.encode();
    assert_eq!(bytes.len(), Proof::encoded_len(&st));
    assert_eq!(Proof::decode(&st, &bytes).unwrap(), p);
    assert!(matches!(Proof::decode(&st, &bytes[1..]), Err(Error::Encoding(_))));
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(Proof::decode(&st, &long), Err(Error::Encoding(_))));
    // A non-canonical scalar (all ones ≥ l) and a y with no curve point.
    let mut bad = bytes.clone();
    let last = bad.len() - 32;
    bad[last..].fill(0xff);
    assert!(matches!(Proof::decode(&st, &bad), Err(Error::Encoding(_))));
    let mut bad = bytes.clone();
    bad[..32].fill(0xff);
    assert!(matches!(Proof::decode(&st, &bad), Err(Error::Encoding(_))));
}

#[test]
fn malformed_statements_are_rejected() {
    let mut b = Builder::new();
    let x = b.secret("x");
    let gen = b.element("G", g());
    let e0 = b.equation(gen, &[(x, gen)]);
    let e1 = b.equation(gen, &[(x, gen)]);
    // x shared across OR branches.
    let err = b.clone().build(Node::or([e0.clone(), e1.clone()])).unwrap_err();
    assert!(err.to_string().contains("two different OR branches"), "{err}");
    // An equation twice, one missing, a dangling index, a one-child OR, an empty AND.
    assert!(b.clone().build(Node::and([e0.clone(), e0.clone()])).is_err());
    assert!(b.clone().build(e0.clone()).is_err());
    assert!(b.clone().build(Node::and([e0.clone(), e1.clone(), Node::Eq(7)])).is_err());
    assert!(b.clone().build(Node::and([Node::or([e0.clone()]), e1.clone()])).is_err());
    assert!(b.clone().build(Node::and([e0, e1, Node::and([])])).is_err());
    // An unused secret.
    let mut b = Builder::new();
    let x = b.secret("x");
    b.secret("unused");
    let gen = b.element("G", g());
    b.equation(gen, &[(x, gen)]);
    assert!(b.build_and().unwrap_err().to_string().contains("not used"));
}

#[test]
fn wrong_witness_rejected_in_big_statements_too() {
    // Past a few equations the prover checks its witness by verifying the finished proof.
    let mut r = rng(7);
    let ks: Vec<Scalar> = (0..12).map(|_| Scalar::rand(&mut r)).collect();
    let mut b = Builder::new();
    let gen = b.element("G", g());
    for (i, k) in ks.iter().enumerate() {
        let s = b.secret(format!("k{i}"));
        let e = b.element(format!("P{i}"), Point::mul_base(k));
        b.equation(e, &[(s, gen)]);
    }
    let st = b.build_and().unwrap();
    let mut w: Vec<Option<Scalar>> = ks.iter().copied().map(Some).collect();
    let p = prove(&st, &w, b"big", &mut r).unwrap();
    verify(&st, &p, b"big").unwrap();
    w[5] = Some(ks[5] + Scalar::one());
    assert!(matches!(prove(&st, &w, b"big", &mut r), Err(Error::Witness(_))));
}
