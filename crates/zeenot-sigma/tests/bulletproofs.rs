//! Bulletproofs range proofs: completeness, soundness against forged witnesses, tampering,
//! statement binding and checked decoding.

use std::sync::OnceLock;

use ark_ff::{BigInteger, One, PrimeField, UniformRand, Zero};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeenot_crypto::pedersen::blinding_generator;
use zeenot_crypto::{encode_base, encode_scalar, Base, PedersenGenerators, Point, Scalar};
use zeenot_sigma::bulletproofs::{BulletproofGens, RangeProof};
use zeenot_sigma::Error;

const CONTEXT: &[u8] = b"test context";

fn gens() -> &'static BulletproofGens {
    static GENS: OnceLock<BulletproofGens> = OnceLock::new();
    GENS.get_or_init(|| BulletproofGens::new(256))
}

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn blindings(m: usize, rng: &mut ChaCha20Rng) -> Vec<Scalar> {
    (0..m).map(|_| Scalar::rand(rng)).collect()
}

fn max_value(bits: usize) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A proof for `m` values of `bits` bits, and its commitments.
fn proof(bits: usize, values: &[u64], seed: u64) -> (RangeProof, Vec<Point>) {
    let mut rng = rng(seed);
    let gammas = blindings(values.len(), &mut rng);
    RangeProof::prove(gens(), values, &gammas, bits, CONTEXT, &mut rng).expect("in range")
}

fn assert_rejected(proof: &RangeProof, commitments: &[Point], bits: usize, context: &[u8], what: &str) {
    assert!(proof.verify(gens(), commitments, bits, context).is_err(), "{what} was accepted");
}

#[test]
fn completeness_all_sizes_and_boundaries() {
    let mut r = rng(1);
    for bits in [8, 16, 32, 64] {
        for m in [1usize, 2, 4] {
            // Boundaries first, then random values.
            let mut values = vec![0, max_value(bits), 1, max_value(bits) - 1];
            values.truncate(m);
            if m == 1 {
                // Cover both boundaries for single proofs too.
                let (p, c) = proof(bits, &[max_value(bits)], r.gen());
                p.verify(gens(), &c, bits, CONTEXT).expect("max value verifies");
            }
            if m == 4 {
                values[2] = r.gen::<u64>() & max_value(bits);
            }
            let (p, c) = proof(bits, &values, r.gen());
            assert_eq!(c.len(), m);
            assert_eq!(p.ipa_l.len(), (bits * m).trailing_zeros() as usize);
            assert_eq!(p.encode().len(), RangeProof::encoded_len(bits, m));
            p.verify(gens(), &c, bits, CONTEXT)
                .unwrap_or_else(|e| panic!("bits {bits}, m {m}, values {values:?}: {e}"));
        }
    }
}

#[test]
fn proof_sizes() {
    assert_eq!(RangeProof::encoded_len(64, 1), 672);
    assert_eq!(RangeProof::encoded_len(64, 2), 736);
    assert_eq!(RangeProof::encoded_len(64, 4), 800);
    assert_eq!(RangeProof::encoded_len(32, 1), 608);
    assert_eq!(RangeProof::encoded_len(8, 1), 480);
}

#[test]
fn commitments_are_zeenot_pedersen_commitments() {
    let mut r = rng(2);
    let gammas = blindings(2, &mut r);
    let values = [42u64, 65535];
    let (p, c) = RangeProof::prove(gens(), &values, &gammas, 16, CONTEXT, &mut r).expect("in range");
    let ped = PedersenGenerators::new(0);
    for j in 0..2 {
        assert_eq!(c[j], ped.commit(&Scalar::from(values[j]), &gammas[j]).0);
        assert_eq!(
            c[j],
            Point::generator().mul_vartime(&Scalar::from(values[j]))
                + blinding_generator().mul_vartime(&gammas[j])
        );
    }
    p.verify(gens(), &c, 16, CONTEXT).expect("verifies");
}

