//! ElGamal, discrete logs, key switching, collective decryption and DLEQ proofs.

use std::sync::OnceLock;

use ark_ec::CurveGroup;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::elgamal::{combine_shares_point, CIPHERTEXT_LEN};
use zeenot_crypto::{
    combine_shares, Ciphertext, DecryptionShare, DleqProof, DlogTable, Error, Point, PublicKey, Scalar,
    SecretKey,
};

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn table16() -> &'static DlogTable {
    static T: OnceLock<DlogTable> = OnceLock::new();
    T.get_or_init(|| DlogTable::new(16).unwrap())
}

fn table32() -> &'static DlogTable {
    static T: OnceLock<DlogTable> = OnceLock::new();
    T.get_or_init(|| DlogTable::new(32).unwrap())
}

#[test]
fn encrypt_decrypt_round_trip_at_range_edges_16() {
    let mut r = rng(1);
    let sk = SecretKey::random(&mut r);
    let pk = sk.public_key();
    for m in [0u64, 1, 2, 255, 256, 4095, 65534, 65535] {
        let ct = pk.encrypt(m, &mut r);
        assert_eq!(sk.decrypt(&ct, table16()).unwrap(), m);
    }
    let ct = pk.encrypt(65536, &mut r);
    assert_eq!(sk.decrypt(&ct, table16()), Err(Error::PlaintextOutOfRange { bits: 16 }));
}

#[test]
fn encrypt_decrypt_round_trip_at_range_edges_32() {
    let mut r = rng(2);
    let sk = SecretKey::random(&mut r);
    let pk = sk.public_key();
    // Includes the worst case (the last giant step) and values on giant-step boundaries.
    for m in [0u64, 1, 65535, 65536, 65537, 1 << 31, 123_456_789, (1 << 32) - 65536, (1 << 32) - 1] {
        let ct = pk.encrypt(m, &mut r);
        assert_eq!(sk.decrypt(&ct, table32()).unwrap(), m, "m = {m}");
    }
    let ct = pk.encrypt(1 << 32, &mut r);
    assert_eq!(sk.decrypt(&ct, table32()), Err(Error::PlaintextOutOfRange { bits: 32 }));
    // A "negative" plaintext (l − 1) is out of range too.
    let minus_one = pk.encrypt_scalar_with(&(-Scalar::from(1u64)), &Scalar::from(5u64));
    assert!(sk.decrypt(&minus_one, table32()).is_err());
}

#[test]
fn uneven_table_split() {
    let t = DlogTable::with_baby_bits(20, 6).unwrap();
    for m in [0u64, 63, 64, 1 << 19, (1 << 20) - 1] {
        assert_eq!(t.lookup(&Point::mul_base(&Scalar::from(m))).unwrap(), m);
    }
    assert!(t.lookup(&Point::mul_base(&Scalar::from(1u64 << 20))).is_err());
    assert_eq!(DlogTable::new(0).unwrap_err(), Error::TableSize { bits: 0 });
    assert_eq!(DlogTable::new(49).unwrap_err(), Error::TableSize { bits: 49 });
    assert!(DlogTable::with_baby_bits(8, 9).is_err());
}

#[test]
fn encrypt_with_is_deterministic_and_matches_definition() {
    let sk = SecretKey::from_scalar(Scalar::from(7u64)).unwrap();
    let pk = sk.public_key();
    let r = Scalar::from(11u64);
    let ct = pk.encrypt_with(5, &r);
    let b = Point::generator();
    assert_eq!(ct.c1, b.mul_vartime(&r));
    assert_eq!(ct.c2, b.mul_vartime(&Scalar::from(5u64 + 77)));
    assert_eq!(ct, pk.encrypt_with(5, &r));
}

