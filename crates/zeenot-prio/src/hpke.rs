//! HPKE as DAP-09 uses it, through `hpke-dispatch` 0.10 (the crate `janus_core::hpke` 0.7.145
//! wraps): base-mode seal and open, application info `label || sender role || recipient role`
//! with the labels `"dap-09 input share"` and `"dap-09 aggregate share"`, as janus_core builds
//! them. Key pairs for an aggregator's `HpkeConfig` come from the same crate.

use crate::{bounded, decode_err, Error, Result};
use hpke_dispatch::{Config, Kem};
use janus_messages::codec::{Decode, Encode};
use janus_messages::{HpkeAeadId, HpkeCiphertext, HpkeConfig, HpkeConfigId, HpkeKdfId, HpkeKemId, Role};

/// What a ciphertext carries, which fixes its application info's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    InputShare,
    AggregateShare,
}

impl Label {
    pub fn as_bytes(&self) -> &'static [u8] {
        match self {
            Label::InputShare => b"dap-09 input share",
            Label::AggregateShare => b"dap-09 aggregate share",
        }
    }

    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "input_share" => Ok(Label::InputShare),
            "aggregate_share" => Ok(Label::AggregateShare),
            other => Err(Error::Input(format!(
                "HPKE label must be \"input_share\" or \"aggregate_share\", got {other:?}"
            ))),
        }
    }
}

/// A DAP role by name: `collector`, `client`, `leader`, `helper`.
pub fn role(name: &str) -> Result<Role> {
    name.parse::<Role>()
        .map_err(|_| Error::Input(format!("role must be collector, client, leader or helper, got {name:?}")))
}

/// DAP-09's application info: the label, then the sender's and the recipient's role bytes.
pub fn application_info(label: Label, sender: Role, recipient: Role) -> Vec<u8> {
    [label.as_bytes(), &[sender as u8], &[recipient as u8]].concat()
}

fn dispatch_config(config: &HpkeConfig) -> Result<Config> {
    let unsupported = |what: &str| Error::Hpke(format!("unsupported {what} in the HPKE config"));
    Ok(Config {
        aead: u16::from(*config.aead_id()).try_into().map_err(|_| unsupported("AEAD"))?,
        kdf: u16::from(*config.kdf_id()).try_into().map_err(|_| unsupported("KDF"))?,
        kem: u16::from(*config.kem_id()).try_into().map_err(|_| unsupported("KEM"))?,
    })
}

fn config(encoded: &[u8]) -> Result<HpkeConfig> {
    HpkeConfig::get_decoded(bounded("HPKE config", encoded)?).map_err(decode_err("HPKE config"))
}

/// Seal `plaintext` to the encoded `HpkeConfig`; returns the encoded `HpkeCiphertext`.
pub fn seal(recipient_config: &[u8], info: &[u8], plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>> {
    let config = config(recipient_config)?;
    let out = dispatch_config(&config)?
        .base_mode_seal(config.public_key().as_ref(), info, plaintext, aad)
        .map_err(|e| Error::Hpke(format!("seal: {e}")))?;
    HpkeCiphertext::new(*config.id(), out.encapped_key, out.ciphertext)
        .get_encoded()
        .map_err(decode_err("HPKE ciphertext"))
}

/// Open an encoded `HpkeCiphertext` with the private key of the encoded `HpkeConfig`. A config
/// id that differs from the ciphertext's, or a ciphertext that does not open, is
/// [`Error::Hpke`].
pub fn open(
    config_bytes: &[u8],
    private_key: &[u8],
    info: &[u8],
    ciphertext: &[u8],
    aad: &[u8],
) -> Result<Vec<u8>> {
    let config = config(config_bytes)?;
    let ct = HpkeCiphertext::get_decoded(bounded("HPKE ciphertext", ciphertext)?)
        .map_err(decode_err("HPKE ciphertext"))?;
    if ct.config_id() != config.id() {
        return Err(Error::Hpke(format!(
            "the ciphertext is for HPKE config {}, not {}",
            ct.config_id(),
            config.id()
        )));
    }
    dispatch_config(&config)?
        .base_mode_open(private_key, ct.encapsulated_key(), info, ct.payload(), aad)
        .map_err(|_| Error::Hpke("the ciphertext does not open with this key, info and AAD".into()))
}

/// A fresh key pair: the encoded `HpkeConfig` (public) and the private key (RFC 9180
/// `SerializePrivateKey`).
pub fn generate(config_id: u8, kem_id: u16, kdf_id: u16, aead_id: u16) -> Result<(Vec<u8>, Vec<u8>)> {
    let kem = match HpkeKemId::from(kem_id) {
        HpkeKemId::X25519HkdfSha256 => Kem::X25519HkdfSha256,
        HpkeKemId::P256HkdfSha256 => Kem::DhP256HkdfSha256,
        _ => return Err(Error::Hpke(format!("unsupported KEM {kem_id:#06x} (0x0020 X25519, 0x0010 P-256)"))),
    };
    let config = HpkeConfig::new(
        HpkeConfigId::from(config_id),
        HpkeKemId::from(kem_id),
        HpkeKdfId::from(kdf_id),
        HpkeAeadId::from(aead_id),
        Vec::new().into(),
    );
    dispatch_config(&config)?;
    let pair = kem.gen_keypair();
    let (private_key, public_key) = (pair.private_key, pair.public_key);
    let config = HpkeConfig::new(
        HpkeConfigId::from(config_id),
        HpkeKemId::from(kem_id),
        HpkeKdfId::from(kdf_id),
        HpkeAeadId::from(aead_id),
        public_key.into(),
    );
    Ok((config.get_encoded().map_err(decode_err("HPKE config"))?, private_key))
}