#[test]
fn generators_are_prefix_stable() {
    // A proof made with small generators verifies with larger ones and vice versa.
    let small = BulletproofGens::new(16);
    assert_eq!(small.g_vec(), &gens().g_vec()[..16]);
    assert_eq!(small.h_vec(), &gens().h_vec()[..16]);
    let mut r = rng(3);
    let gammas = blindings(2, &mut r);
    let (p, c) = RangeProof::prove(&small, &[7, 200], &gammas, 8, CONTEXT, &mut r).expect("in range");
    p.verify(gens(), &c, 8, CONTEXT).expect("verifies with larger generators");
    // Capacity too small for the statement.
    assert!(matches!(p.verify(&BulletproofGens::new(8), &c, 8, CONTEXT), Err(Error::Range(_))));
    assert!(matches!(
        RangeProof::prove(&small, &[1, 2, 3, 4], &blindings(4, &mut r), 8, CONTEXT, &mut r),
        Err(Error::Range(_))
    ));
}

#[test]
fn out_of_range_values_cannot_be_proved() {
    let mut r = rng(4);
    for bits in [8usize, 16, 32] {
        for v in [1u64 << bits, (1u64 << bits) + 1, u64::MAX] {
            let res = RangeProof::prove(gens(), &[v], &blindings(1, &mut r), bits, CONTEXT, &mut r);
            assert!(matches!(res, Err(Error::Range(_))), "bits {bits}, value {v}");
            // One bad value in an aggregate spoils it.
            let res = RangeProof::prove(gens(), &[3, v], &blindings(2, &mut r), bits, CONTEXT, &mut r);
            assert!(matches!(res, Err(Error::Range(_))), "bits {bits}, aggregated value {v}");
        }
    }
}

#[test]
fn unsupported_shapes_are_refused() {
    let mut r = rng(5);
    for bits in [0usize, 1, 7, 12, 63, 65, 128] {
        let res = RangeProof::prove(gens(), &[1], &blindings(1, &mut r), bits, CONTEXT, &mut r);
        assert!(matches!(res, Err(Error::Range(_))), "bits {bits}");
    }
    for m in [0usize, 3, 5, 6] {
        let values = vec![1u64; m];
        let res = RangeProof::prove(gens(), &values, &blindings(m, &mut r), 8, CONTEXT, &mut r);
        assert!(matches!(res, Err(Error::Range(_))), "m {m}");
    }
    // Blindings that do not match the values.
    let res = RangeProof::prove(gens(), &[1, 2], &blindings(1, &mut r), 8, CONTEXT, &mut r);
    assert!(matches!(res, Err(Error::Range(_))));
    // Verification refuses the same shapes.
    let (p, c) = proof(8, &[1, 2], 6);
    let three = [c[0], c[1], c[0]];
    assert!(matches!(p.verify(gens(), &three, 8, CONTEXT), Err(Error::Range(_))));
    assert!(matches!(p.verify(gens(), &[], 8, CONTEXT), Err(Error::Range(_))));
    assert!(matches!(p.verify(gens(), &c, 7, CONTEXT), Err(Error::Range(_))));
}

/// Runs the prover's arithmetic on a false witness and checks the verifier rejects the result.
fn assert_forgery_rejected(bits: usize, values: &[Scalar], a_l: &[Scalar], seed: u64, what: &str) {
    let mut r = rng(seed);
    let gammas = blindings(values.len(), &mut r);
    let (p, c) = RangeProof::prove_unchecked(gens(), values, a_l, &gammas, bits, CONTEXT, &mut r)
        .expect("the unchecked prover runs on any witness");
    assert!(
        matches!(p.verify(gens(), &c, bits, CONTEXT), Err(Error::InvalidProof)),
        "forgery accepted: {what}"
    );
}

fn bits_of(v: u64, bits: usize) -> Vec<Scalar> {
    (0..bits).map(|i| Scalar::from((v >> i) & 1)).collect()
}

