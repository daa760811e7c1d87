//! RSA blind signatures (RFC 9474): keys, `blind`, `blind_sign`, `finalize`, `verify`.
//!
//! The four RSABSSA-SHA384 variants of RFC 9474 §5 are one [`Variant`] value; a key carries its
//! variant (the variant decides the PSS salt length, whether the message is prefixed with 32
//! random bytes, and the parameters written into an SPKI). The RSA work is
//! `blind-rsa-signatures`'s; this module bounds inputs, names errors and erases the crate's
//! type parameters.

use std::fmt;

use blind_rsa_signatures as brs;
use brs::reexports::crypto_bigint::BoxedUint;
use brs::reexports::rsa::rand_core::CryptoRng;
use brs::reexports::rsa::{RsaPrivateKey, RsaPublicKey};
use brs::{DefaultRng, Deterministic, MessagePrepare, PSSZero, Randomized, SaltMode, Sha384, PSS};

use crate::Error;

/// RSA moduli accepted (RFC 9474 allows any; the crate supports 2048 to 4096 bits).
pub const MIN_MODULUS_BITS: usize = 2048;
pub const MAX_MODULUS_BITS: usize = 4096;
/// The longest message signed or verified (messages are hashed; the bound keeps a caller from
/// handing over unbounded memory).
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// The message randomizer of the `Randomized` variants (RFC 9474 §4.1: 32 random bytes).
pub const RANDOMIZER_BYTES: usize = 32;
/// The longest encoded secret key read (a 4096-bit PKCS#8 key is about 2.4 kB in DER).
pub const MAX_SECRET_KEY_DER: usize = 4096;
pub const MAX_SECRET_KEY_PEM: usize = 8192;
/// The longest encoded public key read (the crate itself refuses longer).
pub const MAX_PUBLIC_KEY_DER: usize = 800;
pub const MAX_PUBLIC_KEY_PEM: usize = 1000;
/// The longest big-endian component of a key read by `from_components` (4096 bits).
pub const MAX_COMPONENT_BYTES: usize = MAX_MODULUS_BITS / 8;

/// One of RFC 9474's four RSABSSA-SHA384 variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// RSABSSA-SHA384-PSS-Randomized (the RFC's recommendation).
    PssRandomized,
    /// RSABSSA-SHA384-PSSZERO-Randomized.
    PssZeroRandomized,
    /// RSABSSA-SHA384-PSS-Deterministic.
    PssDeterministic,
    /// RSABSSA-SHA384-PSSZERO-Deterministic.
    PssZeroDeterministic,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::PssRandomized,
        Variant::PssZeroRandomized,
        Variant::PssDeterministic,
        Variant::PssZeroDeterministic,
    ];
    pub const NAMES: [&'static str; 4] = [
        "RSABSSA-SHA384-PSS-Randomized",
        "RSABSSA-SHA384-PSSZERO-Randomized",
        "RSABSSA-SHA384-PSS-Deterministic",
        "RSABSSA-SHA384-PSSZERO-Deterministic",
    ];

    /// The RFC's name of the variant.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The variant of an RFC name.
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| Error::Variant(name.chars().take(64).collect()))
    }

    /// Whether messages are prefixed with a 32-byte randomizer (RFC 9474 §4.1).
    pub fn is_randomized(self) -> bool {
        matches!(self, Variant::PssRandomized | Variant::PssZeroRandomized)
    }
}

/// Calls the generic `$f::<SaltMode, MessagePrepare>(args)` for a variant.
macro_rules! dispatch {
    ($variant:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $variant {
            Variant::PssRandomized => $f::<PSS, Randomized>($($arg),*),
            Variant::PssZeroRandomized => $f::<PSSZero, Randomized>($($arg),*),
            Variant::PssDeterministic => $f::<PSS, Deterministic>($($arg),*),
            Variant::PssZeroDeterministic => $f::<PSSZero, Deterministic>($($arg),*),
        }
    };
}