#[test]
fn homomorphic_operations() {
    let mut r = rng(3);
    let sk = SecretKey::random(&mut r);
    let pk = sk.public_key();
    let a = pk.encrypt(1000, &mut r);
    let b = pk.encrypt(234, &mut r);
    assert_eq!(sk.decrypt(&(a + b), table16()).unwrap(), 1234);
    assert_eq!(sk.decrypt(&(a - b), table16()).unwrap(), 766);
    assert_eq!(sk.decrypt(&a.scalar_mul(&Scalar::from(7u64)), table16()).unwrap(), 7000);
    assert_eq!(sk.decrypt(&a.add_plaintext(5), table16()).unwrap(), 1005);
    let s: Ciphertext = [a, b, a].into_iter().sum();
    assert_eq!(sk.decrypt(&s, table16()).unwrap(), 2234);
    let rr = pk.rerandomize(&a, &mut r);
    assert_ne!(rr, a);
    assert_eq!(sk.decrypt(&rr, table16()).unwrap(), 1000);
    let prepared = zeenot_crypto::PreparedPublicKey::new(&pk);
    let r0 = Scalar::from(99u64);
    assert_eq!(prepared.encrypt_with(42, &r0), pk.encrypt_with(42, &r0));
    assert_eq!(sk.decrypt(&prepared.encrypt(77, &mut r), table16()).unwrap(), 77);
    assert_eq!(sk.decrypt(&prepared.rerandomize(&a, &mut r), table16()).unwrap(), 1000);
    let z = a - a;
    assert_eq!(z, Ciphertext::zero());
    assert_eq!(sk.decrypt(&z, table16()).unwrap(), 0);
}

#[test]
fn key_switching_without_decrypting() {
    let mut r = rng(4);
    let sk1 = SecretKey::random(&mut r);
    let sk2 = SecretKey::random(&mut r);
    let ct = sk1.public_key().encrypt(4242, &mut r);
    let switched = sk1.key_switch(&ct, &sk2.public_key(), &mut r);
    assert_eq!(sk2.decrypt(&switched, table16()).unwrap(), 4242);
    // The old key no longer decrypts it, and c1 is fresh.
    assert!(sk1.decrypt(&switched, table16()).is_err());
    assert_ne!(switched.c1, ct.c1);
}

#[test]
fn collective_key_and_verifiable_partial_decryption() {
    let mut r = rng(5);
    let sks: Vec<SecretKey> = (0..3).map(|_| SecretKey::random(&mut r)).collect();
    let pks: Vec<PublicKey> = sks.iter().map(SecretKey::public_key).collect();
    let cpk = PublicKey::aggregate(&pks).unwrap();
    let ct = cpk.encrypt(31337, &mut r) + cpk.encrypt(1, &mut r);
    let shares: Vec<(PublicKey, DecryptionShare)> =
        sks.iter().zip(&pks).map(|(sk, pk)| (*pk, sk.partial_decrypt(&ct, &mut r).unwrap())).collect();
    assert_eq!(combine_shares(&ct, &shares, table16()).unwrap(), 31338);

    // Encoding round trip.
    for (_, s) in &shares {
        assert_eq!(DecryptionShare::decode(&s.encode()).unwrap(), *s);
    }
    // A wrong share is caught and named.
    let mut bad = shares.clone();
    bad[1].1.d += Point::generator();
    assert_eq!(combine_shares_point(&ct, &bad), Err(Error::InvalidProof));
    // Shares attributed to the wrong key are caught.
    let mut swapped = shares.clone();
    swapped.swap(0, 1);
    let swapped: Vec<_> = swapped.iter().zip(&pks).map(|((_, s), pk)| (*pk, *s)).collect();
    assert_eq!(combine_shares_point(&ct, &swapped), Err(Error::InvalidProof));
    // A share for one ciphertext does not verify for another.
    let other = cpk.encrypt(1, &mut r);
    assert_eq!(shares[0].1.verify(&pks[0], &other), Err(Error::InvalidProof));
    assert_eq!(combine_shares_point(&ct, &[]), Err(Error::NoShares));
    assert_eq!(PublicKey::aggregate(&[]), Err(Error::NoShares));
    // Keys that cancel give the identity, which is not a key.
    let neg = PublicKey::from_point(-*pks[0].point()).unwrap();
    assert_eq!(PublicKey::aggregate(&[pks[0], neg]), Err(Error::Identity));
}