#[test]
fn forged_out_of_range_proofs_are_rejected() {
    // The unchecked prover with an honest witness does verify (the harness is faithful).
    let mut r = rng(7);
    let gammas = blindings(1, &mut r);
    let (p, c) = RangeProof::prove_unchecked(
        gens(),
        &[Scalar::from(77u64)],
        &bits_of(77, 8),
        &gammas,
        8,
        CONTEXT,
        &mut r,
    )
    .expect("runs");
    p.verify(gens(), &c, 8, CONTEXT).expect("honest witness through the unchecked prover");

    for bits in [8usize, 16, 32] {
        let two_n = Scalar::from(1u64 << bits);
        // 2^n with its low n bits (all zero): binary, but does not sum to the value.
        assert_forgery_rejected(bits, &[two_n], &vec![Scalar::zero(); bits], 10, "2^n, zero bits");
        // 2^n + 5 with the bits of 5.
        assert_forgery_rejected(
            bits,
            &[two_n + Scalar::from(5u64)],
            &bits_of(5, bits),
            11,
            "2^n + 5, bits of 5",
        );
        // 2^n written as 2 + 2 + 4 + … + 2^{n−1}: sums to the value, but a_L[0] = 2 is not a bit.
        let mut a_l = vec![Scalar::one(); bits];
        a_l[0] = Scalar::from(2u64);
        assert_forgery_rejected(bits, &[two_n], &a_l, 12, "2^n with a non-binary bit");
        // −1 (a huge value mod l) with all-one bits (which sum to 2^n − 1).
        assert_forgery_rejected(bits, &[-Scalar::one()], &vec![Scalar::one(); bits], 13, "-1, all ones");
        // −1 written as a_0 = −1 (the sum is right, the "bit" is not binary).
        let mut a_l = vec![Scalar::zero(); bits];
        a_l[0] = -Scalar::one();
        assert_forgery_rejected(bits, &[-Scalar::one()], &a_l, 14, "-1 as a_0 = -1");
    }
    // 64 bits: 2^64 (it does not fit a u64, so only the unchecked prover can try).
    let two_64 = Scalar::from(u64::MAX) + Scalar::one();
    assert_forgery_rejected(64, &[two_64], &vec![Scalar::zero(); 64], 15, "2^64, zero bits");
    let mut a_l = vec![Scalar::one(); 64];
    a_l[0] = Scalar::from(2u64);
    assert_forgery_rejected(64, &[two_64], &a_l, 16, "2^64, non-binary bit");

    // Aggregated: one honest value, one out of range.
    let mut a_l = bits_of(9, 16);
    a_l.extend(vec![Scalar::zero(); 16]);
    assert_forgery_rejected(16, &[Scalar::from(9u64), Scalar::from(1u64 << 16)], &a_l, 17, "aggregate");
    // The right bits, attached to the wrong value order.
    let mut a_l = bits_of(9, 8);
    a_l.extend(bits_of(200, 8));
    assert_forgery_rejected(8, &[Scalar::from(200u64), Scalar::from(9u64)], &a_l, 18, "swapped bits");
}

/// Every single-field mutation of a valid proof.
fn mutations(p: &RangeProof) -> Vec<(String, RangeProof)> {
    let other = Point::generator();
    let one = Scalar::one();
    let mut out = Vec::new();
    let mut push = |name: String, f: &dyn Fn(&mut RangeProof)| {
        let mut q = p.clone();
        f(&mut q);
        assert_ne!(&q, p, "{name} did not change the proof");
        out.push((name, q));
    };
    push("A".into(), &|q| q.a_commit += other);
    push("A = identity".into(), &|q| q.a_commit = Point::identity());
    push("S".into(), &|q| q.s_commit += other);
    push("T1".into(), &|q| q.t1 += other);
    push("T2".into(), &|q| q.t2 += other);
    push("T1 <-> T2".into(), &|q| std::mem::swap(&mut q.t1, &mut q.t2));
    push("t_hat".into(), &|q| q.t_hat += one);
    push("tau_x".into(), &|q| q.tau_x += one);
    push("mu".into(), &|q| q.mu += one);
    push("a".into(), &|q| q.ipa_a += one);
    push("b".into(), &|q| q.ipa_b += one);
    push("a <-> b".into(), &|q| std::mem::swap(&mut q.ipa_a, &mut q.ipa_b));
    for k in 0..p.ipa_l.len() {
        push(format!("L_{k}"), &|q| q.ipa_l[k] += other);
        push(format!("R_{k}"), &|q| q.ipa_r[k] += other);
        push(format!("L_{k} = identity"), &|q| q.ipa_l[k] = Point::identity());
        push(format!("L_{k} <-> R_{k}"), &|q| std::mem::swap(&mut q.ipa_l[k], &mut q.ipa_r[k]));
    }
    if p.ipa_l.len() > 1 {
        push("L_0 <-> L_1".into(), &|q| q.ipa_l.swap(0, 1));
    }
    out
}

