//! RFC 9474 Appendix A's test vectors, through `zeenot_cash::blind`.
//!
//! `rfc9474_vectors.json` is the vector file of `blind-rsa-signatures` 0.18.0
//! (`tests/test_vectors_rfc9474.json` in github.com/jedisct1/rust-blind-rsa-signatures; its
//! author, Frank Denis, is the RFC's first author), copied unchanged: the four RSABSSA-SHA384
//! variants of RFC 9474 Appendix A (A.1 to A.4) with one 4096-bit key. The RFC's own text was
//! reachable here only as search excerpts, so the file is the crate's, not re-typed from the RFC.
//!
//! Each vector is checked end to end: `blind` (the randomness — the message prefix, the PSS
//! salt and the blinding factor `r = inv⁻¹ mod n` — fed from the vector) gives `blinded_msg`
//! and `inv`; `blind_sign` gives `blind_sig`; `finalize` gives `sig`; `verify` accepts it; and
//! the same signature under another message, another key or with a flipped bit is rejected.

use std::convert::Infallible;

use blind_rsa_signatures::reexports::crypto_bigint::{BoxedUint, Resize};
use blind_rsa_signatures::reexports::rsa::rand_core::{TryCryptoRng, TryRng};
use zeenot_cash::{Blinding, SecretKey, Signature, Variant};

struct Vector {
    name: String,
    n: Vec<u8>,
    e: Vec<u8>,
    d: Vec<u8>,
    p: Vec<u8>,
    q: Vec<u8>,
    inv: Vec<u8>,
    msg: Vec<u8>,
    msg_prefix: Vec<u8>,
    salt: Vec<u8>,
    blinded_msg: Vec<u8>,
    blind_sig: Vec<u8>,
    sig: Vec<u8>,
}

fn field(v: &serde_json::Value, key: &str) -> Vec<u8> {
    let s = v[key].as_str().unwrap_or_else(|| panic!("{key} missing"));
    let s = s.strip_prefix("0x").unwrap_or(s);
    let s = if s.len() % 2 == 1 { format!("0{s}") } else { s.to_string() };
    hex::decode(s).unwrap_or_else(|e| panic!("{key}: {e}"))
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("rfc9474_vectors.json");
    let doc: serde_json::Value = serde_json::from_str(text).expect("vector JSON");
    doc.as_array()
        .expect("a list")
        .iter()
        .map(|v| Vector {
            name: v["name"].as_str().expect("name").to_string(),
            n: field(v, "n"),
            e: field(v, "e"),
            d: field(v, "d"),
            p: field(v, "p"),
            q: field(v, "q"),
            inv: field(v, "inv"),
            msg: field(v, "msg"),
            msg_prefix: field(v, "msg_prefix"),
            salt: field(v, "salt"),
            blinded_msg: field(v, "blinded_msg"),
            blind_sig: field(v, "blind_sig"),
            sig: field(v, "sig"),
        })
        .collect()
}

/// Hands out the vector's randomness in the order `blind` asks for it: the message prefix
/// (randomized variants), the salt (non-empty for PSS), then `r` little-endian.
struct Replay(Vec<Vec<u8>>);

impl TryRng for Replay {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        unreachable!("blind draws bytes only")
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        unreachable!("blind draws bytes only")
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if dst.is_empty() {
            return Ok(());
        }
        let next = self.0.remove(0);
        dst.fill(0);
        let k = next.len().min(dst.len());
        dst[..k].copy_from_slice(&next[..k]);
        Ok(())
    }
}
impl TryCryptoRng for Replay {}

fn left_pad(v: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len.saturating_sub(v.len())];
    out.extend_from_slice(v);
    out
}