type TypedPublic<S, M> = brs::PublicKey<Sha384, S, M>;
type TypedSecret<S, M> = brs::SecretKey<Sha384, S, M>;
// Key encodings and parameter checks do not depend on the variant, except SPKI's parameters.
type AnySecret = TypedSecret<PSS, Randomized>;
type AnyPublic = TypedPublic<PSS, Randomized>;

fn key_err(what: &str, e: brs::Error) -> Error {
    let why = match e {
        brs::Error::UnsupportedParameters => {
            "unsupported parameters (RFC 9474 keys here: a 2048- to 4096-bit modulus, e = 3 or 65537)"
        }
        brs::Error::InvalidKey => "not a valid RSA key (its components are inconsistent)",
        brs::Error::EncodingError => "it does not decode",
        _ => "it is not usable",
    };
    Error::Key(format!("{what}: {why}"))
}

fn check_len(what: &str, data: &[u8], max: usize) -> Result<(), Error> {
    if data.len() > max {
        return Err(Error::Input(format!("{what} is {} bytes, more than the {max} allowed", data.len())));
    }
    Ok(())
}

fn check_message(msg: &[u8]) -> Result<(), Error> {
    check_len("the message", msg, MAX_MESSAGE_BYTES)
}

/// An RSA secret key for RFC 9474 blind signatures under one variant.
#[derive(Clone)]
pub struct SecretKey {
    variant: Variant,
    inner: RsaPrivateKey,
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key's components.
        write!(f, "SecretKey({}, {} bits)", self.variant.name(), self.modulus_bits())
    }
}

impl SecretKey {
    fn checked(variant: Variant, inner: RsaPrivateKey) -> Result<Self, Error> {
        // The crate's parameter check (modulus size, e) lives in `public_key`.
        AnySecret::new(inner.clone()).public_key().map_err(|e| key_err("the secret key", e))?;
        Ok(SecretKey { variant, inner })
    }

