//! Generate a collector credential with janus's own key generation (X25519, HKDF-SHA256,
//! AES-128-GCM) and a random bearer token, as the JSON `collect --credential` reads.
//!
//! keygen [--id N]
//!
//! The private key stays with the collector; the task file carries only the public HPKE config
//! (id, kem, kdf, aead, public_key) and the token.

use anyhow::Result;
use janus_collector::PrivateCollectorCredential;
use janus_core::hpke::HpkeKeypair;
use janus_messages::{HpkeAeadId, HpkeConfigId, HpkeKdfId, HpkeKemId};
use zeenot_janus_interop::Flags;

fn main() -> Result<()> {
    let flags = Flags::from_env()?;
    let id = u8::try_from(flags.u64_or("id", 1)?)?;
    let keypair = HpkeKeypair::generate(
        HpkeConfigId::from(id),
        HpkeKemId::X25519HkdfSha256,
        HpkeKdfId::HkdfSha256,
        HpkeAeadId::Aes128Gcm,
    )?;
    // 32 random bytes in hex: a valid bearer token (janus_core's `BearerToken` alphabet).
    let token: String = (0..32).map(|_| format!("{:02x}", rand::random::<u8>())).collect();
    let config = keypair.config();
    let credential = serde_json::json!({
        "id": u8::from(*config.id()),
        "kem": "X25519HkdfSha256",
        "kdf": "Sha256",
        "aead": "AesGcm128",
        "public_key": config.public_key(),
        "private_key": keypair.private_key(),
        "token": token,
    });
    // Round-trip through janus's own type so the output is exactly what `collect` accepts.
    let parsed: PrivateCollectorCredential = serde_json::from_value(credential)?;
    debug_assert!(parsed.authentication_token().as_str().len() == 64);
    println!("{}", serde_json::to_string_pretty(&parsed)?);
    Ok(())
}