#[test]
fn rfc9474_appendix_a_vectors() {
    let all = vectors();
    assert_eq!(all.len(), 4, "A.1 to A.4");
    for v in all {
        let variant = Variant::from_name(&v.name).expect("an RFC name");
        let sk = SecretKey::from_components(variant, &v.n, &v.e, &v.d, &v.p, &v.q).expect("key");
        let pk = sk.public_key();
        assert_eq!(pk.modulus_bits(), 4096, "{}", v.name);
        let k = pk.modulus_bytes();

        // r = inv⁻¹ mod n, as the blinding factor the vector was made with.
        let n = BoxedUint::from_be_slice_vartime(&v.n).to_nz().expect("n ≠ 0");
        let inv = BoxedUint::from_be_slice_vartime(&v.inv).resize(n.bits_precision());
        let r = inv.invert_mod(&n).expect("inv is invertible");
        let mut randomness = Vec::new();
        if variant.is_randomized() {
            randomness.push(v.msg_prefix.clone());
        }
        if !v.salt.is_empty() {
            randomness.push(v.salt.clone()); // PSSZERO draws no salt
        }
        randomness.push(r.to_le_bytes().to_vec());
        let blinding = pk.blind_with_rng(&mut Replay(randomness), &v.msg).expect("blind");
        assert_eq!(blinding.blinded_message, left_pad(&v.blinded_msg, k), "{}: blinded_msg", v.name);
        assert_eq!(blinding.inv, left_pad(&v.inv, k), "{}: inv", v.name);
        if variant.is_randomized() {
            assert_eq!(blinding.randomizer.map(|r| r.to_vec()), Some(v.msg_prefix.clone()));
        } else {
            assert!(blinding.randomizer.is_none());
        }

        let blind_sig = sk.blind_sign(&blinding.blinded_message).expect("blind_sign");
        assert_eq!(blind_sig, left_pad(&v.blind_sig, k), "{}: blind_sig", v.name);

        let sig = pk.finalize(&blind_sig, &blinding, &v.msg).expect("finalize");
        assert_eq!(sig.signature, left_pad(&v.sig, k), "{}: sig", v.name);
        assert!(pk.verify(&sig, &v.msg).expect("verify"), "{}", v.name);

        // Rejections: another message, a flipped bit, a changed randomizer.
        assert!(!pk.verify(&sig, b"another message").expect("verify"));
        let mut bad = sig.clone();
        bad.signature[k / 2] ^= 1;
        assert!(!pk.verify(&bad, &v.msg).expect("verify"));
        if let Some(mut r) = sig.randomizer {
            r[0] ^= 1;
            let moved = Signature { signature: sig.signature.clone(), randomizer: Some(r) };
            assert!(!pk.verify(&moved, &v.msg).expect("verify"));
        }
        // A wrong blind signature does not finalize.
        let mut wrong = blind_sig.clone();
        wrong[k - 1] ^= 1;
        assert!(pk.finalize(&wrong, &blinding, &v.msg).is_err());
    }
}

#[test]
fn round_trip_and_rejections_with_fresh_keys() {
    for variant in [Variant::PssRandomized, Variant::PssDeterministic] {
        let sk = SecretKey::generate(variant, 2048).expect("keygen");
        let pk = sk.public_key();
        let other = SecretKey::generate(variant, 2048).expect("keygen").public_key();
        let blinding = pk.blind(b"coin").expect("blind");
        let blind_sig = sk.blind_sign(&blinding.blinded_message).expect("sign");
        let sig = pk.finalize(&blind_sig, &blinding, b"coin").expect("finalize");
        assert!(pk.verify(&sig, b"coin").unwrap());
        assert!(!pk.verify(&sig, b"coin2").unwrap());
        assert!(!other.verify(&sig, b"coin").unwrap());
        // Key encodings round-trip.
        let der = pk.to_der().unwrap();
        assert_eq!(zeenot_cash::PublicKey::from_der(variant, &der).unwrap(), pk);
        let pem = pk.to_pem().unwrap();
        assert_eq!(zeenot_cash::PublicKey::from_pem(variant, &pem).unwrap(), pk);
        let spki = pk.to_spki().unwrap();
        assert_eq!(zeenot_cash::PublicKey::from_spki(variant, &spki).unwrap(), pk);
        let sk2 = SecretKey::from_der(variant, &sk.to_der().unwrap()).unwrap();
        assert_eq!(sk2.public_key(), pk);
        let sk3 = SecretKey::from_pem(variant, &sk.to_pem().unwrap()).unwrap();
        assert_eq!(sk3.public_key(), pk);
    }
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let sk = SecretKey::generate(Variant::PssRandomized, 2048).expect("keygen");
    let pk = sk.public_key();
    assert!(SecretKey::generate(Variant::PssRandomized, 1024).is_err());
    assert!(SecretKey::generate(Variant::PssRandomized, 8192).is_err());
    assert!(sk.blind_sign(&[1u8; 10]).is_err());
    assert!(sk.blind_sign(&[0xffu8; 256]).is_err(), "not below the modulus");
    assert!(zeenot_cash::PublicKey::from_der(Variant::PssRandomized, &[0u8; 5000]).is_err());
    assert!(zeenot_cash::PublicKey::from_der(Variant::PssRandomized, b"junk").is_err());
    assert!(zeenot_cash::PublicKey::from_spki(Variant::PssRandomized, &[0u8; 100]).is_err());
    assert!(SecretKey::from_der(Variant::PssRandomized, &[0u8; 100]).is_err());
    assert!(SecretKey::from_pem(Variant::PssRandomized, "-----BEGIN").is_err());
    assert!(SecretKey::from_components(Variant::PssRandomized, &[7], &[3], &[1], &[1], &[7]).is_err());
    assert!(Variant::from_name("RSABSSA-SHA256").is_err());
    assert!(pk.blind(&vec![0u8; (1 << 20) + 1]).is_err());
    let blinding = pk.blind(b"m").unwrap();
    let short = Blinding { inv: vec![1; 3], ..blinding.clone() };
    assert!(pk.finalize(&[0u8; 256], &short, b"m").is_err());
    let unrandomized = Blinding { randomizer: None, ..blinding.clone() };
    assert!(pk.finalize(&[0u8; 256], &unrandomized, b"m").is_err());
    let sig = Signature { signature: vec![0u8; 17], randomizer: blinding.randomizer };
    assert!(!pk.verify(&sig, b"m").unwrap());
}
