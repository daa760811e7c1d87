//! circomlibjs interoperability vectors (tests/vectors/circomlibjs, made by
//! scripts/gen_circomlibjs_vectors.mjs).

use std::str::FromStr;

use ark_ff::PrimeField;
use serde_json::Value;
use sha2::{Digest, Sha256};
use zeenot_crypto::curve::{BabyJubjubConfig, SUBGROUP_ORDER_DEC};
use zeenot_crypto::poseidon::PoseidonParams;
use zeenot_crypto::{
    poseidon, poseidon_with_state, Base, Error, Point, Scalar, Signature, SigningKey, VerifyingKey,
};

const BABYJUB: &str = include_str!("../../../tests/vectors/circomlibjs/babyjub.json");
const POSEIDON: &str = include_str!("../../../tests/vectors/circomlibjs/poseidon.json");
const EDDSA: &str = include_str!("../../../tests/vectors/circomlibjs/eddsa_poseidon.json");

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

fn base(v: &Value) -> Base {
    Base::from_str(v.as_str().unwrap()).unwrap()
}

fn bytes32(v: &Value) -> [u8; 32] {
    hex::decode(v.as_str().unwrap()).unwrap().try_into().unwrap()
}

#[test]
fn curve_parameters_match_circomlibjs() {
    use ark_ec::twisted_edwards::TECurveConfig;
    let v = json(BABYJUB);
    assert_eq!(v["p"].as_str().unwrap(), Base::MODULUS.to_string());
    assert_eq!(v["l"].as_str().unwrap(), Scalar::MODULUS.to_string());
    assert_eq!(v["l"].as_str().unwrap(), SUBGROUP_ORDER_DEC);
    assert_eq!(base(&v["a"]), <BabyJubjubConfig as TECurveConfig>::COEFF_A);
    assert_eq!(base(&v["d"]), <BabyJubjubConfig as TECurveConfig>::COEFF_D);
    let b8 = Point::from_xy(base(&v["base8"]["x"]), base(&v["base8"]["y"])).unwrap();
    assert_eq!(b8, Point::generator());
    // circomlib's Generator has order 8·l: on the curve, outside the subgroup, 8·G = Base8.
    let (gx, gy) = (base(&v["generator"]["x"]), base(&v["generator"]["y"]));
    assert_eq!(Point::from_xy(gx, gy), Err(Error::NotInSubgroup));
    let g = zeenot_crypto::curve::BabyJubjubAffine::new_unchecked(gx, gy);
    assert!(g.is_on_curve());
    let g8 = ark_ec::AffineRepr::mul_by_cofactor(&g);
    assert_eq!(Point::from_affine(g8).unwrap(), Point::generator());
}

#[test]
fn generator_multiples_and_encodings() {
    let v = json(BABYJUB);
    for case in v["base8_multiples"].as_array().unwrap() {
        let k = Scalar::from_str(case["k"].as_str().unwrap()).unwrap();
        let expected = Point::from_xy(base(&case["x"]), base(&case["y"])).unwrap();
        let packed = bytes32(&case["packed"]);
        assert_eq!(Point::generator().mul_vartime(&k), expected, "k = {}", case["k"]);
        assert_eq!(Point::mul_base(&k), expected, "fixed base, k = {}", case["k"]);
        assert_eq!(Point::generator().mul_ct(&k), expected, "ct, k = {}", case["k"]);
        assert_eq!(expected.encode(), packed);
        assert_eq!(Point::decode(&packed).unwrap(), expected);
    }
    assert_eq!(Point::identity().encode(), bytes32(&v["identity_packed"]));
    assert_eq!(Point::decode(&bytes32(&v["identity_packed"])).unwrap(), Point::identity());
}

#[test]
fn group_law_matches_circomlibjs() {
    let v = json(BABYJUB);
    for case in v["sums"].as_array().unwrap() {
        let a = Point::decode(&bytes32(&case["a"])).unwrap();
        let b = Point::decode(&bytes32(&case["b"])).unwrap();
        assert_eq!((a + b).encode(), bytes32(&case["sum"]));
    }
}

#[test]
fn bad_points_are_rejected_for_the_stated_reason() {
    let v = json(BABYJUB);
    let bad = v["bad_points"].as_array().unwrap();
    assert!(bad.len() >= 10);
    for case in bad {
        let name = case["name"].as_str().unwrap();
        let expected = match case["reason"].as_str().unwrap() {
            "NotOnCurve" => Error::NotOnCurve,
            "NonCanonical" => Error::NonCanonical,
            "NotInSubgroup" => Error::NotInSubgroup,
            "NonCanonicalSign" => Error::NonCanonicalSign,
            other => panic!("unknown reason {other}"),
        };
        assert_eq!(Point::decode(&bytes32(&case["packed"])), Err(expected), "{name}");
    }
}

