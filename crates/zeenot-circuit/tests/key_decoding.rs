//! Crafted key, proof and value bytes are clean `Error::Decode`s (issue 11, item 1): a length
//! prefix is checked against the bytes that remain before anything is allocated, and every
//! point has exactly one accepted encoding.

use ark_serialize::{CanonicalSerialize, Compress};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use zeenot_circuit::groth16::{self, Proof, ProvingKey, VerifyingKey};
use zeenot_circuit::{Error, Program};

/// `f(a: Private[u8], b: Public[u8]) -> u8`: `return a + b` (wrapping checked), small keys.
fn program() -> Program {
    let doc = json!({
        "version": 1, "name": "f", "source": {"file": "app.py"},
        "inputs": [{"id": 0, "name": "a", "ty": "u8", "vis": "private"},
                   {"id": 1, "name": "b", "ty": "u8", "vis": "public"}],
        "body": [{"id": 2, "op": "add", "ty": "u8", "args": [0, 1], "loc": [1, 1]}],
        "outputs": [{"name": "return", "value": 2}],
    });
    Program::from_json(&doc.to_string()).unwrap()
}

fn keys() -> (ProvingKey, VerifyingKey) {
    groth16::setup(&program(), &mut ChaCha20Rng::seed_from_u64(7)).unwrap()
}

fn size<T: CanonicalSerialize + Default>(compress: Compress) -> usize {
    T::default().serialized_size(compress)
}

const G1: fn(Compress) -> usize = size::<ark_bn254::G1Affine>;
const G2: fn(Compress) -> usize = size::<ark_bn254::G2Affine>;

/// The offset of each length prefix in an encoded proving key (uncompressed), by field name.
fn proving_key_prefixes(pk: &ProvingKey) -> Vec<(&'static str, usize)> {
    let c = Compress::No;
    let mut at = G1(c) + 3 * G2(c);
    let mut out = vec![("vk.gamma_abc_g1", at)];
    at += 8 + pk.vk.gamma_abc_g1.len() * G1(c) + 2 * G1(c);
    for (name, len, unit) in [
        ("a_query", pk.a_query.len(), G1(c)),
        ("b_g1_query", pk.b_g1_query.len(), G1(c)),
        ("b_g2_query", pk.b_g2_query.len(), G2(c)),
        ("h_query", pk.h_query.len(), G1(c)),
        ("l_query", pk.l_query.len(), G1(c)),
    ] {
        out.push((name, at));
        at += 8 + len * unit;
    }
    out
}

fn patched(bytes: &[u8], at: usize, len: u64) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + 8].copy_from_slice(&len.to_le_bytes());
    out
}

const HUGE: [u64; 4] = [1 << 37, 1 << 62, u64::MAX, 1 << 20];

#[test]
fn a_huge_length_in_a_verifying_key_is_a_decode_error() {
    let (_, vk) = keys();
    let bytes = groth16::encode(&vk);
    let at = G1(Compress::Yes) + 3 * G2(Compress::Yes);
    // the prefix is where we think it is
    assert_eq!(bytes[at..at + 8], (vk.gamma_abc_g1.len() as u64).to_le_bytes());
    let remain = bytes.len() - at - 8;
    for len in HUGE {
        let err = groth16::decode::<VerifyingKey>("verifying key", &patched(&bytes, at, len)).unwrap_err();
        let Error::Decode(msg) = err else { panic!("{err:?}") };
        assert_eq!(
            msg,
            format!("verifying key: gamma_abc_g1 has length {len} but only {remain} bytes remain")
        );
    }
    // one element more than there is room for: also refused before reading
    let more = vk.gamma_abc_g1.len() as u64 + 1;
    let err = groth16::decode::<VerifyingKey>("verifying key", &patched(&bytes, at, more)).unwrap_err();
    assert!(matches!(err, Error::Decode(m) if m.contains("gamma_abc_g1 has length")));
    assert_eq!(groth16::decode::<VerifyingKey>("verifying key", &bytes).unwrap(), vk);
}

#[test]
fn a_huge_length_in_a_proving_key_is_a_decode_error() {
    let (pk, _) = keys();
    let bytes = groth16::encode_proving_key(&pk);
    let prefixes = proving_key_prefixes(&pk);
    assert_eq!(prefixes.len(), 6);
    for (field, at) in prefixes {
        let remain = bytes.len() - at - 8;
        for len in HUGE {
            let err = groth16::decode_proving_key(&patched(&bytes, at, len)).unwrap_err();
            let Error::Decode(msg) = err else { panic!("{field}: {err:?}") };
            assert_eq!(msg, format!("proving key: {field} has length {len} but only {remain} bytes remain"));
        }
    }
    assert_eq!(groth16::decode_proving_key(&bytes).unwrap(), pk);
}