    /// A fresh key of `bits` bits (2048 to 4096), e = 65537.
    pub fn generate(variant: Variant, bits: usize) -> Result<Self, Error> {
        if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) || !bits.is_multiple_of(8) {
            return Err(Error::Input(format!(
                "an RSA modulus of {bits} bits: between {MIN_MODULUS_BITS} and {MAX_MODULUS_BITS}, a multiple of 8"
            )));
        }
        let kp = brs::KeyPair::<Sha384, PSS, Randomized>::generate(&mut DefaultRng, bits)
            .map_err(|e| key_err("key generation", e))?;
        Ok(SecretKey { variant, inner: kp.sk.as_ref().clone() })
    }

    /// From PKCS#8 or PKCS#1 DER (checked: consistent components, supported parameters).
    pub fn from_der(variant: Variant, der: &[u8]) -> Result<Self, Error> {
        check_len("the secret key (DER)", der, MAX_SECRET_KEY_DER)?;
        let sk = AnySecret::from_der(der).map_err(|e| key_err("the secret key (DER)", e))?;
        Self::checked(variant, sk.as_ref().clone())
    }

    /// From PKCS#8 or PKCS#1 PEM.
    pub fn from_pem(variant: Variant, pem: &str) -> Result<Self, Error> {
        check_len("the secret key (PEM)", pem.as_bytes(), MAX_SECRET_KEY_PEM)?;
        let sk = AnySecret::from_pem(pem).map_err(|e| key_err("the secret key (PEM)", e))?;
        Self::checked(variant, sk.as_ref().clone())
    }

    /// From big-endian components `n, e, d, p, q` (as RFC 9474's test vectors give them).
    pub fn from_components(
        variant: Variant,
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
    ) -> Result<Self, Error> {
        let mut parts = Vec::with_capacity(5);
        for (name, bytes) in [("n", n), ("e", e), ("d", d), ("p", p), ("q", q)] {
            check_len(name, bytes, MAX_COMPONENT_BYTES)?;
            if bytes.iter().all(|b| *b == 0) {
                return Err(Error::Key(format!("the component {name} is zero")));
            }
            parts.push(BoxedUint::from_be_slice_vartime(bytes));
        }
        let q = parts.pop().unwrap_or_default();
        let p = parts.pop().unwrap_or_default();
        let d = parts.pop().unwrap_or_default();
        let e = parts.pop().unwrap_or_default();
        let n = parts.pop().unwrap_or_default();
        let inner = RsaPrivateKey::from_components(n, e, d, vec![p, q])
            .map_err(|e| Error::Key(format!("the components do not form an RSA key: {e}")))?;
        Self::checked(variant, inner)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn modulus_bits(&self) -> usize {
        use brs::reexports::rsa::traits::PublicKeyParts;
        self.inner.n().bit_width() as usize
    }

    /// PKCS#8 DER.
    pub fn to_der(&self) -> Result<Vec<u8>, Error> {
        AnySecret::new(self.inner.clone()).to_der().map_err(|e| key_err("encoding", e))
    }

    /// PKCS#8 PEM.
    pub fn to_pem(&self) -> Result<String, Error> {
        AnySecret::new(self.inner.clone()).to_pem().map_err(|e| key_err("encoding", e))
    }

    pub fn public_key(&self) -> PublicKey {
        PublicKey { variant: self.variant, inner: RsaPublicKey::from(&self.inner) }
    }

    /// RFC 9474 `BlindSign`: the blind signature of a blinded message (`modulus_bytes` long,
    /// below the modulus). The RSA operation is checked (the crate verifies its own output).
    pub fn blind_sign(&self, blinded_message: &[u8]) -> Result<Vec<u8>, Error> {
        let k = self.public_key().modulus_bytes();
        if blinded_message.len() != k {
            return Err(Error::Input(format!(
                "a blinded message is {k} bytes for this key, not {}",
                blinded_message.len()
            )));
        }
        dispatch!(self.variant, blind_sign_typed(&self.inner, blinded_message))
    }
}

fn blind_sign_typed<S: SaltMode, M: MessagePrepare>(
    inner: &RsaPrivateKey,
    blinded: &[u8],
) -> Result<Vec<u8>, Error> {
    match TypedSecret::<S, M>::new(inner.clone()).blind_sign(blinded) {
        Ok(sig) => Ok(sig.0),
        Err(brs::Error::UnsupportedParameters) => {
            Err(Error::Input("the blinded message is not below the modulus".into()))
        }
        Err(e) => Err(Error::Internal(e.to_string())),
    }
}

/// An RSA public key for RFC 9474 blind signatures under one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    variant: Variant,
    inner: RsaPublicKey,
}

/// The client's state between `blind` and `finalize`: the blinded message (sent to the signer),
/// the unblinding factor `inv` and, for the randomized variants, the message randomizer (both
/// kept secret until the signature is shown: `inv` links the blinded message to the signature).
#[derive(Clone, PartialEq, Eq)]
pub struct Blinding {
    pub blinded_message: Vec<u8>,
    pub inv: Vec<u8>,
    pub randomizer: Option<[u8; RANDOMIZER_BYTES]>,
}

impl fmt::Debug for Blinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Blinding({} bytes, inv and randomizer withheld)", self.blinded_message.len())
    }
}

/// A finalized signature: the RSA-PSS signature and, for the randomized variants, the
/// randomizer the message was prefixed with (RFC 9474 §4.1: the verifier needs it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub signature: Vec<u8>,
    pub randomizer: Option<[u8; RANDOMIZER_BYTES]>,
}

