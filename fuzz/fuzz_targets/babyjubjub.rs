//! Baby Jubjub decoders (points, scalars, base-field elements, ElGamal keys, ciphertexts and
//! decryption shares, EdDSA keys and signatures, DLEQ proofs, Pedersen commitments) on
//! arbitrary bytes: never a panic, and whatever decodes re-encodes to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeenot_crypto::{
    decode_base, decode_scalar, encode_base, encode_scalar, Ciphertext, Commitment, DecryptionShare,
    DleqProof, Point, PublicKey, Signature, SigningKey, VerifyingKey,
};
use zeenot_fuzz::{rng, write_seeds};

fn seeds() -> Vec<Vec<u8>> {
    let mut r = rng(6);
    let g = Point::generator();
    let sk = zeenot_crypto::SecretKey::random(&mut r);
    let pk = sk.public_key();
    let ct = pk.encrypt(42, &mut r);
    let share = sk.partial_decrypt(&ct, &mut r).expect("share");
    let signer = SigningKey::from_bytes([7; 32]);
    let sig = signer.sign(&zeenot_crypto::Base::from(99u64));
    vec![
        g.encode().to_vec(),
        Point::identity().encode().to_vec(),
        encode_scalar(&zeenot_crypto::Scalar::from(5u64)).to_vec(),
        pk.encode().to_vec(),
        ct.encode().to_vec(),
        share.encode().to_vec(),
        signer.verifying_key().encode().to_vec(),
        sig.encode().to_vec(),
    ]
}

fuzz_target!(init: write_seeds(seeds), |data: &[u8]| {
    if let Ok(p) = Point::decode_slice(data) {
        assert_eq!(p.encode(), data);
        let (x, y) = p.xy();
        assert_eq!(Point::from_xy(x, y), Ok(p));
    }
    if let Ok(b) = <&[u8; 32]>::try_from(data) {
        if let Ok(s) = decode_scalar(b) {
            assert_eq!(&encode_scalar(&s), b);
        }
        if let Ok(x) = decode_base(b) {
            assert_eq!(&encode_base(&x), b);
        }
    }
    if let Ok(k) = PublicKey::decode(data) {
        assert_eq!(k.encode(), data);
    }
    if let Ok(c) = Commitment::decode(data) {
        assert_eq!(c.encode(), data);
    }
    if let Ok(k) = VerifyingKey::decode(data) {
        assert_eq!(k.encode(), data);
    }
    if let Ok(c) = Ciphertext::decode(data) {
        assert_eq!(c.encode(), data);
    }
    if let Ok(s) = DecryptionShare::decode(data) {
        assert_eq!(s.encode(), data);
    }
    if let Ok(s) = Signature::decode(data) {
        assert_eq!(s.encode(), data);
    }
    if let Ok(d) = DleqProof::decode(data) {
        assert_eq!(d.encode(), data);
    }
    if let Ok(k) = zeenot_crypto::SecretKey::from_bytes(data) {
        assert_eq!(k.to_bytes(), data);
    }
});
