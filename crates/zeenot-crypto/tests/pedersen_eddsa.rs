//! Pedersen commitments, hash-to-curve, transcripts and EdDSA round trips.

use ark_ff::UniformRand;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::ct::FixedBaseTable;
use zeenot_crypto::pedersen::{blinding_generator, vector_generator};
use zeenot_crypto::{
    hash_to_curve, Base, Commitment, Error, PedersenGenerators, Point, Scalar, Sha256Transcript, Signature,
    SigningKey, Transcript, VerifyingKey,
};

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

#[test]
fn hash_to_curve_is_deterministic_domain_separated_and_in_subgroup() {
    let a = hash_to_curve(b"zeenot/test", b"a");
    assert_eq!(a, hash_to_curve(b"zeenot/test", b"a"));
    assert_ne!(a, hash_to_curve(b"zeenot/test2", b"a"));
    assert_ne!(a, hash_to_curve(b"zeenot/test", b"b"));
    // Length-prefixing: moving a byte between domain and message changes the point.
    assert_ne!(hash_to_curve(b"ab", b"c"), hash_to_curve(b"a", b"bc"));
    for p in [a, blinding_generator(), vector_generator(0), vector_generator(1)] {
        assert!(!p.is_identity());
        assert_eq!(Point::decode(&p.encode()).unwrap(), p);
        assert_ne!(p, Point::generator());
    }
    assert_ne!(vector_generator(0), vector_generator(1));
    assert_ne!(blinding_generator(), vector_generator(0));
}

#[test]
fn pedersen_commit_open_and_homomorphism() {
    let mut r = rng(10);
    let gens = PedersenGenerators::new(4);
    let (v1, v2) = (Scalar::from(10u64), Scalar::from(32u64));
    let (c1, r1) = gens.commit_random(&v1, &mut r);
    let (c2, r2) = gens.commit_random(&v2, &mut r);
    assert!(gens.verify(&c1, &v1, &r1));
    assert!(!gens.verify(&c1, &v2, &r1));
    assert!(!gens.verify(&c1, &v1, &r2));
    assert!(gens.verify(&(c1 + c2), &(v1 + v2), &(r1 + r2)));
    assert!(gens.verify(&(c1 - c2), &(v1 - v2), &(r1 - r2)));
    assert_eq!(gens.commit(&v1, &r1).0, Point::generator().mul_vartime(&v1) + gens.h().mul_vartime(&r1));
    assert_eq!(Commitment::decode(&c1.encode()).unwrap(), c1);
    assert_eq!(Commitment::decode(&[0xff; 32]), Err(Error::NonCanonical));

    let vals: Vec<Scalar> = (0..4).map(|_| Scalar::rand(&mut r)).collect();
    let vals2: Vec<Scalar> = (0..4).map(|_| Scalar::rand(&mut r)).collect();
    let (b1, b2) = (Scalar::rand(&mut r), Scalar::rand(&mut r));
    let cv1 = gens.commit_vector(&vals, &b1).unwrap();
    let cv2 = gens.commit_vector(&vals2, &b2).unwrap();
    assert!(gens.verify_vector(&cv1, &vals, &b1));
    let sum: Vec<Scalar> = vals.iter().zip(&vals2).map(|(a, b)| *a + b).collect();
    assert!(gens.verify_vector(&(cv1 + cv2), &sum, &(b1 + b2)));
    let mut swapped = vals.clone();
    swapped.swap(0, 1);
    assert!(!gens.verify_vector(&cv1, &swapped, &b1));
    // A shorter vector is a prefix commitment; too long is an error.
    assert!(gens.commit_vector(&vals[..2], &b1).is_ok());
    assert!(gens.commit_vector(&[Scalar::from(1u64); 5], &b1).is_err());
    assert!(!gens.verify_vector(&cv1, &[Scalar::from(1u64); 5], &b1));
}

#[test]
fn fixed_base_table_for_any_point() {
    let mut r = rng(11);
    let p = Point::mul_base(&Scalar::rand(&mut r));
    let t = FixedBaseTable::new(&p);
    for s in [Scalar::from(0u64), Scalar::from(1u64), -Scalar::from(1u64), Scalar::rand(&mut r)] {
        assert_eq!(t.mul(&s), p.mul_vartime(&s));
    }
}

