//! zeenot-crypto (placeholder lib.rs left by a parallel helper; replace freely).
#![forbid(unsafe_code)]
mod error;
pub use error::{Error, Result};