#[test]
fn every_mutated_field_is_rejected() {
    for (bits, values) in [(8usize, vec![3u64, 250]), (32, vec![123_456_789u64])] {
        let (p, c) = proof(bits, &values, 20);
        p.verify(gens(), &c, bits, CONTEXT).expect("unmodified proof verifies");
        for (name, q) in mutations(&p) {
            assert!(
                matches!(q.verify(gens(), &c, bits, CONTEXT), Err(Error::InvalidProof)),
                "bits {bits}: mutation {name} was accepted"
            );
        }
        // Dropped or added rounds.
        let mut q = p.clone();
        q.ipa_l.pop();
        q.ipa_r.pop();
        assert!(matches!(q.verify(gens(), &c, bits, CONTEXT), Err(Error::Encoding(_))));
        let mut q = p.clone();
        q.ipa_l.push(Point::generator());
        q.ipa_r.push(Point::generator());
        assert!(matches!(q.verify(gens(), &c, bits, CONTEXT), Err(Error::Encoding(_))));
        let mut q = p.clone();
        q.ipa_r.pop();
        assert!(q.verify(gens(), &c, bits, CONTEXT).is_err());
    }
}

#[test]
fn proofs_are_bound_to_their_statement() {
    let (p, c) = proof(32, &[5, 1 << 31], 30);
    p.verify(gens(), &c, 32, CONTEXT).expect("verifies");
    let h = blinding_generator();
    // Commitments changed after proving.
    assert_rejected(&p, &[c[0] + Point::generator(), c[1]], 32, CONTEXT, "V_0 + G");
    assert_rejected(&p, &[c[0], c[1] + h], 32, CONTEXT, "V_1 + H");
    assert_rejected(&p, &[c[0], c[1] - Point::generator()], 32, CONTEXT, "V_1 - G (still in range)");
    assert_rejected(&p, &[c[1], c[0]], 32, CONTEXT, "swapped commitments");
    assert_rejected(&p, &[c[0], c[0]], 32, CONTEXT, "duplicated commitment");
    // Context changed.
    assert_rejected(&p, &c, 32, b"other context", "another context");
    assert_rejected(&p, &c, 32, b"", "empty context");
    // Bits changed: a different round count, or the same n·m with another split.
    assert_rejected(&p, &c, 16, CONTEXT, "16 bits");
    assert_rejected(&p, &c, 64, CONTEXT, "64 bits");
    assert_rejected(&p, &c[..1], 64, CONTEXT, "64 bits, one value (same n·m)");
    let (p1, c1) = proof(64, &[5], 31);
    assert_rejected(&p1, &[c1[0], c1[0]], 32, CONTEXT, "one 64-bit proof as two 32-bit values");
    // Another proof's commitments.
    let (_, c2) = proof(32, &[5, 1 << 31], 32);
    assert_rejected(&p, &c2, 32, CONTEXT, "commitments of another proof of the same values");
}

#[test]
fn encoding_round_trips() {
    for (bits, values) in [(8usize, vec![0u64]), (64, vec![u64::MAX, 0, 1, 1 << 63])] {
        let (p, c) = proof(bits, &values, 40);
        let bytes = p.encode();
        assert_eq!(bytes.len(), RangeProof::encoded_len(bits, values.len()));
        let q = RangeProof::decode(&bytes).expect("decodes");
        assert_eq!(q, p);
        assert_eq!(q.encode(), bytes);
        q.verify(gens(), &c, bits, CONTEXT).expect("the decoded proof verifies");
    }
}

