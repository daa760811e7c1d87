//! Prio for zeenot: a typed, bytes-in/bytes-out layer over the `prio` crate (VDAF-08 Prio3) and
//! `janus_messages` (DAP-09), at the versions Janus 0.7.145 speaks (`prio` 0.16.8).
//!
//! Nothing here re-implements Prio3, its fields, its FLP or a DAP encoding: [`vdaf`] calls the
//! crate's `Client`/`Aggregator`/`Collector` and ping-pong topology, [`dap`] calls
//! `janus_messages`' `Encode`/`Decode`, [`hpke`] calls `hpke-dispatch` (what janus_core uses)
//! with DAP-09's application info strings. [`afe`] adds the statistics the standard lacks (mean
//! and variance, OR/AND, MIN/MAX, linear regression) as Prio3 instances over the crate's FLP
//! `Type` trait and gadgets, with private algorithm ids. Every input is bounded in length before it is
//! decoded, and every failure is an [`Error`], never a panic.
#![forbid(unsafe_code)]

pub mod afe;
pub mod dap;
pub mod hpke;
pub mod kind;
pub mod shares;
pub mod vdaf;

pub use kind::VdafKind;
pub use vdaf::{AggregateResult, Measurement, Vdaf};

/// The largest message, share or state this crate decodes (64 MiB): checked before decoding.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// Every failure of this crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A VDAF or message description (JSON) that is malformed or out of the supported range.
    #[error("invalid description: {0}")]
    Description(String),
    /// An argument of the wrong shape: a measurement out of range, a key or nonce of the wrong
    /// length, an aggregator id other than 0 or 1.
    #[error("invalid input: {0}")]
    Input(String),
    /// Bytes that do not decode (truncated, trailing bytes, out-of-range values, too long).
    #[error("cannot decode {what}: {msg}")]
    Decode { what: &'static str, msg: String },
    /// Preparation rejected the report: its validity proof does not verify, or the shares do not
    /// belong together.
    #[error("report rejected: {0}")]
    Rejected(String),
    /// HPKE: an unsupported configuration, or a ciphertext that does not open.
    #[error("HPKE: {0}")]
    Hpke(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// Check `bytes` against [`MAX_MESSAGE_BYTES`] before decoding it as `what`.
pub(crate) fn bounded<'a>(what: &'static str, bytes: &'a [u8]) -> Result<&'a [u8]> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(Error::Decode {
            what,
            msg: format!("{} bytes, over the limit of {MAX_MESSAGE_BYTES}", bytes.len()),
        });
    }
    Ok(bytes)
}

pub(crate) fn decode_err(what: &'static str) -> impl FnOnce(prio::codec::CodecError) -> Error {
    move |e| Error::Decode { what, msg: e.to_string() }
}