#[test]
fn dleq_forgeries_are_rejected() {
    let mut r = rng(6);
    let g = Point::generator();
    let h = zeenot_crypto::hash_to_curve(b"test", b"h");
    let x = Scalar::from(123456789u64);
    let (bx, by, proof) = DleqProof::prove(b"ctx", &g, &h, &x, &mut r).unwrap();
    proof.verify(b"ctx", &g, &h, &bx, &by).unwrap();
    assert_eq!(DleqProof::decode(&proof.encode()).unwrap(), proof);

    let one = Scalar::from(1u64);
    let bad = Err(Error::InvalidProof);
    // Mutate each proof field.
    assert_eq!(DleqProof { c: proof.c + one, ..proof }.verify(b"ctx", &g, &h, &bx, &by), bad);
    assert_eq!(DleqProof { z: proof.z + one, ..proof }.verify(b"ctx", &g, &h, &bx, &by), bad);
    // Change each part of the statement after proving.
    assert_eq!(proof.verify(b"ctx2", &g, &h, &bx, &by), bad);
    assert_eq!(proof.verify(b"ctx", &h, &g, &by, &bx), bad);
    assert_eq!(proof.verify(b"ctx", &g.double(), &h, &bx.double(), &by), bad);
    assert_eq!(proof.verify(b"ctx", &g, &h.double(), &bx, &by.double()), bad);
    assert_eq!(proof.verify(b"ctx", &g, &h, &(bx + g), &by), bad);
    assert_eq!(proof.verify(b"ctx", &g, &h, &bx, &(by + h)), bad);
    // Unequal logs: honest prover math with Y for a different x cannot verify.
    let (_, by2, _) = DleqProof::prove(b"ctx", &g, &h, &(x + one), &mut r).unwrap();
    assert_eq!(proof.verify(b"ctx", &g, &h, &bx, &by2), bad);
    // Flip every byte of the encoding.
    let enc = proof.encode();
    for i in 0..enc.len() {
        let mut e = enc;
        e[i] ^= 1;
        if let Ok(p) = DleqProof::decode(&e) {
            assert!(p.verify(b"ctx", &g, &h, &bx, &by).is_err(), "byte {i}");
        }
    }
    // Identity generators are refused.
    assert_eq!(proof.verify(b"ctx", &Point::identity(), &h, &bx, &by), Err(Error::Identity));
    assert!(DleqProof::prove(b"ctx", &g, &Point::identity(), &x, &mut r).is_err());
    // Non-canonical scalars and wrong lengths.
    assert_eq!(DleqProof::decode(&[0xff; 64]), Err(Error::NonCanonical));
    assert_eq!(DleqProof::decode(&[0; 63]), Err(Error::Length { expected: 64, actual: 63 }));
}