#[test]
fn transcript_challenges_depend_on_everything() {
    let mk = |domain: &'static [u8], label: &'static [u8], data: &[u8]| {
        let mut t = Sha256Transcript::new(domain);
        t.append_message(label, data);
        t.challenge_scalar(b"c")
    };
    let base = mk(b"d", b"l", b"x");
    assert_eq!(base, mk(b"d", b"l", b"x"));
    assert_ne!(base, mk(b"e", b"l", b"x"));
    assert_ne!(base, mk(b"d", b"m", b"x"));
    assert_ne!(base, mk(b"d", b"l", b"y"));
    let mut t = Sha256Transcript::new(b"d");
    let c1 = t.challenge_scalar(b"c");
    let c2 = t.challenge_scalar(b"c");
    assert_ne!(c1, c2);
}

#[test]
fn eddsa_round_trip_and_tampering() {
    let mut r = rng(12);
    let sk = SigningKey::random(&mut r);
    let pk = sk.verifying_key();
    let msg = Base::rand(&mut r);
    let sig = sk.sign(&msg);
    pk.verify(&msg, &sig).unwrap();
    assert_eq!(Signature::decode(&sig.encode()).unwrap(), sig);
    assert_eq!(sk.sign(&msg), sig, "deterministic");
    assert_eq!(pk.verify(&(msg + Base::from(1u64)), &sig), Err(Error::InvalidSignature));
    let other = SigningKey::random(&mut r).verifying_key();
    assert_eq!(other.verify(&msg, &sig), Err(Error::InvalidSignature));
    let s1 = Signature { s: sig.s + Scalar::from(1u64), ..sig };
    assert_eq!(pk.verify(&msg, &s1), Err(Error::InvalidSignature));
    let r1 = Signature { r8: sig.r8 + Point::generator(), ..sig };
    assert_eq!(pk.verify(&msg, &r1), Err(Error::InvalidSignature));
    assert_eq!(VerifyingKey::decode(&Point::identity().encode()), Err(Error::Identity));
    assert_eq!(Signature::decode(&[0u8; 10]), Err(Error::Length { expected: 64, actual: 10 }));
    assert_eq!(format!("{sk:?}"), "SigningKey(<redacted>)");
    assert_eq!(SigningKey::from_bytes(sk.to_bytes()).verifying_key(), pk);
}

#[test]
fn scalar_and_base_decoders() {
    use zeenot_crypto::{decode_base, decode_scalar, encode_base, encode_scalar};
    let s = -Scalar::from(1u64);
    assert_eq!(decode_scalar(&encode_scalar(&s)).unwrap(), s);
    let mut over = encode_scalar(&s);
    over[0] += 1; // l itself
    assert_eq!(decode_scalar(&over), Err(Error::NonCanonical));
    let b = -Base::from(1u64);
    assert_eq!(decode_base(&encode_base(&b)).unwrap(), b);
    let mut over = encode_base(&b);
    over[0] += 1; // p itself
    assert_eq!(decode_base(&over), Err(Error::NonCanonical));
    assert_eq!(Point::decode_slice(&[1u8; 33]), Err(Error::Length { expected: 32, actual: 33 }));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

    #[test]
    fn prop_eddsa_sign_verify(seed in any::<[u8; 32]>(), m in any::<u64>()) {
        let sk = SigningKey::from_bytes(seed);
        let pk = sk.verifying_key();
        let msg = Base::from(m);
        let sig = sk.sign(&msg);
        prop_assert!(pk.verify(&msg, &sig).is_ok());
        prop_assert!(pk.verify(&Base::from(m.wrapping_add(1)), &sig).is_err());
    }

    #[test]
    fn prop_pedersen_additive(a in any::<u64>(), b in any::<u64>(), seed in any::<u64>()) {
        let mut r = rng(seed);
        let gens = PedersenGenerators::new(0);
        let (ra, rb) = (Scalar::rand(&mut r), Scalar::rand(&mut r));
        let (sa, sb) = (Scalar::from(a), Scalar::from(b));
        prop_assert_eq!(gens.commit(&sa, &ra) + gens.commit(&sb, &rb), gens.commit(&(sa + sb), &(ra + rb)));
    }
}