#[test]
fn truncated_keys_and_proofs_name_the_field() {
    let (pk, vk) = keys();
    let bytes = groth16::encode_proving_key(&pk);
    let err = groth16::decode_proving_key(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(matches!(&err, Error::Decode(m) if m.starts_with("proving key: l_query")), "{err}");
    let bytes = groth16::encode(&vk);
    let err = groth16::decode::<VerifyingKey>("verifying key", &bytes[..100]).unwrap_err();
    assert!(matches!(&err, Error::Decode(m) if m.starts_with("verifying key: gamma_g2")), "{err}");
    // A at infinity (canonical), then 8 of B's 64 bytes
    let mut short = [0u8; 40];
    short[31] = 0x40;
    let err = groth16::decode::<Proof>("proof", &short).unwrap_err();
    assert!(matches!(&err, Error::Decode(m) if m.starts_with("proof: b")), "{err}");
}

/// arkworks reads the point at infinity from any bytes that carry its flag, and ignores the
/// sign flag of an uncompressed point: zeenot accepts only the encoding it writes.
#[test]
fn every_point_has_one_encoding() {
    let (pk, vk) = keys();
    let p = program();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let inputs = p.parse_inputs(&["1".into(), "2".into()]).unwrap();
    let proof = groth16::prove(&p, &pk, &inputs, &[], &mut rng).unwrap().proof;
    let bytes = groth16::encode(&proof);
    assert_eq!(groth16::decode::<Proof>("proof", &bytes).unwrap(), proof);

    // A = infinity written canonically (all zero but the flag) decodes ...
    let mut inf = bytes.clone();
    inf[..32].fill(0);
    inf[31] = 0x40;
    assert!(groth16::decode::<Proof>("proof", &inf).is_ok());
    // ... and with any other x it is refused
    let mut other = inf.clone();
    other[0] = 1;
    let err = groth16::decode::<Proof>("proof", &other).unwrap_err();
    assert!(
        matches!(&err, Error::Decode(m) if m.starts_with("proof: a: not the canonical encoding")),
        "{err}"
    );

    // the sign flag of an uncompressed point (in the proving key's alpha_g1) is not ignored
    let mut key = groth16::encode_proving_key(&pk);
    key[63] ^= 0x80;
    let err = groth16::decode_proving_key(&key).unwrap_err();
    assert!(
        matches!(&err, Error::Decode(m) if m.starts_with("proving key: vk.alpha_g1: not the canonical encoding")),
        "{err}"
    );
    // a point at infinity in a vector with a stray x is refused too, naming the element
    let key = groth16::encode_proving_key(&pk);
    let (_, at) = proving_key_prefixes(&pk)[1];
    let g1 = G1(Compress::No);
    let mut bad = key.clone();
    bad[at + 8..at + 8 + g1].fill(0);
    bad[at + 8 + g1 - 1] = 0x40;
    bad[at + 8] = 5;
    let err = groth16::decode_proving_key(&bad).unwrap_err();
    assert!(
        matches!(&err, Error::Decode(m) if m.starts_with("proving key: a_query[0]: not the canonical encoding")),
        "{err}"
    );
    let _ = vk;
}

/// A proving key that decodes but has the wrong shape (an empty query vector made arkworks'
/// prover index out of bounds) is an `Error::Key`, and so is one query vector too short.
#[test]
fn a_proving_key_of_the_wrong_shape_is_a_key_error() {
    let (pk, _) = keys();
    let p = program();
    let inputs = p.parse_inputs(&["1".into(), "2".into()]).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    assert!(groth16::prove(&p, &pk, &inputs, &[], &mut rng).is_ok());
    type Cut = fn(&mut ProvingKey);
    let cuts: [(&str, Cut); 8] = [
        ("a_query", |k| k.a_query.clear()),
        ("b_g1_query", |k| k.b_g1_query.clear()),
        ("b_g2_query", |k| k.b_g2_query.clear()),
        ("l_query", |k| k.l_query.clear()),
        ("a_query", |k| {
            k.a_query.pop();
        }),
        ("b_g2_query", |k| {
            k.b_g2_query.pop();
        }),
        ("l_query", |k| {
            k.l_query.pop();
        }),
        ("a_query", |k| k.a_query.push(k.a_query[0])),
    ];
    for (field, cut) in cuts {
        let mut bad = pk.clone();
        cut(&mut bad);
        // it decodes: the shape is the prover's to check
        let bad = groth16::decode_proving_key(&groth16::encode_proving_key(&bad)).unwrap();
        let err = groth16::prove(&p, &bad, &inputs, &[], &mut rng).unwrap_err();
        assert!(matches!(&err, Error::Key(m) if m.contains(field)), "{field}: {err}");
    }
}

#[test]
fn a_key_written_in_place_is_the_same_bytes() {
    let (pk, _) = keys();
    let bytes = groth16::encode_proving_key(&pk);
    assert_eq!(groth16::encoded_proving_key_len(&pk), bytes.len());
    let mut out = vec![0u8; bytes.len()];
    groth16::encode_proving_key_into(pk.clone(), &mut out).unwrap();
    assert_eq!(out, bytes);
    // a buffer of the wrong size is an error, not a panic or a silent truncation
    for len in [bytes.len() - 1, bytes.len() + 1] {
        let mut out = vec![0u8; len];
        assert!(matches!(groth16::encode_proving_key_into(pk.clone(), &mut out), Err(Error::Key(_))));
    }
}
