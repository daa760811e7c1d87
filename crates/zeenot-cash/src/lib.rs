//! The Rust side of Cashlib on zeenot. Today: RSA blind signatures as RFC 9474 specifies them
//! (RSABSSA-SHA384 with PSS or PSSZERO salts, randomized or deterministic message preparation),
//! over jedisct1's `blind-rsa-signatures` crate. A crate of its own so that RSA and its
//! dependencies stay out of `zeenot-crypto`. Every input is bounded before any work, and every
//! failure is an [`Error`]: nothing here panics on bad input.
#![forbid(unsafe_code)]

pub mod blind;

pub use blind::{Blinding, PublicKey, SecretKey, Signature, Variant};

/// What can go wrong, each with a message a caller can show.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A key that does not decode, is not valid, or has unsupported parameters.
    #[error("bad RSA key: {0}")]
    Key(String),
    /// An argument of the wrong size or form (a blinded message, a secret, a randomizer).
    #[error("bad input: {0}")]
    Input(String),
    /// A variant name that is not one of RFC 9474's.
    #[error("unknown RSA blind signature variant {0:?} (RFC 9474 names: {names})", names = Variant::NAMES.join(", "))]
    Variant(String),
    /// The signature does not verify (also what `finalize` reports for a bad blind signature).
    #[error("the signature does not verify")]
    Verification,
    /// Something the library reported that is none of the above.
    #[error("RSA blind signature error: {0}")]
    Internal(String),
}
