//! Compressed sigma proofs: completeness for every vector length, and rejection of a false
//! statement, a wrong witness, every tampered field, another context or statement, OR
//! statements, and malformed encodings.

use ark_ff::{One, UniformRand, Zero};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, MsmTerms};
use zeenot_sigma::compressed::{self, CompressedProof};
use zeenot_sigma::{Builder, Error, Node, Statement};

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

#[path = "support/chain.rs"]
mod chain;
use chain::chain;

fn gens() -> BulletproofGens {
    BulletproofGens::new(64)
}

fn verify(statement: &Statement, proof: &CompressedProof, ctx: &[u8]) -> Result<(), Error> {
    compressed::verify(&gens(), statement, proof, ctx)
}

#[test]
fn proofs_of_every_length_verify_and_have_their_announced_size() {
    for k in 1..=9 {
        let (st, w) = chain(k, k as u64);
        let proof = compressed::prove(&gens(), &st, &w, b"ctx", &mut rng(1)).unwrap();
        verify(&st, &proof, b"ctx").unwrap_or_else(|e| panic!("k = {k}: {e}"));
        let bytes = proof.encode();
        assert_eq!(bytes.len(), CompressedProof::encoded_len(&st));
        assert_eq!(CompressedProof::decode(&bytes).unwrap(), proof);
    }
}

#[test]
fn a_false_statement_or_a_wrong_witness_gets_no_proof() {
    let (st, mut w) = chain(5, 7);
    w[3] += Scalar::one();
    let proof = compressed::prove(&gens(), &st, &w, b"ctx", &mut rng(2)).unwrap();
    assert_eq!(verify(&st, &proof, b"ctx"), Err(Error::InvalidProof));
}

#[test]
fn every_tampered_field_is_rejected() {
    let (st, w) = chain(6, 3);
    let proof = compressed::prove(&gens(), &st, &w, b"ctx", &mut rng(3)).unwrap();
    let g = Point::generator();
    let mut tampered: Vec<(String, CompressedProof)> = Vec::new();
    let mut q = proof.clone();
    q.commitment += g;
    tampered.push(("P".into(), q));
    let mut q = proof.clone();
    q.a1 += g;
    tampered.push(("A1".into(), q));
    let mut q = proof.clone();
    q.a2 += g;
    tampered.push(("A2".into(), q));
    let mut q = proof.clone();
    q.phi += Scalar::one();
    tampered.push(("phi".into(), q));
    let mut q = proof.clone();
    q.z += Scalar::one();
    tampered.push(("z".into(), q));
    for j in 0..proof.rounds.len() {
        for i in 0..4 {
            let mut q = proof.clone();
            q.rounds[j][i] += g;
            tampered.push((format!("round {j} point {i}"), q));
        }
    }
    for (what, q) in tampered {
        assert_eq!(verify(&st, &q, b"ctx"), Err(Error::InvalidProof), "{what}");
    }
    // Another context, or the same shape with other points.
    assert_eq!(verify(&st, &proof, b"other"), Err(Error::InvalidProof));
    let (other, _) = chain(6, 4);
    assert_eq!(verify(&other, &proof, b"ctx"), Err(Error::InvalidProof));
    // Rounds for another length.
    let mut q = proof.clone();
    q.rounds.pop();
    assert!(matches!(verify(&st, &q, b"ctx"), Err(Error::Encoding(_))));
}

#[test]
fn a_satisfiable_statement_with_one_false_equation_is_rejected() {
    // Equations that each have a solution but no common one: x·G = G and x·G = 2·G. A proof
    // made with either value fails (the combination with ρ cannot be met by a witness fixed
    // before ρ).
    let g = Point::generator();
    let mut b = Builder::new();
    let x = b.secret("x");
    let ge = b.element("G", g);
    let g2 = b.element("2G", g.double());
    b.equation(ge, &[(x, ge)]);
    b.equation(g2, &[(x, ge)]);
    let st = b.build_and().unwrap();
    for v in [Scalar::one(), Scalar::from(2u64)] {
        let proof = compressed::prove(&gens(), &st, &[v], b"", &mut rng(5)).unwrap();
        assert_eq!(verify(&st, &proof, b""), Err(Error::InvalidProof));
    }
}

#[test]
fn or_statements_are_refused() {
    let (g, h) = (Point::generator(), blinding_generator());
    let mut b = Builder::new();
    let r0 = b.secret("r0");
    let r1 = b.secret("r1");
    let he = b.element("H", h);
    let c = b.element("C", h);
    let c1 = b.element("C-G", h - g);
    let e0 = b.equation(c, &[(r0, he)]);
    let e1 = b.equation(c1, &[(r1, he)]);
    let st = b.build(Node::or([e0, e1])).unwrap();
    let err = compressed::prove(&gens(), &st, &[Scalar::one(), Scalar::zero()], b"", &mut rng(6));
    assert!(matches!(err, Err(Error::Statement(_))));
}

#[test]
fn malformed_encodings_are_errors() {
    let (st, w) = chain(4, 9);
    let bytes = compressed::prove(&gens(), &st, &w, b"", &mut rng(7)).unwrap().encode();
    for len in [0, 31, 32 * 5 - 1, 32 * 6, bytes.len() - 1, bytes.len() + 32] {
        let mut b = bytes.clone();
        b.resize(len, 0);
        assert!(matches!(CompressedProof::decode(&b), Err(Error::Encoding(_))), "length {len}");
    }
    // A point off the curve, a non-canonical scalar.
    let mut b = bytes.clone();
    b[..32].copy_from_slice(&[0xff; 32]);
    assert!(matches!(CompressedProof::decode(&b), Err(Error::Encoding(_))));
    let mut b = bytes.clone();
    let n = b.len();
    b[n - 32..].copy_from_slice(&[0xff; 32]);
    assert!(matches!(CompressedProof::decode(&b), Err(Error::Encoding(_))));
    // Too many rounds announced by the length alone.
    let huge = vec![0u8; 32 * (5 + 4 * 33)];
    assert!(matches!(CompressedProof::decode(&huge), Err(Error::Encoding(_))));
}

#[test]
fn a_batch_fails_when_one_proof_is_false() {
    let (st, w) = chain(5, 11);
    let good = compressed::prove(&gens(), &st, &w, b"a", &mut rng(8)).unwrap();
    let mut bad = compressed::prove(&gens(), &st, &w, b"b", &mut rng(9)).unwrap();
    let batch = |items: &[(&CompressedProof, &[u8])]| {
        let mut r = rng(10);
        let mut terms = MsmTerms::default();
        for (p, ctx) in items {
            compressed::verification_terms(&st, p, ctx, || Scalar::rand(&mut r), &mut terms).unwrap();
        }
        terms.is_identity(&gens())
    };
    assert!(batch(&[(&good, b"a"), (&bad, b"b")]));
    bad.z += Scalar::one();
    assert!(!batch(&[(&good, b"a"), (&bad, b"b")]));
}