#[test]
fn key_and_ciphertext_decoders() {
    let mut r = rng(7);
    let sk = SecretKey::random(&mut r);
    let pk = sk.public_key();
    assert_eq!(SecretKey::from_bytes(&sk.to_bytes()).unwrap(), sk);
    assert_eq!(PublicKey::decode(&pk.encode()).unwrap(), pk);
    assert_eq!(SecretKey::from_bytes(&[0; 32]), Err(Error::ZeroScalar));
    assert_eq!(SecretKey::from_bytes(&[0xff; 32]), Err(Error::NonCanonical));
    assert_eq!(SecretKey::from_bytes(&[1; 31]), Err(Error::Length { expected: 32, actual: 31 }));
    // l itself is not canonical.
    let l_le = {
        use ark_ff::{BigInteger, PrimeField};
        let v = Scalar::MODULUS.to_bytes_le();
        let mut a = [0u8; 32];
        a.copy_from_slice(&v);
        a
    };
    assert_eq!(SecretKey::from_bytes(&l_le), Err(Error::NonCanonical));
    assert_eq!(PublicKey::decode(&Point::identity().encode()), Err(Error::Identity));
    assert_eq!(format!("{sk:?}"), "SecretKey(<redacted>)");

    let ct = pk.encrypt(9, &mut r);
    let enc = ct.encode();
    assert_eq!(enc.len(), CIPHERTEXT_LEN);
    assert_eq!(Ciphertext::decode(&enc).unwrap(), ct);
    assert_eq!(Ciphertext::decode(&enc[..63]), Err(Error::Length { expected: 64, actual: 63 }));
    assert_eq!(Ciphertext::decode(&Ciphertext::zero().encode()).unwrap(), Ciphertext::zero());
    // A small-order point in either half is rejected.
    let mut small = [0u8; 32];
    small.copy_from_slice(&{
        use ark_ff::{BigInteger, PrimeField};
        // y = p − 1: the order-2 point (0, −1).
        let mut v = zeenot_crypto::Base::MODULUS;
        v.sub_with_borrow(&ark_ff::BigInt::from(1u64));
        v.to_bytes_le()
    });
    let mut e1 = enc;
    e1[..32].copy_from_slice(&small);
    assert_eq!(Ciphertext::decode(&e1), Err(Error::NotInSubgroup));
    let mut e2 = enc;
    e2[32..].copy_from_slice(&small);
    assert_eq!(Ciphertext::decode(&e2), Err(Error::NotInSubgroup));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    #[test]
    fn prop_additive_homomorphism(a in 0u64..30_000, b in 0u64..30_000, seed in any::<u64>()) {
        let mut r = rng(seed);
        let sk = SecretKey::random(&mut r);
        let pk = sk.public_key();
        let s = pk.encrypt(a, &mut r) + pk.encrypt(b, &mut r);
        prop_assert_eq!(sk.decrypt(&s, table16()).unwrap(), a + b);
        let d = pk.encrypt(a + b, &mut r) - pk.encrypt(b, &mut r);
        prop_assert_eq!(sk.decrypt(&d, table16()).unwrap(), a);
    }

    #[test]
    fn prop_scalar_mul_and_rerandomise(a in 0u64..256, k in 0u64..256, seed in any::<u64>()) {
        let mut r = rng(seed);
        let sk = SecretKey::random(&mut r);
        let pk = sk.public_key();
        let ct = pk.encrypt(a, &mut r).scalar_mul(&Scalar::from(k));
        let ct = pk.rerandomize(&ct, &mut r);
        prop_assert_eq!(sk.decrypt(&ct, table16()).unwrap(), a * k);
    }

    #[test]
    fn prop_ct_mul_equals_vartime_mul(seed in any::<u64>()) {
        use ark_ff::UniformRand;
        let mut r = rng(seed);
        let s = Scalar::rand(&mut r);
        let p = Point::mul_base(&Scalar::rand(&mut r));
        prop_assert_eq!(p.mul_ct(&s), p.mul_vartime(&s));
        prop_assert_eq!(Point::mul_base(&s), Point::generator().mul_vartime(&s));
        prop_assert_eq!(arkworks_mul(&p, &s), p.mul_vartime(&s));
        prop_assert_eq!(arkworks_mul(&Point::generator(), &s), Point::mul_base(&s));
    }

    #[test]
    fn prop_msms_equal_sum_of_products(seed in any::<u64>(), n in 0usize..40) {
        use ark_ff::UniformRand;
        let mut r = rng(seed);
        let bases: Vec<Point> = (0..n).map(|_| Point::mul_base(&Scalar::rand(&mut r))).collect();
        let scalars: Vec<Scalar> = (0..n).map(|_| Scalar::rand(&mut r)).collect();
        let naive: Point = bases.iter().zip(&scalars).map(|(b, s)| arkworks_mul(b, s)).sum();
        prop_assert_eq!(Point::msm_vartime(&bases, &scalars), naive);
        let bits: Vec<u8> = scalars.iter().map(|s| (ark_ff::PrimeField::into_bigint(*s).0[0] & 1) as u8).collect();
        let picked: Point = bases.iter().zip(&bits).filter(|(_, b)| **b == 1).map(|(p, _)| *p).sum();
        prop_assert_eq!(Point::masked_sum(&bases, &bits), picked);
        let one_by_one: Vec<[u8; 32]> = bases.iter().map(Point::encode).collect();
        prop_assert_eq!(Point::encode_batch(&bases), one_by_one);
        prop_assert_eq!(Point::msm_ct(&bases, &scalars), naive);
    }

    #[test]
    fn prop_point_encoding_round_trip(seed in any::<u64>()) {
        use ark_ff::UniformRand;
        let mut r = rng(seed);
        let p = Point::mul_base(&Scalar::rand(&mut r));
        prop_assert_eq!(Point::decode(&p.encode()).unwrap(), p);
        prop_assert_eq!(Point::decode(&(-p).encode()).unwrap(), -p);
    }
}

/// `s·p` by arkworks' own double-and-add on its `ed_on_bn254` model of the same curve: a
/// reference independent of zeenot's wNAF, window and comb code.
fn arkworks_mul(p: &Point, s: &Scalar) -> Point {
    Point::from_ed_on_bn254(&(p.to_ed_on_bn254() * s).into_affine()).unwrap()
}
