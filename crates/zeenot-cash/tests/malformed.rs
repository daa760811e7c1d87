//! Arbitrary bytes where keys, blinded messages, blind signatures, unblinding factors and
//! signatures are expected: always an `Err` or `false`, never a panic (the Python binding also
//! catches panics, but none should reach it).

use std::sync::OnceLock;

use proptest::prelude::*;
use zeenot_cash::{Blinding, PublicKey, SecretKey, Signature, Variant};

fn key() -> &'static SecretKey {
    static KEY: OnceLock<SecretKey> = OnceLock::new();
    KEY.get_or_init(|| SecretKey::generate(Variant::PssRandomized, 2048).expect("keygen"))
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn key_decoders_never_panic(v in variant(), data in prop::collection::vec(any::<u8>(), 0..1200)) {
        prop_assert!(PublicKey::from_der(v, &data).is_err());
        prop_assert!(PublicKey::from_spki(v, &data).is_err());
        prop_assert!(SecretKey::from_der(v, &data).is_err());
        let text = String::from_utf8_lossy(&data);
        prop_assert!(PublicKey::from_pem(v, &text).is_err());
        prop_assert!(SecretKey::from_pem(v, &text).is_err());
    }

    #[test]
    fn spki_with_a_valid_prefix_never_panics(cut in 0usize..400, junk in prop::collection::vec(any::<u8>(), 0..64)) {
        let spki = key().public_key().to_spki().expect("spki");
        let mut data = spki[..cut.min(spki.len())].to_vec();
        data.extend_from_slice(&junk);
        let _ = PublicKey::from_spki(Variant::PssRandomized, &data);
        let der = key().public_key().to_der().expect("der");
        let mut data = der[..cut.min(der.len())].to_vec();
        data.extend_from_slice(&junk);
        let _ = PublicKey::from_der(Variant::PssRandomized, &data);
    }

    #[test]
    fn protocol_inputs_never_panic(
        blinded in prop::collection::vec(any::<u8>(), 0..300),
        inv in prop::collection::vec(any::<u8>(), 254..258),
        sig in prop::collection::vec(any::<u8>(), 254..258),
        randomizer in any::<Option<[u8; 32]>>(),
        msg in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let sk = key();
        let pk = sk.public_key();
        let _ = sk.blind_sign(&blinded);
        let blinding = Blinding { blinded_message: blinded.clone(), inv, randomizer };
        prop_assert!(pk.finalize(&sig, &blinding, &msg).is_err());
        let s = Signature { signature: sig, randomizer };
        prop_assert!(!pk.verify(&s, &msg).expect("bounded message"));
    }
}