#[test]
fn arkworks_ed_on_bn254_model_is_isomorphic() {
    use ark_ec::{AffineRepr, CurveGroup};
    let v = json(BABYJUB);
    for case in v["base8_multiples"].as_array().unwrap().iter().take(8) {
        let p = Point::decode(&bytes32(&case["packed"])).unwrap();
        let q = p.to_ed_on_bn254();
        assert!(q.is_on_curve());
        assert!(q.is_in_correct_subgroup_assuming_on_curve());
        assert_eq!(Point::from_ed_on_bn254(&q).unwrap(), p);
        // Homomorphic: φ(p + B8) = φ(p) + φ(B8).
        let sum = (p + Point::generator()).to_ed_on_bn254();
        assert_eq!((q + Point::generator().to_ed_on_bn254()).into_affine(), sum);
    }
    // arkworks' own generator lies in the subgroup and maps into ours.
    let g = ark_ed_on_bn254::EdwardsAffine::generator();
    assert!(Point::from_ed_on_bn254(&g).is_ok());
}

#[test]
fn poseidon_matches_circomlibjs_for_every_arity() {
    let v = json(POSEIDON);
    let cases = v["hashes"].as_array().unwrap();
    assert_eq!(cases.len(), 48);
    for case in cases {
        let inputs: Vec<Base> = case["inputs"].as_array().unwrap().iter().map(base).collect();
        assert_eq!(poseidon(&inputs).unwrap(), base(&case["output"]), "n = {}", inputs.len());
    }
    for case in v["with_init_state"].as_array().unwrap() {
        let inputs: Vec<Base> = case["inputs"].as_array().unwrap().iter().map(base).collect();
        assert_eq!(poseidon_with_state(&inputs, base(&case["init_state"])).unwrap(), base(&case["output"]));
    }
    assert_eq!(poseidon(&[]), Err(Error::PoseidonArity(0)));
    assert_eq!(poseidon(&[Base::from(1u64); 17]), Err(Error::PoseidonArity(17)));
}

#[test]
fn poseidon_grain_constants_equal_circomlibjs_constants() {
    let v = json(POSEIDON);
    for d in v["constants_digests"].as_array().unwrap() {
        let t = d["t"].as_u64().unwrap() as usize;
        let params = PoseidonParams::get(t).unwrap();
        assert_eq!(params.round_constants.len() as u64, d["round_constants"].as_u64().unwrap());
        assert_eq!(params.round_constants[0], base(&d["first_round_constant"]));
        assert_eq!(params.mds[0][0], base(&d["mds_00"]));
        let mut h = Sha256::new();
        for c in params.round_constants.iter().chain(params.mds.iter().flatten()) {
            let mut be = zeenot_crypto::encode_base(c);
            be.reverse();
            h.update(be);
        }
        assert_eq!(hex::encode(h.finalize()), d["sha256"].as_str().unwrap(), "t = {t}");
    }
}

#[test]
fn eddsa_poseidon_matches_circomlibjs() {
    let v = json(EDDSA);
    let vectors = v["vectors"].as_array().unwrap();
    assert!(vectors.len() >= 16);
    for case in vectors {
        let seed = bytes32(&case["private_key"]);
        {
            use blake_hash::digest::Digest as _;
            let h = blake_hash::Blake512::digest(&seed);
            assert_eq!(hex::encode(h), case["blake512"].as_str().unwrap());
        }
        let sk = SigningKey::from_bytes(seed);
        let pk = sk.verifying_key();
        let a = &case["public_key"];
        assert_eq!(pk.point().xy(), (base(&a["x"]), base(&a["y"])));
        assert_eq!(pk.encode(), bytes32(&a["packed"]));
        let msg = base(&case["msg"]);
        let sig = sk.sign(&msg);
        let s = &case["signature"];
        assert_eq!(sig.r8.xy(), (base(&s["r8"]["x"]), base(&s["r8"]["y"])));
        assert_eq!(sig.s, Scalar::from_str(s["s"].as_str().unwrap()).unwrap());
        let packed = hex::decode(s["packed"].as_str().unwrap()).unwrap();
        assert_eq!(sig.encode().to_vec(), packed);
        let decoded = Signature::decode(&packed).unwrap();
        pk.verify(&msg, &decoded).unwrap();
        assert_eq!(VerifyingKey::decode(&bytes32(&a["packed"])).unwrap(), pk);
    }
}

#[test]
fn eddsa_tampered_signatures_are_rejected() {
    let v = json(EDDSA);
    let bad = v["bad_signatures"].as_array().unwrap();
    assert!(bad.len() >= 10);
    for case in bad {
        let name = case["name"].as_str().unwrap();
        let msg = base(&case["msg"]);
        let pk = VerifyingKey::decode(&bytes32(&case["public_key"])).unwrap();
        let sig_bytes = hex::decode(case["signature"].as_str().unwrap()).unwrap();
        let result = Signature::decode(&sig_bytes).and_then(|sig| pk.verify(&msg, &sig));
        let err = result.expect_err(name);
        match case["expect"].as_str().unwrap() {
            "any" => {}
            "InvalidSignature" => assert_eq!(err, Error::InvalidSignature, "{name}"),
            "NonCanonical" => assert_eq!(err, Error::NonCanonical, "{name}"),
            "NotInSubgroup" => assert_eq!(err, Error::NotInSubgroup, "{name}"),
            other => panic!("unknown expectation {other}"),
        }
    }
}

#[test]
fn base_field_is_bn254_scalar_field() {
    // Same type, so circuits over BN254 use Baby Jubjub coordinates natively.
    let x: ark_bn254::Fr = Base::from(5u64);
    let y: Base = x;
    assert_eq!(y, Base::from(5u64));
}