fn randomizer_arg(
    variant: Variant,
    randomizer: Option<[u8; RANDOMIZER_BYTES]>,
) -> Result<Option<brs::MessageRandomizer>, Error> {
    match (variant.is_randomized(), randomizer) {
        (true, Some(r)) => Ok(Some(brs::MessageRandomizer(r))),
        (false, None) => Ok(None),
        (true, None) => Err(Error::Input(format!("{} needs the message randomizer", variant.name()))),
        (false, Some(_)) => Err(Error::Input(format!("{} has no message randomizer", variant.name()))),
    }
}

impl PublicKey {
    fn checked(variant: Variant, pk: AnyPublic) -> Self {
        PublicKey { variant, inner: pk.as_ref().clone() }
    }

    /// From SubjectPublicKeyInfo (rsaEncryption) or PKCS#1 DER.
    pub fn from_der(variant: Variant, der: &[u8]) -> Result<Self, Error> {
        check_len("the public key (DER)", der, MAX_PUBLIC_KEY_DER)?;
        let pk = AnyPublic::from_der(der).map_err(|e| key_err("the public key (DER)", e))?;
        Ok(Self::checked(variant, pk))
    }

    /// From PEM (SubjectPublicKeyInfo or PKCS#1).
    pub fn from_pem(variant: Variant, pem: &str) -> Result<Self, Error> {
        check_len("the public key (PEM)", pem.as_bytes(), MAX_PUBLIC_KEY_PEM)?;
        let pk = AnyPublic::from_pem(pem).map_err(|e| key_err("the public key (PEM)", e))?;
        Ok(Self::checked(variant, pk))
    }