#[test]
fn malformed_encodings_are_rejected() {
    let (p, c) = proof(16, &[1000, 2000], 50);
    let bytes = p.encode();
    // Truncated at every length, extended by up to two words: an error (or, where the length
    // is that of a shorter or longer proof, a proof that does not verify), never a panic.
    for len in 0..bytes.len() {
        match RangeProof::decode(&bytes[..len]) {
            Err(Error::Encoding(_)) => {}
            Err(e) => panic!("truncated to {len}: unexpected error {e}"),
            Ok(q) => assert!(q.verify(gens(), &c, 16, CONTEXT).is_err(), "truncated to {len} verifies"),
        }
    }
    for extra in 1..=64 {
        let mut longer = bytes.clone();
        longer.extend(std::iter::repeat_n(0u8, extra));
        match RangeProof::decode(&longer) {
            Err(Error::Encoding(_)) => {}
            Err(e) => panic!("extended by {extra}: unexpected error {e}"),
            Ok(q) => assert!(q.verify(gens(), &c, 16, CONTEXT).is_err(), "extended by {extra} verifies"),
        }
    }
    // Round counts outside [3, 32].
    for rounds in [0usize, 1, 2, 33, 40] {
        let mut words = Vec::new();
        words.extend(std::iter::repeat_n(Point::generator().encode(), 4));
        words.extend(std::iter::repeat_n(encode_scalar(&Scalar::one()), 3));
        words.extend(std::iter::repeat_n(Point::generator().encode(), 2 * rounds));
        words.extend(std::iter::repeat_n(encode_scalar(&Scalar::one()), 2));
        assert!(matches!(RangeProof::decode(&words.concat()), Err(Error::Encoding(_))), "{rounds} rounds");
    }
    // Garbage of a valid length.
    let mut r = rng(51);
    for _ in 0..50 {
        let mut garbage = vec![0u8; bytes.len()];
        r.fill_bytes(&mut garbage);
        assert!(RangeProof::decode(&garbage).is_err());
    }

    let words = bytes.len() / 32;
    let point_words: Vec<usize> = (0..4).chain(7..words - 2).collect();
    let scalar_words: Vec<usize> = (4..7).chain(words - 2..words).collect();
    let with_word = |i: usize, w: [u8; 32]| {
        let mut b = bytes.clone();
        b[32 * i..32 * i + 32].copy_from_slice(&w);
        b
    };
    // The order-2 point (0, −1): on the curve, outside the prime-order subgroup.
    let order_two = encode_base(&(-Base::one()));
    // A curve point outside the subgroup (7 in 8 curve points are).
    let torsion = first_rejected(|e| matches!(e, zeenot_crypto::Error::NotInSubgroup));
    // A y ≥ p (non-canonical), an off-curve y, and the identity with the sign bit set.
    let non_canonical_y = [0xff; 32];
    let off_curve = first_rejected(|e| matches!(e, zeenot_crypto::Error::NotOnCurve));
    let mut signed_identity = Point::identity().encode();
    signed_identity[31] |= 0x80;
    for &i in &point_words {
        for (what, w) in [
            ("order 2", order_two),
            ("outside the subgroup", torsion),
            ("y >= p", non_canonical_y),
            ("off curve", off_curve),
            ("x = 0 with the sign bit", signed_identity),
        ] {
            assert!(
                matches!(RangeProof::decode(&with_word(i, w)), Err(Error::Encoding(_))),
                "word {i}: {what} point accepted"
            );
        }
        // A valid point elsewhere decodes but does not verify.
        let q = RangeProof::decode(&with_word(i, Point::generator().encode())).expect("valid point");
        assert!(q.verify(gens(), &c, 16, CONTEXT).is_err(), "word {i} replaced verifies");
    }
    // Scalars ≥ l.
    let modulus: [u8; 32] = {
        let mut m = [0u8; 32];
        m.copy_from_slice(&<Scalar as PrimeField>::MODULUS.to_bytes_le());
        m
    };
    for &i in &scalar_words {
        for w in [modulus, [0xff; 32]] {
            assert!(matches!(RangeProof::decode(&with_word(i, w)), Err(Error::Encoding(_))), "word {i}");
        }
        let q = RangeProof::decode(&with_word(i, encode_scalar(&Scalar::from(3u64)))).expect("valid scalar");
        assert!(q.verify(gens(), &c, 16, CONTEXT).is_err(), "word {i} replaced verifies");
    }
}

/// The first encoding (scanning small `y`) that `Point::decode` rejects with `want`.
fn first_rejected(want: fn(&zeenot_crypto::Error) -> bool) -> [u8; 32] {
    (2u64..)
        .flat_map(|y| {
            let b = encode_base(&Base::from(y));
            let mut neg = b;
            neg[31] |= 0x80;
            [b, neg]
        })
        .find(|b| Point::decode(b).as_ref().err().is_some_and(want))
        .expect("most encodings are off the curve or outside the subgroup")
}