    /// From an RSASSA-PSS SubjectPublicKeyInfo (the encoding Privacy Pass uses for RFC 9474
    /// keys: the algorithm is id-RSASSA-PSS with its hash and salt length).
    pub fn from_spki(variant: Variant, spki: &[u8]) -> Result<Self, Error> {
        check_len("the public key (SPKI)", spki, MAX_PUBLIC_KEY_DER)?;
        let pk = AnyPublic::from_spki(spki).map_err(|e| key_err("the public key (SPKI)", e))?;
        Ok(Self::checked(variant, pk))
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn modulus_bits(&self) -> usize {
        use brs::reexports::rsa::traits::PublicKeyParts;
        self.inner.n().bit_width() as usize
    }

    /// The length of blinded messages and signatures: `ceil(modulus_bits / 8)`.
    pub fn modulus_bytes(&self) -> usize {
        self.modulus_bits().div_ceil(8)
    }

    pub fn to_der(&self) -> Result<Vec<u8>, Error> {
        AnyPublic::new(self.inner.clone()).to_der().map_err(|e| key_err("encoding", e))
    }

    pub fn to_pem(&self) -> Result<String, Error> {
        AnyPublic::new(self.inner.clone()).to_pem().map_err(|e| key_err("encoding", e))
    }

    /// The RSASSA-PSS SPKI, with this variant's salt length.
    pub fn to_spki(&self) -> Result<Vec<u8>, Error> {
        dispatch!(self.variant, spki_typed(&self.inner))
    }

    /// RFC 9474 `Prepare` and `Blind` with fresh randomness from the operating system.
    pub fn blind(&self, msg: &[u8]) -> Result<Blinding, Error> {
        self.blind_with_rng(&mut DefaultRng, msg)
    }

    /// `blind` with the caller's randomness source (for test vectors; any `CryptoRng`).
    pub fn blind_with_rng<R: CryptoRng + ?Sized>(&self, rng: &mut R, msg: &[u8]) -> Result<Blinding, Error> {
        check_message(msg)?;
        let inner = &self.inner;
        match self.variant {
            Variant::PssRandomized => blind_typed::<PSS, Randomized, R>(inner, rng, msg),
            Variant::PssZeroRandomized => blind_typed::<PSSZero, Randomized, R>(inner, rng, msg),
            Variant::PssDeterministic => blind_typed::<PSS, Deterministic, R>(inner, rng, msg),
            Variant::PssZeroDeterministic => blind_typed::<PSSZero, Deterministic, R>(inner, rng, msg),
        }
    }

    /// RFC 9474 `Finalize`: the signature of `msg` from the signer's blind signature; checked
    /// against this key (a wrong blind signature is [`Error::Verification`]).
    pub fn finalize(
        &self,
        blind_signature: &[u8],
        blinding: &Blinding,
        msg: &[u8],
    ) -> Result<Signature, Error> {
        check_message(msg)?;
        let k = self.modulus_bytes();
        for (what, v) in [("blind signature", blind_signature), ("unblinding factor inv", &blinding.inv)] {
            if v.len() != k {
                return Err(Error::Input(format!("a {what} is {k} bytes for this key, not {}", v.len())));
            }
        }
        let randomizer = randomizer_arg(self.variant, blinding.randomizer)?;
        let result = brs::BlindingResult {
            blind_message: brs::BlindMessage(blinding.blinded_message.clone()),
            secret: brs::Secret(blinding.inv.clone()),
            msg_randomizer: randomizer,
        };
        let sig = dispatch!(self.variant, finalize_typed(&self.inner, blind_signature, &result, msg))?;
        Ok(Signature { signature: sig, randomizer: blinding.randomizer })
    }

    /// RFC 9474 `Verify`: whether `signature` is a signature of `msg` under this key. `false`
    /// for anything that does not verify (a wrong length, a missing or extra randomizer too).
    pub fn verify(&self, signature: &Signature, msg: &[u8]) -> Result<bool, Error> {
        check_message(msg)?;
        if signature.signature.len() != self.modulus_bytes() {
            return Ok(false);
        }
        let Ok(randomizer) = randomizer_arg(self.variant, signature.randomizer) else {
            return Ok(false);
        };
        Ok(dispatch!(self.variant, verify_typed(&self.inner, &signature.signature, randomizer, msg)))
    }
}

fn spki_typed<S: SaltMode, M: MessagePrepare>(inner: &RsaPublicKey) -> Result<Vec<u8>, Error> {
    TypedPublic::<S, M>::new(inner.clone()).to_spki().map_err(|e| key_err("encoding", e))
}

fn blind_typed<S: SaltMode, M: MessagePrepare, R: CryptoRng + ?Sized>(
    inner: &RsaPublicKey,
    rng: &mut R,
    msg: &[u8],
) -> Result<Blinding, Error> {
    let r = TypedPublic::<S, M>::new(inner.clone()).blind(rng, msg).map_err(|e| match e {
        // The encoded message shares a factor with n: only with a broken key (or by a
        // negligible chance); RFC 9474 §4.2 says to fail.
        brs::Error::UnsupportedParameters => Error::Key("blinding failed: the key is not usable".into()),
        e => Error::Internal(e.to_string()),
    })?;
    Ok(Blinding {
        blinded_message: r.blind_message.0,
        inv: r.secret.0,
        randomizer: r.msg_randomizer.map(|m| m.0),
    })
}

fn finalize_typed<S: SaltMode, M: MessagePrepare>(
    inner: &RsaPublicKey,
    blind_signature: &[u8],
    result: &brs::BlindingResult,
    msg: &[u8],
) -> Result<Vec<u8>, Error> {
    let blind_sig = brs::BlindSignature(blind_signature.to_vec());
    match TypedPublic::<S, M>::new(inner.clone()).finalize(&blind_sig, result, msg) {
        Ok(sig) => Ok(sig.0),
        Err(brs::Error::VerificationFailed) => Err(Error::Verification),
        Err(e) => Err(Error::Input(format!("finalize: {e}"))),
    }
}

fn verify_typed<S: SaltMode, M: MessagePrepare>(
    inner: &RsaPublicKey,
    signature: &[u8],
    randomizer: Option<brs::MessageRandomizer>,
    msg: &[u8],
) -> bool {
    TypedPublic::<S, M>::new(inner.clone())
        .verify(&brs::Signature(signature.to_vec()), randomizer, msg)
        .is_ok()
}
